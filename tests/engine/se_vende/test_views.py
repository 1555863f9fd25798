"""Views show a seat what it may know and nothing else; sealed choices stay sealed until the reveal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from club_agentes.engine.core import RandomBot, play
from club_agentes.engine.se_vende.actions import DEVELOP, action_token
from club_agentes.engine.se_vende.moves import ACTION_CODES, PLACE_NONE, ChooseAction, ConsumeGood, Pay, Place, UsePower
from club_agentes.engine.se_vende.state import CONSUMING, DEVELOP_PAY, DEVELOP_PLACE, State

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
    assert after == before  # a sealed choice changes nothing another seat sees
    assert GAME.pending(state).done == (0,)
    mine = GAME.view(state, 0)["mine"]
    assert mine["placement"]["id"] == IDS[flota] and mine["placement_sealed"] is True
    GAME.apply(state, 1, PLACE_NONE)
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
    """Every seat's view and the public one, at every step change and every tenth decision."""
    for seats in (2, 3, 4):
        cfg = GAME.make_config(seats, {"turn_limit": 8})
        last = [-1, 0]

        def check(state: State, seat: int, moves: list[Any], seats: int = seats, last: list[int] = last) -> None:
            last[1] += 1
            if state.step == last[0] and last[1] % 10:
                return
            last[0] = state.step
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
    assert "You are seat 0" in text and "Your hand (2)" in text and "Decision (yours):" in text


def test_se_vende_rulings_cartas_de_accion_effects_shown_while_choosing() -> None:
    state = arrange(2, hands={0: spare(2)})
    view = GAME.view(state, 0)
    effects = view["actions"]["effects"]
    assert [e["code"] for e in effects] == list(ACTION_CODES)
    text = GAME.render(view)
    assert "asentar (Asentar, phase III Asentar)" in text and "you draw 1 card after placing" in text
    assert "every seat draws 2 cards and keeps 1; you draw 5 more" in text
    assert "effects" not in GAME.view(state, None)["actions"]
    GAME.apply(state, 0, ChooseAction("asentar"))
    text = GAME.render(GAME.view(state, 0))
    assert "Your sealed choice: Asentar." in text and "phase III Asentar" not in text


def test_se_vende_preguntas_poderes_nuevos_view_marks_cards_placed_this_phase() -> None:
    patents = num("oficina-de-patentes")  # Desarrollar: developments cost 1 less
    hand = spare(3, [patents, num("anillo-de-hielo")])
    state = arrange(2, hands={0: [patents, *hand]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "producir", 1: "desarrollar"})
    GAME.apply(state, 0, Place(IDS[patents]))
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == DEVELOP_PAY
    view = GAME.view(state, 1)
    entry = next(c for c in view["players"][0]["tableau"] if c["id"] == IDS[patents])
    assert entry["powers_start_next_phase"] is True
    assert f"{IDS[patents]} Oficina de Patentes [placed this phase" in GAME.render(view)
    old = next(c for c in view["players"][0]["tableau"] if c["id"] != IDS[patents])
    assert "powers_start_next_phase" not in old
    GAME.apply(state, 0, Pay(IDS[hand[0]]))
    assert state.phase != DEVELOP
    assert "[placed this phase" not in GAME.render(GAME.view(state, 1))


def test_se_vende_rulings_consumir_power_in_use_is_not_shown_as_used() -> None:
    comets = [num("cometa-confeti", i) for i in range(3)]
    network = num("red-de-comerciantes")  # up to 2 goods of any kind
    state = arrange(2, tableau={0: [network, *comets], 1: [num("anillo-de-hielo")]}, goods=comets)
    choose(state, {0: "2x-pv", 1: "producir"})
    GAME.apply(state, 0, UsePower(IDS[network], 0))
    text = GAME.render(GAME.view(state, 0))
    assert (
        f"power {IDS[network]} 0: Consumir: descarta hasta 2 bienes de cualquier tipo por 1 PV cada uno. (in use)"
        in text
    )
    GAME.apply(state, 0, ConsumeGood(IDS[comets[0]]))
    GAME.apply(state, 0, ConsumeGood(IDS[comets[1]]))
    assert state.step != CONSUMING or "(in use)" not in GAME.render(GAME.view(state, 0))


def assert_no_leak_by_id_or_name(state: State, seat: int | None) -> None:
    """The view of ``seat`` and its rendering name no card it may not know: no hidden id (cards, sealed action
    cards), and no printed name that only hidden cards carry (a name shared with a visible copy says nothing)."""
    view = GAME.view(state, seat)
    text = _dump(view) + GAME.render(view)
    hidden = GAME.hidden_ids(state, seat)
    leaked = sorted(h for h in hidden if h in text)
    assert not leaked, f"seat {seat} sees hidden ids {leaked[:5]}"
    names = GAME.card_names()
    visible = {name for card, name in names.items() if card not in hidden}
    secret = {names[h] for h in hidden if h in names} - visible
    shown = sorted(name for name in secret if name in text)
    assert not shown, f"seat {seat} sees the names of hidden cards {shown[:5]}"


@pytest.mark.slow
def test_every_view_of_every_seat_at_every_decision_leaks_no_hidden_card() -> None:
    """Issue 13.7: "every view of every seat". One seeded 4-seat game: at every decision (sealed choices made by
    some seats and not yet by others included) and at the end, every seat's view and the public one name no
    hidden card, by id or by a name only hidden cards carry."""
    checked = 0

    def check(state: State, seat: int, moves: list[Any]) -> None:
        nonlocal checked
        for who in (*range(state.n), None):
            assert_no_leak_by_id_or_name(state, who)
        checked += 1

    record = play(GAME, GAME.make_config(4, {}), 1, [RandomBot() for _ in range(4)], on_decision=check)
    assert record.finished and checked == record.decisions
    check(record.state, 0, [])  # and the final views, after the end
