"""Old import path of a few rule functions, kept while other packages move to the new layout.

The rules engine was split by step (:mod:`club_agentes.engine.market_fortune.steps`); the
functions other code used from here now live in :mod:`.scoring` (values and the market
terms) and :mod:`.flow` (the course of a table). Import them from there; these aliases will go.
"""

from __future__ import annotations

from club_agentes.engine.market_fortune.flow import roll_off
from club_agentes.engine.market_fortune.scoring import (
    as_advanced,
    goes_last,
    green_bonus,
    inv_value,
    is_leader,
    portfolio_value,
    yellow_bonus,
)
from club_agentes.engine.market_fortune.table import building_count

__all__ = [
    "as_advanced",
    "building_count",
    "goes_last",
    "green_bonus",
    "inv_value",
    "is_leader",
    "portfolio_value",
    "roll_off",
    "yellow_bonus",
]
