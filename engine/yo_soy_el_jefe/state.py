"""The mutable state of a game of Yo soy el jefe and its copies (the configuration is in :mod:`.config`, the
snapshots in :mod:`.snapshots`).

Cards are ints (indexes into :data:`CARDS`), colours are ints (indexes into :data:`COLOURS`), seats
are ints; only the views and events turn them into names. Small records are slotted dataclasses.

Hidden information is tracked so that views, leak tests and determinization read the same facts:

* a hand card's identity is known to every seat when it came back to the hand face up (a family
  card taken back after a deal): :attr:`State.known`;
* every card in a hand remembers the deck *epoch* it was drawn from (:attr:`State.card_epoch`):
  epoch 0 is the first shuffle, each reshuffle of the discards starts a new epoch whose cards
  were all face up (so which cards it holds is public, though not their order).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from club_agentes.engine.core import Rng
from club_agentes.engine.core.steps import Memo
from club_agentes.engine.yo_soy_el_jefe.components import (
    BOSS,
    FAMILY,
    GREY,
    HAND_LIMIT,
    HAND_LIMIT_LATE,
    HAND_SIZE,
    HIRE,
    INVESTORS_EACH,
    LATE_LIMIT_AFTER,
    QUICK_GAME_REMOVED,
    STOP,
    TRAVEL,
    DealCard,
    components,
)
from club_agentes.engine.yo_soy_el_jefe.config import JefeConfig

COMP = components()
COLOURS: tuple[str, ...] = COMP.colours
NCOL = len(COLOURS)
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
"""A colour's name -> its index in :data:`COLOURS`."""
CARDS = COMP.cards
NCARDS = len(CARDS)
SPACES = COMP.spaces
DEAL_CARDS = COMP.deal_cards
DEAL_BY_NUMBER: dict[int, DealCard] = {c.number: c for c in DEAL_CARDS}

# A hand is also kept as counts per "slot": family of each colour, travel of each colour, grey travel,
# boss, hire, stop.
SLOT_FAMILY = 0
SLOT_TRAVEL = NCOL
SLOT_GREY = 2 * NCOL
SLOT_BOSS = SLOT_GREY + 1
SLOT_HIRE = SLOT_GREY + 2
SLOT_STOP = SLOT_GREY + 3
NSLOTS = SLOT_STOP + 1


def _slot(kind: str, colour: str | None) -> int:
    if kind == FAMILY and colour is not None:
        return SLOT_FAMILY + COLOURS.index(colour)
    if kind == TRAVEL and colour is not None:
        return SLOT_GREY if colour == GREY else SLOT_TRAVEL + COLOURS.index(colour)
    return {BOSS: SLOT_BOSS, HIRE: SLOT_HIRE, STOP: SLOT_STOP}[kind]


CARD_SLOT: tuple[int, ...] = tuple(_slot(c.kind, c.colour) for c in CARDS)
SLOT_KIND: tuple[tuple[str, str | None], ...] = tuple(
    [(FAMILY, c) for c in COLOURS]
    + [(TRAVEL, c) for c in COLOURS]
    + [(TRAVEL, GREY), (BOSS, None), (HIRE, None), (STOP, None)]
)
SLOT_OF_KIND: dict[tuple[str, str | None], int] = {k: i for i, k in enumerate(SLOT_KIND)}
CARD_INDEX: dict[str, int] = {c.id: c.index for c in CARDS}

# The state of a price standing in a negotiation.
ASKED = 0  # the seat named it (its demand), the boss answers
PROPOSED = 1  # the boss named it, the seat answers
AGREED = 2  # accepted: it binds
STATUS_NAMES = ("asked", "proposed", "agreed")

SAME_PRICE_TIMES = 2  # ruling limite-de-ofertas: the same amount, by the same side, for one colour, per boss

# --------------------------------------------------------------------------- small records


class Quote(NamedTuple):
    """A price standing in a negotiation for one seat's colour (a named tuple: made at every price named).

    Attributes:
        status: :data:`ASKED` (the seat's demand), :data:`PROPOSED` (the boss's proposal) or :data:`AGREED`.
        millions: the price in millions.
        unit: ``"M"`` or ``"dividends"``, as it was named.
        amount: the number named (millions, or whole dividends).
    """

    status: int
    millions: int
    unit: str
    amount: int

    def agreed(self) -> Quote:
        """Return the same price, agreed."""
        return Quote(AGREED, self.millions, self.unit, self.amount)

    def named_as(self) -> str:
        """Return the price as it was named: ``"8M"`` or ``"2 dividend(s) (10M)"``."""
        return f"{self.amount}M" if self.unit == "M" else f"{self.amount} dividend(s) ({self.millions}M)"


