"""Moves in plain words (issue 13.2) and the decision clock's defaults (issue 11.6)."""

from __future__ import annotations

import re
from typing import Any

from club_agentes.engine.core import RandomBot, play
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.moves import (
    DONE,
    PLACE_NONE,
    ChooseAction,
    ConsumeGood,
    Discard,
    Keep,
    Pay,
    Place,
    Sell,
    UsePower,
)
from club_agentes.engine.se_vende.state import (
    CONSUMING,
    DEVELOP_PAY,
    EXPLORE_KEEP,
    HAND_LIMIT,
    SELECT,
    SETUP,
    State,
)

from tests.engine.se_vende.helpers import DECK, GAME, arrange, choose, num, spare

IDS = DECK.ids
NAMES = ["seat 0 (claude-7)", "seat 1 (bot:heuristic)", "seat 2 (gpt-x)", "seat 3 (ana)"]


def _check_sentences(state: State, seat: int, moves: list[Any], seen: set[str]) -> None:
    notes = GAME.explain(state, seat, moves, NAMES[: state.n])
    assert len(notes) == len(moves)
    for move, note in zip(moves, notes, strict=True):
        says = note.says
        assert says.startswith(NAMES[seat]) and says.endswith("."), says
        assert "None" not in says and "{" not in says, says
        for value in move.to_json().values():
            if isinstance(value, str) and value.startswith("SV-C"):
                assert value in says and DECK.defs[DECK.index[value]].name in says, says
        if isinstance(move, Pay | Sell):
            assert re.search(r"\d+ cards?\b", says), says
        if isinstance(move, UsePower | ConsumeGood) and "discard up to" not in says:
            assert re.search(r"\d+ VP", says), says
        assert note.note is None or note.note.strip(), note
        seen.add(move.to_json()["type"])


def test_every_legal_move_is_said_in_full_sentences_naming_the_seat() -> None:
    seen: set[str] = set()
    for seats, seed in ((2, 1), (3, 2), (4, 3), (3, 4)):
        count = 0
        last_step = [-1]

        def check(state: State, seat: int, moves: list[Any], last: list[int] = last_step) -> None:
            nonlocal count
            count += 1
            if state.step != last[0] or count % 5 == 0:
                last[0] = state.step
                _check_sentences(state, seat, moves, seen)

        record = play(GAME, GAME.make_config(seats), seed, [RandomBot() for _ in range(seats)], on_decision=check)
        assert record.finished
    assert seen >= {"action", "keep", "discard", "place", "pay", "use", "done"}, seen


def test_sentences_give_amounts_with_their_units() -> None:
    ruins, jungle = num("ruinas-cantoras"), num("jungla-bioluminiscente")
    barter, network = num("trueque-orbital"), num("red-de-comerciantes")
    state = arrange(2, tableau={0: [ruins, jungle, barter], 1: [network, num("cometa-confeti")]}, goods=[ruins, jungle])
    choose(state, {0: "comercio", 1: "2x-pv"})
    says = [n.says for n in GAME.explain(state, 0, GAME.legal_moves(state, 0), NAMES[:2])]
    assert says[0] == (
        f"seat 0 (claude-7) sells the tecnología alienígena good on Ruinas Cantoras ({IDS[ruins]}) for 6 cards "
        "(price 5 + 1 from trade powers)."
    )
    capital = num("capital-flotante")  # a world of cost 5
    fill = spare(5, [capital, num("anillo-de-hielo")])
    state = arrange(2, hands={0: [capital, *fill]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "asentar", 1: "asentar"})
    notes = GAME.explain(state, 0, [Place(IDS[capital]), PLACE_NONE], NAMES[:2])
    assert "in secret, paying 5 cards from hand after the reveal (cost 5)." in notes[0].says
    assert notes[1].says == "seat 0 (claude-7) places nothing this phase (sealed until every seat has chosen)."


def test_consume_powers_are_said_with_their_points() -> None:
    comets = [num("cometa-confeti", i) for i in range(3)]
    chamber = num("camara-de-comercio-galactica")  # up to 3 goods of any kind, 1 VP each
    state = arrange(2, tableau={0: [chamber, *comets], 1: [num("anillo-de-hielo")]}, goods=comets[:2])
    choose(state, {0: "2x-pv", 1: "producir"})
    moves = GAME.legal_moves(state, 0)
    assert moves == [UsePower(IDS[chamber], 0), DONE]
    use, done = GAME.explain(state, 0, moves, NAMES[:2])
    assert use.says.endswith("on 2 goods: 4 VP (doubled by 2x PV).")
    assert "leaving unused: Cámara de Comercio Galáctica" in done.says


