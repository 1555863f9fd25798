"""Fixed scenarios from the rulebook and the rulings, built with :func:`helpers.table`."""

from __future__ import annotations

import json

from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX
from club_agentes.engine.market_fortune.state import REACTION

from tests.engine.market_fortune.helpers import (
    GAME,
    assert_conserved,
    hand_ids,
    play,
    refused,
    strategy_ids,
    table,
)

# The rulebook's victory table: 5M+3M, 4M+4M, 3M+2M, 2M+2M = 25M (four industries).
VICTORY_TABLE = [
    ("MF-A-TRA-5", "MF-R-TRA-3"),
    ("MF-A-AGR-4", "MF-R-AGR-4"),
    ("MF-A-MIN-3", "MF-R-MIN-2"),
    ("MF-A-ENT-2", "MF-R-ENT-2"),
]
EIGHT = ["MF-A-ENE-3", "MF-R-ENE-2", "MF-A-TEC-4", "MF-R-SAL-1", "MF-A-FIN-2", "MF-R-INM-5", "MF-A-CON-1", "MF-R-MAN-3"]


def _pending_seat(st) -> int:
    return GAME.pending(st).seats[0]


# ---------------------------------------------------------------- victory


def test_victory_table_25m_wins() -> None:
    st = table(investments={0: VICTORY_TABLE})
    events = play(st, 0, "declare")
    assert st.over
    result = GAME.result(st)
    assert result is not None and result.winners == (0,) and result.scores[0] == 25.0
    assert result.rule_id == rid.FINAL_COUNT
    assert any("total 25M" in e for e in events)
    assert GAME.pending(st).kind == "over" and GAME.legal_moves(st, 0) == []


def test_failed_declaration_returns_one_investment_and_play_goes_on() -> None:
    table24 = [*VICTORY_TABLE[:3], ("MF-A-ENT-2", "MF-R-ENT-1")]
    st = table(investments={0: table24}, hands={1: EIGHT})
    events = play(st, 0, "declare")
    assert any("fails with 24M" in e for e in events)
    assert st.step == "return" and not st.over
    play(st, 0, "return 3")
    assert sorted(hand_ids(st, 0)) == ["MF-A-ENT-2", "MF-R-ENT-1"]
    assert len(st.invs[0]) == 3 and all(inv.face_up for inv in st.invs[0])  # the rest stay face up
    assert _pending_seat(st) == 1
    # Everyone now sees the flipped investments with their values.
    seen = GAME.view(st, 1)["players"][0]["investments"]
    assert [i["value"] for i in seen] == [8, 8, 5]
    assert_conserved(st)


def test_green_and_yellow_bonuses_count_at_the_declaration() -> None:
    invs = [*VICTORY_TABLE[:3], ("MF-A-ENT-1", "MF-R-ENT-1")]  # 23M face value
    st = table(investments={0: invs}, strategies={0: ["MF-E-INNOVACION-1", "MF-E-DIVERSIFICACION-1"]})
    play(st, 0, "declare")
    assert st.step == "closing"
    play(st, 0, "attach MF-E-INNOVACION-1 3")  # Acción 1M <= 2M: +3M
    # Still holding a strategy and with investments lacking a green, the seat is asked again
    # (the table cannot tell that the yellow left is no green: ruling informacion-oculta).
    assert st.step == "closing"
    events = play(st, 0, "reveal")
    assert st.over
    assert any("total 30M" in e for e in events)  # 23 + 3 (green) + 4 (four industries)
    assert GAME.result(st).winners == (0,)


def test_familia_fourth_investment_wins_at_once() -> None:
    st = table(
        mode="familia",
        hands={0: ["MF-A-ENE-1", "MF-R-ENE-1"]},
        investments={0: VICTORY_TABLE[:3]},
        strategies={0: ["MF-E-SUERTUDO-1"]},
    )
    play(st, 0, "play MF-E-SUERTUDO-1", "risk MF-A-ENE-1 MF-R-ENE-1")
    result = GAME.result(st)
    assert st.over and result.winners == (0,) and result.rule_id == rid.FAMILIA
    assert result.scores[0] == 4.0


# ---------------------------------------------------------------- combat


