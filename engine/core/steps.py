"""The one step kit every game declares its steps with (pokerkit's verify / can / do).

A :class:`Step` is one step of a game (a turn, a hand limit, an open negotiation, a sealed choice...). It
declares who decides (``deciding``, and ``pending`` with the prompt), its candidate moves (``candidates``: a
superset of the legal ones, cheap to build, in listing order) and, for each move kind, one check and one
effect:

* a **check** ``(state, seat, move) -> Refusal | None`` returns ``None`` for a legal move, else the
  :class:`Refusal` citing its rule id, whose sentence is written only when a move is refused for real
  (``say`` is a string or a function called then), never for the candidates that listing drops;
* an **effect** ``(state, seat, move) -> events`` changes the state for a move its check accepted.

:meth:`Step.legal` keeps the candidates the checks accept; :meth:`Step.apply` runs the same check, then the
effect: listing and applying cannot disagree, and no rule is written twice.

Whatever caching speed needs lives here too, in one place: :class:`Memo`, kept on a state and keyed by the
state's ``version`` (which every effect raises), holds the pending decision, the step it was worked out in,
and the last legal list; :func:`run_apply` lets a move listed at this version (the very object, as a bot or
the search picks one) skip its check, since listing ran it. Rule modules hold rules only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from club_agentes.engine.core.errors import IllegalMove
from club_agentes.engine.core.model import Pending

S = TypeVar("S")
"""The game's state type (every game names it ``State``)."""
E = TypeVar("E")
"""What a game's effects return (the events the move caused, or whether the step is complete)."""
T = TypeVar("T")
"""What :func:`kept` keeps."""


class Refusal(NamedTuple):
    """Why a check refuses a move: the corpus id of the rule it breaks, and how to say why.

    ``say`` is the sentence, or a function (no argument) that writes it: the sentence is formatted only by
    :meth:`illegal`, when a move is refused for real. A check that words its sentence from locals binds them
    as the function's defaults (``lambda move=move: f"..."``) rather than by closure: on Python 3.11 a
    closure turns those locals into cells, which every call of the check would pay for, refused or not.
    """

    rule_id: str
    say: str | Callable[..., str]  # called with no argument (its defaults may hold the values it reads)

    @property
    def message(self) -> str:
        """The sentence."""
        say = self.say
        return say if isinstance(say, str) else say()

    def illegal(self) -> IllegalMove:
        """Return the refusal as the :class:`IllegalMove` a game returns or raises (its sentence written now)."""
        say = self.say
        return IllegalMove(self.rule_id, say if isinstance(say, str) else say())


Check = Callable[[Any, int, Any], Refusal | None]
"""A check: ``(state, seat, move) -> None`` when the move is legal, else the refusal citing its rule."""
Effect = Callable[..., Any]
"""An effect: applies a checked move, ``(state, seat, move) -> events`` (Se Vende's also take the list its events
go to and return whether the step is complete, ``(state, seat, move, events) -> bool``)."""

_NOT_TAKEN = Refusal("", "not taken")

LISTED_KEPT = 4096
"""How many legal lists a step keeps under its ``listing_key`` (all are dropped when it holds more)."""


def _not_taken(state: Any, seat: int, move: Any) -> Refusal:
    """The check :meth:`Step.legal` runs for a candidate of a kind the step has no check for: refuse it."""
    return _NOT_TAKEN


