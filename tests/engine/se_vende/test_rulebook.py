"""One test per answered rules question of the rulebook, named after its section id.

Covers every paragraph after the setup list (se-vende/puntuacion,
se-vende/fin-de-la-partida and se-vende/preguntas/...), plus the overview's
secret choice and "only chosen phases run".
"""

from __future__ import annotations

import json

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
from club_agentes.engine.se_vende.scoring import score
from club_agentes.engine.se_vende.state import (
    CONSUMING,
    DEVELOP_PAY,
    DEVELOP_PLACE,
    HAND_LIMIT,
    OVER,
    PRODUCING,
    SELECT,
    SETTLE_PLACE,
)
from club_agentes.engine.se_vende.table import award, military

from tests.engine.se_vende.helpers import (
    DECK,
    GAME,
    arrange,
    choose,
    cid,
    num,
    refused,
    spare,
    texts,
)

IDS = DECK.ids


def _ids(cards: list[int]) -> list[str]:
    return [IDS[c] for c in cards]


def test_se_vende_resumen_eleccion_secreta() -> None:
    state = arrange(3)
    before = {seat: GAME.view(state, seat) for seat in (1, 2, None)}
    GAME.apply(state, 0, ChooseAction("asentar"))
    pending = GAME.pending(state)
    assert pending.kind == "simultaneous" and pending.seats == (1, 2) and pending.done == (0,)
    view = GAME.view(state, 1)
    assert "SV-R001-S0" not in json.dumps(view)
    assert view["actions"]["mine"] is None
    for seat, seen in before.items():  # another seat's sealed choice changes nobody else's view
        assert GAME.view(state, seat) == seen
    assert "revealed" not in view["actions"]
    assert "SV-R001-S0-SET" in GAME.hidden_ids(state, 1)
    mine = GAME.view(state, 0)["actions"]["mine"]
    assert mine["code"] == "asentar" and mine["sealed"] is True
    events = choose(state, {1: "producir", 2: "producir"})
    revealed = [e for e in events if e.data and "actions" in e.data]
    assert len(revealed) == 1 and revealed[0].audience is None
    assert revealed[0].data["actions"]["0"]["code"] == "asentar"


def test_se_vende_resumen_fases_elegidas() -> None:
    state = arrange(3)
    events = choose(state, {0: "producir", 1: "explorar-5", 2: "producir"})
    public = texts(events)
    reveal = next(t for t in public if t.startswith("action cards revealed"))
    assert reveal.endswith("phases this round: Explorar, Producir")
    assert state.phase == 1  # Explorar (I) runs before Producir (V); nothing else runs
    assert state.phases == [5]
    while state.round == 1:
        seat = GAME.pending(state).seats[0]
        GAME.apply(state, seat, GAME.legal_moves(state, seat)[-1])
    assert state.step == SELECT
    assert not any("Desarrollar" in t or "Asentar:" in t for t in public)


def test_se_vende_preguntas_fase_elegida_por_varios() -> None:
    devs = [num("flota-de-escolta"), num("red-de-comerciantes"), num("banco-de-semillas")]
    table = {i: [num("anillo-de-hielo", i)] for i in range(3)}
    fill = spare(12, devs, *table.values())
    hands = {i: [devs[i], *fill[4 * i : 4 * i + 4]] for i in range(3)}
    state = arrange(3, hands=hands, tableau=table)
    events = choose(state, {0: "desarrollar", 1: "desarrollar", 2: "producir"})
    assert state.step == DEVELOP_PLACE and GAME.pending(state).seats == (0, 1, 2)
    for seat in range(3):
        events += GAME.apply(state, seat, Place(IDS[devs[seat]]))
    assert state.step == DEVELOP_PAY
    assert state.todo == [2, 2, 3]  # everyone pays the full cost, the two choosers one card less
    for seat in range(3):
        for card in list(state.hands[seat])[: state.todo[seat]]:
            events += GAME.apply(state, seat, Pay(IDS[card]))
    assert [len(h) for h in state.hands] == [2, 2, 1]
    assert sum(1 for t in texts(events) if t.startswith("Desarrollar: every seat")) == 1  # run once
    assert state.step == SELECT and state.round == 2