def _empty_piles(state: State, into: int) -> None:
    state.hands[into].extend(state.supply + state.discard)
    state.supply.clear()
    state.discard.clear()
    state.known.clear()


def test_moves_that_cannot_help_carry_a_note() -> None:
    state = arrange(2)
    notes = GAME.explain(state, 0, GAME.legal_moves(state, 0), NAMES[:2])
    assert all(n.note is None for n in notes)
    _empty_piles(state, 1)
    moves = GAME.legal_moves(state, 0)
    notes = {m.action: n for m, n in zip(moves, GAME.explain(state, 0, moves, NAMES[:2]), strict=True)}
    assert notes["explorar-5"].note is not None and "Explorar would do nothing" in notes["explorar-5"].note
    assert notes["explorar-1-1"].note is not None
    assert all(notes[c].note is None for c in notes if not c.startswith("explorar"))
    ruins = num("ruinas-cantoras")
    state = arrange(2, tableau={0: [ruins], 1: [num("anillo-de-hielo")]}, goods=[ruins])
    choose(state, {0: "comercio", 1: "producir"})
    _empty_piles(state, 1)
    (sell,) = GAME.explain(state, 0, GAME.legal_moves(state, 0), NAMES[:2])
    assert sell.note is not None and "no card can be drawn" in sell.note


def test_default_moves_are_the_rules_defaults() -> None:
    state = GAME.new_game(GAME.make_config(2), 1)
    assert state.step == SETUP and GAME.default_move(state, 0) is None  # two cards must be discarded
    state = arrange(2, hands={0: [num("flota-de-escolta"), *spare(3)]}, tableau={0: [num("anillo-de-hielo")]})
    assert state.step == SELECT and GAME.default_move(state, 0) is None  # an action card must be chosen
    choose(state, {0: "desarrollar", 1: "explorar-5"})
    assert state.step == EXPLORE_KEEP and GAME.default_move(state, 1) is None
    while state.step == EXPLORE_KEEP:
        seat = GAME.pending(state).seats[0]
        GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    assert GAME.default_move(state, 0) == (PLACE_NONE, R.NOTHING_PLACED)
    GAME.apply(state, 0, Place(IDS[num("flota-de-escolta")]))
    assert GAME.default_move(state, 0) is None  # already chosen: nothing to decide
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == DEVELOP_PAY and GAME.default_move(state, 0) is None  # a cost must be paid

    recycle, comet = num("reciclaje-fiscal"), num("cometa-confeti")
    network = num("red-de-comerciantes")
    comets = [comet, num("cometa-confeti", 1), num("cometa-confeti", 2)]
    state = arrange(
        2, hands={0: spare(3)}, tableau={0: [recycle, network, *comets], 1: [num("anillo-de-hielo")]}, goods=comets
    )
    choose(state, {0: "2x-pv", 1: "producir"})
    assert state.step == CONSUMING and GAME.default_move(state, 0) == (DONE, R.CONSUME)
    GAME.apply(state, 0, UsePower(IDS[network], 0))  # 3 eligible goods, takes 2: the seat picks
    assert GAME.default_move(state, 0) is None
    GAME.apply(state, 0, ConsumeGood(IDS[comets[0]]))
    GAME.apply(state, 0, ConsumeGood(IDS[comets[1]]))
    GAME.apply(state, 0, UsePower(IDS[recycle], 0))
    assert GAME.default_move(state, 0) == (DONE, R.CONSUME_HAND)
    GAME.apply(state, 0, Discard(IDS[state.hands[0][0]]))
    GAME.apply(state, 0, DONE)

    devs = [c for c, d in enumerate(DECK.defs) if d.is_development and d.cost == 6][:4]
    state = arrange(2, hands={0: [*devs, *spare(7, [num("anillo-de-hielo")])]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "desarrollar", 1: "desarrollar"})
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == HAND_LIMIT and GAME.default_move(state, 0) is None  # the excess must be discarded
    assert GAME.default_move(state, 1) is None and not GAME.legal_moves(state, 1)
    assert Keep(IDS[0]) not in GAME.legal_moves(state, 0)
    assert ChooseAction("asentar") not in GAME.legal_moves(state, 0)