def _collapse_table(defender_blue: str | None = None):
    strategies = {0: ["MF-E-COLAPSO-1"]}
    if defender_blue:
        strategies[1] = [defender_blue]
    return table(
        hands={0: EIGHT, 1: ["MF-A-SAL-2", "MF-R-SAL-2", "MF-A-TEL-1", "MF-R-TEL-1"]},
        strategies=strategies,
        investments={1: VICTORY_TABLE[:2], 3: VICTORY_TABLE[2:3]},
    )


def test_colapso_de_mercado_without_defence() -> None:
    st = _collapse_table()
    events = play(st, 0, "play MF-E-COLAPSO-1")
    assert st.step == REACTION and st.attack.targets == (1, 3)  # seat 2 has no investment
    assert _pending_seat(st) == 1 and GAME.pending(st).kind == "reaction"
    events = play(st, 1, "decline")
    assert st.invs[1] == [] and len(st.hands[1]) == 4  # no replacements
    assert any("MF-A-TRA-5" in e for e in events)  # discarded face up, public
    assert _pending_seat(st) == 3
    play(st, 3, "decline")
    assert st.invs[3] == [] and st.hands[3] == []
    assert st.attack is None and st.step == "main" and st.turn == 0
    assert CARD_ID[st.discards[2][-1]] == "MF-E-COLAPSO-1"
    assert_conserved(st)


def test_colapso_de_mercado_with_a_defence() -> None:
    st = _collapse_table("MF-E-CONTROL-1")
    play(st, 0, "play MF-E-COLAPSO-1")
    events = play(st, 1, "defend MF-E-CONTROL-1")
    assert any("cancelled against seat 1" in e for e in events)
    assert len(st.invs[1]) == 2
    play(st, 3, "decline")
    assert st.invs[3] == []
    assert [CARD_ID[c] for c in st.discards[2]] == ["MF-E-CONTROL-1", "MF-E-COLAPSO-1"]  # both discarded
    assert_conserved(st)


def test_group_attack_defences_resolve_clockwise_from_the_attacker() -> None:
    one = {s: [VICTORY_TABLE[k]] for k, s in enumerate((3, 4, 0, 1))}
    st = table(
        seats=5,
        turn=2,
        hands={2: EIGHT},
        strategies={2: ["MF-E-COLAPSO-1"], 4: ["MF-E-CONTINGENCIA-1"], 1: ["MF-E-DIAMANTE-1"]},
        investments=one,
    )
    play(st, 2, "play MF-E-COLAPSO-1")
    order = []
    answers = {3: "decline", 4: "defend MF-E-CONTINGENCIA-1", 0: "decline", 1: "defend MF-E-DIAMANTE-1"}
    while st.step == REACTION:
        seat = _pending_seat(st)
        order.append(seat)
        # Nobody else may answer out of order.
        other = (seat + 1) % 5 if (seat + 1) % 5 != 2 else (seat + 2) % 5
        refused(st, other, "decline")
        play(st, seat, answers[seat])
    assert order == [3, 4, 0, 1]
    assert [len(st.invs[s]) for s in range(5)] == [0, 1, 0, 0, 1]


def test_analista_errado_cancels_for_the_seats_not_yet_asked() -> None:
    one = {s: [VICTORY_TABLE[k]] for k, s in enumerate((1, 2, 3))}
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-COLAPSO-1"], 1: ["MF-E-ANALISTA-1"]}, investments=one)
    play(st, 0, "play MF-E-COLAPSO-1")
    events = play(st, 1, "defend MF-E-ANALISTA-1")
    assert any("cancelled for seats 2, 3 too" in e for e in events)
    assert st.attack is None and [len(st.invs[s]) for s in (1, 2, 3)] == [1, 1, 1]


def test_robo_is_known_to_thief_and_victim_only() -> None:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-ROBO-1"], 1: ["MF-E-FORTUNA-2"]})
    play(st, 0, "play MF-E-ROBO-1 against seat 1")
    events = play(st, 1, "decline")
    assert strategy_ids(st, 0) == ["MF-E-FORTUNA-2"] and strategy_ids(st, 1) == []
    assert not any("MF-E-FORTUNA-2" in e for e in events)  # the public events do not name it
    assert "MF-E-FORTUNA-2" in GAME.hidden_ids(st, 2)
    assert "MF-E-FORTUNA-2" not in GAME.hidden_ids(st, 0) | GAME.hidden_ids(st, 1)


