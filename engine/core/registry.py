"""The registry of games, keyed by game id (OpenSpiel's ``register_game`` pattern).

The installed games come from the game manifests (the ``club_agentes.games`` entry-point
group, :mod:`club_agentes.manifest`): :func:`get_game` and :func:`all_games` load a game's
engine the first time it is asked for. :func:`register` adds a game by hand (tests use it
for toy games).
"""

from __future__ import annotations

from club_agentes.engine.core.errors import UnknownGame
from club_agentes.engine.core.model import Game

from club_agentes.manifest import manifest, manifests

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Register ``game`` under its id and return it.

    Raises:
        ValueError: another game is already registered under the same id.
    """
    existing = GAMES.get(game.id)
    if existing is not None and existing is not game:
        raise ValueError(f"a game is already registered as {game.id!r}")
    GAMES[game.id] = game
    return game


def _installed(game_id: str) -> Game | None:
    m = manifest(game_id)
    if m is None:
        return None
    game = GAMES.get(game_id)
    if game is None:
        game = register(m.load_engine())
    return game


def all_games() -> list[Game]:
    """Return every installed game, in the manifests' display order.

    Raises:
        ManifestError: a manifest names an engine that cannot be loaded.
    """
    out = []
    for m in manifests():
        game = _installed(m.id)
        if game is not None:
            out.append(game)
    return out


def get_game(game_id: str) -> Game:
    """Return the game installed (or registered) as ``game_id``.

    Raises:
        UnknownGame: no such game; the message lists the valid ids.
        ManifestError: the game's manifest names an engine that cannot be loaded.
    """
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None and isinstance(game_id, str):
        game = _installed(game_id)
    if game is None:
        valid = ", ".join(m.id for m in manifests())
        shown = game_id[:60] if isinstance(game_id, str) else game_id
        raise UnknownGame(f"unknown game {shown!r}; valid game ids are: {valid}")
    return game
