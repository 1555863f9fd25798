"""Table tools: create_table, join_table, get_view, play_move, wait_for_turn, game_log, list_tables.

Each tool is a few lines: take the agent from the connection, call the table service, hand its
plain data to the presenter. Refusals (:class:`~club_agentes.errors.Refused`) become one-sentence
tool errors in ``ClubServer``; a move against the rules is an answer (``accepted: false``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from club_agentes.mcp_server.heavy import off_loop
from club_agentes.mcp_server.identity import claimed_agent, current_agent
from club_agentes.mcp_server.models_tables import (
    GameLog,
    MoveOutcome,
    SeatJoined,
    TableCreated,
    TableList,
    TableView,
    WaitResult,
)
from club_agentes.mcp_server.tables import presenter
from club_agentes.mcp_server.tables.common import LOG_PAGE_EVENTS
from club_agentes.mcp_server.tables.config import MAX_WAIT_S
from club_agentes.mcp_server.tables.service import MAX_LIST_PAGE, MAX_LOG_PAGE, TableService
from club_agentes.mcp_server.toolkit import READ_ONLY, WRITES, ClubServer, with_progress
from club_agentes.mcp_server.ui_app import TABLE_META
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from club_agentes.manifest import game_ids

if TYPE_CHECKING:
    GameId = str
else:
    GameId = Literal[tuple(game_ids())]

TableIdArg = Annotated[str, Field(description="Table id from create_table or list_tables, e.g. 't-3f9a1c2b7d4e'.")]
TokenArg = Annotated[
    str, Field(description="Your secret seat token from join_table (never share it; it plays your seat).")
]
SinceArg = Annotated[
    int | None,
    Field(
        description="List the events after this version (a version or seat_version from an earlier answer); "
        "omit for the events since your own last move.",
        ge=-1,
        strict=True,
    ),
]
StatusFilter = Literal["waiting", "playing", "finished", "aborted"]

GAMES = ", ".join(f"'{g}'" for g in game_ids())

TOOLS = ("create_table", "join_table", "get_view", "play_move", "wait_for_turn", "game_log", "list_tables")


def register_table_tools(mcp: ClubServer, tables: TableService) -> None:
    """Register the table tools on ``mcp``."""

    @mcp.tool(annotations=WRITES, title="Create a table")
    async def create_table(
        game: Annotated[GameId, Field(description=f"Game id: {GAMES}.")],
        seats: Annotated[
            list[str],
            Field(
                description="One entry per seat, in seat order: 'agent' (an MCP client will join it), "
                "'bot:random', 'bot:heuristic' or 'bot:mcts' (played by the server; list_games gives each kind's "
                "strength). Example: ['agent', 'agent', 'bot:heuristic']. The seat count must be one the game "
                "allows (list_games).",
                max_length=6,
            ),
        ],
        options: Annotated[
            dict[str, Any] | None,
            Field(
                description="Game options (the answer's options_schema lists them with their ranges, e.g. "
                "{'mode': 'fortuna'} for market-fortune) and table options: 'require_club_pass' (default true), "
                "'decision_timeout_s' (seconds per decision of an agent seat, default 300; null: no clock), "
                "'max_timeouts' (default 3: then a bot takes the seat over), 'seats_per_agent' (default 1). "
                "Omit for defaults."
            ),
        ] = None,
        seed: Annotated[
            int | None,
            Field(
                description="Seed of the shuffles and dice, 0 to 2^63-1, for reproducible games; omit for a "
                "secret random seed (a chosen seed lets its chooser predict the deals, and the table says so).",
                strict=True,
            ),
        ] = None,
    ) -> Annotated[CallToolResult, TableCreated]:
        """Create a table for a game with agent and bot seats; agents then join it with join_table.

        The game starts when every 'agent' seat is taken; bots play on the server when it is their decision.
        A table of bots only starts playing in the background at once (game_log follows it).
        """
        return presenter.created(await tables.create(game, seats, options, seed, creator=current_agent()))

    @mcp.tool(annotations=WRITES, title="Join a table")
    async def join_table(
        table_id: TableIdArg,
        club_pass: Annotated[
            str | None,
            Field(
                description="Your club pass (the token submit_quiz gave you after passing this game's entry quiz). "
                "Required when the table's require_club_pass is true; it must name you."
            ),
        ] = None,
        seat: Annotated[
            int | None,
            Field(description="A specific open agent seat number; omit to take the first open one.", strict=True),
        ] = None,
        agent: Annotated[
            str | None,
            Field(description="Leave out: you join as the agent of your connection (if given, it must be that name)."),
        ] = None,
    ) -> Annotated[CallToolResult, SeatJoined]:
        """Take an open agent seat at a table as the agent of your connection and receive your secret seat token
        (shown only once). One agent holds one seat per table unless the table allows more.
        """
        who = claimed_agent(agent)
        return presenter.joined(await tables.join(table_id, who, club_pass, seat))

    @mcp.tool(annotations=READ_ONLY, title="See the table from your seat", meta=TABLE_META)
    async def get_view(
        table_id: TableIdArg,
        seat_token: TokenArg,
        since: SinceArg = None,
        full: Annotated[
            bool,
            Field(
                description="Also render the whole table in the text (the structured view always has it).", strict=True
            ),
        ] = False,
    ) -> Annotated[CallToolResult, TableView]:
        """Return what your seat may see: the decision, what changed since 'since', your legal moves (ids 'm1',
        'm2'... valid while your seat_version stands, with their plain words), and the game's view. Reading
        changes nothing: two clients on one seat get the same answer.
        """
        return presenter.view(await tables.view(table_id, seat_token, since, full=full, agent=current_agent()))

    @mcp.tool(annotations=WRITES, title="Play a move", meta=TABLE_META)
    async def play_move(
        table_id: TableIdArg,
        seat_token: TokenArg,
        move: Annotated[
            str | dict[str, Any],
            Field(
                description="The move: a legal move id from your latest answer (e.g. 'm2'), or the move's text form, "
                "or its JSON object as listed under legal_moves[].move."
            ),
        ],
        expected_version: Annotated[
            int | None,
            Field(
                description="The version or seat_version you decided on. If what your seat sees has changed since, "
                "the move is not applied ('stale_version'); other seats' sealed choices never make it stale. "
                "Recommended with move ids.",
                strict=True,
            ),
        ] = None,
        wait_s: Annotated[
            float,
            Field(
                description=f"Seconds (0 to {MAX_WAIT_S:g}) the answer to an accepted move may wait for your next "
                "decision, as wait_for_turn does: it comes when you must decide again or the game ends, with "
                "everything that happened since your move, so no wait_for_turn call is needed; e.g. 30. "
                "0 (the default) answers at once.",
                strict=True,
            ),
        ] = 0,
    ) -> Annotated[CallToolResult, MoveOutcome]:
        """Play a move for your seat. A move that is not applied comes back with accepted=false and why: the rule
        with the rulebook's words, or for text that names no legal move the closest legal moves and the accepted
        forms. After an accepted move, bots reply; the answer has what changed and your next decision (with
        wait_s, it waits for that decision, the other seats' moves included).
        """
        return presenter.outcome(
            await tables.play(table_id, seat_token, move, expected_version, wait_s, agent=current_agent())
        )

    @mcp.tool(annotations=READ_ONLY, title="Wait for your turn", meta=TABLE_META)
    async def wait_for_turn(
        table_id: TableIdArg,
        seat_token: TokenArg,
        timeout_s: Annotated[
            float, Field(description=f"Most seconds to wait, 0 to {MAX_WAIT_S:g}, e.g. 30.", strict=True)
        ] = 30,
        since: SinceArg = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, WaitResult]:
        """Wait until your seat must decide (a turn, a sealed choice, or a chance to react out of turn), the game
        ends, or the timeout passes. The answer has the decision and your legal moves: play one at once.
        With a progressToken, progress notifications count the seconds waited.
        """
        waiting = tables.wait(table_id, seat_token, timeout_s, since, agent=current_agent())
        total = min(max(timeout_s, 0.0), MAX_WAIT_S)
        return presenter.waited(await with_progress(ctx, waiting, total, "waiting for your turn"))

    @mcp.tool(annotations=READ_ONLY, title="Read a table's log")
    async def game_log(
        table_id: TableIdArg,
        seat_token: Annotated[
            str | None, Field(description="Your seat token to include your private events; omit for the public log.")
        ] = None,
        cursor: Annotated[
            str | None, Field(description="next_cursor from the previous page; omit for the first page.")
        ] = None,
        limit: Annotated[
            int,
            Field(
                description=f"Moves (versions) per page, 1 to {MAX_LOG_PAGE}. A page ends early, after whole moves, "
                f"once it holds about {LOG_PAGE_EVENTS} events: its upto says where, next_cursor continues.",
                ge=1,
                le=MAX_LOG_PAGE,
                strict=True,
            ),
        ] = 200,
    ) -> Annotated[CallToolResult, GameLog]:
        """Return a table's log a page at a time: the public log without a token, your seat's with it, and once
        the game is over the full log (every event with its audience, every move, the seed and options: enough
        to replay it). The first page starts with the deal.
        """
        who = current_agent() if seat_token is not None else None
        page = await tables.log(table_id, seat_token, cursor, limit, agent=who)
        return await off_loop(presenter.log_page, page)  # up to 500 moves of events: built off the event loop

    @mcp.tool(annotations=READ_ONLY, title="List tables")
    async def list_tables(
        game: Annotated[GameId | None, Field(description=f"Only tables of this game: {GAMES}.")] = None,
        status: Annotated[StatusFilter | None, Field(description="Only tables in this status.")] = None,
        open_seats: Annotated[
            bool, Field(description="Only tables with an agent seat you can take.", strict=True)
        ] = False,
        mine: Annotated[bool, Field(description="Only tables you created or sit at.", strict=True)] = False,
        cursor: Annotated[
            str | None, Field(description="next_cursor from the previous page; omit for the first page.")
        ] = None,
        limit: Annotated[
            int,
            Field(description=f"Tables per page, 1 to {MAX_LIST_PAGE}.", ge=1, le=MAX_LIST_PAGE, strict=True),
        ] = 50,
    ) -> Annotated[CallToolResult, TableList]:
        """List tables newest first, a page at a time, with their seats; filter to open seats or your own tables."""
        page = await tables.list(
            game, status, open_seats=open_seats, agent=current_agent() if mine else None, cursor=cursor, limit=limit
        )
        return presenter.table_page(page)

    mcp.skip_output_validation(*TOOLS)
