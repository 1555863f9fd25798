"""Explicit Se Vende positions, built from named cards (as pokerkit builds a state from explicit cards).

:func:`position` deals a real game, lets every seat make its setup discards, and then puts exactly
the named cards in each seat's hand and tableau, with goods on the named worlds; every other card
goes to the supply, in the game's shuffled order (its top is drawn first), so no card is lost or
doubled. The position is the start of round 1's action choice; placed cards count as placed at
setup, so their powers work at once. Quizzes and tests then choose actions and play the round with
the engine's own ``legal_moves`` and ``apply``; nothing here decides a rule.

Cards are named by design key (``"fundicion-estelar"``; the ``k``-th copy of a design with
:func:`card_id`) or by physical id (``"SV-C012"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from club_agentes.engine.core import get_game
from club_agentes.engine.se_vende.cards import load_deck
from club_agentes.engine.se_vende.state import SELECT, State

__all__ = ["card_id", "position"]


def card_id(key: str, copy: int = 0) -> str:
    """Return the physical id of the ``copy``-th card (from 0) of the design ``key``.

    Raises:
        KeyError: no design has that key, or it has fewer copies.
    """
    deck = load_deck()
    found = [deck.ids[i] for i, d in enumerate(deck.defs) if d.key == key]
    if copy >= len(found):
        raise KeyError(f"the design {key!r} has {len(found)} copies, not {copy + 1}")
    return found[copy]


def _number(name: str) -> int:
    deck = load_deck()
    return deck.index[name] if name in deck.index else deck.index[card_id(name)]


def _after_setup(seats: int, seed: int, turn_limit: int) -> State:
    """Return a new game whose setup is played with the first legal moves, at round 1's action choice.

    Raises:
        ValueError: the setup did not end there.
    """
    game = get_game("se-vende")
    state: State = game.new_game(game.make_config(seats, {"turn_limit": turn_limit}), seed)
    for seat in range(seats):
        for _ in range(2):
            game.apply(state, seat, game.legal_moves(state, seat)[0])
    if state.step != SELECT:
        raise ValueError("the setup did not end at the action choice")
    return state


def _add_goods(state: State, goods: Iterable[str]) -> None:
    """Put a good from the supply's top on each of the worlds ``goods`` names.

    Raises:
        ValueError: a world no tableau holds.
    """
    for world in goods:
        w = _number(world)
        if w not in state.stamps:
            raise ValueError(f"{world} is in no tableau, so it cannot hold a good")
        state.goods[w] = state.supply.pop()


def position(
    seats: int = 3,
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    tableau: Mapping[int, Sequence[str]] | None = None,
    goods: Iterable[str] = (),
    chips: Mapping[int, int] | None = None,
    seed: int = 1,
    turn_limit: int = 40,
) -> State:
    """Return round 1's action choice with exactly the named cards in place.

    Args:
        seats: the seat count.
        hands: seat -> its hand (card ids or design keys); a seat not given holds nothing.
        tableau: seat -> its tableau (start world included, if wanted); a seat not given keeps the
            start world it was dealt.
        goods: worlds (in some tableau) that get a good from the supply's top.
        chips: seat -> victory points of chips already won (taken from the chip supply).
        seed: the game's seed (the supply's order and every random draw).
        turn_limit: the table option ``turn_limit``.

    Raises:
        KeyError: an unknown card or design.
        ValueError: a card named twice, or a good on a world no tableau holds.
    """
    s = _after_setup(seats, seed, turn_limit)
    wanted_hands = {i: [_number(c) for c in cs] for i, cs in (hands or {}).items()}
    wanted_tableau = {i: [_number(c) for c in cs] for i, cs in (tableau or {}).items()}
    kept = {i: list(s.tableau[i]) for i in range(seats) if i not in wanted_tableau}
    named = [c for cs in (*wanted_hands.values(), *wanted_tableau.values(), *kept.values()) for c in cs]
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    every = list(s.supply) + list(s.discard) + [c for h in s.hands for c in h] + list(s.goods.values())
    every += [c for i in wanted_tableau for c in s.tableau[i]]
    s.goods.clear()
    s.discard.clear()
    s.known.clear()
    s.stamps = {}
    for i in range(seats):
        s.tableau[i] = wanted_tableau.get(i, kept.get(i, []))
        s.hands[i] = wanted_hands.get(i, [])
        for c in s.tableau[i]:
            s.stamps[c] = 0
    taken = set(named)
    s.supply = [c for c in every if c not in taken]
    _add_goods(s, goods)
    for i, points in (chips or {}).items():
        s.chips[i] = points
        s.pool -= points
    s.version += 1  # the table was changed by hand: nothing the step kit's memo kept for it holds
    return s
