"""The configuration and the mutable state of a game of Yo soy el jefe, with snapshots and copies.

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
from typing import Any

from club_agentes.engine.core import ConfigError, Pending, Rng
from club_agentes.engine.core.visibility import Visibility
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

COMP = components()
COLOURS: tuple[str, ...] = COMP.colours
NCOL = len(COLOURS)
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

DEFAULT_FAILURE_LIMIT = 120  # ruling limite-de-negociaciones-fallidas
MAX_FAILURE_LIMIT = 240

VARIANT_OPTIONS: tuple[str, ...] = (
    "boss_card_keeps_turn",
    "mandatory_negotiation_with_10_cards",
    "dividends_only_for_participants",
    "draw_by_investors",
    "no_negotiation_with_3_cards_or_fewer",
    "hand_limit_10_from_tenth_deal",
    "quick_game",
)
OPTION_NAMES: tuple[str, ...] = (
    "failed_negotiations_limit",
    "first_player",
    "marker_start",
    "two_player_rules",
    *VARIANT_OPTIONS,
)


@dataclass(frozen=True, slots=True)
class JefeConfig:
    """A table's configuration: seat count and options (see ``YoSoyElJefe.config_schema``)."""

    seats: int
    options: tuple[tuple[str, Any], ...]
    failed_negotiations_limit: int
    first_player: int | None
    marker_start: int | None
    two_player_rules: bool
    boss_card_keeps_turn: bool
    mandatory_negotiation_with_10_cards: bool
    dividends_only_for_participants: bool
    draw_by_investors: bool
    no_negotiation_with_3_cards_or_fewer: bool
    hand_limit_10_from_tenth_deal: bool
    quick_game: bool

    def to_json(self) -> dict[str, Any]:
        """Return the options as given (what ``make_config`` accepts back)."""
        return dict(self.options)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def make_config(seats: int, options: Mapping[str, Any] | None) -> JefeConfig:
    """Validate the seat count and options and build the configuration.

    Raises:
        ConfigError: seat count out of 2-6, unknown option or bad value (one sentence naming the range).
    """
    if not _whole(seats) or not 2 <= seats <= 6:
        raise ConfigError(f"Yo soy el jefe is played by 2 to 6 seats, not {str(seats)[:40]!r}.")
    if options is not None and not isinstance(options, Mapping):
        raise ConfigError("the table options must be a JSON object.")
    opts = dict(options or {})
    if "turn_limit" in opts:
        raise ConfigError(
            "turn_limit is no longer an option of Yo soy el jefe: the game ends as section 4 says, and a table that "
            f"stalls ends after failed_negotiations_limit (1 to {MAX_FAILURE_LIMIT}) failed negotiations in a row."
        )
    unknown = sorted(str(k)[:40] for k in opts if k not in OPTION_NAMES)
    if unknown:
        raise ConfigError(f"unknown option(s) {', '.join(unknown)}; the options are {', '.join(OPTION_NAMES)}.")
    values: dict[str, Any] = {}
    limit = opts.get("failed_negotiations_limit", DEFAULT_FAILURE_LIMIT)
    if not _whole(limit) or not 1 <= limit <= MAX_FAILURE_LIMIT:
        raise ConfigError(
            f"failed_negotiations_limit must be a whole number from 1 to {MAX_FAILURE_LIMIT}, not {str(limit)[:40]!r}."
        )
    values["failed_negotiations_limit"] = limit
    first = opts.get("first_player")
    if first is not None and (not _whole(first) or not 0 <= first < seats):
        raise ConfigError(f"first_player must be null or a seat from 0 to {seats - 1}, not {str(first)[:40]!r}.")
    values["first_player"] = first
    marker = opts.get("marker_start")
    if marker is not None and (not _whole(marker) or not 1 <= marker <= len(SPACES)):
        raise ConfigError(
            f"marker_start must be null or a board space from 1 to {len(SPACES)}, not {str(marker)[:40]!r}."
        )
    values["marker_start"] = marker
    two = opts.get("two_player_rules")
    if two is not None and not isinstance(two, bool):
        raise ConfigError(f"two_player_rules must be true, false or null, not {str(two)[:40]!r}.")
    if seats == 2 and two is False:
        raise ConfigError("two_player_rules cannot be false with 2 seats: the two-player rules always apply then.")
    values["two_player_rules"] = seats == 2 or bool(two)
    for name in VARIANT_OPTIONS:
        v = opts.get(name, False)
        if not isinstance(v, bool):
            raise ConfigError(f"{name} must be true or false, not {str(v)[:40]!r}.")
        values[name] = v
    return JefeConfig(seats=seats, options=tuple(sorted(opts.items())), **values)


