"""One test per rule id the engine cites in an IllegalMove, asserting that id (pokerkit style).

Each test builds a position, makes a move that breaks the rule, and checks (through
``refused``) that the state is untouched and the id is the expected one. The last
test checks that every id the refusal code can cite has a test here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from club_agentes.engine.yo_soy_el_jefe import rules as R

from .helpers import build_state, game, play_moves, poll_passes, refused, stop_passes

TESTED: set[str] = set()


def rule(rule_id: str) -> Callable:
    TESTED.add(rule_id)

    def mark(fn: Callable) -> Callable:
        return fn

    return mark


OWNER = {"azul": 0, "rojo": 1, "amarillo": 2, "naranja": 3, "rosa": None, "verde": None}
HANDS = {
    0: ["family:verde", "family:rosa", "boss", "stop", "hire", "hire", "hire", "travel:gris"],
    1: ["boss", "stop", "family:amarillo", "travel:rojo", "family:verde"],
    2: ["family:rojo", "travel:gris", "hire"],
    3: ["family:naranja", "travel:azul"],
}


def negotiation(**kw) -> object:
    """Seat 0 starts a deal on space 8 (6 dividends x 1M: needs rojo, azul, amarillo + 2 of naranja/rosa/verde).

    Returns the state at the boss's first decision (every other seat has passed).
    """
    state = build_state(4, owner=OWNER, hands=HANDS, marker=8, turn=0, **kw)
    play_moves(state, [(0, "negotiate")])
    poll_passes(state)
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
    assert refused(state, 0, "travel investor 1 rojo grey").rule_id == R.NEGOTIATE
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
    assert refused(state, 0, "offer azul").rule_id == R.PARTICIPATION  # the boss does not offer
    assert refused(state, 0, "bid 3 rojo").rule_id == R.PARTICIPATION  # seat 3 holds no rojo
    play_moves(state, [(0, "family verde")])
    assert refused(state, 1, "offer azul").rule_id == R.PARTICIPATION  # seat 1 holds no azul
    assert refused(state, 1, "bid 2 amarillo").rule_id == R.PARTICIPATION  # only the boss bids
    play_moves(state, [(1, "pass")])
    assert refused(state, 2, "family azul").rule_id == R.PARTICIPATION  # seat 2 holds no azul family card


@rule(R.CONSIDERATION)
def test_promises_never_exceed_the_payout() -> None:
    state = negotiation()
    assert refused(state, 0, "accept 1 rojo").rule_id == R.CONSIDERATION  # nothing asked yet
    play_moves(state, [(0, "family verde"), (1, "offer rojo"), (1, "price 3M")])
    play_moves(state, [(2, "offer amarillo"), (2, "price 3 dividends"), (3, "offer naranja"), (3, "price 1M")])
    play_moves(state, [(0, "accept 1 rojo")])
    poll_passes(state)
    play_moves(state, [(0, "accept 2 amarillo")])
    poll_passes(state)
    assert state.neg.agreed_total() == 6 == state.neg.payout
    err = refused(state, 0, "accept 3 naranja")
    assert err.rule_id == R.CONSIDERATION and "6M" in err.message


@rule(R.TRAVEL)
def test_travel_needs_a_matching_or_grey_card() -> None:
    state = negotiation()
    play_moves(state, [(0, "family verde")])
    assert refused(state, 1, "travel investor 2 amarillo").rule_id == R.TRAVEL
    assert refused(state, 1, "travel investor 2 amarillo grey").rule_id == R.TRAVEL


@rule(R.R_TRAVEL_TARGETS)
def test_travel_targets() -> None:
    state = negotiation()
    play_moves(state, [(0, "family verde")])
    assert refused(state, 1, "travel investor 0 rojo").rule_id == R.R_TRAVEL_TARGETS  # rojo is seat 1's
    assert refused(state, 1, "travel family 0 rojo").rule_id == R.R_TRAVEL_TARGETS  # no such family card
    play_moves(state, [(1, "pass"), (2, "travel investor 0 azul grey")])
    stop_passes(state)
    assert refused(state, 3, "travel investor 0 azul").rule_id == R.R_TRAVEL_TARGETS  # already travelled


def test_travel_on_a_colour_the_space_does_not_need() -> None:
    state = build_state(4, owner=OWNER, hands={0: ["travel:gris"], 1: ["travel:naranja"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate")])
    assert refused(state, 1, "travel investor 3 naranja").rule_id == R.R_TRAVEL_TARGETS


@rule(R.HIRE)
def test_hire_sets() -> None:
    state = negotiation()
    play_moves(state, [(0, "family verde"), (1, "pass")])
    assert refused(state, 2, "hire azul").rule_id == R.HIRE  # one hire card only
    play_moves(state, [(2, "pass"), (3, "pass")])
    assert refused(state, 0, "hire azul").rule_id == R.HIRE  # its own investor
    err = refused(state, 0, "hire rojo")  # with 4 seats, rosa and verde lie beside the board
    assert err.rule_id == R.HIRE and "beside the board" in err.message


@rule(R.BOSS)
def test_boss_cards() -> None:
    state = negotiation()
    assert refused(state, 0, "boss keep").rule_id == R.BOSS
    play_moves(state, [(0, "family verde")])
    play_moves(state, [(1, "pass")])
    assert refused(state, 2, "boss restart").rule_id == R.BOSS


@rule(R.STOP)
def test_stop_needs_a_stop_card() -> None:
    state = negotiation()
    play_moves(state, [(0, "travel investor 2 amarillo grey")])
    play_moves(state, [(1, "pass")])
    assert refused(state, 2, "stop").rule_id == R.STOP


@rule(R.R_STOP_TIMING)
def test_stop_only_right_after_travel_boss_or_hire() -> None:
    state = negotiation()
    play_moves(state, [(0, "family verde")])
    assert refused(state, 1, "stop").rule_id == R.R_STOP_TIMING
    play_moves(state, [(1, "pass"), (2, "pass"), (3, "travel investor 0 azul")])
    play_moves(state, [(1, "pass")])
    assert refused(state, 2, "offer amarillo").rule_id == R.R_STOP_TIMING
    # Seats not asked now: the boss is asked later, the card's player never, seat 1 has passed.
    err = refused(state, 0, "stop")
    assert err.rule_id == R.R_STOP_TIMING and "comes later" in err.message
    err = refused(state, 3, "stop")
    assert err.rule_id == R.R_STOP_TIMING and "not asked whether to stop it" in err.message
    err = refused(state, 1, "stop")
    assert err.rule_id == R.R_STOP_TIMING and "already passed" in err.message
    play_moves(state, [(2, "pass"), (0, "stop")])
    assert state.stop is None  # nothing can answer the stop
    assert refused(state, 0, "stop").rule_id == R.R_STOP_TIMING


@rule(R.CLOSE)
def test_close() -> None:
    state = negotiation()
    err = refused(state, 0, "close")
    assert err.rule_id == R.CLOSE and "rojo" in err.message
    play_moves(state, [(0, "family verde")])
    assert refused(state, 1, "close").rule_id == R.CLOSE


@rule(R.FAIL)
def test_only_the_boss_declares_failure() -> None:
    state = negotiation()
    play_moves(state, [(0, "family verde")])
    assert refused(state, 1, "fail").rule_id == R.FAIL


@rule(R.TWO_PLAYERS)
def test_two_player_boss_must_complete() -> None:
    state = build_state(2, owner={"rojo": 0, "amarillo": 1}, hands={0: ["hire"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate")])
    poll_passes(state)
    assert "fail" not in [m.text() for m in game.legal_moves(state, 0)]
    assert refused(state, 0, "fail").rule_id == R.TWO_PLAYERS


@rule(R.BOSS_FAMILY)
def test_boss_places_only_family_cards_it_holds() -> None:
    state = negotiation()
    assert refused(state, 0, "family naranja").rule_id == R.BOSS_FAMILY


@rule(R.R_PLACE_FAMILY)
def test_place_family() -> None:
    state = build_state(4, owner=OWNER, hands={0: ["family:azul", "family:verde", "family:verde"]}, marker=1)
    play_moves(state, [(0, "negotiate")])
    poll_passes(state)
    assert refused(state, 0, "family verde").rule_id == R.R_PLACE_FAMILY  # space 1 needs rojo and amarillo
    state = negotiation()
    play_moves(state, [(0, "family verde")])
    poll_passes(state)
    state.give(0, state.deck.pop(next(i for i, c in enumerate(state.deck) if game_card_slot(c) == "family:verde")))
    state.version += 1
    assert refused(state, 0, "family verde").rule_id == R.R_PLACE_FAMILY  # one verde per seat per deal


def game_card_slot(card: int) -> str:
    from club_agentes.engine.yo_soy_el_jefe.state import CARDS

    c = CARDS[card]
    return f"{c.kind}:{c.colour}" if c.colour else c.kind


@rule(R.R_BOUND)
def test_price_statements_are_bounded() -> None:
    state = negotiation()
    play_moves(state, [(0, "family verde"), (1, "offer rojo"), (1, "price 1M"), (2, "pass"), (3, "pass")])
    play_moves(state, [(0, "pass"), (1, "offer rojo"), (1, "price 2M"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert refused(state, 1, "offer rojo").rule_id == R.R_BOUND
    assert refused(state, 1, "family amarillo").rule_id == R.R_BOUND
    poll_passes(state)
    play_moves(state, [(0, "bid 2 amarillo"), (0, "price 1M")])
    poll_passes(state)
    play_moves(state, [(0, "bid 2 amarillo"), (0, "price 2M")])
    poll_passes(state)
    assert refused(state, 0, "bid 2 amarillo").rule_id == R.R_BOUND
    # A new boss renews the counts.
    play_moves(state, [(0, "family rosa"), (1, "boss keep")])
    stop_passes(state)
    assert state.neg.offers_left == [2, 2, 2, 2] and state.neg.bids_left == [2, 2, 2, 2]


@rule(R.R_PROMISES)
def test_an_agreement_binds() -> None:
    state = negotiation()
    play_moves(state, [(0, "family verde"), (1, "offer rojo"), (1, "price 2M")])
    poll_passes(state)
    play_moves(state, [(0, "accept 1 rojo"), (1, "pass"), (2, "pass"), (3, "pass")])
    assert refused(state, 0, "bid 1 rojo").rule_id == R.R_PROMISES
    play_moves(state, [(0, "family rosa")])
    assert refused(state, 1, "offer rojo").rule_id == R.R_PROMISES


@rule(R.R_PRICES)
def test_prices_come_from_the_menu() -> None:
    state = negotiation()
    play_moves(state, [(0, "family verde"), (1, "offer rojo")])
    err = refused(state, 1, "price 4M")  # the payout is 6M: at most 3M or 3 dividends
    assert err.rule_id == R.R_PRICES and "3M" in err.message
    assert refused(state, 1, "price 4 dividends").rule_id == R.R_PRICES


@rule(R.R_PROTOCOL)
def test_the_negotiation_order() -> None:
    state = negotiation()
    assert refused(state, 0, "pass").rule_id == R.R_PROTOCOL  # the boss cannot pass
    assert refused(state, 0, "price 2M").rule_id == R.R_PROTOCOL  # no price is being named
    play_moves(state, [(0, "family verde")])
    err = refused(state, 2, "pass")  # seat 1 is polled, not seat 2
    assert err.rule_id == R.R_PROTOCOL and "seat 1 is being asked" in err.message and "later" in err.message
    assert "decides when the round is over" in refused(state, 0, "close").message
    assert refused(state, 0, "fail").rule_id == R.R_PROTOCOL
    play_moves(state, [(1, "offer rojo")])
    assert refused(state, 1, "pass").rule_id == R.R_PROTOCOL  # name the price first
    assert refused(state, 1, "roll").rule_id == R.R_PROTOCOL


def test_the_boss_closes_only_after_a_quiet_round() -> None:
    state = build_state(3, owner={"rojo": 0, "amarillo": 1}, hands={0: ["hire"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "offer amarillo"), (1, "price 1M"), (2, "pass")])
    play_moves(state, [(0, "accept 1 amarillo")])
    assert state.neg.floor == "poll"  # the boss's act starts a new round
    play_moves(state, [(1, "pass"), (2, "pass")])
    assert "close" in [m.text() for m in game.legal_moves(state, 0)]
    state = build_state(3, owner={"rojo": 0, "amarillo": 0}, hands={1: ["family:rojo"]}, marker=1, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "family rojo"), (1, "price 1M"), (2, "pass")])
    assert state.neg.active and game.view(state, 0)["negotiation"]["complete"]
    err = refused(state, 0, "close")
    assert err.rule_id == R.R_PROTOCOL and "round" in err.message
    play_moves(state, [(0, "pass"), (1, "pass"), (2, "pass"), (0, "close")])
    assert state.deals_done == 1


@rule(R.END)
def test_no_move_after_the_end() -> None:
    state = build_state(4, {"turn_limit": 1}, hands={0: ["hire"]}, marker=3)
    play_moves(state, [(0, "roll"), (0, "draw")])
    assert game.pending(state).kind == "over"
    assert refused(state, 1, "roll").rule_id == R.END


def test_every_cited_rule_id_has_a_test() -> None:
    source = (Path(R.__file__).parent / "refusals.py").read_text(encoding="utf-8")
    cited = {getattr(R, name) for name in re.findall(r"\bR\.([A-Z_]+)\b", source)}
    assert cited <= TESTED, f"rule ids without a test: {sorted(cited - TESTED)}"
    assert game.rule_ids() >= TESTED
