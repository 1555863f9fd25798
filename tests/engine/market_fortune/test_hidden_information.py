"""Hidden information in Market Fortune's decisions, one test per ruling it concerns.

Ruling informacion-oculta: whether a seat is asked a question, and the public prompt it is asked, must not
depend on what it holds. Ruling campeonato-cartas-bloqueadas: Campeonato blocks every building card a strategy
discards, face down, and the card is not named in public.
"""

from __future__ import annotations

from club_agentes.engine.market_fortune.components import CARD_INDEX, CARD_NAME

from tests.engine.market_fortune.helpers import EIGHT, FOUR_INVS, GAME, play, table
from tests.engine.market_fortune.helpers import public_decision as _public

# ---------------------------------------------------------------- ruling informacion-oculta


def test_informacion_oculta_dominar_asks_the_same_whatever_the_colour_taken() -> None:
    seen = {}
    for top in ("MF-E-FORTUNA-1", "MF-E-CONTROL-1", "MF-E-INNOVACION-1", "MF-E-AUGE-1"):
        st = table(hands={0: EIGHT}, strategy_top=[top])
        play(st, 0, "dominate")
        seen[top] = _public(st)
        assert CARD_NAME[CARD_INDEX[top]] not in seen[top]["prompt"]
        # The seat itself is shown the card it took.
        assert top in GAME.render(GAME.view(st, 0))
        play(st, 0, "skip")
        assert st.turn == 1
    assert len({str(v) for v in seen.values()}) == 1, seen


def test_informacion_oculta_no_question_after_dominar_once_a_red_was_used() -> None:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-FORTUNA-1"]}, strategy_top=["MF-E-LIQUIDEZ-1"])
    play(st, 0, "play MF-E-FORTUNA-1")
    play(st, 0, "dominate")
    assert st.turn == 1  # no red can follow: the table knows it, so nothing is asked


def test_informacion_oculta_formed_asks_whoever_holds_a_strategy() -> None:
    # Seat 0 holds a blue, no green: it is still asked about greens after forming.
    st = table(
        hands={0: ["MF-A-ENE-3", "MF-R-ENE-2"]},
        strategies={0: ["MF-E-SUERTUDO-1", "MF-E-CONTROL-1"]},
        strategy_top=["MF-E-ROBO-1"],
    )
    play(st, 0, "play MF-E-SUERTUDO-1", "risk MF-A-ENE-3 MF-R-ENE-2")
    asked_blue = _public(st)
    assert asked_blue["step"] == "formed"
    # The same with a green instead: the table cannot tell the two apart.
    st = table(
        hands={0: ["MF-A-ENE-3", "MF-R-ENE-2"]},
        strategies={0: ["MF-E-SUERTUDO-1", "MF-E-INNOVACION-1"]},
        strategy_top=["MF-E-ROBO-1"],
    )
    play(st, 0, "play MF-E-SUERTUDO-1", "risk MF-A-ENE-3 MF-R-ENE-2")
    assert _public(st) == asked_blue
    # Holding nothing but the Momentum card, nothing is asked (the count is public).
    st = table(
        hands={0: ["MF-A-ENE-3", "MF-R-ENE-2"]},
        strategies={0: ["MF-E-SUERTUDO-1"]},
        strategy_top=["MF-E-INNOVACION-1"],
    )
    play(st, 0, "play MF-E-SUERTUDO-1", "risk MF-A-ENE-3 MF-R-ENE-2")
    assert st.turn == 1


def test_informacion_oculta_declaring_asks_about_greens_whoever_holds_a_strategy() -> None:
    st = table(investments={0: [*FOUR_INVS[:3], ("MF-A-CON-1", "MF-R-CON-1")]}, strategies={0: ["MF-E-CONTROL-1"]})
    play(st, 0, "declare")
    assert st.step == "closing" and GAME.legal_moves(st, 0) == [GAME.parse_move("reveal")]
    play(st, 0, "reveal")
    assert st.step == "return"  # 22M: the declaration fails


def test_informacion_oculta_main_prompt_does_not_depend_on_the_hand() -> None:
    with_red = table(hands={0: EIGHT}, strategies={0: ["MF-E-FORTUNA-1"]})
    without = table(hands={0: EIGHT}, strategies={0: ["MF-E-CONTROL-1"]})
    assert _public(with_red) == _public(without)


# ---------------------------------------------------------------- ruling campeonato-cartas-bloqueadas


def test_campeonato_cartas_bloqueadas_movimiento_astuto_blocks_the_card_given() -> None:
    st = table(
        mode="campeonato",
        hands={0: EIGHT},
        strategies={0: ["MF-E-ASTUTO-1"]},
        discards={"return": ["MF-R-TEL-4"]},
    )
    events = play(st, 0, "play MF-E-ASTUTO-1 swap MF-A-CON-1 from return-discard")
    assert CARD_INDEX["MF-R-TEL-4"] in st.hands[0]
    assert st.facedown[CARD_INDEX["MF-A-CON-1"]]
    assert not any("MF-A-CON-1" in e for e in events)  # the face-down card is not named in public
    assert GAME.view(st, 1)["piles"]["stock"]["blocked"]
    assert "MF-A-CON-1" in GAME.hidden_ids(st, 1)
    # Outside Campeonato the card given lies face up.
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-ASTUTO-1"]}, discards={"return": ["MF-R-TEL-4"]})
    play(st, 0, "play MF-E-ASTUTO-1 swap MF-A-CON-1 from return-discard")
    assert GAME.view(st, 1)["piles"]["stock"]["discard_top"]["id"] == "MF-A-CON-1"
