"""Output models of the table tools (every field described for the model reading it).

The text content of each table tool result is a compact rendering written for a model (see
``mcp_server.tables.presenter``); these models are the full data in ``structuredContent``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

TableStatus = Literal["waiting", "playing", "finished", "aborted"]
"""'waiting' (open agent seats), 'playing', 'finished' (over, with a result) or 'aborted' (stopped by the server)."""

DecisionKind = Literal["turn", "simultaneous", "reaction", "waiting_for_players", "over"]

RefusalKind = Literal[
    "rule", "stale_version", "stale_move_id", "unparsed", "not_your_decision", "not_started", "game_over"
]

WaitReason = Literal["your_decision", "game_over", "timeout"]

LogScope = Literal["public", "seat", "full"]


class SeatInfo(BaseModel):
    """One seat of a table."""

    seat: int = Field(description="Seat number, 0-based; moves and events name players as 'seat N'.")
    kind: str = Field(description="'agent' (an MCP client joins it), 'bot:random' or 'bot:heuristic' (server-run).")
    agent: str | None = Field(description="Name of the agent seated there, null while the seat is open or a bot.")
    open: bool = Field(description="True when an agent may still join this seat.")
    played_by: str | None = Field(
        default=None,
        description="For an agent's seat whose decision clock ran out max_timeouts times in a row: the bot that "
        "plays it for the rest of the game (e.g. 'bot:heuristic'), else null.",
    )
    timeouts: int = Field(default=0, description="Decisions in a row the clock has played for this seat.")


class TableRules(BaseModel):
    """The table's own options (not the game's)."""

    require_club_pass: bool = Field(description="Whether join_table demands a club pass covering this game.")
    decision_timeout_s: float | None = Field(
        description="Seconds an agent seat has for each decision before the clock plays the rules' default (or "
        "the heuristic bot's move) for it; null: no clock."
    )
    max_timeouts: int = Field(description="Decisions in a row the clock may play before a bot takes the seat over.")
    seats_per_agent: int = Field(description="How many seats one agent may hold at this table.")


class Decision(BaseModel):
    """Who must decide now."""

    kind: DecisionKind = Field(
        description="'turn' (one seat acts), 'simultaneous' (several seats choose at once, sealed until all have "
        "chosen), 'reaction' (one seat is polled to react out of turn or pass), 'waiting_for_players' (open "
        "agent seats; the game starts when all are filled) or 'over'."
    )
    seats: list[int] = Field(description="Seats that must decide now.")
    done: list[int] = Field(description="For 'simultaneous': seats that have already chosen (never what).")
    prompt: str = Field(description="What the deciding seat must decide, one English sentence.")
    yours: bool = Field(description="True when the seat asking must decide now.")
    deadline_at: str | None = Field(
        default=None,
        description="When the deciding agents' decision clock runs out (ISO 8601 UTC); then the rules' default "
        "move (or the heuristic bot's) is played for them. Null: no clock.",
    )
    seconds_left: float | None = Field(default=None, description="Seconds until deadline_at, or null.")


class LegalMove(BaseModel):
    """One move the seat may play now."""

    id: str = Field(
        description="Short id, e.g. 'm3', valid while your seat_version stays the same; pass it as play_move's "
        "move (with expected_version to be safe)."
    )
    text: str = Field(description="The move's short text form (also accepted by play_move).")
    move: dict[str, Any] = Field(description="The move's JSON form (also accepted by play_move).")
    says: str = Field(description="The move in plain words: one sentence naming seats and amounts with their units.")
    note: str | None = Field(
        default=None, description="When the move is legal but can never help you, why (the engine can tell); else null."
    )


class EventInfo(BaseModel):
    """Something that happened at the table, as this seat may know it."""

    index: int = Field(description="Position in the table's event log, 0-based.")
    version: int = Field(description="Table version of the move that caused it (0: the deal, before any move).")
    text: str = Field(description="One English sentence, e.g. 'seat 2 drew a card from the $ deck'.")
    private: bool = Field(description="True when only some seats (you among them) were told this.")
    data: dict[str, Any] | None = Field(description="Details as JSON, or null.")


class ScoreLineInfo(BaseModel):
    """One line of a seat's final score."""

    label: str = Field(description="What the line counts, e.g. 'investment 2: Energía 5M + 3M'.")
    amount: float = Field(description="Points or money of this line (negative for money paid out).")
    rule_id: str | None = Field(description="Corpus id of the rule that gives it, when there is one.")


