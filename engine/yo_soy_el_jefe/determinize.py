"""Determinization: a full state drawn consistently with what one seat knows (for search bots).

What a seat does not know is where the unseen influence cards are: in the other seats' hands (except the
family cards every seat saw taken back after a deal) and in the deck, in some order. What it does know
narrows this down by *epoch*: the first shuffle is epoch 0, and each reshuffle of the discards starts a new
epoch whose cards were all face up (ruling ``mazo-agotado``). A card drawn from the deck of an epoch is one
of that epoch's cards, and every seat saw when each draw happened. So the unseen cards of each epoch are
dealt anew, uniformly, among the unseen places of that epoch: the other hands' cards drawn in it and, for
the current epoch, the deck. Nothing else is hidden in Yo soy el jefe (there are no sealed choices), and the
future die rolls and shuffles come from a new random stream.
"""

from __future__ import annotations

from club_agentes.engine.core import Rng
from club_agentes.engine.yo_soy_el_jefe.state import CARD_SLOT, NSLOTS, State


def determinize(state: State, seat: int, rng: Rng) -> State:
    """Return a copy of ``state`` whose cards unknown to ``seat`` are dealt anew, consistently with its view.

    The result depends only on what ``seat`` knows and on ``rng``, never on where the unseen cards really are.
    """
    world = state.copy()
    known = state.known
    epoch = state.card_epoch
    # Unseen places, in a canonical order: each other hand by epoch, then the deck.
    pools: dict[int, list[int]] = {}
    places: list[tuple[int, int]] = []  # (seat, epoch), seat -1 for the deck
    for s in range(state.n):
        if s == seat:
            continue
        unseen = sorted(epoch[c] for c in state.hands[s] if c not in known)
        for c in state.hands[s]:
            if c not in known:
                pools.setdefault(epoch[c], []).append(c)
        places += [(s, e) for e in unseen]
        world.hands[s] = [c for c in state.hands[s] if c in known]
    for c in state.deck:
        pools.setdefault(state.epoch, []).append(c)
    places += [(-1, state.epoch)] * len(state.deck)
    for cards in pools.values():
        cards.sort()
        rng.shuffle(cards)
    deck: list[int] = []
    for s, e in places:
        card = pools[e].pop()
        if s < 0:
            deck.append(card)
        else:
            world.hands[s].append(card)
            world.card_epoch[card] = e
    world.deck = deck
    for s in range(state.n):
        world.hands[s].sort()
        counts = [0] * NSLOTS
        for c in world.hands[s]:
            counts[CARD_SLOT[c]] += 1
        world.counts[s] = counts
    world.rng = Rng(rng.next64())
    world.memo = None
    return world
