"""Fixed Market Fortune scenarios built directly, without long random play.

:func:`table` deals a real game (so every field is initialised as the engine does)
and then moves the named cards where the scenario wants them:

* ``hands`` / ``strategies``: ``{seat: [card ids]}``; a seat not listed gets none.
* ``investments``: ``{seat: [(stock, return[, green[, face_up]])]}``.
* ``discards``: ``{"stock" | "return" | "strategy": [bottom, ..., top]}``.
* ``facedown``: card ids in the discard piles that lie face down (Campeonato blocks).
* ``stock_top`` / ``return_top`` / ``strategy_top``: cards put on top of a deck, the
  last one on top (drawn first).

Every other card goes to its deck in id order, under the named tops, so the 180 cards
are always conserved. Owners know their own cards, discards are public, decks unknown.
The seat ``turn`` is at the start of its turn (step ``main``) unless ``step`` is given.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest
from club_agentes.engine.core import IllegalMove, get_game
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX, CARD_TYPE, N_CARDS, STRATEGY
from club_agentes.engine.market_fortune.state import MAIN, Investment, State

GAME = get_game("market-fortune")

InvSpec = tuple[Any, ...]


def table(
    seats: int = 4,
    *,
    mode: str = "fortuna",
    options: Mapping[str, Any] | None = None,
    turn: int = 0,
    step: str = MAIN,
    hands: Mapping[int, Sequence[str]] | None = None,
    strategies: Mapping[int, Sequence[str]] | None = None,
    investments: Mapping[int, Sequence[InvSpec]] | None = None,
    discards: Mapping[str, Sequence[str]] | None = None,
    facedown: Iterable[str] = (),
    stock_top: Sequence[str] = (),
    return_top: Sequence[str] = (),
    strategy_top: Sequence[str] = (),
    seed: int = 11,
) -> State:
    """Return a state set up as described in the module docstring.

    Raises:
        ValueError: a card is named twice.
    """
    opts: dict[str, Any] = {"mode": mode, **(options or {})}
    st = GAME.new_game(GAME.make_config(seats, opts), seed)
    placed: list[int] = []

    def take(card_ids: Iterable[str]) -> list[int]:
        cards = [CARD_INDEX[c] for c in card_ids]
        placed.extend(cards)
        return cards

    st.hands = [sorted(take((hands or {}).get(s, ()))) for s in range(seats)]
    st.strats = [sorted(take((strategies or {}).get(s, ()))) for s in range(seats)]
    st.invs = [[] for _ in range(seats)]
    for s, invs in (investments or {}).items():
        for spec in invs:
            stock, ret = take(spec[:2])
            green = take(spec[2:3])[0] if len(spec) > 2 and spec[2] else -1
            up = bool(spec[3]) if len(spec) > 3 else False
            st.invs[s].append(Investment(stock, ret, green, up))
    piles = {"stock": 0, "return": 1, "strategy": 2}
    st.discards = [[], [], []]
    for name, cards in (discards or {}).items():
        st.discards[piles[name]] = take(cards)
    tops = [take(stock_top), take(return_top), take(strategy_top)]
    if len(set(placed)) != len(placed):
        dupes = sorted({CARD_ID[c] for c in placed if placed.count(c) > 1})
        raise ValueError(f"cards named twice: {dupes}")
    rest = sorted(set(range(N_CARDS)) - set(placed))
    st.decks = [
        [c for c in rest if CARD_TYPE[c] == 0] + tops[0],
        [c for c in rest if CARD_TYPE[c] == 1] + tops[1],
        [c for c in rest if CARD_TYPE[c] == STRATEGY] + tops[2],
    ]
    st.facedown = [False] * N_CARDS
    for c in facedown:
        st.facedown[CARD_INDEX[c]] = True
    st.know = [0] * N_CARDS
    for s in range(seats):
        for c in st.hands[s] + st.strats[s]:
            st.know[c] = 1 << s
        for inv in st.invs[s]:
            for c in inv.cards():
                st.know[c] = st.full_mask if inv.face_up else 1 << s
    for pile in st.discards:
        for c in pile:
            st.know[c] = 0 if st.facedown[c] else st.full_mask
    st.seen = list(st.know)
    st.turn = turn
    st.step = step
    st.acted = st.red_used = st.lucky = st.banned = False
    st.risk_ban = [False] * seats
    st.momentum = st.drawn = st.formed = -1
    st.opt_back = MAIN
    st.trim_by = -1
    st.trim_down = []
    st.attack = None
    st.turn_no = 0
    return st


def cards_everywhere(st: State) -> list[int]:
    """Return every card the state holds, wherever it is (for conservation checks)."""
    out: list[int] = []
    for pile in (*st.decks, *st.discards, *st.hands, *st.strats):
        out.extend(pile)
    for invs in st.invs:
        for inv in invs:
            out.extend(inv.cards())
    if st.attack is not None:
        out.append(st.attack.card)
    return out


def assert_conserved(st: State) -> None:
    """Assert that all 180 cards are present exactly once."""
    cards = cards_everywhere(st)
    assert sorted(cards) == list(range(N_CARDS)), "cards were lost or duplicated"


def snap(st: State) -> str:
    """Return the state's snapshot as canonical JSON."""
    return json.dumps(GAME.snapshot(st), sort_keys=True)


def refused(st: State, seat: int, move: Any) -> IllegalMove:
    """Apply a move that must be refused; check the state is untouched; return the error."""
    before = snap(st)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(st, seat, GAME.parse_move(move) if isinstance(move, (str, dict)) else move)
    assert snap(st) == before, "a refused move changed the state"
    return err.value


def play(st: State, seat: int, *moves: Any) -> list[str]:
    """Apply moves (text, JSON or values) for ``seat``; return the event texts visible to everyone."""
    texts: list[str] = []
    for move in moves:
        m = GAME.parse_move(move) if isinstance(move, (str, dict)) else move
        assert m in GAME.legal_moves(st, seat), f"{m.text()} is not listed as legal for seat {seat}"
        texts.extend(e.text for e in GAME.apply(st, seat, m) if e.audience is None)
    return texts


def hand_ids(st: State, seat: int) -> list[str]:
    """Return the ids of a seat's building hand."""
    return [CARD_ID[c] for c in st.hands[seat]]


def strategy_ids(st: State, seat: int) -> list[str]:
    """Return the ids of a seat's strategies."""
    return [CARD_ID[c] for c in st.strats[seat]]


EIGHT = ["MF-A-ENE-3", "MF-R-ENE-2", "MF-A-TEC-4", "MF-R-SAL-1", "MF-A-FIN-2", "MF-R-INM-5", "MF-A-CON-1", "MF-R-MAN-3"]
FOUR_INVS = [
    ("MF-A-TRA-5", "MF-R-TRA-3"),
    ("MF-A-AGR-4", "MF-R-AGR-4"),
    ("MF-A-MIN-3", "MF-R-MIN-2"),
    ("MF-A-ENT-2", "MF-R-ENT-2"),
]


def public_decision(st) -> dict:
    """What the table sees of the decision: the step and the prompt (spectator and rival views)."""
    spectator = GAME.view(st, None)
    rival = GAME.view(st, 1)
    assert spectator["decision"] == rival["decision"]
    return {"step": rival["turn"]["step"], "prompt": rival["decision"]["prompt"], "seats": rival["decision"]["seats"]}