def test_se_vende_preguntas_no_colocar_nada() -> None:
    hands = {0: [num("flota-de-escolta"), *spare(3)], 1: [num("cometa-confeti"), *spare(3, spare(3))]}
    state = arrange(2, hands=hands)
    before_tableau = [list(t) for t in state.tableau]
    before_hands = [len(h) for h in state.hands]
    choose(state, {0: "desarrollar", 1: "asentar"})
    assert PLACE_NONE in GAME.legal_moves(state, 0)
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == SETTLE_PLACE
    GAME.apply(state, 0, PLACE_NONE)
    events = GAME.apply(state, 1, PLACE_NONE)
    assert state.tableau == before_tableau
    assert [len(h) for h in state.hands] == before_hands  # no Asentar bonus card without a world placed
    assert "seat 1 places nothing in Asentar" in texts(events)
    assert state.step == SELECT and state.round == 2


def test_se_vende_preguntas_mundos_militares() -> None:
    fort, shipyard = num("fortaleza-ambar"), num("astillero-menor")
    fill = spare(3)
    state = arrange(
        2,
        hands={0: [fort, shipyard, *fill[:2]], 1: [fill[2]]},
        tableau={0: [num("bastion-de-hierro")], 1: [num("anillo-de-hielo")]},
    )
    assert military(state, 0) == 2
    choose(state, {0: "asentar", 1: "producir"})
    assert Place(IDS[fort]) not in GAME.legal_moves(state, 0)
    err = refused(state, 0, Place(IDS[fort]))
    assert err.rule_id == "se-vende/preguntas/mundos-militares"
    assert "defence 3" in err.message and "Militar is 2" in err.message
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    assert state.round == 2
    choose(state, {0: "desarrollar", 1: "asentar"})
    GAME.apply(state, 0, Place(IDS[shipyard]))  # cost 1 - 1 (Desarrollar bonus) = free
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == SETTLE_PLACE and military(state, 0) == 3
    hand_before = len(state.hands[0])
    GAME.apply(state, 0, Place(IDS[fort]))
    GAME.apply(state, 1, PLACE_NONE)
    assert fort in state.tableau[0]
    assert len(state.hands[0]) == hand_before - 1  # placed free: no card paid
    assert fort in state.goods  # windfall (halo) good received on placing
    assert military(state, 0) == 3  # Militar is not spent, and nothing carries over


def test_se_vende_preguntas_bienes_de_caida() -> None:
    comet, factory = num("cometa-confeti"), num("fabrica-de-juguetes-flotantes")
    fill = spare(2)
    state = arrange(2, hands={0: [comet, *fill]}, tableau={0: [num("anillo-de-hielo")], 1: [factory]})
    choose(state, {0: "asentar", 1: "producir"})
    GAME.apply(state, 0, Place(IDS[comet]))
    GAME.apply(state, 1, PLACE_NONE)
    GAME.apply(state, 0, Pay(IDS[state.hands[0][0]]))
    # Producir ran for seat 1 (no windfall world empty there); seat 0's windfall good came once, when placed.
    assert comet in state.goods and factory in state.goods
    good = state.goods[comet]
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        entry = next(c for c in view["players"][0]["tableau"] if c["id"] == IDS[comet])
        assert entry["good"] == "novedad"  # the kind (the halo's colour) is public
        assert IDS[good] not in json.dumps(view)  # the card used as a good is not
        assert IDS[good] in GAME.hidden_ids(state, seat)
    # A windfall world does not refill in Producir unless a bonus or power produces on it.
    del state.goods[comet]
    state.discard.append(good)
    assert state.round == 2 and state.step == SELECT
    choose(state, {0: "desarrollar", 1: "producir"})
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    assert comet not in state.goods


