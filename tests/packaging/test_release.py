"""What a release uploads: the wheel and sdist ``python -m build`` makes (as CI and CONTRIBUTING.md's release
procedure build them), their contents and metadata, and the wheel installed into a fresh environment, where
``club-agentes --version``, a tool call over stdio and an inspect-ai task named by its entry point work.

The build runs on a copy of the checkout (parallel workers build at once) without isolation
(``--no-isolation``: the test environment's setuptools, nothing downloaded); the fresh environment
gets only the wheel (``--no-deps``) and sees the test environment's already installed dependencies
through a ``.pth`` line, so the test runs offline.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
DATA_FILES = (
    "club_agentes/rules_corpus/data/se-vende/rulebook.txt",
    "club_agentes/quizzes/data/market-fortune/questions.toml",
    "club_agentes/engine/market_fortune/components.toml",
    "club_agentes/mcp_server/clubhouse/templates/table.html",
    "club_agentes/mcp_server/clubhouse/static/club.css",
    "club_agentes/py.typed",
)

LOCAL_ONLY = (".git", ".venv", ".node", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "logs", "*.sqlite3")
"""What a checkout may hold that is not the project's (the build must not see it)."""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the wheel and the sdist of this checkout."""
    out = tmp_path_factory.mktemp("dist")
    source = tmp_path_factory.mktemp("source") / "club-agentes"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*LOCAL_ONLY))
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    return out


def wheel_of(dist: Path) -> Path:
    (wheel,) = dist.glob(f"club_agentes-{VERSION}-py3-none-any.whl")
    return wheel


def sdist_of(dist: Path) -> Path:
    (sdist,) = dist.glob(f"club_agentes-{VERSION}.tar.gz")
    return sdist


def test_twine_check_passes(dist: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel_of(dist)), str(sdist_of(dist))],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_wheel_holds_club_agentes_its_data_and_the_licence(dist: Path) -> None:
    with zipfile.ZipFile(wheel_of(dist)) as z:
        names = z.namelist()
        info = f"club_agentes-{VERSION}.dist-info"
        metadata = email.message_from_bytes(z.read(f"{info}/METADATA"))
        entry_points = z.read(f"{info}/entry_points.txt").decode()
    assert {n.split("/", 1)[0] for n in names} == {"club_agentes", info}
    for data in DATA_FILES:
        assert data in names, f"{data} is missing from the wheel"
    assert f"{info}/licenses/LICENSE" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".sqlite3"))]
    assert metadata["License-Expression"] == "MIT" and metadata["License-File"] == "LICENSE"
    assert "License" not in metadata or metadata["License"] is None  # no deprecated free-text licence
    assert metadata["Name"] == "club-agentes" and metadata["Version"] == VERSION
    assert metadata.get_all("Classifier") and metadata.get_all("Keywords")
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL") or [])
    assert urls["Repository"] == "https://github.com/club-de-agentes/club-agentes"
    assert "mcp-name: io.github.club-de-agentes/club-agentes" in (metadata.get_payload() or "")
    assert "[inspect_ai]\nclub_agentes = club_agentes.evals" in entry_points
    assert "club-agentes = club_agentes.mcp_server.cli:main" in entry_points


def test_the_sdist_holds_the_tests_the_docs_and_the_licence(dist: Path) -> None:
    top = f"club_agentes-{VERSION}"
    with tarfile.open(sdist_of(dist)) as t:
        names = set(t.getnames())
    for path in (
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "pyproject.toml",
        "setup.py",
        "server.json",
        "docs/evaluators.md",
        "docs/lobby.png",
        "tests/conftest.py",
        "tests/packaging/test_release.py",
        "rules_corpus/data/se-vende/rulebook.txt",
        "mcp_server/clubhouse/templates/table.html",
    ):
        assert f"{top}/{path}" in names, f"{path} is missing from the sdist"
    assert not [n for n in names if "/.ci/.node" in n or "__pycache__" in n or n.endswith((".sqlite3", ".pyc"))]


@pytest.fixture(scope="module")
def fresh(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A new environment with only the wheel installed (its dependencies seen through a ``.pth`` line)."""
    env_dir = tmp_path_factory.mktemp("fresh") / "venv"
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
    subprocess.run(
        [py, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel_of(dist))],
        check=True,
        capture_output=True,
    )
    added = {p.name for p in site.iterdir()} - before
    assert {a for a in added if not a.endswith(".dist-info") and a != "__pycache__"} == {"club_agentes"}
    (site / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    yield env_dir


def fresh_env(tmp: Path) -> dict[str, str]:
    """Environment of a command in the fresh venv: no checkout on the path, no network."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    unreachable = "http://127.0.0.1:9"
    cache = tmp / "tiktoken-cache"
    cache.mkdir(exist_ok=True)
    return env | {
        "HTTPS_PROXY": unreachable,
        "HTTP_PROXY": unreachable,
        "TIKTOKEN_CACHE_DIR": str(cache),
        "INSPECT_DISPLAY": "none",
    }


def test_the_installed_wheel_is_the_package_imported(fresh: Path, tmp_path: Path) -> None:
    out = subprocess.run(
        [fresh / "bin" / "python", "-c", "import club_agentes; print(club_agentes.__file__, club_agentes.__version__)"],
        cwd=tmp_path,
        env=fresh_env(tmp_path),
        capture_output=True,
        text=True,
        check=True,
    )
    path, version = out.stdout.split()
    assert Path(path).is_relative_to(fresh) and version == VERSION


def test_the_installed_script_prints_its_version(fresh: Path, tmp_path: Path) -> None:
    out = subprocess.run(
        [fresh / "bin" / "club-agentes", "--version"], cwd=tmp_path, env=fresh_env(tmp_path), capture_output=True
    )
    assert out.returncode == 0 and out.stdout.decode().strip() == f"club-agentes {VERSION}"


@pytest.mark.anyio
async def test_the_installed_server_answers_a_tool_call_over_stdio(fresh: Path, tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=str(fresh / "bin" / "club-agentes"),
        args=["serve", "--db", str(tmp_path / "club.sqlite3")],
        env=fresh_env(tmp_path),
        cwd=str(tmp_path),
    )
    async with Client(params) as client:
        result = await client.call_tool("list_games", {})
    assert not result.is_error and result.structured_content
    assert {g["id"] for g in result.structured_content["games"]} == {"market-fortune", "se-vende", "yo-soy-el-jefe"}


def test_an_inspect_task_runs_from_the_installed_package_offline(fresh: Path, tmp_path: Path) -> None:
    out = subprocess.run(
        [
            fresh / "bin" / "python",
            "-m",
            "inspect_ai",
            "eval-set",
            "club_agentes/yo_soy_el_jefe_rules",
            "--model",
            "mockllm-offline/model",
            "--limit",
            "2",
            "--retry-attempts",
            "0",
            "--log-dir",
            str(tmp_path / "logs"),
        ],
        cwd=tmp_path,
        env=fresh_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert list((tmp_path / "logs").glob("*yo-soy-el-jefe-rules*.eval"))