class Naming(NamedTuple):
    """An offer or bid whose amount its actor names next: ``actor`` names a price for ``seat``'s ``colour``."""

    actor: int
    seat: int
    colour: int


@dataclass(frozen=True, slots=True)
class Ledger:
    """One line of a seat's money: what it received (+) or paid (-) in one closed deal.

    Attributes:
        seat: whose money.
        deal: the deal's number (1 for the first closed deal).
        space: the board space (1-16).
        kind: ``"payout"`` (the bank to the boss), ``"paid"`` (the boss to a seat) or ``"received"``.
        other: the other seat of a promise (``None`` for the payout).
        colour: the colour a promise was for (``None`` for the payout).
        amount: the millions (negative when paid out).
    """

    seat: int
    deal: int
    space: int
    kind: str
    other: int | None
    colour: str | None
    amount: int


class StopWindow:
    """A stoppable card just played: the other seats may answer it with a stop card before it takes effect.

    ``kind`` is ``"travel"`` (payload: target, seat, colour), ``"boss"`` (payload: restart) or ``"hire"``
    (payload: colour); ``cards`` are the played cards; ``order`` the seats that may stop it, in the order
    they are asked; ``passed`` those that let it go.
    """

    __slots__ = ("cards", "kind", "order", "passed", "payload", "player")

    def __init__(
        self, player: int, kind: str, payload: tuple[Any, ...], cards: list[int], order: tuple[int, ...]
    ) -> None:
        self.player = player
        self.kind = kind
        self.payload = payload
        self.cards = cards
        self.order = order
        self.passed: set[int] = set()

    def waiting(self) -> tuple[int, ...]:
        """Return the seats that have not answered yet, in the order they are asked."""
        passed = self.passed
        left = []
        for s in self.order:  # a loop, not a comprehension: no closure cell on Python 3.11 (a hot path)
            if s not in passed:
                left.append(s)
        return tuple(left)

    def copy(self) -> StopWindow:
        """Return an independent copy."""
        w = StopWindow(self.player, self.kind, self.payload, list(self.cards), self.order)
        w.passed = set(self.passed)
        return w


class Negotiation:
    """One deal being negotiated on a board space (the open table of ruling ``protocolo-de-negociacion``)."""

    __slots__ = (
        "boss",
        "card",
        "dividends",
        "floor",
        "history",
        "last_act",
        "last_actor",
        "named",
        "naming",
        "offers_left",
        "passed",
        "payout",
        "placed",
        "quotes",
        "revision",
        "space",
        "terms",
        "travelled",
        "turn_seat",
        "used",
        "value",
    )

    def __init__(self, space: int, card: DealCard, boss: int) -> None:
        self.space = space
        self.card = card
        self.value = card.dividend
        self.dividends = SPACES[space].dividends
        self.payout = self.value * self.dividends
        self.boss = boss
        self.turn_seat = boss
        self.travelled: dict[int, int] = {}  # colour -> the travel card lying on that colour's investor card
        self.placed: dict[tuple[int, int], int] = {}  # (seat, colour) -> the family card that seat placed
        self.quotes: dict[tuple[int, int], Quote] = {}  # (seat, colour) -> the price standing
        # (namer, seat, colour) -> {millions: times named} under the current boss (ruling limite-de-ofertas)
        self.named: dict[tuple[int, int, int], dict[int, int]] = {}
        self.used: set[int] = set()  # seats that used an influence card in this deal
        self.naming: Naming | None = None
        self.passed: set[int] = set()  # seats that passed since the last change
        self.last_actor = boss
        self.last_act = "the start of the negotiation"
        self.history: list[str] = []
        self.revision = 0  # counts the changes (every seat may answer each)
        # counts the changes to the deal's terms: agreements, investor, placed and travelled cards, the boss (what the
        # group at a close reads); a price named, refused or withdrawn, or a card stopped, changes none of them
        self.terms = 0

    def change(self, actor: int, what: str, *, terms: bool = True) -> None:
        """Record a change of the negotiation by ``actor``: every seat may answer it again.

        ``terms``: whether it may change the deal's terms (``False`` for a price named, refused or withdrawn, and
        for a card stopped: none of them changes who would take part in a close, nor what is agreed).
        """
        self.revision += 1
        if terms:
            self.terms += 1
        self.passed.clear()
        self.last_actor = actor
        self.last_act = what

    def who(self, seat: int) -> str:
        """Return how the log names ``seat`` in this negotiation: ``seat 2 (the boss)`` or ``seat 3``."""
        return f"seat {seat} (the boss)" if seat == self.boss else f"seat {seat}"

    def agreed_total(self) -> int:
        """Return the millions promised so far."""
        return sum(q.millions for q in self.quotes.values() if q.status == AGREED)

    def times_named(self, namer: int, seat: int, colour: int, millions: int) -> int:
        """Return how often ``namer`` named ``millions`` for ``seat``'s ``colour`` under this boss."""
        return self.named.get((namer, seat, colour), {}).get(millions, 0)

    def copy(self) -> Negotiation:
        """Return an independent copy."""
        n = Negotiation.__new__(Negotiation)
        n.space = self.space
        n.card = self.card
        n.value = self.value
        n.dividends = self.dividends
        n.payout = self.payout
        n.boss = self.boss
        n.turn_seat = self.turn_seat
        n.travelled = dict(self.travelled)
        n.placed = dict(self.placed)
        n.quotes = dict(self.quotes)
        n.named = {k: dict(v) for k, v in self.named.items()}
        n.used = set(self.used)
        n.naming = self.naming
        n.passed = set(self.passed)
        n.last_actor = self.last_actor
        n.last_act = self.last_act
        n.history = list(self.history)
        n.revision = self.revision
        n.terms = self.terms
        return n


