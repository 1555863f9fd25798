"""The mutable state of a game of Yo soy el jefe, its configuration and its setup.

Cards are ints (indexes into :data:`CARDS`), colours are ints (indexes into
:data:`COLOURS`), seats are ints; only the views and events turn them into names.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import ConfigError, ReactionWindow, Rng
from club_agentes.engine.yo_soy_el_jefe.components import BOSS, FAMILY, GREY, HIRE, STOP, TRAVEL, DealCard, components

COMP = components()
COLOURS: tuple[str, ...] = COMP.colours
NCOL = len(COLOURS)
CARDS = COMP.cards
SPACES = COMP.spaces
DEAL_CARDS = COMP.deal_cards

# A hand is also kept as counts per "slot": family of each colour, travel of each
# colour, grey travel, boss, hire, stop.
SLOT_FAMILY = 0
SLOT_TRAVEL = NCOL
SLOT_GREY = 2 * NCOL
SLOT_BOSS = SLOT_GREY + 1
SLOT_HIRE = SLOT_GREY + 2
SLOT_STOP = SLOT_GREY + 3
NSLOTS = SLOT_STOP + 1


def _slot(kind: str, colour: str | None) -> int:
    if kind == FAMILY:
        return SLOT_FAMILY + COLOURS.index(colour)  # type: ignore[arg-type]
    if kind == TRAVEL:
        return SLOT_GREY if colour == GREY else SLOT_TRAVEL + COLOURS.index(colour)  # type: ignore[arg-type]
    return {BOSS: SLOT_BOSS, HIRE: SLOT_HIRE, STOP: SLOT_STOP}[kind]


CARD_SLOT: tuple[int, ...] = tuple(_slot(c.kind, c.colour) for c in CARDS)
SLOT_KIND: tuple[tuple[str, str | None], ...] = tuple(
    [(FAMILY, c) for c in COLOURS]
    + [(TRAVEL, c) for c in COLOURS]
    + [(TRAVEL, GREY), (BOSS, None), (HIRE, None), (STOP, None)]
)
SLOT_OF_KIND: dict[tuple[str, str | None], int] = {k: i for i, k in enumerate(SLOT_KIND)}

# Item states in a negotiation: who named the price on the table.
ASKED = 0  # the seat asked this price of the boss
PROPOSED = 1  # the boss proposed this price to the seat
AGREED = 2  # both agreed

HAND_LIMIT = 12
HAND_LIMIT_LATE = 10
OFFERS_PER_SEAT = 2  # price statements of a seat that is not the boss, per boss
BIDS_PER_SEAT = 2  # price statements of the boss to each other seat, per boss
DEFAULT_TURN_LIMIT = 200
QUICK_GAME_REMOVED = (3, 6, 9)

VARIANT_OPTIONS: tuple[str, ...] = (
    "boss_card_keeps_turn",
    "mandatory_negotiation_with_10_cards",
    "dividends_only_for_participants",
    "draw_by_investors",
    "no_negotiation_with_3_cards_or_fewer",
    "hand_limit_10_from_tenth_deal",
    "quick_game",
)
OPTION_NAMES: tuple[str, ...] = ("turn_limit", "first_player", "marker_start", "two_player_rules", *VARIANT_OPTIONS)


@dataclass(frozen=True, slots=True)
class JefeConfig:
    """A table's configuration: seat count and options (see ``YoSoyElJefe.config_schema``)."""

    seats: int
    options: tuple[tuple[str, Any], ...]
    turn_limit: int
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


def make_config(seats: int, options: Mapping[str, Any] | None) -> JefeConfig:
    """Validate the seat count and options and build the configuration.

    Raises:
        ConfigError: seat count out of 2-6, unknown option or bad value.
    """
    if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 6:
        raise ConfigError(f"Yo soy el jefe is played by 2 to 6 seats, not {seats!r}.")
    opts = dict(options or {})
    unknown = sorted(k for k in opts if k not in OPTION_NAMES)
    if unknown:
        raise ConfigError(f"unknown option(s) {', '.join(unknown)}; the options are {', '.join(OPTION_NAMES)}.")
    values: dict[str, Any] = {}
    limit = opts.get("turn_limit", DEFAULT_TURN_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 10_000:
        raise ConfigError(f"turn_limit must be a whole number of turns from 1 to 10000, not {limit!r}.")
    values["turn_limit"] = limit
    first = opts.get("first_player")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < seats):
        raise ConfigError(f"first_player must be null or a seat from 0 to {seats - 1}, not {first!r}.")
    values["first_player"] = first
    marker = opts.get("marker_start")
    if marker is not None and (
        not isinstance(marker, int) or isinstance(marker, bool) or not 1 <= marker <= len(SPACES)
    ):
        raise ConfigError(f"marker_start must be null or a board space from 1 to {len(SPACES)}, not {marker!r}.")
    values["marker_start"] = marker
    two = opts.get("two_player_rules")
    if two is not None and not isinstance(two, bool):
        raise ConfigError(f"two_player_rules must be true, false or null, not {two!r}.")
    if seats == 2 and two is False:
        raise ConfigError("two_player_rules cannot be false with 2 seats: the two-player rules always apply then.")
    values["two_player_rules"] = seats == 2 or bool(two)
    for name in VARIANT_OPTIONS:
        v = opts.get(name, False)
        if not isinstance(v, bool):
            raise ConfigError(f"{name} must be true or false, not {v!r}.")
        values[name] = v
    return JefeConfig(seats=seats, options=tuple(sorted(opts.items())), **values)


