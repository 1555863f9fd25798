"""``club-agentes ratings rebuild|show`` and ``club-agentes exhibition`` on a real store."""

from __future__ import annotations

import asyncio
import contextlib
import io
import subprocess
from pathlib import Path

import pytest
from club_agentes.mcp_server.cli import main
from club_agentes.mcp_server.clubhouse.ratings import Ratings
from club_agentes.mcp_server.store import Store

from tests.clubhouse.helpers import clubhouse_app, finished_game


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the command line in this process (as the console script would); return its status and output."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return subprocess.CompletedProcess(["club-agentes", *args], status, out.getvalue(), err.getvalue())


async def _two_games(db: Path) -> None:
    app, house = clubhouse_app(Store(db))
    try:
        await finished_game(app, "yo-soy-el-jefe", ["agent", "agent"], {0: "alice", 1: "bob"}, seed=3)
        await finished_game(app, "yo-soy-el-jefe", ["agent", "bot:heuristic"], {0: "bob"}, seed=4)
    finally:
        await house.aclose()
        await app.tables.aclose()
        app.store.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite3"
    asyncio.run(_two_games(path))
    return path


def test_ratings_rebuild_recomputes_the_same_numbers_and_show_prints_the_leaderboards(db: Path) -> None:
    store = Store(db)
    try:
        assert Ratings(store).rate_pending() == 2
        before = Ratings(store).snapshot()
    finally:
        store.close()
    out = run("ratings", "rebuild", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Rated 2 finished games again; 3 ratings")
    store = Store(db)
    try:
        assert Ratings(store).snapshot() == before
    finally:
        store.close()
    shown = run("ratings", "show", "--game", "yo-soy-el-jefe", "--db", str(db))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "Yo soy el jefe leaderboard (2 rated games; rating = mu - 3 sigma):"
    assert {ln.split(". ", 1)[1].rsplit(": ", 1)[0] for ln in lines[1:]} >= {"alice", "bob", "bot:heuristic (anchor)"}


def test_bad_arguments_get_one_line_and_status_2(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite3")
    for args in (
        ("ratings", "show", "--game", "ajedrez", "--db", db),
        ("ratings", "show", "--limit", "0", "--db", db),
        ("exhibition", "ajedrez", "--db", db),
        ("exhibition", "se-vende", "--seats", "agent,bot:random", "--db", db),
        ("exhibition", "se-vende", "--pace", "99", "--db", db),
    ):
        out = run(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert out.stderr.startswith("club-agentes: ") and out.stderr.count("\n") == 1, out.stderr
        assert "Traceback" not in out.stderr


def test_an_exhibition_plays_a_bots_only_table_to_its_end(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    out = run("exhibition", "se-vende", "--pace", "0", "--seed", "5", "--db", str(db))
    assert out.returncode == 0, out.stderr
    table_id, last = out.stdout.splitlines()
    assert last == f"Table {table_id}: finished."
    store = Store(db)
    try:
        row = store.tables.load_table(table_id)
        assert row is not None and row.status == "finished" and row.seats == ["bot:heuristic", "bot:heuristic"]
        assert len(store.tables.load_moves(table_id)) == row.version > 10
    finally:
        store.close()