def test_se_vende_preguntas_comercio() -> None:
    ruins, jungle, rare = num("ruinas-cantoras"), num("jungla-bioluminiscente"), num("asteroide-herrumbre")
    state = arrange(
        2,
        tableau={0: [ruins, jungle, num("trueque-orbital")], 1: [rare, num("red-de-comerciantes")]},
        goods=[ruins, jungle, rare],
    )
    choose(state, {0: "comercio", 1: "2x-pv"})
    assert state.step == CONSUMING
    assert GAME.legal_moves(state, 0) == [Sell(IDS[ruins]), Sell(IDS[jungle])]  # selling comes first
    err = refused(state, 0, UsePower(cid("trueque-orbital"), 1))
    assert err.rule_id == "se-vende/preguntas/comercio"
    err = refused(state, 1, Sell(IDS[rare]))  # only Comercio choosers may sell
    assert err.rule_id == "se-vende/preguntas/comercio"
    hand = len(state.hands[0])
    GAME.apply(state, 0, Sell(IDS[ruins]))
    assert len(state.hands[0]) == hand + 5 + 1  # tecnología alienígena: 5, plus Trueque Orbital's +1
    assert ruins not in state.goods and jungle in state.goods
    err = refused(state, 0, Sell(IDS[jungle]))  # exactly one good
    assert err.rule_id == "se-vende/preguntas/comercio"
    assert UsePower(cid("trueque-orbital"), 1) in GAME.legal_moves(state, 0)


def test_se_vende_preguntas_comercio_precios() -> None:
    for key, price in (
        ("ruinas-cantoras", 5),
        ("jungla-bioluminiscente", 4),
        ("asteroide-herrumbre", 3),
        ("cometa-confeti", 2),
    ):
        world = num(key)
        state = arrange(2, tableau={0: [world], 1: [num("anillo-de-hielo")]}, goods=[world])
        choose(state, {0: "comercio", 1: "producir"})
        hand = len(state.hands[0])
        GAME.apply(state, 0, Sell(IDS[world]))
        assert len(state.hands[0]) == hand + price, key


def test_se_vende_preguntas_poderes_hasta_n_bienes() -> None:
    comets = [num("cometa-confeti", i) for i in range(3)]
    chamber = num("camara-de-comercio-galactica")
    state = arrange(2, tableau={0: [chamber, *comets], 1: [num("anillo-de-hielo")]}, goods=comets)
    choose(state, {0: "2x-pv", 1: "producir"})
    GAME.apply(state, 0, UsePower(IDS[chamber], 0))
    assert not any(c in state.goods for c in comets)  # three goods of the right kind: all three go
    assert state.chips[0] == 3 * 1 * 2
    # With more eligible goods than the power takes, the seat picks which, and may not stop early.
    rare = num("asteroide-herrumbre")
    state = arrange(2, tableau={0: [chamber, *comets, rare], 1: [num("anillo-de-hielo")]}, goods=[*comets, rare])
    choose(state, {0: "2x-pv", 1: "producir"})
    GAME.apply(state, 0, UsePower(IDS[chamber], 0))
    assert GAME.legal_moves(state, 0) == [ConsumeGood(IDS[w]) for w in (*comets, rare)]
    GAME.apply(state, 0, ConsumeGood(IDS[rare]))
    err = refused(state, 0, Done())
    assert err.rule_id == "se-vende/preguntas/poderes-hasta-n-bienes"
    GAME.apply(state, 0, ConsumeGood(IDS[comets[0]]))
    GAME.apply(state, 0, ConsumeGood(IDS[comets[1]]))
    assert state.chips[0] == 6 and comets[2] in state.goods
    assert state.step == SELECT  # no other power: seat 0 had nothing more to consume


def test_se_vende_preguntas_bonus_2x_pv() -> None:
    comets = [num("cometa-confeti", i) for i in range(2)]
    network, recycle = num("red-de-comerciantes"), num("reciclaje-fiscal")
    fill = spare(4)
    state = arrange(
        2,
        hands={0: fill},
        tableau={0: [network, recycle, *comets], 1: [num("anillo-de-hielo")]},
        goods=comets,
    )
    choose(state, {0: "2x-pv", 1: "producir"})
    GAME.apply(state, 0, UsePower(IDS[network], 0))
    assert state.chips[0] == 2 * 1 * 2  # goods consumed with a power: doubled
    GAME.apply(state, 0, UsePower(IDS[recycle], 0))
    GAME.apply(state, 0, Discard(IDS[fill[0]]))
    events = GAME.apply(state, 0, Discard(IDS[fill[1]]))
    assert state.chips[0] == 4 + 2  # cards discarded from hand: 1 VP each, never doubled
    assert any("never doubled" in t for t in texts(events))