class StopWindow:
    """A stoppable card just played: the seats are polled for a stop card before it takes effect.

    ``kind`` is ``"travel"`` (payload: target, seat, colour), ``"boss"`` (payload:
    restart) or ``"hire"`` (payload: colour); ``cards`` are the played cards.
    """

    __slots__ = ("cards", "kind", "payload", "player", "window")

    def __init__(self, player: int, kind: str, payload: tuple, cards: list[int], order: tuple[int, ...]) -> None:
        self.player = player
        self.kind = kind
        self.payload = payload
        self.cards = cards
        self.window = ReactionWindow(order)

    def to_json(self) -> dict[str, Any]:
        """Return the window for snapshots."""
        return {
            "player": self.player,
            "kind": self.kind,
            "payload": list(self.payload),
            "cards": [CARDS[c].id for c in self.cards],
            "window": self.window.to_json(),
        }


class Negotiation:
    """One deal being negotiated on a board space."""

    __slots__ = (
        "active",
        "bids_left",
        "boss",
        "card",
        "dividends",
        "floor",
        "history",
        "items",
        "offers_left",
        "payout",
        "placed",
        "price_ctx",
        "space",
        "travelled",
        "turn_seat",
        "used",
        "value",
        "window",
    )

    def __init__(self, space: int, card: DealCard, boss: int, seats: int) -> None:
        self.space = space
        self.card = card
        self.value = card.dividend
        self.dividends = SPACES[space].dividends
        self.payout = self.value * self.dividends
        self.boss = boss
        self.turn_seat = boss
        # colour -> the travel card lying on that colour's investor card
        self.travelled: dict[int, int] = {}
        # (seat, colour) -> the family card that seat placed
        self.placed: dict[tuple[int, int], int] = {}
        # (seat, colour) -> (state, millions, unit, amount as named)
        self.items: dict[tuple[int, int], tuple[int, int, str, int]] = {}
        self.offers_left = [OFFERS_PER_SEAT] * seats
        self.bids_left = [BIDS_PER_SEAT] * seats
        self.used: set[int] = set()
        # "poll": the window polls the seats other than the boss; "boss": the boss decides;
        # "price": price_ctx's actor names an amount.
        self.floor = "poll"
        self.active = False  # whether a seat other than the boss acted in the current round
        self.window = ReactionWindow(())
        self.price_ctx: tuple[int, int, int] | None = None  # (actor, item seat, colour)
        self.history: list[str] = []

    def agreed_total(self) -> int:
        """Return the millions promised so far."""
        return sum(v[1] for v in self.items.values() if v[0] == AGREED)

    def to_json(self) -> dict[str, Any]:
        """Return the negotiation for snapshots."""
        return {
            "space": self.space + 1,
            "card": self.card.number,
            "boss": self.boss,
            "turn_seat": self.turn_seat,
            "travelled": {COLOURS[c]: CARDS[t].id for c, t in sorted(self.travelled.items())},
            "placed": [[s, COLOURS[c], CARDS[k].id] for (s, c), k in sorted(self.placed.items())],
            "items": [[s, COLOURS[c], *v] for (s, c), v in sorted(self.items.items())],
            "offers_left": list(self.offers_left),
            "bids_left": list(self.bids_left),
            "used": sorted(self.used),
            "floor": self.floor,
            "active": self.active,
            "window": self.window.to_json(),
            "price_ctx": list(self.price_ctx) if self.price_ctx else None,
        }


