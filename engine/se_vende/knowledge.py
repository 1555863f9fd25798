"""Who knows each card of a Se Vende game (se-vende/rulings/informacion-publica), and sampled worlds.

:func:`visibility` describes every card's zone: the supply and the discard pile (face down:
nobody), each hand and each seat's cards drawn while exploring (their seat), each tableau
(public), each good (face down on its world: nobody, "ni siquiera su dueño"; that the world holds
one is public), and this round's action cards (their seat until the reveal, then public; ids
``SV-R007-S2-E5``). A seat also knows the cards it put face down on the discard pile itself, until
that pile is shuffled into the supply. Views build their card lists from it and ``hidden_ids``
derives from it.

:func:`determinize` samples a full state that a seat cannot tell from the true one.
"""

from __future__ import annotations

from functools import lru_cache

from club_agentes.engine.core import Rng
from club_agentes.engine.core.visibility import NOBODY, PUBLIC, Visibility, Zone, seats
from club_agentes.engine.se_vende.actions import ACTION_CODES, action_token
from club_agentes.engine.se_vende.common import IDS, INDEX
from club_agentes.engine.se_vende.moves import Place
from club_agentes.engine.se_vende.state import DEVELOP_PLACE, NO_CARD, SELECT, SETTLE_PLACE, SeVendeState
from club_agentes.engine.se_vende.steps.place import check_place

_SEATS = tuple(seats(i) for i in range(4))
_ZONES = tuple((f"hand/{i}", f"drawn/{i}", f"tableau/{i}", f"action/{i}/chosen", f"action/{i}/held") for i in range(4))
_GOOD_ZONES = tuple(f"good/{cid}" for cid in IDS)


@lru_cache(maxsize=1024)
def _action_zones(round_no: int, seat: int, code: str | None, sealed: bool) -> tuple[Zone, Zone]:
    """Return the zones of ``seat``'s action cards of round ``round_no``: the one chosen and the others.

    Zones are immutable values, so these are built once per round, seat and choice.
    """
    tokens = {c: action_token(round_no, seat, c) for c in ACTION_CODES}
    chosen = () if code is None else (tokens[code],)
    held = tuple(t for c, t in tokens.items() if c != code)
    who = _SEATS[seat] if sealed else PUBLIC
    names = _ZONES[seat]
    return (
        Zone(names[3], chosen, who, count_public=not sealed),
        Zone(names[4], held, who, count_public=not sealed),
    )


_GOOD_ZONE_CACHE: dict[tuple[int, int], Zone] = {}


def _good(world: int, good: int) -> Zone:
    """Return the zone of ``good`` lying face down on ``world`` (built once per pair)."""
    zone = _GOOD_ZONE_CACHE.get((world, good))
    if zone is None:
        zone = _GOOD_ZONE_CACHE[world, good] = Zone(_GOOD_ZONES[world], (IDS[good],), NOBODY)
    return zone


def good_zone(world: int) -> str:
    """Return the name of the zone of the good lying on ``world`` (e.g. ``good/SV-C040``)."""
    return _GOOD_ZONES[world]


def visibility(s: SeVendeState, *, actions: bool = True, piles: bool = True) -> Visibility:
    """Return the knowledge of this moment: every card's zone, plus the discards their seats remember.

    Zones: ``supply``, ``discard``, ``hand/<seat>``, ``drawn/<seat>`` (while the seat holds cards
    drawn exploring), ``tableau/<seat>``, ``good/<world id>`` and (with ``actions``)
    ``action/<seat>/chosen`` and ``action/<seat>/held``.
    ``piles=False`` leaves out the supply and the discard pile (face down: views show only their
    sizes), which makes it cheaper for views.
    """
    card_id = IDS.__getitem__
    zones = []
    if piles:
        zones.append(Zone("supply", list(map(card_id, s.supply)), NOBODY))
        zones.append(Zone("discard", list(map(card_id, s.discard)), NOBODY))
    for i in range(s.n):
        mine = _SEATS[i]
        names = _ZONES[i]
        zones.append(Zone(names[0], list(map(card_id, s.hands[i])), mine))
        if s.drawn[i]:  # cards drawn while exploring, held only during Explorar
            zones.append(Zone(names[1], list(map(card_id, s.drawn[i])), mine))
        zones.append(Zone(names[2], list(map(card_id, s.tableau[i])), PUBLIC))
    goods = s.goods
    for w in sorted(goods):
        zones.append(_good(w, goods[w]))
    if actions and s.round > 0:
        sealed = s.step == SELECT
        chosen_now = s.chosen or {}
        for i in range(s.n):
            code = s.actions.own(i) if sealed else chosen_now.get(i)
            zones.extend(_action_zones(s.round, i, code, sealed))
    known = {IDS[c]: (seat,) for c, seat in s.known.items()} if piles else None  # discards only
    return Visibility.of(zones, known)


def _canonical_discard(s: SeVendeState, seat: int) -> None:
    """Order the discard pile (it is unordered: "se mantiene desordenado") by who knows each card.

    First the cards ``seat`` knows, then those other seats know (by seat), then the rest; each group
    by id. The order then depends only on what ``seat`` knows and on public counts.
    """
    known = s.known

    def key(c: int) -> tuple[int, int]:
        who = known.get(c)
        group = 0 if who == seat else (1 + who if who is not None else s.n + 1)
        return group, c

    s.discard.sort(key=key)


def determinize(s: SeVendeState, seat: int, rng: Rng) -> SeVendeState:
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
    w = s.clone()
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


def _redraw_sealed(w: SeVendeState, seat: int, rng: Rng) -> None:
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
