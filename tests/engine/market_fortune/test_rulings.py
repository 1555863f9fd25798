"""Three rulings of Market Fortune (issue 12, points 1-3), each test named after the rule it enforces, in its words.

1. Momentum and the win: "No puedes usarla ese mismo turno" and the glossary "se guarda (no se
   usa al ganar)" (ruling momentum-todo-el-turno).
2. Face-up investments are final: "Límite: las inversiones volteadas ya no se modifican" and
   "Una vez volteadas, no se modifican" (ruling inversiones-volteadas).
3. Campeonato: "Las cartas de construcción descartadas por una Estrategia se bloquean (la
   última, boca abajo sobre el descarte)": every card whose text discards building cards
   (ruling campeonato-cartas-bloqueadas).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX, STRATEGIES, strategy_by_name
from club_agentes.engine.market_fortune.state import State

from tests.engine.market_fortune.helpers import GAME, assert_conserved, hand_ids, play, refused, table

# 8M + 8M + 5M = 21M in three industries; a 4th of Energía 1M + 1M makes 23M, and Rey
# Diversificación (+4M with 4 industries) would make 27M.
THREE = [("MF-A-TRA-5", "MF-R-TRA-3"), ("MF-A-AGR-4", "MF-R-AGR-4"), ("MF-A-MIN-3", "MF-R-MIN-2")]
PAIR = ["MF-A-ENE-1", "MF-R-ENE-1"]
YELLOW = "MF-E-DIVERSIFICACION-1"
EIGHT = ["MF-A-ENE-3", "MF-R-ENE-2", "MF-A-TEC-4", "MF-R-SAL-1", "MF-A-FIN-2", "MF-R-INM-5", "MF-A-CON-1", "MF-R-MAN-3"]


# ---------------------------------------------------------------- 1. Momentum: "no se usa al ganar"


def _fourth_with_momentum_yellow() -> State:
    """Seat 0 forms its 4th investment (Inversor Suertudo) and Momentum gives it Rey Diversificación."""
    st = table(
        hands={0: PAIR, 1: ["MF-A-TEL-1"], 2: ["MF-A-TEL-2"], 3: ["MF-A-TEL-3"]},
        investments={0: THREE},
        strategies={0: ["MF-E-SUERTUDO-1", "MF-E-SUERTUDO-2"]},
        strategy_top=["MF-E-ROBO-1", YELLOW],  # the yellow is on top: Momentum takes it first
    )
    play(st, 0, "play MF-E-SUERTUDO-1", f"risk {PAIR[0]} {PAIR[1]}")
    assert st.step == "formed" and CARD_ID[st.momentum] == YELLOW
    return st


def test_regla_de_momentum_a_yellow_taken_by_momentum_does_not_count_at_a_win_that_turn() -> None:
    st = _fourth_with_momentum_yellow()
    assert GAME.view(st, 0)["portfolio_value"] == 23  # the yellow is not counted this turn
    events = play(st, 0, "declare", "reveal")
    assert any("fails with 23M" in e for e in events), events
    assert not st.over and st.step == "return"
    # Not revealed either: the other seats still do not know it.
    assert YELLOW in GAME.hidden_ids(st, 1) and YELLOW in GAME.hidden_ids(st, None)
    assert "known_to_all" not in GAME.view(st, 1)["players"][0]
    assert not any(YELLOW in e or "Rey Diversificación" in e for e in events)


def test_regla_de_momentum_that_yellow_counts_at_a_later_declaration() -> None:
    st = _fourth_with_momentum_yellow()
    play(st, 0, "declare", "reveal", "return investment 3")
    for seat in (1, 2, 3):
        play(st, seat, "build stock-deck")
    assert st.turn == 0 and sorted(hand_ids(st, 0)) == PAIR
    play(st, 0, "play MF-E-SUERTUDO-2", f"risk {PAIR[0]} {PAIR[1]}")  # Momentum now gives Robo
    events = play(st, 0, "declare", "reveal")
    result = GAME.result(st)
    assert st.over and result is not None and result.winners == (0,) and result.scores[0] == 27.0
    assert any("total 27M" in e for e in events)
    lines = {line.label: line.amount for line in result.breakdown[0].lines}
    assert lines["yellow Rey Diversificación"] == 4.0


# ---------------------------------------------------------------- 2. face-up investments are final


def _flipped(seat: int = 0, down: int = 1) -> list[tuple[object, ...]]:
    """Three face-up investments and ``down`` face-down ones, for ``seat``."""
    invs: list[tuple[object, ...]] = [(*inv, None, True) for inv in THREE]
    invs += [("MF-A-ENT-2", "MF-R-ENT-2", None, False)][:down]
    return invs


def test_inversiones_volteadas_no_green_is_attached_to_a_face_up_investment() -> None:
    st = table(investments={0: _flipped()}, strategies={0: ["MF-E-INNOVACION-1", "MF-E-MAXIMO-1"]})
    play(st, 0, "declare")
    assert st.step == "closing"
    attach = [m.text() for m in GAME.legal_moves(st, 0) if m.type == "attach"]
    assert attach == ["attach MF-E-INNOVACION-1 to investment 3", "attach MF-E-MAXIMO-1 to investment 3"]
    err = refused(st, 0, "attach MF-E-MAXIMO-1 to investment 0")
    assert err.rule_id == rid.RULING_FACE_UP and "face up" in err.message


def test_inversiones_volteadas_the_greens_question_is_not_asked_with_only_face_up_investments_free() -> None:
    invs = [*_flipped(down=0), ("MF-A-ENT-2", "MF-R-ENT-2", "MF-E-BAJA-1")]
    st = table(investments={0: invs}, strategies={0: ["MF-E-INNOVACION-1"]})
    play(st, 0, "declare")
    assert st.over  # counted at once (21M + 4M + 3M): no investment could take the green it holds


def test_inversiones_volteadas_correccion_chooses_only_a_face_down_investment() -> None:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-CORRECCION-1"]}, investments={1: _flipped()})
    plays = {m.text() for m in GAME.legal_moves(st, 0) if m.type == "play"}
    assert plays == {"play MF-E-CORRECCION-1 against seat 1 investment 3"}
    err = refused(st, 0, "play MF-E-CORRECCION-1 against seat 1 investment 0")
    assert err.rule_id == rid.RULING_FACE_UP


def test_inversiones_volteadas_colapso_de_mercado_takes_only_face_down_investments() -> None:
    st = table(
        hands={0: EIGHT},
        strategies={0: ["MF-E-COLAPSO-1"]},
        investments={1: _flipped(), 2: [("MF-A-SAL-3", "MF-R-SAL-3", None, True)]},
    )
    play(st, 0, "play MF-E-COLAPSO-1")
    assert st.attack is not None and st.attack.targets == (1,)  # seat 2 has only face-up investments
    play(st, 1, "decline")
    assert [CARD_ID[i.stock] for i in st.invs[1]] == [inv[0] for inv in THREE]
    assert all(i.face_up for i in st.invs[1]) and len(st.invs[2]) == 1
    assert_conserved(st)


def test_inversiones_volteadas_riesgo_sistemico_returns_the_newest_face_down_investment() -> None:
    for seed in range(1, 60):
        st = table(hands={0: EIGHT}, strategies={0: ["MF-E-SISTEMICO-1"]}, investments={1: _flipped()}, seed=seed)
        play(st, 0, "play MF-E-SISTEMICO-1")
        events = play(st, 1, "decline")
        if any("rolled −" in e for e in events):
            break
    else:
        pytest.fail("no seed rolled −")
    assert len(st.invs[1]) == 3 and all(i.face_up for i in st.invs[1])
    assert {"MF-A-ENT-2", "MF-R-ENT-2"} <= set(hand_ids(st, 1))


def test_inversiones_volteadas_auditoria_federal_discards_only_what_it_flipped() -> None:
    invs = [("MF-A-TEL-1", "MF-R-TEL-2", None, True), ("MF-A-TEL-3", "MF-R-TEL-1", None, False)]  # 3M up, 4M down
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-AUDITORIA-1"]}, investments={1: invs})
    play(st, 0, "play MF-E-AUDITORIA-1 against seat 1")
    play(st, 1, "decline")
    assert [(CARD_ID[i.stock], i.face_up) for i in st.invs[1]] == [("MF-A-TEL-1", True)]
    assert CARD_INDEX["MF-A-TEL-3"] in st.discards[0]


def test_inversiones_volteadas_no_optimisation_and_no_interes_compuesto_on_a_face_up_investment() -> None:
    st = table(
        hands={0: ["MF-A-TRA-1", "MF-R-TRA-5"]},
        strategies={0: ["MF-E-INTERES-1"]},
        investments={0: _flipped(down=0)},
    )
    assert not [m for m in GAME.legal_moves(st, 0) if m.type in ("optimise", "play")]
    assert refused(st, 0, "optimise investment 0 with MF-A-TRA-1").rule_id == rid.OPTIMISATION
    err = refused(st, 0, "play MF-E-INTERES-1 investment 0 swap MF-R-TRA-5")
    assert err.rule_id == strategy_by_name("Interés Compuesto").section


# ---------------------------------------------------------------- 3. Campeonato: every strategy discard blocks


def _colapso(mode: str) -> tuple[State, list[str]]:
    st = table(
        mode=mode,
        hands={0: EIGHT},
        strategies={0: ["MF-E-COLAPSO-1"]},
        investments={1: [("MF-A-TEL-1", "MF-R-TEL-1"), ("MF-A-TRA-2", "MF-R-TRA-2")]},
    )
    play(st, 0, "play MF-E-COLAPSO-1")
    return st, play(st, 1, "decline")


def _auditoria(mode: str) -> tuple[State, list[str]]:
    st = table(
        mode=mode,
        hands={0: EIGHT},
        strategies={0: ["MF-E-AUDITORIA-1"]},
        investments={1: [("MF-A-TEL-1", "MF-R-TEL-1"), ("MF-A-TRA-2", "MF-R-TRA-2")]},
    )
    play(st, 0, "play MF-E-AUDITORIA-1 against seat 1")
    return st, play(st, 1, "decline")


def _inflacion(mode: str) -> tuple[State, list[str]]:
    st = table(mode=mode, hands={0: EIGHT, 1: ["MF-A-TRA-2"]}, strategies={0: ["MF-E-INFLACION-1"]})
    play(st, 0, "play MF-E-INFLACION-1")
    return st, play(st, 1, "decline")


def _astuto(mode: str) -> tuple[State, list[str]]:
    st = table(mode=mode, hands={0: EIGHT}, strategies={0: ["MF-E-ASTUTO-1"]}, discards={"return": ["MF-R-TEL-4"]})
    return st, play(st, 0, "play MF-E-ASTUTO-1 swap MF-A-CON-1 from return-discard")


def _liquidez(mode: str) -> tuple[State, list[str]]:
    """Liquidez takes 2 cards; Dominar; at the end of the turn 2 discards: a $, then another $."""
    st = table(mode=mode, hands={0: EIGHT}, strategies={0: ["MF-E-LIQUIDEZ-1"]})
    play(st, 0, "play MF-E-LIQUIDEZ-1", "dominate")  # a red was used: Dominar ends the turn
    assert st.step == "trim"
    return st, play(st, 0, "discard MF-A-ENE-3", "discard MF-A-TEC-4")


def _comprar_mas(mode: str) -> tuple[State, list[str]]:
    """Comprar Más takes 1 card; Dominar; at the end of the turn 1 discard."""
    st = table(mode=mode, hands={0: EIGHT}, strategies={0: ["MF-E-COMPRAR-1"]})
    play(st, 0, "play MF-E-COMPRAR-1", "take return-deck", "dominate")
    assert st.step == "trim"
    return st, play(st, 0, "discard MF-R-MAN-3")


# Card name -> (scenario, the blocked top card, its pile, the cards under it turned face up).
DISCARDING_CARDS: dict[str, tuple[Callable[[str], tuple[State, list[str]]], str, str, list[str]]] = {
    "Colapso de Mercado": (_colapso, "MF-A-TRA-2", "stock", ["MF-A-TEL-1"]),
    "Auditoría Federal": (_auditoria, "MF-A-TRA-2", "stock", ["MF-A-TEL-1"]),
    "Inflación": (_inflacion, "MF-A-TRA-2", "stock", []),
    "Movimiento Astuto": (_astuto, "MF-A-CON-1", "stock", []),
    "Liquidez": (_liquidez, "MF-A-TEC-4", "stock", ["MF-A-ENE-3"]),
    "Comprar Más": (_comprar_mas, "MF-R-MAN-3", "return", []),
}


def test_campeonato_cartas_bloqueadas_every_card_that_discards_building_cards_is_covered() -> None:
    """The audit: the red cards whose text sends building cards to a discard pile are exactly these."""
    discarding = {
        s.name for s in STRATEGIES if s.colour == "roja" and ("descart" in s.text.lower() or "al descarte" in s.text)
    }
    assert discarding == set(DISCARDING_CARDS)


@pytest.mark.parametrize("name", sorted(DISCARDING_CARDS))
def test_campeonato_cartas_bloqueadas(name: str) -> None:
    scenario, top, pile, shown = DISCARDING_CARDS[name]
    st, events = scenario("campeonato")
    p = 0 if pile == "stock" else 1
    assert CARD_ID[st.discards[p][-1]] == top and st.facedown[CARD_INDEX[top]], (
        f"{name}: the last card is not face down"
    )
    view = GAME.view(st, 2)
    assert view["piles"][pile]["blocked"] and view["piles"][pile]["discard_top"] is None
    if name != "Auditoría Federal":
        assert top in GAME.hidden_ids(st, 2) and top in GAME.hidden_ids(st, None)
    else:  # Auditoría flips the investments face up first: every seat saw the card go there
        assert [c["id"] for c in view["piles"][pile]["face_down_you_know"]] == [top]
    assert not any(top in e for e in events), f"{name}: the face-down card is named in public"
    for card in shown:  # the cards under it lie face up, public
        assert not st.facedown[CARD_INDEX[card]] and card not in GAME.hidden_ids(st, 2)
    assert refused(st, st.turn, f"build {pile}-discard").rule_id == rid.RULING_BLOCKED
    # Outside Campeonato the same discard lies face up and can be taken.
    st, events = scenario("fortuna")
    assert not st.facedown[CARD_INDEX[top]] and GAME.view(st, 2)["piles"][pile]["discard_top"]["id"] == top
    assert_conserved(st)
