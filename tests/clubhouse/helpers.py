"""Clubhouse test helpers: a server with the clubhouse registered, agents playing real games through the table
service, the leak scan of spectator pages, and a server process (HTTP) with the clubhouse and the web app."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from club_agentes.engine.core import Game, Rng, get_game
from club_agentes.engine.core.model import Observation
from club_agentes.mcp_server.app import ClubApp, build_app
from club_agentes.mcp_server.clubhouse import Clubhouse, register_clubhouse
from club_agentes.mcp_server.settings import ServerSettings
from club_agentes.mcp_server.store import Store

from tests.mcp.helpers import free_port

SERVE = Path(__file__).with_name("serve.py")


def clubhouse_app(store: Store, **settings: Any) -> tuple[ClubApp, Clubhouse]:
    """Build the server over ``store`` (no club pass check needed by default) and register the clubhouse."""
    app = build_app(store, settings=ServerSettings(**settings))
    return app, register_clubhouse(app)


async def play_out(
    app: ClubApp,
    table_id: str,
    tokens: dict[int, str],
    seed: int = 0,
    kind: str = "heuristic",
    upto: int | None = None,
) -> None:
    """Play every agent seat of ``tokens`` with the engine's ``kind`` bot (deciding from the seat's view) until
    the game is over (or the table reaches version ``upto``); each move goes through ``TableService.play`` as an
    agent's would."""
    rng = Rng(seed)
    any_token = next(iter(tokens.values()))
    bots: dict[int, Any] = {}
    for _ in range(20_000):
        state = await app.tables.view(table_id, any_token)
        if state.table.status in ("finished", "aborted"):
            return
        if upto is not None and state.table.version >= upto:
            return
        mine = [s for s in state.decision.seats if s in tokens]
        if not mine:
            await app.tables.wait(table_id, any_token, 5)
            continue
        seat = mine[0]
        seat_state = await app.tables.view(table_id, tokens[seat])
        if not seat_state.moves:
            await app.tables.wait(table_id, tokens[seat], 1)
            continue
        live = app.tables.live(table_id)
        assert live is not None
        game: Game = live.game
        moves = [game.parse_move(m.move) for m in seat_state.moves]
        bot = bots.setdefault(seat, game.make_bot(kind))
        choice = bot.choose(Observation(game, live.state, seat, moves), rng)
        result = await app.tables.play(table_id, tokens[seat], choice.to_json(), seat_state.seat_version)
        assert result.accepted or (result.refusal and result.refusal.kind == "stale_version"), result.refusal
    raise AssertionError(f"table {table_id} did not end")


async def finished_game(
    app: ClubApp, game: str, seats: list[str], agents: dict[int, str], seed: int, kind: str = "heuristic"
) -> str:
    """Create a table (no club pass), seat ``agents`` (seat -> name), play it to the end; return its id."""
    created = await app.tables.create(
        game, seats, {"require_club_pass": False, "seats_per_agent": 6}, seed, creator=agents[min(agents)]
    )
    tid = created.table.table_id
    tokens = {}
    for seat, name in agents.items():
        tokens[seat] = (await app.tables.join(tid, name, None, seat)).token
    await play_out(app, tid, tokens, seed, kind)
    row = app.store.tables.load_table(tid)
    assert row is not None and row.status == "finished", row
    return tid


async def live_game(
    app: ClubApp, game: str, seats: list[str], agents: dict[int, str], seed: int, moves: int, options: Any = None
) -> str:
    """Create a table (no club pass), seat ``agents``, play it to version ``moves`` (about: bot replies may
    follow) and leave it playing; return its id."""
    created = await app.tables.create(
        game,
        seats,
        {"require_club_pass": False, "seats_per_agent": 6, **(options or {})},
        seed,
        creator=agents[min(agents)],
    )
    tid = created.table.table_id
    tokens = {seat: (await app.tables.join(tid, name, None, seat)).token for seat, name in agents.items()}
    await play_out(app, tid, tokens, seed, upto=moves)
    row = app.store.tables.load_table(tid)
    assert row is not None and row.status == "playing", row
    return tid


