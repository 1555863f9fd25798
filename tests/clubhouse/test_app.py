"""The table as an MCP App (SEP-1865, ``io.modelcontextprotocol/ui``): the extension is declared, the resource is
listed and readable, the three table tools name it, and (slow, Debian's chromium) its page draws a recorded tool
result of each game inside a sandboxed frame of a test host, showing the seat's own hand and no other hidden card.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.app import ClubApp, build_app
from club_agentes.mcp_server.settings import ServerSettings
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.ui_app import TABLE_URI, table_app_html
from mcp import Client

from tests.clubhouse.helpers import leaked, play_out, state_at

UI = "io.modelcontextprotocol/ui"
MIME = "text/html;profile=mcp-app"
DRAWN_TOOLS = {"get_view", "wait_for_turn", "play_move"}


def _app(tmp_path: Path) -> ClubApp:
    return build_app(Store(tmp_path / "club.sqlite3"), settings=ServerSettings())


@pytest.mark.anyio
async def test_the_extension_is_declared_and_the_three_table_tools_name_the_resource(tmp_path: Path) -> None:
    app = _app(tmp_path)
    try:
        async with Client(app.server) as client:
            assert UI in (client.server_capabilities.extensions or {})
            listed = {str(r.uri): r for r in (await client.list_resources()).resources}
            assert listed[TABLE_URI].mime_type == MIME
            tools = {t.name: t for t in (await client.list_tools()).tools}
            named = {n for n, t in tools.items() if (t.meta or {}).get("ui", {}).get("resourceUri") == TABLE_URI}
            assert named == DRAWN_TOOLS
            read = (await client.read_resource(TABLE_URI)).contents[0]
            assert read.mime_type == MIME and read.text == table_app_html()  # type: ignore[union-attr]
            csp = (read.meta or {})["ui"]["csp"]
            assert all(not v for v in csp.values())  # no origin at all
    finally:
        await app.tables.aclose()
        app.store.close()


def test_the_page_admits_only_its_own_script_and_style_and_loads_nothing() -> None:
    page = table_app_html()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert policy is not None
    rules = dict(r.strip().split(" ", 1) for r in policy.group(1).split(";"))
    assert rules["default-src"] == "'none'" and rules["connect-src"] == "'none'"
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert len(scripts) == 1 and len(styles) == 1

    def sha(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert rules["script-src"] == sha(scripts[0]) and rules["style-src"] == sha(styles[0])
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", page) and "@import" not in page
    labels = json.loads(re.search(r'id="draw-labels">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    assert set(labels) == {"es", "en"}


# --------------------------------------------------------------------------- the page in a browser

GAMES: dict[str, tuple[list[str], int, int]] = {
    "market-fortune": (["agent", "bot:heuristic", "bot:heuristic"], 3, 24),
    "se-vende": (["agent", "bot:heuristic", "bot:heuristic"], 4, 40),
    "yo-soy-el-jefe": (["agent", "bot:heuristic", "bot:heuristic", "bot:heuristic"], 5, 50),
}

HOST = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<iframe id="app" sandbox="allow-scripts" style="width: 980px; height: 1600px; border: 0"></iframe>
<script>
window.hostLog = []; window.toolCalls = []; window.sizes = [];
window.openApp = function (html, input, result, fresh, locale) {
  var frame = document.getElementById("app");
  window.onmessage = function (e) {
    var m = e.data;
    if (!m || m.jsonrpc !== "2.0") { return; }
    window.hostLog.push(m.method || "reply");
    var app = frame.contentWindow;
    function reply(result) { app.postMessage({ jsonrpc: "2.0", id: m.id, result: result }, "*"); }
    function tell(method, params) { app.postMessage({ jsonrpc: "2.0", method: method, params: params }, "*"); }
    if (m.method === "ui/initialize") {
      reply({ protocolVersion: "2026-01-26", hostInfo: { name: "test-host", version: "1" },
        hostCapabilities: { serverTools: {} },
        hostContext: { locale: locale, theme: "light", displayMode: "inline" } });
    } else if (m.method === "ui/notifications/initialized") {
      tell("ui/notifications/tool-input", { arguments: input });
      tell("ui/notifications/tool-result", result);
    } else if (m.method === "tools/call") {
      window.toolCalls.push(m.params);
      reply(fresh);
    } else if (m.method === "ui/notifications/size-changed") {
      window.sizes.push(m.params);
    }
  };
  frame.srcdoc = html;
};
</script></body></html>"""


