"""The spectator web app in a real browser (Playwright with Debian's chromium; no browser is downloaded).

One server process (the HTTP server with the clubhouse) over a SQLite file holding a finished game and a live
table (agents to move, so it stands still) of each game, and an exhibition (``club-agentes exhibition``: a
bots-only table at a watchable pace) in a second process. The browser checks each game's drawn table against
its public view, opens the lobby and sees the exhibition appear without a reload, follows the live game until
it ends (every snapshot of the page and every message of its stream checked for hidden cards), plays its
replay, reads the leaderboards, and loads every page on a phone-sized screen.

Screenshots go to the test's folder, and to ``docs/`` with ``CLUB_AGENTES_SAVE_SCREENSHOTS=1``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from club_agentes.mcp_server.clubhouse.draw import drawn_view
from club_agentes.mcp_server.store import Store

from tests.clubhouse.helpers import (
    assert_no_leak,
    clubhouse_app,
    finished_game,
    live_game,
    page_parts,
    sse_messages,
    start_server,
    state_at,
)
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
GAMES = ("market-fortune", "se-vende", "yo-soy-el-jefe")


def need_browser() -> None:
    """Skip (fail on CI) without Debian's chromium; fail without the playwright package."""
    if not CHROMIUM.exists():
        message = f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail("the browser tests need the playwright package (pip install playwright)")


