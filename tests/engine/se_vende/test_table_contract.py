"""What a table relies on: the setup log (13.6), bounded options (11.1), who has finished each
simultaneous step (11.8), per-seat freshness under sealed choices (13.1), all public information
in the views (13.7), and leak scans by card id and by card name."""

from __future__ import annotations

import json
from typing import Any

import pytest
from club_agentes.engine.core import ConfigError, RandomBot, Rng, play
from club_agentes.engine.se_vende.cards import GOOD_KINDS
from club_agentes.engine.se_vende.config import MAX_TURN_LIMIT
from club_agentes.engine.se_vende.moves import DONE, PLACE_NONE, ChooseAction, Discard, Keep, Pay, Place
from club_agentes.engine.se_vende.state import (
    CONSUMING,
    DEVELOP_PAY,
    DEVELOP_PLACE,
    EXPLORE_KEEP,
    HAND_LIMIT,
    SETUP,
    STEP_NAMES,
    State,
)

from tests.engine.se_vende.helpers import DECK, GAME, arrange, choose, num, spare

IDS = DECK.ids


def _snap(state: State) -> str:
    return json.dumps(GAME.snapshot(state), sort_keys=True)


# ---------------------------------------------------------------------- 13.6: the setup log


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_start_logs_the_setup_with_private_hands(seats: int) -> None:
    config = GAME.make_config(seats)
    state, events = GAME.start(config, 9)
    assert _snap(state) == _snap(GAME.new_game(config, 9))
    texts = [e.text for e in events]
    assert any(t.startswith("setup step 1:") for t in texts) and any(t.startswith("setup step 5:") for t in texts)
    dealt = next(e for e in events if e.text.startswith("setup step 3:"))
    assert dealt.audience is None and dealt.data == {"start": {str(i): IDS[state.tableau[i][0]] for i in range(seats)}}
    for seat in range(seats):
        (own,) = [e for e in events if e.audience == (seat,)]
        assert own.data == {"hand": [IDS[c] for c in state.hands[seat]]}
        assert all(DECK.defs[c].name in own.text for c in state.hands[seat])
    hidden = {IDS[c] for h in state.hands for c in h} | {IDS[g] for g in state.goods.values()}
    for e in events:
        if e.audience is None:
            assert not [h for h in hidden if h in e.text or h in json.dumps(e.data)], e.text


# ---------------------------------------------------------------------- 11.1: bounded options


def test_turn_limit_is_bounded_and_documented() -> None:
    schema = GAME.config_schema()["properties"]["turn_limit"]
    assert schema["minimum"] == 1 and schema["maximum"] == MAX_TURN_LIMIT == 100
    assert "1 to 100" in schema["description"]
    assert GAME.make_config(2, {"turn_limit": 100}).turn_limit == 100
    for bad in (0, 101, 100_000, -5):
        with pytest.raises(ConfigError, match="from 1 to 100") as err:
            GAME.make_config(4, {"turn_limit": bad})
        assert "\n" not in str(err.value)
    with pytest.raises(ConfigError, match="accepts only 'turn_limit'"):
        GAME.make_config(2, {"mode": "campeonato"})


# ---------------------------------------------------------------------- 11.8: Pending.done in every simultaneous step


