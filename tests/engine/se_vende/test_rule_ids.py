"""One test per rule id the engine cites, asserting the refusal's ``IllegalMove.rule_id``.

Every refusal is checked to leave the state untouched (``helpers.refused``).
"""

from __future__ import annotations

import sys

import pytest
from club_agentes.engine.core import InvalidMove
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.moves import (
    PLACE_NONE,
    ChooseAction,
    ConsumeGood,
    Discard,
    Done,
    Keep,
    Pay,
    Place,
    Produce,
    Sell,
    UsePower,
)
from club_agentes.engine.se_vende.state import CONSUMING, DEVELOP_PAY, OVER

from tests.engine.se_vende.helpers import DECK, GAME, arrange, choose, cid, num, place_none_for, refused, spare

IDS = DECK.ids


def _test_name(rule_id: str) -> str:
    return "test_rule_" + rule_id.replace("/", "_").replace("-", "_")


@pytest.mark.parametrize("rule_id", sorted(R.CITED))
def test_every_cited_rule_has_its_test(rule_id: str) -> None:
    assert hasattr(sys.modules[__name__], _test_name(rule_id)), f"write {_test_name(rule_id)}"


def test_rule_se_vende_resumen_eleccion_secreta() -> None:
    state = arrange(2)
    GAME.apply(state, 0, ChooseAction("producir"))
    assert refused(state, 0, ChooseAction("asentar")).rule_id == R.SECRET_CHOICE
    assert refused(state, 1, Keep(IDS[0])).rule_id == R.SECRET_CHOICE


def test_rule_se_vende_preparacion_paso_5_descarte() -> None:
    state = GAME.new_game(GAME.make_config(2), 3)
    assert refused(state, 0, Discard(IDS[state.hands[1][0]])).rule_id == R.SETUP_DISCARD
    assert refused(state, 0, ChooseAction("asentar")).rule_id == R.SETUP_DISCARD


def test_rule_se_vende_preguntas_mundos_militares() -> None:
    hive = num("colmena-salvaje")
    state = arrange(2, hands={0: [hive]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "asentar", 1: "asentar"})
    err = refused(state, 0, Place(IDS[hive]))
    assert err.rule_id == R.MILITARY and "defence 4" in err.message


def test_rule_se_vende_preguntas_comercio() -> None:
    comet = num("cometa-confeti")
    state = arrange(2, tableau={0: [comet, num("trueque-orbital")], 1: [num("anillo-de-hielo")]}, goods=[comet])
    choose(state, {0: "2x-pv", 1: "producir"})
    err = refused(state, 0, Sell(IDS[comet]))
    assert err.rule_id == R.TRADE and "only seats that chose Consumir: Comercio" in err.message


def test_rule_se_vende_preguntas_poderes_hasta_n_bienes() -> None:
    comets = [num("cometa-confeti", i) for i in range(3)]
    network = num("red-de-comerciantes")
    state = arrange(2, tableau={0: [network, *comets], 1: [num("anillo-de-hielo")]}, goods=comets)
    choose(state, {0: "2x-pv", 1: "producir"})
    GAME.apply(state, 0, UsePower(IDS[network], 0))
    GAME.apply(state, 0, ConsumeGood(IDS[comets[0]]))
    assert refused(state, 0, Done()).rule_id == R.UP_TO_N
    assert refused(state, 0, ConsumeGood(IDS[comets[0]])).rule_id == R.UP_TO_N


def test_rule_se_vende_preguntas_limite_de_mano() -> None:
    devs = [c for c, d in enumerate(DECK.defs) if d.is_development][:11]
    state = arrange(2, hands={0: devs, 1: spare(2)}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "producir", 1: "producir"})
    assert GAME.pending(state).seats == (0,)
    assert refused(state, 1, Discard(IDS[state.hands[1][0]])).rule_id == R.HAND_LIMIT
    assert refused(state, 0, Discard(IDS[state.hands[1][0]])).rule_id == R.HAND_LIMIT
    assert refused(state, 0, Done()).rule_id == R.HAND_LIMIT


def test_rule_se_vende_preguntas_producir() -> None:
    comet, rare, factory = num("cometa-confeti"), num("asteroide-herrumbre"), num("fabrica-de-juguetes-flotantes")
    state = arrange(2, tableau={0: [comet, factory], 1: [rare]})
    choose(state, {0: "producir", 1: "desarrollar"})
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    assert refused(state, 1, Produce(IDS[rare])).rule_id == R.PRODUCE  # not a chooser
    assert refused(state, 0, Produce(IDS[factory])).rule_id == R.PRODUCE  # not a windfall world
    assert refused(state, 0, Produce(IDS[rare])).rule_id == R.PRODUCE  # not its world


