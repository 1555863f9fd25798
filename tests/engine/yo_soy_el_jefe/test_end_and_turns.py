"""The end of the game (section 4), the turn order after a deal, failures, the marker and the turn limit."""

from __future__ import annotations

from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.state import COLOURS

from .helpers import build_state, game, hand_tokens, others_pass, play_moves, rig_die, stop_passes

OWN_SPACE_1 = {"rojo": 0, "amarillo": 0}  # space 1 needs rojo and amarillo: seat 0 can close alone


def close_a_deal(deals_done: int, seats: int = 3, options: dict | None = None, face: int | None = None):
    covered = [s for s in range(2, 17)][:deals_done]
    state = build_state(seats, options, owner=OWN_SPACE_1, deals_done=deals_done, covered=covered, marker=1)
    play_moves(state, [(0, "negotiate")])
    others_pass(state)
    if face is not None:
        rig_die(state, face)
    events = play_moves(state, [(0, "close")])
    return state, events


def test_no_roll_before_the_tenth_deal() -> None:
    state, events = close_a_deal(8)
    assert state.deals_done == 9 and state.last_roll is None
    assert not any("rolled" in e.text for e in events)
    assert game.pending(state).kind == "turn" and state.turn == 1


def test_after_the_eleventh_deal_a_one_or_two_ends_the_game() -> None:
    for face in (1, 2):
        state, _ = close_a_deal(10, face=face)
        result = game.result(state)
        assert result is not None and result.rule_id == R.END_DIE and f"rolled {face}" in result.reason
    state, events = close_a_deal(10, face=3)
    assert game.result(state) is None and state.turn == 1
    assert any("rolled 3" in e.text and "goes on" in e.text for e in events)


def test_after_the_thirteenth_deal_a_five_does_not_end_it() -> None:
    state, _ = close_a_deal(12, face=5)
    assert game.result(state) is None
    state, _ = close_a_deal(12, face=4)
    assert game.result(state) is not None


def test_the_fifteenth_deal_ends_the_game_without_a_roll() -> None:
    state, _ = close_a_deal(14, face=6)
    result = game.result(state)
    assert result is not None and state.last_roll is None and "without a roll" in result.reason
    assert result.winners == (0,) and result.scores[0] == 2 * 6  # space 1: 2 dividends of 6M


def test_the_quick_game_rolls_from_card_ten() -> None:
    state = build_state(3, {"quick_game": True})
    assert [c.number for c in state.deal_deck] == [1, 2, 4, 5, 7, 8, 10, 11, 12, 13, 14, 15]
    state, _ = close_a_deal(6, options={"quick_game": True}, face=1)
    assert state.last_roll == 1 and game.result(state) is not None  # card #10 shows 1


def test_the_marker_moves_to_the_next_free_space_and_the_turn_to_the_bosss_left() -> None:
    state = build_state(4, owner={"rojo": 2, "amarillo": 2}, deals_done=2, covered=[2, 3], marker=1, turn=2)
    play_moves(state, [(2, "negotiate")])
    others_pass(state)
    play_moves(state, [(2, "close")])
    assert state.covered[0] == 3 and state.marker == 3  # spaces 2 and 3 are covered: space 4
    assert state.turn == 3


def test_a_roll_skips_covered_spaces() -> None:
    state = build_state(3, deals_done=2, covered=[2, 4], marker=1)
    rig_die(state, 3)
    play_moves(state, [(0, "roll")])
    assert state.marker + 1 == 6  # 1 -> 3 -> 5 -> 6, skipping 2 and 4
    assert game.pending(state).kind == "turn"


