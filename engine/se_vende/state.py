"""Se Vende's mutable game state and its complete JSON snapshot.

Cards are small integers (their 0-based number; ``load_deck().ids[c]`` is the id).
Piles are plain lists; the supply's top is the END of its list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import Result, Rng, SealedChoices
from club_agentes.engine.se_vende.cards import Power, load_deck

# Phases, in rulebook order (I to V); a card placed in phase p of round r has stamp r * 8 + p.
EXPLORE, DEVELOP, SETTLE, CONSUME, PRODUCE = 1, 2, 3, 4, 5
PHASE_NAMES: dict[int, str] = {
    EXPLORE: "Explorar",
    DEVELOP: "Desarrollar",
    SETTLE: "Asentar",
    CONSUME: "Consumir",
    PRODUCE: "Producir",
}
PHASE_OF_ACTION: dict[str, int] = {
    "explorar-5": EXPLORE,
    "explorar-1-1": EXPLORE,
    "desarrollar": DEVELOP,
    "asentar": SETTLE,
    "comercio": CONSUME,
    "2x-pv": CONSUME,
    "producir": PRODUCE,
}

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
CHIPS_PER_SEAT = 12
TENS = 40  # the four 10-point chips kept for the final round


def _card_or_none(ids: tuple[str, ...], card: int | None) -> str | None:
    return None if card is None or card < 0 else ids[card]


def stamp(round_no: int, phase: int) -> int:
    """Return the ordering stamp of a phase of a round (round 0 is the setup)."""
    return round_no * 8 + phase


class ConsumeSeat:
    """One seat's progress through a Consumir phase."""

    __slots__ = ("active", "double", "finished", "gained_vp", "must_sell", "powers", "remaining", "taken", "used")

    def __init__(self, must_sell: bool, double: bool, powers: list[tuple[int, int, Power]]) -> None:
        self.must_sell = must_sell
        self.double = double
        self.powers = powers
        self.used: set[tuple[int, int]] = set()
        self.active: tuple[int, int, Power] | None = None
        self.remaining = 0
        self.taken: list[str] = []
        self.gained_vp = 0
        self.finished = False

    def to_json(self) -> dict[str, Any]:
        """Return the progress as JSON."""
        ids = load_deck().ids
        return {
            "must_sell": self.must_sell,
            "double": self.double,
            "powers": [[ids[c], i] for c, i, _ in self.powers],
            "used": sorted([ids[c], i] for c, i in self.used),
            "active": None if self.active is None else [ids[self.active[0]], self.active[1]],
            "remaining": self.remaining,
            "taken": list(self.taken),
            "gained_vp": self.gained_vp,
            "finished": self.finished,
        }


@dataclass(frozen=True)
class SeVendeConfig:
    """A Se Vende table's configuration.

    Attributes:
        seats: 2 to 4.
        turn_limit: the game ends at the end of this round at the latest.
    """

    seats: int
    turn_limit: int = 40

    def to_json(self) -> dict[str, Any]:
        """Return the options (``make_config(seats, to_json())`` rebuilds this config)."""
        return {"turn_limit": self.turn_limit}


class SeVendeState:
    """Everything about one game of Se Vende, hidden parts included."""

    __slots__ = (
        "actions",
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
        self.known: list[set[int]] = [set() for _ in range(n)]
        self.chips = [0] * n
        self.pool = CHIPS_PER_SEAT * n
        self.tens_added = False
        self.chips_out = False
        self.actions: SealedChoices[str] = SealedChoices(range(n))
        self.chosen: dict[int, str] | None = None
        self.previous: dict[int, str] | None = None
        self.todo = [0] * n
        self.drawn: list[list[int]] = [[] for _ in range(n)]
        self.placing: SealedChoices[int] = SealedChoices(range(n))
        self.placed = [NO_CARD] * n
        self.consume: list[ConsumeSeat | None] = [None] * n
        self.produce: list[list[tuple[int, str]]] = [[] for _ in range(n)]
        self.produced: list[list[str]] = [[] for _ in range(n)]
        self.result: Result | None = None

    def snapshot(self) -> dict[str, Any]:
        """Return the complete state as JSON (hidden parts included)."""
        ids = load_deck().ids

        def cards(cs: list[int]) -> list[str]:
            return [ids[c] for c in cs]

        r = self.result
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
            "known": [sorted(cards(list(k))) for k in self.known],
            "chips": list(self.chips),
            "pool": self.pool,
            "tens_added": self.tens_added,
            "chips_out": self.chips_out,
            "actions": self.actions.to_json(),
            "chosen": None if self.chosen is None else {str(k): v for k, v in self.chosen.items()},
            "previous": None if self.previous is None else {str(k): v for k, v in self.previous.items()},
            "todo": list(self.todo),
            "drawn": [cards(d) for d in self.drawn],
            "placing": {
                "seats": list(self.placing.seats),
                "choices": {str(s): _card_or_none(ids, self.placing.own(s)) for s in self.placing.done},
            },
            "placed": list(self.placed),
            "consume": [None if c is None else c.to_json() for c in self.consume],
            "produce": [[[ids[c] if c >= 0 else None, g] for c, g in q] for q in self.produce],
            "produced": [list(p) for p in self.produced],
            "result": None
            if r is None
            else {"winners": list(r.winners), "scores": list(r.scores), "reason": r.reason, "rule_id": r.rule_id},
        }
