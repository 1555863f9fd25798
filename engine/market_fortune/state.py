"""Market Fortune's configuration and mutable state (plain slotted objects, cheap to update).

Cards are integers (see :mod:`engine.market_fortune.components`). Piles are lists
whose last element is the top card. A hand is kept sorted, so its order is stable.
An investment is a 4-item list ``[stock, return, green, face_up]`` (``green`` is -1
when none is attached).

Who knows what is tracked per card in ``know``: a bit mask of the seats that have seen
the card's identity (all bits set: everyone saw it face up). It only grows, for the
whole table (a Campeonato match included): a card id once shown to a seat, in a view
or an event, is never hidden from it again, because that seat's log still holds it.
This drives ``hidden_ids`` and keeps every event honest.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from club_agentes.engine.core import Event, ReactionWindow, Result, Rng
from club_agentes.engine.market_fortune.components import CARD_ID, N_CARDS

MODES: tuple[str, ...] = ("familia", "fortuna", "campeonato")
DEFAULT_MODE = "fortuna"
DEFAULT_TURN_LIMIT = 400
DEFAULT_GAME_LIMIT = 20
MAX_TURN_LIMIT = 100_000
MAX_GAME_LIMIT = 1_000
WIN_VALUE = 25  # Fortuna: 25M or more
MATCH_TARGET = 100  # Campeonato: 100M or more
MAX_INVESTMENTS = 4
BUILDING_TARGET = 8
LOG_SIZE = 12

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


@dataclass(frozen=True, slots=True)
class MFConfig:
    """A table's configuration.

    Attributes:
        seats: 2 to 6 players.
        mode: ``"familia"``, ``"fortuna"`` or ``"campeonato"``.
        turn_limit: turns per game after which the game is cut off and scored
            (ruling ``market-fortune/rulings/limite-de-turnos``).
        game_limit: Campeonato only: games after which the match ends.
        given: the options exactly as given, for :meth:`to_json`.
    """

    seats: int
    mode: str = DEFAULT_MODE
    turn_limit: int = DEFAULT_TURN_LIMIT
    game_limit: int = DEFAULT_GAME_LIMIT
    given: tuple[tuple[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """Return the options as given (``make_config(seats, cfg.to_json())`` rebuilds this config)."""
        return dict(self.given)


class Attack:
    """A red attack being resolved: the reaction window polls its targets clockwise."""

    __slots__ = ("attacker", "card", "investment", "targets", "window")

    def __init__(self, attacker: int, card: int, targets: tuple[int, ...], investment: int | None) -> None:
        self.attacker = attacker
        self.card = card
        self.targets = targets
        self.investment = investment
        self.window = ReactionWindow(targets)

    def to_json(self) -> dict[str, Any]:
        """Return the attack for snapshots."""
        return {
            "attacker": self.attacker,
            "card": CARD_ID[self.card],
            "targets": list(self.targets),
            "investment": self.investment,
            "window": self.window.to_json(),
        }


class State:
    """Everything about one table, hidden parts included."""

    __slots__ = (
        "acted",
        "all_mask",
        "attack",
        "banned",
        "cfg",
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
        "log",
        "lucky",
        "momentum",
        "n",
        "opener",
        "opt_back",
        "over",
        "red_used",
        "result",
        "risk_ban",
        "rng",
        "step",
        "strats",
        "totals",
        "turn",
        "turn_no",
    )

    def __init__(self, cfg: MFConfig, seed: int) -> None:
        n = cfg.seats
        self.cfg = cfg
        self.n = n
        self.rng = Rng(seed)
        self.all_mask = (1 << n) - 1
        self.decks: list[list[int]] = [[], [], []]  # $ deck, +R deck, strategy deck
        self.discards: list[list[int]] = [[], [], []]  # $ discard, +R discard, strategy discard
        self.facedown = [False] * N_CARDS  # Campeonato: face-down (blocking) cards in the discard piles
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.strats: list[list[int]] = [[] for _ in range(n)]
        self.invs: list[list[list[Any]]] = [[] for _ in range(n)]
        self.know: list[int] = []
        self.turn = 0
        self.turn_no = 0  # turns completed in the current game
        self.step = MAIN
        self.acted = False  # the turn's action (Construir, Arriesgar, Dominar) is done
        self.red_used = False  # a red strategy was used this turn
        self.lucky = False  # Inversor Suertudo: this turn's Arriesgar succeeds without the die
        self.banned = False  # Bloqueo Regulatorio: no Arriesgar this turn
        self.risk_ban = [False] * n  # Bloqueo Regulatorio waiting for that seat's next turn
        self.momentum = -1  # the strategy taken by Momentum this turn
        self.drawn = -1  # the red strategy just taken by Dominar
        self.formed = -1  # the investment formed this turn
        self.opt_back = MAIN  # the step an optimisation returns to once paid (main, or Construir's discard)
        self.attack: Attack | None = None
        self.game_no = 0
        self.opener = 0
        self.totals = [0] * n  # Campeonato: credited millions
        self.games: list[dict[str, Any]] = []  # Campeonato: finished games
        self.over = False
        self.result: Result | None = None
        self.log: deque[Event] = deque(maxlen=LOG_SIZE)  # the last events, for views


def snapshot(st: State) -> dict[str, Any]:
    """Return the complete state as JSON (hidden parts included), for replay checks."""

    def ids(cards: list[int]) -> list[str]:
        return [CARD_ID[c] for c in cards]

    return {
        "config": {
            "seats": st.n,
            "mode": st.cfg.mode,
            "turn_limit": st.cfg.turn_limit,
            "game_limit": st.cfg.game_limit,
        },
        "rng": st.rng.state,
        "decks": [ids(d) for d in st.decks],
        "discards": [ids(d) for d in st.discards],
        "facedown": [CARD_ID[c] for c in range(N_CARDS) if st.facedown[c]],
        "hands": [ids(h) for h in st.hands],
        "strategies": [ids(s) for s in st.strats],
        "investments": [
            [[CARD_ID[i[0]], CARD_ID[i[1]], CARD_ID[i[2]] if i[2] >= 0 else None, i[3]] for i in invs]
            for invs in st.invs
        ],
        "know": list(st.know),
        "turn": st.turn,
        "turn_no": st.turn_no,
        "step": st.step,
        "acted": st.acted,
        "red_used": st.red_used,
        "lucky": st.lucky,
        "banned": st.banned,
        "risk_ban": list(st.risk_ban),
        "momentum": CARD_ID[st.momentum] if st.momentum >= 0 else None,
        "drawn": CARD_ID[st.drawn] if st.drawn >= 0 else None,
        "formed": st.formed,
        "opt_back": st.opt_back,
        "attack": st.attack.to_json() if st.attack is not None else None,
        "game_no": st.game_no,
        "opener": st.opener,
        "totals": list(st.totals),
        "games": list(st.games),
        "over": st.over,
        "result": None
        if st.result is None
        else {
            "winners": list(st.result.winners),
            "scores": list(st.result.scores),
            "reason": st.result.reason,
            "rule_id": st.result.rule_id,
        },
        "log": [[e.text, list(e.audience) if e.audience is not None else None] for e in st.log],
    }
