"""The course of play between decisions: starting and ending turns, and the end of the game (sections 3 and 4)."""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.yo_soy_el_jefe.components import MANDATORY_AT
from club_agentes.engine.yo_soy_el_jefe.moves import MAX_SEATS
from club_agentes.engine.yo_soy_el_jefe.state import State

_ON_TURN = tuple(Event(f"seat {seat} is on turn.") for seat in range(MAX_SEATS))
"""The event of a seat's turn starting, by seat (an :class:`Event` is immutable: each is built once)."""


def start_turn(state: State, seat: int) -> None:
    """Give the turn to ``seat`` ("El juego comienza con el primer jugador y continúa en sentido horario")."""
    state.phase = "turn"
    state.turn = seat
    state.neg = None
    state.stop = None
    state.must_negotiate = state.cfg.mandatory_negotiation_with_10_cards and len(state.hands[seat]) >= MANDATORY_AT


def end_turn(state: State, next_seat: int) -> list[Event]:
    """End the turn (after a draw and its discards, a closed deal or a failed one); ``next_seat`` plays next."""
    state.turns_played += 1
    state.neg = None
    state.stop = None
    start_turn(state, next_seat)
    return [_ON_TURN[next_seat]]


def after_limit(state: State) -> list[Event]:
    """After a hire set at the hand limit: end the turn if the hand is now within the limit."""
    seat = state.hand_limit_seat
    if len(state.hands[seat]) <= state.hand_limit():
        state.hand_limit_seat = -1
        state.phase = "turn"
        return end_turn(state, (seat + 1) % state.n)
    state.phase = "discard"
    return []


def game_over(state: State, why: str, rule: str) -> list[Event]:
    """End the game: the most money wins, ties share the win (ruling ``fin-y-empates``)."""
    state.phase = "over"
    state.neg = None
    state.stop = None
    top = max(state.money)
    winners = [s for s in range(state.n) if state.money[s] == top]
    names = " and ".join(f"seat {s}" for s in winners)
    tie = " (a shared win)" if len(winners) > 1 else ""
    state.end_reason = f"{why}; {names} {'have' if len(winners) > 1 else 'has'} the most money, {top}M{tie}."
    state.end_rule = rule
    return [Event(f"The game is over: {state.end_reason}", data={"money": list(state.money)})]
