"""Clubhouse tools: leaderboard, agent_profile, seek_game.

Each tool takes the agent from the connection, calls the clubhouse, and returns a compact text for
a model with the full data in ``structuredContent``.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Annotated, Any, Literal

from club_agentes.engine.core.text import counted
from club_agentes.mcp_server.clubhouse.matchmaking import DEFAULT_SEEK_WAIT_S, MAX_SEEK_WAIT_S, SeekOutcome
from club_agentes.mcp_server.clubhouse.models import (
    AgentProfile,
    GameRating,
    Leaderboard,
    RatingEntry,
    RecentGame,
    SeekResult,
    SeekSeat,
)
from club_agentes.mcp_server.clubhouse.service import (
    MAX_LEADERBOARD,
    MAX_RECENT,
    Clubhouse,
    ClubhouseError,
    Standing,
    iso,
    seats_of,
)
from club_agentes.mcp_server.identity import current_agent, normalize_agent_name
from club_agentes.mcp_server.toolkit import READ_ONLY, WRITES, ClubServer, compact, with_progress
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from club_agentes.errors import Refused
from club_agentes.manifest import game_ids

if TYPE_CHECKING:
    from club_agentes.mcp_server.limits import Limits

    GameId = str
else:
    GameId = Literal[tuple(game_ids())]

GAMES = ", ".join(f"'{g}'" for g in game_ids())
TOOLS = ("leaderboard", "agent_profile", "seek_game")


def _entry(s: Standing) -> RatingEntry:
    r = s.row
    return RatingEntry(
        rank=s.rank,
        player=r.player,
        anchor=r.anchor,
        mu=round(r.mu, 3),
        sigma=round(r.sigma, 3),
        rating=round(s.rating, 3),
        games=r.games,
        wins=r.wins,
        win_rate=round(s.win_rate, 3) if s.win_rate is not None else None,
    )


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def leaderboard_text(board: Leaderboard) -> str:
    """Return the compact text of a leaderboard."""
    lines = [f"{board.name} leaderboard ({counted(board.rated_games, 'rated game')}; rating = mu - 3 sigma):"]
    for e in board.entries:
        tag = " (anchor)" if e.anchor else ""
        lines.append(
            f"{e.rank}. {e.player}{tag}: {e.rating:.1f} (mu {e.mu:.1f} ± {e.sigma:.1f}), "
            f"{counted(e.games, 'game')}, win rate {_pct(e.win_rate)}"
        )
    if board.page_url:
        lines.append(f"Web: {board.page_url}")
    return "\n".join(lines)


def profile_text(p: AgentProfile) -> str:
    """Return the compact text of an agent's profile."""
    lines = [f"Agent {p.agent}."]
    if not p.ratings:
        lines.append("No rated game yet: finish a game at a table with seek_game or create_table.")
    for g in p.ratings:
        lines.append(
            f"{g.game}: rank {g.rank}, rating {g.rating:.1f} (mu {g.mu:.1f} ± {g.sigma:.1f}), "
            f"{counted(g.games, 'game')}, win rate {_pct(g.win_rate)}"
        )
    if p.recent:
        lines.append("Recent games:")
    for r in p.recent:
        result = "won" if r.won else f"place {r.place} of {r.players}"
        lines.append(
            f"  {r.finished_at} {r.game} {r.table_id}: {result}, mu {r.mu_change:+.2f}; {r.reason} Log: {r.log}"
        )
    return "\n".join(lines)


def seek_text(r: SeekResult) -> str:
    """Return the compact text of a seek_game answer."""
    if not r.matched:
        return f"No table: nobody came within {r.waited_s:g} s and bot fill was off. {r.next}"
    who = ", ".join(f"seat {s.seat}: {'you' if s.you else s.player}" for s in r.seats)
    how = "with bot fill" if r.reason == "bot_fill" else "with other agents"
    return (
        f"Seated {how} at {r.game} table {r.table_id} as seat {r.seat} after {r.waited_s:g} s ({who}). "
        f"Seat token (secret, shown once): {r.seat_token}. {r.next}"
    )


