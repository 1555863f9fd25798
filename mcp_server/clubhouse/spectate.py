"""What a spectator may see of a table: the public view, the public events, the result; and replays.

The table service answers seats (a token's view), not spectators, so this module is a thin reader
over the service's own building blocks (:func:`~club_agentes.mcp_server.tables.live.load_table`
and :func:`~club_agentes.mcp_server.tables.live.catch_up` over the store): it keeps its own small
cache of tables being watched, catches each up with the moves it misses, and gives out only
``game.view(state, None)`` (the spectator's view, which the engines build to show no hidden card)
and events whose audience is everyone. (It belongs in the table service as a public method; until
then it lives here.)

Replays are built from a finished game's full log: the table's options and seed and every move,
replayed through the engine one move at a time; each step shows the spectator's view after that
move and the events it caused (every event, private ones included: once the game is over its full
log is public).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import Game, get_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.tables import EventRow, TableRow
from club_agentes.mcp_server.tables.live import LiveTable, catch_up, load_table

WATCHED = 64
"""Tables whose live state this process keeps for spectators (least recently watched are dropped)."""
REPLAYS = 8
"""Replays kept in memory."""


class NotFound(LookupError):
    """No such table (or no replay of it yet); the message is one sentence."""


@dataclass(frozen=True)
class SeatLine:
    """A seat as a spectator sees it: who plays it."""

    seat: int
    player: str
    kind: str
    open: bool
    played_by: str | None


@dataclass(frozen=True)
class PublicTable:
    """A table as a spectator sees it at one version.

    Attributes:
        view: the engine's spectator view (``game.view(state, None)``).
        summary: the engine's compact text of that view.
        deciding: the seats that must decide now, and the prompt.
        result: the stored result once finished (winners, scores, reason, breakdown).
    """

    table_id: str
    game: str
    name: str
    status: str
    version: int
    revision: int
    seats: tuple[SeatLine, ...]
    view: dict[str, Any]
    summary: str
    deciding: tuple[int, ...]
    prompt: str
    result: dict[str, Any] | None
    note: str | None
    created_at: float
    updated_at: float


def seat_lines(row: TableRow, claims: dict[int, Any]) -> tuple[SeatLine, ...]:
    """Return who plays each seat of a stored table."""
    out = []
    for s, spec in enumerate(row.seats):
        c = claims.get(s)
        if c is not None:
            out.append(SeatLine(s, c.agent, spec, False, f"bot:{c.bot}" if c.bot else None))
        elif spec == "agent":
            out.append(SeatLine(s, "", spec, True, None))
        else:
            out.append(SeatLine(s, spec, spec, False, None))
    return tuple(out)


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: the spectator's view after ``version`` and the events of that version."""

    version: int
    view: dict[str, Any]
    summary: str
    events: tuple[EventRow, ...]
    seat: int | None


@dataclass(frozen=True)
class Replay:
    """A finished game, step by step (step 0 is the deal)."""

    table_id: str
    game: str
    name: str
    seats: tuple[SeatLine, ...]
    seed: int
    options: dict[str, Any]
    result: dict[str, Any] | None
    steps: tuple[ReplayStep, ...]


class Spectator:
    """Reads tables as a spectator; every method blocks (call them from a worker thread)."""

    def __init__(self, store: Store, games: Callable[[str], Game] = get_game) -> None:
        self.store = store
        self._games = games
        self._live: OrderedDict[str, LiveTable] = OrderedDict()
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def game(self, game_id: str) -> Game:
        """Return a game by id.

        Raises:
            UnknownGame: no such game.
        """
        return self._games(game_id)

    def _live_table(self, table_id: str) -> LiveTable:
        live = self._live.get(table_id)
        if live is not None:
            self._live.move_to_end(table_id)
            if catch_up(self.store, live):
                return live
            del self._live[table_id]
        loaded = load_table(self.store, self._games, table_id)
        if loaded is None:
            raise NotFound(f"there is no table {table_id[:40]!r}")
        self._live[table_id] = loaded
        while len(self._live) > WATCHED:
            self._live.popitem(last=False)
        return loaded

    def head(self, table_id: str) -> tuple[int, int, str] | None:
        """Return a table's ``(revision, version, status)`` (one indexed read), or ``None``."""
        h = self.store.table_head(table_id)
        return (h.revision, h.version, h.status) if h is not None else None

    def public(self, table_id: str) -> PublicTable:
        """Return the table as a spectator sees it now.

        Raises:
            NotFound: no such table.
        """
        with self._lock:
            live = self._live_table(table_id)
            game = live.game
            view = game.view(live.state, None)
            pending = game.pending(live.state)
            summary = game.render(view)
            row = live.row
            return PublicTable(
                table_id=live.id,
                game=row.game,
                name=game.name,
                status=live.status,
                version=live.version,
                revision=live.revision,
                seats=seat_lines(row, live.claims),
                view=view,
                summary=summary,
                deciding=tuple(pending.seats) if live.status == "playing" else (),
                prompt=pending.prompt if live.status == "playing" else "",
                result=live.result,
                note=live.note,
                created_at=row.created_at,
                updated_at=row.updated_at,
            )

    def public_events(
        self, table_id: str, after_version: int = -1, upto_version: int | None = None, limit: int | None = None
    ) -> list[EventRow]:
        """Return the public events with ``after_version < version <= upto_version`` (the newest ``limit``)."""
        return self.store.load_events(
            table_id, after_version=after_version, upto_version=upto_version, seat=None, limit=limit, newest=True
        )

    def replay(self, table_id: str) -> Replay:
        """Return a finished game step by step, from its full log.

        Raises:
            NotFound: no such table, or it is not over yet.
        """
        with self._lock:
            cached = self._replays.get(table_id)
            if cached is not None:
                self._replays.move_to_end(table_id)
                return cached
        row = self.store.load_table(table_id)
        if row is None:
            raise NotFound(f"there is no table {table_id[:40]!r}")
        if row.status not in ("finished", "aborted"):
            raise NotFound(f"table {table_id} is not over yet; its replay opens when the game ends")
        game = self._games(row.game)
        config = game.make_config(len(row.seats), row.config)
        state, _setup = game.start(config, row.seed)
        events = self.store.load_events(table_id, everything=True)
        by_version: dict[int, list[EventRow]] = {}
        for e in events:
            by_version.setdefault(e.version, []).append(e)
        claims = {c.seat: c for c in self.store.seat_claims(table_id)}

        def step(version: int, seat: int | None) -> ReplayStep:
            view = game.view(state, None)
            return ReplayStep(version, view, game.render(view), tuple(by_version.get(version, ())), seat)

        steps = [step(0, None)]
        for m in self.store.load_moves(table_id, upto=row.version):
            game.apply(state, m.seat, game.parse_move(m.move))
            steps.append(step(m.version, m.seat))
        replay = Replay(
            table_id, row.game, game.name, seat_lines(row, claims), row.seed, row.config, row.result, tuple(steps)
        )
        with self._lock:
            self._replays[table_id] = replay
            while len(self._replays) > REPLAYS:
                self._replays.popitem(last=False)
        return replay
