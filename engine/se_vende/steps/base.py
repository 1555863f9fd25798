"""The shape every Se Vende step takes: per move kind, one check and one effect (pokerkit's verify/can/do).

A move kind's check has two parts, run in this order:

* ``owns(state, seat, move)``: does the move name something the seat holds (a card in its hand,
  a card it drew, one of its worlds, one of its powers, one of its action cards)?
* ``check(state, seat, move)``: the step's rules for a move the seat owns.

Each returns ``None`` or a refusal: a function building the :class:`IllegalMove` (with its rule
id) that refuses the move; neither changes the state. ``effect(state, seat, move, events)``
applies a move both accepted and returns whether the step is complete (then
:mod:`club_agentes.engine.se_vende.flow` moves the round on).

:meth:`Step.check` (and ``apply``) run both parts. :meth:`Step.legal` runs the rules over the
step's candidates, which are exactly the moves the seat owns now (so ``owns`` holds for them by
construction): the listing and the applying share every rule, written once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from club_agentes.engine.core import Event, IllegalMove
from club_agentes.engine.se_vende.state import SeVendeState
from club_agentes.engine.se_vende.table import Refusal, seats_text

Check = Callable[[SeVendeState, int, Any], Refusal | None]
"""Returns the refusal of a move (building an :class:`IllegalMove` that cites its rule), or ``None`` if legal."""
Effect = Callable[[SeVendeState, int, Any, list[Event]], bool]
"""Applies a checked move, appends its events, and returns whether the step is complete."""
Default = Callable[[SeVendeState, int], tuple[Any, str] | None]
"""Returns the rules' default move for a seat that does not decide in time, with its rule id."""


@dataclass(frozen=True, slots=True)
class MoveRule:
    """How a step treats one kind of move.

    Attributes:
        effect: applies a move that passed both checks.
        owns: whether the move names something the seat holds; ``None`` when there is nothing to own.
        check: the step's rules for a move the seat owns; ``None`` when owning it is enough.
    """

    effect: Effect
    owns: Check | None = None
    check: Check | None = None


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
        candidates: a new list of the moves the seat owns now, in the stable order of the listing (the legal
            moves are those the rules accept; ``test_agreement`` checks that listing and applying agree).
        moves: move class -> its checks and effect.
        default: the rules' default move when a seat does not decide in time, if the rules give one.
        sealed: whether the decision is a sealed choice (revealed when every seat has chosen).
    """

    code: int
    rule: str
    what: str
    prompt: str
    deciding: Callable[[SeVendeState, int], bool]
    idle: Callable[[SeVendeState, int], IllegalMove]
    candidates: Callable[[SeVendeState, int], list[Any]]
    moves: Mapping[type, MoveRule]
    default: Default | None = None
    sealed: bool = False
    rules: dict[type, Check | None] = field(init=False, repr=False, compare=False)
    effects: dict[type, Effect] = field(init=False, repr=False, compare=False)
    owning_is_enough: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", {t: r.check for t, r in self.moves.items()})
        object.__setattr__(self, "effects", {t: r.effect for t, r in self.moves.items()})
        object.__setattr__(self, "owning_is_enough", all(r.check is None for r in self.moves.values()))

    def refusal(self, s: SeVendeState, seat: int, move: Any) -> Refusal | None:
        """Return the refusal of ``move`` by ``seat`` (who must be deciding), or ``None`` if it is legal."""
        rule = self.moves.get(type(move))
        if rule is None:
            return lambda: self.wrong(move)
        if rule.owns is not None:
            refusal = rule.owns(s, seat, move)
            if refusal is not None:
                return refusal
        return None if rule.check is None else rule.check(s, seat, move)

    def check(self, s: SeVendeState, seat: int, move: Any) -> IllegalMove | None:
        """Return the :class:`IllegalMove` that refuses ``move`` by ``seat`` (who must be deciding), or ``None``."""
        refusal = self.refusal(s, seat, move)
        return None if refusal is None else refusal()

    def wrong(self, move: Any) -> IllegalMove:
        """Return the refusal of a move of a kind this step does not take."""
        return IllegalMove(self.rule, f"now is {self.what}, so {move.text()!r} cannot be played")

    def legal(self, s: SeVendeState, seat: int) -> list[Any]:
        """Return ``seat``'s legal moves (``seat`` must be deciding): the owned candidates the rules accept."""
        if self.owning_is_enough:
            return self.candidates(s, seat)
        rules = self.rules
        out = []
        for m in self.candidates(s, seat):
            check = rules[type(m)]
            if check is None or check(s, seat, m) is None:
                out.append(m)
        return out

    def play(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> bool:
        """Check and apply ``move``; return whether the step is complete.

        Raises:
            IllegalMove: a check refuses it; the state is unchanged.
        """
        refusal = self.refusal(s, seat, move)
        if refusal is not None:
            raise refusal()
        return self.effects[type(move)](s, seat, move, ev)

    def waiting(self, s: SeVendeState) -> tuple[int, ...]:
        """Return the seats that have a decision to make now, ascending."""
        deciding = self.deciding
        return tuple([x for x in range(s.n) if deciding(s, x)])

    def done(self, s: SeVendeState, waiting: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """Return the seats that took part in this step and have finished it, ascending (``Pending.done``).

        ``waiting`` may pass :meth:`waiting` when the caller has it already.
        """
        if waiting is None:
            waiting = self.waiting(s)
        return tuple([x for x in s.part if x not in waiting])


def idle_refusal(s: SeVendeState, step: Step, seat: int, why: str, rule: str | None = None) -> IllegalMove:
    """Return the refusal for a seat with nothing to decide: ``why`` it is not deciding, and who is."""
    return IllegalMove(rule or step.rule, f"seat {seat} {why}; {seats_text(step.waiting(s))} must decide")
