"""Views: each seat sees what it may know and every public fact; events keep private draws private; the text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from club_agentes.engine.core import RandomBot, play
from club_agentes.engine.yo_soy_el_jefe.state import CARDS
from club_agentes.engine.yo_soy_el_jefe.views import money_pile

from .helpers import build_state, game, others_pass, play_moves, rig_die, stop_passes


def _cards_in(value: Any) -> list[dict[str, Any]]:
    """Every card object (a dict with an influence card's id) anywhere in a view."""
    out = []
    if isinstance(value, dict):
        if "id" in value and "kind" in value:
            out.append(value)
        for v in value.values():
            out += _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out += _cards_in(v)
    return out


def assert_no_leak(state: Any, seat: int | None) -> None:
    """The view names no card ``seat`` may not know, neither by id nor as a card object with its name."""
    view = game.view(state, seat)
    text = json.dumps(view, ensure_ascii=False) + game.render(view)
    hidden = game.hidden_ids(state, seat)
    leaked = [h for h in hidden if h in text]
    assert not leaked, f"seat {seat} sees hidden ids {leaked[:5]}"
    names = game.card_names()
    for card in _cards_in(view):
        assert card["id"] not in hidden and card["name"] == names[card["id"]]


def test_a_view_shows_only_what_the_seat_may_know() -> None:
    state = build_state(4, owner={"rojo": 1}, hands={0: ["boss", "stop"], 1: ["family:rojo", "hire"]}, marker=8)
    state.money = [12, 55, 0, 7]
    view = game.view(state, 0)
    text = json.dumps(view, ensure_ascii=False)
    assert [c["kind"] for c in view["hand"]] == ["boss", "stop"]
    assert all(CARDS[c].id not in text for c in state.hands[1] + state.deck)
    assert view["players"][0]["money"] == 12 and "money" not in view["players"][1]
    assert view["players"][1]["money_pile"] == money_pile(55) == "a large pile (50M to 99M)"
    assert view["players"][1]["hand_count"] == 2 and "rojo" in view["players"][1]["investors"]
    public = game.view(state, None)
    assert public["hand"] == [] and all("money" not in p for p in public["players"])
    hidden = game.hidden_ids(state, 0)
    assert {CARDS[c].id for c in state.hands[1]} <= hidden and not {CARDS[c].id for c in state.hands[0]} & hidden
    assert "Your hand" in game.render(view)
    assert_no_leak(state, 0)
    assert_no_leak(state, None)


def test_every_public_fact_is_in_the_view() -> None:
    """Placed family cards, travel cards on investors, the cards each seat used, the cards taken back face up,
    the deals closed with what was paid, the bank's payouts, and the open negotiation with who has answered."""
    state = build_state(
        4,
        owner={"rojo": 0, "amarillo": 1, "azul": 2},
        hands={0: ["family:verde"], 1: ["family:rojo"], 2: ["travel:azul"], 3: ["stop"]},
        marker=9,  # 3 dividends: rojo, verde + 1 of amarillo/rosa
        turn=0,
    )
    play_moves(state, [(0, "negotiate"), (0, "family verde"), (1, "family rojo"), (1, "offer amarillo")])
    play_moves(state, [(1, "price 1M"), (2, "pass")])
    neg = game.view(state, 3)["negotiation"]
    assert neg["boss"] == 0 and neg["payout"] == 3 and neg["space"]["space"] == 9
    assert [(f["seat"], f["colour"]) for f in neg["placed_family_cards"]] == [(0, "verde"), (1, "rojo")]
    assert neg["prices"] == [
        {"seat": 1, "colour": "amarillo", "status": "asked", "named_by": 1, "millions": 1, "named_as": "1M"}
    ]
    assert neg["last_change"]["by"] == 1 and neg["passed"] == [2] and neg["to_answer_before_close"] == [3]
    assert neg["may_act"] == [0, 1, 3] and not neg["boss_may_close"]
    play_moves(state, [(3, "pass")])
    rig_die(state, 6)
    play_moves(state, [(0, "accept seat 1 amarillo and close")])
    view = game.view(state, 2)
    assert view["deals"] == [
        {
            "deal": 1,
            "space": 9,
            "card": 1,
            "boss": 0,
            "payout": 3,
            "paid": [[1, "amarillo", "investor", 1]],
            "kept_by_boss": 2,
            "roll": None,
        }
    ]
    assert view["bank"]["paid_out"] == 3
    assert view["players"][1]["used"] == {"family rojo": 1} and view["players"][0]["used"] == {"family verde": 1}
    assert [c["colour"] for c in view["players"][1]["known_cards"]] == ["rojo"]  # it did not take part: back face up
    assert view["players"][0]["known_cards"] == []  # the boss's verde took part: discarded
    assert_no_leak(state, 2)


def test_a_travel_card_on_an_investor_is_public() -> None:
    state = build_state(4, owner={"azul": 0}, hands={1: ["travel:azul"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "travel investor seat 0 azul")])
    waiting = game.view(state, 3)["card_waiting_for_stops"]
    assert waiting["kind"] == "travel" and waiting["seat"] == 0 and waiting["still_to_answer"] == [0, 2, 3]
    stop_passes(state)
    neg = game.view(state, 3)["negotiation"]
    assert [t["colour"] for t in neg["travelled_investors"]] == ["azul"]
    assert neg["travelled_investors"][0]["travel_card"].startswith("YSJ-VIA-AZU")


def test_an_open_window_shows_every_seat_that_may_act() -> None:
    state = build_state(4, owner={"rojo": 1, "azul": 0}, hands={0: ["family:verde"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate")])
    view = game.view(state, 1)
    assert view["acting_out_of_turn"] and view["your_decision"] == game.pending(state).prompt
    assert view["decision"]["seats"] == [0, 1, 2, 3]
    assert "(out of turn)" in game.render(view)
    assert not game.view(state, 0)["acting_out_of_turn"]


def test_a_draw_is_private_and_its_count_public() -> None:
    state = build_state(3, marker=3)
    events = play_moves(state, [(0, "roll"), (0, "draw")])
    private = [e for e in events if e.audience is not None]
    assert len(private) == 1 and private[0].audience == (0,)
    drawn = private[0].data["cards"]
    public_text = " ".join(e.text for e in events if e.audience is None)
    assert "took 3 influence card(s)" in public_text and not any(d in public_text for d in drawn)


def test_the_setup_is_in_the_log_with_each_hand_for_its_seat() -> None:
    state, events = game.start(game.make_config(4, {"first_player": 1}), 3)
    public = [e for e in events if e.audience is None]
    private = [e for e in events if e.audience is not None]
    assert "seat 1 plays first" in public[0].text and "investor cards dealt" in public[1].text
    assert sorted(e.audience for e in private) == [(0,), (1,), (2,), (3,)]
    for e in private:
        seat = e.audience[0]
        assert e.data["cards"] == [CARDS[c].id for c in state.hands[seat]]
    assert "places the dollar marker" in public[-1].text
    public_text = " ".join(e.text for e in public)
    assert not any(CARDS[c].id in public_text for h in state.hands for c in h)


def test_the_discards_are_public_card_by_card() -> None:
    state = build_state(4, owner={"azul": 0}, hands={1: ["travel:azul"], 2: ["stop"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "travel investor seat 0 azul"), (2, "stop")])
    view = game.view(state, 3)
    assert view["discard_by_card"] == {"stop": 1, "travel azul": 1}
    assert "discard 2 (stop, travel azul)." in game.render(view)
    assert view["players"][2]["used"] == {"stop": 1}


def test_4_finalizacion_the_final_text_counts_every_seats_money_deal_by_deal() -> None:
    """ "Cada jugador cuenta su dinero": the result shows every seat's money and where it came from."""
    state = build_state(3, {"failed_negotiations_limit": 1}, owner={"rojo": 0, "amarillo": 1}, marker=1)
    play_moves(state, [(0, "negotiate"), (1, "offer amarillo"), (1, "price 1M")])
    others_pass(state)
    play_moves(state, [(0, "accept seat 1 amarillo and close"), (1, "negotiate"), (1, "fail")])
    result = game.result(state)
    assert result.scores == (1.0, 1.0, 0.0)
    assert [sum(x.amount for x in b.lines) for b in result.breakdown] == [1, 1, 0]
    text = game.render(game.view(state, 2))
    assert "Final money: seat 0 1M, seat 1 1M, seat 2 0M." in text
    assert (
        "seat 0: 1M = deal 1 (space 1): payout from the bank as boss +2M; deal 1 (space 1): paid seat 1 for its "
        "amarillo -1M." in text
    )
    assert "seat 1: 1M = deal 1 (space 1): paid by seat 0 (the boss) for amarillo +1M." in text


def test_views_never_leak_in_random_games() -> None:
    """At phase changes and every tenth decision (at most 60 checks a game), in every sample configuration, no
    view names a hidden card."""
    for seats, options in game.sample_configs():
        count = checks = 0
        last_phase = None

        def check(state: Any, seat: int, moves: list) -> None:
            nonlocal count, checks, last_phase
            count += 1
            phase = (state.phase, state.stop is not None)
            if (phase != last_phase or count % 10 == 0) and checks < 60:
                last_phase = phase
                checks += 1
                assert_no_leak(state, seat)
                assert_no_leak(state, None if checks % 2 else (seat + 1) % state.n)

        record = play(game, game.make_config(seats, options), 3, [RandomBot() for _ in range(seats)], on_decision=check)
        assert record.finished


def assert_no_hidden_name(state: Any, seat: int | None) -> None:
    """The view and its rendering print no name that only cards hidden from ``seat`` carry (a name shared with a
    card the seat may see, e.g. another copy of "Parada", says nothing about the hidden one)."""
    view = game.view(state, seat)
    text = json.dumps(view, ensure_ascii=False) + game.render(view)
    hidden = game.hidden_ids(state, seat)
    names = game.card_names()
    visible = {name for card, name in names.items() if card not in hidden}
    secret = {names[h] for h in hidden if h in names} - visible
    shown = sorted(name for name in secret if name in text)
    assert not shown, f"seat {seat} sees the names of hidden cards {shown[:5]}"


@pytest.mark.slow
def test_every_view_of_every_seat_at_every_decision_leaks_no_hidden_card() -> None:
    """Issue 13.7: "every view of every seat". One seeded 6-seat game: at every decision and at the end, every
    seat's view and the public one name no hidden card, by id or by a name only hidden cards carry."""
    checked = 0

    def check(state: Any, seat: int, moves: list) -> None:
        nonlocal checked
        for s in (*range(state.n), None):
            assert_no_leak(state, s)
            assert_no_hidden_name(state, s)
        checked += 1

    record = play(game, game.make_config(6, {}), 1, [RandomBot() for _ in range(6)], on_decision=check)
    assert record.finished and checked == record.decisions
    check(record.state, 0, [])  # and the final views, after the end
