"""The open table with a quiet window (ruling ``protocolo-de-negociacion``): what an agent can do through moves.

"Durante el transcurso de la negociación, no hay un orden especial y cualquier jugador puede intervenir en la
negociación en cualquier momento", and the boss closes "una vez que hayas asegurado el apoyo necesario".
"""

from __future__ import annotations

from club_agentes.engine.core import Pending
from club_agentes.engine.yo_soy_el_jefe.state import AGREED, ASKED, COLOURS, PROPOSED

from .helpers import build_state, game, others_pass, play_moves, quote, refused, stop_passes, texts

OWNER = {"azul": 0, "rojo": 1, "amarillo": 2, "naranja": 3, "rosa": None, "verde": None}


def deal_on_8(hands: dict[int, list[str]] | None = None, boss: int = 0) -> object:
    """A 4-seat table; ``boss`` opens a deal on space 8 (6 x 1M: rojo, azul, amarillo + 2 of naranja/rosa/verde)."""
    state = build_state(4, owner=OWNER, hands=hands or {}, marker=8, turn=boss)
    play_moves(state, [(boss, "negotiate")])
    return state


def test_every_seat_may_act_at_once_asked_clockwise_from_the_boss() -> None:
    state = deal_on_8(boss=2)
    pending = game.pending(state)
    assert pending.kind == "reaction" and pending.seats == (2, 3, 0, 1)
    for seat in pending.seats:
        assert texts(state, seat)  # each of them may act now
    # Any of them may act first: here the last one asked.
    play_moves(state, [(1, "offer rojo"), (1, "price 2M")])
    assert quote(state, 1, "rojo") == (ASKED, 2)


def test_the_boss_acts_first_right_after_negotiating() -> None:
    state = deal_on_8({0: ["family:verde", "family:rosa"]})
    play_moves(state, [(0, "family verde"), (0, "family rosa"), (0, "bid seat 1 rojo"), (0, "price 1M")])
    assert quote(state, 1, "rojo") == (PROPOSED, 1)
    assert sorted(s for s, _ in state.neg.placed) == [0, 0]


def test_a_seat_that_passed_is_asked_again_after_any_later_change() -> None:
    state = deal_on_8()
    play_moves(state, [(2, "pass"), (3, "pass")])
    assert game.pending(state).seats == (0, 1)
    play_moves(state, [(1, "offer rojo"), (1, "price 3M")])
    assert game.pending(state).seats == (0, 1, 2, 3)
    view = game.view(state, 2)["negotiation"]
    assert view["passed"] == [] and view["last_change"]["by"] == 1 and view["to_answer_before_close"] == [2, 3]


def test_withdraw_and_restate_a_demand() -> None:
    state = deal_on_8()
    play_moves(state, [(1, "offer rojo"), (1, "price 4M")])
    play_moves(state, [(1, "withdraw seat 1 rojo")])
    assert quote(state, 1, "rojo") is None
    assert "accept seat 1 rojo" not in texts(state, 0)
    play_moves(state, [(1, "offer rojo"), (1, "price 4M")])  # re-stated
    assert quote(state, 1, "rojo") == (ASKED, 4)
    play_moves(state, [(1, "offer rojo"), (1, "price 2 dividends")])  # changed: the new demand replaces it
    assert quote(state, 1, "rojo") == (ASKED, 2)
    play_moves(state, [(0, "accept seat 1 rojo")])
    assert quote(state, 1, "rojo") == (AGREED, 2)
    assert refused(state, 1, "withdraw seat 1 rojo").rule_id.endswith("rulings/promesas")


def test_a_price_stands_until_answered_or_withdrawn() -> None:
    """Later seats no longer get the last word by position: passing changes nothing."""
    state = deal_on_8()
    play_moves(state, [(0, "bid seat 2 amarillo"), (0, "price 1M")])
    play_moves(state, [(1, "pass"), (3, "pass")])
    assert quote(state, 2, "amarillo") == (PROPOSED, 1)
    play_moves(state, [(2, "offer amarillo"), (2, "price 3M")])  # a counter-offer replaces the proposal
    assert quote(state, 2, "amarillo") == (ASKED, 3)
    play_moves(state, [(0, "refuse seat 2 amarillo")])
    assert quote(state, 2, "amarillo") is None