# --------------------------------------------------------------------------- small records


@dataclass(frozen=True, slots=True)
class Quote:
    """A price standing in a negotiation for one seat's colour.

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


@dataclass(frozen=True, slots=True)
class Naming:
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
        return tuple(s for s in self.order if s not in self.passed)

    def copy(self) -> StopWindow:
        """Return an independent copy."""
        w = StopWindow(self.player, self.kind, self.payload, list(self.cards), self.order)
        w.passed = set(self.passed)
        return w

    def to_json(self) -> dict[str, Any]:
        """Return the window for snapshots."""
        return {
            "player": self.player,
            "kind": self.kind,
            "payload": list(self.payload),
            "cards": [CARDS[c].id for c in self.cards],
            "order": list(self.order),
            "passed": sorted(self.passed),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StopWindow:
        """Rebuild a window from :meth:`to_json`."""
        w = cls(
            int(data["player"]),
            str(data["kind"]),
            tuple(data["payload"]),
            [CARD_INDEX[c] for c in data["cards"]],
            tuple(int(s) for s in data["order"]),
        )
        w.passed = {int(s) for s in data["passed"]}
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
        self.revision = 0  # counts the changes (what the group at the close depends on changes only with them)

    def change(self, actor: int, what: str) -> None:
        """Record a change of the negotiation by ``actor``: every seat may answer it again."""
        self.revision += 1
        self.passed.clear()
        self.last_actor = actor
        self.last_act = what

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
        return n

    def to_json(self) -> dict[str, Any]:
        """Return the negotiation for snapshots."""
        return {
            "space": self.space + 1,
            "card": self.card.number,
            "boss": self.boss,
            "turn_seat": self.turn_seat,
            "travelled": {COLOURS[c]: CARDS[t].id for c, t in sorted(self.travelled.items())},
            "placed": [[s, COLOURS[c], CARDS[k].id] for (s, c), k in sorted(self.placed.items())],
            "quotes": [
                [s, COLOURS[c], q.status, q.millions, q.unit, q.amount] for (s, c), q in sorted(self.quotes.items())
            ],
            "named": [
                [a, s, COLOURS[c], [[m, k] for m, k in sorted(counts.items())]]
                for (a, s, c), counts in sorted(self.named.items())
            ],
            "used": sorted(self.used),
            "naming": [self.naming.actor, self.naming.seat, COLOURS[self.naming.colour]] if self.naming else None,
            "passed": sorted(self.passed),
            "last_actor": self.last_actor,
            "last_act": self.last_act,
            "history": list(self.history),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Negotiation:
        """Rebuild a negotiation from :meth:`to_json`."""
        n = cls(int(data["space"]) - 1, DEAL_BY_NUMBER[int(data["card"])], int(data["boss"]))
        n.turn_seat = int(data["turn_seat"])
        n.travelled = {COLOURS.index(c): CARD_INDEX[t] for c, t in data["travelled"].items()}
        n.placed = {(int(s), COLOURS.index(c)): CARD_INDEX[k] for s, c, k in data["placed"]}
        n.quotes = {
            (int(s), COLOURS.index(c)): Quote(int(st), int(m), str(u), int(a)) for s, c, st, m, u, a in data["quotes"]
        }
        n.named = {
            (int(a), int(s), COLOURS.index(c)): {int(m): int(k) for m, k in counts} for a, s, c, counts in data["named"]
        }
        n.used = {int(s) for s in data["used"]}
        naming = data["naming"]
        n.naming = Naming(int(naming[0]), int(naming[1]), COLOURS.index(naming[2])) if naming else None
        n.passed = {int(s) for s in data["passed"]}
        n.last_actor = int(data["last_actor"])
        n.last_act = str(data["last_act"])
        n.history = [str(h) for h in data["history"]]
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
        "group_cache",
        "hand_limit_seat",
        "hands",
        "known",
        "last_deal",
        "last_roll",
        "ledger",
        "legal_cache",
        "marker",
        "money",
        "must_negotiate",
        "n",
        "neg",
        "owner",
        "pending_cache",
        "phase",
        "rng",
        "stop",
        "turn",
        "turns_played",
        "used_by",
        "version",
        "vis_cache",
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
        self.legal_cache: tuple[int, int, list[Any]] | None = None
        self.group_cache: Any = None  # deal.GroupCache, for the current version
        self.vis_cache: tuple[int, Visibility] | None = None  # views.visibility(state) for a version
        self.pending_cache: tuple[int, Pending] | None = None  # Game.pending(state) for a version
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

    # -- copies and snapshots --------------------------------------------------------------

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
        s.last_deal = _copy_json(self.last_deal)
        s.end_reason = self.end_reason
        s.end_rule = self.end_rule
        s.version = self.version
        s.legal_cache = None
        s.group_cache = None
        s.vis_cache = None
        s.pending_cache = None
        s.marker = self.marker
        s.phase = self.phase
        return s

    def snapshot(self) -> dict[str, Any]:
        """Return the complete state as JSON, hidden parts included (:func:`restore` reads it back)."""
        return {
            "options": self.cfg.to_json(),
            "seats": self.n,
            "rng": self.rng.state,
            "phase": self.phase,
            "first_player": self.first_player,
            "turn": self.turn,
            "turns_played": self.turns_played,
            "failed_in_a_row": self.failed_in_a_row,
            "must_negotiate": self.must_negotiate,
            "hand_limit_seat": self.hand_limit_seat,
            "marker": self.marker + 1,
            "covered": list(self.covered),
            "deal_deck": [c.number for c in self.deal_deck],
            "deals_done": self.deals_done,
            "deals": [d.to_json() for d in self.deals],
            "owner": {COLOURS[c]: s for c, s in enumerate(self.owner)},
            "hands": [[CARDS[c].id for c in h] for h in self.hands],
            "deck": [CARDS[c].id for c in self.deck],
            "discard": [CARDS[c].id for c in self.discard],
            "epoch": self.epoch,
            "card_epoch": {CARDS[c].id: e for c, e in enumerate(self.card_epoch) if e},
            "known": sorted(CARDS[c].id for c in self.known),
            "used_by": [list(u) for u in self.used_by],
            "money": list(self.money),
            "ledger": [[x.seat, x.deal, x.space, x.kind, x.other, x.colour, x.amount] for x in self.ledger],
            "negotiation": self.neg.to_json() if self.neg else None,
            "stop": self.stop.to_json() if self.stop else None,
            "last_roll": self.last_roll,
            "last_deal": _copy_json(self.last_deal),
            "end_reason": self.end_reason,
            "end_rule": self.end_rule,
        }


def restore(cfg: JefeConfig, data: Mapping[str, Any]) -> State:
    """Return the state a :meth:`State.snapshot` describes.

    Raises:
        ValueError: the snapshot is malformed (a missing field, an unknown card, a wrong seat count).
    """
    try:
        if int(data["seats"]) != cfg.seats:
            raise ValueError(f"the snapshot has {data['seats']} seats, the configuration {cfg.seats}")
        s = State.__new__(State)
        s.cfg = cfg
        s.n = cfg.seats
        s.rng = Rng(0)
        s.rng.state = int(data["rng"])
        s.phase = str(data["phase"])
        s.first_player = int(data["first_player"])
        s.turn = int(data["turn"])
        s.turns_played = int(data["turns_played"])
        s.failed_in_a_row = int(data["failed_in_a_row"])
        s.must_negotiate = bool(data["must_negotiate"])
        s.hand_limit_seat = int(data["hand_limit_seat"])
        s.marker = int(data["marker"]) - 1
        s.covered = [int(x) for x in data["covered"]]
        s.deal_deck = [DEAL_BY_NUMBER[int(x)] for x in data["deal_deck"]]
        s.deals_done = int(data["deals_done"])
        s.deals = [ClosedDeal.from_json(d) for d in data["deals"]]
        s.owner = [int(data["owner"][c]) for c in COLOURS]
        s.hands = [sorted(CARD_INDEX[c] for c in h) for h in data["hands"]]
        s.counts = [[0] * NSLOTS for _ in range(s.n)]
        for seat, hand in enumerate(s.hands):
            for card in hand:
                s.counts[seat][CARD_SLOT[card]] += 1
        s.deck = [CARD_INDEX[c] for c in data["deck"]]
        s.discard = [CARD_INDEX[c] for c in data["discard"]]
        s.epoch = int(data["epoch"])
        s.card_epoch = [0] * NCARDS
        for cid, e in data["card_epoch"].items():
            s.card_epoch[CARD_INDEX[cid]] = int(e)
        s.known = {CARD_INDEX[c] for c in data["known"]}
        s.used_by = [[int(x) for x in u] for u in data["used_by"]]
        s.money = [int(m) for m in data["money"]]
        s.ledger = [
            Ledger(int(a), int(b), int(c), str(d), None if e is None else int(e), f, int(g))
            for a, b, c, d, e, f, g in data["ledger"]
        ]
        s.neg = Negotiation.from_json(data["negotiation"]) if data["negotiation"] else None
        s.stop = StopWindow.from_json(data["stop"]) if data["stop"] else None
        s.last_roll = None if data["last_roll"] is None else int(data["last_roll"])
        s.last_deal = _copy_json(data["last_deal"])
        s.end_reason = str(data["end_reason"])
        s.end_rule = data["end_rule"]
        s.version = 0
        s.legal_cache = None
        s.group_cache = None
        s.vis_cache = None
        s.pending_cache = None
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed Yo soy el jefe snapshot: {type(exc).__name__} {str(exc)[:80]}") from None
    cards = sorted(c for h in s.hands for c in h) + sorted(s.deck) + sorted(s.discard)
    if s.neg is not None:
        cards += list(s.neg.placed.values()) + list(s.neg.travelled.values())
    if s.stop is not None:
        cards += list(s.stop.cards)
    if sorted(cards) != list(range(NCARDS)):
        raise ValueError("malformed Yo soy el jefe snapshot: the influence cards are not each in one place")
    return s


def _copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy_json(v) for v in value]
    return value


def config_schema() -> dict[str, Any]:
    """Return the JSON schema of the table options: every property described, every number bounded."""

    def flag(text: str, rule: str) -> dict[str, Any]:
        return {"type": "boolean", "default": False, "description": f"{text} Default false. Rule: {rule}."}

    v = "yo-soy-el-jefe/5-variantes"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Yo soy el jefe table options",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "failed_negotiations_limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_FAILURE_LIMIT,
                "default": DEFAULT_FAILURE_LIMIT,
                "description": "Safety limit for a stalled table: the game ends (money counted as in section 4) "
                "when this many negotiations in a row fail with no deal closed between them. Whole number from 1 to "
                f"{MAX_FAILURE_LIMIT}; default {DEFAULT_FAILURE_LIMIT}, nearly twice the longest run of failures (64) "
                "after which a measured game of heuristic or mixed bots still closed a deal. Even at the maximum, "
                "the longest bots-only table measured (6 seats, two-player rules and every variant, random bots) "
                "took about 17,000 decisions and half a second of engine time. Ruling: "
                "yo-soy-el-jefe/rulings/limite-de-negociaciones-fallidas.",
            },
            "first_player": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": 5,
                "default": None,
                "description": "Seat (0-based, below the seat count) that plays first. Default null: chosen by the "
                "seed. Example 0.",
            },
            "marker_start": {
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": len(SPACES),
                "default": None,
                "description": f"Board space (1-{len(SPACES)}) where the dollar marker starts. Default null: the seat "
                "to the first player's right chooses it as the game's first decision. Example 8.",
            },
            "two_player_rules": {
                "type": ["boolean", "null"],
                "default": None,
                "description": "Play the two-player rules (the boss may use opponents' investors without consent, "
                "paying the payout divided by the investors needed for each; the boss must complete a deal that "
                "the table allows). Always on with 2 seats (false is refused); optional with more. Default null "
                f"(on only with 2 seats). Rule: {v}/dos-jugadores.",
            },
            "boss_card_keeps_turn": flag(
                "Variant: after a deal in which a boss card changed the boss, play goes on to the left of the seat "
                "whose turn it was, not of the last boss.",
                f"{v}/jefe-sin-cambio-de-turno",
            ),
            "mandatory_negotiation_with_10_cards": flag(
                "Variant: a seat that starts its turn with 10 or more influence cards must negotiate, here or "
                "after rolling.",
                f"{v}/negociacion-obligatoria",
            ),
            "dividends_only_for_participants": flag(
                "Variant: only the boss and seats that used at least one influence card in the deal receive "
                "money from it; an unpaid promise stays with the boss.",
                f"{v}/dividendos-solo-participantes",
            ),
            "draw_by_investors": flag(
                "Variant: a draw takes 4 cards with no investor, 3 with one, 2 with two, 1 with three or more.",
                f"{v}/robo-segun-inversores",
            ),
            "no_negotiation_with_3_cards_or_fewer": flag(
                "Variant: a seat holding 3 or fewer influence cards cannot start a negotiation.",
                f"{v}/minimo-para-negociar",
            ),
            "hand_limit_10_from_tenth_deal": flag(
                "Variant: once nine deals are done, the hand limit after drawing is 10 instead of 12.",
                f"{v}/limite-10-y-partida-rapida",
            ),
            "quick_game": flag(
                "Variant: deal cards 3, 6 and 9 are left out, so the game has at most 12 deals.",
                f"{v}/limite-10-y-partida-rapida",
            ),
        },
    }
