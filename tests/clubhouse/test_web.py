"""The spectator web app over HTTP (no browser): pages, languages, replays, leaderboards, the live stream and its
leak scan. The app is served as ``serve --http`` serves it: ``build_http_app`` with the clubhouse registered."""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.app import ClubApp
from club_agentes.mcp_server.clubhouse import Clubhouse
from club_agentes.mcp_server.clubhouse.exhibition import paced_service, start_exhibition
from club_agentes.mcp_server.clubhouse.i18n import count_words, pick_language
from club_agentes.mcp_server.clubhouse.web import json_block
from club_agentes.mcp_server.clubhouse.words import event_text
from club_agentes.mcp_server.http import build_http_app
from club_agentes.mcp_server.store import Store

from tests.clubhouse.helpers import assert_no_leak, clubhouse_app, finished_game, page_parts, sse_messages

pytestmark = pytest.mark.anyio

BASE = "http://127.0.0.1:8000"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[ClubApp, Clubhouse, httpx.AsyncClient]]:
    """The HTTP app (no agent keys, loopback) with two finished games of agents."""
    app, house = clubhouse_app(Store(tmp_path / "club.sqlite3"), http=True, no_auth=True)
    await finished_game(app, "se-vende", ["agent", "agent"], {0: "alice", 1: "bob"}, seed=1)
    await finished_game(app, "market-fortune", ["agent", "bot:heuristic"], {0: "alice"}, seed=2)
    web = build_http_app(app, app.settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=web), base_url=BASE, timeout=60) as client:
        yield app, house, client
    await house.aclose()
    await app.tables.aclose()
    app.store.close()


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_language_comes_from_the_query_then_the_browser_then_spanish() -> None:
    assert pick_language("en", "es") == "en"
    assert pick_language(None, "fr-FR,en;q=0.8,es;q=0.5") == "en"
    assert pick_language("xx", "de, es;q=0.2") == "es"
    assert pick_language(None, None) == "es"


def test_data_for_the_drawing_cannot_close_its_script_element() -> None:
    block = str(json_block({"name": "</script><b>Ópera</b>", "x": "a & b"}))
    assert "</" not in block and "<b>" not in block and "&" not in block
    assert json.loads(block) == {"name": "</script><b>Ópera</b>", "x": "a & b"}


def test_counts_agree_with_their_noun() -> None:
    assert count_words("es", "rated_games", 1) == "1 partida valorada"
    assert count_words("es", "rated_games", 2) == "2 partidas valoradas"
    assert count_words("en", "rated_games", 1) == "1 rated game"
    assert count_words("en", "rated_games", 0) == "0 rated games"


async def test_the_lobby_lists_tables_with_their_agents_in_both_languages(
    site: tuple[ClubApp, Clubhouse, httpx.AsyncClient],
) -> None:
    app, _, client = site
    waiting = await app.tables.create("yo-soy-el-jefe", ["agent", "bot:heuristic", "agent"], None, 5, creator="carol")
    es = await client.get("/", headers={"accept-language": "es-ES,es;q=0.9"})
    en = await client.get("/?lang=en")
    assert es.status_code == en.status_code == 200
    assert es.headers["content-language"] == "es" and en.headers["content-language"] == "en"
    assert 'lang="es"' in es.text and "Partidas terminadas" in es.text and "Mesas en juego" in es.text
    assert "Finished games" in en.text and "Live tables" in en.text
    page = text_of(en.text)
    for name in ("Market Fortune", "Se Vende", "Yo soy el jefe", "alice", "bob", "bot:heuristic", "open seat"):
        assert name in page, name
    assert f"/tables/{waiting.table.table_id}?lang=en" in en.text
    assert '<meta name="viewport"' in en.text and '<main id="main">' in en.text and "<nav aria-label" in en.text


async def test_a_finished_table_shows_its_result_and_breakdown_and_its_replay_steps_through_the_log(
    site: tuple[ClubApp, Clubhouse, httpx.AsyncClient],
) -> None:
    app, _, client = site
    page = await client.get("/")
    tid = re.findall(r"/tables/(t-[0-9a-f]{12})/replay", page.text)[0]
    row = app.store.tables.load_table(tid)
    assert row is not None and row.result is not None
    table = await client.get(f"/tables/{tid}?lang=en")
    assert table.status_code == 200
    shown = text_of(table.text)
    assert "Result" in shown and "Breakdown" in shown and row.result["reason"] in shown
    for line in row.result["breakdown"][0]["lines"]:
        assert line["label"] in shown
    assert 'data-ended="true"' in table.text  # over: the script follows no stream
    replay = await client.get(f"/tables/{tid}/replay?lang=en")
    assert replay.status_code == 200
    assert f'data-steps="{row.version + 1}"' in replay.text
    assert '<label for="slider">' in replay.text and 'type="range"' in replay.text
    last = await client.get(f"/tables/{tid}/replay/{row.version}?lang=es")
    data = last.json()
    assert data["index"] == row.version and data["count"] == row.version + 1 and data["title"].startswith("Paso")
    moves = app.store.tables.load_moves(tid)
    full = app.store.tables.load_events(tid, everything=True)
    expected = []
    for e in full:
        if e.version == moves[-1].version:
            who = ", ".join(f"asiento {s}" for s in e.audience or ())
            said = event_text(row.game, e.text)  # the Spanish page says every event in Spanish
            expected.append({"text": f"[privado, para {who}] {said}" if e.audience is not None else said, "lang": "es"})
    assert data["events"] == expected and expected
    assert data["summary_lang"] == "es" and data["summary"].startswith(get_game(row.game).name)
    assert "Resultado:" in data["summary"]  # the last step's text of the view ends with the result
    second = (await client.get(f"/tables/{tid}/replay/1?lang=en")).json()
    assert second["title"].startswith(f"Step 1 of {row.version}: move by seat {moves[0].seat} (")
    no_js = await client.get(f"/tables/{tid}/replay?step=3&lang=en")
    assert 'data-step="3"' in no_js.text  # the buttons work without the script
    assert (await client.get(f"/tables/{tid}/replay/{row.version + 1}")).status_code == 404


