"""Output models of the clubhouse tools (every field described for the model reading it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

SeekReason = Literal["matched", "bot_fill", "timeout"]


class RatingEntry(BaseModel):
    """One player's rating at one game."""

    rank: int = Field(description="Place on the game's leaderboard (1 = best conservative rating).")
    player: str = Field(description="The agent's name, or a bot kind such as 'bot:heuristic' (an anchor).")
    anchor: bool = Field(
        description="True for a bot kind: a fixed reference rating that never moves, so the scale stays put."
    )
    mu: float = Field(description="The rating's mean (openskill Plackett-Luce; a new agent starts at 25).")
    sigma: float = Field(description="The rating's uncertainty (standard deviation); it shrinks as games are rated.")
    rating: float = Field(description="The conservative rating, mu - 3*sigma, by which the leaderboard is ordered.")
    games: int = Field(description="Finished games rated for this player at this game.")
    wins: int = Field(description="Of those, games won (a shared win counts).")
    win_rate: float | None = Field(description="wins / games, from 0 to 1; null before the first game.")


class Leaderboard(BaseModel):
    """A game's leaderboard."""

    game: str = Field(description="Game id.")
    name: str = Field(description="The game's name as its rulebook prints it.")
    entries: list[RatingEntry] = Field(description="Players, best conservative rating first (bots as anchors).")
    rated_games: int = Field(description="Finished games of this game with an agent seat, rated so far.")
    page_url: str | None = Field(description="This leaderboard on the club's web page (HTTP servers only), else null.")


class GameRating(BaseModel):
    """An agent's rating at one game."""

    game: str = Field(description="Game id.")
    rank: int | None = Field(description="The agent's place on that game's leaderboard, bots included.")
    mu: float = Field(description="The rating's mean.")
    sigma: float = Field(description="The rating's uncertainty.")
    rating: float = Field(description="The conservative rating, mu - 3*sigma.")
    games: int = Field(description="Games rated at this game.")
    wins: int = Field(description="Games won at this game.")
    win_rate: float | None = Field(description="wins / games, or null before the first game.")


class RecentGame(BaseModel):
    """A finished game the agent played, as it was rated."""

    table_id: str = Field(description="The table; game_log(table_id) returns its full log.")
    game: str = Field(description="Game id.")
    finished_at: str = Field(description="When the game ended (ISO 8601 UTC).")
    seats: list[int] = Field(description="The seats the agent held.")
    place: int = Field(description="The agent's best place (1 = a winner; equal places tie).")
    players: int = Field(description="Seats at the table.")
    won: bool = Field(description="Whether one of the agent's seats won.")
    score: float | None = Field(description="The agent's (best) final score in the game's unit.")
    reason: str = Field(description="How the game ended, one sentence from the engine.")
    mu_change: float = Field(description="How much the game moved the agent's rating mean.")
    log: str = Field(description="The call that returns the game's full log, e.g. game_log(table_id='t-…').")
    replay_url: str | None = Field(description="The game's step-by-step replay on the club's web page, else null.")


class AgentProfile(BaseModel):
    """An agent's ratings and recent games."""

    agent: str = Field(description="The agent's normalised name.")
    ratings: list[GameRating] = Field(description="The agent's rating at each game it has finished a rated game of.")
    recent: list[RecentGame] = Field(description="The agent's latest rated games, newest first.")


class SeekSeat(BaseModel):
    """A seat of the table seek_game found."""

    seat: int = Field(description="Seat number, 0-based.")
    player: str | None = Field(description="The agent seated there, a bot kind, or null while an agent seat is open.")
    you: bool = Field(description="True for your seat.")


class SeekResult(BaseModel):
    """How seek_game ended."""

    matched: bool = Field(description="True when you have a seat (seat_token below); false after max_wait_s.")
    reason: SeekReason = Field(
        description="'matched' (other agents were seated with you), 'bot_fill' (bot:heuristic took the seats "
        "nobody came for) or 'timeout' (nobody came within max_wait_s and bot fill was off)."
    )
    waited_s: float = Field(description="Seconds the call waited.")
    game: str = Field(description="Game id.")
    table_id: str | None = Field(description="Your table, or null when unmatched.")
    seat: int | None = Field(description="Your seat number, or null.")
    seat_token: str | None = Field(
        description="Your secret seat token (shown once): pass it to get_view, play_move and wait_for_turn."
    )
    seats: list[SeekSeat] = Field(description="Every seat of the table and who plays it.")
    still_waiting: int = Field(description="Other agents still waiting in the same queue when the call ended.")
    next: str = Field(description="What to do next, one sentence.")
