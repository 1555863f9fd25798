"""Yo soy el jefe: the negotiation game, refereed one decision at a time.

Importing this package registers the game. The component values other packages
need are plain functions: :func:`dividend_value`, :func:`payout`,
:func:`deal_card`, :func:`board_spaces`, :func:`board_space`.
"""

from engine.core.registry import register
from engine.yo_soy_el_jefe.components import (
    ComponentDataError,
    Components,
    DealCard,
    Family,
    InfluenceCard,
    Space,
    board_space,
    board_spaces,
    components,
    deal_card,
    dividend_value,
    load_components,
    payout,
)
from engine.yo_soy_el_jefe.game import YoSoyElJefe

GAME = register(YoSoyElJefe())

__all__ = [
    "GAME",
    "ComponentDataError",
    "Components",
    "DealCard",
    "Family",
    "InfluenceCard",
    "Space",
    "YoSoyElJefe",
    "board_space",
    "board_spaces",
    "components",
    "deal_card",
    "dividend_value",
    "load_components",
    "payout",
]