def seek_result(game: str, o: SeekOutcome) -> SeekResult:
    """Return the tool answer of a seek."""
    j = o.joined
    if j is None:
        return SeekResult(
            matched=False,
            reason=o.reason,  # type: ignore[arg-type]
            waited_s=o.waited_s,
            game=game,
            table_id=None,
            seat=None,
            seat_token=None,
            seats=[],
            still_waiting=o.queue_size,
            next="Call seek_game again (perhaps with a longer max_wait_s or bot_fill true), or create_table.",
        )
    seats = [SeekSeat(seat=j.seat, player=j.agent, you=True)]
    seats += [SeekSeat(seat=seat, player=who, you=False) for seat, who in o.opponents.items()]
    seats.sort(key=lambda s: s.seat)
    started = j.table.status == "playing"
    nxt = (
        "The game has started: call wait_for_turn(table_id, seat_token) and play your moves."
        if started
        else "The other agents are taking their seats; call wait_for_turn(table_id, seat_token)."
    )
    return SeekResult(
        matched=True,
        reason=o.reason,  # type: ignore[arg-type]
        waited_s=o.waited_s,
        game=game,
        table_id=j.table.table_id,
        seat=j.seat,
        seat_token=j.token,
        seats=seats,
        still_waiting=o.queue_size,
        next=nxt,
    )


def build_leaderboard(club: Clubhouse, game: str, limit: int) -> Leaderboard:
    """Return a game's leaderboard model (ratings must be fresh).

    Raises:
        ClubhouseError: unknown game or a bad limit.
    """
    g = club.game(game)
    standings = club.standings(game, limit)
    return Leaderboard(
        game=game,
        name=g.name,
        entries=[_entry(s) for s in standings],
        rated_games=club.store.clubhouse.rated_count(game),
        page_url=club.leaderboard_url(game),
    )


def _known(club: Clubhouse, agent: str) -> bool:
    """Whether ``agent`` is an agent of this server: the caller itself, or one with a key here."""
    with contextlib.suppress(Refused):
        if agent == current_agent():
            return True
    return club.store.agents.load_agent(agent) is not None


def build_profile(club: Clubhouse, agent: str, recent: int) -> AgentProfile:
    """Return an agent's profile model (ratings must be fresh).

    Raises:
        ClubhouseError: a bad ``recent`` count.
    """
    standings, games = club.profile(agent, recent)
    ratings = [
        GameRating(
            game=s.row.game,
            rank=s.rank or None,
            mu=round(s.row.mu, 3),
            sigma=round(s.row.sigma, 3),
            rating=round(s.rating, 3),
            games=s.row.games,
            wins=s.row.wins,
            win_rate=round(s.win_rate, 3) if s.win_rate is not None else None,
        )
        for s in standings
    ]
    out = []
    for g in games:
        mine = seats_of(g.outcome, agent)
        if not mine:
            continue
        best = min(mine, key=lambda s: s["place"])
        scores = [s["score"] for s in mine if s.get("score") is not None]
        out.append(
            RecentGame(
                table_id=g.table_id,
                game=g.game,
                finished_at=iso(g.finished_at),
                seats=[int(s["seat"]) for s in mine],
                place=int(best["place"]),
                players=len(g.outcome.get("seats", [])),
                won=any(s["won"] for s in mine),
                score=max(scores) if scores else None,
                reason=str(g.outcome.get("reason", "")),
                mu_change=round(float(mine[0]["mu_after"]) - float(mine[0]["mu_before"]), 3),
                log=f"game_log(table_id='{g.table_id}')",
                replay_url=club.replay_url(g.table_id),
            )
        )
    return AgentProfile(agent=agent, ratings=ratings, recent=out)


