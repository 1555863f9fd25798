"""Se Vende's mutable game state.

The game's numbers (``HAND_MAX``, ``CHIPS_PER_SEAT``, ``TENS``...) are named here once; the phases
(``EXPLORE``... ``PHASE_NAMES``, ``PHASE_OF_ACTION``) come from :mod:`.actions` and are importable
from here too.

Cards are small integers (their 0-based number; ``load_deck().ids[c]`` is the id). Piles are
plain lists; the supply's top is the END of its list. A state copies itself quickly
(:meth:`State.clone`, for search); the table's configuration is in :mod:`.config` and the
state's JSON snapshot in :mod:`.snapshots`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from club_agentes.engine.core import Result, Rng, SealedChoices
from club_agentes.engine.core.steps import Memo
from club_agentes.engine.se_vende.actions import (
    CONSUME,
    DEVELOP,
    EXPLORE,
    PHASE_NAMES,
    PHASE_OF_ACTION,
    PRODUCE,
    SETTLE,
)
from club_agentes.engine.se_vende.cards import Power, load_deck

if TYPE_CHECKING:
    from club_agentes.engine.se_vende.config import SeVendeConfig

__all__ = [
    "CHIPS_PER_SEAT",
    "CONSUME",
    "CONSUMING",
    "DEVELOP",
    "DEVELOP_PAY",
    "DEVELOP_PLACE",
    "EXPLORE",
    "EXPLORE_KEEP",
    "HAND_LIMIT",
    "HAND_MAX",
    "NO_CARD",
    "OVER",
    "PHASE_NAMES",
    "PHASE_OF_ACTION",
    "PRODUCE",
    "PRODUCING",
    "SELECT",
    "SETTLE",
    "SETTLE_PAY",
    "SETTLE_PLACE",
    "SETUP",
    "SETUP_DEAL",
    "SETUP_DISCARDS",
    "STEP_NAMES",
    "TABLEAU_END",
    "TENS",
    "Board",
    "ConsumeSeat",
    "PowerRef",
    "State",
    "WindfallRight",
    "stamp",
]

# Steps: who must decide what now.
SETUP, SELECT, EXPLORE_KEEP, DEVELOP_PLACE, DEVELOP_PAY, SETTLE_PLACE, SETTLE_PAY = 0, 1, 2, 3, 4, 5, 6
CONSUMING, PRODUCING, HAND_LIMIT, OVER = 7, 8, 9, 10
STEP_NAMES: tuple[str, ...] = (
    "setup_discard",
    "choose_action",
    "explore_keep",
    "develop_place",
    "develop_pay",
    "settle_place",
    "settle_pay",
    "consume",
    "produce",
    "hand_limit",
    "over",
)

NO_CARD = -1
HAND_MAX = 10
"""The hand limit at the end of a round (se-vende/preguntas/limite-de-mano)."""
SETUP_DEAL = 6
"""Cards dealt to each seat at setup step 4."""
SETUP_DISCARDS = 2
"""Cards each seat discards at setup step 5."""
TABLEAU_END = 12
"""A tableau of this many cards ends the game at the end of the round (se-vende/fin-de-la-partida)."""
CHIPS_PER_SEAT = 12
TENS = 40  # the four 10-point chips kept for the final round

_IDS = load_deck().ids


def stamp(round_no: int, phase: int) -> int:
    """Return the ordering stamp of a phase of a round (round 0 is the setup)."""
    return round_no * 8 + phase


@dataclass(frozen=True, slots=True, eq=False)
class PowerRef:
    """One consume power of a tableau card: the card, the power's position on it, and the power.

    Two refs are equal when they name the same card and position (the power follows from them).
    """

    card: int
    index: int
    power: Power

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PowerRef) and self.card == other.card and self.index == other.index

    def __hash__(self) -> int:
        return self.card * 16 + self.index


@dataclass(frozen=True, slots=True)
class WindfallRight:
    """One windfall production a seat may make in Producir: who grants it and which kind of world it fills.

    Attributes:
        source: the card whose power grants it, or ``NO_CARD`` for the Producir chooser's bonus.
        kind: the kind of good (``"any"`` for every kind).
    """

    source: int
    kind: str


class ConsumeSeat:
    """One seat's progress through a Consumir phase."""

    __slots__ = (
        "active",
        "by_key",
        "double",
        "finished",
        "gained_vp",
        "must_sell",
        "powers",
        "remaining",
        "taken",
        "used",
    )

    def __init__(self, must_sell: bool, double: bool, powers: list[PowerRef]) -> None:
        self.must_sell = must_sell
        self.double = double
        self.powers = powers  # never changed after the phase begins (copies share it)
        self.by_key: dict[tuple[str, int], PowerRef] = {(_IDS[p.card], p.index): p for p in powers}
        self.used: set[PowerRef] = set()
        self.active: PowerRef | None = None
        self.remaining = 0
        self.taken: list[int] = []
        self.gained_vp = 0
        self.finished = False

    def clone(self) -> ConsumeSeat:
        """Return an independent copy."""
        c = ConsumeSeat.__new__(ConsumeSeat)
        c.must_sell = self.must_sell
        c.double = self.double
        c.powers = self.powers
        c.by_key = self.by_key
        c.used = set(self.used)
        c.active = self.active
        c.remaining = self.remaining
        c.taken = list(self.taken)
        c.gained_vp = self.gained_vp
        c.finished = self.finished
        return c


