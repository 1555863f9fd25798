"""Determinization: sampled worlds agree with the seat's view, ignore the true hidden arrangement, and deal the
unseen cards uniformly (the counting argument), epoch by epoch after a reshuffle."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from club_agentes.engine.core import RandomBot, Rng, play
from club_agentes.engine.yo_soy_el_jefe.state import CARD_SLOT, CARDS

from .helpers import build_state, game, play_moves


def positions(seats: int = 4, seed: int = 2, every: int = 37) -> list[tuple[Any, int]]:
    out: list[tuple[Any, int]] = []

    def keep(state: Any, seat: int, moves: list) -> None:
        if len(out) < 40 and (len(out) * every + len(moves)) % every == 0:
            out.append((game.clone(state), seat))

    play(game, game.make_config(seats, {}), seed, [RandomBot() for _ in range(seats)], on_decision=keep)
    return out


def test_sampled_worlds_never_contradict_the_view() -> None:
    for state, seat in positions():
        for k in range(3):
            world = game.determinize(state, seat, Rng(k))
            assert game.view(world, seat) == game.view(state, seat)
            assert game.pending(world) == game.pending(state)
            assert game.legal_moves(world, seat) == game.legal_moves(state, seat)
            assert sorted(c for h in world.hands for c in h) + sorted(world.deck) != [] and sorted(
                [c for h in world.hands for c in h] + world.deck
            ) == sorted([c for h in state.hands for c in h] + state.deck)


def test_the_result_ignores_where_the_hidden_cards_really_are() -> None:
    for state, seat in positions(every=53):
        scrambled = game.determinize(state, seat, Rng(99))  # the same view, other hidden cards
        a = game.determinize(state, seat, Rng(7))
        b = game.determinize(scrambled, seat, Rng(7))
        assert json.dumps(game.snapshot(a), sort_keys=True) == json.dumps(game.snapshot(b), sort_keys=True)


def test_card_frequencies_match_the_counting_argument() -> None:
    """From seat 0's seat at the start, any unseen card is in seat 1's hand with chance 5 / (cards unseen)."""
    state = game.new_game(game.make_config(3, {}), 4)
    unseen = 98 - 5  # seat 0 sees only its own hand
    counts: Counter[int] = Counter()
    samples = 3000
    for k in range(samples):
        world = game.determinize(state, 0, Rng(k))
        counts.update(CARD_SLOT[c] for c in world.hands[1])
    pool = Counter(CARD_SLOT[c] for c in range(98) if c not in state.hands[0])
    for slot, n in pool.items():
        expected = samples * 5 * n / unseen
        assert abs(counts[slot] - expected) < 5 * expected**0.5 + 3, (slot, counts[slot], expected)


def test_cards_taken_back_face_up_stay_where_everyone_saw_them() -> None:
    state = build_state(3, owner={"rojo": 0}, hands={1: ["family:amarillo", "boss"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "family amarillo"), (0, "fail")])
    known = [c for c in state.hands[1] if c in state.known]
    assert len(known) == 1 and CARDS[known[0]].kind == "family"
    for k in range(20):
        world = game.determinize(state, 2, Rng(k))
        assert known[0] in world.hands[1] and len(world.hands[1]) == 2


def test_after_a_reshuffle_cards_drawn_come_from_the_reshuffled_discards() -> None:
    state = build_state(3, hands={0: ["boss"], 1: ["stop"]}, marker=3, turn=0)
    discards = list(state.deck[:6])
    state.discard = list(discards)
    state.hands[2] = sorted(state.deck[8:])  # seat 2 holds the rest (so that every card is somewhere)
    state.counts[2] = [sum(1 for c in state.hands[2] if CARD_SLOT[c] == i) for i in range(len(state.counts[2]))]
    state.deck = state.deck[6:8]  # two cards left: the third draw reshuffles the six discards
    state.version += 1
    play_moves(state, [(0, "roll"), (0, "draw")])
    assert state.epoch == 1 and len(state.hands[0]) == 4
    drawn_late = [c for c in state.hands[0] if state.card_epoch[c] == 1]
    assert len(drawn_late) == 1
    for k in range(30):
        world = game.determinize(state, 1, Rng(k))
        late = [c for c in world.hands[0] if world.card_epoch[c] == 1]
        assert len(late) == 1 and late[0] in discards
        assert set(world.deck) <= set(discards) and len(world.hands[2]) == len(state.hands[2])
