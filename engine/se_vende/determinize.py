"""Sampled worlds of Se Vende: a full state a seat cannot tell from the true one (for ``bot:mcts``).

The cards a seat cannot see, by :func:`.knowledge.visibility`, are dealt anew into the places they
occupy; the sealed choices of the other seats are drawn among their options.
"""

from __future__ import annotations

from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.actions import ACTION_CODES
from club_agentes.engine.se_vende.knowledge import visibility
from club_agentes.engine.se_vende.moves import Place
from club_agentes.engine.se_vende.state import DEVELOP_PLACE, NO_CARD, SELECT, SETTLE_PLACE, State
from club_agentes.engine.se_vende.steps.place import check_place
from club_agentes.engine.se_vende.table import IDS, INDEX


def _canonical_discard(state: State, seat: int) -> None:
    """Order the discard pile (it is unordered: "se mantiene desordenado") by who knows each card.

    First the cards ``seat`` knows, then those other seats know (by seat), then the rest; each group
    by id. The order then depends only on what ``seat`` knows and on public counts.
    """
    known = state.known

    def key(c: int) -> tuple[int, int]:
        who = known.get(c)
        group = 0 if who == seat else (1 + who if who is not None else state.n + 1)
        return group, c

    state.discard.sort(key=key)


def determinize(state: State, seat: int, rng: Rng) -> State:
    """Return a full state consistent with what ``seat`` knows, its hidden parts drawn anew.

    The cards ``seat`` cannot see (other hands and their cards drawn while exploring, the supply
    and its order, the discards it did not make, every good) are dealt uniformly at random into
    the same places; each other seat keeps knowing as many discards as it does now. A sealed
    action card of another seat is drawn uniformly among the seven; a sealed placement among the
    placements its (new) hand allows. The game's own random stream is drawn anew too. The result
    depends only on ``seat``'s knowledge, never on how the hidden parts are really arranged.

    A seat's memory is taken as the rules' information: after the discard pile is shuffled into
    the supply, nobody is taken to know where those cards went.
    """
    w = state.clone()
    _canonical_discard(w, seat)
    vis = visibility(w, actions=False)
    slots, cards = vis.unknown_slots(seat)
    pool = [INDEX[c] for c in cards]
    rng.shuffle(pool)
    nxt = iter(pool).__next__
    old_known = w.known
    known = {c: k for c, k in old_known.items() if k == seat}
    for zone, where in slots.items():
        if zone == "supply":
            for i in where:
                w.supply[i] = nxt()
        elif zone == "discard":
            for i in where:
                knower = old_known.get(w.discard[i])
                w.discard[i] = c = nxt()
                if knower is not None:
                    known[c] = knower
        elif zone.startswith("hand/"):
            hand = w.hands[int(zone[5:])]
            for i in where:
                hand[i] = nxt()
        elif zone.startswith("drawn/"):
            drawn = w.drawn[int(zone[6:])]
            for i in where:
                drawn[i] = nxt()
        elif zone.startswith("good/"):
            w.goods[INDEX[zone[5:]]] = nxt()
        else:  # pragma: no cover - every hidden zone is listed above
            raise AssertionError(f"no rule to redeal zone {zone!r}")
    w.known = known
    _redraw_sealed(w, seat, rng)
    w.rng = Rng(rng.next64())
    return w


def _redraw_sealed(w: State, seat: int, rng: Rng) -> None:
    """Draw anew the sealed choices of the other seats (action cards, placements)."""
    if w.step == SELECT:
        done = w.actions.done
        fresh = type(w.actions)(w.actions.seats)
        for x in done:
            own = w.actions.own(x)
            if x != seat or own is None:
                own = ACTION_CODES[rng.below(len(ACTION_CODES))]
            fresh.submit(x, own)
        w.actions = fresh
    elif w.step in (DEVELOP_PLACE, SETTLE_PLACE):
        fresh_p = type(w.placing)(w.placing.seats)
        for x in w.placing.done:
            if x == seat:
                placed = w.placing.own(x)
                fresh_p.submit(x, NO_CARD if placed is None else placed)
                continue
            options = [c for c in w.hands[x] if check_place(w, x, Place(IDS[c])) is None]
            options.append(NO_CARD)
            fresh_p.submit(x, options[rng.below(len(options))])
        w.placing = fresh_p
