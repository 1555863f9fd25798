"""One test per rule id the engine cites, asserting that id (pokerkit style).

Each test builds a position, makes a move that breaks the rule, and checks (through ``refused``) that the
state is untouched, the id is the expected one, and the check and ``apply`` agree. The last test checks
that every id the engine's modules cite has a test here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.state import CARD_SLOT, COLOURS, SLOT_FAMILY

from .helpers import build_state, game, others_pass, play_moves, refused, stop_passes, texts

TESTED: set[str] = set()


def rule(rule_id: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    TESTED.add(rule_id)

    def mark(fn: Callable[[], None]) -> Callable[[], None]:
        return fn

    return mark


OWNER = {"azul": 0, "rojo": 1, "amarillo": 2, "naranja": 3, "rosa": None, "verde": None}
HANDS = {
    0: ["family:verde", "family:rosa", "boss", "stop", "hire", "hire", "hire", "travel:gris"],
    1: ["boss", "stop", "family:amarillo", "travel:rojo", "family:verde"],
    2: ["family:rojo", "travel:gris", "hire"],
    3: ["family:naranja", "travel:azul"],
}


def negotiation(**kw: object) -> object:
    """Seat 0 starts a deal on space 8 (6 dividends x 1M: needs rojo, azul, amarillo + 2 of naranja/rosa/verde)."""
    state = build_state(4, owner=OWNER, hands=HANDS, marker=8, turn=0, **kw)
    play_moves(state, [(0, "negotiate")])
    return state


@rule(R.SETUP_FIRST_PLAYER)
def test_setup_first_player_places_the_marker() -> None:
    state = game.new_game(game.make_config(4, {"first_player": 2}), 5)
    assert game.pending(state).seats == (1,)
    assert refused(state, 3, "marker 4").rule_id == R.SETUP_FIRST_PLAYER
    assert refused(state, 1, "roll").rule_id == R.SETUP_FIRST_PLAYER


@rule(R.TURN_ACTIONS)
def test_turn_actions() -> None:
    state = build_state(4, hands={0: ["hire"]}, marker=3, turn=0)
    assert refused(state, 1, "roll").rule_id == R.TURN_ACTIONS
    assert refused(state, 0, "draw").rule_id == R.TURN_ACTIONS
    play_moves(state, [(0, "roll")])
    assert refused(state, 0, "roll").rule_id == R.TURN_ACTIONS


@rule(R.NEGOTIATE)
def test_no_influence_card_before_vamos_a_negociar() -> None:
    state = build_state(4, owner=OWNER, hands={0: ["travel:gris"], 1: ["boss"]}, marker=8, turn=0)
    assert refused(state, 0, "travel investor seat 1 rojo grey").rule_id == R.NEGOTIATE
    assert refused(state, 0, "offer azul").rule_id == R.NEGOTIATE


@rule(R.R_HIRE_AT_LIMIT)
def test_hire_outside_negotiation_only_over_the_limit() -> None:
    state = build_state(4, owner=OWNER, hands={0: ["hire", "hire", "hire"]}, marker=8, turn=0)
    assert refused(state, 0, "hire rosa").rule_id == R.R_HIRE_AT_LIMIT


@rule(R.DRAW)
def test_discard_only_held_cards_over_the_limit() -> None:
    state = build_state(4, hands={0: ["family:rojo"] * 4 + ["travel:gris"] * 3 + ["boss"] * 5}, marker=3, turn=0)
    play_moves(state, [(0, "roll"), (0, "draw")])
    assert state.phase == "discard"
    assert refused(state, 0, "discard stop").rule_id == R.DRAW
    assert refused(state, 0, "pass").rule_id == R.DRAW
    assert refused(state, 1, "discard boss").rule_id == R.DRAW


@rule(R.V_MINIMUM)
def test_no_negotiation_with_three_cards_or_fewer() -> None:
    state = build_state(4, {"no_negotiation_with_3_cards_or_fewer": True}, hands={0: ["boss"] * 3}, marker=3)
    assert refused(state, 0, "negotiate").rule_id == R.V_MINIMUM
    play_moves(state, [(0, "roll")])
    assert refused(state, 0, "negotiate").rule_id == R.V_MINIMUM


@rule(R.V_MANDATORY)
def test_ten_cards_oblige_a_negotiation() -> None:
    state = build_state(4, {"mandatory_negotiation_with_10_cards": True}, hands={0: ["hire"] * 10}, marker=3)
    play_moves(state, [(0, "roll")])
    assert refused(state, 0, "draw").rule_id == R.V_MANDATORY


@rule(R.PARTICIPATION)
def test_participation_needs_an_investor_or_a_family_card() -> None:
    state = negotiation()
    assert refused(state, 0, "offer azul").rule_id == R.PARTICIPATION  # the boss does not offer to itself
    assert refused(state, 0, "bid seat 3 rojo").rule_id == R.PARTICIPATION  # seat 3 holds no rojo
    assert refused(state, 1, "offer azul").rule_id == R.PARTICIPATION  # seat 1 holds no azul
    assert refused(state, 1, "bid seat 2 amarillo").rule_id == R.PARTICIPATION  # only the boss bids
    assert refused(state, 2, "family azul").rule_id == R.PARTICIPATION  # seat 2 holds no azul family card


@rule(R.CONSIDERATION)
def test_3_2_1_participacion_contraprestacion_a_demand_is_any_amount_the_deal_can_pay() -> None:
    """ "Los jugadores pueden exigir ... una cantidad de dinero concreta. El jefe debe decidir si pagará",
    and "Solo se pueden ofrecer los dividendos obtenidos a través de la negociación": any whole amount up to
    the payout may be asked (not only half of it), and the boss decides; the promises never exceed the payout."""
    state = negotiation()
    assert state.neg.payout == 6
    play_moves(state, [(1, "offer rojo")])
    assert [m.text() for m in game.legal_moves(state, 1)][:6] == [f"price {m}M" for m in range(1, 7)]
    err = refused(state, 1, "price 7M")
    assert err.rule_id == R.CONSIDERATION and "6M" in err.message
    play_moves(state, [(1, "price 6M")])  # the whole payout: the boss decides
    assert "accept seat 1 rojo" in texts(state, 0)
    assert refused(state, 0, "accept seat 2 amarillo").rule_id == R.CONSIDERATION  # nothing asked
    play_moves(state, [(2, "offer amarillo"), (2, "price 1M"), (0, "accept seat 2 amarillo")])
    err = refused(state, 0, "accept seat 1 rojo")  # 1M + 6M > 6M
    assert err.rule_id == R.CONSIDERATION and "7M" in err.message


@rule(R.R_PRICES)
def test_prices_in_dividends_are_whole_dividends_of_this_deal() -> None:
    state = negotiation()
    play_moves(state, [(1, "offer rojo")])
    assert "price 6 dividends" in texts(state, 1)
    err = refused(state, 1, "price 7 dividends")  # the deal pays 6 dividends of 1M
    assert err.rule_id == R.R_PRICES and "6 dividends" in err.message


@rule(R.TRAVEL)
def test_travel_needs_a_matching_or_grey_card() -> None:
    state = negotiation()
    assert refused(state, 1, "travel investor seat 2 amarillo").rule_id == R.TRAVEL
    assert refused(state, 3, "travel investor seat 2 amarillo grey").rule_id == R.TRAVEL


@rule(R.R_TRAVEL_TARGETS)
def test_travel_targets() -> None:
    state = negotiation()
    assert refused(state, 1, "travel investor seat 0 rojo").rule_id == R.R_TRAVEL_TARGETS  # rojo is seat 1's
    assert refused(state, 1, "travel family seat 0 rojo").rule_id == R.R_TRAVEL_TARGETS  # no such family card
    play_moves(state, [(2, "travel investor seat 0 azul grey")])
    stop_passes(state)
    assert refused(state, 3, "travel investor seat 0 azul").rule_id == R.R_TRAVEL_TARGETS  # already travelled


def test_travel_on_a_colour_the_space_does_not_need() -> None:
    state = build_state(4, owner=OWNER, hands={0: ["travel:gris"], 1: ["travel:naranja"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate")])
    assert refused(state, 1, "travel investor seat 3 naranja").rule_id == R.R_TRAVEL_TARGETS


@rule(R.HIRE)
def test_hire_sets() -> None:
    state = negotiation()
    assert refused(state, 2, "hire azul").rule_id == R.HIRE  # one hire card only
    assert refused(state, 0, "hire azul").rule_id == R.HIRE  # its own investor
    err = refused(state, 0, "hire rojo")  # with 4 seats, rosa and verde lie beside the board
    assert err.rule_id == R.HIRE and "beside the board" in err.message


@rule(R.BOSS)
def test_boss_cards() -> None:
    state = negotiation()
    assert refused(state, 0, "boss keep").rule_id == R.BOSS
    assert refused(state, 2, "boss restart").rule_id == R.BOSS


@rule(R.STOP)
def test_stop_needs_a_stop_card() -> None:
    state = negotiation()
    play_moves(state, [(0, "travel investor seat 2 amarillo grey")])
    assert refused(state, 2, "stop").rule_id == R.STOP


@rule(R.R_STOP_TIMING)
def test_stop_only_right_after_travel_boss_or_hire() -> None:
    state = negotiation()
    assert refused(state, 1, "stop").rule_id == R.R_STOP_TIMING
    play_moves(state, [(3, "travel investor seat 0 azul")])
    play_moves(state, [(1, "pass")])
    assert refused(state, 2, "offer amarillo").rule_id == R.R_STOP_TIMING  # the card is answered first
    err = refused(state, 3, "stop")
    assert err.rule_id == R.R_STOP_TIMING and "not asked whether to stop it" in err.message
    err = refused(state, 1, "stop")
    assert err.rule_id == R.R_STOP_TIMING and "already passed" in err.message
    play_moves(state, [(0, "stop")])
    assert state.stop is None  # nothing can answer the stop
    assert refused(state, 1, "stop").rule_id == R.R_STOP_TIMING


@rule(R.CLOSE)
def test_close() -> None:
    state = negotiation()
    assert refused(state, 1, "close").rule_id == R.CLOSE  # only the boss closes
    others_pass(state)
    err = refused(state, 0, "close")
    assert err.rule_id == R.CLOSE and "rojo" in err.message


@rule(R.FAIL)
def test_only_the_boss_declares_failure() -> None:
    state = negotiation()
    assert refused(state, 1, "fail").rule_id == R.FAIL


@rule(R.TWO_PLAYERS)
def test_two_player_boss_must_complete() -> None:
    state = build_state(2, owner={"rojo": 0, "amarillo": 1}, hands={0: ["hire"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate")])
    assert "fail" not in texts(state, 0)
    assert refused(state, 0, "fail").rule_id == R.TWO_PLAYERS


@rule(R.BOSS_FAMILY)
def test_boss_places_only_family_cards_it_holds() -> None:
    state = negotiation()
    assert refused(state, 0, "family naranja").rule_id == R.BOSS_FAMILY


@rule(R.R_PLACE_FAMILY)
def test_place_family() -> None:
    state = build_state(4, owner=OWNER, hands={0: ["family:azul", "family:verde", "family:verde"]}, marker=1)
    play_moves(state, [(0, "negotiate")])
    assert refused(state, 0, "family verde").rule_id == R.R_PLACE_FAMILY  # space 1 needs rojo and amarillo
    state = negotiation()
    play_moves(state, [(0, "family verde")])
    card = next(c for c in state.deck if CARD_SLOT[c] == SLOT_FAMILY + COLOURS.index("verde"))
    state.deck.remove(card)
    state.give(0, card)
    state.version += 1
    assert refused(state, 0, "family verde").rule_id == R.R_PLACE_FAMILY  # one verde per seat per deal


@rule(R.R_BOUND)
def test_limite_de_ofertas_the_same_price_twice_at_most() -> None:
    """A seat may name any new amount, but not the same one a third time under one boss (it could repeat forever)."""
    state = negotiation()
    for _ in range(2):
        play_moves(state, [(1, "offer rojo"), (1, "price 2M"), (1, "withdraw seat 1 rojo")])
    play_moves(state, [(1, "offer rojo")])
    err = refused(state, 1, "price 2M")
    assert err.rule_id == R.R_BOUND and "2M" in err.message
    assert refused(state, 1, "price 2 dividends").rule_id == R.R_BOUND  # the same price, named in dividends
    play_moves(state, [(1, "price 3M")])  # a new amount is always possible
    # The boss's proposals to a seat are bounded the same way; a new boss starts afresh.
    for _ in range(2):
        play_moves(state, [(0, "bid seat 2 amarillo"), (0, "price 1M"), (0, "withdraw seat 2 amarillo")])
    play_moves(state, [(0, "bid seat 2 amarillo")])
    assert refused(state, 0, "price 1M").rule_id == R.R_BOUND
    play_moves(state, [(0, "price 2M"), (1, "boss keep")])
    stop_passes(state)
    assert state.neg.boss == 1 and state.neg.named == {}


@rule(R.R_PROMISES)
def test_an_agreement_binds() -> None:
    state = negotiation()
    play_moves(state, [(1, "offer rojo"), (1, "price 2M"), (0, "accept seat 1 rojo")])
    assert refused(state, 0, "bid seat 1 rojo").rule_id == R.R_PROMISES
    assert refused(state, 1, "offer rojo").rule_id == R.R_PROMISES
    assert refused(state, 1, "withdraw seat 1 rojo").rule_id == R.R_PROMISES
    assert refused(state, 0, "refuse seat 1 rojo").rule_id == R.R_PROMISES


@rule(R.R_PROTOCOL)
def test_protocolo_de_negociacion_the_open_table() -> None:
    state = negotiation()
    assert refused(state, 0, "price 2M").rule_id == R.R_PROTOCOL  # no price is being named
    err = refused(state, 0, "close")  # the others have not answered '¡Vamos a negociar!'
    assert err.rule_id == R.CLOSE  # (it is also incomplete: the needs come first)
    play_moves(state, [(1, "offer rojo")])
    assert refused(state, 1, "pass").rule_id == R.R_PROTOCOL  # name the price first
    err = refused(state, 2, "pass")  # nobody acts while a price is being named
    assert err.rule_id == R.R_PROTOCOL and "naming a price" in err.message
    play_moves(state, [(1, "price 1M"), (2, "pass")])
    err = refused(state, 2, "offer amarillo")  # seat 2 has answered; it acts again after the next change
    assert err.rule_id == R.R_PROTOCOL and "already answered" in err.message
    assert refused(state, 1, "roll").rule_id == R.R_PROTOCOL
    others_pass(state)
    err = refused(state, 0, "pass")  # every other seat answered: the boss cannot wait any longer
    assert err.rule_id == R.R_PROTOCOL and "cannot wait" in err.message


def test_protocolo_de_negociacion_the_boss_closes_only_when_everyone_has_answered() -> None:
    state = build_state(3, owner={"rojo": 0, "amarillo": 0}, hands={1: ["family:rojo"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate")])
    assert game.view(state, 0)["negotiation"]["complete"]
    err = refused(state, 0, "close")
    assert err.rule_id == R.R_PROTOCOL and "seat 1 and seat 2 have not yet" in err.message
    play_moves(state, [(1, "family rojo")])  # a change: everyone may answer it again
    play_moves(state, [(2, "pass")])
    assert "close" in texts(state, 0)  # seat 1 made the last change: it need not answer itself
    play_moves(state, [(0, "close")])
    assert state.deals_done == 1


@rule(R.END)
def test_no_move_after_the_end() -> None:
    state = build_state(4, {"failed_negotiations_limit": 1}, hands={0: ["hire"]}, marker=3)
    play_moves(state, [(0, "negotiate"), (0, "fail")])
    assert game.pending(state).kind == "over"
    assert refused(state, 1, "roll").rule_id == R.END


@rule(R.R_FAILURE_LIMIT)
@rule(R.END_DIE)
@rule(R.PAYMENT)
@rule(R.R_TWO_PLAYERS)
def test_results_cite_their_rules() -> None:
    """The result cites the rule that ended the game, and each line of the breakdown the rule that gives it."""
    state = build_state(4, {"failed_negotiations_limit": 2}, marker=3)
    play_moves(state, [(0, "negotiate"), (0, "fail"), (1, "negotiate"), (1, "fail")])
    assert game.result(state).rule_id == R.R_FAILURE_LIMIT
    covered = list(range(2, 16))
    state = build_state(2, owner={"rojo": 0, "amarillo": 1}, deals_done=14, covered=covered, marker=1)
    play_moves(state, [(0, "negotiate")])
    others_pass(state)
    play_moves(state, [(0, "close")])
    result = game.result(state)
    assert result.rule_id == R.END_DIE
    lines = {x.rule_id for b in result.breakdown for x in b.lines}
    assert lines == {R.PAYMENT, R.R_TWO_PLAYERS}


def test_every_cited_rule_id_has_a_test() -> None:
    package = Path(R.__file__).parent
    cited = set()
    for path in package.glob("*.py"):
        for name in re.findall(r"\bR\.([A-Z_]+)\b", path.read_text(encoding="utf-8")):
            if name != "CITED":
                cited.add(getattr(R, name))
    assert cited <= TESTED, f"rule ids without a test: {sorted(cited - TESTED)}"
    assert game.rule_ids() >= TESTED