def test_every_targeted_seat_is_asked_even_without_a_blue_card() -> None:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-BLOQUEO-1"]}, investments={2: VICTORY_TABLE[:1]})
    play(st, 0, "play MF-E-BLOQUEO-1 against seat 2")
    assert GAME.pending(st).kind == "reaction" and GAME.legal_moves(st, 2) == [GAME.parse_move("decline")]


# ---------------------------------------------------------------- turn rules


def test_momentum_card_waits_for_a_later_turn() -> None:
    st = table(
        hands={0: EIGHT, 1: ["MF-A-TEL-3"], 2: ["MF-A-TEL-1"], 3: ["MF-A-TEL-2"]},
        strategies={0: ["MF-E-SUERTUDO-1"]},
        strategy_top=["MF-E-FORTUNA-1"],
    )
    play(st, 0, "play MF-E-SUERTUDO-1", "risk MF-A-ENE-3 MF-R-ENE-2")
    assert strategy_ids(st, 0) == ["MF-E-FORTUNA-1"] and st.turn == 1  # taken, turn over
    for seat in (1, 2, 3):
        play(st, seat, "build return-deck")
    assert st.turn == 0 and st.momentum == -1
    play(st, 0, "play MF-E-FORTUNA-1")  # usable now


def test_market_terms_on_the_cards() -> None:
    # Seat 0 goes last (0 investments; the others have 1 or 2): on a +, Fortuna gives it 3 strategies.
    for seed in range(1, 40):
        st = table(
            hands={0: EIGHT},
            strategies={0: ["MF-E-FORTUNA-1"]},
            investments={1: VICTORY_TABLE[:1], 2: VICTORY_TABLE[1:3], 3: VICTORY_TABLE[3:]},
            seed=seed,
        )
        events = play(st, 0, "play MF-E-FORTUNA-1")
        if any("rolled +" in e for e in events):
            break
    assert any("took 3 strategies (it goes last)" in e for e in events) and len(st.strats[0]) == 3
    # Bloqueo Regulatorio reaches only a leader; Corrección only rivals as advanced as you.
    st = table(
        hands={0: EIGHT},
        strategies={0: ["MF-E-BLOQUEO-1", "MF-E-CORRECCION-1"]},
        investments={0: VICTORY_TABLE[:1], 1: VICTORY_TABLE[1:3], 2: VICTORY_TABLE[3:]},
    )
    plays = {m.text() for m in GAME.legal_moves(st, 0) if m.text().startswith("play")}
    assert plays == {
        "play MF-E-BLOQUEO-1 against seat 1",
        "play MF-E-CORRECCION-1 against seat 1 investment 0",
        "play MF-E-CORRECCION-1 against seat 1 investment 1",
        "play MF-E-CORRECCION-1 against seat 2 investment 0",
    }


def test_dominar_may_use_the_red_just_taken() -> None:
    st = table(hands={0: EIGHT}, strategy_top=["MF-E-FORTUNA-1"])
    play(st, 0, "dominate")
    assert st.step == "dominated"
    play(st, 0, "play MF-E-FORTUNA-1")
    assert st.turn == 1  # Dominar was the action; the turn ends after the red


def test_rule_of_eight_construir_discards_only_above_eight() -> None:
    st = table(hands={0: EIGHT, 1: ["MF-A-TEL-1", "MF-R-TEL-2"]}, stock_top=["MF-A-TRA-1"])
    play(st, 0, "build stock-deck")
    assert st.step == "build-discard"
    play(st, 0, "discard MF-A-TRA-1")  # even the card just taken
    assert st.turn == 1 and len(st.hands[0]) == 8
    events = play(st, 1, "build stock-deck")  # 2 cards: below 8, nothing to discard
    assert st.turn == 2 and len(st.hands[1]) == 3
    assert any("discards nothing" in e for e in events)