def register_clubhouse_tools(mcp: ClubServer, club: Clubhouse, limits: Limits | None = None) -> None:
    """Register ``leaderboard``, ``agent_profile`` and ``seek_game`` on ``mcp``."""

    @mcp.tool(annotations=READ_ONLY, title="Leaderboard of a game")
    async def leaderboard(
        game: Annotated[GameId, Field(description=f"Game id: {GAMES}.")],
        limit: Annotated[
            int, Field(description=f"Most players to list, 1 to {MAX_LEADERBOARD}.", ge=1, le=MAX_LEADERBOARD)
        ] = 20,
    ) -> Annotated[CallToolResult, Leaderboard]:
        """Return a game's leaderboard: rank, player, rating with its uncertainty (openskill mu ± sigma; ranked by
        mu - 3 sigma), games played and win rate. Every finished game with an agent seat is rated; bots appear as
        anchors with fixed ratings (bot:heuristic at 25).
        """
        await club.fresh()
        board = build_leaderboard(club, game, limit)
        return compact(board, leaderboard_text(board))

    @mcp.tool(annotations=READ_ONLY, title="An agent's ratings and recent games")
    async def agent_profile(
        agent: Annotated[
            str | None, Field(description="The agent to show (any agent's ratings are public); omit for yourself.")
        ] = None,
        recent: Annotated[
            int, Field(description=f"How many recent games to list, 1 to {MAX_RECENT}.", ge=1, le=MAX_RECENT)
        ] = 10,
    ) -> Annotated[CallToolResult, AgentProfile]:
        """Return an agent's rating at each game (with its rank, games and win rate) and its latest rated games with
        their results and links to their logs (game_log) and replays.
        """
        who = current_agent() if agent is None else normalize_agent_name(agent)
        await club.fresh()
        profile = build_profile(club, who, recent)
        if agent is not None and not profile.ratings and not profile.recent and not _known(club, who):
            raise ClubhouseError(
                f"no agent named {who!r} is known here (it has no key on this server and no rated game); "
                "leaderboard(game) lists the rated agents, and leaving 'agent' out shows your own profile"
            )
        return compact(profile, profile_text(profile))

    @mcp.tool(annotations=WRITES, title="Find opponents and a seat")
    async def seek_game(
        game: Annotated[GameId, Field(description=f"Game id: {GAMES}.")],
        seats: Annotated[
            int | None,
            Field(description="Seats at the table (a count the game allows, see list_games); default 2.", ge=1, le=6),
        ] = None,
        options: Annotated[
            dict[str, Any] | None,
            Field(
                description="Game and table options as in create_table (e.g. {'mode': 'fortuna'}, "
                "{'decision_timeout_s': 120}); only agents asking for the same options are seated together. "
                "'require_club_pass' defaults to true (the club's rule); seats_per_agent is not allowed."
            ),
        ] = None,
        max_wait_s: Annotated[
            float | None,
            Field(
                description=f"Most seconds to wait for other agents, 0 to {MAX_SEEK_WAIT_S:g}; default "
                f"{DEFAULT_SEEK_WAIT_S:g}.",
                ge=0,
                le=MAX_SEEK_WAIT_S,
            ),
        ] = None,
        bot_fill: Annotated[
            bool,
            Field(
                description="When max_wait_s runs out without enough agents, play anyway with bot:heuristic in the "
                "empty seats (default true); false: return unmatched instead."
            ),
        ] = True,
        club_pass: Annotated[
            str | None,
            Field(
                description="Your club pass for this game (from submit_quiz); required unless require_club_pass "
                "is false in options."
            ),
        ] = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, SeekResult]:
        """Wait in the queue for a game and seat count until enough agents wait, then sit down together at a new
        table and get your secret seat token. Pairing prefers agents of close rating. After max_wait_s the empty
        seats are filled with bot:heuristic if bot_fill is true. Then play with wait_for_turn / play_move.
        With a progressToken, progress notifications count the seconds waited in the queue.
        """
        agent = current_agent()
        req = club.matchmaker.request(agent, game, seats, options, max_wait_s, bot_fill, club_pass)
        club.ensure_started()
        hold: contextlib.AbstractAsyncContextManager[None] = contextlib.nullcontext()
        if limits is not None and req.max_wait_s > 0:
            hold = limits.ahold("long_poll", agent, req.max_wait_s + 30)
        async with hold:
            outcome = await with_progress(ctx, club.matchmaker.seek(req), req.max_wait_s, "waiting for opponents")
        result = seek_result(game, outcome)
        return compact(result, seek_text(result))

    mcp.skip_output_validation(*TOOLS)
