"""Market Fortune's mutable state (plain slotted objects, cheap to update and to copy).

Cards are integers (see :mod:`club_agentes.engine.market_fortune.components`). Piles are lists
whose last element is the top card. A hand is kept sorted, so its order is stable. An
investment is an :class:`Investment` (``green`` is -1 when none is attached).

Who knows what is tracked per card in ``know``: a bit mask of the seats that know where the
card is now, beyond what the zones show them (bit ``s`` for seat ``s``), and bit ``n`` (the
*public* bit, :attr:`State.public_bit`) when everyone, spectators included, knows it. A card
taken from a deck is known to its taker; a card put face up anywhere is public; a card that
moves where a seat cannot follow it (shuffled into a deck, mixed into a hand, hidden in an
investment) is forgotten by the seats that cannot follow it. The visibility rule
(:mod:`.knowledge`) reads these masks; views and determinization come from it.

``seen`` keeps, per card, who was ever shown it (the same bits; it only grows, over a whole
Campeonato match): a card once shown to a seat stays in that seat's log, so naming it again
reveals nothing. ``hidden_ids`` is what the visibility rule hides minus what was seen.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import ReactionWindow, Result, Rng
from club_agentes.engine.core.steps import Memo
from club_agentes.engine.market_fortune.components import N_CARDS
from club_agentes.engine.market_fortune.config import (
    DEFAULT_GAME_LIMIT,
    DEFAULT_MODE,
    DEFAULT_TURN_LIMIT,
    MAX_GAME_LIMIT,
    MAX_TURN_LIMIT,
    MODES,
    MFConfig,
)

__all__ = [
    "BUILDING_TARGET",
    "DEFAULT_GAME_LIMIT",
    "DEFAULT_MODE",
    "DEFAULT_TURN_LIMIT",
    "MATCH_TARGET",
    "MAX_GAME_LIMIT",
    "MAX_INVESTMENTS",
    "MAX_TURN_LIMIT",
    "MODES",
    "WIN_VALUE",
    "Attack",
    "Investment",
    "MFConfig",
    "State",
]

WIN_VALUE = 25  # Fortuna: 25M or more
MATCH_TARGET = 100  # Campeonato: 100M or more
MAX_INVESTMENTS = 4
BUILDING_TARGET = 8

# Steps of a turn (the decision the seat on turn, or the polled seat, faces now).
MAIN = "main"
BUILD_DISCARD = "build-discard"
OPTIMISE_COST = "optimise-cost"
TRIM = "trim"
FORMED = "formed"
CLOSING = "closing"
RETURN_STEP = "return"
DOMINATED = "dominated"
TAKE = "take"
RESCUE = "rescue"
REACTION = "reaction"
STEPS: tuple[str, ...] = (
    MAIN,
    BUILD_DISCARD,
    OPTIMISE_COST,
    TRIM,
    FORMED,
    CLOSING,
    RETURN_STEP,
    DOMINATED,
    TAKE,
    RESCUE,
    REACTION,
)


class Investment:
    """One investment: its $ and +R cards, the green attached (-1: none) and whether it lies face up."""

    __slots__ = ("face_up", "green", "ret", "stock")

    def __init__(self, stock: int, ret: int, green: int = -1, face_up: bool = False) -> None:
        self.stock = stock
        self.ret = ret
        self.green = green
        self.face_up = face_up

    def copy(self) -> Investment:
        """Return an independent copy."""
        return Investment(self.stock, self.ret, self.green, self.face_up)

    def cards(self) -> list[int]:
        """Return the investment's cards: $, +R and the green if any."""
        return [self.stock, self.ret] if self.green < 0 else [self.stock, self.ret, self.green]

    def __repr__(self) -> str:
        return f"Investment({self.stock}, {self.ret}, {self.green}, {self.face_up})"


class Attack:
    """A red attack being resolved: the reaction window polls its targets clockwise."""

    __slots__ = ("attacker", "card", "investment", "targets", "window")

    def __init__(self, attacker: int, card: int, targets: tuple[int, ...], investment: int | None) -> None:
        self.attacker = attacker
        self.card = card
        self.targets = targets
        self.investment = investment
        self.window = ReactionWindow(targets)

    def copy(self) -> Attack:
        """Return an independent copy."""
        a = Attack(self.attacker, self.card, self.targets, self.investment)
        a.window = self.window.copy()
        return a