def test_se_vende_preguntas_limite_de_mano() -> None:
    cards = [c for c, d in enumerate(DECK.defs) if d.is_development][:22]
    state = arrange(2, hands={0: cards[:10], 1: cards[10:20]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "explorar-1-1", 1: "producir"})
    for seat in (0, 1):
        while GAME.legal_moves(state, seat) and state.step != HAND_LIMIT:
            GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    # After every chosen phase: seat 0 drew 3, kept 2 and holds 12; seat 1 drew 2, kept 1 and holds 11.
    assert state.step == HAND_LIMIT and state.phase == 0
    assert [len(h) for h in state.hands] == [12, 11]
    assert GAME.pending(state).seats == (0, 1)
    assert "revealed" in GAME.view(state, 0)["actions"]  # the action cards are not taken back yet
    GAME.apply(state, 1, Discard(IDS[state.hands[1][0]]))
    err = refused(state, 1, Discard(IDS[state.hands[1][0]]))
    assert err.rule_id == "se-vende/preguntas/limite-de-mano"
    first = state.hands[0][0]
    GAME.apply(state, 0, Discard(IDS[first]))
    assert first in state.discard  # face down to the discard pile
    GAME.apply(state, 0, Discard(IDS[state.hands[0][0]]))
    assert [len(h) for h in state.hands] == [10, 10]
    assert state.step == SELECT and state.round == 2


def test_se_vende_preguntas_producir() -> None:
    factory, mine, comet, rare = (
        num("fabrica-de-juguetes-flotantes"),
        num("minas-de-cobalto"),
        num("cometa-confeti"),
        num("asteroide-herrumbre"),
    )
    spores, jungle = num("vivero-de-esporas"), num("jungla-bioluminiscente")
    state = arrange(2, tableau={0: [factory, mine, comet, rare], 1: [spores, jungle]}, goods=[mine])
    old = state.goods[mine]
    choose(state, {0: "producir", 1: "producir"})
    assert state.step == PRODUCING
    assert factory in state.goods and state.goods[mine] == old and spores in state.goods
    assert GAME.legal_moves(state, 0) == [Produce(IDS[comet]), Produce(IDS[rare]), Done()]
    GAME.apply(state, 0, Produce(IDS[comet]))
    GAME.apply(state, 1, Produce(IDS[jungle]))
    assert comet in state.goods and rare not in state.goods and jungle in state.goods  # one windfall world each
    # A seat that did not choose Producir produces on production worlds only.
    state = arrange(2, tableau={0: [factory, comet], 1: [spores, jungle]})
    choose(state, {0: "producir", 1: "desarrollar"})
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    assert state.step == PRODUCING and GAME.pending(state).seats == (0,)
    err = refused(state, 1, Produce(IDS[jungle]))
    assert err.rule_id == "se-vende/preguntas/producir"
    assert spores in state.goods and jungle not in state.goods


def test_se_vende_preguntas_fichas_de_10() -> None:
    comets = [num("cometa-confeti", i) for i in range(3)]
    chamber = num("camara-de-comercio-galactica")
    state = arrange(2, tableau={0: [chamber, *comets], 1: [num("anillo-de-hielo")]}, goods=comets, pool=3)
    choose(state, {0: "2x-pv", 1: "producir"})
    events = GAME.apply(state, 0, UsePower(IDS[chamber], 0))
    assert state.chips[0] == 6  # every point earned is paid, though only 3 were left
    assert state.chips_out and state.tens_added and state.pool == 40 - 3
    assert any("10-point chips join" in t for t in texts(events))
    assert state.step == OVER and "last victory chip" in (GAME.result(state).reason)


def test_se_vende_preguntas_fichas_de_10_cambio_sin_limite() -> None:
    state = arrange(2, pool=2)
    events: list = []
    award(state, 1, 50, events)
    assert state.chips[1] == 50 and state.pool == 0 and state.chips_out