def test_a_failed_deal_returns_family_cards_and_discards_the_rest() -> None:
    state = build_state(
        4,
        owner={"azul": 0, "rojo": 1, "amarillo": 2, "naranja": 3},
        hands={0: ["family:verde"], 1: ["family:rosa", "travel:azul"], 2: ["boss"]},
        marker=8,
        turn=0,
    )
    play_moves(state, [(0, "negotiate"), (0, "family verde"), (1, "family rosa"), (1, "offer rosa"), (1, "price 1M")])
    play_moves(state, [(1, "travel investor seat 0 azul")])
    stop_passes(state)
    play_moves(state, [(2, "boss keep")])
    stop_passes(state)
    assert state.neg.boss == 2
    play_moves(state, [(2, "fail")])
    assert hand_tokens(state, 0) == ["family:verde"] and hand_tokens(state, 1) == ["family:rosa"]
    assert sorted(game.snapshot(state)["discard"])[0].startswith("YSJ-JEF")
    assert any(d.startswith("YSJ-VIA-AZU") for d in game.snapshot(state)["discard"])
    assert state.deals_done == 0 and state.marker == 7 and state.covered[7] == 0
    assert state.turn == 3  # the left of the last boss (seat 2): seat 1 and its turn are skipped
    assert state.money == [0, 0, 0, 0] and state.failed_in_a_row == 1
    # The family cards that came back face up are known to every seat; the view says so.
    view = game.view(state, 3)
    assert [c["colour"] for c in view["players"][0]["known_cards"]] == ["verde"]
    assert view["players"][1]["used"] == {"family rosa": 1, "travel azul": 1}


def test_limite_de_negociaciones_fallidas_ends_a_stalled_table_and_ties_share_the_win() -> None:
    state = build_state(3, {"failed_negotiations_limit": 2}, marker=3)
    state.money = [7, 7, 3]
    play_moves(state, [(0, "negotiate"), (0, "fail")])
    assert game.pending(state).kind == "turn" and state.failed_in_a_row == 1
    play_moves(state, [(1, "roll"), (1, "draw"), (2, "negotiate"), (2, "fail")])
    result = game.result(state)
    assert result is not None and result.rule_id == R.R_FAILURE_LIMIT
    assert result.winners == (0, 1) and "shared" in result.reason
    assert game.pending(state).kind == "over" and game.legal_moves(state, 2) == []


def test_a_closed_deal_starts_the_count_of_failures_again() -> None:
    state = build_state(3, {"failed_negotiations_limit": 2}, owner=OWN_SPACE_1, marker=1)
    play_moves(state, [(0, "negotiate"), (0, "fail"), (1, "roll"), (1, "draw")])
    assert state.failed_in_a_row == 1
    state.marker = 0
    state.turn = 0
    state.phase = "turn"
    state.version += 1  # the state was changed by hand: drop what was worked out for the old version
    play_moves(state, [(0, "negotiate")])
    others_pass(state)
    play_moves(state, [(0, "close")])
    assert state.failed_in_a_row == 0 and game.result(state) is None


def test_the_marker_is_placed_by_the_seat_to_the_first_players_right() -> None:
    state = game.new_game(game.make_config(5, {"first_player": 0}), 3)
    assert game.pending(state).seats == (4,)
    play_moves(state, [(4, "marker 11")])
    assert state.marker == 10 and state.turn == 0 and game.pending(state).seats == (0,)


def test_investors_are_dealt_by_seat_count() -> None:
    for seats, each, beside in ((2, 3, 0), (3, 2, 0), (4, 1, 2), (5, 1, 1), (6, 1, 0)):
        state = game.new_game(game.make_config(seats, {}), seats)
        held = [sum(1 for o in state.owner if o == s) for s in range(seats)]
        assert held == [each] * seats
        assert sum(1 for o in state.owner if o < 0) == beside
        assert all(len(h) == 5 for h in state.hands)
        assert len(state.deck) == 98 - 5 * seats
        assert state.deal_deck[0].number == 1 and state.money == [0] * seats


def test_the_hire_set_takes_an_investor_that_keeps_its_travel() -> None:
    state = build_state(
        3,
        owner={"azul": 0, "rojo": 1, "amarillo": 2},
        hands={0: ["family:verde"], 1: ["hire", "hire", "hire"], 2: ["travel:gris"]},
        marker=8,
    )
    play_moves(state, [(0, "negotiate"), (2, "travel investor 0 azul grey")])
    stop_passes(state)
    play_moves(state, [(1, "hire azul")])
    stop_passes(state)
    azul = COLOURS.index("azul")
    assert state.owner[azul] == 1 and azul in state.neg.travelled