class State:
    """Everything about one table, hidden parts included."""

    __slots__ = (
        "acted",
        "attack",
        "banned",
        "config",
        "decks",
        "discards",
        "drawn",
        "facedown",
        "formed",
        "game_no",
        "games",
        "hands",
        "invs",
        "know",
        "lucky",
        "memo",
        "momentum",
        "n",
        "opener",
        "opt_back",
        "over",
        "public_bit",
        "red_used",
        "result",
        "risk_ban",
        "rng",
        "seen",
        "step",
        "strats",
        "totals",
        "trim_by",
        "trim_down",
        "turn",
        "turn_no",
        "version",
    )

    def __init__(self, config: MFConfig, seed: int) -> None:
        n = config.seats
        self.config = config
        self.n = n
        self.rng = Rng(seed)
        self.public_bit = 1 << n
        self.decks: list[list[int]] = [[], [], []]  # $ deck, +R deck, strategy deck
        self.discards: list[list[int]] = [[], [], []]  # $ discard, +R discard, strategy discard
        self.facedown = [False] * N_CARDS  # Campeonato: face-down (blocking) cards in the discard piles
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.strats: list[list[int]] = [[] for _ in range(n)]
        self.invs: list[list[Investment]] = [[] for _ in range(n)]
        self.know: list[int] = [0] * N_CARDS
        self.seen: list[int] = [0] * N_CARDS  # who was ever shown each card (only grows, for the whole table)
        self.turn = 0
        self.turn_no = 0  # turns completed in the current game
        self.step = MAIN
        self.acted = False  # the turn's action (Construir, Arriesgar, Dominar) is done
        self.red_used = False  # a red strategy was used this turn
        self.lucky = False  # Inversor Suertudo: this turn's Arriesgar succeeds without the die
        self.banned = False  # Bloqueo Regulatorio: no Arriesgar this turn
        self.risk_ban = [False] * n  # Bloqueo Regulatorio waiting for that seat's next turn
        self.momentum = -1  # the strategy taken by Momentum this turn
        self.drawn = -1  # the strategy just taken by Dominar
        self.formed = -1  # the investment formed this turn
        self.opt_back = MAIN  # the step an optimisation returns to once paid (main, or Construir's discard)
        self.trim_by = -1  # the strategy (Liquidez, Comprar Más) that orders this turn's end-of-turn discards
        self.trim_down: list[int] = []  # cards this turn's strategy-ordered discards put face down (Campeonato)
        self.attack: Attack | None = None
        self.game_no = 0
        self.opener = 0
        self.totals = [0] * n  # Campeonato: credited millions
        self.games: list[dict[str, Any]] = []  # Campeonato: finished games
        self.over = False
        self.result: Result | None = None
        self.version = 0  # raised by every move (game.apply): what the core memo keeps holds for one version
        self.memo: Memo | None = None  # the core step kit's memo of this version (core.steps.kept)

    @property
    def full_mask(self) -> int:
        """The knowledge mask of a public card: every seat and the public bit."""
        return (self.public_bit << 1) - 1

    def clone(self) -> State:
        """Return an independent copy (for search), faster than ``copy.deepcopy``."""
        c = State.__new__(State)
        c.config = self.config
        c.n = self.n
        c.rng = self.rng.copy()
        c.public_bit = self.public_bit
        c.decks = [list(d) for d in self.decks]
        c.discards = [list(d) for d in self.discards]
        c.facedown = list(self.facedown)
        c.hands = [list(h) for h in self.hands]
        c.strats = [list(s) for s in self.strats]
        c.invs = [[i.copy() for i in invs] for invs in self.invs]
        c.know = list(self.know)
        c.seen = list(self.seen)
        c.turn = self.turn
        c.turn_no = self.turn_no
        c.step = self.step
        c.acted = self.acted
        c.red_used = self.red_used
        c.lucky = self.lucky
        c.banned = self.banned
        c.risk_ban = list(self.risk_ban)
        c.momentum = self.momentum
        c.drawn = self.drawn
        c.formed = self.formed
        c.opt_back = self.opt_back
        c.trim_by = self.trim_by
        c.trim_down = list(self.trim_down)
        c.attack = self.attack.copy() if self.attack is not None else None
        c.game_no = self.game_no
        c.opener = self.opener
        c.totals = list(self.totals)
        c.games = [dict(g) for g in self.games]
        c.over = self.over
        c.result = self.result
        c.version = self.version
        c.memo = None
        return c
