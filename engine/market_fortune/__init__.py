"""Market Fortune: components as data, the rules engine in three modes, views and bots.

Importing the package registers the game as ``"market-fortune"`` in the engine registry.
"""

from engine.core.registry import register
from engine.market_fortune.bots import HeuristicBot
from engine.market_fortune.game import MarketFortune
from engine.market_fortune.state import MFConfig, State

GAME = register(MarketFortune())

__all__ = ["GAME", "HeuristicBot", "MFConfig", "MarketFortune", "State"]
