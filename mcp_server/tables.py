"""Tables: live games kept in memory, stored event-sourced, played by agents and bots.

A table is (game, options, seed, seats) plus its accepted moves. The live state is
rebuilt by replay whenever a table is first touched (after a restart, or when
another process sharing the store has appended moves). Each table has a lock, so
moves apply one at a time; a move and the bot moves that follow it are stored in
one transaction before the reply goes out.

Seats are ``"agent"`` (an MCP client joins with ``join_table`` and gets a secret
token; only its SHA-256 is stored, compared in constant time) or
``"bot:<kind>"`` (played on the server right after each move until an agent must
decide).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from club_agentes.engine.core import (
    ConfigError,
    Event,
    Game,
    IllegalMove,
    InvalidMove,
    Pending,
    Rng,
    UnknownGame,
    get_game,
)
from club_agentes.engine.core.model import decide
from club_agentes.mcp_server.models_tables import (
    Decision,
    EventInfo,
    GameLog,
    LegalMove,
    LoggedMove,
    MoveOutcome,
    Refusal,
    ResultInfo,
    SeatInfo,
    SeatJoined,
    TableCreated,
    TableList,
    TableSummary,
    TableView,
    WaitResult,
)
from club_agentes.mcp_server.store import SeatClaim, StaleVersion, Store, TableRow
from club_agentes.quizzes.harness import InvalidAgent, check_agent_name
from club_agentes.rules_corpus import Corpus

MAX_WAIT_S = 60.0
BOT_YIELD_EVERY = 200
MAX_SEED = 2**63 - 1
_MOVE_ID = re.compile(r"m([1-9][0-9]*)")


class TableError(Exception):
    """A request the table service refuses (bad id, token, seat, option...): one sentence."""


class PassVerifier(Protocol):
    """Decides whether an agent may sit at a table that requires a club pass."""

    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        """Return ``None`` to admit, or one sentence saying why the pass is refused."""
        ...


@dataclass
class LoggedEvent:
    """An event with its place in the table's history."""

    index: int
    version: int
    event: Event


