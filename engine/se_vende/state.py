"""Se Vende's configuration, its mutable game state, and the state's JSON snapshot.

The game's numbers (``HAND_MAX``, ``CHIPS_PER_SEAT``, ``TENS``...) are named here once; the phases
(``EXPLORE``... ``PHASE_NAMES``, ``PHASE_OF_ACTION``) come from :mod:`.actions` and are importable
from here too.

Cards are small integers (their 0-based number; ``load_deck().ids[c]`` is the id). Piles are
plain lists; the supply's top is the END of its list. A state copies itself quickly
(:meth:`SeVendeState.clone`, for search) and round-trips through JSON
(:meth:`SeVendeState.snapshot` / :meth:`SeVendeState.restore`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import Result, Rng, SealedChoices
from club_agentes.engine.core.model import ScoreLine, SeatScore
from club_agentes.engine.se_vende.actions import (
    ACTION_CODES,
    CONSUME,
    DEVELOP,
    EXPLORE,
    PHASE_NAMES,
    PHASE_OF_ACTION,
    PRODUCE,
    SETTLE,
)
from club_agentes.engine.se_vende.cards import Power, load_deck

__all__ = [
    "CHIPS_PER_SEAT",
    "CONSUME",
    "CONSUMING",
    "DEFAULT_TURN_LIMIT",
    "DEVELOP",
    "DEVELOP_PAY",
    "DEVELOP_PLACE",
    "EXPLORE",
    "EXPLORE_KEEP",
    "HAND_LIMIT",
    "HAND_MAX",
    "MAX_TURN_LIMIT",
    "MIN_TURN_LIMIT",
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
    "SeVendeConfig",
    "SeVendeState",
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

DEFAULT_TURN_LIMIT = 40
MIN_TURN_LIMIT = 1
MAX_TURN_LIMIT = 100
"""The turn_limit option's range (se-vende/rulings/limite-de-rondas)."""

