"""Who knows each card of a Se Vende game (se-vende/rulings/informacion-publica).

:func:`visibility` describes every card's zone: the supply and the discard pile (face down:
nobody), each hand and each seat's cards drawn while exploring (their seat), each tableau
(public), each good (face down on its world: nobody, "ni siquiera su dueño"; that the world holds
one is public), and this round's action cards (their seat until the reveal, then public; ids
``SV-R007-S2-E5``). A seat also knows the cards it put face down on the discard pile itself, until
that pile is shuffled into the supply. Views build their card lists from it and ``hidden_ids``
derives from it, and so does determinization (:mod:`.determinize`).
"""

from __future__ import annotations

from functools import lru_cache

from club_agentes.engine.core.visibility import NOBODY, PUBLIC, Visibility, Zone, seats
from club_agentes.engine.se_vende.actions import ACTION_CODES, action_token
from club_agentes.engine.se_vende.state import SELECT, State
from club_agentes.engine.se_vende.table import IDS

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


def visibility(state: State, *, actions: bool = True, piles: bool = True) -> Visibility:
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
        zones.append(Zone("supply", list(map(card_id, state.supply)), NOBODY))
        zones.append(Zone("discard", list(map(card_id, state.discard)), NOBODY))
    for i in range(state.n):
        mine = _SEATS[i]
        names = _ZONES[i]
        zones.append(Zone(names[0], list(map(card_id, state.hands[i])), mine))
        if state.drawn[i]:  # cards drawn while exploring, held only during Explorar
            zones.append(Zone(names[1], list(map(card_id, state.drawn[i])), mine))
        zones.append(Zone(names[2], list(map(card_id, state.tableau[i])), PUBLIC))
    goods = state.goods
    for w in sorted(goods):
        zones.append(_good(w, goods[w]))
    if actions and state.round > 0:
        sealed = state.step == SELECT
        chosen_now = state.chosen or {}
        for i in range(state.n):
            code = state.actions.own(i) if sealed else chosen_now.get(i)
            zones.extend(_action_zones(state.round, i, code, sealed))
    known = {IDS[c]: (seat,) for c, seat in state.known.items()} if piles else None  # discards only
    return Visibility.of(zones, known)