def test_rule_se_vende_fin_de_la_partida() -> None:
    state = arrange(2, turn_limit=1)
    choose(state, {0: "desarrollar", 1: "desarrollar"})
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == OVER
    assert refused(state, 0, ChooseAction("asentar")).rule_id == R.GAME_END
    assert GAME.legal_moves(state, 0) == []


def test_se_vende_rulings_decisiones_refusal_says_why_the_seat_is_not_deciding() -> None:
    state = GAME.new_game(GAME.make_config(2), 3)
    for c in list(state.hands[0][:2]):
        GAME.apply(state, 0, Discard(IDS[c]))
    err = refused(state, 0, Discard(IDS[state.hands[0][0]]))
    assert err.rule_id == R.DECISIONS and "already discarded its two cards" in err.message
    assert "seat 1 must decide" in err.message

    flota = num("flota-de-escolta")
    state = arrange(2, hands={0: [flota, *spare(3)]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "desarrollar", 1: "explorar-1-1"})
    keep = [GAME.legal_moves(state, s)[0] for s in (0, 1)]
    GAME.apply(state, 0, keep[0])
    err = refused(state, 0, Keep(IDS[state.drawn[1][0]]))
    assert "already kept every card it may keep" in err.message
    GAME.apply(state, 1, keep[1])
    GAME.apply(state, 1, GAME.legal_moves(state, 1)[0])
    GAME.apply(state, 0, Place(IDS[flota]))
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == DEVELOP_PAY
    err = refused(state, 1, Pay(IDS[state.hands[1][0]]))
    assert err.rule_id == R.DECISIONS and "owes no card for a placement in this Desarrollar phase" in err.message


def test_rule_se_vende_rulings_decisiones() -> None:
    flota = num("flota-de-escolta")
    state = arrange(2, hands={0: [flota, *spare(3)]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "desarrollar", 1: "producir"})
    GAME.apply(state, 0, Place(IDS[flota]))
    assert refused(state, 0, PLACE_NONE).rule_id == R.DECISIONS  # already chose what to place
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == DEVELOP_PAY
    assert refused(state, 1, Pay(IDS[state.hands[0][0]])).rule_id == R.DECISIONS
    with pytest.raises(InvalidMove, match="seat must be a whole number from 0 to 1"):
        GAME.apply(state, 5, Pay(IDS[state.hands[0][0]]))  # not a seat: the same InvalidMove in every game


def test_rule_se_vende_rulings_explorar() -> None:
    state = arrange(2)
    choose(state, {0: "explorar-5", 1: "explorar-5"})
    assert refused(state, 0, Keep(IDS[state.drawn[1][0]])).rule_id == R.EXPLORE
    assert refused(state, 0, Discard(IDS[state.drawn[0][0]])).rule_id == R.EXPLORE


def test_rule_se_vende_rulings_desarrollar() -> None:
    ring = num("anillo-de-hielo")
    state = arrange(2, hands={0: [ring, *spare(2, [ring])]}, tableau={0: [num("faro-de-orion")]})
    choose(state, {0: "desarrollar", 1: "desarrollar"})
    err = refused(state, 0, Place(IDS[ring]))
    assert err.rule_id == R.DEVELOP and "is a world" in err.message
    assert refused(state, 0, Place(cid("flota-de-escolta"))).rule_id == R.DEVELOP  # not in hand
    assert refused(state, 0, Pay(IDS[ring])).rule_id == R.DEVELOP


def test_rule_se_vende_rulings_asentar() -> None:
    flota = num("flota-de-escolta")
    state = arrange(2, hands={0: [flota, *spare(3)]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "asentar", 1: "asentar"})
    err = refused(state, 0, Place(IDS[flota]))
    assert err.rule_id == R.SETTLE and "is a development" in err.message


def test_rule_se_vende_rulings_pagar_costos() -> None:
    capital = num("capital-flotante")  # cost 5
    fill = spare(3, [capital])
    state = arrange(2, hands={0: [capital, *fill]}, tableau={0: [num("bastion-de-hierro")]})
    choose(state, {0: "asentar", 1: "asentar"})
    err = refused(state, 0, Place(IDS[capital]))
    assert err.rule_id == R.PAYING and "only 3 other cards" in err.message
    assert Place(IDS[fill[0]]) in GAME.legal_moves(state, 0)
    GAME.apply(state, 0, Place(IDS[fill[0]]))
    GAME.apply(state, 1, PLACE_NONE)
    assert refused(state, 0, Pay(IDS[fill[0]])).rule_id == R.PAYING  # no longer in hand: placed
    assert refused(state, 0, Keep(IDS[fill[1]])).rule_id == R.PAYING


