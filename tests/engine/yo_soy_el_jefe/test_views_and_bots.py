"""Views show each seat what it may know; events keep private draws private; the bots play legal moves."""

from __future__ import annotations

import copy
import json

from club_agentes.engine.core import RandomBot, Rng, play
from club_agentes.engine.yo_soy_el_jefe.bots import HeuristicBot
from club_agentes.engine.yo_soy_el_jefe.state import CARDS
from club_agentes.engine.yo_soy_el_jefe.views import money_pile

from .helpers import build_state, game, play_moves


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
    assert isinstance(game.render(view), str) and "Your hand" in game.render(view)


def test_a_polled_seat_sees_that_it_acts_out_of_turn_and_what_it_may_do() -> None:
    state = build_state(4, owner={"rojo": 1, "azul": 0}, hands={0: ["family:verde"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate")])
    view = game.view(state, 1)
    assert view["acting_out_of_turn"] and view["your_decision"] == game.pending(state).prompt
    assert "offer a colour" in view["your_decision"] and "pass" in view["your_decision"]
    assert game.view(state, 2)["your_decision"] is None
    neg = view["negotiation"]
    assert neg["boss"] == 0 and neg["payout"] == 6 and neg["polled"] == 1
    assert "(out of turn)" in game.render(view)


def test_a_draw_is_private_and_its_count_public() -> None:
    state = build_state(3, marker=3)
    events = play_moves(state, [(0, "roll"), (0, "draw")])
    private = [e for e in events if e.audience is not None]
    assert len(private) == 1 and private[0].audience == (0,)
    drawn = private[0].data["cards"]
    public_text = " ".join(e.text for e in events if e.audience is None)
    assert "took 3 influence card(s)" in public_text and not any(d in public_text for d in drawn)


def test_the_heuristic_bot_plays_legal_moves_to_the_end() -> None:
    cfg = game.make_config(4, {})
    record = play(game, cfg, 11, [HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()], max_decisions=50_000)
    assert record.finished and game.result(record.state) is not None


def test_the_heuristic_bot_decides_from_the_view_only() -> None:
    cfg = game.make_config(4, {})
    seen = 0

    def check(state, seat, moves) -> None:
        nonlocal seen
        if seen >= 60 or len(moves) < 2:
            return
        seen += 1
        other = copy.deepcopy(state)
        Rng(seen).shuffle(other.deck)  # hidden information changes, the view does not
        assert game.view(other, seat) == game.view(state, seat)
        a = HeuristicBot().choose(game, state, seat, moves, Rng(1))
        b = HeuristicBot().choose(game, other, seat, moves, Rng(1))
        assert a == b

    play(game, cfg, 5, [HeuristicBot() for _ in range(4)], on_decision=check, max_decisions=5_000)
    assert seen == 60


def test_random_players_end_every_negotiation() -> None:
    for seats, options in game.sample_configs():
        longest = 0
        current = 0

        def measure(state, seat, moves) -> None:
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
        assert longest < 600, (seats, options, longest)


def test_4_finalizacion_the_final_text_counts_every_seats_money() -> None:
    """ "Cada jugador cuenta su dinero": once the game is over the text shows every seat's money, not piles."""
    state = build_state(3, {"turn_limit": 1}, marker=3)
    state.money = [12, 55, 7]
    play_moves(state, [(0, "roll"), (0, "draw")])
    text = game.render(game.view(state, 2))
    assert "Final money: seat 0 12M, seat 1 55M, seat 2 7M." in text


def test_3_2_1_participacion_the_text_says_how_many_prices_a_seat_may_still_name() -> None:
    state = build_state(4, owner={"rojo": 1, "azul": 0}, hands={0: ["family:verde"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "offer rojo"), (1, "price 2M")])
    assert "Prices you may still name under this boss (offers and family cards placed): 1." in game.render(
        game.view(state, 1)
    )
    assert "Prices you may still propose under this boss: seat 1: 2, seat 2: 2, seat 3: 2." in game.render(
        game.view(state, 0)
    )


def test_limite_de_ofertas_the_prompt_offers_no_price_once_the_count_is_spent() -> None:
    state = build_state(4, owner={"rojo": 1, "azul": 0}, hands={0: ["family:verde"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "offer rojo"), (1, "price 3M"), (2, "pass"), (3, "pass")])
    play_moves(state, [(0, "bid 1 rojo"), (0, "price 1M"), (1, "offer rojo"), (1, "price 2M"), (2, "pass")])
    play_moves(state, [(3, "pass"), (0, "bid 1 rojo"), (0, "price 1M")])
    prompt = game.pending(state).prompt
    assert state.neg.offers_left[1] == 0 and "proposes 1M for your rojo: accept, refuse; or play" in prompt
    assert "offer" not in prompt.split("proposes")[1]


def test_protocolo_de_negociacion_the_boss_lists_failure_last() -> None:
    state = build_state(4, owner={"rojo": 1, "azul": 0}, hands={0: ["family:verde"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "offer rojo"), (1, "price 3M"), (2, "pass"), (3, "pass")])
    moves = [m.text() for m in game.legal_moves(state, 0)]
    assert moves[-1] == "fail" and moves[0] != "fail"


def test_3_3_cierre_the_discards_are_public_card_by_card() -> None:
    """Discarded influence cards lie face up: a view counts them by kind and colour, and the text lists them."""
    state = build_state(4, owner={"azul": 0}, hands={1: ["travel:azul"], 2: ["stop"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "travel investor 0 azul"), (2, "stop")])
    view = game.view(state, 3)
    assert view["discard_by_card"] == {"stop": 1, "travel azul": 1}
    assert "discard 2 (stop, travel azul)." in game.render(view)


def test_protocolo_de_negociacion_a_waiting_seat_reads_whose_decision_it_is() -> None:
    """The prompt speaks to the deciding seat; the others' text says it is that seat's, not theirs."""
    state = build_state(4, owner={"rojo": 1, "azul": 0}, hands={0: ["family:verde"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate")])
    text = game.render(game.view(state, 2))
    prompt = game.pending(state).prompt
    assert f'Waiting for seat 1 (out of turn), which is told: "{prompt}"' in text
    assert "Your decision" not in text