def _accept(state: Any, seat: int, move: Any) -> None:
    """The check of a move kind with no rule beyond being a candidate."""
    return None


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """One step of a game: who decides, what may be played, one check and one effect per move kind.

    Attributes:
        name: the step's id, a string (``"negotiation"``, ``"hand-limit"``), as the state records it.
        deciding: the seats that decide now, ascending (what ``pending`` says, without its prompt: cheap).
        pending: who must decide now, with the prompt.
        candidates: the moves to try for a deciding seat (a superset of the legal ones), in listing order.
        checks: move type -> its check (``accept`` when being a candidate is the whole rule).
        owns: move type -> the part of its check that the candidates hold by construction (the move names
            something the seat holds: a card in its hand, one of its worlds...): :meth:`check` runs it first,
            :meth:`legal` does not, as every candidate passes it.
        effects: move type -> its effect (called only after its check passed).
        foreign: the refusal of a move of a kind this step does not take.
        waiting: the refusal for a seat that does not decide now (given the current :class:`Pending`).
        decides: whether one seat decides now, when that is cheaper than ``deciding`` (several seats deciding
            at once); ``None``: :meth:`is_deciding` reads ``deciding``.
        default: the rules' default move for a deciding seat that does not decide in time, with its rule id
            (``None``: the step has none).
        listing_key: ``None``, or a function returning, for a deciding seat, ``None`` or a key naming everything
            the candidates and their checks read now: the legal list worked out for a key is kept (by the kit,
            at most ``LISTED_KEPT`` of them) and handed out again for an equal key.
    """

    name: str
    deciding: Callable[[S], tuple[int, ...]]
    pending: Callable[[S], Pending]
    candidates: Callable[[S, int], Iterable[Any]]
    checks: Mapping[type, Check]
    effects: Mapping[type, Effect]
    foreign: Callable[[S, int, Any], Refusal]
    waiting: Callable[[S, int, Pending], Refusal]
    owns: Mapping[type, Check] = field(default_factory=dict)
    decides: Callable[[S, int], bool] | None = None
    default: Callable[[S, int], tuple[Any, str] | None] | None = None
    listing_key: Callable[[S, int], Hashable | None] | None = None
    listed: dict[Hashable, list[Any]] = field(default_factory=dict, compare=False, repr=False)
    accepts_all: bool = field(init=False, compare=False, repr=False)
    rules: dict[type, tuple[Check | None, Check | None, Effect]] = field(init=False, compare=False, repr=False)
    """move type -> (its ``owns`` part or ``None``, its check or ``None`` for ``accept``, its effect): what
    :meth:`apply` reads with one look-up."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "accepts_all", all(fn is _accept for fn in self.checks.values()))
        rules = {
            kind: (self.owns.get(kind), None if fn is _accept else fn, self.effects[kind])
            for kind, fn in self.checks.items()
        }
        object.__setattr__(self, "rules", rules)

    def is_deciding(self, state: S, seat: int) -> bool:
        """Return whether ``seat`` decides now."""
        decides = self.decides
        return seat in self.deciding(state) if decides is None else decides(state, seat)

    def check(self, state: S, seat: int, move: Any) -> Refusal | None:
        """Return ``None`` if ``move`` is legal for ``seat`` (a deciding seat) now, else its refusal."""
        kind = type(move)
        fn = self.checks.get(kind)
        if fn is None:
            return self.foreign(state, seat, move)
        own = self.owns.get(kind)
        if own is not None:
            refusal = own(state, seat, move)
            if refusal is not None:
                return refusal
        return None if fn is _accept else fn(state, seat, move)

    def legal(self, state: S, seat: int) -> list[Any]:
        """Return the candidates the checks accept, in the candidates' order (``seat`` must be deciding)."""
        listing_key = self.listing_key
        key = None if listing_key is None else listing_key(state, seat)
        if key is not None:
            kept = self.listed.get(key)
            if kept is not None:
                return list(kept)
        if self.accepts_all:
            moves = self.candidates(state, seat)
            out = moves if type(moves) is list else list(moves)
        else:
            checks = self.checks
            out = []
            keep = out.append
            kind: type | None = None
            fn: Check = _not_taken
            for m in self.candidates(state, seat):
                if type(m) is not kind:  # candidates come in runs of one kind (bids, prices, cards...)
                    kind = type(m)
                    fn = checks.get(kind, _not_taken)
                if fn is _accept or fn(state, seat, m) is None:
                    keep(m)
        if key is not None:
            if len(self.listed) >= LISTED_KEPT:
                self.listed.clear()
            self.listed[key] = out
            return list(out)
        return out

    def apply(self, state: S, seat: int, move: Any) -> Any:
        """Check ``move`` by ``seat`` (a deciding seat), then apply it; return what its effect returns.

        Raises:
            IllegalMove: a check refuses it (citing its rule); the state is unchanged.
        """
        rule = self.rules.get(type(move))
        if rule is None:
            raise self.foreign(state, seat, move).illegal()
        own, fn, effect = rule  # the parts :meth:`check` runs, read with one look-up
        refusal = None if own is None else own(state, seat, move)
        if refusal is None and fn is not None:
            refusal = fn(state, seat, move)
        if refusal is not None:
            raise refusal.illegal()
        return effect(state, seat, move)


accept: Check = _accept
"""The check of a move kind whose only rule is being among the step's candidates (which the listing builds
from what the seat may play): :meth:`Step.legal` keeps such candidates without a call."""


# ------------------------------------------------------------------------------ caching, in one place


_NONE_LISTED: list[Any] = []
"""The legal list of a memo that has listed nothing yet (never handed out: ``seat`` is -1 then)."""


_NOT_WORKED_OUT = Pending("turn", ())
"""The pending decision of a memo made by :func:`kept` before :func:`memo_of` worked one out (its version is -1,
which no state has, so nothing reads it)."""


