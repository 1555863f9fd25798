"""The distribution installs one top-level package, ``club_agentes``, and starts in the ways the README
promises: ``python -m club_agentes``, the ``club-agentes`` script and ``uvx --from <checkout>``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]


def build_wheel(out: Path) -> Path:
    """Build the project's wheel (no dependencies) into ``out``; return its path."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("club_agentes-*.whl")
    return wheel


@pytest.mark.slow
def test_the_wheel_adds_only_club_agentes_at_the_top_level(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path / "dist")
    with zipfile.ZipFile(wheel) as z:
        tops = {name.split("/", 1)[0] for name in z.namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"club_agentes"}
    names = zipfile.ZipFile(wheel).namelist()
    for data in (
        "club_agentes/rules_corpus/data/se-vende/rulebook.txt",
        "club_agentes/quizzes/data/market-fortune/questions.toml",
        "club_agentes/engine/market_fortune/components.toml",
        "club_agentes/mcp_server/clubhouse/templates/table.html",
        "club_agentes/mcp_server/clubhouse/static/club.css",
    ):
        assert data in names, f"{data} is missing from the wheel"
    # Installed into a fresh environment, it adds exactly one package folder.
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(
        subprocess.run(
            [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    before = {p.name for p in site.iterdir()}
    subprocess.run([py, "-m", "pip", "install", "--no-deps", "--quiet", str(wheel)], check=True, capture_output=True)
    added = {p.name for p in site.iterdir()} - before
    assert {a for a in added if not a.endswith(".dist-info") and a != "__pycache__"} == {"club_agentes"}


async def _lists_tools(params: StdioServerParameters) -> list[str]:
    async with Client(params) as client:
        return [t.name for t in (await client.list_tools()).tools]


@pytest.mark.anyio
async def test_python_m_club_agentes_serves(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "club_agentes", "serve", "--db", str(tmp_path / "club.sqlite3")],
        env={**os.environ},
    )
    tools = await _lists_tools(params)
    assert {"list_games", "start_quiz", "play_move"} <= set(tools)


def test_version_flag() -> None:
    out = subprocess.run([sys.executable, "-m", "club_agentes", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("club-agentes ")


@pytest.mark.slow
@pytest.mark.anyio
async def test_uvx_from_the_checkout_serves(tmp_path: Path) -> None:
    uvx = shutil.which("uvx") or str(Path(sys.executable).with_name("uvx"))
    if not Path(uvx).exists():
        pytest.fail("uvx is missing: the test extra installs uv")
    params = StdioServerParameters(
        command=uvx,
        args=["--from", str(ROOT), "club-agentes", "serve", "--db", str(tmp_path / "club.sqlite3")],
        env={**os.environ, "UV_PYTHON": sys.executable},
    )
    tools = await _lists_tools(params)
    assert "list_games" in tools
