"""Plain data the table service returns; the presenter turns it into tool results.

Nothing here knows MCP or pydantic: the service builds these from live tables and the store, and
:mod:`~club_agentes.mcp_server.tables.presenter` shapes them into the output models and the
compact text a model reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.store.tables import MoveRow


@dataclass(frozen=True)
class SeatFacts:
    """One seat of a table.

    Attributes:
        kind: ``"agent"`` or ``"bot:<kind>"`` as the table was created.
        agent: the agent seated there (``None`` while open, or for a bot seat).
        played_by: the bot kind that plays an agent's seat since its clock ran out too often, else ``None``.
        timeouts: the seat's decisions in a row the clock made.
    """

    seat: int
    kind: str
    agent: str | None
    open: bool
    played_by: str | None = None
    timeouts: int = 0

    @property
    def label(self) -> str:
        """``seat 1 (claude-7)``, ``seat 2 (bot:heuristic)``, ``seat 0 (open seat)``."""
        who = self.agent if self.agent is not None else (self.kind if self.kind != "agent" else "open seat")
        return f"seat {self.seat} ({who})"


@dataclass(frozen=True)
class TableFacts:
    """A table as every caller may know it (no hidden card, no seed before the end)."""

    table_id: str
    game: str
    status: str
    version: int
    seats: list[SeatFacts]
    options: dict[str, Any]
    table_options: dict[str, Any]
    require_club_pass: bool
    seeded: bool
    creator: str | None
    created_at: float
    note: str | None = None
    result: dict[str, Any] | None = None
    deadline_at: float | None = None

    @property
    def open_seats(self) -> list[int]:
        """The agent seats nobody has taken."""
        return [s.seat for s in self.seats if s.open]


@dataclass(frozen=True)
class DecisionFacts:
    """Who must decide now (``kind`` ``"waiting_for_players"`` before the game starts, ``"over"`` after)."""

    kind: str
    seats: list[int]
    done: list[int]
    prompt: str
    yours: bool
    deadline_at: float | None = None


@dataclass(frozen=True)
class MoveFacts:
    """A legal move: its id (``m3``), text form, JSON form, plain words and, when it can never help, why."""

    id: str
    text: str
    move: dict[str, Any]
    says: str
    note: str | None = None


@dataclass(frozen=True)
class SeatState:
    """Everything one seat may see at a table now.

    Attributes:
        seat_version: the table version at which this seat's view or legal moves last changed.
        events: the events after ``since`` this seat may see: every one of its own (``eventfold.is_own``) and
            the newest of the others, at most a bounded number.
        events_omitted: older events of the others after ``since`` left out (``game_log`` has them).
        brief: the engine's state lines of the view (``Game.state_text``: own holdings, the others, the piles).
        render: the engine's full rendering of the view, when asked for.
        now: the time the state was read (for the seconds left on the clock).
    """

    table: TableFacts
    seat: int
    seat_version: int
    decision: DecisionFacts
    view: dict[str, Any]
    events: list[EventRow]
    events_omitted: int
    since: int
    moves: list[MoveFacts]
    brief: str
    render: str | None = None
    now: float = 0.0

    @property
    def me(self) -> SeatFacts:
        """This seat's facts."""
        return self.table.seats[self.seat]


@dataclass(frozen=True)
class RefusalFacts:
    """Why a move was not applied.

    Attributes:
        kind: ``rule``, ``stale_version``, ``stale_move_id``, ``unparsed``, ``not_your_decision``,
            ``not_started`` or ``game_over``.
        closest: for ``unparsed``: the legal moves closest to what was sent.
        examples: for ``unparsed``: one example of each form a move may take.
        move_type: for ``rule``: the type of the move refused (a type no legal move has is a move of another step).
    """

    kind: str
    reason: str
    rule_id: str | None = None
    rule_title: str | None = None
    rule_text: str | None = None
    closest: list[MoveFacts] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    move_type: str | None = None


@dataclass(frozen=True)
class MoveResult:
    """The outcome of ``play_move``: the move applied (or why not) and the seat's state after it.

    ``played_version`` is the table version the move created (bots' replies may follow it). ``overtaken`` is set
    (and nothing stored) when others' acts had already done the move's work (``Game.overtaken``); ``queued``
    (nothing stored yet) when the move waits for an interruption that asks the seat first (:mod:`.queued`).
    """

    accepted: bool
    state: SeatState
    played: MoveFacts | None = None
    refusal: RefusalFacts | None = None
    played_version: int | None = None
    overtaken: str | None = None
    queued: str | None = None


@dataclass(frozen=True)
class WaitOutcome:
    """The outcome of ``wait_for_turn``: ``reason`` is ``your_decision``, ``game_over`` or ``timeout``."""

    ready: bool
    reason: str
    waited_s: float
    state: SeatState


@dataclass(frozen=True)
class Created:
    """A new table and the schemas of its options."""

    table: TableFacts
    options_schema: dict[str, Any]


@dataclass(frozen=True)
class Joined:
    """A seat taken: the secret token (shown once), the seat's version and, once the game has started, what the
    seat sees (its decision, when it is the seat's)."""

    table: TableFacts
    seat: int
    agent: str
    token: str
    seat_version: int
    state: SeatState | None = None


@dataclass(frozen=True)
class LogPage:
    """One page of a table's log.

    Attributes:
        scope: ``public``, ``seat`` or ``full`` (after the end: every event and move, the seed).
        after, upto: the versions this page covers (``after < version <= upto``; the deal is version 0).
        next_cursor: the cursor of the next page, or ``None`` on the last.
    """

    table: TableFacts
    scope: str
    seat: int | None
    events: list[EventRow]
    moves: list[MoveRow] | None
    seed: int | None
    after: int
    upto: int
    next_cursor: str | None


@dataclass(frozen=True)
class TablePage:
    """One page of tables, newest first."""

    tables: list[TableFacts]
    next_cursor: str | None