class SeatScoreInfo(BaseModel):
    """A seat's final score and where it came from."""

    seat: int = Field(description="The seat.")
    total: float = Field(description="The score (the sum of the lines).")
    unit: str = Field(description="The unit, e.g. 'M' (millions) or 'VP' (victory points).")
    lines: list[ScoreLineInfo] = Field(description="Where the total came from.")


class ResultInfo(BaseModel):
    """How the game ended."""

    winners: list[int] = Field(description="Winning seats.")
    scores: list[float] = Field(description="One score per seat in the game's unit (millions, points, money).")
    reason: str = Field(description="One English sentence.")
    rule_id: str | None = Field(description="Corpus id of the rule that decided the end, when there is one.")
    breakdown: list[SeatScoreInfo] = Field(
        default_factory=list, description="Per seat, where its score came from (empty if the game gives none)."
    )


class TableCreated(BaseModel):
    """A new table."""

    table_id: str = Field(description="The table's id; pass it to join_table, get_view and play_move.")
    game: str = Field(description="Game id.")
    status: TableStatus = Field(description="'waiting' (open agent seats) or 'playing' (bots only: played now).")
    seats: list[SeatInfo] = Field(description="The seats in order.")
    options: dict[str, Any] = Field(description="The game options in force (defaults filled in).")
    table_rules: TableRules = Field(description="The table's own options in force.")
    require_club_pass: bool = Field(description="Whether join_table demands a club pass covering this game.")
    seeded: bool = Field(
        description="True when the creator chose the seed (its deals are reproducible and known to the creator)."
    )
    creator: str | None = Field(description="The agent that created the table.")
    options_schema: dict[str, Any] = Field(description="JSON schema of the options: the game's and the table's.")
    next_step: str = Field(description="What to do next, one English sentence.")


class SeatJoined(BaseModel):
    """A seat taken by an agent."""

    table_id: str = Field(description="The table's id.")
    game: str = Field(description="Game id.")
    seat: int = Field(description="Your seat number (0-based).")
    agent: str = Field(description="Your agent name as seated.")
    seat_token: str = Field(
        description="Your secret seat token: pass it to get_view, play_move, wait_for_turn and game_log. "
        "Keep it private: whoever holds it plays your seat. It is shown only once."
    )
    status: TableStatus = Field(description="'waiting' until every agent seat is taken, then 'playing'.")
    version: int = Field(description="Table version now.")
    seat_version: int = Field(description="Your seat's version now (see get_view).")
    next_step: str = Field(description="What to do next, one English sentence.")
    decision: Decision | None = Field(
        default=None, description="Once the game has started: who must decide now (as get_view says it)."
    )
    legal_moves: list[LegalMove] = Field(
        default_factory=list,
        description="Once the game has started and the decision is yours: your legal moves, ids usable at once "
        "with play_move.",
    )


class TableView(BaseModel):
    """Everything one seat may see at a table now."""

    table_id: str = Field(description="The table's id.")
    game: str = Field(description="Game id.")
    status: TableStatus = Field(description="'waiting', 'playing', 'finished' or 'aborted'.")
    version: int = Field(description="Table version: the number of moves applied so far.")
    seat_version: int = Field(
        description="The table version at which what your seat sees (its view or legal moves) last changed. Pass "
        "it (or version) as expected_version: the move is refused only if your seat's situation changed since. "
        "Move ids stay valid while it stays the same."
    )
    seat: int = Field(description="Your seat number.")
    seats: list[SeatInfo] = Field(description="All seats.")
    decision: Decision = Field(description="Who must decide now.")
    view: dict[str, Any] = Field(
        description="The game engine's view for your seat: your hand and private cards, the public table, counts "
        "of what others hold; never another seat's hidden cards or the deck order."
    )
    since: int = Field(description="The events listed are those after this version.")
    events: list[EventInfo] = Field(description="What happened after 'since' that your seat may know, oldest first.")
    events_omitted: int = Field(description="Older events after 'since' not listed (game_log has them).")
    legal_moves: list[LegalMove] = Field(description="Your legal moves now; empty when it is not your decision.")
    result: ResultInfo | None = Field(description="The result once the game is over, else null.")
    table_rules: TableRules = Field(description="The table's own options (clock, seats per agent, pass).")
    note: str | None = Field(default=None, description="Why the server stopped the table (status 'aborted').")


