"""Sampling a full Market Fortune state consistent with what one seat knows (determinization).

The places whose card the seat does not know are typed by what the public table shows:
a position in the $, +R or strategy deck; a $ or +R card in another seat's hand (the backs of
the two building decks differ, so each hand's count of each kind is public); a strategy in
another seat's hand; a face-down investment of another seat (a $ and a +R of one industry,
plus a green if one is attached); a card a strategy discarded face down (Campeonato). The
cards the seat does not know are dealt anew into those places, uniformly among all the
arrangements that respect those types and the one-industry pairs of investments:

* investments first: the industries of the unknown pairs are drawn by a count of the
  completions (a small dynamic programme over the 12 industries), then their cards, so every
  set of pairs is equally likely;
* greens on unknown investments among the unknown greens; then every other unknown card
  shuffled into the places of its kind.

The draw reads only what the seat knows (which cards are unknown, how many places of each
kind), never where the unknown cards really are, so two states that differ only in their
hidden parts give the same worlds. The world's random stream is reseeded, so it says nothing
about the true future die rolls and shuffles. Cards the public history has seen go into a pile
that was then shuffled (a reshuffled discard) count as unknown again: the sample does not
track which unknown places they may have reached since.
"""

from __future__ import annotations

from math import comb, perm

from club_agentes.engine.core import Rng
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_IND,
    CARD_TYPE,
    IS_GREEN,
    N_INDUSTRIES,
    RETURN,
    STOCK,
)
from club_agentes.engine.market_fortune.knowledge import visibility
from club_agentes.engine.market_fortune.state import State


def below(rng: Rng, n: int) -> int:
    """Return a uniform integer in ``[0, n)`` for any positive ``n`` (several 64-bit draws when ``n`` is large).

    Raises:
        ValueError: ``n`` is not positive.
    """
    if n <= 0:
        raise ValueError(f"below() needs a positive bound, got {n}")
    if n <= 1 << 62:
        return rng.below(n)
    words = (n.bit_length() + 63) // 64
    top = 1 << (64 * words)
    limit = top - top % n
    while True:
        x = 0
        for _ in range(words):
            x = (x << 64) | rng.next64()
        if x < limit:
            return x % n


def _sample(rng: Rng, pool: list[int], k: int) -> list[int]:
    """Draw ``k`` distinct cards of ``pool`` in order, uniformly (removing them from ``pool``)."""
    return [pool.pop(rng.below(len(pool))) for _ in range(k)]


def _ways(a: list[int], b: list[int], k: int) -> list[list[int]]:
    """Return ``f`` with ``f[i][r]`` the ways to fill ``r`` labelled pair places with industries ``i``.. (cards
    chosen in order), given ``a[i]`` $ cards and ``b[i]`` +R cards of each industry."""
    f = [[0] * (k + 1) for _ in range(N_INDUSTRIES + 1)]
    f[N_INDUSTRIES][0] = 1
    for i in range(N_INDUSTRIES - 1, -1, -1):
        for r in range(k + 1):
            f[i][r] = sum(
                comb(r, m) * perm(a[i], m) * perm(b[i], m) * f[i + 1][r - m] for m in range(min(r, a[i], b[i]) + 1)
            )
    return f


def _weighted(rng: Rng, weights: list[int]) -> int:
    """Return an index of ``weights`` drawn with probability proportional to its weight."""
    x = below(rng, sum(weights))
    m = 0
    while x >= weights[m]:
        x -= weights[m]
        m += 1
    return m


def _pairs(rng: Rng, stocks: list[int], returns: list[int], k: int) -> list[tuple[int, int]]:
    """Draw ``k`` ordered one-industry ($, +R) pairs from the pools, uniformly among all such tuples.

    The chosen cards are removed from ``stocks`` and ``returns``.
    """
    by_ind_a: list[list[int]] = [[] for _ in range(N_INDUSTRIES)]
    by_ind_b: list[list[int]] = [[] for _ in range(N_INDUSTRIES)]
    for c in stocks:
        by_ind_a[CARD_IND[c]].append(c)
    for c in returns:
        by_ind_b[CARD_IND[c]].append(c)
    a = [len(x) for x in by_ind_a]
    b = [len(x) for x in by_ind_b]
    f = _ways(a, b, k)
    if f[0][k] == 0:
        raise ValueError("no arrangement of the unknown cards forms the face-down investments")
    places = list(range(k))
    out: list[tuple[int, int] | None] = [None] * k
    r = k
    for i in range(N_INDUSTRIES):
        if r == 0:
            break
        weights = [comb(r, m) * perm(a[i], m) * perm(b[i], m) * f[i + 1][r - m] for m in range(min(r, a[i], b[i]) + 1)]
        m = _weighted(rng, weights)
        if m:
            chosen = _sample(rng, places, m)
            sa = _sample(rng, by_ind_a[i], m)
            sb = _sample(rng, by_ind_b[i], m)
            for p, x_a, x_b in zip(chosen, sa, sb, strict=True):
                out[p] = (x_a, x_b)
            r -= m
    used_a = {p[0] for p in out if p is not None}
    used_b = {p[1] for p in out if p is not None}
    stocks[:] = [c for c in stocks if c not in used_a]
    returns[:] = [c for c in returns if c not in used_b]
    return [p for p in out if p is not None]