_need_browser = need_browser  # the name tests/mcp/test_oauth_browser.py imports


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium through Playwright, closed at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def watched_page(browser: Any, width: int, height: int) -> tuple[Any, list[str]]:
    """Return a new page of ``width`` x ``height`` and the list its script errors and console errors go to."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page, errors


def save_shot(target: Any, tmp: Path, name: str, docs: bool = True) -> None:
    """Screenshot a page or element to the test's folder, and (``docs``) to ``docs/`` with
    CLUB_AGENTES_SAVE_SCREENSHOTS=1."""
    path = tmp / name
    target.screenshot(path=str(path))
    if docs and os.environ.get("CLUB_AGENTES_SAVE_SCREENSHOTS") == "1":
        DOCS.mkdir(exist_ok=True)
        shutil.copy(path, DOCS / name)


async def _populate(db: Path) -> dict[str, str]:
    app, house = clubhouse_app(Store(db))
    ids: dict[str, str] = {}
    try:
        ids["done/se-vende"] = await finished_game(app, "se-vende", ["agent", "agent"], {0: "alice", 1: "bob"}, seed=1)
        ids["done/market-fortune"] = await finished_game(
            app, "market-fortune", ["agent", "bot:heuristic"], {0: "alice"}, seed=2
        )
        ids["done/yo-soy-el-jefe"] = await finished_game(
            app, "yo-soy-el-jefe", ["agent", "bot:heuristic", "agent"], {0: "alice", 2: "bob"}, seed=6
        )
        ids["live/market-fortune"] = await live_game(
            app, "market-fortune", ["agent", "bot:heuristic", "agent"], {0: "alice", 2: "carol"}, seed=3, moves=35
        )
        ids["live/se-vende"] = await live_game(
            app, "se-vende", ["agent", "agent", "bot:heuristic"], {0: "alice", 1: "bob"}, seed=4, moves=60
        )
        ids["live/yo-soy-el-jefe"] = await live_game(
            app,
            "yo-soy-el-jefe",
            ["agent", "agent", "bot:heuristic", "agent"],
            {0: "alice", 1: "bob", 3: "dora"},
            seed=5,
            moves=90,
        )
    finally:
        await house.aclose()
        await app.tables.aclose()
        app.store.close()
    return ids


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, dict[str, str]]]:
    """A server with the clubhouse over a SQLite file holding a finished game and a live table of each game."""
    need_browser()
    db = tmp_path_factory.mktemp("club") / "club.sqlite3"
    ids = asyncio.run(_populate(db))
    proc, url = start_server({"CLUB_AGENTES_DB": str(db)})
    try:
        yield url, db, ids
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


def _stream(url: str, out: list[str]) -> threading.Thread:
    """Read a server-sent events stream to its end in a thread, appending what arrives to ``out``."""

    def run() -> None:
        with httpx.stream("GET", url, timeout=httpx.Timeout(10, read=300)) as r:
            for chunk in r.iter_text():
                out.append(chunk)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _first_update(url: str) -> dict[str, Any]:
    """Return the first ``update`` message of a server-sent events stream (then hang up)."""
    text = ""
    with httpx.stream("GET", url, timeout=httpx.Timeout(10, read=30)) as r:
        for chunk in r.iter_text():
            text += chunk
            updates = [d for e, d in sse_messages(text.rsplit("\n\n", 1)[0] + "\n\n") if e == "update"]
            if updates:
                return updates[0]
    raise AssertionError(f"no update came from {url}: {text[:300]}")


# What the drawing shows, read back from the page (the same facts for every game, and each game's own).
READ_DRAWING = """() => {
  const nums = (sel, attr, root = document) => [...root.querySelectorAll(sel)].map(e => e.getAttribute(attr));
  const backs = (root) => {
    const out = {};
    root.querySelectorAll('[data-back][data-count]').forEach(e => {
      const k = e.getAttribute('data-back'); out[k] = (out[k] || 0) + parseInt(e.getAttribute('data-count'), 10);
    });
    return out;
  };
  const seats = [...document.querySelectorAll('.drawn-table .seat')].map(s => ({
    seat: parseInt(s.getAttribute('data-seat'), 10),
    name: s.querySelector('.seat-name').textContent,
    backs: backs(s),
    cards: nums('[data-card]', 'data-card', s),
    investments: nums('[data-investment]', 'data-face-up', s),
    tableau: nums('.tableau [data-card]', 'data-card', s),
    investors: nums('.investors [data-investor]', 'data-investor', s),
  }));
  const piles = {};
  document.querySelectorAll('.center [data-pile]').forEach(e => {
    piles[e.getAttribute('data-pile')] = parseInt(e.getAttribute('data-size'), 10);
  });
  const center = document.querySelector('.drawn-table .center');
  return {
    seats, piles,
    scores: nums('.score-chip', 'data-score'),
    progress: nums('.progress [data-progress]', 'data-progress'),
    tops: nums('.pile-discard [data-card]', 'data-card', center),
    spaces: nums('.board .space', 'data-covered'),
    marker: nums('[data-marker]', 'data-marker'),
    phases: nums('.phase-track [data-phase]', 'data-state'),
    die: nums('[data-die]', 'data-die'),
    lastmove: document.querySelector('.lastmove').getAttribute('data-version'),
  };
}"""


def _check_drawing(game: str, view: dict[str, Any], names: list[str], drawn: dict[str, Any], version: int) -> None:
    """Check the drawing read back from a page against the public view it was drawn from."""
    players = view["players"]
    seats = {s["seat"]: s for s in drawn["seats"]}
    assert sorted(seats) == list(range(len(players))), drawn["seats"]
    for p in players:
        assert seats[p["seat"]]["name"] == names[p["seat"]]
    assert len(drawn["scores"]) == len(players) and drawn["progress"]
    assert int(drawn["lastmove"]) == version
    if game == "market-fortune":
        for p in players:
            s = seats[p["seat"]]
            known = {k: v for k, v in p.get("known_to_all", {}).items()}
            known_hand = known.get("hand", [])
            stock_known = sum(1 for c in known_hand if c["kind"] == "accion")
            assert s["backs"].get("stock", 0) == p["hand_stock"] - stock_known, (p, s)
            assert s["backs"].get("return", 0) == p["hand_return"] - (len(known_hand) - stock_known), (p, s)
            assert s["backs"].get("strategy", 0) == p["strategies"] - len(known.get("strategies", [])), (p, s)
            assert s["investments"] == ["true" if i["face_up"] else "false" for i in p["investments"]]
            for inv in p["investments"]:
                if "stock" in inv:
                    assert inv["stock"]["id"] in s["cards"] and inv["return"]["id"] in s["cards"]
        for key in ("stock", "return", "strategy"):
            pile = view["piles"][key]
            assert drawn["piles"][f"{key}-deck"] == pile["deck"]
            assert drawn["piles"][f"{key}-discard"] == pile["discard_size"]
            if pile["discard_top"]:
                assert pile["discard_top"]["id"] in drawn["tops"]
        assert len(drawn["die"]) == 1
    elif game == "se-vende":
        for p in players:
            assert seats[p["seat"]]["tableau"] == [c["id"] for c in p["tableau"]]
            assert seats[p["seat"]]["backs"].get("sv", 0) == p["hand_size"]
        assert [int(x) for x in drawn["scores"]] == [p["score"] for p in players]
        assert drawn["piles"]["supply-deck"] == view["supply_size"]
        assert drawn["piles"]["supply-discard"] == view["discard_size"]
        assert drawn["piles"]["chips"] == view["chip_pool"]
        assert len(drawn["phases"]) == 5
    else:
        assert len(drawn["spaces"]) == 16
        assert drawn["spaces"] == [str(b["covered_by"] or "") for b in view["board"]]
        assert drawn["marker"] == ([str(view["marker"])] if view["marker"] else [])
        for p in players:
            assert seats[p["seat"]]["investors"] == p["investors"]
            assert seats[p["seat"]]["backs"].get("ysj", 0) == p["hand_count"] - len(p["known_cards"])
        assert drawn["piles"]["deck-deck"] == view["deck_count"]
        assert drawn["piles"]["deck-discard"] == view["discard_count"]
        assert drawn["piles"]["deals"] == view["deal_cards_left"]


@pytest.mark.slow
def test_each_game_is_drawn_from_its_public_view(served: tuple[str, Path, dict[str, str]], tmp_path: Path) -> None:
    from playwright.sync_api import expect

    url, db, ids = served
    store = Store(db)
    try:
        with chromium() as browser:
            page, errors = watched_page(browser, 1280, 1000)
            for game in GAMES:
                tid = ids[f"live/{game}"]
                row = store.tables.load_table(tid)
                assert row is not None and row.status == "playing"
                page.goto(f"{url}/tables/{tid}?lang=en")
                expect(page.locator(f'.drawn-table[data-game="{game}"]')).to_be_visible()
                g, state = state_at(store, tid, row.version)
                view = g.view(state, None)
                claims = {c.seat: c.agent for c in store.tables.seat_claims(tid)}
                names = [claims.get(s, spec) for s, spec in enumerate(row.seats)]
                _check_drawing(game, view, names, page.evaluate(READ_DRAWING), row.version)
                assert_no_leak(store, tid, page_parts(page.content(), row.version))
                first = _first_update(f"{url}/tables/{tid}/stream?lang=en")
                assert first["version"] == row.version and first["scene"]["view"] == drawn_view(view)
                assert_no_leak(store, tid, [(row.version, json.dumps(first))])
                save_shot(page.locator("#drawn"), tmp_path, f"table-{game}.png")

                done = ids[f"done/{game}"]
                page.goto(f"{url}/tables/{done}/replay?lang=en&step=40")
                expect(page.locator(f'.drawn-table[data-game="{game}"]')).to_be_visible()
                expect(page.locator("#moves a[aria-current=step]")).to_have_attribute("data-step", "40")
                save_shot(page, tmp_path, f"replay-{game}.png")
            assert not errors, errors
    finally:
        store.close()


STRICT = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
"""A policy as strict as a spectator page may be served with: the browser reports whatever it blocks."""


def _strict(route: Any) -> None:
    """Serve a page (not its scripts or streams) with the STRICT policy."""
    if route.request.resource_type != "document":
        route.continue_()
        return
    response = route.fetch()
    route.fulfill(response=response, headers={**response.headers, "content-security-policy": STRICT})


PAGE_TEXT = """(lang) => {
  const foreign = [...document.body.querySelectorAll('[lang]')]
    .filter(e => e.getAttribute('lang') !== lang && !e.matches('a[hreflang]'))
    .map(e => e.outerHTML.slice(0, 200));
  const root = document.body.cloneNode(true);
  root.querySelectorAll('script, style, a[hreflang]').forEach(e => e.remove());
  return {text: root.textContent, foreign: foreign};
}"""
"""A page's words (everything but scripts and the language switch, which names the other language in it: the
events, the last move, the move list, the result, the decision and the text of the view included) and the parts
marked as being in another language (none may be)."""


@pytest.mark.slow
def test_one_language_per_page(served: tuple[str, Path, dict[str, str]]) -> None:
    from playwright.sync_api import expect

    from tests.clubhouse.test_words import ENGLISH, SPANISH

    url, db, ids = served
    store = Store(db)
    pages = ["/", "/agents/alice"] + [f"/leaderboard/{g}" for g in GAMES]
    for game in GAMES:
        done = ids[f"done/{game}"]
        row = store.tables.load_table(done)
        assert row is not None
        pages += [f"/tables/{ids[f'live/{game}']}", f"/tables/{done}"]
        pages += [f"/tables/{done}/replay?step={k}" for k in (0, 1, row.version // 2, row.version)]
    store.close()
    with chromium() as browser:
        page, errors = watched_page(browser, 1280, 900)
        page.route("**/*", _strict)  # the pages work under a policy with no inline script or style
        for lang, other in (("es", ENGLISH), ("en", SPANISH)):
            for path in pages:
                page.goto(f"{url}{path}{'&' if '?' in path else '?'}lang={lang}")
                if "/tables/" in path:
                    expect(page.locator(".drawn-table")).to_be_visible()
                    page.locator("#result-drawn, .drawn-table").first.wait_for()
                assert page.locator("html").get_attribute("lang") == lang
                said = page.evaluate(PAGE_TEXT, lang)
                assert not said["foreign"], f"{path} in {lang} has parts in another language: {said['foreign'][:3]}"
                text = " ".join(said["text"].split())
                found = sorted({m.group(0) for m in other.finditer(text)})
                assert not found, f"{path} in {lang} shows {found}: " + " | ".join(
                    text[max(0, m.start() - 60) : m.end() + 60] for m in list(other.finditer(text))[:3]
                )
        assert not errors, errors


@pytest.mark.slow
def test_every_page_fits_a_phone(served: tuple[str, Path, dict[str, str]], tmp_path: Path) -> None:
    url, _, ids = served
    paths = ["/", "/leaderboard/market-fortune", "/leaderboard/yo-soy-el-jefe", "/agents/alice"]
    for game in GAMES:
        live, done = ids[f"live/{game}"], ids[f"done/{game}"]
        paths += [f"/tables/{live}", f"/tables/{done}", f"/tables/{done}/replay"]
    with chromium() as browser:
        for width in (360, 390):
            phone, errors = watched_page(browser, width, 800)
            for path in paths:
                for lang in ("es", "en"):
                    phone.goto(f"{url}{path}?lang={lang}")
                    phone.wait_for_load_state("load")
                    wide = phone.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
                    assert wide <= 0, f"{path}?lang={lang} is {wide}px wider than a {width}px screen"
            if width == 390:
                phone.goto(f"{url}/?lang=es")
                save_shot(phone, tmp_path, "lobby-phone.png")
            assert not errors, errors
            phone.close()


@pytest.mark.slow
def test_follow_a_live_game_replay_it_and_read_the_leaderboards(
    served: tuple[str, Path, dict[str, str]], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    url, db, _ = served
    store = Store(db)
    snapshots: list[tuple[int, str]] = []
    exhibition: subprocess.Popen[str] | None = None
    try:
        with chromium() as browser:
            page, errors = watched_page(browser, 1280, 900)

            # The lobby is open before the exhibition starts: the new table appears without a reload.
            page.goto(f"{url}/?lang=en")
            expect(page.get_by_role("heading", name="Lobby", level=1)).to_be_visible()
            for name in ("Market Fortune", "Se Vende", "Yo soy el jefe"):
                expect(page.get_by_role("heading", name=name, level=2)).to_be_visible()
            recent = page.locator('ul[data-kind="recent"]')
            expect(recent.get_by_role("link", name="alice").first).to_be_visible()
            expect(recent.get_by_role("link", name="bob").first).to_be_visible()
            exhibition, table_id = _exhibition(db)
            live = page.locator('ul[data-kind="live"]').get_by_role("link", name=f"Watch table {table_id}")
            expect(live).to_be_visible(timeout=20_000)
            assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # no reload
            save_shot(page, tmp_path, "lobby.png")

            # The live table: moves land on the drawing as they are stored, until the game ends; its stream is
            # read beside the page.
            raw: list[str] = []
            reader = _stream(f"{url}/tables/{table_id}/stream?lang=en", raw)
            live.click()
            article = page.locator("article[data-stream]")
            expect(page.get_by_role("heading", name=re.compile(f"Market Fortune.*{table_id}"))).to_be_visible()
            versions: set[int] = set()
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                html = page.content()  # one snapshot: its version is the one its article says (set with it)
                version = int(re.search(r'<article [^>]*data-version="(\d+)"', html).group(1))  # type: ignore[union-attr]
                versions.add(version)
                snapshots.append((version, html))
                if article.get_attribute("data-ended") == "true":
                    break
                page.wait_for_timeout(250)
            assert article.get_attribute("data-ended") == "true", "the live game did not end on the page"
            assert len(versions) >= 10, f"the page saw too few moves land: {sorted(versions)}"
            result = page.locator("#result")
            expect(result).to_be_visible()
            expect(result.get_by_role("heading", name="Result")).to_be_visible()
            expect(result.locator(".result-seat").first).to_be_visible()
            row = store.tables.load_table(table_id)
            assert row is not None and row.status == "finished"
            assert int(article.get_attribute("data-version") or -1) == row.version
            assert page.locator("#events li").count() == len(store.tables.load_events(table_id, seat=None))
            assert page.locator(".drawn-table .seat").count() == 3
            checked = assert_no_leak(store, table_id, [p for v, h in snapshots for p in page_parts(h, v)])
            assert checked >= 10
            reader.join(60)
            updates = [d for e, d in sse_messages("".join(raw)) if e == "update"]
            assert len(updates) >= 10 and updates[-1]["over"]
            stream_parts: list[tuple[int, str]] = []
            for u in updates:
                stream_parts.append((u["version"], json.dumps({k: v for k, v in u.items() if k != "events"})))
                stream_parts += [(e["version"], e["text"]) for e in u["events"]]
            assert assert_no_leak(store, table_id, stream_parts) >= 10

            # The replay: forward, back, the slider, play and pause, the keys, the move list, start and end.
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
            expect(page.locator(".drawn-table .lastmove")).to_have_attribute("data-version", "30")
            assert "step=30" in page.url  # the address is a link to this position
            save_shot(page, tmp_path, "replay.png")
            page.locator("#speed").select_option("100")
            page.get_by_role("button", name="Play").click()
            expect(replay).to_have_attribute("data-playing", "true")
            # Polled from here: wait_for_function evaluates its string with eval, which the pages' CSP refuses.
            for _ in range(300):
                if int(replay.get_attribute("data-step") or 0) >= 33:
                    break
                page.wait_for_timeout(50)
            assert int(replay.get_attribute("data-step") or 0) >= 33
            page.get_by_role("button", name="Pause").click()
            expect(replay).not_to_have_attribute("data-playing", "true")
            paused = int(replay.get_attribute("data-step") or 0)
            page.wait_for_timeout(400)
            assert int(replay.get_attribute("data-step") or 0) == paused
            page.locator("body").press("ArrowRight")
            expect(replay).to_have_attribute("data-step", str(paused + 1))
            page.locator("body").press("Home")
            expect(replay).to_have_attribute("data-step", "0")
            expect(page.get_by_role("heading", name=re.compile("^Step 0 of .*: the deal"))).to_be_visible()
            page.locator("body").press("End")
            expect(replay).to_have_attribute("data-step", str(steps - 1))
            link = page.locator('#moves a[data-step="12"]')
            assert (link.get_attribute("href") or "").endswith("step=12")
            link.click()
            expect(replay).to_have_attribute("data-step", "12")
            expect(page.locator("#moves a[aria-current=step]")).to_have_attribute("data-step", "12")
            page.get_by_role("button", name="Start").click()
            expect(replay).to_have_attribute("data-step", "0")
            page.goto(f"{url}/tables/{table_id}/replay?lang=en&step=12")
            expect(replay).to_have_attribute("data-step", "12")

            # The leaderboards: ordered by the rating shown, explained, mu and sigma in a tooltip; then in Spanish.
            page.get_by_role("navigation", name="Main navigation").get_by_role("link", name="Leaderboards").click()
            board = page.get_by_role("table", name=re.compile("Leaderboard: Market Fortune"))
            expect(board).to_be_visible()
            expect(board.get_by_role("rowheader", name="alice")).to_be_visible()
            expect(board.get_by_role("rowheader", name="bot:heuristic (anchor)")).to_be_visible()
            shown = [float(x) for x in board.locator("tbody td:nth-child(3)").all_inner_texts()]
            assert shown == sorted(shown, reverse=True)
            tips = board.locator("tbody td:nth-child(3)").evaluate_all("els => els.map(e => e.title)")
            assert all(re.fullmatch(r"μ -?[\d.]+ − 3 × σ [\d.]+ = -?[\d.]+", tip) for tip in tips), tips
            expect(page.get_by_role("heading", name="Which rating is shown")).to_be_visible()
            page.get_by_role("link", name="Se Vende").click()
            se_vende = page.get_by_role("table", name=re.compile("Leaderboard: Se Vende"))
            expect(se_vende.get_by_role("rowheader", name="bob")).to_be_visible()
            page.get_by_role("link", name="Español").click()
            expect(page.get_by_role("heading", name="Clasificaciones", level=1)).to_be_visible()
            expect(page.locator("html")).to_have_attribute("lang", "es")
            expect(page.get_by_role("table", name=re.compile(r"\(1 partida valorada\)"))).to_be_visible()

            # The icon.
            icon = page.request.get(f"{url}/favicon.ico")
            assert icon.status == 200 and icon.headers["content-type"] == "image/x-icon"
            assert icon.body()[:4] == b"\0\0\1\0"  # an ICO file
            assert not errors, errors
    finally:
        store.close()
        if exhibition is not None:
            try:
                exhibition.wait(30)
            except subprocess.TimeoutExpired:
                exhibition.kill()
                exhibition.wait(10)
    assert exhibition is not None and exhibition.returncode == 0, "the exhibition command did not end with the game"
