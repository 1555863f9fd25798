"""One test per rule id the engine cites when it refuses a move (pokerkit style).

Each case builds a fixed scenario with :func:`helpers.table`, plays the moves that lead
to the situation, and checks that the refused move names that rule id and leaves the
state untouched. ``test_every_cited_rule_has_a_case`` keeps the list complete.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import STRATEGIES, strategy_by_name
from club_agentes.engine.market_fortune.state import REACTION, TRIM, State

from tests.engine.market_fortune.helpers import GAME, play, refused, table

Case = Callable[[], tuple[State, int, Any]]
CASES: dict[str, list[Case]] = {}

EIGHT = ["MF-A-ENE-3", "MF-R-ENE-2", "MF-A-TEC-4", "MF-R-SAL-1", "MF-A-FIN-2", "MF-R-INM-5", "MF-A-CON-1", "MF-R-MAN-3"]
THREE_INVS = [("MF-A-TRA-5", "MF-R-TRA-4"), ("MF-A-AGR-4", "MF-R-AGR-4"), ("MF-A-MIN-5", "MF-R-MIN-5")]
FOUR_INVS = [("MF-A-TRA-5", "MF-R-TRA-3"), ("MF-A-AGR-4", "MF-R-AGR-4"), ("MF-A-MIN-3", "MF-R-MIN-2"),
             ("MF-A-ENT-2", "MF-R-ENT-2")]  # fmt: skip


def case(rule_id: str) -> Callable[[Case], Case]:
    """Register a scenario whose last move must be refused with ``rule_id``."""

    def deco(fn: Case) -> Case:
        CASES.setdefault(rule_id, []).append(fn)
        return fn

    return deco


def _formed_fourth(top: str) -> State:
    """Seat 0 holds 3 investments and forms the 4th (Inversor Suertudo); Momentum gives ``top``."""
    st = table(
        hands={0: ["MF-A-ENE-3", "MF-R-ENE-2"]},
        investments={0: THREE_INVS},
        strategies={0: ["MF-E-SUERTUDO-1"]},
        strategy_top=[top],
    )
    play(st, 0, "play MF-E-SUERTUDO-1", "risk MF-A-ENE-3 MF-R-ENE-2")
    assert len(st.invs[0]) == 4 and st.step == "formed"
    return st


@case(rid.DISCARD_RULE)
def _empty_discard() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}), 0, "build stock-discard"


@case(rid.RULE_OF_EIGHT)
def _trim_needs_a_discard() -> tuple[State, int, Any]:
    return table(hands={0: [*EIGHT, "MF-A-TEL-2"]}, step=TRIM), 0, "skip"


@case(rid.RULE_OF_EIGHT)
def _trim_discards_building_cards_only() -> tuple[State, int, Any]:
    st = table(hands={0: [*EIGHT, "MF-A-TEL-2"]}, strategies={0: ["MF-E-ROBO-1"]}, step=TRIM)
    return st, 0, "discard MF-E-ROBO-1"


@case(rid.YOUR_TURN)
def _not_your_turn() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT, 1: ["MF-A-TEL-1"]}), 1, "build stock-deck"


@case(rid.YOUR_TURN)
def _one_action_then_no_second() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT})
    play(st, 0, "build stock-deck")
    return st, 0, "dominate"


@case(rid.MOMENTUM)
def _momentum_red_not_this_turn() -> tuple[State, int, Any]:
    return _formed_fourth("MF-E-FORTUNA-1"), 0, "play MF-E-FORTUNA-1"


@case(rid.RULING_MOMENTUM)
def _momentum_green_not_this_turn() -> tuple[State, int, Any]:
    return _formed_fourth("MF-E-INNOVACION-1"), 0, "attach MF-E-INNOVACION-1 3"


@case(rid.INVESTMENT)
def _pair_of_two_industries() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}), 0, "risk MF-A-TEC-4 MF-R-SAL-1"


@case(rid.INVESTMENT)
def _pair_from_outside_the_hand() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}), 0, "risk MF-A-TEC-4 MF-R-TEC-1"


@case(rid.OPTIMISATION)
def _flipped_investment_is_frozen() -> tuple[State, int, Any]:
    st = table(hands={0: ["MF-A-ENE-5"]}, investments={0: [("MF-A-ENE-1", "MF-R-ENE-1", None, True)]})
    return st, 0, "optimise 0 MF-A-ENE-5"


@case(rid.OPTIMISATION)
def _no_optimisation_under_attack() -> tuple[State, int, Any]:
    st = table(
        turn=1,
        hands={0: ["MF-A-ENE-5"], 1: EIGHT},
        investments={0: [("MF-A-ENE-1", "MF-R-ENE-1")]},
        strategies={1: ["MF-E-CORRECCION-1"]},
    )
    play(st, 1, "play MF-E-CORRECCION-1 against seat 0 investment 0")
    assert st.step == REACTION
    return st, 0, "optimise 0 MF-A-ENE-5"


@case(rid.RULING_SAME_INDUSTRY)
def _swap_keeps_the_industry() -> tuple[State, int, Any]:
    st = table(hands={0: ["MF-A-TEC-5"]}, investments={0: [("MF-A-ENE-1", "MF-R-ENE-1")]})
    return st, 0, "optimise 0 MF-A-TEC-5"


@case(rid.RULING_OPTIMISE_WHEN)
def _no_optimisation_inside_a_strategy() -> tuple[State, int, Any]:
    st = table(
        hands={0: ["MF-A-ENE-5", "MF-R-TEC-1"]},
        investments={0: [("MF-A-ENE-1", "MF-R-ENE-1")]},
        strategies={0: ["MF-E-COMPRAR-1"]},
    )
    play(st, 0, "play MF-E-COMPRAR-1")
    assert st.step == "take"
    return st, 0, "optimise 0 MF-A-ENE-5"


@case(rid.RED)
def _red_not_held() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}), 0, "play MF-E-ROBO-1 against seat 1"


@case(rid.BLUE)
def _blue_on_own_turn() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}, strategies={0: ["MF-E-CONTROL-1"]}), 0, "play MF-E-CONTROL-1"


@case(rid.BLUE)
def _defend_without_attack() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}, strategies={0: ["MF-E-CONTROL-1"]}), 0, "defend MF-E-CONTROL-1"


@case(rid.GREEN)
def _green_is_not_played() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}, strategies={0: ["MF-E-INNOVACION-1"]}), 0, "play MF-E-INNOVACION-1"


@case(rid.GREEN)
def _green_goes_on_the_new_investment() -> tuple[State, int, Any]:
    st = table(
        hands={0: ["MF-A-ENE-3", "MF-R-ENE-2"]},
        investments={0: [("MF-A-TRA-5", "MF-R-TRA-4")]},
        strategies={0: ["MF-E-SUERTUDO-1", "MF-E-INNOVACION-1"]},
    )
    play(st, 0, "play MF-E-SUERTUDO-1", "risk MF-A-ENE-3 MF-R-ENE-2")
    assert st.step == "formed"
    return st, 0, "attach MF-E-INNOVACION-1 0"


@case(rid.YELLOW)
def _yellow_waits_for_the_declaration() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}, strategies={0: ["MF-E-AUGE-1"]}), 0, "play MF-E-AUGE-1"


@case(rid.COMBAT)
def _only_the_polled_seat_answers() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-ROBO-1"], 1: ["MF-E-FORTUNA-1"], 2: ["MF-E-CONTROL-1"]})
    play(st, 0, "play MF-E-ROBO-1 against seat 1")
    return st, 2, "defend MF-E-CONTROL-1"


@case(rid.COMBAT)
def _only_blue_defends() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-ROBO-1"], 1: ["MF-E-FORTUNA-1"]})
    play(st, 0, "play MF-E-ROBO-1 against seat 1")
    return st, 1, "defend MF-E-FORTUNA-1"


@case(rid.VICTORY)
def _nothing_after_the_end() -> tuple[State, int, Any]:
    st = table(investments={0: FOUR_INVS})
    play(st, 0, "declare")
    assert st.over
    return st, 1, "build stock-deck"


@case(rid.DECLARE)
def _declare_needs_four() -> tuple[State, int, Any]:
    return table(investments={0: THREE_INVS}, hands={0: ["MF-A-ENE-1", "MF-R-TEC-1"]}), 0, "declare"


@case(rid.STRATEGY_DISCARD)
def _never_from_the_strategy_discard() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}, discards={"strategy": ["MF-E-ROBO-1"]}), 0, "build strategy-discard"


@case(rid.ONE_GREEN)
def _one_green_per_investment() -> tuple[State, int, Any]:
    invs = [(*FOUR_INVS[0], "MF-E-INNOVACION-1"), *FOUR_INVS[1:]]
    st = table(investments={0: invs}, strategies={0: ["MF-E-MAXIMO-1"]})
    play(st, 0, "declare")
    assert st.step == "closing"
    return st, 0, "attach MF-E-MAXIMO-1 0"


@case(rid.FAILED_DECLARATION)
def _return_an_existing_investment() -> tuple[State, int, Any]:
    invs = [*FOUR_INVS[:3], ("MF-A-ENT-1", "MF-R-ENT-1")]
    st = table(investments={0: invs})
    play(st, 0, "declare")
    assert st.step == "return"
    return st, 0, "return 7"


@case(rid.RULING_FACE_UP)
def _no_green_on_a_face_up_investment() -> tuple[State, int, Any]:
    invs = [(*inv, None, True) for inv in FOUR_INVS[:3]] + [FOUR_INVS[3]]
    st = table(investments={0: invs}, strategies={0: ["MF-E-MAXIMO-1"]})
    play(st, 0, "declare")
    assert st.step == "closing"
    return st, 0, "attach MF-E-MAXIMO-1 to investment 1"


@case(rid.RULING_FACE_UP)
def _no_correccion_on_a_face_up_investment() -> tuple[State, int, Any]:
    invs = [(*inv, None, True) for inv in THREE_INVS]
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-CORRECCION-1"]}, investments={1: invs})
    return st, 0, "play MF-E-CORRECCION-1 against seat 1 investment 2"


@case(rid.RULING_RED_TIMING)
def _one_red_per_turn() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-FORTUNA-1", "MF-E-LIQUIDEZ-1"]})
    play(st, 0, "play MF-E-FORTUNA-1")
    return st, 0, "play MF-E-LIQUIDEZ-1"


@case(rid.RULING_BUILD_DISCARD)
def _construir_discards_from_the_hand() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, stock_top=["MF-A-TRA-1"])
    play(st, 0, "build stock-deck")
    assert st.step == "build-discard"
    return st, 0, "discard MF-A-ENT-5"


@case(rid.RULING_FOUR_MAX)
def _no_fifth_investment() -> tuple[State, int, Any]:
    return table(investments={0: FOUR_INVS}, hands={0: ["MF-A-ENE-3", "MF-R-ENE-2"]}), 0, "risk MF-A-ENE-3 MF-R-ENE-2"


@case(rid.RULING_FAMILIA)
def _no_declaration_in_familia() -> tuple[State, int, Any]:
    return table(mode="familia", investments={0: THREE_INVS}, hands={0: ["MF-A-ENE-1", "MF-R-TEC-1"]}), 0, "declare"


@case(rid.RULING_BLOCKED)
def _blocked_pile() -> tuple[State, int, Any]:
    st = table(
        mode="campeonato",
        hands={0: EIGHT},
        discards={"stock": ["MF-A-TEL-1", "MF-A-TEL-2"]},
        facedown=["MF-A-TEL-2"],
    )
    return st, 0, "build stock-discard"


@case(rid.RULING_DECKS)
def _no_strategy_left() -> tuple[State, int, Any]:
    every = [cid for s in STRATEGIES for cid in s.card_ids()]
    return table(hands={0: EIGHT}, strategies={1: every}), 0, "dominate"


@case(rid.RULING_DECKS)
def _empty_building_deck() -> tuple[State, int, Any]:
    stocks = [
        f"MF-A-{ind}-{v}" for ind in ("TEL", "TRA", "AGR", "MIN", "ENT", "SAL", "INM", "MAN") for v in range(1, 6)
    ]
    stocks += [f"MF-A-{ind}-{v}" for ind in ("ENE", "TEC", "FIN", "CON") for v in range(1, 6)]
    held = [c for c in stocks if c not in EIGHT]
    st = table(hands={0: EIGHT, 1: held[:-1]}, discards={"stock": held[-1:]})
    return st, 0, "build stock-deck"


@case(rid.RULING_NO_ACTION)
def _pass_only_when_stuck() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}), 0, "pass"


@case("market-fortune/cartas/bloqueo-regulatorio")
def _blocked_from_risking() -> tuple[State, int, Any]:
    st = table(
        turn=3,
        hands={0: ["MF-A-ENE-3", "MF-R-ENE-2"], 3: EIGHT[2:]},
        strategies={3: ["MF-E-BLOQUEO-1"]},
        investments={0: THREE_INVS[:1]},  # seat 0 leads
    )
    play(st, 3, "play MF-E-BLOQUEO-1 against seat 0")
    play(st, 0, "decline")
    play(st, 3, "build return-deck")
    assert st.turn == 0 and st.banned
    return st, 0, "risk MF-A-ENE-3 MF-R-ENE-2"


@case("market-fortune/cartas/bloqueo-regulatorio")
def _block_targets_a_leader() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-BLOQUEO-1"]}, investments={1: THREE_INVS[:1], 2: THREE_INVS[1:]})
    return st, 0, "play MF-E-BLOQUEO-1 against seat 1"


@case("market-fortune/cartas/correccion")
def _correction_targets_a_rival_as_advanced() -> tuple[State, int, Any]:
    st = table(
        hands={0: EIGHT},
        strategies={0: ["MF-E-CORRECCION-1"]},
        investments={0: THREE_INVS[1:], 1: THREE_INVS[:1]},
    )
    return st, 0, "play MF-E-CORRECCION-1 against seat 1 investment 0"


@case("market-fortune/cartas/robo")
def _robo_needs_a_victim_with_strategies() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}, strategies={0: ["MF-E-ROBO-1"]}), 0, "play MF-E-ROBO-1 against seat 1"


@case("market-fortune/cartas/rescate")
def _rescate_only_below_eight() -> tuple[State, int, Any]:
    return table(hands={0: EIGHT}, strategies={0: ["MF-E-RESCATE-1"]}), 0, "play MF-E-RESCATE-1"


@case("market-fortune/cartas/rescate")
def _rescate_draws_from_decks() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT[:5]}, strategies={0: ["MF-E-RESCATE-1"]}, discards={"stock": ["MF-A-TEL-1"]})
    play(st, 0, "play MF-E-RESCATE-1")
    return st, 0, "take stock-discard"


@case("market-fortune/cartas/correccion")
def _correccion_names_an_existing_investment() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-CORRECCION-1"]}, investments={1: THREE_INVS})
    return st, 0, "play MF-E-CORRECCION-1 against seat 1 investment 3"


@case("market-fortune/cartas/auditoria-federal")
def _audit_needs_face_down_investments() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-AUDITORIA-1"]})
    return st, 0, "play MF-E-AUDITORIA-1 against seat 2"


@case("market-fortune/cartas/colapso-de-mercado")
def _collapse_needs_a_rival_investment() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-COLAPSO-1"]}, investments={0: THREE_INVS[:1]})
    return st, 0, "play MF-E-COLAPSO-1"


@case("market-fortune/cartas/moneda-estable")
def _stablecoin_guards_the_hand_only() -> tuple[State, int, Any]:
    st = table(
        hands={0: EIGHT},
        strategies={0: ["MF-E-COLAPSO-1"], 1: ["MF-E-ESTABLE-1"]},
        investments={1: THREE_INVS[:1]},
    )
    play(st, 0, "play MF-E-COLAPSO-1")
    return st, 1, "defend MF-E-ESTABLE-1"


@case("market-fortune/cartas/manos-de-diamante")
def _diamond_hands_guard_investments_only() -> tuple[State, int, Any]:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-ROBO-1"], 1: ["MF-E-DIAMANTE-1"]})
    play(st, 0, "play MF-E-ROBO-1 against seat 1")
    return st, 1, "defend MF-E-DIAMANTE-1"


def _wrong_fields(name: str) -> Case:
    """A red card played with fields it does not take (or without those it needs)."""
    s = strategy_by_name(name)

    def build() -> tuple[State, int, Any]:
        st = table(hands={0: EIGHT}, strategies={0: [s.card_ids()[0]], 1: ["MF-E-AUGE-1"]}, investments={1: THREE_INVS})
        needs = s.spec.target == "one" or s.effect.value in ("free_return_swap", "discard_swap")
        move = f"play {s.card_ids()[0]}" + ("" if needs else " against seat 1")
        return st, 0, move

    return build


for _s in STRATEGIES:
    if _s.colour == "roja":
        CASES.setdefault(_s.section, []).append(_wrong_fields(_s.name))


def test_every_cited_rule_has_a_case() -> None:
    assert set(CASES) == set(rid.REFUSAL_IDS)
    assert GAME.rule_ids() == rid.REFUSAL_IDS | rid.RESULT_IDS


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_refusal_cites(rule_id: str) -> None:
    for build in CASES[rule_id]:
        st, seat, move = build()
        err = refused(st, seat, move)
        assert err.rule_id == rule_id, f"{build.__name__}: {err}"
        assert err.message and "\n" not in err.message and "[" not in err.message
