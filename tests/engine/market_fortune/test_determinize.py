"""Determinization (issue 18.2): worlds consistent with a seat's view, independent of the hidden truth, uniform."""

from __future__ import annotations

import math
from collections import Counter

from club_agentes.engine.core import RandomBot, Rng, play
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_IND, CARD_INDEX, CARD_TYPE, N_INDUSTRIES, STOCK
from club_agentes.engine.market_fortune.determinize import below
from club_agentes.engine.market_fortune.state import State

from tests.engine.market_fortune.helpers import GAME, assert_conserved, table


def _points(seats: int, options: dict, seed: int, every: int = 15) -> list[State]:
    states: list[State] = []
    count = [0]

    def keep(st: State, seat: int, moves: list) -> None:
        count[0] += 1
        if count[0] % every == 0 or st.step not in ("main", "build-discard"):
            states.append(GAME.clone(st))

    play(GAME, GAME.make_config(seats, options), seed, [RandomBot() for _ in range(seats)], on_decision=keep)
    return states[::3]


def test_sampled_worlds_never_contradict_the_seats_view() -> None:
    rng = Rng(5)
    for seats, options in ((3, {}), (5, {"mode": "campeonato", "turn_limit": 80, "game_limit": 2})):
        for st in _points(seats, options, 13):
            seat = GAME.pending(st).seats[0]
            for s in (seat, (seat + 1) % seats):
                world = GAME.determinize(st, s, rng)
                assert GAME.view(world, s) == GAME.view(st, s)
                assert GAME.legal_moves(world, s) == GAME.legal_moves(st, s)
                assert GAME.pending(world) == GAME.pending(st)
                assert_conserved(world)
                # The world is a real table: it can be played on.
                w = GAME.pending(world).seats[0]
                GAME.apply(world, w, GAME.legal_moves(world, w)[0])


def test_worlds_do_not_depend_on_the_hidden_arrangement() -> None:
    """Two states that differ only in what seat s cannot see give the same worlds for the same draws."""
    for st in _points(4, {}, 17)[:12]:
        seat = GAME.pending(st).seats[0]
        twin = GAME.determinize(st, seat, Rng(99))  # the same view, other hidden cards
        twin.rng = st.rng  # (the random stream is part of the hidden truth too; keep it equal here)
        assert GAME.view(twin, seat) == GAME.view(st, seat)
        assert GAME.snapshot(GAME.determinize(st, seat, Rng(7))) == GAME.snapshot(GAME.determinize(twin, seat, Rng(7)))


def test_worlds_do_not_carry_the_true_random_stream() -> None:
    st = GAME.new_game(GAME.make_config(3, {}), 4)
    assert GAME.determinize(st, 0, Rng(1)).rng.state != st.rng.state


def test_card_frequencies_match_the_counting_argument_for_hands() -> None:
    """At the deal, seat 0 knows its 8 cards: each of the 56 other $ cards is in seat 1's hand with chance 4/56."""
    st = GAME.new_game(GAME.make_config(4, {}), 23)
    mine = set(st.hands[0])
    unknown = [c for c in range(60) if c not in mine]
    n = 1200
    counts: Counter[int] = Counter()
    rng = Rng(3)
    for _ in range(n):
        world = GAME.determinize(st, 0, rng)
        counts.update(c for c in world.hands[1] if CARD_TYPE[c] == STOCK)
        assert sum(1 for c in world.hands[1] if CARD_TYPE[c] == STOCK) == 4  # hand sizes by kind are public
    p = 4 / len(unknown)
    sd = math.sqrt(n * p * (1 - p))
    assert set(counts) <= set(unknown)
    worst = max(abs(counts[c] - n * p) for c in unknown)
    assert worst < 5 * sd, f"a card is {worst / sd:.1f} sd from its expected frequency"
    chi2 = sum((counts[c] - n * p) ** 2 / (n * p) for c in unknown)
    assert chi2 < 2 * len(unknown), chi2  # 55 degrees of freedom: far below twice that


