"""Market Fortune's words tell the truth: the prompt offers only what the table allows, the text view states the
mode's goal, event texts name who they concern, and refusal sentences say what the refused card is and count
in good English.
"""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.flow import roll_off

from tests.engine.market_fortune.helpers import EIGHT, FOUR_INVS, GAME, play, refused, table
from tests.engine.market_fortune.helpers import public_decision as _public

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
    play(st, 0, "play MF-E-ROBO-1 against seat 1")
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