def test_rule_of_eight_trims_at_the_end_of_the_turn() -> None:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-LIQUIDEZ-1"]})
    play(st, 0, "play MF-E-LIQUIDEZ-1")
    assert len(st.hands[0]) == 10 and st.step == "main"
    play(st, 0, "build stock-deck")  # 11 -> Construir discards 1 -> 10
    play(st, 0, f"discard {hand_ids(st, 0)[0]}")
    assert st.step == "trim" and st.turn == 0
    refused(st, 0, "skip")
    play(st, 0, f"discard {hand_ids(st, 0)[0]}")
    assert st.step == "trim"
    play(st, 0, f"discard {hand_ids(st, 0)[0]}")
    assert st.turn == 1 and len(st.hands[0]) == 8


def test_optimisation_costs_a_card_and_counts_below_eight() -> None:
    st = table(hands={0: ["MF-A-ENE-5", *EIGHT[2:7]]}, investments={0: [("MF-A-ENE-1", "MF-R-ENE-1")]})
    play(st, 0, "optimise 0 MF-A-ENE-5")
    assert st.step == "optimise-cost" and CARD_ID[st.invs[0][0].stock] == "MF-A-ENE-5"
    play(st, 0, "discard MF-A-ENE-1")
    assert st.step == "main" and len(st.hands[0]) + 2 * len(st.invs[0]) == 7
    play(st, 0, "build return-deck")  # back to 8 without a discard
    assert st.turn == 1 and len(st.hands[0]) + 2 * len(st.invs[0]) == 8


def test_optimise_between_construir_take_and_discard_with_four_investments() -> None:
    table24 = [*VICTORY_TABLE[:3], ("MF-A-ENT-2", "MF-R-ENT-1")]
    st = table(investments={0: table24}, stock_top=["MF-A-ENT-5"], hands={1: EIGHT})
    play(st, 0, "build stock-deck")
    assert st.step == "build-discard"
    play(st, 0, "optimise 3 MF-A-ENT-5", "discard MF-A-ENT-2")
    assert st.turn == 1 and st.hands[0] == []  # back at 8: no further discard
    assert GAME.view(st, 0)["portfolio_value"] == 27


def test_discard_rules_top_card_face_up_on_its_own_pile() -> None:
    st = table(hands={0: EIGHT}, discards={"stock": ["MF-A-TEL-1", "MF-A-TEL-2"]})
    events = play(st, 0, "build stock-discard")
    assert "MF-A-TEL-2" in hand_ids(st, 0) and [CARD_ID[c] for c in st.discards[0]] == ["MF-A-TEL-1"]
    assert any("MF-A-TEL-2" in e for e in events)  # the top card was public
    play(st, 0, "discard MF-R-MAN-3")  # a +R goes on the +R pile, face up
    view = GAME.view(st, 2)
    assert view["piles"]["return"]["discard_top"]["id"] == "MF-R-MAN-3"
    assert view["piles"]["stock"]["discard_top"]["id"] == "MF-A-TEL-1"


def test_empty_deck_reshuffles_its_discard_under_the_top_card() -> None:
    every_stock = [CARD_ID[c] for c in range(60)]
    in_discard = [c for c in every_stock if c not in EIGHT][:6]
    elsewhere = [c for c in every_stock if c not in EIGHT and c not in in_discard]
    st = table(hands={0: EIGHT, 1: elsewhere}, discards={"stock": in_discard})
    events = play(st, 0, "build stock-deck")
    assert any("shuffled into a new $ deck" in e for e in events)
    assert [CARD_ID[c] for c in st.discards[0]] == in_discard[-1:]
    assert len(st.decks[0]) == 4
    assert_conserved(st)


def test_turn_limit_cuts_the_game_off_and_scores_it() -> None:
    st = table(
        options={"turn_limit": 2},
        hands={0: EIGHT, 1: ["MF-A-TEL-1"]},
        investments={1: VICTORY_TABLE[:1], 2: VICTORY_TABLE[1:3]},
    )
    play(st, 0, "build stock-deck", "discard MF-A-CON-1")
    events = play(st, 1, "build return-deck")
    result = GAME.result(st)
    assert st.over and result.rule_id == rid.RULING_LIMIT
    assert result.winners == (2,) and result.scores[2] == 13.0
    assert any("turn limit of 2 turns" in e for e in events)


