"""The README is the package index's description: its links are absolute, it carries the registry's
``mcp-name`` line, its install lines name the package, and its Python client snippet runs as written
against a keyed HTTP server using only the SDK's public modules."""

from __future__ import annotations

import ast
import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.helpers import add_agent, start_http_server, stop

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
REPOSITORY = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))["repository"]["url"]


def test_every_link_is_absolute_and_names_this_repository() -> None:
    targets = re.findall(r"\]\(([^)\s]+)\)", README) + re.findall(r"<(https?://[^>]+)>", README)
    assert targets
    for target in targets:
        assert re.match(r"https?://", target), f"relative link {target!r} breaks on a package index"
    own = [t for t in targets if "club-de-agentes" in t]
    assert own and all(
        t.startswith((REPOSITORY, REPOSITORY.replace("github.com", "raw.githubusercontent.com"))) for t in own
    )
    assert "<host>" not in README and "<owner>" not in README


def test_the_readme_names_the_registry_entry() -> None:
    name = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))["name"]
    assert f"mcp-name: {name}" in README


def test_the_install_lines_name_the_package_beside_the_checkout_form() -> None:
    section = README[README.index("## Install and run") : README.index("Everything lives in one installed package")]
    assert "uvx club-agentes serve" in section
    assert "pip install club-agentes" in section
    assert "uvx --from . club-agentes serve" in section


def python_snippet() -> str:
    """The README's Python client snippet."""
    (snippet,) = [b for b in re.findall(r"```python\n(.*?)```", README, flags=re.S) if "call_tool" in b]
    return snippet


def test_the_client_snippet_imports_only_public_modules() -> None:
    tree = ast.parse(python_snippet().replace("async with", "with").replace("await ", ""))
    modules = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert modules
    for module in modules:
        assert not any(part.startswith("_") for part in module.split(".")), f"private module {module}"


@pytest.mark.anyio
async def test_the_client_snippet_runs_against_a_keyed_server(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    key = add_agent(db, "readme-reader")
    proc, url = start_http_server(db, None, keys=True)
    try:
        body = python_snippet().replace("http://127.0.0.1:8000/mcp", url)
        source = "async def snippet(key):\n" + textwrap.indent(body, "    ") + "    return paper\n"
        namespace: dict[str, Any] = {}
        exec(compile(source, "README.md", "exec"), namespace)
        paper = await namespace["snippet"](key)
    finally:
        stop(proc)
    assert not paper.is_error
    assert paper.structured_content and len(paper.structured_content["items"]) == 4
