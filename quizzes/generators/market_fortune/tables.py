"""Whole Market Fortune tables for the templates: who holds how many of what, dealt as real cards.

A :class:`Seat` says what the prompt states about a player (investments face down and face up,
building cards in hand, the strategies held); :func:`deal` turns the seats into a real position
of the engine (:func:`club_agentes.engine.market_fortune.scenario.position`), choosing the
building cards at random. :func:`describe` writes a rival's position in Spanish.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.market_fortune.scenario import position
from club_agentes.engine.market_fortune.state import State
from club_agentes.quizzes.generators.market_fortune.common import BY_NAME, building_cards, investment_cards, strategy_id
from club_agentes.quizzes.model import Redraw
from club_agentes.quizzes.wording import count, join

NO_STRATEGY = "sin ninguna Estrategia"


@dataclass(frozen=True)
class Seat:
    """What the prompt says of one player."""

    name: str
    down: int
    up: int
    hand: int
    strategies: tuple[str, ...] = ()

    @property
    def investments(self) -> int:
        """Investments formed, face down or up."""
        return self.down + self.up


@dataclass(frozen=True)
class Dealt:
    """The cards behind a table of :class:`Seat`: per seat, its hand and investments."""

    hands: tuple[tuple[str, ...], ...]
    investments: tuple[tuple[tuple[str, str, None, bool], ...], ...]


def random_seat(rng: Rng, name: str, *, most: int = 3, full: bool = True) -> Seat:
    """Return a seat with up to ``most`` investments (a few face up) and the building cards that go with them.

    ``full`` keeps 8 building cards between hand and investments; otherwise the hand may be short.
    """
    invs = rng.below(most + 1)
    up = rng.below(invs + 1) if invs and rng.below(3) == 0 else 0
    hand = 8 - 2 * invs
    if not full and hand and rng.below(2) == 0:
        hand -= 1 + rng.below(hand)
    return Seat(name, invs - up, up, hand)


def deal(rng: Rng, seats: Sequence[Seat]) -> Dealt:
    """Choose real cards for ``seats``: same-industry pairs for the investments, any cards for the hands."""
    used: list[str] = []
    hands: list[tuple[str, ...]] = []
    invs: list[tuple[tuple[str, str, None, bool], ...]] = []
    for seat in seats:
        pairs = investment_cards(rng, seat.investments, used)
        used += [c for p in pairs for c in p]
        invs.append(tuple((a, r, None, k >= seat.down) for k, (a, r) in enumerate(pairs)))
    for seat in seats:
        hand = building_cards(rng, seat.hand, used)
        used += hand
        hands.append(tuple(hand))
    return Dealt(tuple(hands), tuple(invs))


def state_of(seats: Sequence[Seat], dealt: Dealt, *, turn: int = 0, mode: str = "fortuna", seed: int = 11) -> State:
    """Return the engine position of ``seats`` with ``dealt``'s cards, ``turn`` on turn.

    Raises:
        Redraw: a strategy is held more times than it has copies.
    """
    copies: dict[str, int] = {}
    strategies: dict[int, list[str]] = {}
    for i, seat in enumerate(seats):
        ids = []
        for name in seat.strategies:
            copies[name] = copies.get(name, 0) + 1
            if copies[name] > BY_NAME[name].copies:
                raise Redraw
            ids.append(strategy_id(name, copies[name]))
        strategies[i] = ids
    return position(
        len(seats),
        mode=mode,
        turn=turn,
        hands=dict(enumerate(dealt.hands)),
        strategies=strategies,
        investments=dict(enumerate(dealt.investments)),
        seed=seed,
    )


def investments_words(seat: Seat) -> str:
    """``"2 inversiones boca abajo y 1 boca arriba"``, ``"ninguna inversión"``."""
    if not seat.investments:
        return "ninguna inversión"
    parts = []
    if seat.down:
        parts.append(f"{count(seat.down, 'inversión', 'inversiones', feminine=True)} boca abajo")
    if seat.up:
        up = f"{count(seat.up, 'inversión', 'inversiones', feminine=True)} boca arriba"
        parts.append(up.split(" ", 1)[0] + " boca arriba" if seat.down else up)
    return join(parts)


def strategies_words(seat: Seat, *, named: bool = False) -> str:
    """``"2 Estrategias"`` or, ``named``, ``"2 Estrategias (Robo y Liquidez)"``; ``"ninguna Estrategia"``."""
    if not seat.strategies:
        return "ninguna Estrategia"
    text = count(len(seat.strategies), "Estrategia", "Estrategias", feminine=True)
    return f"{text} ({join(list(seat.strategies))})" if named else text


def hand_words(seat: Seat) -> str:
    """``"4 cartas de construcción en la mano"``, or ``"la mano sin cartas de construcción"``."""
    if not seat.hand:
        return "la mano sin cartas de construcción"
    return f"{count(seat.hand, 'carta de construcción', 'cartas de construcción', feminine=True)} en la mano"


def describe(seat: Seat, *, named: bool = False, strategies: bool = True) -> str:
    """Write what a player has: ``"Beto tiene 2 inversiones boca abajo, 4 cartas de construcción en la mano y
    1 Estrategia"`` (with ``no``/``sin`` where nothing is held; ``strategies=False`` leaves them out)."""
    hand = hand_words(seat)
    if not strategies:
        if not seat.investments:
            return f"{seat.name} no tiene inversiones y tiene {hand}"
        return f"{seat.name} tiene {investments_words(seat)} y {hand}"
    if not seat.investments and not seat.strategies:
        return f"{seat.name} no tiene inversiones ni Estrategias, y tiene {hand}"
    if not seat.investments:
        return f"{seat.name} no tiene inversiones; tiene {hand} y {strategies_words(seat, named=named)}"
    if not seat.strategies:
        return f"{seat.name} tiene {investments_words(seat)} y {hand}, sin ninguna Estrategia"
    return f"{seat.name} tiene {investments_words(seat)}, {hand} y {strategies_words(seat, named=named)}"