async def test_leaderboards_and_agent_pages(site: tuple[ClubApp, Clubhouse, httpx.AsyncClient]) -> None:
    _, _, client = site
    first = await client.get("/leaderboard?lang=en", follow_redirects=False)
    assert first.status_code == 307 and first.headers["location"] == "/leaderboard/market-fortune?lang=en"
    board = await client.get("/leaderboard/se-vende?lang=en")
    shown = text_of(board.text)
    assert "Leaderboard: Se Vende (1 rated game)" in " ".join(shown.split())
    assert "alice" in shown and "bob" in shown and "bot:heuristic (anchor)" in " ".join(shown.split())
    assert '<th scope="col"' in board.text and "<caption>" in board.text
    agent = await client.get("/agents/Alice?lang=es")
    assert agent.status_code == 200 and "Perfil del agente: alice" in text_of(agent.text)
    assert agent.text.count("/replay?lang=es") == 2


async def test_missing_things_get_a_404_page_with_one_sentence(
    site: tuple[ClubApp, Clubhouse, httpx.AsyncClient],
) -> None:
    app, _, client = site
    for path in ("/tables/t-000000000000", "/tables/nope", "/leaderboard/ajedrez", "/agents/!!!", "/static/x.js"):
        r = await client.get(path)
        assert r.status_code == 404, path
        assert "Traceback" not in r.text
    playing = await app.tables.create("se-vende", ["agent", "agent"], None, 3, creator="x")
    early = await client.get(f"/tables/{playing.table.table_id}/replay?lang=en")
    assert early.status_code == 404 and "not over yet" in early.text
    css = await client.get("/static/club.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")


async def test_the_pages_are_public_when_mcp_needs_agent_keys(tmp_path: Path) -> None:
    app, house = clubhouse_app(Store(tmp_path / "club.sqlite3"), http=True)
    web = build_http_app(app, app.settings)
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=web), base_url=BASE) as client:
            assert (await client.get("/")).status_code == 200
            assert (await client.get("/leaderboard/se-vende")).status_code == 200
            assert (await client.post("/mcp", json={})).status_code == 401
            foreign = await client.get("/", headers={"host": "evil.example"})
            assert foreign.status_code == 421  # the edge's host check covers the pages too
    finally:
        await house.aclose()
        await app.tables.aclose()
        app.store.close()


async def test_no_page_or_stream_message_of_a_live_table_names_a_hidden_card(tmp_path: Path) -> None:
    app, house = clubhouse_app(Store(tmp_path / "club.sqlite3"), http=True, no_auth=True)
    paced = paced_service(app.store, 0.03)
    web = build_http_app(app, app.settings)
    try:
        tid = await start_exhibition(
            paced,
            "market-fortune",
            ["bot:heuristic", "bot:heuristic", "bot:random"],
            options={"mode": "fortuna"},
            seed=8,
        )
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=web), base_url=BASE, timeout=120) as client:
            pages: list[tuple[int, str]] = []

            async def look() -> None:
                for _ in range(6):
                    r = await client.get(f"/tables/{tid}?lang=en")
                    version = int(re.search(r'data-version="(\d+)"', r.text).group(1))  # type: ignore[union-attr]
                    pages.append((version, r.text))
                    await asyncio.sleep(0.3)

            stream, _ = await asyncio.gather(client.get(f"/tables/{tid}/stream?lang=en"), look())
        messages = sse_messages(stream.text)
        updates = [d for e, d in messages if e == "update"]
        assert messages[-1][0] == "end" and updates[-1]["over"] and updates[-1]["result_html"]
        versions = [u["version"] for u in updates]
        assert versions == sorted(versions) and len(set(versions)) >= 5  # it saw moves land
        row = app.store.tables.load_table(tid)
        assert row is not None and row.status == "finished"
        public = app.store.tables.load_events(tid, seat=None)
        assert [e["text"] for u in updates for e in u["events"]] == [e.text for e in public]
        parts: list[tuple[int, str]] = []
        for u in updates:
            parts.append((u["version"], repr({k: v for k, v in u.items() if k != "events"})))
            parts += [(e["version"], e["text"]) for e in u["events"]]
        for version, page in pages:
            parts += page_parts(page, version)
        checked = assert_no_leak(app.store, tid, parts)
        assert checked >= 50
    finally:
        await paced.aclose()
        paced.lanes.close()
        await house.aclose()
        await app.tables.aclose()
        app.store.close()
