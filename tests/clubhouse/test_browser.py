"""The spectator web app in a real browser (Playwright with Debian's chromium; no browser is downloaded).

One server process (the HTTP server with the clubhouse) over a SQLite file holding two finished games of agents,
and an exhibition (``club-agentes exhibition``: a bots-only table at a watchable pace) in a second process. The
browser opens the lobby, follows the live game until it ends (every snapshot of the page checked for hidden
cards), steps through its replay, and reads the leaderboards, in both languages and on a phone-sized screen.

Screenshots of the lobby, the live table and the replay go to the test's folder, and to ``docs/`` with
``CLUB_AGENTES_SAVE_SCREENSHOTS=1``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_agentes.mcp_server.store import Store

from tests.clubhouse.helpers import assert_no_leak, clubhouse_app, finished_game, page_parts, start_server
from tests.mcp.helpers import CLI, stop

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DOCS = Path(__file__).resolve().parents[2] / "docs"
PACE_S = 0.12


def _need_browser() -> None:
    if not CHROMIUM.exists():
        message = f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail("the browser tests need the playwright package (pip install playwright)")


async def _populate(db: Path) -> None:
    app, house = clubhouse_app(Store(db))
    try:
        await finished_game(app, "se-vende", ["agent", "agent"], {0: "alice", 1: "bob"}, seed=1)
        await finished_game(app, "market-fortune", ["agent", "bot:heuristic"], {0: "alice"}, seed=2)
    finally:
        await house.aclose()
        await app.tables.aclose()
        app.store.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A server with the clubhouse over a SQLite file holding two finished games of agents."""
    _need_browser()
    db = tmp_path / "club.sqlite3"
    asyncio.run(_populate(db))
    proc, url = start_server({"CLUB_AGENTES_DB": str(db)})
    try:
        yield url, db
    finally:
        stop(proc)


