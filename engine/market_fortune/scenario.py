"""Explicit Market Fortune positions, built from named cards (as pokerkit builds a state from explicit cards).

:func:`position` deals a real game (so every field is initialised as the engine does) and then
moves the named cards where the position wants them; every other card goes to its deck in id
order, under the named tops, so the 180 cards are always conserved. Owners know their own cards,
discards are public, decks are unknown. The seat ``turn`` is at the start of its turn.

:func:`rig_die` fixes the next rolls of the Fortune die. Quizzes and tests build situations with
these two functions and then ask the engine (``legal_moves``, ``apply``, ``view``, ``result``) what
the rules make of them; nothing here decides a rule.

Cards are named by their ids (``"MF-A-ENE-3"``, ``"MF-R-ENE-2"``, ``"MF-E-ROBO-1"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from club_agentes.engine.core import Rng, get_game
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX, CARD_TYPE, N_CARDS, STRATEGY
from club_agentes.engine.market_fortune.state import Investment, State
from club_agentes.engine.market_fortune.table import die_plus

__all__ = ["InvestmentSpec", "position", "rig_die"]

InvestmentSpec = tuple[Any, ...]
"""``(stock_id, return_id)``, ``(stock_id, return_id, green_id_or_None)`` or ``(..., face_up)``."""

_SEED_SEARCH = 1 << 16


def position(
    seats: int = 4,
    *,
    mode: str = "fortuna",
    turn: int = 0,
    hands: Mapping[int, Sequence[str]] | None = None,
    strategies: Mapping[int, Sequence[str]] | None = None,
    investments: Mapping[int, Sequence[InvestmentSpec]] | None = None,
    discards: Mapping[str, Sequence[str]] | None = None,
    stock_top: Sequence[str] = (),
    return_top: Sequence[str] = (),
    strategy_top: Sequence[str] = (),
    won: Sequence[tuple[int, int]] = (),
    seed: int = 11,
) -> State:
    """Return a state at the start of ``turn``'s turn with exactly the named cards in place.

    Args:
        seats, mode: the table (``mode`` is ``"familia"``, ``"fortuna"`` or ``"campeonato"``).
        turn: the seat on turn.
        hands, strategies: seat -> card ids of its building hand / its strategies (others: none).
        investments: seat -> investments, oldest first (see :data:`InvestmentSpec`).
        discards: ``"stock" | "return" | "strategy"`` -> card ids, bottom first (the last is on top).
        stock_top, return_top, strategy_top: cards put on top of a deck, the last one drawn first.
        won: Campeonato only: the games already played in the match, as ``(winner seat, millions
            credited)``, first game first; the position is then the next game of the match.
        seed: the game's seed (its random stream: dice, random picks).

    Raises:
        KeyError: an unknown card id.
        ValueError: a card named twice.
        ConfigError: the engine refuses the seat count or the mode.
    """
    game = get_game("market-fortune")
    state: State = game.new_game(game.make_config(seats, {"mode": mode}), seed)
    placed: list[int] = []

    def take(card_ids: Iterable[str]) -> list[int]:
        cards = [CARD_INDEX[c] for c in card_ids]
        placed.extend(cards)
        return cards

    state.hands = [sorted(take((hands or {}).get(s, ()))) for s in range(seats)]
    state.strats = [sorted(take((strategies or {}).get(s, ()))) for s in range(seats)]
    state.invs = [[] for _ in range(seats)]
    for s, invs in (investments or {}).items():
        state.invs[s] = [_investment(spec, take) for spec in invs]
    piles = {"stock": 0, "return": 1, "strategy": 2}
    state.discards = [[], [], []]
    for name, cards in (discards or {}).items():
        state.discards[piles[name]] = take(cards)
    tops = [take(stock_top), take(return_top), take(strategy_top)]
    if len(set(placed)) != len(placed):
        raise ValueError(f"cards named twice: {sorted({CARD_ID[c] for c in placed if placed.count(c) > 1})}")
    rest = sorted(set(range(N_CARDS)) - set(placed))
    state.decks = [
        [c for c in rest if CARD_TYPE[c] == 0] + tops[0],
        [c for c in rest if CARD_TYPE[c] == 1] + tops[1],
        [c for c in rest if CARD_TYPE[c] == STRATEGY] + tops[2],
    ]
    state.facedown = [False] * N_CARDS
    _know(state)
    state.turn = turn
    state.turn_no = 0
    state.totals = [0] * seats
    state.games = []
    for number, (winner, millions) in enumerate(won, 1):
        state.totals[winner] += millions
        state.games.append({"game": number, "winners": [winner], "credited": [millions], "reason": "scenario"})
    state.game_no = len(won) + 1
    return state


def _know(state: State) -> None:
    """Set who knows each card: owners their own cards (face-up investments: everyone), everyone the discards,
    nobody the decks."""
    state.know = [0] * N_CARDS
    for s in range(state.n):
        for c in state.hands[s] + state.strats[s]:
            state.know[c] = 1 << s
        for inv in state.invs[s]:
            for c in inv.cards():
                state.know[c] = state.full_mask if inv.face_up else 1 << s
    for pile in state.discards:
        for c in pile:
            state.know[c] = state.full_mask
    state.seen = list(state.know)


def _investment(spec: InvestmentSpec, take: Callable[[Iterable[str]], list[int]]) -> Investment:
    """Return the investment ``spec`` names, its cards taken with ``take``."""
    stock, ret = take(spec[:2])
    green = take(spec[2:3])[0] if len(spec) > 2 and spec[2] else -1
    return Investment(stock, ret, green, bool(spec[3]) if len(spec) > 3 else False)


class _Roller:
    """The part of a state the die reads: its random stream."""

    __slots__ = ("rng",)

    def __init__(self, rng: Rng) -> None:
        self.rng = rng


def rig_die(state: State, *faces: bool) -> None:
    """Make the table's next Fortune-die rolls come up ``faces`` (``True``: +, ``False``: −), in order.

    The table's random stream is replaced by one whose first draws are those rolls; use it when the
    next draws of the stream are die rolls (an Arriesgar, Fortuna, the first-player roll...).

    Raises:
        ValueError: no stream in the searched seeds gives those faces (more than 16 faces asked).
    """
    for seed in range(_SEED_SEARCH):
        roller = _Roller(Rng(seed))
        if all(die_plus(roller) == face for face in faces):  # type: ignore[arg-type]
            state.rng = Rng(seed)
            return
    raise ValueError(f"no seed below {_SEED_SEARCH} rolls {faces}")
