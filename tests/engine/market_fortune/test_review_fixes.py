"""Defects found in review, one test each, named after the rule or ruling they concern.

Hidden information (ruling informacion-oculta): whether a seat is asked a question, and the
public prompt it is asked, must not depend on what it holds. Refusal messages must be true.
Campeonato blocks every building card a strategy discards (ruling campeonato-cartas-bloqueadas).
"""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_INDEX, CARD_NAME
from club_agentes.engine.market_fortune.flow import roll_off

from tests.engine.market_fortune.helpers import GAME, play, refused, table

EIGHT = ["MF-A-ENE-3", "MF-R-ENE-2", "MF-A-TEC-4", "MF-R-SAL-1", "MF-A-FIN-2", "MF-R-INM-5", "MF-A-CON-1", "MF-R-MAN-3"]
FOUR_INVS = [
    ("MF-A-TRA-5", "MF-R-TRA-3"),
    ("MF-A-AGR-4", "MF-R-AGR-4"),
    ("MF-A-MIN-3", "MF-R-MIN-2"),
    ("MF-A-ENT-2", "MF-R-ENT-2"),
]


def _public(st) -> dict:
    """What the table sees of the decision: the step and the prompt (spectator and rival views)."""
    spectator = GAME.view(st, None)
    rival = GAME.view(st, 1)
    assert spectator["decision"] == rival["decision"]
    return {"step": rival["turn"]["step"], "prompt": rival["decision"]["prompt"], "seats": rival["decision"]["seats"]}


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


# ---------------------------------------------------------------- prompts (market-fortune/cap-2/tu-turno)


def test_tu_turno_prompt_offers_only_what_the_table_allows() -> None:
    st = table(hands={0: EIGHT})
    prompt = _public(st)["prompt"]
    assert "optimise" not in prompt and "declare" not in prompt  # no investment yet
    assert "Arriesgar" in prompt and "red strategy" in prompt
    st = table(hands={0: EIGHT[:2]}, investments={0: FOUR_INVS[:3]})
    st.banned = True
    prompt = _public(st)["prompt"]
    assert "Arriesgar" not in prompt and "optimise" in prompt
    st = table(investments={0: FOUR_INVS})
    prompt = _public(st)["prompt"]
    assert "Arriesgar" not in prompt and "declare victory" in prompt
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-FORTUNA-1"]})
    play(st, 0, "play MF-E-FORTUNA-1")
    assert "red strategy" not in _public(st)["prompt"]


def test_familia_text_view_does_not_ask_for_25m() -> None:
    st = table(mode="familia", hands={0: EIGHT})
    text = GAME.render(GAME.view(st, 0))
    assert "25M" not in text and "first to form 4 investments" in text
    st = table(hands={0: EIGHT})
    assert "4 investments and 25M" in GAME.render(GAME.view(st, 0))


def test_primer_jugador_a_reroll_of_some_seats_is_not_called_everyone() -> None:
    texts: list[str] = []
    for seed in range(200):
        st = table(seats=4, seed=seed)
        ev: list[Event] = []
        roll_off(st, [1, 2], ev)
        texts.extend(e.text for e in ev)
    again = [t for t in texts if "nobody rolled" in t]
    assert again, "no seed made both seats roll +"
    assert all("everyone" not in t and "seats 1, 2 roll again" in t for t in again)


# ---------------------------------------------------------------- refusals tell the truth


def test_verde_attaching_a_building_card_from_the_hand_says_what_it_is() -> None:
    st = table(
        hands={0: ["MF-A-ENE-3", "MF-R-ENE-2", "MF-A-TEC-1"]},
        strategies={0: ["MF-E-SUERTUDO-1", "MF-E-INNOVACION-1"]},
    )
    play(st, 0, "play MF-E-SUERTUDO-1", "risk MF-A-ENE-3 MF-R-ENE-2")
    err = refused(st, 0, "attach MF-A-TEC-1 0")
    assert err.rule_id == rid.GREEN
    assert "building card" in err.message and "do not hold" not in err.message


def test_sistema_de_combate_defending_with_a_building_card_says_what_it_is() -> None:
    st = table(hands={0: EIGHT, 1: ["MF-A-TEL-1"]}, strategies={0: ["MF-E-ROBO-1"], 1: ["MF-E-FORTUNA-1"]})
    play(st, 0, "play MF-E-ROBO-1 target=1")
    err = refused(st, 1, "defend MF-A-TEL-1")
    assert err.rule_id == rid.COMBAT
    assert "building card" in err.message and "do not hold" not in err.message


def test_optimizacion_refusal_counts_investments_in_good_english() -> None:
    st = table(hands={0: ["MF-A-ENE-5"]}, investments={0: [("MF-A-ENE-1", "MF-R-ENE-1")]})
    err = refused(st, 0, "optimise 2 MF-A-ENE-5")
    assert err.rule_id == rid.OPTIMISATION
    assert "1 investment," in err.message and "1 investments" not in err.message
    err = refused(table(hands={0: EIGHT}), 0, "declare")
    assert "you have no investment" in err.message or "0 investments" in err.message


# ---------------------------------------------------------------- ruling campeonato-cartas-bloqueadas


def test_campeonato_cartas_bloqueadas_movimiento_astuto_blocks_the_card_given() -> None:
    st = table(
        mode="campeonato",
        hands={0: EIGHT},
        strategies={0: ["MF-E-ASTUTO-1"]},
        discards={"return": ["MF-R-TEL-4"]},
    )
    events = play(st, 0, "play MF-E-ASTUTO-1 swap=MF-A-CON-1 source=return-discard")
    assert CARD_INDEX["MF-R-TEL-4"] in st.hands[0]
    assert st.facedown[CARD_INDEX["MF-A-CON-1"]]
    assert not any("MF-A-CON-1" in e for e in events)  # the face-down card is not named in public
    assert GAME.view(st, 1)["piles"]["stock"]["blocked"]
    assert "MF-A-CON-1" in GAME.hidden_ids(st, 1)
    # Outside Campeonato the card given lies face up.
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-ASTUTO-1"]}, discards={"return": ["MF-R-TEL-4"]})
    play(st, 0, "play MF-E-ASTUTO-1 swap=MF-A-CON-1 source=return-discard")
    assert GAME.view(st, 1)["piles"]["stock"]["discard_top"]["id"] == "MF-A-CON-1"
