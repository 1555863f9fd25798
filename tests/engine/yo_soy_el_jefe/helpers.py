"""Test helpers for Yo soy el jefe: build a chosen position and drive it move by move.

:func:`build_state` starts from ``new_game`` and then sets, explicitly, what a test
needs: who holds each investor card, each seat's exact hand, how many deals are
done (their deal cards covering the given spaces), where the marker is and whose
turn it is. Every influence card not placed in a hand goes back to the deck, in
the deck's shuffled order. :func:`rig_die` makes the next roll a chosen face.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest
from club_agentes.engine.core import Event, IllegalMove, Rng
from club_agentes.engine.yo_soy_el_jefe.components import GREY
from club_agentes.engine.yo_soy_el_jefe.game import GAME
from club_agentes.engine.yo_soy_el_jefe.state import CARD_SLOT, CARDS, COLOURS, DEAL_CARDS, NSLOTS, SLOT_OF_KIND, State

game = GAME


def slot_of(token: str) -> int:
    """Return the hand slot of a card token: ``"family:rojo"``, ``"travel:gris"``, ``"boss"``, ``"hire"``..."""
    kind, _, colour = token.partition(":")
    return SLOT_OF_KIND[(kind, colour or None)]


def build_state(
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
    """Return a state in the ``turn`` phase with the given position.

    Args:
        seats: the seat count.
        options: table options (``marker_start`` is set from ``marker``).
        owner: colour -> seat (``None``: beside the board) for every colour given;
            colours not given keep the seed's deal.
        hands: seat -> card tokens (see :func:`slot_of`); seats not given get an
            empty hand.
        deals_done: deals already closed; the first ``deals_done`` deal cards of the
            deck are placed on ``covered`` (1-based space numbers, one per deal).
        marker: the marker's space (1-based).
        turn: the seat on turn.
        seed: the game's seed (the deck order).
    """
    opts = dict(options or {})
    opts["marker_start"] = marker
    state = game.new_game(game.make_config(seats, opts), seed)
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
            card = next(c for c in pool if CARD_SLOT[c] == slot)
            pool.remove(card)
            state.give(seat, card)
    state.deck = pool
    state.discard = []
    assert len(covered) == deals_done, "give one covered space per deal done"
    deck = list(state.deal_deck)
    for space in covered:
        card = deck.pop(0)
        state.covered[space - 1] = card.number
    state.deal_deck = deck
    state.deals_done = deals_done
    state.turn = turn
    state.must_negotiate = state.cfg.mandatory_negotiation_with_10_cards and len(state.hands[turn]) >= 10
    state.known = set()
    state.used_by = [[0] * NSLOTS for _ in range(seats)]
    state.version += 1
    return state


def rig_die(state: State, face: int) -> None:
    """Make the next die roll (``below(6) + 1``) come up ``face``, by choosing the RNG's seed."""
    for seed in range(10_000):
        if Rng(seed).below(6) + 1 == face:
            state.rng = Rng(seed)
            return
    raise AssertionError("no seed found")


def play_moves(state: State, moves: Iterable[tuple[int, str]]) -> list[Event]:
    """Apply ``(seat, text)`` moves in order (each must be legal); return all events."""
    events: list[Event] = []
    for seat, text in moves:
        move = game.parse_move(text)
        legal = game.legal_moves(state, seat)
        assert move in legal, f"{text!r} by seat {seat} is not legal; legal: {[m.text() for m in legal]}"
        events += game.apply(state, seat, move)
    return events


def others_pass(state: State, *, but: Iterable[int] = ()) -> list[Event]:
    """In an open negotiation, let every seat other than the boss (and ``but``) that may still answer the last
    change pass, in the order they are asked."""
    events: list[Event] = []
    assert state.neg is not None and state.stop is None
    skip = {state.neg.boss, *but}
    for seat in game.pending(state).seats:
        if seat not in skip:
            events += play_moves(state, [(seat, "pass")])
    return events


def quote(state: State, seat: int, colour: str) -> tuple[int, int] | None:
    """Return ``(status, millions)`` of the price standing for ``seat``'s ``colour``, or ``None``."""
    assert state.neg is not None
    q = state.neg.quotes.get((seat, COLOURS.index(colour)))
    return None if q is None else (q.status, q.millions)


def stop_passes(state: State) -> list[Event]:
    """Let every seat asked about the card waiting for stops pass, so that it takes effect."""
    events: list[Event] = []
    while state.stop is not None:
        events += play_moves(state, [(game.pending(state).seats[0], "pass")])
    return events


def texts(state: State, seat: int) -> list[str]:
    """Return the text forms of ``seat``'s legal moves."""
    return [m.text() for m in game.legal_moves(state, seat)]


def refused(state: State, seat: int, text: str | Any) -> IllegalMove:
    """Apply a move that must be refused; check the state is untouched; return the error."""
    move = game.parse_move(text) if isinstance(text, (str, dict)) else text
    before = json.dumps(game.snapshot(state), sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        game.apply(state, seat, move)
    assert json.dumps(game.snapshot(state), sort_keys=True) == before
    assert err.value.rule_id in game.rule_ids()
    assert err.value.message.endswith(".") or err.value.message.endswith(")")
    assert err.value.rule_id == game.check(state, seat, move).rule_id  # the check and apply agree
    return err.value


def hand_tokens(state: State, seat: int) -> list[str]:
    """Return ``seat``'s hand as sorted card tokens."""
    out = []
    for c in state.hands[seat]:
        card = CARDS[c]
        out.append(f"{card.kind}:{card.colour}" if card.colour else card.kind)
    return sorted(out)


def deal_card_numbers() -> list[int]:
    """Return the numbers of all deal cards."""
    return [c.number for c in DEAL_CARDS]


__all__ = [
    "GREY",
    "build_state",
    "game",
    "hand_tokens",
    "others_pass",
    "play_moves",
    "quote",
    "refused",
    "rig_die",
    "stop_passes",
    "texts",
]
