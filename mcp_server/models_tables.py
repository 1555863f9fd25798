"""Output models of the table tools (every field described for the model reading it)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class SeatInfo(BaseModel):
    """One seat of a table."""

    seat: int = Field(description="Seat number, 0-based; moves and events name players as 'seat N'.")
    kind: str = Field(description="'agent' (an MCP client joins it), 'bot:random' or 'bot:heuristic' (server-run).")
    agent: str | None = Field(description="Name of the agent seated there, null while the seat is open or a bot.")
    open: bool = Field(description="True when an agent may still join this seat.")


class Decision(BaseModel):
    """Who must decide now."""

    kind: str = Field(
        description="'turn' (one seat acts), 'simultaneous' (several seats choose at once, sealed until all have "
        "chosen), 'reaction' (one seat is polled to react out of turn or pass), 'waiting_for_players' (open "
        "agent seats; the game starts when all are filled) or 'over'."
    )
    seats: list[int] = Field(description="Seats that must decide now.")
    done: list[int] = Field(description="For 'simultaneous': seats that have already chosen (never what).")
    prompt: str = Field(description="What the deciding seat must decide, one English sentence.")
    yours: bool = Field(description="True when the seat asking must decide now.")


class LegalMove(BaseModel):
    """One move the seat may play now."""

    id: str = Field(
        description="Short id valid at this table version only, e.g. 'm3'; pass it as play_move's move argument."
    )
    text: str = Field(description="The move's short text form (also accepted by play_move).")
    move: dict[str, Any] = Field(description="The move's JSON form (also accepted by play_move).")


class EventInfo(BaseModel):
    """Something that happened at the table, as this seat may know it."""

    index: int = Field(description="Position in the table's event log, 0-based.")
    version: int = Field(description="Table version (number of moves applied) when it happened.")
    text: str = Field(description="One English sentence, e.g. 'seat 2 drew a card from the $ deck'.")
    private: bool = Field(description="True when only some seats (you among them) were told this.")
    data: dict[str, Any] | None = Field(description="Details as JSON, or null.")


class ResultInfo(BaseModel):
    """How the game ended."""

    winners: list[int] = Field(description="Winning seats.")
    scores: list[float] = Field(description="One score per seat in the game's unit (millions, points, money).")
    reason: str = Field(description="One English sentence.")
    rule_id: str | None = Field(description="Corpus id of the rule that decided the end, when there is one.")


class TableCreated(BaseModel):
    """A new table."""

    table_id: str = Field(description="The table's id; pass it to join_table, get_view and play_move.")
    game: str = Field(description="Game id.")
    status: str = Field(description="'waiting' (open agent seats), 'playing' or 'finished'.")
    seats: list[SeatInfo] = Field(description="The seats in order.")
    options: dict[str, Any] = Field(description="The game options in force (defaults filled in).")
    require_club_pass: bool = Field(description="Whether join_table demands a club pass covering this game.")
    seeded: bool = Field(
        description="True when the creator chose the seed (its deals are reproducible and known to the creator)."
    )
    options_schema: dict[str, Any] = Field(description="JSON schema of this game's table options.")
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
    status: str = Field(description="'waiting' until every agent seat is taken, then 'playing'.")
    next_step: str = Field(description="What to do next, one English sentence.")


class TableView(BaseModel):
    """Everything one seat may see at a table now."""

    table_id: str = Field(description="The table's id.")
    game: str = Field(description="Game id.")
    status: str = Field(description="'waiting', 'playing' or 'finished'.")
    version: int = Field(description="Table version: the number of moves applied so far; pass as expected_version.")
    seat: int = Field(description="Your seat number.")
    seats: list[SeatInfo] = Field(description="All seats.")
    decision: Decision = Field(description="Who must decide now.")
    view: dict[str, Any] = Field(
        description="The game engine's view for your seat: your hand and private cards, the public table, counts "
        "of what others hold; never another seat's hidden cards or the deck order."
    )
    events: list[EventInfo] = Field(description="What happened since your last get_view or play_move, oldest first.")
    legal_moves: list[LegalMove] = Field(description="Your legal moves now; empty when it is not your decision.")
    text: str = Field(description="A compact English rendering of all of the above, for your context window.")
    result: ResultInfo | None = Field(description="The result once the game is over, else null.")


class Refusal(BaseModel):
    """Why a move was not applied (the table is unchanged)."""

    kind: str = Field(
        description="'rule' (the move breaks a rule), 'stale_version' (expected_version is not the table's "
        "version) or 'stale_move_id' (the move id was listed at an earlier version)."
    )
    reason: str = Field(description="One English sentence with the facts.")
    rule_id: str | None = Field(description="For 'rule': the rulebook section or ruling id that forbids the move.")
    rule_title: str | None = Field(description="For 'rule': that section's title.")
    rule_text: str | None = Field(description="For 'rule': the rulebook's (or ruling's) words for that rule.")
    current_version: int = Field(description="The table's version now.")


class MoveOutcome(BaseModel):
    """The answer to play_move."""

    accepted: bool = Field(description="True when the move was applied and stored.")
    table_id: str = Field(description="The table's id.")
    status: str = Field(description="'playing' or 'finished'.")
    version: int = Field(description="Table version after the move (and any bot moves that followed).")
    refusal: Refusal | None = Field(description="When not accepted: why, with the rule's id and words.")
    events: list[EventInfo] = Field(
        description="What happened that you had not seen yet, including what bots did after your move."
    )
    decision: Decision = Field(description="Who must decide now.")
    legal_moves: list[LegalMove] = Field(description="Your legal moves now (empty when it is not your decision).")
    result: ResultInfo | None = Field(description="The result once the game is over, else null.")


class WaitResult(BaseModel):
    """The answer to wait_for_turn."""

    table_id: str = Field(description="The table's id.")
    ready: bool = Field(description="True when you must decide now or the game is over.")
    reason: str = Field(description="'your_decision', 'game_over' or 'timeout'.")
    status: str = Field(description="'waiting', 'playing' or 'finished'.")
    version: int = Field(description="Table version now.")
    decision: Decision = Field(description="Who must decide now.")
    waited_s: float = Field(description="Seconds spent waiting.")


class LoggedMove(BaseModel):
    """One stored move (full log only, after the game is over)."""

    version: int = Field(description="Version this move created (1 for the first move).")
    seat: int = Field(description="The seat that played it.")
    actor: str = Field(description="'agent' or 'bot'.")
    move: dict[str, Any] = Field(description="The move's JSON form.")


class GameLog(BaseModel):
    """A table's log."""

    table_id: str = Field(description="The table's id.")
    game: str = Field(description="Game id.")
    status: str = Field(description="'waiting', 'playing' or 'finished'.")
    scope: str = Field(
        description="'public' (no token: public events only), 'seat' (public events plus your private ones) or "
        "'full' (the game is over: every event, every move, the seed and options, enough to replay it)."
    )
    seat: int | None = Field(description="Your seat for scope 'seat', else null.")
    events: list[EventInfo] = Field(description="The events in order.")
    moves: list[LoggedMove] | None = Field(description="Every move (scope 'full' only), else null.")
    seed: int | None = Field(description="The game's seed (scope 'full' only), else null.")
    options: dict[str, Any] = Field(description="The game options in force.")
    result: ResultInfo | None = Field(description="The result once the game is over, else null.")


class TableSummary(BaseModel):
    """One table in a listing."""

    table_id: str = Field(description="The table's id.")
    game: str = Field(description="Game id.")
    status: str = Field(description="'waiting', 'playing' or 'finished'.")
    version: int = Field(description="Number of moves applied so far.")
    seats: list[SeatInfo] = Field(description="The seats; 'open' ones can be joined.")
    options: dict[str, Any] = Field(description="The game options in force.")
    require_club_pass: bool = Field(description="Whether joining needs a club pass covering this game.")
    seeded: bool = Field(description="True when the creator chose the seed.")
    created_at: str = Field(description="Creation time, ISO 8601 UTC, e.g. '2026-11-30T09:15:00Z'.")


class TableList(BaseModel):
    """Tables matching a filter, newest first."""

    tables: list[TableSummary] = Field(description="Up to 200 tables, newest first.")