def test_a_backup_family_card_keeps_an_agreement_against_a_travel_card() -> None:
    state = deal_on_8({1: ["family:rojo"], 3: ["travel:rojo"]})
    play_moves(state, [(1, "offer rojo"), (1, "price 2M"), (0, "accept seat 1 rojo")])
    assert "family rojo" in texts(state, 1)
    play_moves(state, [(1, "family rojo")])  # the backup
    play_moves(state, [(3, "travel investor seat 1 rojo")])
    stop_passes(state)
    assert COLOURS.index("rojo") in state.neg.travelled
    assert quote(state, 1, "rojo") == (AGREED, 2)  # it stands: the family card stands in


def test_accept_and_close_at_once_when_every_other_seat_has_passed() -> None:
    state = build_state(4, owner={"rojo": 0, "amarillo": 1}, marker=1, turn=0)  # space 1: rojo, amarillo
    play_moves(state, [(0, "negotiate"), (1, "offer amarillo"), (1, "price 1M")])
    assert "accept seat 1 amarillo and close" not in texts(state, 0)  # seats 2 and 3 have not answered
    play_moves(state, [(2, "pass"), (3, "pass")])
    assert "close" not in texts(state, 0)  # incomplete without the agreement
    assert texts(state, 0)[0] == "accept seat 1 amarillo and close"
    play_moves(state, [(0, "accept seat 1 amarillo and close")])
    assert state.deals_done == 1 and state.money == [1, 1, 0, 0]


def test_the_quiet_window_before_closing() -> None:
    state = build_state(3, owner={"rojo": 0, "amarillo": 0}, hands={2: ["travel:rojo"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate")])
    assert "close" not in texts(state, 0)
    play_moves(state, [(0, "pass")])  # the boss waits for the others' answers
    assert game.pending(state).seats == (1, 2)
    play_moves(state, [(1, "pass"), (2, "pass")])
    assert game.pending(state) == Pending("turn", (0,), game.pending(state).prompt)
    assert texts(state, 0)[0] == "close"
    play_moves(state, [(0, "close")])
    assert state.deals_done == 1 and state.money == [2, 0, 0]


def test_a_stop_answers_first_the_card_it_cancels() -> None:
    state = deal_on_8({1: ["travel:azul"], 2: ["stop"], 3: ["stop"]})
    play_moves(state, [(1, "travel investor seat 0 azul")])
    pending = game.pending(state)
    assert pending.kind == "reaction" and pending.seats == (0, 2, 3)  # from the boss, its player left out
    assert texts(state, 2) == ["stop", "pass"] and texts(state, 0) == ["pass"]
    play_moves(state, [(3, "stop")])  # the last seat asked may stop first
    assert state.stop is None and COLOURS.index("azul") not in state.neg.travelled
    assert state.neg.last_actor == 3 and state.neg.passed == set()


def test_the_former_boss_is_an_ordinary_seat_and_the_new_boss_is_asked_first() -> None:
    state = deal_on_8({2: ["boss"]})
    play_moves(state, [(2, "boss keep")])
    stop_passes(state)
    assert state.neg.boss == 2 and game.pending(state).seats == (2, 3, 0, 1)
    assert "fail" in texts(state, 2) and "fail" not in texts(state, 0)


def test_the_decision_clock_defaults() -> None:
    state = deal_on_8({1: ["travel:azul"]})
    assert game.default_move(state, 2)[0].text() == "pass"
    assert game.default_move(state, 0)[0].text() == "pass"  # the boss waits while others may answer
    play_moves(state, [(1, "travel investor seat 0 azul")])
    assert game.default_move(state, 2)[0].text() == "pass"  # no stop card
    stop_passes(state)
    play_moves(state, [(1, "offer rojo")])
    assert game.default_move(state, 1) is None  # a price has no default
    play_moves(state, [(1, "price 3M")])
    others_pass(state)
    move, rule = game.default_move(state, 0)
    assert move.text() == "fail" and rule == "yo-soy-el-jefe/3-3-cierre/fracaso"  # it cannot close
    state = build_state(2, owner={"rojo": 0, "amarillo": 1}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate")])
    others_pass(state)
    assert game.default_move(state, 0)[0].text() == "close"  # two-player rules: it must complete the deal
    assert game.default_move(state, 1) is None  # not deciding


def test_every_negotiation_ends_with_random_players() -> None:
    from club_agentes.engine.core import RandomBot, play

    for seats, options in game.sample_configs():
        longest = current = 0

        def measure(state: object, seat: int, moves: list) -> None:
            nonlocal longest, current
            current = current + 1 if state.neg is not None else 0
            longest = max(longest, current)

        record = play(
            game,
            game.make_config(seats, options),
            9,
            [RandomBot() for _ in range(seats)],
            on_decision=measure,
            max_decisions=50_000,
        )
        assert record.finished, (seats, options)
        assert longest < 4_000, (seats, options, longest)