class Refusal(BaseModel):
    """Why a move was not applied (the table is unchanged)."""

    kind: RefusalKind = Field(
        description="'rule' (the move breaks a rule), 'stale_version' (your seat's situation changed since "
        "expected_version), 'stale_move_id' (the id was listed before your situation changed), 'unparsed' (the "
        "move names no legal move: see closest and examples), 'not_your_decision', 'not_started' or 'game_over'."
    )
    reason: str = Field(description="One English sentence with the facts.")
    rule_id: str | None = Field(description="For 'rule': the rulebook section or ruling id that forbids the move.")
    rule_title: str | None = Field(description="For 'rule': that section's title.")
    rule_text: str | None = Field(description="For 'rule': the rulebook's (or ruling's) words for that rule.")
    current_version: int = Field(description="The table's version now.")
    seat_version: int = Field(description="Your seat's version now.")
    closest: list[LegalMove] = Field(
        default_factory=list, description="For 'unparsed': the three legal moves closest to what you sent."
    )
    examples: list[str] = Field(
        default_factory=list, description="For 'unparsed': one example text of each form a move of this game takes."
    )
    forms_now: list[str] = Field(
        default_factory=list,
        description="For 'unparsed' and for a move of another step: the text forms your legal moves take now, each "
        "with one of them as example, e.g. 'pay <card>, e.g. pay SV-C053'.",
    )


class MoveOutcome(BaseModel):
    """The answer to play_move."""

    accepted: bool = Field(
        description="True when the move was applied and stored, or when it was a pass that other seats' acts "
        "overtook (see overtaken: nothing stored, nothing left to do for it), or when it is queued behind a card "
        "you must answer first (see queued: nothing stored yet). False: see refusal."
    )
    table_id: str = Field(description="The table's id.")
    status: TableStatus = Field(description="'playing', 'finished', 'waiting' or 'aborted'.")
    version: int = Field(description="Table version now (after your move and any bot moves that followed).")
    seat_version: int = Field(description="Your seat's version now (see get_view).")
    played: LegalMove | None = Field(description="The move applied, when accepted.")
    played_version: int | None = Field(
        default=None, description="The table version your move created, when accepted (bot replies may follow it)."
    )
    refusal: Refusal | None = Field(description="When not accepted: why, with the rule's id and words.")
    overtaken: str | None = Field(
        default=None,
        description="Set (accepted true, played_version null) when your move was a pass, or the boss's wait, "
        "decided on an older version whose work other seats' acts already did (Yo soy el jefe's ruling "
        "pases-adelantados): one sentence saying what came since, e.g. \"your 'pass' decided at version 13 was "
        'overtaken, not refused: since then seat 1 passed, so your wait is over: ...". Nothing was stored.',
    )
    queued: str | None = Field(
        default=None,
        description="Set (accepted true, played_version null) when your move, decided on an older version, reached "
        "the table after another seat opened something that asks you first (Yo soy el jefe: a stop window for a "
        "travel card, boss card or hire set; ruling actos-en-espera): answer that from legal_moves; once it is "
        "over your move is played as yours if it is still legal and means the same, else dropped, and an event "
        "only you see says which. Nothing is stored until then.",
    )
    since: int = Field(description="The events listed are those after this version.")
    events: list[EventInfo] = Field(
        description="What happened after 'since': your move's events and what others (bots) did after it."
    )
    events_omitted: int = Field(description="Older events after 'since' not listed.")
    decision: Decision = Field(description="Who must decide now.")
    legal_moves: list[LegalMove] = Field(description="Your legal moves now (empty when it is not your decision).")
    result: ResultInfo | None = Field(description="The result once the game is over, else null.")


