"""The hand limit (with a hire set before discarding), every optional rule of section 5, and two players."""

from __future__ import annotations

import pytest
from club_agentes.engine.yo_soy_el_jefe.state import COLOURS

from .helpers import build_state, game, hand_tokens, others_pass, play_moves, rig_die, stop_passes

TWELVE = ["hire", "hire", "hire", "boss", "boss", "stop", "family:rojo", "family:azul", "travel:gris"] + ["boss"] * 3


def test_hand_limit_twelve_with_a_hire_set_before_discarding() -> None:
    state = build_state(
        4,
        owner={"rojo": 1, "azul": 2, "amarillo": 3, "verde": 0, "naranja": None, "rosa": None},
        hands={0: TWELVE},
        marker=3,
    )
    play_moves(state, [(0, "roll"), (0, "draw")])
    assert len(state.hands[0]) == 15 and state.phase == "discard"
    legal = [m.text() for m in game.legal_moves(state, 0)]
    # With 4 seats two investors lie beside the board (naranja, rosa): a hire set must take one of those.
    assert legal[:2] == ["hire naranja", "hire rosa"] and "discard hire" in legal
    assert "seat 0 holds 15 influence cards and the limit is 12" in game.pending(state).prompt.lower()
    play_moves(state, [(0, "hire rosa")])
    assert game.pending(state).seats == (1, 2, 3)  # the other seats may stop it, from the player's left
    stop_passes(state)
    assert state.owner[COLOURS.index("rosa")] == 0
    assert len(state.hands[0]) == 12 and game.pending(state).kind == "turn" and state.turn == 1


def test_discarding_down_to_the_limit() -> None:
    state = build_state(3, hands={0: TWELVE}, marker=3)
    play_moves(state, [(0, "roll"), (0, "draw"), (0, "discard hire"), (0, "discard boss")])
    assert state.turn == 0 and state.phase == "discard"
    play_moves(state, [(0, "discard boss")])
    assert len(state.hands[0]) == 12 and state.turn == 1
    view = game.view(state, 2)
    assert view["discard_count"] == 3 and view["players"][0]["used"] == {"boss": 2, "hire": 1}
    assert not game.hidden_ids(state, 2) & {c["id"] for c in game.view(state, None)["hand"]}


def test_a_stop_cancels_a_hire_set_at_the_limit() -> None:
    state = build_state(3, owner={"rojo": 1}, hands={0: TWELVE, 2: ["stop"]}, marker=3)
    play_moves(state, [(0, "roll"), (0, "draw"), (0, "hire rojo"), (1, "pass"), (2, "stop")])
    assert state.owner[COLOURS.index("rojo")] == 1
    assert len(state.hands[0]) == 12 and state.turn == 1


def test_late_hand_limit_of_ten() -> None:
    covered = list(range(2, 11))
    state = build_state(
        3, {"hand_limit_10_from_tenth_deal": True}, hands={0: ["boss"] * 9}, deals_done=9, covered=covered, marker=1
    )
    play_moves(state, [(0, "roll"), (0, "draw")])
    assert state.hand_limit() == 10 and state.phase == "discard"
    play_moves(state, [(0, "discard boss"), (0, "discard boss")])
    assert len(state.hands[0]) == 10 and state.turn == 1


@pytest.mark.parametrize(("held", "drawn"), [(0, 4), (1, 3), (2, 2), (3, 1), (4, 1)])
def test_draw_by_investors(held: int, drawn: int) -> None:
    owner = {c: (0 if i < held else 1) for i, c in enumerate(COLOURS)}
    state = build_state(3, {"draw_by_investors": True}, owner=owner, marker=3)
    play_moves(state, [(0, "roll"), (0, "draw")])
    assert len(state.hands[0]) == drawn


def test_boss_card_keeps_turn() -> None:
    for keeps, next_seat in ((False, 2), (True, 1)):
        state = build_state(4, {"boss_card_keeps_turn": keeps}, hands={1: ["boss"]}, marker=3, turn=0)
        play_moves(state, [(0, "negotiate"), (1, "boss keep")])
        stop_passes(state)
        others_pass(state)
        play_moves(state, [(1, "fail")])
        assert state.turn == next_seat