class _Places:
    """The places of the cards a seat does not know, in an order that depends only on what it knows: the card now
    at each place, by kind (loose places, one-industry pairs of face-down investments, their greens), and the
    knowledge mask the new card takes there."""

    def __init__(self) -> None:
        self.loose: dict[int, list[int]] = {STOCK: [], RETURN: [], 2: []}
        self.masks: dict[int, int] = {}
        self.pairs: list[tuple[int, int]] = []
        self.greens: list[int] = []

    def add(self, c: int, mask: int) -> None:
        """Add the loose place of card ``c`` (a deck, a discard pile, a hand or a strategy hand)."""
        self.loose[CARD_TYPE[c]].append(c)
        self.masks[c] = mask


def _rival_places(state: State, s: int, unknown: set[int], places: _Places) -> None:
    """Add the places of seat ``s``'s unknown cards: hand, strategies, face-down investments and their greens."""
    owner = 1 << s
    for c in state.hands[s]:
        if c in unknown:
            places.add(c, owner)
    # The strategy Momentum or Dominar gave it this turn is a place of its own (the table saw it
    # join the hand); the others are interchangeable.
    marked = [c for c in (state.momentum, state.drawn) if c >= 0 and c in state.strats[s] and c in unknown]
    for c in dict.fromkeys(marked):
        places.add(c, owner)
    for c in state.strats[s]:
        if c in unknown and c not in marked:
            places.add(c, owner)
    for inv in state.invs[s]:
        if inv.stock in unknown:
            places.pairs.append((inv.stock, inv.ret))
            places.masks[inv.stock] = places.masks[inv.ret] = owner
            if inv.green >= 0:
                places.greens.append(inv.green)
                places.masks[inv.green] = owner


def _deal(rng: Rng, unknown: set[int], places: _Places) -> dict[int, int]:
    """Deal the unknown cards to their places anew: return each place's card -> the card dealt there.

    Raises:
        ValueError: the unknown cards do not fit the places.
    """
    # The pools: every unknown card of each kind, in card order (never in the order of their places).
    stocks = sorted(c for c in unknown if CARD_TYPE[c] == STOCK)
    returns = sorted(c for c in unknown if CARD_TYPE[c] == RETURN)
    strategies = sorted(c for c in unknown if CARD_TYPE[c] == 2)
    mapping: dict[int, int] = {}
    pairs = _pairs(rng, stocks, returns, len(places.pairs))
    for (old_a, old_b), (new_a, new_b) in zip(places.pairs, pairs, strict=True):
        mapping[old_a] = new_a
        mapping[old_b] = new_b
    greens = [c for c in strategies if IS_GREEN[c]]
    for old, new in zip(places.greens, _sample(rng, greens, len(places.greens)), strict=True):
        mapping[old] = new
    taken = set(mapping.values())
    for kind, pool in ((STOCK, stocks), (RETURN, returns), (2, [c for c in strategies if c not in taken])):
        rng.shuffle(pool)
        if len(pool) != len(places.loose[kind]):
            raise ValueError("the unknown cards do not fit the unknown places")
        mapping.update(zip(places.loose[kind], pool, strict=True))
    return mapping


def determinize(state: State, seat: int, rng: Rng) -> State:
    """Return a copy of ``state`` whose cards unknown to ``seat`` are dealt anew (see the module docstring).

    Raises:
        ValueError: the state is inconsistent (its face-down investments cannot be formed from the unknown cards).
    """
    vis = visibility(state)
    knows = vis.knows
    unknown: set[int] = {c for c in range(len(CARD_ID)) if not knows(seat, CARD_ID[c])}
    places = _Places()
    for deck in state.decks:
        for c in deck:
            if c in unknown:
                places.add(c, 0)
    for pile in state.discards[:2]:
        for c in pile:
            if c in unknown:  # face down; who put it there is public
                places.add(c, state.know[c])
    for s in range(state.n):
        if s != seat:
            _rival_places(state, s, unknown, places)
    mapping = _deal(rng, unknown, places)
    masks = places.masks
    return _apply(state, mapping, masks, rng)


def _apply(state: State, mapping: dict[int, int], masks: dict[int, int], rng: Rng) -> State:
    """Return a copy of ``state`` with every card ``c`` replaced by ``mapping.get(c, c)`` (hands re-sorted).

    A card dealt anew takes the knowledge mask of its place (``masks``, by the card it replaces).
    """
    w = state.clone()

    def m(c: int) -> int:
        return mapping.get(c, c) if c >= 0 else c

    w.decks = [[m(c) for c in d] for d in state.decks]
    w.discards = [[m(c) for c in d] for d in state.discards]
    w.hands = [sorted(m(c) for c in h) for h in state.hands]
    w.strats = [sorted(m(c) for c in s) for s in state.strats]
    for invs in w.invs:
        for inv in invs:
            inv.stock, inv.ret, inv.green = m(inv.stock), m(inv.ret), m(inv.green)
    know = list(state.know)
    seen = list(state.seen)
    facedown = list(state.facedown)
    for old, new in mapping.items():
        know[new] = seen[new] = masks[old]
        facedown[new] = state.facedown[old]
    w.know = know
    w.seen = seen
    w.facedown = facedown
    w.momentum = m(state.momentum)
    w.drawn = m(state.drawn)
    w.trim_by = m(state.trim_by)
    w.trim_down = [m(c) for c in state.trim_down]
    w.rng = Rng(rng.next64())
    return w
