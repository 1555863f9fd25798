"""The shape every step of the game shares (the pokerkit pattern: verify, can, do).

A :class:`Phase` is one step of the game (placing the marker, a turn, the hand limit, an open
negotiation, a stop window). It says who decides (``pending``), proposes candidate moves
(``candidates``: a superset of the legal ones, cheap to build), checks one move
(``check``: ``None`` or the :class:`IllegalMove` that refuses it, citing its rule) and applies a
checked move (``do``). Listing legal moves keeps the candidates the check accepts; applying a move
runs the same check first, so the two can never disagree and no rule is written twice.

A check function returns ``None`` or a :class:`Refusal`: the rule it cites and how to say why, the
sentence written only when a move is refused for real (:meth:`Phase.check`), not for every candidate
that listing drops.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from club_agentes.engine.core import Event, IllegalMove, Pending, SharedEvents
from club_agentes.engine.yo_soy_el_jefe.state import State


class Refusal(NamedTuple):
    """Why a check refuses a move: the corpus id of the rule, and a function that says it in one sentence.

    The sentence is formatted only by :meth:`illegal` (listing the legal moves checks every candidate and
    drops the refused ones without reading why). A check binds the values its sentence reads as the
    function's defaults (``lambda move=move: f"..."``), not by closure: on Python 3.11 a closure turns those
    locals into cells, which every call of the check would pay for, refused or not.
    """

    rule_id: str
    say: Callable[..., str]  # called with no argument (``Callable[..., str]``: its defaults hold the values)

    def illegal(self) -> IllegalMove:
        """Return the refusal as the :class:`IllegalMove` the game returns or raises (its sentence written now)."""
        return IllegalMove(self.rule_id, self.say())


Check = Callable[[State, int, Any], Refusal | None]
"""A check: ``(state, seat, move) -> None`` when legal, else the refusal citing its rule."""
Do = Callable[[State, int, Any], list[Event]]
"""An effect: applies a checked move and returns the events it caused."""

SAID = SharedEvents(65536)
"""Events that say the same every time they happen (a bid, a pass, a price named...), by what they say: an
:class:`Event` is immutable, so each is built once (see :func:`said`)."""
said = SAID.keep
"""Keep ``event`` under ``key`` in :data:`SAID` (emptied when it holds too many) and return it."""


LISTED_KEPT = 4096
"""How many legal lists a step keeps under its ``listing_key`` (all are dropped when it holds more)."""


_NO_CHECK = Refusal("", lambda: "no check")


def _unchecked(state: State, seat: int, move: Any) -> Refusal:
    """Refuse, in :meth:`Phase.legal`, a candidate of a type the step has no check for (:meth:`Phase.check` gives
    the step's ``foreign`` refusal for it)."""
    return _NO_CHECK


@dataclass(frozen=True, slots=True)
class Phase:
    """One step of the game: who decides, what may be played, the checks and the effects.

    Attributes:
        name: the step's name, e.g. ``"negotiation"``.
        deciding: the seats that may decide now (what ``pending`` says, without its prompt: cheap).
        pending: who must decide now, with the prompt.
        candidates: moves to try for a deciding seat (a superset of the legal ones), in listing order.
        checks: move type -> its check.
        effects: move type -> its effect (called only after its check passed).
        foreign: the refusal for a move type this step has no check for.
        waiting: the refusal for a seat that does not decide now (given the current :class:`Pending`).
        listing_key: ``None``, or a function returning, for a deciding seat, ``None`` or a key that holds
            everything the candidates and their checks read now: the legal list worked out for a key is
            kept (``listed``) and handed out again for an equal key, not worked out anew.
        listed: the kept legal lists, by ``listing_key``.
    """

    name: str
    deciding: Callable[[State], tuple[int, ...]]
    pending: Callable[[State], Pending]
    candidates: Callable[[State, int], Iterable[Any]]
    checks: Mapping[type, Check]
    effects: Mapping[type, Do]
    foreign: Callable[[State, int, Any], IllegalMove]
    waiting: Callable[[State, int, Pending], IllegalMove]
    listing_key: Callable[[State, int], Hashable | None] | None = None
    listed: dict[Hashable, list[Any]] = field(default_factory=dict, compare=False, repr=False)

    def check(self, state: State, seat: int, move: Any) -> IllegalMove | None:
        """Return ``None`` if ``move`` is legal for ``seat`` (a deciding seat) now, else its refusal."""
        fn = self.checks.get(type(move))
        if fn is None:
            return self.foreign(state, seat, move)
        refusal = fn(state, seat, move)
        return None if refusal is None else refusal.illegal()

    def legal(self, state: State, seat: int) -> list[Any]:
        """Return the candidates the checks accept, in the candidates' order."""
        key = None if self.listing_key is None else self.listing_key(state, seat)
        if key is not None:
            kept = self.listed.get(key)
            if kept is not None:
                return list(kept)
        checks = self.checks
        out: list[Any] = []
        keep = out.append
        kind: type | None = None
        fn: Check = _unchecked
        for m in self.candidates(state, seat):
            if type(m) is not kind:  # candidates come in runs of one type (bids, prices, ...)
                kind = type(m)
                fn = checks.get(kind, _unchecked)
            if fn(state, seat, m) is None:
                keep(m)
        if key is not None:
            if len(self.listed) >= LISTED_KEPT:
                self.listed.clear()
            self.listed[key] = out
            return list(out)
        return out