class WaitResult(BaseModel):
    """The answer to wait_for_turn."""

    table_id: str = Field(description="The table's id.")
    ready: bool = Field(description="True when you must decide now or the game is over.")
    reason: WaitReason = Field(description="'your_decision', 'game_over' or 'timeout'.")
    status: TableStatus = Field(description="'waiting', 'playing', 'finished' or 'aborted'.")
    version: int = Field(description="Table version now.")
    seat_version: int = Field(description="Your seat's version now (see get_view).")
    decision: Decision = Field(description="Who must decide now.")
    legal_moves: list[LegalMove] = Field(description="Your legal moves now, ids usable at once with play_move.")
    since: int = Field(description="The events listed are those after this version.")
    events: list[EventInfo] = Field(description="What happened after 'since' that your seat may know.")
    events_omitted: int = Field(description="Older events after 'since' not listed.")
    result: ResultInfo | None = Field(description="The result once the game is over, else null.")
    waited_s: float = Field(description="Seconds spent waiting.")


class LoggedMove(BaseModel):
    """One stored move (full log only, after the game is over)."""

    version: int = Field(description="Version this move created (1 for the first move).")
    seat: int = Field(description="The seat that played it.")
    actor: str = Field(description="'agent', 'bot', or 'clock' (the decision clock played it).")
    move: dict[str, Any] = Field(description="The move's JSON form.")


class GameLog(BaseModel):
    """One page of a table's log."""

    table_id: str = Field(description="The table's id.")
    game: str = Field(description="Game id.")
    status: TableStatus = Field(description="'waiting', 'playing', 'finished' or 'aborted'.")
    version: int = Field(description="Table version now.")
    scope: LogScope = Field(
        description="'public' (no token: public events only), 'seat' (public events plus your private ones) or "
        "'full' (the game is over: every event with its audience, every move, the seed and options: enough to "
        "replay it)."
    )
    seat: int | None = Field(description="Your seat for scope 'seat', else null.")
    after: int = Field(description="This page covers versions after this one (-1: from the deal on).")
    upto: int = Field(description="...up to and including this version.")
    events: list[EventInfo] = Field(description="The events of those versions, in order.")
    moves: list[LoggedMove] | None = Field(description="The moves of those versions (scope 'full' only), else null.")
    seed: int | None = Field(description="The game's seed (scope 'full' only), else null.")
    options: dict[str, Any] = Field(description="The game options in force.")
    seats: list[SeatInfo] = Field(description="The seats.")
    result: ResultInfo | None = Field(description="The result once the game is over, else null.")
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null on the last page.")


class TableSummary(BaseModel):
    """One table in a listing."""

    table_id: str = Field(description="The table's id.")
    game: str = Field(description="Game id.")
    status: TableStatus = Field(description="'waiting', 'playing', 'finished' or 'aborted'.")
    version: int = Field(description="Number of moves applied so far.")
    seats: list[SeatInfo] = Field(description="The seats; 'open' ones can be joined.")
    open_seats: list[int] = Field(description="The agent seats nobody has taken yet.")
    options: dict[str, Any] = Field(description="The game options in force.")
    table_rules: TableRules = Field(description="The table's own options.")
    require_club_pass: bool = Field(description="Whether joining needs a club pass covering this game.")
    seeded: bool = Field(description="True when the creator chose the seed.")
    creator: str | None = Field(description="The agent that created the table.")
    created_at: str = Field(description="Creation time, ISO 8601 UTC, e.g. '2026-11-30T09:15:00Z'.")


class TableList(BaseModel):
    """One page of tables, newest first."""

    tables: list[TableSummary] = Field(description="The tables of this page, newest first.")
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null on the last page.")
