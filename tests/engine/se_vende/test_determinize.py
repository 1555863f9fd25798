"""Determinization (issue 18.2): sampled worlds agree with the seat's view, ignore the true hidden
arrangement, and deal the unknown cards uniformly."""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from club_agentes.engine.core import RandomBot, Rng, play
from club_agentes.engine.se_vende.moves import ChooseAction, Place
from club_agentes.engine.se_vende.state import SELECT, State

from tests.engine.se_vende.helpers import DECK, GAME, arrange, choose, num, spare


def _snap(state: State) -> str:
    return json.dumps(GAME.snapshot(state), sort_keys=True)


def test_sampled_worlds_never_contradict_the_view() -> None:
    checked = 0
    for seats, seed in ((2, 31), (3, 32), (4, 33)):
        rng = Rng(seed)
        count = 0
        last = [-1]

        def check(state: State, seat: int, moves: list[Any], last: list[int] = last, rng: Rng = rng) -> None:
            nonlocal count, checked
            count += 1
            if state.step == last[0] and count % 10:
                return
            last[0] = state.step
            before = _snap(state)
            for who in range(state.n):
                world = GAME.determinize(state, who, rng)
                assert GAME.view(world, who) == GAME.view(state, who)
                assert GAME.pending(world) == GAME.pending(state)
                assert GAME.legal_moves(world, who) == GAME.legal_moves(state, who)
                assert sorted(GAME.hidden_ids(world, who)) == sorted(GAME.hidden_ids(state, who))
                checked += 1
            assert _snap(state) == before, "determinize changed the true state"
            # the sampled world plays on: every seat's legal move is accepted there
            world = GAME.determinize(state, seat, rng)
            GAME.apply(world, seat, GAME.legal_moves(world, seat)[0])

        record = play(GAME, GAME.make_config(seats), seed, [RandomBot() for _ in range(seats)], on_decision=check)
        assert record.finished
    assert checked > 100


def test_worlds_do_not_depend_on_the_true_hidden_arrangement() -> None:
    record = play(GAME, GAME.make_config(3), 41, [RandomBot() for _ in range(3)], max_decisions=160)
    state = record.state
    for seat in range(3):
        other = GAME.determinize(state, seat, Rng(5))  # the same view for `seat`, hidden parts rearranged
        assert GAME.view(other, seat) == GAME.view(state, seat) and _snap(other) != _snap(state)
        for k in range(3):
            assert _snap(GAME.determinize(state, seat, Rng(100 + k))) == _snap(
                GAME.determinize(other, seat, Rng(100 + k))
            )


def test_sealed_choices_of_other_seats_are_drawn_anew() -> None:
    state = arrange(3)
    GAME.apply(state, 1, ChooseAction("asentar"))
    GAME.apply(state, 2, ChooseAction("asentar"))
    seen = Counter()
    for k in range(700):
        world = GAME.determinize(state, 0, Rng(k))
        assert world.step == SELECT and world.actions.done == (1, 2) and world.actions.own(0) is None
        seen[world.actions.own(1)] += 1
    assert len(seen) == 7 and min(seen.values()) > 60  # uniform over the seven cards (100 expected each)
    world = GAME.determinize(state, 1, Rng(1))
    assert world.actions.own(1) == "asentar"  # a seat's own sealed choice is kept

    flota = num("flota-de-escolta")
    state = arrange(2, hands={0: [flota, *spare(3)]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "desarrollar", 1: "producir"})
    GAME.apply(state, 0, Place(DECK.ids[flota]))
    placed = Counter()
    for k in range(200):
        world = GAME.determinize(state, 1, Rng(k))
        choice = world.placing.own(0)
        assert choice is not None
        assert choice == -1 or choice in world.hands[0]
        placed[choice] += 1
    assert len(placed) >= 2
    assert GAME.determinize(state, 0, Rng(3)).placing.own(0) == flota


def test_unknown_cards_are_dealt_uniformly() -> None:
    """Each unknown card lands in a given hidden place as often as the counting argument says."""
    record = play(GAME, GAME.make_config(3), 51, [RandomBot() for _ in range(3)], max_decisions=90)
    state = record.state
    seat = 0
    vis = GAME.visibility(state)
    _, unknown = vis.unknown_slots(seat)
    total = len(unknown)
    hand1 = len(state.hands[1])
    supply = len(state.supply)
    assert hand1 > 0 and supply > 0
    samples = 3000
    rng = Rng(7)
    in_hand1: Counter[int] = Counter()
    on_top: Counter[int] = Counter()
    mine = list(state.hands[seat])
    for _ in range(samples):
        world = GAME.determinize(state, seat, rng)
        assert world.hands[seat] == mine
        in_hand1.update(world.hands[1])
        on_top[world.supply[-1]] += 1
    probe = [DECK.index[c] for c in unknown[:: max(1, total // 12)]]
    for card, places, counts in ((c, hand1, in_hand1) for c in probe):
        expected = samples * places / total
        sigma = math.sqrt(expected * (1 - places / total))
        assert abs(counts[card] - expected) < 5 * sigma, (card, counts[card], expected)
    for card in probe:
        expected = samples / total
        assert abs(on_top[card] - expected) < 5 * math.sqrt(expected), (card, on_top[card], expected)
    assert set(in_hand1) <= {DECK.index[c] for c in unknown}  # nothing the seat knows ever moves there