class Memo:
    """What was worked out for a state at one ``version``: the step, the pending decision, one legal list.

    A state holds one in its ``memo`` slot (``None`` in a new copy); every effect raises ``state.version``,
    so nothing kept for an older version is ever read. Shared by the search (many decisions of one state) and
    the server (``pending`` then ``legal_moves`` then ``apply`` of one decision).
    """

    __slots__ = ("kept", "kept_version", "lasting", "legal", "pending", "seat", "step", "version")

    def __init__(self, version: int, step: Any, pending: Pending) -> None:
        self.version = version
        self.step = step
        self.pending = pending
        self.seat = -1
        self.legal: list[Any] = _NONE_LISTED
        self.kept: dict[Callable[[Any], Any], Any] = {}  # what kept() worked out, by function, at kept_version
        self.kept_version = -1
        # what kept_while() worked out, by function: (the part of the state, its count then, the value)
        self.lasting: dict[Callable[[Any], Any], tuple[object, int, Any]] = {}


def memo_of(state: Any, step_of: Callable[[Any], Step[Any] | None], over: Callable[[Any], Pending]) -> Memo:
    """Return the state's :class:`Memo` for its current version, working out the step and pending if needed.

    ``step_of`` returns the step the state is in (``None`` once the game is over, then ``over(state)`` is the
    pending decision).
    """
    memo: Memo | None = state.memo
    version = state.version
    if memo is not None and memo.version == version:
        return memo
    step = step_of(state)
    pending = over(state) if step is None else step.pending(state)
    if memo is None:
        memo = state.memo = Memo(version, step, pending)
    else:  # the state's own memo, of an older version: filled anew in place (no new object per decision)
        memo.version = version
        memo.step = step
        memo.pending = pending
        memo.seat = -1
        memo.legal = _NONE_LISTED
    return memo


def memo_legal(
    state: Any, seat: int, step_of: Callable[[Any], Step[Any] | None], over: Callable[[Any], Pending]
) -> list[Any]:
    """Return (a new list of) ``seat``'s legal moves now, kept in the state's memo for the next call with ``seat``."""
    memo: Memo | None = state.memo
    if memo is None or memo.version != state.version:
        memo = memo_of(state, step_of, over)
    elif memo.seat == seat:
        return list(memo.legal)
    step = memo.step
    moves = step.legal(state, seat) if step is not None and seat in memo.pending.seats else []
    memo.seat = seat
    memo.legal = moves
    return list(moves)


def listed_step(state: Any, seat: int, move: Any) -> Step[Any] | None:
    """Return the step of the state's memo if ``move`` is the very object listed as legal for ``seat`` at the
    state's version (its checks ran when it was listed, so it needs none now), else ``None``.

    By identity: ``in`` would call the dataclass ``__eq__`` (a Python call) on every listed move before it;
    an equal move built elsewhere goes through its check.
    """
    memo: Memo | None = state.memo
    if memo is None or memo.version != state.version or memo.seat != seat:
        return None
    for m in memo.legal:
        if m is move:
            return memo.step
    return None


def kept(state: Any, work: Callable[[Any], T]) -> T:
    """Return ``work(state)``, worked out once per state version and kept in the state's :class:`Memo`.

    For what a view or a prompt reads again and again between two moves (who knows each card, say): ``work``
    must read only ``state`` and change nothing. Not for an effect: the version is raised before the effect
    runs, so what is worked out during one would be kept for a state it then changes. Raises what ``work``
    raises (then nothing is kept).
    """
    memo: Memo | None = state.memo
    if memo is None:
        memo = state.memo = Memo(-1, None, _NOT_WORKED_OUT)  # memo_of fills step, pending and legal when asked
    values = memo.kept
    version = state.version
    if memo.kept_version != version:
        values.clear()
        memo.kept_version = version
    elif work in values:
        value: T = values[work]
        return value
    value = values[work] = work(state)
    return value


def kept_while(state: Any, work: Callable[[Any], T], part: object, count: int) -> T:
    """Return ``work(state)``, worked out once while ``part`` (an object of the state, by identity) stands at
    ``count``, kept in the state's :class:`Memo` over any number of versions.

    For what changes only with one part of the state, which counts its own changes (a negotiation counts the
    changes to its terms; moves in between, such as passes, raise the state's version but not that count):
    ``work`` must read only what changes with ``count`` (or never), and change nothing. A new part (a new
    negotiation, whose count starts again) is never mistaken for the one kept: the memo holds that part, so
    its identity is not reused. A copy of the state starts with no memo. Raises what ``work`` raises (then
    nothing is kept).
    """
    memo: Memo | None = state.memo
    if memo is None:
        memo = state.memo = Memo(-1, None, _NOT_WORKED_OUT)  # memo_of fills step, pending and legal when asked
    lasting = memo.lasting
    found = lasting.get(work)
    if found is not None and found[0] is part and found[1] == count:
        value: T = found[2]
        return value
    value = work(state)
    lasting[work] = (part, count, value)
    return value
