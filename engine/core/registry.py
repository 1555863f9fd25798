"""The registry of games, keyed by game id (OpenSpiel's ``register_game`` pattern).

Each game package calls :func:`register` when imported. :func:`get_game` and
:func:`all_games` import the known game packages on first use, so callers never
need to import them by hand.
"""

from __future__ import annotations

import importlib

from engine.core.errors import UnknownGame
from engine.core.model import Game

GAMES: dict[str, Game] = {}

# The game packages of this distribution, in the order they are listed to users.
# A package registers its game when imported; until it does, get_game() refuses its id.
GAME_PACKAGES: tuple[str, ...] = (
    "engine.market_fortune",
    "engine.se_vende",
    "engine.yo_soy_el_jefe",
)

_loaded = False


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


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in GAME_PACKAGES:
            importlib.import_module(module)
        _loaded = True


def _rank(game: Game) -> int:
    module = type(game).__module__
    for i, package in enumerate(GAME_PACKAGES):
        if module == package or module.startswith(package + "."):
            return i
    return len(GAME_PACKAGES)


def all_games() -> list[Game]:
    """Return every registered game, in the order of :data:`GAME_PACKAGES` (whatever the import order)."""
    _load()
    return sorted(GAMES.values(), key=_rank)


def get_game(game_id: str) -> Game:
    """Return the game registered as ``game_id``.

    Raises:
        UnknownGame: no such game; the message lists the valid ids.
    """
    _load()
    try:
        return GAMES[game_id]
    except KeyError:
        valid = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game {game_id!r}; valid game ids are: {valid}") from None
