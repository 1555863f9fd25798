"""How a Market Fortune step is declared with the core step kit (:mod:`club_agentes.engine.core.steps`).

Every step is a core :class:`~club_agentes.engine.core.steps.Step`; :func:`declare` builds one from what a
Market Fortune step says: its candidate moves, per move kind its check and its effect, and the refusal of a
move of a kind it does not take. One seat decides at a time (:func:`~.views.decider`: the polled seat of a
reaction window, else the seat on turn), and every step shares the prompt of :func:`~.views.pending`.

Market Fortune's candidates are built from the parts of the checks themselves (the module docstring of
:mod:`club_agentes.engine.market_fortune.table` says how): they are exactly the moves the checks accept, so
every check is declared as the kit's ``owns`` (what the candidates hold by construction). :meth:`Step.legal`
hands the candidates out as they are; :meth:`Step.apply` runs the check in full, then the effect.
``tests/engine/market_fortune/test_playouts.py`` (``legal_moves_agree_with_apply``) checks, over random
playouts, that the candidates are exactly the moves the checks accept among a wide universe of moves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from club_agentes.engine.core import Pending
from club_agentes.engine.core.steps import Check, Refusal, Step, accept
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.state import REACTION, State
from club_agentes.engine.market_fortune.table import Events, out_of_step
from club_agentes.engine.market_fortune.views import decider, pending

Effect = Callable[[State, int, Any], Events]
"""Applies a move its check accepted; returns the events it caused."""


def _deciding(state: State) -> tuple[int, ...]:
    return (decider(state),)


def _decides(state: State, seat: int) -> bool:
    return seat == decider(state)


def _waiting(state: State, seat: int, now: Pending) -> Refusal:
    """The refusal of a move by a seat that does not decide now."""
    if state.step == REACTION:
        return Refusal(rid.COMBAT, f"seat {decider(state)} is being asked to answer the attack now, not seat {seat}")
    return Refusal(rid.YOUR_TURN, f"it is seat {state.turn}'s turn, not seat {seat}'s")


def out_of(rule: str, text: str) -> Callable[[State, int, Any], Refusal]:
    """Return a step's refusal of a move it does not take: :func:`~.table.out_of_step` with the step's rule and
    the sentence saying what the step expects."""

    def foreign(state: State, seat: int, move: Any) -> Refusal:
        return out_of_step(state, move, rule, text)

    return foreign


def declare(
    name: str,
    candidates: Callable[[State, int], list[Any]],
    moves: Mapping[type, tuple[Check | None, Effect]],
    foreign: Callable[[State, int, Any], Refusal],
) -> Step[State]:
    """Return the core step ``name``.

    Args:
        name: the step's id (``State.step`` holds it).
        candidates: the legal moves of the deciding seat, in listing order (built from the checks' parts).
        moves: move type -> ``(check, effect)``; ``None`` as check: being a candidate is the whole rule.
        foreign: the refusal of a move of any other type.
    """
    owns = {kind: check for kind, (check, _) in moves.items() if check is not None}
    return Step(
        name,
        _deciding,
        pending,
        candidates,
        dict.fromkeys(moves, accept),
        {kind: effect for kind, (_, effect) in moves.items()},
        foreign,
        _waiting,
        owns=owns,
        decides=_decides,
    )
