"""How a Se Vende step is declared with the core step kit (:mod:`club_agentes.engine.core.steps`).

Every step is a core :class:`~club_agentes.engine.core.steps.Step`; :func:`declare` builds one from what a Se
Vende step says: its prompt, whether a seat decides (every decision of a round is simultaneous) and, per
move kind, its effect and the two parts of its check, run in this order:

* ``owns(state, seat, move)``: does the move name something the seat holds (a card in its hand, a card it
  drew, one of its worlds, one of its powers)? The candidates are exactly the moves the seat owns now, so
  listing skips this part (the kit's ``owns``);
* ``check(state, seat, move)``: the step's rules for a move the seat owns.

An effect of Se Vende is ``effect(state, seat, move, events) -> bool``: it appends its events and returns
whether the step is complete (then :mod:`club_agentes.engine.se_vende.flow` moves the round on).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from club_agentes.engine.core import Event, Pending
from club_agentes.engine.core.steps import Check, Refusal, Step, accept
from club_agentes.engine.se_vende.state import State
from club_agentes.engine.se_vende.table import seats_text

Effect = Callable[[State, int, Any, list[Event]], bool]
"""Applies a checked move, appends its events, and returns whether the step is complete."""
Default = Callable[[State, int], tuple[Any, str] | None]
"""Returns the rules' default move for a seat that does not decide in time, with its rule id."""
MoveKind = tuple[Effect, Check | None, Check | None]
"""How a step treats one kind of move: ``(effect, owns, check)`` (``None``: nothing to own, or owning it is enough)."""


def declare(
    name: str,
    *,
    rule: str,
    what: str,
    prompt: str,
    deciding: Callable[[State, int], bool],
    idle: Callable[[State, int], Refusal],
    candidates: Callable[[State, int], list[Any]],
    moves: Mapping[type, MoveKind],
    default: Default | None = None,
) -> Step[State]:
    """Return the core :class:`Step` of a Se Vende step.

    Args:
        name: the step's id (``"setup"``, ``"select"``...).
        rule: the rule cited when a move of a kind this step does not take is played.
        what: the step in a few words, for that refusal (``"setup step 5 (discard two of your six cards)"``).
        prompt: the decision in one sentence (``Pending.prompt``).
        deciding: whether a seat has a decision to make now.
        idle: the refusal for a seat that has nothing to decide now.
        candidates: a new list of the moves the seat owns now, in the stable order of the listing.
        moves: move class -> ``(effect, owns, check)``.
        default: the rules' default move when a seat does not decide in time, if the rules give one.
    """

    def waiting(state: State) -> tuple[int, ...]:
        return tuple([x for x in range(state.n) if deciding(state, x)])

    def pending(state: State) -> Pending:
        # loops, not comprehensions: a comprehension is one more frame (and closure cells) on Python 3.11, and
        # this runs once per decision
        seats = []
        for x in range(state.n):
            if deciding(state, x):
                seats.append(x)
        done = []
        for x in state.part:
            if x not in seats:
                done.append(x)
        return Pending("simultaneous", tuple(seats), prompt, tuple(done))

    def foreign(state: State, seat: int, move: Any) -> Refusal:
        return Refusal(rule, lambda: f"now is {what}, so {move.text()!r} cannot be played")

    return Step(
        name=name,
        deciding=waiting,
        pending=pending,
        candidates=candidates,
        checks={kind: accept if check is None else check for kind, (_, _, check) in moves.items()},
        effects={kind: effect for kind, (effect, _, _) in moves.items()},
        owns={kind: owns for kind, (_, owns, _) in moves.items() if owns is not None},
        decides=deciding,
        foreign=foreign,
        waiting=lambda s, seat, p: idle(s, seat),
        default=default,
    )


def idle_refusal(state: State, step: Step[State], seat: int, why: str, rule: str) -> Refusal:
    """Return the refusal for a seat with nothing to decide: ``why`` it is not deciding, and who is."""
    return Refusal(rule, lambda: f"seat {seat} {why}; {seats_text(step.deciding(state))} must decide")
