"""What a move answers (``move_basis``) and the interludes of a negotiation (``interlude``), over random playouts.

A table plays a move decided on an older state when it is legal now and its basis is unchanged (issue 25,
point 2): the basis must not change with moves that do not touch what the move answers, and must change
with those that do.
"""

from __future__ import annotations

import random

from club_agentes.engine.core import get_game
from club_agentes.engine.yo_soy_el_jefe.moves import INVESTOR, Pass, PlaceFamily, Refuse, Stop, Travel, Withdraw

GAME = get_game("yo-soy-el-jefe")


def test_basis_is_hashable_and_read_only_over_random_playouts() -> None:
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        state, _ = GAME.start(GAME.make_config(seats, {}), seed)
        rng = random.Random(seed)
        for _ in range(400):
            p = GAME.pending(state)
            if p.kind == "over":
                break
            for seat in p.seats:
                for move in GAME.legal_moves(state, seat):
                    b = GAME.move_basis(state, seat, move)
                    hash(b)
                    assert b == GAME.move_basis(GAME.clone(state), seat, move)
            naming = state.neg is not None and state.neg.naming is not None
            assert GAME.interlude(state) == (state.neg is not None and (naming or state.stop is not None))
            seat = rng.choice(p.seats)
            GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))


def test_a_pass_answers_what_concerns_a_seat_other_than_the_boss() -> None:
    for seed in range(1, 200):
        state, _ = GAME.start(GAME.make_config(3, {}), seed)
        rng = random.Random(seed)
        while state.neg is None and GAME.pending(state).kind != "over":
            seat = GAME.pending(state).seats[0]
            moves = GAME.legal_moves(state, seat)
            negotiate = [m for m in moves if m.type == "negotiate"]
            GAME.apply(state, seat, negotiate[0] if negotiate else rng.choice(moves))
        neg = state.neg
        if neg is None:
            continue
        boss = neg.boss
        others = [s for s in range(3) if s != boss]
        placer = next((s for s in others if any(isinstance(m, PlaceFamily) for m in GAME.legal_moves(state, s))), None)
        if placer is None:
            continue
        watcher = next(s for s in others if s != placer)
        boss_pass = GAME.move_basis(state, boss, Pass())
        watcher_pass = GAME.move_basis(state, watcher, Pass())
        placer_pass = GAME.move_basis(state, placer, Pass())
        family = next(m for m in GAME.legal_moves(state, placer) if isinstance(m, PlaceFamily))
        GAME.apply(state, placer, family)
        assert GAME.move_basis(state, boss, Pass()) == boss_pass  # the boss waits: it is asked again before a close
        assert GAME.move_basis(state, watcher, Pass()) == watcher_pass  # another seat's family card: not its concern
        assert GAME.move_basis(state, placer, Pass()) != placer_pass  # its own family card placed
        return
    raise AssertionError("no seed opens a negotiation where a seat other than the boss places a family card")


def test_only_moves_that_add_nothing_are_overtaken_and_never_by_nothing() -> None:
    """Ruling pases-adelantados: ``overtaken`` spends a pass, or a refusal, withdrawal or stop whose effect another
    seat's act already had, and only after others acted."""
    spent = 0
    for seats, seed in ((2, 4), (3, 5), (4, 6)):
        state, _ = GAME.start(GAME.make_config(seats, {}), seed)
        rng = random.Random(seed)
        for _ in range(300):
            p = GAME.pending(state)
            if p.kind == "over":
                break
            before = GAME.clone(state)
            for seat in p.seats:
                for move in GAME.legal_moves(state, seat):
                    assert GAME.overtaken(before, state, seat, move) is None  # nothing happened since
            seat = rng.choice(p.seats)
            GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
            for other in p.seats:
                for move in GAME.legal_moves(before, other):
                    why = GAME.overtaken(before, state, other, move)
                    if why is not None:
                        assert isinstance(move, Pass | Refuse | Withdraw | Stop | Travel)
                        spent += 1
    assert spent > 0


def test_a_travel_card_on_an_investor_another_seat_sent_travelling_is_overtaken_unless_the_card_was_stopped() -> None:
    """Ruling pases-adelantados: seat B decided a travel card on the investor that seat A's travel card then sent
    travelling (nobody stopped it): B's card has had its whole effect, so it is spent, and stays in B's hand. If
    A's card was stopped, B's travel card is not overtaken (the investor still takes part)."""
    found = 0
    for seats, seed in ((3, 1), (4, 2), (4, 3), (3, 4)):
        state, _ = GAME.start(GAME.make_config(seats, {}), seed)
        rng = random.Random(seed)
        for _ in range(3000):
            p = GAME.pending(state)
            if p.kind == "over":
                break
            before = GAME.clone(state)
            rivals = {
                (seat, m.seat, m.colour): m
                for seat in p.seats
                for m in GAME.legal_moves(state, seat)
                if isinstance(m, Travel) and m.target == INVESTOR
            }
            seat = rng.choice(p.seats)
            move = rng.choice(GAME.legal_moves(state, seat))
            GAME.apply(state, seat, move)
            if not (isinstance(move, Travel) and move.target == INVESTOR):
                continue
            aimed = [(s, m) for (s, t, c), m in rivals.items() if s != seat and (t, c) == (move.seat, move.colour)]
            if not aimed:
                continue
            other, rival = aimed[0]
            stopped = GAME.clone(state)
            while state.stop is not None:  # everyone asked lets it go: the investor travels
                GAME.apply(state, state.stop.waiting()[0], Pass())
            why = GAME.overtaken(before, state, other, rival)
            assert why is not None and f"{move.colour} investor has already travelled" in why, why
            assert "stays in your hand" in why
            stopper = next((s for s in stopped.stop.waiting() if Stop() in GAME.legal_moves(stopped, s)), None)
            if stopper is not None:
                GAME.apply(stopped, stopper, Stop())
                assert GAME.overtaken(before, stopped, other, rival) is None
            found += 1
    assert found > 0