def test_pending_done_lists_the_seats_that_finished_every_simultaneous_step() -> None:
    state = GAME.new_game(GAME.make_config(3), 2)
    assert state.step == SETUP
    for card in list(state.hands[1][:2]):
        GAME.apply(state, 1, Discard(IDS[card]))
    assert GAME.pending(state).done == (1,) and GAME.pending(state).seats == (0, 2)

    comets = [num("cometa-confeti", i) for i in range(2)]
    network, recycle = num("red-de-comerciantes"), num("reciclaje-fiscal")
    flota = num("flota-de-escolta")
    tableau = {0: [network, *comets], 1: [recycle, num("anillo-de-hielo")], 2: [num("anillo-de-hielo", 1)]}
    fill = spare(11, *tableau.values())
    hands = {0: [flota, *fill[:4]], 1: fill[4:8], 2: fill[8:]}
    state = arrange(3, hands=hands, tableau=tableau, goods=comets)
    choose(state, {0: "explorar-5", 1: "2x-pv", 2: "desarrollar"})
    assert state.step == EXPLORE_KEEP and GAME.pending(state).done == ()
    GAME.apply(state, 2, Keep(IDS[state.drawn[2][0]]))
    assert GAME.pending(state).done == (2,)
    for seat in (0, 1):
        GAME.apply(state, seat, Keep(IDS[state.drawn[seat][0]]))
    assert state.step == DEVELOP_PLACE and GAME.pending(state).done == ()
    GAME.apply(state, 0, Place(IDS[flota]))
    assert GAME.pending(state).done == (0,)
    GAME.apply(state, 1, PLACE_NONE)
    GAME.apply(state, 2, PLACE_NONE)
    assert state.step == DEVELOP_PAY and GAME.pending(state).seats == (0,) and GAME.pending(state).done == ()
    for _ in range(state.todo[0]):
        GAME.apply(state, 0, Pay(IDS[state.hands[0][0]]))
    assert state.step == CONSUMING
    pending = GAME.pending(state)
    assert pending.seats == (0, 1) and pending.done == ()
    GAME.apply(state, 1, DONE)  # seat 1 leaves Consumir with its hand power unused
    pending = GAME.pending(state)
    assert pending.seats == (0,) and pending.done == (1,)

    state = arrange(2, hands={0: [c for c, d in enumerate(DECK.defs) if d.is_development][:12], 1: spare(11)})
    choose(state, {0: "desarrollar", 1: "desarrollar"})
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == HAND_LIMIT and GAME.pending(state).seats == (0, 1)
    GAME.apply(state, 1, Discard(IDS[state.hands[1][0]]))
    assert GAME.pending(state).done == (1,) and GAME.pending(state).seats == (0,)


# ---------------------------------------------------------------------- 13.1 / 17: sealed choices and other seats


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_sealed_choice_changes_no_other_seat_view_or_moves(seats: int) -> None:
    flota = num("flota-de-escolta")
    state = arrange(seats, hands={0: [flota, *spare(3)]}, tableau={0: [num("anillo-de-hielo")]})

    def seen() -> list[tuple[Any, Any]]:
        return [(GAME.view(state, s), GAME.legal_moves(state, s)) for s in range(1, seats)] + [
            (GAME.view(state, None), None)
        ]

    before = seen()
    GAME.apply(state, 0, ChooseAction("desarrollar"))
    assert seen() == before
    for seat in range(1, seats):
        before = [x for i, x in enumerate(seen()) if i != seat - 1]
        GAME.apply(state, seat, ChooseAction("producir"))
        if state.step != DEVELOP_PLACE:
            after = [x for i, x in enumerate(seen()) if i != seat - 1]
            assert after == before
    assert state.step == DEVELOP_PLACE
    before = seen()
    GAME.apply(state, 0, Place(IDS[flota]))
    assert seen() == before
    for seat in range(1, seats - 1):
        before = [x for i, x in enumerate(seen()) if i != seat - 1]
        GAME.apply(state, seat, PLACE_NONE)
        assert [x for i, x in enumerate(seen()) if i != seat - 1] == before


# ---------------------------------------------------------------------- 13.7: all public information


def test_another_seats_open_acts_change_nothing_a_deciding_seat_sees() -> None:
    """In every step where seats act at once, a seat still deciding sees the same view and moves until the end."""
    checked = 0
    for seats, seed in ((2, 81), (3, 82), (4, 83)):
        state = GAME.new_game(GAME.make_config(seats), seed)
        rng = Rng(seed)
        while GAME.pending(state).kind != "over":
            pending = GAME.pending(state)
            seat, others = pending.seats[0], pending.seats[1:]
            before = {x: (GAME.view(state, x), GAME.legal_moves(state, x)) for x in others}
            step = state.step
            GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
            for x in others:
                if state.step == step and x in GAME.pending(state).seats:
                    assert (GAME.view(state, x), GAME.legal_moves(state, x)) == before[x], STEP_NAMES[step]
                    checked += 1
            if state.board is None:  # between steps, every view is up to date
                view = GAME.view(state, None)
                assert view["supply_size"] == len(state.supply) and "shown_as_at_step_start" not in view
                assert [p["hand_size"] for p in view["players"]] == [len(h) for h in state.hands]
    assert checked > 300