@dataclass
class LiveTable:
    """A table's definition and its live state (rebuilt by replay)."""

    row: TableRow
    game: Game
    config: Any
    state: Any
    version: int = 0
    status: str = "waiting"
    events: list[LoggedEvent] = field(default_factory=list)
    claims: dict[int, SeatClaim] = field(default_factory=dict)
    bots: dict[int, Any] = field(default_factory=dict)
    listed: dict[int, tuple[int, list[Any]]] = field(default_factory=dict)
    seen: dict[int, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def notify(self) -> None:
        """Wake every waiter; later waiters wait on a fresh event."""
        self.changed.set()
        self.changed = asyncio.Event()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class TableService:
    """Creates tables, seats agents, applies moves, runs bots, answers views and logs."""

    def __init__(
        self,
        store: Store,
        corpus: Corpus,
        verifier: PassVerifier,
        *,
        games: Callable[[str], Game] = get_game,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.corpus = corpus
        self.verifier = verifier
        self._games = games
        self._clock = clock
        self._live: dict[str, LiveTable] = {}
        self._load_lock = asyncio.Lock()

    # ----- loading -----

    def _game(self, game_id: str) -> Game:
        try:
            return self._games(game_id)
        except UnknownGame as exc:
            raise TableError(str(exc)) from None

    async def _get(self, table_id: str) -> LiveTable:
        live = self._live.get(table_id)
        if live is None:
            async with self._load_lock:
                live = self._live.get(table_id)
                if live is None:
                    live = self._rebuild(table_id)
                    self._live[table_id] = live
        elif self.store.table_version(table_id) != live.version:
            # Another process sharing the store appended moves: replay from scratch.
            async with live.lock:
                if self.store.table_version(table_id) != live.version:
                    fresh = self._rebuild(table_id)
                    self._live[table_id] = fresh
                    live.notify()
                    live = fresh
        return live

    def _rebuild(self, table_id: str) -> LiveTable:
        row = self.store.load_table(table_id) if _valid_table_id(table_id) else None
        if row is None:
            raise TableError(f"unknown table {table_id!r}; list_tables shows the existing tables")
        game = self._game(row.game)
        config = game.make_config(len(row.seats), row.config)
        live = LiveTable(row=row, game=game, config=config, state=game.new_game(config, row.seed))
        for seat, spec in enumerate(row.seats):
            if spec.startswith("bot:"):
                live.bots[seat] = game.make_bot(spec[4:])
        for claim in self.store.seat_claims(table_id):
            live.claims[claim.seat] = claim
            live.seen[claim.seat] = claim.seen_events
        for m in self.store.load_moves(table_id):
            events = game.apply(live.state, m.seat, game.parse_move(m.move))
            live.version = m.version
            self._log(live, events)
        live.status = row.status
        return live

    @staticmethod
    def _log(live: LiveTable, events: list[Event]) -> None:
        for e in events:
            live.events.append(LoggedEvent(len(live.events), live.version, e))

    # ----- creating and joining -----

    async def create(
        self, game_id: str, seats: list[str], options: Mapping[str, Any] | None, seed: int | None
    ) -> TableCreated:
        """Create a table.

        Raises:
            TableError: unknown game, bad seat list, bad options or seed.
        """
        game = self._game(game_id)
        if not seats:
            raise TableError("seats is empty; give one entry per seat: 'agent', 'bot:random' or 'bot:heuristic'")
        kinds = ", ".join(f"'bot:{k}'" for k in game.bots)
        for i, spec in enumerate(seats):
            if spec != "agent" and not (spec.startswith("bot:") and spec[4:] in game.bots):
                raise TableError(f"seat {i} is {spec!r}; each seat must be 'agent' or one of {kinds}")
        if not game.min_seats <= len(seats) <= game.max_seats:
            raise TableError(
                f"{game_id} is played by {game.min_seats} to {game.max_seats} seats; {len(seats)} were given"
            )
        opts = dict(options or {})
        require = opts.pop("require_club_pass", True)
        if not isinstance(require, bool):
            raise TableError("option require_club_pass must be true or false")
        try:
            config = game.make_config(len(seats), opts)
        except ConfigError as exc:
            raise TableError(str(exc)) from None
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise TableError(f"seed must be an integer from 0 to {MAX_SEED}, or omitted for a secret random seed")
        row = TableRow(
            id="t-" + secrets.token_hex(6),
            game=game_id,
            config=config.to_json(),
            seed=secrets.randbits(63) if seed is None else seed,
            seeded=seed is not None,
            seats=list(seats),
            require_club_pass=require,
            created_at=self._clock(),
            status="waiting" if "agent" in seats else "playing",
            version=0,
            result=None,
        )
        self.store.create_table(row)
        live = self._rebuild(row.id)
        self._live[row.id] = live
        if live.status == "playing":
            async with live.lock:
                await self._advance(live, [])
        return TableCreated(
            table_id=row.id,
            game=game_id,
            status=live.status,
            seats=self._seats(live),
            options=row.config,
            require_club_pass=require,
            seeded=row.seeded,
            options_schema=game.config_schema(),
            next_step=(
                "Each agent calls join_table(table_id, agent, club_pass) to take an open seat and get its token."
                if live.status == "waiting"
                else "Only bots sit here; read the finished game with game_log(table_id)."
            ),
        )

    async def join(self, table_id: str, agent: str, club_pass: str | None, seat: int | None) -> SeatJoined:
        """Seat an agent at an open agent seat and return its secret token.

        Raises:
            TableError: unknown table, no open seat, bad agent name, or a refused club pass.
        """
        try:
            agent = check_agent_name(agent)
        except InvalidAgent as exc:
            raise TableError(str(exc)) from None
        live = await self._get(table_id)
        async with live.lock:
            open_seats = [s for s, spec in enumerate(live.row.seats) if spec == "agent" and s not in live.claims]
            if not open_seats:
                raise TableError(f"table {table_id} has no open agent seat; list_tables shows tables with open seats")
            if seat is None:
                seat = open_seats[0]
            elif seat not in open_seats:
                raise TableError(f"seat {seat} is not open at table {table_id}; open agent seats: {open_seats}")
            if live.row.require_club_pass:
                refusal = self.verifier.admit(club_pass, agent, live.row.game)
                if refusal is not None:
                    raise TableError(refusal)
            token = secrets.token_urlsafe(24)
            claim = SeatClaim(table_id, seat, agent, _hash(token), self._clock(), 0)
            if not self.store.claim_seat(claim):
                raise TableError(f"seat {seat} at table {table_id} was taken a moment ago; call join_table again")
            live.claims[seat] = claim
            live.seen[seat] = 0
            if all(s in live.claims for s, spec in enumerate(live.row.seats) if spec == "agent"):
                live.status = "playing"
                self.store.set_status(table_id, "playing")
                await self._advance(live, [])
            live.notify()
        return SeatJoined(
            table_id=table_id,
            game=live.row.game,
            seat=seat,
            agent=agent,
            seat_token=token,
            status=live.status,
            next_step="Call get_view(table_id, seat_token) to see the table, then play_move when it is your decision; "
            "wait_for_turn(table_id, seat_token, 60) waits for it.",
        )

    # ----- authentication -----

    def _seat_of(self, live: LiveTable, token: str) -> int:
        digest = _hash(token or "")
        found = None
        for seat, claim in live.claims.items():
            if hmac.compare_digest(digest, claim.token_hash):
                found = seat
        if found is None:
            raise TableError(
                f"the seat token is not valid at table {live.row.id}; use the token join_table returned for this table"
            )
        return found

    # ----- playing -----

    async def _advance(self, live: LiveTable, pending_moves: list[tuple[int, dict[str, Any], str, float]]) -> None:
        """Run bots until an agent must decide or the game ends, then store everything at once.

        ``pending_moves`` are moves already applied in memory but not yet stored (the agent's).

        Raises:
            StaleVersion: another process appended first; the live table is dropped.
        """
        base = live.version - len(pending_moves)
        moves = list(pending_moves)
        game, state = live.game, live.state
        if live.status == "playing":
            while True:
                p = game.pending(state)
                if p.kind == "over":
                    break
                bot_seat = next((s for s in p.seats if s in live.bots), None)
                if bot_seat is None:
                    break
                legal = game.legal_moves(state, bot_seat)
                rng = Rng(live.row.seed).fork(live.version + 1)
                move = decide(live.bots[bot_seat], game, state, bot_seat, legal, rng)
                events = game.apply(state, bot_seat, move)
                live.version += 1
                self._log(live, events)
                moves.append((bot_seat, move.to_json(), "bot", self._clock()))
                if len(moves) % BOT_YIELD_EVERY == 0:
                    await asyncio.sleep(0)  # a long bot run must not starve the other tables
        if moves:
            try:
                self.store.append_moves(live.row.id, base, moves)
            except StaleVersion:
                self._live.pop(live.row.id, None)
                live.notify()
                raise
        if live.status == "playing" and game.pending(state).kind == "over":
            live.status = "finished"
            self.store.set_status(live.row.id, "finished", _result_json(game, state))
        if moves:
            live.notify()

    async def view(self, table_id: str, token: str) -> TableView:
        """Return what the token's seat may see now, and mark its events seen.

        Raises:
            TableError: unknown table or bad token.
        """
        live = await self._get(table_id)
        async with live.lock:
            seat = self._seat_of(live, token)
            game = live.game
            view = game.view(live.state, seat)
            events = self._unseen(live, seat)
            decision = self._decision(live, seat)
            legal = self._list_moves(live, seat, decision)
            text = self._render(live, seat, view, decision, events, legal)
            return TableView(
                table_id=table_id,
                game=live.row.game,
                status=live.status,
                version=live.version,
                seat=seat,
                seats=self._seats(live),
                decision=decision,
                view=view,
                events=events,
                legal_moves=legal,
                text=text,
                result=_result(game, live.state),
            )

    async def play(
        self, table_id: str, token: str, move: str | dict[str, Any], expected_version: int | None
    ) -> MoveOutcome:
        """Validate and apply a move for the token's seat, then let bots play.

        Raises:
            TableError: unknown table, bad token, or a malformed move (a rule-breaking move is
                not an error: the outcome says ``accepted: false`` with the rule).
        """
        live = await self._get(table_id)
        async with live.lock:
            seat = self._seat_of(live, token)
            game = live.game
            if live.status == "waiting":
                open_seats = [s for s, spec in enumerate(live.row.seats) if spec == "agent" and s not in live.claims]
                raise TableError(f"the game has not started: agent seats {open_seats} are still open")
            if expected_version is not None and expected_version != live.version:
                return self._refused(
                    live,
                    seat,
                    "stale_version",
                    f"you expected version {expected_version} but the table is at version {live.version}; "
                    "look at the new situation and decide again",
                )
            parsed = self._parse(live, seat, move)
            if parsed is None:
                listed_at = live.listed[seat][0] if seat in live.listed else None
                return self._refused(
                    live,
                    seat,
                    "stale_move_id",
                    f"move id {move!r} was listed at version {listed_at}, but the table is at version {live.version}; "
                    "use an id from the legal moves listed now",
                )
            try:
                events = game.apply(live.state, seat, parsed)
            except IllegalMove as exc:
                return self._refused(live, seat, "rule", exc.message, exc.rule_id)
            except InvalidMove as exc:
                raise TableError(str(exc)) from None
            except Exception:
                self._live.pop(table_id, None)  # an engine defect: rebuild from the store next time
                raise
            live.version += 1
            self._log(live, events)
            try:
                await self._advance(live, [(seat, parsed.to_json(), "agent", self._clock())])
            except StaleVersion as exc:
                raise TableError(
                    f"another move reached table {table_id} first (it is at version {exc.current}); "
                    "call get_view and decide again"
                ) from None
            except Exception:
                self._live.pop(table_id, None)  # nothing of this move was stored; the store is the truth
                raise
            decision = self._decision(live, seat)
            return MoveOutcome(
                accepted=True,
                table_id=table_id,
                status=live.status,
                version=live.version,
                refusal=None,
                events=self._unseen(live, seat),
                decision=decision,
                legal_moves=self._list_moves(live, seat, decision),
                result=_result(game, live.state),
            )

    def _parse(self, live: LiveTable, seat: int, move: str | dict[str, Any]) -> Any | None:
        """Turn a move id, text form or JSON object into a move; ``None`` for a stale move id.

        Raises:
            TableError: the move cannot be understood.
        """
        if isinstance(move, str):
            m = _MOVE_ID.fullmatch(move.strip())
            if m:
                listed = live.listed.get(seat)
                if listed is None:
                    return None
                if listed[0] != live.version:
                    # Others moved since the ids were listed (e.g. a simultaneous choice): the ids still
                    # hold if this seat's legal moves are exactly the same list.
                    now = live.game.legal_moves(live.state, seat) if seat in live.game.pending(live.state).seats else []
                    if now != listed[1]:
                        return None
                    listed = (live.version, now)
                    live.listed[seat] = listed
                k = int(m.group(1))
                if k > len(listed[1]):
                    if listed[1]:
                        raise TableError(f"there is no move {move}; the legal move ids now are m1 to m{len(listed[1])}")
                    d = self._decision(live, seat)
                    raise TableError(
                        f"there is no move {move}: it is not your decision now (seats {d.seats} must decide: "
                        f"{d.prompt}); call wait_for_turn and then get_view"
                    )
                return listed[1][k - 1]
        if not isinstance(move, (str, dict)):
            raise TableError("move must be a legal move id such as 'm1', a move's text form, or its JSON object")
        try:
            return live.game.parse_move(move)
        except InvalidMove as exc:
            raise TableError(
                f"{exc} (send a legal move id such as 'm1' from get_view, its text, or its JSON)"
            ) from None

    def _refused(self, live: LiveTable, seat: int, kind: str, reason: str, rule_id: str | None = None) -> MoveOutcome:
        title = text = None
        if rule_id is not None and self.corpus.has(rule_id):
            section = self.corpus.sections[rule_id]
            title, text = section.title, section.text
        decision = self._decision(live, seat)
        reason = reason if reason.endswith((".", "!", "?")) else reason + "."
        return MoveOutcome(
            accepted=False,
            table_id=live.row.id,
            status=live.status,
            version=live.version,
            refusal=Refusal(
                kind=kind,
                reason=reason,
                rule_id=rule_id,
                rule_title=title,
                rule_text=text,
                current_version=live.version,
            ),
            events=self._unseen(live, seat),
            decision=decision,
            legal_moves=self._list_moves(live, seat, decision),
            result=_result(live.game, live.state),
        )

    async def wait(self, table_id: str, token: str, timeout_s: float) -> WaitResult:
        """Wait up to ``timeout_s`` (at most 60) seconds until the seat must decide or the game ends.

        Raises:
            TableError: unknown table, bad token or a bad timeout.
        """
        if not 0 <= timeout_s <= MAX_WAIT_S:
            raise TableError(f"timeout_s must be from 0 to {MAX_WAIT_S:g} seconds, not {timeout_s:g}")
        start = time.monotonic()
        while True:
            live = await self._get(table_id)
            seat = self._seat_of(live, token)
            decision = self._decision(live, seat)
            waited = round(time.monotonic() - start, 3)
            if live.status == "finished" or decision.yours:
                return WaitResult(
                    table_id=table_id,
                    ready=True,
                    reason="game_over" if live.status == "finished" else "your_decision",
                    status=live.status,
                    version=live.version,
                    decision=decision,
                    waited_s=waited,
                )
            remaining = timeout_s - (time.monotonic() - start)
            if remaining <= 0:
                return WaitResult(
                    table_id=table_id,
                    ready=False,
                    reason="timeout",
                    status=live.status,
                    version=live.version,
                    decision=decision,
                    waited_s=waited,
                )
            changed = live.changed
            # Re-check the store twice a second too, for moves appended by another process.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=min(remaining, 0.5))

    async def log(self, table_id: str, token: str | None) -> GameLog:
        """Return the public log, a seat's log, or (once the game is over) the full log.

        Raises:
            TableError: unknown table or bad token.
        """
        live = await self._get(table_id)
        async with live.lock:
            seat = self._seat_of(live, token) if token else None
            full = live.status == "finished"
            if full:
                events = [_event_info(e, None, full=True) for e in live.events]
            else:
                events = [_event_info(e, seat) for e in live.events if e.event.visible_to(seat)]
            moves = None
            if full:
                moves = [
                    LoggedMove(version=m.version, seat=m.seat, actor=m.actor, move=m.move)
                    for m in self.store.load_moves(table_id)
                ]
            return GameLog(
                table_id=table_id,
                game=live.row.game,
                status=live.status,
                scope="full" if full else ("seat" if seat is not None else "public"),
                seat=seat if not full else None,
                events=events,
                moves=moves,
                seed=live.row.seed if full else None,
                options=live.row.config,
                result=_result(live.game, live.state),
            )

    async def list(self, game: str | None, status: str | None) -> TableList:
        """List tables, newest first.

        Raises:
            TableError: unknown status value.
        """
        if status is not None and status not in ("waiting", "playing", "finished"):
            raise TableError(f"status must be 'waiting', 'playing' or 'finished', not {status!r}")
        if game is not None:
            self._game(game)
        out = []
        for row in self.store.list_tables(game, status):
            claims = {c.seat: c for c in self.store.seat_claims(row.id)}
            out.append(
                TableSummary(
                    table_id=row.id,
                    game=row.game,
                    status=row.status,
                    version=row.version,
                    seats=[_seat_info(s, spec, claims.get(s)) for s, spec in enumerate(row.seats)],
                    options=row.config,
                    require_club_pass=row.require_club_pass,
                    seeded=row.seeded,
                    created_at=_iso(row.created_at),
                )
            )
        return TableList(tables=out)

    # ----- shaping answers -----

    def _seats(self, live: LiveTable) -> list[SeatInfo]:
        return [_seat_info(s, spec, live.claims.get(s)) for s, spec in enumerate(live.row.seats)]

    def _decision(self, live: LiveTable, seat: int) -> Decision:
        if live.status == "waiting":
            open_seats = [s for s, spec in enumerate(live.row.seats) if spec == "agent" and s not in live.claims]
            return Decision(
                kind="waiting_for_players",
                seats=[],
                done=[],
                prompt=f"The game starts when agent seats {open_seats} are taken.",
                yours=False,
            )
        p: Pending = live.game.pending(live.state)
        return Decision(kind=p.kind, seats=list(p.seats), done=list(p.done), prompt=p.prompt, yours=seat in p.seats)

    def _list_moves(self, live: LiveTable, seat: int, decision: Decision) -> list[LegalMove]:
        moves = live.game.legal_moves(live.state, seat) if decision.yours else []
        live.listed[seat] = (live.version, moves)
        return [LegalMove(id=f"m{i}", text=m.text(), move=m.to_json()) for i, m in enumerate(moves, 1)]

    def _unseen(self, live: LiveTable, seat: int) -> list[EventInfo]:
        start = live.seen.get(seat, 0)
        out = [_event_info(e, seat) for e in live.events[start:] if e.event.visible_to(seat)]
        if len(live.events) != start:
            live.seen[seat] = len(live.events)
            self.store.set_seen(live.row.id, seat, len(live.events))
        return out

    def _render(
        self,
        live: LiveTable,
        seat: int,
        view: dict[str, Any],
        decision: Decision,
        events: list[EventInfo],
        legal: list[LegalMove],
    ) -> str:
        claim = live.claims.get(seat)
        rendered = live.game.render(view)
        lines = [
            f"{live.row.game} · table {live.row.id} · version {live.version} · {live.status} · "
            f"you are seat {seat} ({claim.agent if claim else 'agent'})",
            rendered,
        ]
        if events:
            lines.append("Since you last looked:")
            lines += [f"- {e.text}" for e in events[-30:]]
            if len(events) > 30:
                lines.append(f"(and {len(events) - 30} earlier events: see game_log)")
        said = bool(decision.prompt) and decision.prompt in rendered  # the game's own text already states it
        if live.status == "finished":
            res = _result(live.game, live.state)
            if res is not None and res.reason not in rendered:
                lines.append(f"Game over: {res.reason}")
        elif decision.yours:
            lines.append("Your legal moves:" if said else f"Your decision ({decision.kind}): {decision.prompt}")
            lines += [f"  {m.id}: {m.text}" for m in legal]
            lines.append("Answer with play_move(table_id, seat_token, move='<id>').")
        elif not said:
            who = ", ".join(f"seat {x}" for x in decision.seats)
            lines.append(f'Waiting for {who} ({decision.kind}), who is asked: "{decision.prompt}"')
        else:
            lines.append(f"Not your decision now: call wait_for_turn(table_id, seat_token, {MAX_WAIT_S:g}).")
        return "\n".join(lines)


def _valid_table_id(table_id: str) -> bool:
    return isinstance(table_id, str) and re.fullmatch(r"t-[0-9a-f]{12}", table_id) is not None


def _seat_info(seat: int, spec: str, claim: SeatClaim | None) -> SeatInfo:
    return SeatInfo(
        seat=seat,
        kind=spec,
        agent=claim.agent if claim else None,
        open=spec == "agent" and claim is None,
    )


def _event_info(e: LoggedEvent, seat: int | None, *, full: bool = False) -> EventInfo:
    private = e.event.audience is not None
    text = e.event.text
    if full and private:
        text = f"[to seats {list(e.event.audience or ())}] {text}"
    return EventInfo(
        index=e.index,
        version=e.version,
        text=text,
        private=private,
        data=dict(e.event.data) if e.event.data is not None else None,
    )


def _result(game: Game, state: Any) -> ResultInfo | None:
    r = game.result(state)
    if r is None:
        return None
    return ResultInfo(winners=list(r.winners), scores=list(r.scores), reason=r.reason, rule_id=r.rule_id)


def _result_json(game: Game, state: Any) -> dict[str, Any] | None:
    r = _result(game, state)
    return r.model_dump() if r is not None else None