def test_dividends_only_for_participants() -> None:
    owner = {"rojo": 0, "amarillo": 1, "azul": 2}
    for variant, paid in ((False, 1), (True, 0)):
        state = build_state(3, {"dividends_only_for_participants": variant}, owner=owner, marker=1, turn=0)
        play_moves(state, [(0, "negotiate"), (1, "offer amarillo"), (1, "price 1M")])
        others_pass(state)
        events = play_moves(state, [(0, "accept 1 amarillo and close")])
        assert state.money == [2 - paid, paid, 0]
        assert variant == any("used no influence card" in e.text for e in events)


def test_a_participant_that_placed_a_family_card_is_paid_under_the_variant() -> None:
    owner = {"rojo": 0, "amarillo": 2}
    state = build_state(
        3, {"dividends_only_for_participants": True}, owner=owner, hands={1: ["family:amarillo"]}, marker=1, turn=0
    )
    play_moves(state, [(0, "negotiate"), (1, "family amarillo"), (1, "offer amarillo"), (1, "price 1M")])
    others_pass(state)
    play_moves(state, [(0, "accept 1 amarillo")])
    others_pass(state)
    play_moves(state, [(0, "close")])
    assert state.money == [1, 1, 0]


def test_mandatory_negotiation_and_minimum_cards() -> None:
    state = build_state(3, {"mandatory_negotiation_with_10_cards": True}, hands={0: ["hire"] * 10}, marker=3)
    assert "must negotiate" in game.pending(state).prompt
    play_moves(state, [(0, "roll")])
    assert [m.text() for m in game.legal_moves(state, 0)] == ["negotiate"]
    state = build_state(3, {"no_negotiation_with_3_cards_or_fewer": True}, hands={0: ["hire"] * 3}, marker=3)
    assert [m.text() for m in game.legal_moves(state, 0)] == ["roll"]
    play_moves(state, [(0, "roll")])
    assert [m.text() for m in game.legal_moves(state, 0)] == ["draw"]


def test_two_players_forced_investors_are_paid_a_share() -> None:
    # 13th deal (5M), space 8 (6 dividends, 5 investors): 30M; a forced investor is paid 30 // 5 = 6M.
    covered = [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13]
    owner = {"rojo": 0, "azul": 0, "naranja": 0, "amarillo": 1, "rosa": 1, "verde": 1}
    state = build_state(2, owner=owner, hands={0: ["family:verde"]}, deals_done=12, covered=covered, marker=8)
    play_moves(state, [(0, "negotiate"), (1, "pass")])
    legal = [m.text() for m in game.legal_moves(state, 0)]
    assert "close" in legal and "fail" not in legal
    view = game.view(state, 0)["negotiation"]
    assert {(p["seat"], p["colour"], p["as"], p["price"]) for p in view["group_if_closed_now"]} >= {
        (1, "amarillo", "forced", 6)
    }
    rig_die(state, 6)
    play_moves(state, [(0, "family verde"), (1, "pass"), (0, "close")])
    # Verde is covered by the boss's own family card, rosa is not needed: only amarillo is forced.
    assert state.money == [24, 6]
    assert hand_tokens(state, 0) == []


def test_two_players_travel_on_ones_own_investor_prevents_the_deal() -> None:
    owner = {"rojo": 0, "amarillo": 1, "azul": 0, "naranja": 1, "rosa": 0, "verde": 1}
    state = build_state(2, owner=owner, hands={1: ["travel:amarillo"]}, marker=1)
    play_moves(state, [(0, "negotiate"), (1, "travel investor 1 amarillo")])
    stop_passes(state)
    assert [m.text() for m in game.legal_moves(state, 0)] == ["pass", "fail"]  # no close: amarillo is away


def test_two_player_rules_at_a_bigger_table() -> None:
    owner = {"rojo": 0, "amarillo": 2}
    state = build_state(4, {"two_player_rules": True}, owner=owner, marker=1)
    play_moves(state, [(0, "negotiate")])
    others_pass(state)
    assert "fail" not in [m.text() for m in game.legal_moves(state, 0)]
    play_moves(state, [(0, "close")])
    assert state.money == [1, 0, 1, 0]  # payout 2M, 2 investors: 1M for seat 2's amarillo