async def _record(tmp_path: Path) -> dict[str, dict[str, Any]]:
    """Play a table of each game (seat 0 an agent of this connection, bots elsewhere) to its agent's decision and
    record, over the SDK's client, get_view, then play_move (no view in it) and get_view after the move."""
    out: dict[str, dict[str, Any]] = {}
    app = _app(tmp_path)
    me = app.settings.agent
    try:
        async with Client(app.server) as client:
            for game, (seats, seed, moves) in GAMES.items():
                created = await app.tables.create(game, seats, {"require_club_pass": False}, seed, creator=me)
                tid = created.table.table_id
                token = (await app.tables.join(tid, me, None, 0)).token
                await play_out(app, tid, {0: token}, seed, upto=moves)
                args = {"table_id": tid, "seat_token": token}
                view = await client.call_tool("get_view", args)
                version = view.structured_content["version"]  # type: ignore[index]
                played = await client.call_tool("play_move", {**args, "move": "m1"})
                after = await client.call_tool("get_view", args)
                out[game] = {
                    "table_id": tid,
                    "args": args,
                    "version": version,
                    "view": view.model_dump(mode="json", by_alias=True, exclude_none=True),
                    "played": played.model_dump(mode="json", by_alias=True, exclude_none=True),
                    "after": after.model_dump(mode="json", by_alias=True, exclude_none=True),
                    "after_version": after.structured_content["version"],  # type: ignore[index]
                }
        for rec in out.values():
            rec["states"] = {v: state_at(app.store, rec["table_id"], v) for v in (rec["version"], rec["after_version"])}
    finally:
        await app.tables.aclose()
    rec_store = app.store
    for rec in out.values():
        rec["store"] = rec_store
    return out


@pytest.mark.slow
def test_the_page_draws_a_recorded_tool_result_of_each_game_for_its_seat_only(tmp_path: Path) -> None:
    from tests.clubhouse.test_browser import chromium, need_browser, save_shot, watched_page

    need_browser()
    recorded = asyncio.run(_record(tmp_path))
    html = table_app_html()
    try:
        with chromium() as browser:
            page, errors = watched_page(browser, 1000, 1700)
            for game, rec in recorded.items():
                g = get_game(game)
                # get_view: the seat's own view, drawn from structuredContent.
                page.set_content(HOST)
                page.evaluate(
                    "([h, i, r, f, l]) => openApp(h, i, r, f, l)", [html, rec["args"], rec["view"], None, "es-ES"]
                )
                frame = page.frame_locator("#app")
                frame.locator(f'.drawn-table[data-game="{game}"]').wait_for()
                sc = rec["view"]["structuredContent"]
                view = sc["view"]
                assert frame.locator(".seat").count() == len(sc["seats"])
                assert frame.locator(".seat.is-you").get_attribute("data-seat") == str(sc["seat"])
                hand = [c["id"] for c in view["hand"]]
                shown = frame.locator(".seat.is-you [data-card]").evaluate_all(
                    "els => els.map(e => e.getAttribute('data-card'))"
                )
                assert hand and set(hand) <= set(shown), (game, hand, shown)
                assert frame.locator("html").get_attribute("lang") == "es"
                content = frame.locator("#app").inner_html() + frame.locator("#result").inner_html()
                _, state = rec["states"][rec["version"]]
                found = leaked(g, state, content, seat=sc["seat"])
                assert not found, f"{game}: the app shows cards seat {sc['seat']} may not know: {found[:5]}"
                shot = frame.locator("#app")
                save_shot(shot, tmp_path, f"app-{game}.png", docs=game == "market-fortune")

                # play_move: no view in the answer, so the app asks the host for get_view with the same seat.
                page.set_content(HOST)
                page.evaluate(
                    "([h, i, r, f, l]) => openApp(h, i, r, f, l)",
                    [html, {**rec["args"], "move": "m1"}, rec["played"], rec["after"], "en-GB"],
                )
                frame = page.frame_locator("#app")
                frame.locator(f'.drawn-table[data-game="{game}"]').wait_for()
                assert page.evaluate("window.toolCalls") == [{"name": "get_view", "arguments": rec["args"]}]
                assert frame.locator(".lastmove-label").inner_text().lower() == "last move"
                content = frame.locator("#app").inner_html() + frame.locator("#result").inner_html()
                _, state = rec["states"][rec["after_version"]]
                assert not leaked(g, state, content, seat=0)
                assert "ui/notifications/size-changed" in page.evaluate("window.hostLog")
            assert not errors, errors
    finally:
        next(iter(recorded.values()))["store"].close()
