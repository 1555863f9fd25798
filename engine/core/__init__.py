"""The decision model, seeded RNG, errors and game registry shared by every game."""

from club_agentes.engine.core.errors import ConfigError, EngineError, IllegalMove, InvalidMove, UnknownGame
from club_agentes.engine.core.model import (
    JSON,
    Bot,
    Config,
    DecisionKind,
    Event,
    Game,
    GameInfo,
    Move,
    MoveNote,
    Observation,
    Pending,
    RandomBot,
    Result,
    ScoreLine,
    SeatScore,
    ViewBot,
    decide,
    moves_by_type,
)
from club_agentes.engine.core.playout import Playout, play, replay
from club_agentes.engine.core.registry import GAMES, all_games, get_game, register
from club_agentes.engine.core.rng import Rng
from club_agentes.engine.core.windows import ReactionWindow, SealedChoices, clockwise_from

__all__ = [
    "GAMES",
    "JSON",
    "Bot",
    "Config",
    "ConfigError",
    "DecisionKind",
    "EngineError",
    "Event",
    "Game",
    "GameInfo",
    "IllegalMove",
    "InvalidMove",
    "Move",
    "MoveNote",
    "Observation",
    "Pending",
    "Playout",
    "RandomBot",
    "ReactionWindow",
    "Result",
    "Rng",
    "ScoreLine",
    "SealedChoices",
    "SeatScore",
    "UnknownGame",
    "ViewBot",
    "all_games",
    "clockwise_from",
    "decide",
    "get_game",
    "moves_by_type",
    "play",
    "register",
    "replay",
]
