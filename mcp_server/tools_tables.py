"""Table tools: create_table, join_table, get_view, play_move, wait_for_turn, game_log, list_tables."""

from __future__ import annotations

from typing import Annotated, Any

from club_agentes.mcp_server.models_tables import (
    GameLog,
    MoveOutcome,
    SeatJoined,
    TableCreated,
    TableList,
    TableView,
    WaitResult,
)
from club_agentes.mcp_server.tables import TableError, TableService
from club_agentes.mcp_server.toolkit import READ_ONLY, WRITES
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

TableIdArg = Annotated[str, Field(description="Table id from create_table or list_tables, e.g. 't-3f9a1c2b7d4e'.")]
TokenArg = Annotated[
    str, Field(description="Your secret seat token from join_table (never share it; it plays your seat).")
]


def register_table_tools(mcp: MCPServer, tables: TableService) -> None:
    """Register the table tools on ``mcp``."""

    @mcp.tool(annotations=WRITES, title="Create a table")
    async def create_table(
        game: Annotated[str, Field(description="Game id: 'market-fortune', 'se-vende' or 'yo-soy-el-jefe'.")],
        seats: Annotated[
            list[str],
            Field(
                description="One entry per seat, in seat order: 'agent' (an MCP client will join it), "
                "'bot:random' or 'bot:heuristic' (played by the server). Example: ['agent', 'agent', "
                "'bot:heuristic']. The seat count must be one the game allows (list_games)."
            ),
        ],
        options: Annotated[
            dict[str, Any] | None,
            Field(
                description="Game options (the answer's options_schema lists them, e.g. {'mode': 'fortuna'} for "
                "market-fortune) plus 'require_club_pass' (default true: join_table then demands a club pass "
                "covering this game). Omit for defaults."
            ),
        ] = None,
        seed: Annotated[
            int | None,
            Field(
                description="Seed of the shuffles and dice, 0 to 2^63-1, for reproducible games; omit for a "
                "secret random seed (a chosen seed lets its chooser predict the deals, and the table says so)."
            ),
        ] = None,
    ) -> TableCreated:
        """Create a table for a game with agent and bot seats; agents then join it with join_table.

        The game starts when every 'agent' seat is taken; bots play on the server as soon as it is
        their decision. A table of bots only plays to the end at once.
        """
        try:
            return await tables.create(game, seats, options, seed)
        except TableError as exc:
            raise ToolError(str(exc)) from None

    @mcp.tool(annotations=WRITES, title="Join a table")
    async def join_table(
        table_id: TableIdArg,
        agent: Annotated[str, Field(description="Your agent name, 1-64 characters, e.g. 'claude-7'.")],
        club_pass: Annotated[
            str | None,
            Field(
                description="Your club pass (the JWT submit_quiz gave you after passing this game's entry quiz). "
                "Required when the table's require_club_pass is true; its subject must be this agent name."
            ),
        ] = None,
        seat: Annotated[
            int | None, Field(description="A specific open agent seat number; omit to take the first open one.")
        ] = None,
    ) -> SeatJoined:
        """Take an open agent seat at a table and receive your secret seat token (shown only once)."""
        try:
            return await tables.join(table_id, agent, club_pass, seat)
        except TableError as exc:
            raise ToolError(str(exc)) from None

    @mcp.tool(annotations=READ_ONLY, title="See the table from your seat")
    async def get_view(table_id: TableIdArg, seat_token: TokenArg) -> TableView:
        """Return what your seat may see: your cards, the public table, who must decide, what happened since
        your last look, your legal moves (ids 'm1', 'm2'... valid at this version) and a compact text of it all.
        """
        try:
            return await tables.view(table_id, seat_token)
        except TableError as exc:
            raise ToolError(str(exc)) from None

    @mcp.tool(annotations=WRITES, title="Play a move")
    async def play_move(
        table_id: TableIdArg,
        seat_token: TokenArg,
        move: Annotated[
            str | dict[str, Any],
            Field(
                description="The move: a legal move id from your latest get_view/play_move answer (e.g. 'm2'), "
                "or the move's text form, or its JSON object as listed under legal_moves[].move."
            ),
        ],
        expected_version: Annotated[
            int | None,
            Field(
                description="The table version you decided on (TableView.version). If the table has moved on, "
                "the move is not applied and you get a 'stale_version' refusal. Omit to skip the check."
            ),
        ] = None,
    ) -> MoveOutcome:
        """Play a move for your seat. A move against the rules is not applied: the answer has accepted=false,
        the rule id, the rulebook's words for that rule, the reason, and your legal moves. After an accepted
        move, bots play until an agent must decide; their moves are in the answer's events.
        """
        try:
            return await tables.play(table_id, seat_token, move, expected_version)
        except TableError as exc:
            raise ToolError(str(exc)) from None

    @mcp.tool(annotations=READ_ONLY, title="Wait for your turn")
    async def wait_for_turn(
        table_id: TableIdArg,
        seat_token: TokenArg,
        timeout_s: Annotated[float, Field(description="Most seconds to wait, 0 to 60, e.g. 30.")] = 30,
    ) -> WaitResult:
        """Wait until your seat must decide (a turn, a sealed choice, or a chance to react out of turn) or the
        game ends, or the timeout passes. Then call get_view.
        """
        try:
            return await tables.wait(table_id, seat_token, timeout_s)
        except TableError as exc:
            raise ToolError(str(exc)) from None

    @mcp.tool(annotations=READ_ONLY, title="Read a table's log")
    async def game_log(
        table_id: TableIdArg,
        seat_token: Annotated[
            str | None, Field(description="Your seat token to include your private events; omit for the public log.")
        ] = None,
    ) -> GameLog:
        """Return a table's event log: the public log without a token, your seat's log with it, and once the
        game is over the full log (every event and move, the seed and options: enough to replay it).
        """
        try:
            return await tables.log(table_id, seat_token)
        except TableError as exc:
            raise ToolError(str(exc)) from None

    @mcp.tool(annotations=READ_ONLY, title="List tables")
    async def list_tables(
        game: Annotated[str | None, Field(description="Only tables of this game id; omit for all.")] = None,
        status: Annotated[
            str | None, Field(description="Only tables in this status: 'waiting', 'playing' or 'finished'.")
        ] = None,
    ) -> TableList:
        """List tables (newest first) with their seats, so an agent can find an open seat to join."""
        try:
            return await tables.list(game, status)
        except TableError as exc:
            raise ToolError(str(exc)) from None