_DECK = load_deck()
_IDS = _DECK.ids
_INDEX = _DECK.index


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

    def to_json(self) -> dict[str, Any]:
        """Return the progress as JSON."""

        def ref(p: PowerRef) -> list[Any]:
            return [_IDS[p.card], p.index]

        return {
            "must_sell": self.must_sell,
            "double": self.double,
            "powers": [ref(p) for p in self.powers],
            "used": sorted(ref(p) for p in self.used),
            "active": None if self.active is None else ref(self.active),
            "remaining": self.remaining,
            "taken": [_IDS[w] for w in self.taken],
            "gained_vp": self.gained_vp,
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ConsumeSeat:
        """Return the progress :meth:`to_json` describes.

        Raises:
            KeyError, ValueError, IndexError: malformed data.
        """
        defs = _DECK.defs

        def ref(raw: list[Any]) -> PowerRef:
            c = _INDEX[raw[0]]
            return PowerRef(c, int(raw[1]), defs[c].powers[int(raw[1])])

        cs = cls(bool(data["must_sell"]), bool(data["double"]), [ref(r) for r in data["powers"]])
        cs.used = {ref(r) for r in data["used"]}
        cs.active = None if data["active"] is None else ref(data["active"])
        cs.remaining = int(data["remaining"])
        cs.taken = [_INDEX[w] for w in data["taken"]]
        cs.gained_vp = int(data["gained_vp"])
        cs.finished = bool(data["finished"])
        return cs


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
    def of(cls, s: SeVendeState) -> Board:
        """Return the public table of ``s`` now."""
        return cls(
            tuple(len(h) for h in s.hands),
            tuple(s.chips),
            frozenset(s.goods),
            len(s.supply),
            len(s.discard),
            s.pool,
            s.tens_added,
            s.chips_out,
        )

    def to_json(self) -> dict[str, Any]:
        """Return the board as JSON."""
        return {
            "hand_sizes": list(self.hand_sizes),
            "chips": list(self.chips),
            "goods": sorted(_IDS[w] for w in self.goods),
            "supply": self.supply,
            "discard": self.discard,
            "pool": self.pool,
            "tens_added": self.tens_added,
            "chips_out": self.chips_out,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Board:
        """Return the board :meth:`to_json` describes.

        Raises:
            KeyError, ValueError, TypeError: malformed data.
        """
        return cls(
            tuple(int(x) for x in data["hand_sizes"]),
            tuple(int(x) for x in data["chips"]),
            frozenset(_INDEX[w] for w in data["goods"]),
            int(data["supply"]),
            int(data["discard"]),
            int(data["pool"]),
            bool(data["tens_added"]),
            bool(data["chips_out"]),
        )


@dataclass(slots=True)
class SeVendeConfig:
    """A Se Vende table's configuration (treat it as immutable).

    Not a frozen dataclass only because the core's ``Config`` protocol declares ``seats`` as a
    settable attribute, which a frozen dataclass does not satisfy for a type checker.

    Attributes:
        seats: 2 to 4.
        turn_limit: the game ends at the end of this round at the latest (1 to 100 rounds).
    """

    seats: int
    turn_limit: int = DEFAULT_TURN_LIMIT

    def to_json(self) -> dict[str, Any]:
        """Return the options (``make_config(seats, to_json())`` rebuilds this config)."""
        return {"turn_limit": self.turn_limit}


class SeVendeState:
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

    # ------------------------------------------------------------------ copies

    def clone(self) -> SeVendeState:
        """Return an independent copy (fast: lists and dicts are copied one level, values are immutable)."""
        c = SeVendeState.__new__(SeVendeState)
        c.n = self.n
        c.turn_limit = self.turn_limit
        c.rng = Rng(0)
        c.rng.state = self.rng.state
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
        return c

    # ------------------------------------------------------------------ JSON

    def snapshot(self) -> dict[str, Any]:
        """Return the complete state as JSON (hidden parts included)."""
        ids = _IDS

        def cards(cs: list[int]) -> list[str]:
            return [ids[c] for c in cs]

        return {
            "seats": self.n,
            "turn_limit": self.turn_limit,
            "rng": self.rng.state,
            "round": self.round,
            "step": STEP_NAMES[self.step],
            "phase": self.phase,
            "phases": list(self.phases),
            "supply": cards(self.supply),
            "discard": cards(self.discard),
            "hands": [cards(h) for h in self.hands],
            "tableau": [cards(t) for t in self.tableau],
            "stamps": {ids[c]: s for c, s in sorted(self.stamps.items())},
            "goods": {ids[w]: ids[g] for w, g in sorted(self.goods.items())},
            "known": {ids[c]: s for c, s in sorted(self.known.items())},
            "chips": list(self.chips),
            "pool": self.pool,
            "tens_added": self.tens_added,
            "chips_out": self.chips_out,
            "actions": self.actions.to_json(),
            "chosen": None if self.chosen is None else {str(k): v for k, v in sorted(self.chosen.items())},
            "previous": None if self.previous is None else {str(k): v for k, v in sorted(self.previous.items())},
            "part": list(self.part),
            "board": None if self.board is None else self.board.to_json(),
            "todo": list(self.todo),
            "drawn": [cards(d) for d in self.drawn],
            "placing": {
                "seats": list(self.placing.seats),
                "choices": {str(s): _card_or_none(self.placing.own(s)) for s in self.placing.done},
            },
            "placed": [_card_or_none(c) for c in self.placed],
            "consume": [None if c is None else c.to_json() for c in self.consume],
            "produce": [[[_card_or_none(w.source), w.kind] for w in q] for q in self.produce],
            "produced": [list(p) for p in self.produced],
            "result": None if self.result is None else _result_json(self.result),
        }

    @classmethod
    def restore(cls, config: SeVendeConfig, data: dict[str, Any]) -> SeVendeState:
        """Return the state a :meth:`snapshot` describes.

        Raises:
            ValueError: the snapshot is malformed or does not match ``config``.
        """
        try:
            return cls._restore(config, data)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed Se Vende snapshot: {exc!r:.200}") from None

    @classmethod
    def _restore(cls, config: SeVendeConfig, data: dict[str, Any]) -> SeVendeState:
        if data["seats"] != config.seats or data["turn_limit"] != config.turn_limit:
            raise ValueError("the snapshot's seats or turn_limit differ from the table's configuration")
        idx = _INDEX

        def cards(raw: list[str]) -> list[int]:
            return [idx[c] for c in raw]

        s = cls(config, 0)
        s.rng.state = int(data["rng"])
        s.round = int(data["round"])
        s.step = STEP_NAMES.index(data["step"])
        s.phase = int(data["phase"])
        s.phases = [int(p) for p in data["phases"]]
        if any(p not in PHASE_NAMES for p in s.phases):
            raise ValueError("the snapshot names an unknown phase")
        s.supply = cards(data["supply"])
        s.discard = cards(data["discard"])
        s.hands = [cards(h) for h in data["hands"]]
        s.tableau = [cards(t) for t in data["tableau"]]
        s.stamps = {idx[c]: int(v) for c, v in data["stamps"].items()}
        s.goods = {idx[w]: idx[g] for w, g in data["goods"].items()}
        s.known = {idx[c]: int(v) for c, v in data["known"].items()}
        s.chips = [int(x) for x in data["chips"]]
        s.pool = int(data["pool"])
        s.tens_added = bool(data["tens_added"])
        s.chips_out = bool(data["chips_out"])
        s.actions = SealedChoices(data["actions"]["seats"])
        for seat, code in data["actions"]["choices"].items():
            if code not in ACTION_CODES:
                raise ValueError(f"the snapshot names an unknown action card {code!r:.40}")
            s.actions.submit(int(seat), code)
        s.chosen = None if data["chosen"] is None else {int(k): v for k, v in data["chosen"].items()}
        s.previous = None if data["previous"] is None else {int(k): v for k, v in data["previous"].items()}
        s.part = tuple(int(x) for x in data["part"])
        s.board = None if data["board"] is None else Board.from_json(data["board"])
        s.todo = [int(x) for x in data["todo"]]
        s.drawn = [cards(d) for d in data["drawn"]]
        s.placing = SealedChoices(data["placing"]["seats"])
        for seat, c in data["placing"]["choices"].items():
            s.placing.submit(int(seat), NO_CARD if c is None else idx[c])
        s.placed = [NO_CARD if c is None else idx[c] for c in data["placed"]]
        s.consume = [None if c is None else ConsumeSeat.from_json(c) for c in data["consume"]]
        s.produce = [[WindfallRight(NO_CARD if c is None else idx[c], str(k)) for c, k in q] for q in data["produce"]]
        s.produced = [[str(g) for g in p] for p in data["produced"]]
        s.result = None if data["result"] is None else _result_from_json(data["result"])
        total = len(s.supply) + len(s.discard) + sum(map(len, s.hands)) + sum(map(len, s.tableau))
        total += len(s.goods) + sum(map(len, s.drawn))
        if total != len(_IDS):
            raise ValueError(f"the snapshot holds {total} cards, not the {len(_IDS)} of the game")
        return s


def _card_or_none(card: int | None) -> str | None:
    return None if card is None or card < 0 else _IDS[card]


def _result_json(r: Result) -> dict[str, Any]:
    return {
        "winners": list(r.winners),
        "scores": list(r.scores),
        "reason": r.reason,
        "rule_id": r.rule_id,
        "breakdown": [
            {
                "seat": b.seat,
                "total": b.total,
                "unit": b.unit,
                "lines": [[x.label, x.amount, x.rule_id] for x in b.lines],
            }
            for b in r.breakdown
        ],
    }


def _result_from_json(data: dict[str, Any]) -> Result:
    breakdown = tuple(
        SeatScore(
            int(b["seat"]),
            float(b["total"]),
            str(b["unit"]),
            tuple(ScoreLine(str(label), float(amount), rule) for label, amount, rule in b["lines"]),
        )
        for b in data["breakdown"]
    )
    return Result(
        tuple(int(w) for w in data["winners"]),
        tuple(float(x) for x in data["scores"]),
        str(data["reason"]),
        data["rule_id"],
        breakdown,
    )