def test_rule_se_vende_rulings_consumir() -> None:
    comets = [num("cometa-confeti", i) for i in range(3)]
    barter, network = num("trueque-orbital"), num("red-de-comerciantes")
    park = num("parque-holografico")
    state = arrange(2, tableau={0: [barter, network, *comets], 1: [park]}, goods=[*comets, park])
    choose(state, {0: "2x-pv", 1: "producir"})
    assert state.step == CONSUMING
    assert refused(state, 0, UsePower(IDS[barter], 0)).rule_id == R.CONSUME  # power 0 is a trade bonus
    assert refused(state, 0, ConsumeGood(IDS[comets[0]])).rule_id == R.CONSUME  # no power in use
    assert refused(state, 0, Keep(IDS[comets[0]])).rule_id == R.CONSUME
    GAME.apply(state, 0, UsePower(IDS[barter], 1))
    GAME.apply(state, 0, ConsumeGood(IDS[comets[0]]))
    assert refused(state, 0, UsePower(IDS[barter], 1)).rule_id == R.CONSUME  # once per phase
    GAME.apply(state, 0, Done())
    assert refused(state, 0, Done()).rule_id == R.CONSUME  # finished consuming


def test_rule_se_vende_rulings_poderes_de_mano() -> None:
    recycle, comet = num("reciclaje-fiscal"), num("cometa-confeti")
    fill = spare(3)
    state = arrange(2, hands={0: fill}, tableau={0: [recycle, comet], 1: [num("anillo-de-hielo")]}, goods=[comet])
    choose(state, {0: "2x-pv", 1: "producir"})
    assert refused(state, 0, Discard(IDS[fill[0]])).rule_id == R.CONSUME_HAND  # no hand power in use
    GAME.apply(state, 0, UsePower(IDS[recycle], 0))
    assert refused(state, 0, Discard(IDS[comet])).rule_id == R.CONSUME_HAND  # not in hand
    GAME.apply(state, 0, Discard(IDS[fill[0]]))
    GAME.apply(state, 0, Done())  # a hand power may stop early
    assert state.chips[0] == 1 and len(state.hands[0]) == 2


def test_rule_se_vende_rulings_limite_de_rondas() -> None:
    state = arrange(3, turn_limit=2)
    for _ in range(2):
        choose(state, {0: "desarrollar", 1: "desarrollar", 2: "desarrollar"})
        for seat in range(3):
            GAME.apply(state, seat, PLACE_NONE)
    result = GAME.result(state)
    assert result is not None and result.rule_id == R.TURN_LIMIT and "turn limit of 2 rounds" in result.reason


def test_rule_se_vende_rulings_empates() -> None:
    state = arrange(2, tableau={0: [num("anillo-de-hielo", 0)], 1: [num("anillo-de-hielo", 1)]}, turn_limit=1)
    choose(state, {0: "desarrollar", 1: "desarrollar"})
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    result = GAME.result(state)
    assert result is not None and result.winners == (0, 1) and R.TIES in result.reason


def test_rule_se_vende_preguntas_no_colocar_nada() -> None:
    state = arrange(2, hands={0: [num("flota-de-escolta"), *spare(3)]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "desarrollar", 1: "producir"})
    for seat in (0, 1):
        assert PLACE_NONE in GAME.legal_moves(state, seat)
        assert GAME.default_move(state, seat) == (PLACE_NONE, R.NOTHING_PLACED)


def test_rule_se_vende_rulings_producir() -> None:
    comet = num("cometa-confeti")
    state = arrange(2, tableau={0: [comet], 1: [num("anillo-de-hielo")]})
    choose(state, {0: "producir", 1: "producir"})
    assert GAME.legal_moves(state, 0) == [Produce(IDS[comet]), Done()]
    assert GAME.default_move(state, 0) == (Done(), R.PRODUCE_CHOICE)
    assert GAME.default_move(state, 1) is None  # not deciding


def _finished_game() -> tuple:
    empire = num("imperio-de-las-mareas")
    state = arrange(2, tableau={0: [empire, num("fortaleza-ambar")]}, chips={0: 3, 1: 2}, turn_limit=1)
    choose(state, {0: "desarrollar", 1: "desarrollar"})
    place_none_for(state, (0, 1))
    result = GAME.result(state)
    assert result is not None
    return state, result


def test_rule_se_vende_puntuacion() -> None:
    state, result = _finished_game()
    lines = result.breakdown[0].lines
    tableau = [x for x in lines if x.label.startswith("tableau:")]
    assert len(tableau) == len(state.tableau[0]) and all(x.rule_id == R.SCORING for x in tableau)
    assert R.SCORING in result.reason


def test_rule_se_vende_rulings_fichas() -> None:
    _, result = _finished_game()
    for seat, chips in ((0, 3), (1, 2)):
        line = next(x for x in result.breakdown[seat].lines if x.label == "victory chips")
        assert line.amount == chips and line.rule_id == R.CHIPS