@dataclass(slots=True)
class ClosedDeal:
    """A deal that closed, as the table saw it (public).

    Attributes:
        deal: its number (1 for the first closed deal).
        space: the board space (1-16).
        card: the deal card placed on the space.
        boss: the boss who closed it.
        payout: what the bank paid the boss.
        paid: ``(seat, colour, how, millions)`` for each promise paid (how: investor, family or forced).
        roll: the end roll after it, if any.
    """

    deal: int
    space: int
    card: int
    boss: int
    payout: int
    paid: list[tuple[int, str, str, int]] = field(default_factory=list)
    roll: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the deal as JSON."""
        return {
            "deal": self.deal,
            "space": self.space,
            "card": self.card,
            "boss": self.boss,
            "payout": self.payout,
            "paid": [list(p) for p in self.paid],
            "kept_by_boss": self.payout - sum(p[3] for p in self.paid),
            "roll": self.roll,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClosedDeal:
        """Rebuild a deal from :meth:`to_json`."""
        return cls(
            int(data["deal"]),
            int(data["space"]),
            int(data["card"]),
            int(data["boss"]),
            int(data["payout"]),
            [(int(s), str(c), str(h), int(m)) for s, c, h, m in data["paid"]],
            None if data["roll"] is None else int(data["roll"]),
        )


# --------------------------------------------------------------------------- the state


class State:
    """The whole game: table, hands, decks, money, and the decision in progress."""

    __slots__ = (
        "card_epoch",
        "cfg",
        "counts",
        "covered",
        "deal_deck",
        "deals",
        "deals_done",
        "deck",
        "discard",
        "end_reason",
        "end_rule",
        "epoch",
        "failed_in_a_row",
        "first_player",
        "hand_limit_seat",
        "hands",
        "known",
        "last_deal",
        "last_roll",
        "ledger",
        "marker",
        "memo",
        "money",
        "must_negotiate",
        "n",
        "neg",
        "owner",
        "phase",
        "rng",
        "stop",
        "turn",
        "turns_played",
        "used_by",
        "version",
    )

    def __init__(self, cfg: JefeConfig, seed: int) -> None:
        """Deal a new game from ``seed`` (see ``steps.setup.setup_events``, which describes the deal as events)."""
        self.cfg = cfg
        self.n = n = cfg.seats
        self.rng = Rng(seed)
        rng = self.rng
        self.first_player = cfg.first_player if cfg.first_player is not None else rng.below(n)
        # Investors: dealt at random, by seat count (see the erratum on dealing).
        order = list(range(NCOL))
        rng.shuffle(order)
        per_seat = INVESTORS_EACH[n]
        self.owner = [-1] * NCOL  # colour -> seat, or -1 beside the board
        for i, colour in enumerate(order[: per_seat * n]):
            self.owner[colour] = (self.first_player + i) % n
        # Influence cards: shuffled, five each; the top of the deck is the end of the list.
        deck = list(range(NCARDS))
        rng.shuffle(deck)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.counts: list[list[int]] = [[0] * NSLOTS for _ in range(n)]
        self.card_epoch = [0] * NCARDS
        self.epoch = 0
        self.known: set[int] = set()
        for _ in range(HAND_SIZE):
            for s in range(n):
                self.give(s, deck.pop())
        self.deck = deck
        self.discard: list[int] = []
        self.deal_deck: list[DealCard] = [
            c for c in DEAL_CARDS if not (cfg.quick_game and c.number in QUICK_GAME_REMOVED)
        ]
        self.deals_done = 0
        self.deals: list[ClosedDeal] = []
        self.covered: list[int] = [0] * len(SPACES)  # deal card number covering each space (0: free)
        self.money = [0] * n
        self.ledger: list[Ledger] = []
        self.used_by: list[list[int]] = [[0] * NSLOTS for _ in range(n)]  # cards each seat showed or used
        self.neg: Negotiation | None = None
        self.stop: StopWindow | None = None
        self.turns_played = 0
        self.failed_in_a_row = 0
        self.turn = self.first_player
        self.must_negotiate = False
        self.hand_limit_seat = -1
        self.last_roll: int | None = None
        self.last_deal: dict[str, Any] | None = None
        self.end_reason = ""
        self.end_rule: str | None = None
        self.version = 0
        self.memo: Memo | None = None  # the core step kit's memo of this version (core.steps.memo_of)
        if cfg.marker_start is None:
            self.marker = -1
            self.phase = "marker"
        else:
            self.marker = cfg.marker_start - 1
            self.phase = "turn"

    # -- hands ---------------------------------------------------------------------------

    def give(self, seat: int, card: int) -> None:
        """Put ``card`` into ``seat``'s hand (kept sorted); it is hidden from the others until shown."""
        insort(self.hands[seat], card)
        self.counts[seat][CARD_SLOT[card]] += 1

    def give_back(self, seat: int, card: int) -> None:
        """Put a card that lay face up back into ``seat``'s hand: every seat knows it is there."""
        self.give(seat, card)
        self.known.add(card)

    def take(self, seat: int, slot: int) -> int:
        """Remove and return a card of ``slot`` from ``seat``'s hand, to be shown (played or discarded).

        A card every seat knows is there is taken first (its identity is already public), then the lowest.

        Raises:
            ValueError: the hand holds no card of that slot (callers check first).
        """
        hand = self.hands[seat]
        pick = -1
        for i, card in enumerate(hand):
            if CARD_SLOT[card] == slot:
                if card in self.known:
                    pick = i
                    break
                if pick < 0:
                    pick = i
        if pick < 0:
            raise ValueError(f"seat {seat} holds no card of slot {slot}")
        card = hand.pop(pick)
        self.counts[seat][slot] -= 1
        self.known.discard(card)
        self.used_by[seat][slot] += 1
        return card

    def hand_limit(self) -> int:
        """Return the hand limit now (12; 10 from the tenth deal with that variant)."""
        if self.cfg.hand_limit_10_from_tenth_deal and self.deals_done >= LATE_LIMIT_AFTER:
            return HAND_LIMIT_LATE
        return HAND_LIMIT

    def draw_card(self) -> int | None:
        """Take the top card of the influence deck, reshuffling the discards when it is empty (ruling mazo-agotado)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.epoch += 1
        card = self.deck.pop()
        self.card_epoch[card] = self.epoch
        return card

    def investors_of(self, seat: int) -> list[int]:
        """Return the colours of the investor cards ``seat`` holds."""
        return [c for c in range(NCOL) if self.owner[c] == seat]

    # -- copies --------------------------------------------------------------------------

    def copy(self) -> State:
        """Return an independent copy (for search and determinization)."""
        s = State.__new__(State)
        s.cfg = self.cfg
        s.n = self.n
        s.rng = Rng(0)
        s.rng.state = self.rng.state
        s.first_player = self.first_player
        s.owner = list(self.owner)
        s.hands = [list(h) for h in self.hands]
        s.counts = [list(c) for c in self.counts]
        s.card_epoch = list(self.card_epoch)
        s.epoch = self.epoch
        s.known = set(self.known)
        s.deck = list(self.deck)
        s.discard = list(self.discard)
        s.deal_deck = list(self.deal_deck)
        s.deals_done = self.deals_done
        s.deals = [ClosedDeal(d.deal, d.space, d.card, d.boss, d.payout, list(d.paid), d.roll) for d in self.deals]
        s.covered = list(self.covered)
        s.money = list(self.money)
        s.ledger = list(self.ledger)
        s.used_by = [list(u) for u in self.used_by]
        s.neg = self.neg.copy() if self.neg is not None else None
        s.stop = self.stop.copy() if self.stop is not None else None
        s.turns_played = self.turns_played
        s.failed_in_a_row = self.failed_in_a_row
        s.turn = self.turn
        s.must_negotiate = self.must_negotiate
        s.hand_limit_seat = self.hand_limit_seat
        s.last_roll = self.last_roll
        s.last_deal = copy_json(self.last_deal)
        s.end_reason = self.end_reason
        s.end_rule = self.end_rule
        s.version = self.version
        s.memo = None
        s.marker = self.marker
        s.phase = self.phase
        return s


def copy_json(value: Any) -> Any:
    """Return a deep copy of a JSON value (dicts and lists copied, tuples turned into lists)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [copy_json(v) for v in value]
    return value
