"""The distribution installs one top-level package, ``club_agentes``, and starts in the ways the README
promises: ``python -m club_agentes``, the ``club-agentes`` script and ``uvx --from <checkout>``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]


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