def _exhibition(db: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            str(CLI),
            "exhibition",
            "market-fortune",
            "--seats",
            "bot:heuristic,bot:heuristic,bot:random",
            "--mode",
            "fortuna",
            "--pace",
            str(PACE_S),
            "--seed",
            "8",
            "--db",
            str(db),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not re.fullmatch(r"t-[0-9a-f]{12}", line):
        proc.kill()
        raise AssertionError(f"the exhibition did not start: {line} {proc.stderr.read() if proc.stderr else ''}")
    return proc, line


def _shot(page: Any, tmp: Path, name: str) -> None:
    path = tmp / name
    page.screenshot(path=str(path))
    if os.environ.get("CLUB_AGENTES_SAVE_SCREENSHOTS") == "1":
        DOCS.mkdir(exist_ok=True)
        shutil.copy(path, DOCS / name)


@pytest.mark.slow
def test_follow_a_live_game_replay_it_and_read_the_leaderboards(served: tuple[str, Path], tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, db = served
    exhibition, table_id = _exhibition(db)
    store = Store(db)
    snapshots: list[tuple[int, str]] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            page = browser.new_page(viewport={"width": 1200, "height": 900})

            # The lobby: three games, the live exhibition and the finished games with their agents.
            page.goto(f"{url}/?lang=en")
            expect(page.get_by_role("heading", name="Lobby", level=1)).to_be_visible()
            for name in ("Market Fortune", "Se Vende", "Yo soy el jefe"):
                expect(page.get_by_role("heading", name=name, level=2)).to_be_visible()
            live = page.locator('ul[data-kind="live"]').get_by_role("link", name=f"Watch table {table_id}")
            expect(live).to_be_visible()
            recent = page.locator('ul[data-kind="recent"]')
            expect(recent.get_by_role("link", name="alice").first).to_be_visible()
            expect(recent.get_by_role("link", name="bob")).to_be_visible()
            _shot(page, tmp_path, "lobby.png")

            # The live table: moves land on the page as they are stored, until the game ends.
            live.click()
            article = page.locator("article[data-stream]")
            expect(page.get_by_role("heading", name=re.compile(f"Market Fortune.*{table_id}"))).to_be_visible()
            versions: set[int] = set()
            shot = False
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                html = page.content()
                version = int(article.get_attribute("data-version") or -1)
                versions.add(version)
                snapshots.append((version, html))
                if not shot and version >= 25:
                    _shot(page, tmp_path, "table.png")
                    shot = True
                if article.get_attribute("data-ended") == "true":
                    break
                page.wait_for_timeout(250)
            assert article.get_attribute("data-ended") == "true", "the live game did not end on the page"
            assert len(versions) >= 10, f"the page saw too few moves land: {sorted(versions)}"
            assert shot
            result = page.locator("#result")
            expect(result).to_be_visible()
            expect(result.get_by_role("heading", name="Result")).to_be_visible()
            expect(result.locator("table.breakdown").first).to_be_visible()
            row = store.load_table(table_id)
            assert row is not None and row.status == "finished"
            assert int(article.get_attribute("data-version") or -1) == row.version
            assert page.locator("#events li").count() == len(store.load_events(table_id, seat=None))
            checked = assert_no_leak(store, table_id, [p for v, h in snapshots for p in page_parts(h, v)])
            assert checked >= 10

            # The replay: forward, back, the slider, start and end.
            page.get_by_role("link", name="Watch the step-by-step replay").click()
            replay = page.locator("article[data-steps]")
            steps = int(replay.get_attribute("data-steps") or 0)
            assert steps == row.version + 1
            forward = page.get_by_role("button", name="Forward")
            for _ in range(3):
                forward.click()
            expect(replay).to_have_attribute("data-step", "3")
            page.get_by_role("button", name="Back").click()
            expect(replay).to_have_attribute("data-step", "2")
            page.get_by_label("Replay step").fill("30")
            expect(replay).to_have_attribute("data-step", "30")
            expect(page.get_by_role("heading", name=re.compile(r"^Step 30 of \d+: move by seat \d"))).to_be_visible()
            expect(page.locator("#position")).to_have_text(f"30 / {steps - 1}")
            _shot(page, tmp_path, "replay.png")
            page.get_by_role("button", name="End").click()
            expect(replay).to_have_attribute("data-step", str(steps - 1))
            page.get_by_role("button", name="Start").click()
            expect(replay).to_have_attribute("data-step", "0")
            expect(page.get_by_role("heading", name=re.compile("^Step 0 of .*: the deal"))).to_be_visible()

            # The leaderboards, then in Spanish.
            page.get_by_role("navigation", name="Main navigation").get_by_role("link", name="Leaderboards").click()
            board = page.get_by_role("table", name=re.compile("Leaderboard: Market Fortune"))
            expect(board).to_be_visible()
            expect(board.get_by_role("rowheader", name="alice")).to_be_visible()
            expect(board.get_by_role("rowheader", name="bot:heuristic (anchor)")).to_be_visible()
            page.get_by_role("link", name="Se Vende").click()
            se_vende = page.get_by_role("table", name=re.compile("Leaderboard: Se Vende"))
            expect(se_vende.get_by_role("rowheader", name="bob")).to_be_visible()
            page.get_by_role("link", name="Español").click()
            expect(page.get_by_role("heading", name="Clasificaciones", level=1)).to_be_visible()
            expect(page.locator("html")).to_have_attribute("lang", "es")

            # A phone: nothing wider than the screen.
            phone = browser.new_page(viewport={"width": 360, "height": 740})
            for path in ("/?lang=es", f"/tables/{table_id}?lang=es", f"/tables/{table_id}/replay?lang=es"):
                phone.goto(url + path)
                wide = phone.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
                assert wide <= 0, f"{path} is {wide}px wider than a phone screen"
            browser.close()
    finally:
        store.close()
        try:
            exhibition.wait(30)
        except subprocess.TimeoutExpired:
            exhibition.kill()
            exhibition.wait(10)
    assert exhibition.returncode == 0, "the exhibition command did not end with the game"
