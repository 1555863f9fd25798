"""Se Vende: secret phase selection, an original card set, bots; registered as ``se-vende``.

Public API: :class:`SeVende` (the rules, registered in :mod:`engine.core.registry`),
the moves in :mod:`engine.se_vende.moves`, the card set in :mod:`engine.se_vende.cards`
and the bots ``random`` and ``heuristic``.
"""

from engine.core.registry import register
from engine.se_vende.bots import HeuristicBot
from engine.se_vende.cards import CardDataError, CardDef, Power, PowerName, load_deck, load_designs
from engine.se_vende.game import SeVende, action_token, score
from engine.se_vende.state import SeVendeConfig, SeVendeState

GAME = register(SeVende())

__all__ = [
    "GAME",
    "CardDataError",
    "CardDef",
    "HeuristicBot",
    "Power",
    "PowerName",
    "SeVende",
    "SeVendeConfig",
    "SeVendeState",
    "action_token",
    "load_deck",
    "load_designs",
    "score",
]