class State:
    """The whole game: table, hands, decks, money, and the decision in progress."""

    __slots__ = (
        "cfg",
        "counts",
        "covered",
        "deal_deck",
        "deals_done",
        "deck",
        "discard",
        "end_reason",
        "end_rule",
        "first_player",
        "hand_limit_seat",
        "hands",
        "last_deal",
        "last_roll",
        "legal_cache",
        "marker",
        "money",
        "must_negotiate",
        "n",
        "neg",
        "owner",
        "phase",
        "public",
        "rng",
        "stop",
        "turn",
        "turns_played",
        "version",
    )

    def __init__(self, cfg: JefeConfig, seed: int) -> None:
        self.cfg = cfg
        self.n = n = cfg.seats
        self.rng = Rng(seed)
        rng = self.rng
        self.first_player = cfg.first_player if cfg.first_player is not None else rng.below(n)
        # Investors: dealt at random, by seat count (see the erratum on dealing).
        order = list(range(NCOL))
        rng.shuffle(order)
        per_seat = {2: 3, 3: 2}.get(n, 1)
        self.owner = [-1] * NCOL  # colour -> seat, or -1 beside the board
        for i, colour in enumerate(order[: per_seat * n]):
            self.owner[colour] = (self.first_player + i) % n
        # Influence cards: shuffled, five each; the top of the deck is the end of the list.
        deck = list(range(len(CARDS)))
        rng.shuffle(deck)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.counts: list[list[int]] = [[0] * NSLOTS for _ in range(n)]
        for _ in range(5):
            for s in range(n):
                self.give(s, deck.pop())
        self.deck = deck
        self.discard: list[int] = []
        self.deal_deck: list[DealCard] = [
            c for c in DEAL_CARDS if not (cfg.quick_game and c.number in QUICK_GAME_REMOVED)
        ]
        self.deals_done = 0
        self.covered: list[int] = [0] * len(SPACES)  # deal card number covering each space (0: free)
        self.money = [0] * n
        self.public: set[int] = set()  # cards that have been face up on the table
        self.neg: Negotiation | None = None
        self.stop: StopWindow | None = None
        self.turns_played = 0
        self.turn = self.first_player
        self.must_negotiate = False
        self.hand_limit_seat = -1
        self.last_roll: int | None = None
        self.last_deal: dict[str, Any] | None = None
        self.end_reason = ""
        self.end_rule: str | None = None
        self.version = 0
        self.legal_cache: tuple[int, int, list[Any]] | None = None
        if cfg.marker_start is None:
            self.marker = -1
            self.phase = "marker"
        else:
            self.marker = cfg.marker_start - 1
            self.phase = "turn"

    # -- hands ---------------------------------------------------------------------------

    def give(self, seat: int, card: int) -> None:
        """Put ``card`` into ``seat``'s hand (kept sorted)."""
        insort(self.hands[seat], card)
        self.counts[seat][CARD_SLOT[card]] += 1

    def take(self, seat: int, slot: int) -> int:
        """Remove and return the lowest card of ``slot`` from ``seat``'s hand.

        Raises:
            ValueError: the hand holds no card of that slot (callers check first).
        """
        hand = self.hands[seat]
        for i, card in enumerate(hand):
            if CARD_SLOT[card] == slot:
                del hand[i]
                self.counts[seat][slot] -= 1
                return card
        raise ValueError(f"seat {seat} holds no card of slot {slot}")

    def hand_limit(self) -> int:
        """Return the hand limit now (12; 10 from the tenth deal with that variant)."""
        if self.cfg.hand_limit_10_from_tenth_deal and self.deals_done >= 9:
            return HAND_LIMIT_LATE
        return HAND_LIMIT

    def draw_card(self) -> int | None:
        """Take the top card of the influence deck, reshuffling the discards when it is empty."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def investors_of(self, seat: int) -> list[int]:
        """Return the colours of the investor cards ``seat`` holds."""
        return [c for c in range(NCOL) if self.owner[c] == seat]

    def snapshot(self) -> dict[str, Any]:
        """Return the complete state as JSON, hidden parts included."""
        return {
            "options": self.cfg.to_json(),
            "seats": self.n,
            "rng": self.rng.state,
            "phase": self.phase,
            "first_player": self.first_player,
            "turn": self.turn,
            "turns_played": self.turns_played,
            "must_negotiate": self.must_negotiate,
            "hand_limit_seat": self.hand_limit_seat,
            "marker": self.marker + 1,
            "covered": list(self.covered),
            "deal_deck": [c.number for c in self.deal_deck],
            "deals_done": self.deals_done,
            "owner": {COLOURS[c]: s for c, s in enumerate(self.owner)},
            "hands": [[CARDS[c].id for c in h] for h in self.hands],
            "deck": [CARDS[c].id for c in self.deck],
            "discard": [CARDS[c].id for c in self.discard],
            "money": list(self.money),
            "public": sorted(CARDS[c].id for c in self.public),
            "negotiation": self.neg.to_json() if self.neg else None,
            "stop": self.stop.to_json() if self.stop else None,
            "last_roll": self.last_roll,
            "last_deal": self.last_deal,
            "end_reason": self.end_reason,
            "end_rule": self.end_rule,
        }