@dataclass(frozen=True, slots=True)
class Board:
    """The public table as it stood when a step in which seats act at once began.

    While the step lasts, each seat is shown the other seats and the shared piles as they stood
    then; what the others do shows when every seat has finished (se-vende/rulings/decisiones).

    Attributes:
        hand_sizes, chips: per seat.
        goods: the worlds holding a good.
        supply, discard: the piles' sizes.
        pool: the chip supply; tens_added, chips_out: as in the state.
    """

    hand_sizes: tuple[int, ...]
    chips: tuple[int, ...]
    goods: frozenset[int]
    supply: int
    discard: int
    pool: int
    tens_added: bool
    chips_out: bool

    @classmethod
    def of(cls, state: State) -> Board:
        """Return the public table of ``state`` now."""
        return cls(
            tuple(len(h) for h in state.hands),
            tuple(state.chips),
            frozenset(state.goods),
            len(state.supply),
            len(state.discard),
            state.pool,
            state.tens_added,
            state.chips_out,
        )


class State:
    """Everything about one game of Se Vende, hidden parts included.

    Attributes (the ones views and rules read most):
        step: who must decide what now (``SETUP`` ... ``OVER``).
        phase: the phase running now (``EXPLORE`` ... ``PRODUCE``), 0 outside the phases.
        phases: the chosen phases still to run this round, in order.
        supply, discard: the face-down piles (the supply's top is its last card).
        hands, tableau: per seat.
        stamps: tableau card -> ``stamp(round, phase)`` of its placing (powers count after it).
        goods: world -> the face-down card lying on it as a good.
        known: discard-pile card -> the seat that put it there face down and still knows it is
            there (forgotten when the discard pile is shuffled into the supply).
        part: the seats that take part in the current step's decisions (``Pending.done`` is
            those of them that have finished).
        board: during a step in which seats act at once and openly (setup discards, keeps,
            payments, Consumir, Producir, the hand limit), the public table as it stood when the
            step began; ``None`` otherwise.
        version: raised by every change (every move applied): the key under which ``memo`` (the core step
            kit's :class:`~club_agentes.engine.core.steps.Memo`: the step, the pending decision, the last legal
            list) holds for this state; a copy starts with no memo.
    """

    __slots__ = (
        "actions",
        "board",
        "chips",
        "chips_out",
        "chosen",
        "consume",
        "discard",
        "drawn",
        "goods",
        "hands",
        "known",
        "memo",
        "n",
        "part",
        "phase",
        "phases",
        "placed",
        "placing",
        "pool",
        "previous",
        "produce",
        "produced",
        "result",
        "rng",
        "round",
        "stamps",
        "step",
        "supply",
        "tableau",
        "tens_added",
        "todo",
        "turn_limit",
        "version",
    )

    def __init__(self, config: SeVendeConfig, seed: int) -> None:
        n = config.seats
        self.n = n
        self.turn_limit = config.turn_limit
        self.rng = Rng(seed)
        self.round = 0
        self.step = SETUP
        self.phase = 0
        self.phases: list[int] = []
        self.supply: list[int] = []
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.tableau: list[list[int]] = [[] for _ in range(n)]
        self.stamps: dict[int, int] = {}
        self.goods: dict[int, int] = {}
        self.known: dict[int, int] = {}
        self.chips = [0] * n
        self.pool = CHIPS_PER_SEAT * n
        self.tens_added = False
        self.chips_out = False
        self.actions: SealedChoices[str] = SealedChoices(range(n))
        self.chosen: dict[int, str] | None = None
        self.previous: dict[int, str] | None = None
        self.part: tuple[int, ...] = tuple(range(n))
        self.board: Board | None = None
        self.todo = [0] * n
        self.drawn: list[list[int]] = [[] for _ in range(n)]
        self.placing: SealedChoices[int] = SealedChoices(range(n))
        self.placed = [NO_CARD] * n
        self.consume: list[ConsumeSeat | None] = [None] * n
        self.produce: list[list[WindfallRight]] = [[] for _ in range(n)]
        self.produced: list[list[str]] = [[] for _ in range(n)]
        self.result: Result | None = None
        self.version = 0  # raised by every move applied (and every other change): the key of ``memo``
        self.memo: Memo | None = None  # the core step kit's memo of this version (core.steps.memo_of)

    # ------------------------------------------------------------------ copies

    def clone(self) -> State:
        """Return an independent copy (fast: lists and dicts are copied one level, values are immutable)."""
        c = State.__new__(State)
        c.n = self.n
        c.turn_limit = self.turn_limit
        c.rng = self.rng.copy()
        c.round = self.round
        c.step = self.step
        c.phase = self.phase
        c.phases = list(self.phases)
        c.supply = list(self.supply)
        c.discard = list(self.discard)
        c.hands = [list(h) for h in self.hands]
        c.tableau = [list(t) for t in self.tableau]
        c.stamps = dict(self.stamps)
        c.goods = dict(self.goods)
        c.known = dict(self.known)
        c.chips = list(self.chips)
        c.pool = self.pool
        c.tens_added = self.tens_added
        c.chips_out = self.chips_out
        c.actions = self.actions.copy()
        c.chosen = None if self.chosen is None else dict(self.chosen)
        c.previous = None if self.previous is None else dict(self.previous)
        c.part = self.part
        c.board = self.board
        c.todo = list(self.todo)
        c.drawn = [list(d) for d in self.drawn]
        c.placing = self.placing.copy()
        c.placed = list(self.placed)
        c.consume = [None if x is None else x.clone() for x in self.consume]
        c.produce = [list(q) for q in self.produce]
        c.produced = [list(p) for p in self.produced]
        c.result = self.result
        c.version = self.version
        c.memo = None
        return c