def test_first_player_rolled_the_only_minus() -> None:
    for seed in range(1, 20):
        st, setup = GAME.start(GAME.make_config(4, {}), seed)
        rolls = [e.text for e in setup if e.text.startswith("first-player roll")]
        assert rolls and rolls[-1].endswith(f"seat {st.turn} rolled the only − and starts")


# ---------------------------------------------------------------- Campeonato


def test_campeonato_credits_the_winner_and_the_winner_opens() -> None:
    st = table(mode="campeonato", turn=2, investments={2: VICTORY_TABLE})
    play(st, 2, "declare")
    assert not st.over and st.game_no == 2 and st.totals == [0, 0, 25, 0]
    assert st.turn == 2  # the previous winner opens
    assert all(len(h) == 8 for h in st.hands) and all(not i for i in st.invs)  # a fresh deal
    view = GAME.view(st, 0)
    assert view["match"]["totals"] == [0, 0, 25, 0] and view["match"]["game"] == 2
    assert_conserved(st)


def test_campeonato_match_ends_at_100m() -> None:
    st = table(mode="campeonato", investments={0: VICTORY_TABLE})
    st.totals = [80, 0, 0, 0]
    play(st, 0, "declare")
    result = GAME.result(st)
    assert st.over and result.winners == (0,) and result.rule_id == rid.CAMPEONATO and result.scores[0] == 105.0


def test_campeonato_cards_discarded_by_a_strategy_are_blocked() -> None:
    st = table(
        mode="campeonato",
        hands={0: EIGHT, 2: ["MF-A-TEL-1"]},
        strategies={0: ["MF-E-COLAPSO-1"]},
        investments={1: VICTORY_TABLE[:2]},
        stock_top=["MF-A-TEL-3"],
    )
    play(st, 0, "play MF-E-COLAPSO-1")
    events = play(st, 1, "decline")
    last_stock, last_return = VICTORY_TABLE[1]
    assert not any(last_stock in e or last_return in e for e in events)  # face down: not named
    assert any(VICTORY_TABLE[0][0] in e for e in events)  # the ones under it are shown
    view = GAME.view(st, 2)
    assert view["piles"]["stock"]["blocked"] and view["piles"]["stock"]["discard_top"] is None
    assert last_stock in GAME.hidden_ids(st, 2) and last_stock not in GAME.hidden_ids(st, 1)
    assert GAME.parse_move("build stock-discard") not in GAME.legal_moves(st, 0)
    # A normal discard covers the blocked card ...
    play(st, 0, "build stock-deck", "discard MF-A-TEL-3")
    assert not GAME.view(st, 1)["piles"]["stock"]["blocked"]
    play(st, 1, "build stock-discard")  # seat 1 takes the covering card
    # ... and taking the cover uncovers it: blocked again.
    assert GAME.view(st, 2)["piles"]["stock"]["blocked"]
    assert refused(st, 2, "build stock-discard").rule_id == rid.RULING_BLOCKED


# ---------------------------------------------------------------- views


def test_views_show_own_values_and_hide_the_others() -> None:
    st = table(
        hands={0: EIGHT, 1: ["MF-A-TEL-1"]},
        investments={0: VICTORY_TABLE[:1], 1: VICTORY_TABLE[1:2]},
        strategies={1: ["MF-E-ROBO-1"]},
    )
    mine = GAME.view(st, 0)
    assert [c["id"] for c in mine["hand"]] == sorted(EIGHT, key=lambda c: CARD_INDEX[c])
    assert mine["players"][0]["investments"][0]["value"] == 8
    theirs = mine["players"][1]
    assert theirs["hand"] == 1 and theirs["strategies"] == 1
    assert theirs["investments"] == [{"index": 0, "face_up": False, "has_green": False}]
    text = json.dumps(mine)
    assert not any(h in text for h in GAME.hidden_ids(st, 0))
    public = GAME.view(st, None)
    assert "hand" not in public and "strategies" not in public
    rendered = GAME.render(mine)
    assert "Your hand:" in rendered and "Acción Energía 3M" in rendered and "you are seat 0" in rendered
