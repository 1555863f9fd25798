"""Views show a seat what it may know and nothing else; sealed choices stay sealed until the reveal."""

from __future__ import annotations

import json
from typing import Any

from engine.core import RandomBot, play
from engine.se_vende.game import action_token
from engine.se_vende.moves import ChooseAction, Place, PlaceNone
from engine.se_vende.state import DEVELOP_PLACE, SeVendeState
from tests.engine.se_vende.helpers import DECK, GAME, arrange, choose, num, spare

IDS = DECK.ids


def _dump(view: dict[str, Any]) -> str:
    return json.dumps(view, ensure_ascii=False)


def test_sealed_action_cards_and_their_ids() -> None:
    state = arrange(3)
    GAME.apply(state, 2, ChooseAction("explorar-5"))
    token = action_token(1, 2, "explorar-5")
    assert token == "SV-R001-S2-E5"
    assert token in _dump(GAME.view(state, 2))
    for seat in (0, 1, None):
        assert token not in _dump(GAME.view(state, seat))
        assert token in GAME.hidden_ids(state, seat)
    assert token not in GAME.hidden_ids(state, 2)
    choose(state, {0: "producir", 1: "producir"})
    for seat in (0, 1, None):
        assert token in _dump(GAME.view(state, seat))  # public after the reveal
        assert token not in GAME.hidden_ids(state, seat)


def test_same_card_next_round_gets_a_new_id() -> None:
    state = arrange(2, tableau={0: [num("anillo-de-hielo", 0)], 1: [num("anillo-de-hielo", 1)]})
    choose(state, {0: "producir", 1: "producir"})
    assert state.round == 2
    GAME.apply(state, 0, ChooseAction("producir"))
    view = _dump(GAME.view(state, 1))
    assert action_token(2, 0, "producir") not in view
    assert "Producir" in json.dumps(GAME.view(state, 1)["actions"]["previous_round"], ensure_ascii=False)


def test_sealed_placement_is_invisible_until_the_reveal() -> None:
    flota = num("flota-de-escolta")
    fill = spare(6, [num("anillo-de-hielo")])
    state = arrange(2, hands={0: [flota, *fill[:3]], 1: fill[3:]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "desarrollar", 1: "producir"})
    before = GAME.view(state, 1)
    GAME.apply(state, 0, Place(IDS[flota]))
    assert state.step == DEVELOP_PLACE
    after = GAME.view(state, 1)
    assert IDS[flota] not in _dump(after)
    assert after["players"][0]["hand_size"] == before["players"][0]["hand_size"]  # nothing moved yet
    assert after["decision"]["done"] == [0]
    mine = GAME.view(state, 0)["mine"]
    assert mine["placement"]["id"] == IDS[flota] and mine["placement_sealed"] is True
    GAME.apply(state, 1, PlaceNone())
    assert IDS[flota] in _dump(GAME.view(state, 1))


def test_goods_show_their_kind_never_their_card() -> None:
    comet, spores = num("cometa-confeti"), num("vivero-de-esporas")
    state = arrange(2, tableau={0: [comet, spores]}, goods=[comet, spores])
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        kinds = {c["id"]: c.get("good") for c in view["players"][0]["tableau"]}
        assert kinds == {IDS[comet]: "novedad", IDS[spores]: "genes"}
        for good in state.goods.values():
            assert IDS[good] not in _dump(view)
            assert IDS[good] in GAME.hidden_ids(state, seat)


def test_views_hold_own_hand_and_counts_of_others() -> None:
    state = arrange(3, hands={0: spare(3), 1: spare(2, spare(3))})
    view = GAME.view(state, 0)
    assert [c["id"] for c in view["hand"]] == [IDS[c] for c in state.hands[0]]
    assert view["players"][1]["hand_size"] == 2
    assert not any(IDS[c] in _dump(view) for c in state.hands[1])
    assert "hand" not in GAME.view(state, None)
    card = view["hand"][0]
    assert {"id", "name", "type", "vp", "powers", "description"} <= set(card)


def test_no_view_leaks_over_whole_games() -> None:
    for seats in (2, 3, 4):
        cfg = GAME.make_config(seats, {"turn_limit": 8})

        def check(state: SeVendeState, seat: int, moves: list[Any], seats: int = seats) -> None:
            for who in (*range(seats), None):
                text = _dump(GAME.view(state, who))
                hidden = GAME.hidden_ids(state, who)
                assert not [h for h in hidden if h in text]
                assert isinstance(GAME.render(GAME.view(state, who)), str)

        play(GAME, cfg, seats, [RandomBot() for _ in range(seats)], on_decision=check)


def test_private_events_reach_only_their_seat() -> None:
    cfg = GAME.make_config(3, {"turn_limit": 6})
    record = play(GAME, cfg, 5, [RandomBot() for _ in range(3)], keep_events=True)
    assert record.finished
    for event in record.events:
        if event.audience is None:
            ids_in_text = [i for i in IDS if i in event.text]
            for cid in ids_in_text:
                c = DECK.index[cid]
                # a public event names only cards that are public now (tableau cards)
                assert any(c in t for t in record.state.tableau), event.text


def test_render_reads_well() -> None:
    state = arrange(2, hands={0: spare(2)})
    text = GAME.render(GAME.view(state, 0))
    assert "You are seat 0" in text and "Your hand (2)" in text and "Decision:" in text