def test_se_vende_preguntas_poderes_nuevos() -> None:
    workshop = num("taller-de-prototipos")  # Desarrollar: -1 cost and draw 1 after placing
    fill = spare(5, [num("anillo-de-hielo")])
    state = arrange(2, hands={0: [workshop, *fill[:3]], 1: fill[3:]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "producir", 1: "desarrollar"})
    GAME.apply(state, 0, Place(IDS[workshop]))
    GAME.apply(state, 1, PLACE_NONE)
    assert state.todo[0] == 3  # its own discount does not count in the phase it is placed
    for card in list(state.hands[0]):
        GAME.apply(state, 0, Pay(IDS[card]))
    assert state.hands[0] == []  # nor does its own draw
    # A development placed in Desarrollar counts from Asentar of the same round.
    school, moon = num("escuela-de-pilotos"), num("luna-rebelde")
    fill = spare(3, [num("anillo-de-hielo")])
    state = arrange(2, hands={0: [school, moon, *fill[:2]]}, tableau={0: [num("anillo-de-hielo")]})
    choose(state, {0: "desarrollar", 1: "asentar"})
    GAME.apply(state, 0, Place(IDS[school]))
    GAME.apply(state, 1, PLACE_NONE)
    GAME.apply(state, 0, Pay(IDS[fill[0]]))
    assert state.step == SETTLE_PLACE and Place(IDS[moon]) in GAME.legal_moves(state, 0)
    # A world's settle-draw power does not draw for its own placement, but does the next time.
    dome, ring = num("cupula-azafran"), num("anillo-de-hielo")
    fill = spare(6, [dome, ring, num("faro-de-orion")])
    state = arrange(2, hands={0: [dome, ring, *fill]}, tableau={0: [num("faro-de-orion")]})
    choose(state, {0: "producir", 1: "asentar"})
    GAME.apply(state, 0, Place(IDS[dome]))
    GAME.apply(state, 1, PLACE_NONE)
    for card in fill[:3]:
        GAME.apply(state, 0, Pay(IDS[card]))
    assert len(state.hands[0]) == 4  # 8 - dome - 3 paid, no draw
    choose(state, {0: "producir", 1: "asentar"})
    GAME.apply(state, 0, Place(IDS[ring]))
    GAME.apply(state, 1, PLACE_NONE)
    for card in fill[3:5]:
        GAME.apply(state, 0, Pay(IDS[card]))
    assert len(state.hands[0]) == 4 - 1 - 2 + 1  # Cúpula Azafrán now draws


def test_se_vende_fin_de_la_partida() -> None:
    worlds = [c for c, d in enumerate(DECK.defs) if d.is_world and not d.start and d.world == "plain"][:11]
    comet, jungle = num("cometa-confeti"), num("jungla-bioluminiscente")
    fill = spare(1, worlds)
    state = arrange(2, hands={0: [comet, *fill]}, tableau={0: worlds, 1: [jungle]})
    choose(state, {0: "asentar", 1: "producir"})
    GAME.apply(state, 0, Place(IDS[comet]))
    GAME.apply(state, 1, PLACE_NONE)
    GAME.apply(state, 0, Pay(IDS[fill[0]]))
    assert len(state.tableau[0]) == 12
    assert state.step == PRODUCING and GAME.result(state) is None  # the round is played to its end
    GAME.apply(state, 1, Produce(IDS[jungle]))
    result = GAME.result(state)
    assert state.step == OVER and result is not None
    assert "12 or more tableau cards" in result.reason and result.rule_id == "se-vende/fin-de-la-partida"
    assert GAME.pending(state).kind == "over"


