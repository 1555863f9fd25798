"""The shape every Se Vende step takes: per move kind, one check and one effect (pokerkit's verify/can/do).

* ``check(state, seat, move)`` returns ``None`` or the :class:`IllegalMove` (with its rule id)
  that refuses the move; it never changes the state.
* ``effect(state, seat, move, events)`` applies a move its check accepted and returns whether
  the step is complete (then :mod:`club_agentes.engine.se_vende.flow` moves the round on).

:meth:`Step.legal` lists a seat's legal moves by running the checks over the step's candidate
moves; :meth:`Step.play` runs the same check before the effect.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import Event, IllegalMove
from club_agentes.engine.se_vende.common import seats_text
from club_agentes.engine.se_vende.state import SeVendeState

Check = Callable[[SeVendeState, int, Any], IllegalMove | None]
"""Returns the refusal of a move (citing its rule), or ``None`` when the move is legal."""
Effect = Callable[[SeVendeState, int, Any, list[Event]], bool]
"""Applies a checked move, appends its events, and returns whether the step is complete."""
Default = Callable[[SeVendeState, int], tuple[Any, str] | None]
"""Returns the rules' default move for a seat that does not decide in time, with its rule id."""


@dataclass(frozen=True, slots=True)
class MoveRule:
    """How a step treats one kind of move: its check and its effect."""

    check: Check
    effect: Effect


@dataclass(frozen=True)
class Step:
    """One step of the game: who decides, which moves it takes, and what they do.

    Attributes:
        code: the state's step number (``state.SETUP`` ...).
        rule: the rule cited when a move of a kind this step does not take is played.
        what: the step in a few words, for that refusal (``"setup step 5 (discard two of your six cards)"``).
        prompt: the decision in one sentence (``Pending.prompt``).
        deciding: whether a seat has a decision to make now.
        idle: the refusal for a seat that has nothing to decide now.
        candidates: the moves worth checking for a seat, in the stable order of the listing.
        moves: move class -> its check and effect.
        default: the rules' default move when a seat does not decide in time, if the rules give one.
        sealed: whether the decision is a sealed choice (revealed when every seat has chosen).
    """

    code: int
    rule: str
    what: str
    prompt: str
    deciding: Callable[[SeVendeState, int], bool]
    idle: Callable[[SeVendeState, int], IllegalMove]
    candidates: Callable[[SeVendeState, int], Iterable[Any]]
    moves: Mapping[type, MoveRule]
    default: Default | None = None
    sealed: bool = False

    def check(self, s: SeVendeState, seat: int, move: Any) -> IllegalMove | None:
        """Return the refusal of ``move`` by ``seat`` (who must be deciding), or ``None`` if it is legal."""
        rule = self.moves.get(type(move))
        if rule is None:
            return IllegalMove(self.rule, f"now is {self.what}, so {move.text()!r} cannot be played")
        return rule.check(s, seat, move)

    def legal(self, s: SeVendeState, seat: int) -> list[Any]:
        """Return ``seat``'s legal moves (``seat`` must be deciding): the candidates every check accepts."""
        moves = self.moves
        return [m for m in self.candidates(s, seat) if moves[type(m)].check(s, seat, m) is None]

    def play(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> bool:
        """Check and apply ``move``; return whether the step is complete.

        Raises:
            IllegalMove: the check refuses it; the state is unchanged.
        """
        refusal = self.check(s, seat, move)
        if refusal is not None:
            raise refusal
        return self.moves[type(move)].effect(s, seat, move, ev)

    def waiting(self, s: SeVendeState) -> tuple[int, ...]:
        """Return the seats that have a decision to make now, ascending."""
        return tuple(x for x in range(s.n) if self.deciding(s, x))

    def done(self, s: SeVendeState) -> tuple[int, ...]:
        """Return the seats that took part in this step and have finished it, ascending (``Pending.done``)."""
        return tuple(x for x in s.part if not self.deciding(s, x))


def idle_refusal(s: SeVendeState, step: Step, seat: int, why: str, rule: str | None = None) -> IllegalMove:
    """Return the refusal for a seat with nothing to decide: ``why`` it is not deciding, and who is."""
    return IllegalMove(rule or step.rule, f"seat {seat} {why}; {seats_text(step.waiting(s))} must decide")