def test_every_view_shows_all_public_information() -> None:
    state = GAME.new_game(GAME.make_config(3), 61)
    rng = Rng(61)
    played = 0
    while (played < 200 or state.board is not None) and GAME.pending(state).kind != "over":
        # stop at a moment between steps: nothing is held back
        seat = GAME.pending(state).seats[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        played += 1
    assert state.chosen is not None or state.previous is not None
    for who in (0, 1, 2, None):
        view = GAME.view(state, who)
        assert view["supply_size"] == len(state.supply) and view["discard_size"] == len(state.discard)
        assert view["chip_pool"] == state.pool
        for seat, p in enumerate(view["players"]):
            assert p["hand_size"] == len(state.hands[seat]) and p["chips"] == state.chips[seat]
            assert [c["id"] for c in p["tableau"]] == [IDS[c] for c in state.tableau[seat]]
            for entry, c in zip(p["tableau"], state.tableau[seat], strict=True):
                assert entry["powers"] == [pw.text() for pw in DECK.defs[c].powers]
                assert entry.get("good") == (DECK.defs[c].good if c in state.goods else None)
            kinds = {
                k: sum(1 for w in state.tableau[seat] if w in state.goods and DECK.defs[w].good == k)
                for k in GOOD_KINDS
            }
            assert p["goods_by_kind"] == {k: n for k, n in kinds.items() if n}
        if state.chosen is not None:
            assert {int(k): v["code"] for k, v in view["actions"]["revealed"].items()} == state.chosen


def test_views_leak_no_hidden_card_by_id_or_by_name() -> None:
    names = GAME.card_names()
    assert set(names) == set(IDS) and names[IDS[0]] == DECK.defs[0].name
    for seats, seed in ((2, 71), (4, 72)):
        count = 0

        def check(state: State, seat: int, moves: list[Any]) -> None:
            nonlocal count
            count += 1
            if count % 7:
                return
            vis = GAME.visibility(state)
            for who in (*range(state.n), None):
                text = json.dumps(GAME.view(state, who), ensure_ascii=False)
                hidden = GAME.hidden_ids(state, who)
                assert not [h for h in hidden if h in text]
                shown = {names[c] for c in IDS if c not in hidden}
                leaked = {names[h] for h in hidden if h in names} - shown
                assert not [n for n in leaked if n in text], (who, [n for n in leaked if n in text])
                assert hidden == vis.hidden_ids(who)

        play(GAME, GAME.make_config(seats), seed, [RandomBot() for _ in range(seats)], on_decision=check)


def test_open_acts_show_when_the_step_ends() -> None:
    state = GAME.new_game(GAME.make_config(2), 4)
    for card in list(state.hands[0][:2]):
        GAME.apply(state, 0, Discard(IDS[card]))
    mine, theirs = GAME.view(state, 0), GAME.view(state, 1)
    assert [p["hand_size"] for p in mine["players"]] == [4, 6]  # its own hand is live
    assert [p["hand_size"] for p in theirs["players"]] == [6, 6]  # the other's discards show at the step's end
    assert mine["discard_size"] == theirs["discard_size"] == 0 and "shown_as_at_step_start" in theirs
    public = GAME.view(state, None)  # a spectator decides nothing: it sees the table live
    assert [p["hand_size"] for p in public["players"]] == [4, 6] and public["discard_size"] == 2
    GAME.apply(state, 1, Discard(IDS[state.hands[1][0]]))
    GAME.apply(state, 1, Discard(IDS[state.hands[1][0]]))
    for who in (0, 1, None):
        view = GAME.view(state, who)
        assert [p["hand_size"] for p in view["players"]] == [4, 4] and view["discard_size"] == 4
        assert "shown_as_at_step_start" not in view