def test_se_vende_fin_de_la_partida_por_fichas() -> None:
    comets = [num("cometa-confeti", i) for i in range(2)]
    network, spores = num("red-de-comerciantes"), num("vivero-de-esporas")
    jungle = num("jungla-bioluminiscente")
    state = arrange(2, tableau={0: [network, *comets], 1: [spores, jungle]}, goods=comets, pool=2)
    choose(state, {0: "comercio", 1: "producir"})
    GAME.apply(state, 0, Sell(IDS[comets[0]]))
    GAME.apply(state, 0, UsePower(IDS[network], 0))  # 1 VP: one chip of 2 left
    assert not state.chips_out and state.pool == 1 and state.step == PRODUCING
    state2 = arrange(2, tableau={0: [network, *comets], 1: [spores, jungle]}, goods=comets, pool=2)
    choose(state2, {0: "2x-pv", 1: "producir"})
    GAME.apply(state2, 0, UsePower(IDS[network], 0))  # 2 goods x 1 VP x 2 = 4 VP: the last chip goes
    assert state2.chips_out and state2.chips[0] == 4
    assert state2.step == PRODUCING and GAME.result(state2) is None  # Producir still runs this round
    GAME.apply(state2, 1, Produce(IDS[jungle]))
    result = GAME.result(state2)
    assert result is not None and "last victory chip" in result.reason


def test_se_vende_puntuacion() -> None:
    empire = num("imperio-de-las-mareas")  # 2 PV per military world
    posts = [num("puesto-fronterizo", i) for i in range(2)]
    fort, ring = num("fortaleza-ambar"), num("anillo-de-hielo")
    council = num("concilio-de-arquitectos")  # 1 PV per development, +1 per cost-6 development
    state = arrange(
        2,
        tableau={0: [empire, *posts, fort, ring], 1: [council, num("oficina-de-patentes")]},
        chips={0: 5, 1: 1},
        turn_limit=1,
    )
    printed = 0 + 1 + 1 + 2 + 2
    assert score(state, 0) == printed + 5 + 2 * 3
    assert score(state, 1) == (0 + 1) + 1 + (2 + 1)
    choose(state, {0: "desarrollar", 1: "desarrollar"})
    GAME.apply(state, 0, PLACE_NONE)
    GAME.apply(state, 1, PLACE_NONE)
    result = GAME.result(state)
    assert result is not None and result.winners == (0,)
    assert result.scores == (float(score(state, 0)), float(score(state, 1)))
    assert result.rule_id == "se-vende/rulings/limite-de-rondas"
    view = GAME.view(state, 1)
    assert view["players"][0]["score"] == 17 and view["result"]["winners"] == [0]


def test_se_vende_rulings_empates() -> None:
    state = arrange(2, tableau={0: [num("anillo-de-hielo", 0)], 1: [num("anillo-de-hielo", 1)]}, turn_limit=1)
    choose(state, {0: "producir", 1: "producir"})
    result = GAME.result(state)
    assert result is not None and result.winners == (0, 1)
    assert "se-vende/rulings/empates" in result.reason


def test_se_vende_rulings_explorar() -> None:
    state = arrange(2, hands={0: spare(2), 1: spare(2, spare(2))}, tableau={0: [num("anillo-de-hielo")]})
    top = list(reversed(state.supply[-7:]))
    choose(state, {0: "explorar-5", 1: "producir"})
    assert state.drawn[0] == top and state.todo[0] == 1
    assert len(state.drawn[1]) == 2 and state.todo[1] == 1
    err = refused(state, 0, Keep(IDS[state.drawn[1][0]]))
    assert err.rule_id == "se-vende/rulings/explorar"
    GAME.apply(state, 0, Keep(IDS[top[3]]))
    assert top[3] in state.hands[0] and set(top) - {top[3]} <= set(state.discard)


def _answered_questions() -> list[str]:
    from club_agentes.rules_corpus import load_corpus

    toc = load_corpus().toc("se-vende")
    ids = [s.id for s in toc if s.kind == "rulebook" and s.parent == "se-vende/preguntas"]
    return [*ids, "se-vende/fin-de-la-partida", "se-vende/puntuacion"]


def test_every_answered_question_has_its_test() -> None:
    import sys

    module = sys.modules[__name__]
    questions = _answered_questions()
    assert len(questions) == 13
    missing = [q for q in questions if not hasattr(module, "test_" + q.replace("/", "_").replace("-", "_"))]
    assert not missing, f"no test named after {missing}"
