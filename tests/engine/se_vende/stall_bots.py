"""Bots built to make a Se Vende table last: they never end the game sooner than they must.

Used to measure the longest legal table (issue 11.1) and to check the decision bound of
:mod:`club_agentes.engine.se_vende.bounds` against real play.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Rng
from club_agentes.engine.core.model import Observation
from club_agentes.engine.se_vende.cards import load_deck
from club_agentes.engine.se_vende.moves import ChooseAction, Place, UsePower

DECK = load_deck()


class Staller:
    """Never places a card nor uses a power (no tableau grows, no chip is paid); one fixed action card."""

    strength = "test bot: stalls the game as long as the rules allow"

    def __init__(self, action: str | None) -> None:
        self.action = action

    def choose(self, obs: Observation, rng: Rng) -> Any:
        """Return the fixed action card, else a random move that neither places nor uses a power."""
        moves = obs.moves
        if isinstance(moves[0], ChooseAction):
            if self.action is None:
                return rng.choice(moves)
            return next(m for m in moves if m.action == self.action)
        calm = [m for m in moves if not (isinstance(m, Place) and m.card is not None) and not isinstance(m, UsePower)]
        return rng.choice(calm or moves)


class Grinder:
    """Builds a tableau up to ``limit`` cards, then cycles Comercio and Producir to draw and discard a lot."""

    strength = "test bot: makes as many decisions per round as it can without ending the game"

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def choose(self, obs: Observation, rng: Rng) -> Any:
        """Return the move that keeps the game going and makes the most decisions later."""
        moves = obs.moves
        view = obs.view
        me = view["players"][obs.seat]
        if isinstance(moves[0], ChooseAction):
            empty = sum(1 for c in me["tableau"] if c.get("world") == "production" and not c.get("good"))
            if me["tableau_size"] < self.limit and len(view.get("hand", [])) >= 4:
                want = "desarrollar" if rng.below(2) else "asentar"
            elif me["goods"]:
                want = "comercio"
            elif empty:
                want = "producir"
            else:
                want = "explorar-1-1" if rng.below(2) else "explorar-5"
            return next(m for m in moves if m.action == want)
        places = [m for m in moves if isinstance(m, Place) and m.card is not None]
        if places and me["tableau_size"] < self.limit:
            return max(places, key=lambda m: DECK.defs[DECK.index[m.card]].cost)
        calm = [m for m in moves if not isinstance(m, UsePower) and not (isinstance(m, Place) and m.card is not None)]
        return calm[0] if calm else rng.choice(moves)