def test_investment_industries_follow_the_count_of_possible_pairs() -> None:
    """A rival's face-down investment is a $ and a +R of one industry: industry i is drawn with chance
    proportional to (unknown $ of i) x (unknown +R of i)."""
    mine = ["MF-A-ENE-1", "MF-A-ENE-2", "MF-A-ENE-3", "MF-R-ENE-1", "MF-R-TEC-1", "MF-R-TEC-2", "MF-A-SAL-1"]
    st = table(hands={0: mine}, investments={1: [("MF-A-MIN-4", "MF-R-MIN-4")]})
    unknown_a = [
        sum(1 for v in range(1, 6) if f"MF-A-{CARD_ID[i * 5][5:8]}-{v}" not in mine) for i in range(N_INDUSTRIES)
    ]
    unknown_r = [
        sum(1 for v in range(1, 6) if f"MF-R-{CARD_ID[i * 5][5:8]}-{v}" not in mine) for i in range(N_INDUSTRIES)
    ]
    weights = [a * b for a, b in zip(unknown_a, unknown_r, strict=True)]
    total = sum(weights)
    n = 1500
    counts: Counter[int] = Counter()
    rng = Rng(11)
    for _ in range(n):
        inv = GAME.determinize(st, 0, rng).invs[1][0]
        assert CARD_IND[inv.stock] == CARD_IND[inv.ret] and not inv.face_up
        counts[CARD_IND[inv.stock]] += 1
    for i in range(N_INDUSTRIES):
        p = weights[i] / total
        sd = math.sqrt(n * p * (1 - p))
        assert abs(counts[i] - n * p) < 5 * sd + 1, (i, counts[i], n * p)
    assert counts[CARD_IND[CARD_INDEX["MF-A-ENE-1"]]] < counts[CARD_IND[CARD_INDEX["MF-A-TRA-1"]]]  # 2x4 pairs vs 5x5


def test_below_is_uniform_for_bounds_beyond_64_bits() -> None:
    rng = Rng(2)
    big = 3 * (1 << 70)
    draws = [below(rng, big) for _ in range(3000)]
    assert all(0 <= d < big for d in draws)
    thirds = Counter(d * 3 // big for d in draws)
    assert all(900 < thirds[k] < 1100 for k in range(3))


def test_redealt_rival_hands_keep_the_view_and_hold_pairs_as_played_hands_do() -> None:
    """bot:mcts's opponent model re-deals only what the seat cannot see, toward the fitted pair counts."""
    from club_agentes.engine.market_fortune.mcts import HAND_PAIRS, hand_pairs, redeal_hands

    heuristic = GAME.bots["heuristic"]
    rng = Rng(8)
    uniform: list[int] = []
    redealt: list[int] = []
    points: list[tuple[State, int]] = []

    def keep(st: State, seat: int, moves: list) -> None:
        if len(moves) > 1 and len(st.invs[1 - seat]) == 3:
            points.append((GAME.clone(st), seat))

    for seed in range(1, 25):
        points.clear()
        play(GAME, GAME.make_config(2, {}), seed, [heuristic(), heuristic()], on_decision=keep)
        for st, seat in points[::2]:
            rival = 1 - seat
            world = GAME.determinize(st, seat, rng)
            uniform.append(hand_pairs(world.hands[rival]))
            kinds = Counter(CARD_TYPE[c] for c in world.hands[rival])
            redeal_hands(world, seat)
            redealt.append(hand_pairs(world.hands[rival]))
            assert GAME.view(world, seat) == GAME.view(st, seat)
            assert GAME.legal_moves(world, seat) == GAME.legal_moves(st, seat)
            assert Counter(CARD_TYPE[c] for c in world.hands[rival]) == kinds
            assert_conserved(world)
    assert len(redealt) >= 60
    # Uniform deals of a rival's last two cards rarely form its fourth pair; played hands do about a third of the time.
    assert HAND_PAIRS[(3, 2)][1] > 0.25
    assert sum(uniform) / len(uniform) < 0.15 < sum(redealt) / len(redealt)
