"""Explicit Yo soy el jefe positions, built from named cards (as pokerkit builds a state from explicit cards).

:func:`position` starts from ``new_game`` and then sets, explicitly, who holds each investor card,
each seat's exact hand of influence cards, how many deals are done (their deal cards covering the
given spaces), where the marker is and whose turn it is. Every influence card not placed in a hand
goes back to the deck, in the deck's shuffled order. :func:`rig_die` makes the next rolls chosen
faces. Quizzes and tests build situations with these two functions and then ask the engine
(``legal_moves``, ``apply``, ``view``, ``result``) what the rules make of them; nothing here
decides a rule.

Influence cards are named by token: ``"family:rojo"``, ``"travel:azul"``, ``"travel:gris"``,
``"boss"``, ``"hire"``, ``"stop"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from club_agentes.engine.core import Rng, get_game
from club_agentes.engine.yo_soy_el_jefe.components import components
from club_agentes.engine.yo_soy_el_jefe.state import CARD_SLOT, COLOURS, NSLOTS, SLOT_OF_KIND, State

__all__ = ["position", "rig_die", "slot_of"]

_SEED_SEARCH = 1 << 16


def slot_of(token: str) -> int:
    """Return the hand slot of a card token (``"family:rojo"``, ``"boss"``...).

    Raises:
        KeyError: an unknown token.
    """
    kind, _, colour = token.partition(":")
    return SLOT_OF_KIND[(kind, colour or None)]


def position(
    seats: int,
    options: Mapping[str, Any] | None = None,
    *,
    owner: Mapping[str, int | None] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    deals_done: int = 0,
    covered: Sequence[int] = (),
    marker: int = 1,
    turn: int = 0,
    seed: int = 7,
) -> State:
    """Return a state at the start of ``turn``'s turn with the given position.

    Args:
        seats: the seat count.
        options: table options (``marker_start`` is set from ``marker``).
        owner: colour -> seat (``None``: beside the board) for every colour given; colours not
            given keep the seed's deal.
        hands: seat -> card tokens; seats not given get an empty hand.
        deals_done: deals already closed; the first ``deals_done`` deal cards of the deck are
            placed on ``covered`` (1-based space numbers, one per deal).
        marker: the marker's space (1-based).
        turn: the seat on turn.
        seed: the game's seed (the deck order and every roll).

    Raises:
        ValueError: ``covered`` does not give one space per deal done, or a hand asks for more
            cards of a kind than the game has.
        ConfigError: the engine refuses the seat count or an option.
    """
    if len(covered) != deals_done:
        raise ValueError(f"give one covered space per deal done ({deals_done}), not {len(covered)}")
    game = get_game("yo-soy-el-jefe")
    opts = dict(options or {})
    opts["marker_start"] = marker
    state: State = game.new_game(game.make_config(seats, opts), seed)
    if owner:
        for colour, seat in owner.items():
            state.owner[COLOURS.index(colour)] = -1 if seat is None else seat
    pool = [c for h in state.hands for c in h] + list(state.deck)
    pool.sort(key=lambda c: (state.deck.index(c) if c in state.deck else -1, c))
    state.hands = [[] for _ in range(seats)]
    state.counts = [[0] * NSLOTS for _ in range(seats)]
    for seat, tokens in (hands or {}).items():
        for token in tokens:
            slot = slot_of(token)
            card = next((c for c in pool if CARD_SLOT[c] == slot), None)
            if card is None:
                raise ValueError(f"the game has no more {token} cards")
            pool.remove(card)
            state.give(seat, card)
    state.deck = pool
    state.discard = []
    deck = list(state.deal_deck)
    for space in covered:
        state.covered[space - 1] = deck.pop(0).number
    state.deal_deck = deck
    state.deals_done = deals_done
    state.turn = turn
    state.must_negotiate = state.cfg.mandatory_negotiation_with_10_cards and len(state.hands[turn]) >= 10
    state.known = set()
    state.used_by = [[0] * NSLOTS for _ in range(seats)]
    state.version += 1
    state.memo = None
    return state


def rig_die(state: State, *faces: int) -> None:
    """Make the table's next die rolls come up ``faces`` (1 to 6), in order.

    The table's random stream is replaced by one whose first draws are those rolls; use it when the
    next draws of the stream are die rolls (a turn's roll, the end roll after a closed deal).

    Raises:
        ValueError: no stream in the searched seeds rolls those faces.
    """
    sides = components().die_faces
    for seed in range(_SEED_SEARCH):
        rng = Rng(seed)
        if all(rng.below(sides) + 1 == face for face in faces):
            state.rng = Rng(seed)
            state.version += 1
            return
    raise ValueError(f"no seed below {_SEED_SEARCH} rolls {faces}")