def state_at(store: Store, table_id: str, version: int) -> tuple[Game, Any]:
    """Return the game and its true state at ``version`` (replayed from the store's log)."""
    row = store.tables.load_table(table_id)
    assert row is not None
    game = get_game(row.game)
    state, _ = game.start(game.make_config(len(row.seats), row.config), row.seed)
    for m in store.tables.load_moves(table_id, upto=version):
        game.apply(state, m.seat, game.parse_move(m.move))
    return game, state


def leaked(game: Game, state: Any, text: str, seat: int | None = None) -> list[str]:
    """Return the cards ``seat`` (``None``: a spectator) may not know at ``state`` that ``text`` names: hidden ids,
    and printed names that only hidden cards carry (a name shared with a visible copy proves nothing)."""
    hidden = game.hidden_ids(state, seat)
    if seat is None:
        # A card every seat knows was shown to the whole table (Yo soy el jefe's family card taken back face up,
        # which its public event names): not a secret a spectator may not see, though the engine's record of
        # "every seat" leaves spectators out.
        hidden = hidden & frozenset().union(*(game.hidden_ids(state, s) for s in range(state.n)))
    found = sorted(h for h in hidden if h in text)
    names = game.card_names()
    if names:
        visible = {names[c] for c in names if c not in hidden}
        secret = {names[h] for h in hidden if h in names} - visible
        found += sorted(n for n in secret if n in text)
    return found


def start_server(env: dict[str, str], *, keys: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``tests/clubhouse/serve.py`` (the HTTP server with the clubhouse registered) on a free loopback port;
    return the process and its base URL (``http://127.0.0.1:PORT``)."""
    import socket

    port = free_port()
    args = [sys.executable, str(SERVE), "--port", str(port)] + ([] if keys else ["--no-auth"])
    proc = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, **env}, cwd=SERVE.parents[2]
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {proc.stderr.read().decode()[-3000:] if proc.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the HTTP server did not start within 60 s")


def sse_messages(raw: str) -> list[tuple[str, dict[str, Any]]]:
    """Parse a server-sent events body into ``(event, data)`` pairs (pings left out)."""
    out = []
    for block in raw.replace("\r\n", "\n").split("\n\n"):
        event, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
        if data:
            out.append((event, json.loads("\n".join(data))))
    return out


def page_parts(page: str, version: int) -> list[tuple[int, str]]:
    """Split a table page into what it shows at ``version`` (everything but the log) and its log's events, each
    with the version of its move, for the leak scan (an event is checked against the table right after its move:
    a card named in public then may be hidden again later, e.g. taken into a hand)."""
    log = re.search(r'<ol id="events".*?</ol>', page, re.S)
    assert log is not None, "the page has no public log"
    # the drawing's words (the same static dictionary on every page: "Negociación" is a word before it is a card)
    page = re.sub(r'<script type="application/json" id="draw-labels">.*?</script>', "", page, flags=re.S)
    parts = [(version, page.replace(log.group(0), ""))]
    parts += [(int(v), html.unescape(t)) for v, t in re.findall(r'<li data-version="(\d+)">(.*?)</li>', log.group(0))]
    return parts


def assert_no_leak(store: Store, table_id: str, parts: list[tuple[int, str]]) -> int:
    """Check each ``(version, text)`` against the table's true state at that version; return how many were checked
    (the final version is skipped: once the game is over every card may be shown)."""
    row = store.tables.load_table(table_id)
    assert row is not None
    states: dict[int, tuple[Game, Any]] = {}
    checked = 0
    for version, text in parts:
        if version >= row.version and row.status == "finished":
            continue
        if version not in states:
            states[version] = state_at(store, table_id, version)
        game, state = states[version]
        found = leaked(game, state, text)
        assert not found, f"version {version} shows hidden cards {found[:5]}: {text[:300]}"
        checked += 1
    return checked
