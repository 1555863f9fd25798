"""Market Fortune's one visibility rule: every card's zone and who knows it (:func:`visibility`).

Zones (``Zone.cards`` in pile order, top last; hands and strategies sorted):

* ``deck/stock``, ``deck/return``, ``deck/strategy``: nobody sees them; their sizes are public.
* ``discard/stock``, ``discard/return``: the face-up cards of each building discard pile (public);
  ``discard/stock/face-down``, ``discard/return/face-down``: the cards a strategy discarded face
  down in Campeonato (nobody sees them; the seat whose card it was knows it).
* ``discard/strategy``: the strategy discard pile (public, face up).
* ``attack``: the red card of an attack being resolved (public).
* ``hand/<s>``: seat ``s``'s building cards that not everyone knows (seen by ``s``);
  ``hand/<s>/public``: those everyone knows (taken face up from a discard pile, or back from a
  face-up investment).
* ``strategies/<s>``, ``strategies/<s>/public``: the same for its strategies (revealed yellows,
  the green of a face-up investment taken back).
* ``investment/<s>/<k>``: its $, its +R and its green if any; public once face up, else seen by ``s``.

Extra knowledge (``Visibility.known``): the seats that know a card of a hidden zone (a card
Robo or Negociación showed to both sides, a face-down discard known to its owner), from the
state's ``know`` masks. The view builds every card list through this, ``hidden_ids`` is
derived from it, and determinization (:mod:`.determinize`) resamples what it hides.
"""

from __future__ import annotations

from functools import cache

from club_agentes.engine.core.steps import kept
from club_agentes.engine.core.visibility import NOBODY, PUBLIC, Visibility, Zone, seats
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX
from club_agentes.engine.market_fortune.state import State


@cache
def _seats_of(mask: int, n: int) -> frozenset[int]:
    return frozenset(s for s in range(n) if mask >> s & 1)


def visibility(state: State) -> Visibility:
    """Return who knows each card of the table now (see the module docstring for the zones), worked out once per
    state version and shared by every seat's view (core :func:`.steps.kept`): callers read it and change nothing."""
    return kept(state, _visibility)


_DISCARD_ZONES = (("discard/stock", "discard/stock/face-down"), ("discard/return", "discard/return/face-down"))


def _visibility(state: State) -> Visibility:
    """Return who knows each card of the table now.

    Worked out for every new state a seat reads, so written for speed: one pass over each pile and hand, and
    zones built as the tuples they are (:func:`_zone`).
    """
    n = state.n
    know = state.know
    public_bit = state.public_bit  # set in a card's knowledge mask when everyone knows it
    hidden = ~public_bit  # the seats' bits of a knowledge mask
    facedown = state.facedown
    decks, discards = state.decks, state.discards
    zones: list[Zone] = [
        _zone("deck/stock", decks[0], NOBODY),
        _zone("deck/return", decks[1], NOBODY),
        _zone("deck/strategy", decks[2], NOBODY),
    ]
    known: dict[str, frozenset[int]] = {}
    is_down = facedown.__getitem__
    for pile in (0, 1):
        cards = discards[pile]
        up: list[int] = cards
        down: list[int] = []
        if any(map(is_down, cards)):  # face-down cards (Campeonato only): sorted out one by one
            up = []
            for c in cards:
                (down if facedown[c] else up).append(c)
        face_up, face_down = _DISCARD_ZONES[pile]
        zones.append(_zone(face_up, up, PUBLIC))
        zones.append(_zone(face_down, down, NOBODY))
        for c in down:  # a face-down discard: known to the seat whose card it was
            mask = know[c] & hidden
            if mask:
                known[CARD_ID[c]] = _seats_of(mask, n)
    zones.append(_zone("discard/strategy", discards[2], PUBLIC))
    zones.append(_zone("attack", [state.attack.card] if state.attack is not None else [], PUBLIC))
    for s in range(n):
        hand, public_hand, strats, public_strats = zone_names(s)
        only = _only(s)
        held = ((state.hands[s], hand, public_hand), (state.strats[s], strats, public_strats))
        for cards, private_zone, public_zone in held:
            private: list[int] = []
            public: list[int] = []
            for c in cards:  # the cards everyone knows, and those only some seats know (which ones: ``known``)
                mask = know[c]
                if mask & public_bit:
                    public.append(c)
                else:
                    private.append(c)
                    if mask & hidden:
                        known[CARD_ID[c]] = _seats_of(mask & hidden, n)
            zones.append(_zone(private_zone, private, only))
            zones.append(_zone(public_zone, public, PUBLIC))
        for k, inv in enumerate(state.invs[s]):
            zones.append(_zone(_investment_name(s, k), inv.cards(), PUBLIC if inv.face_up else only))
    return Visibility.of(zones, known)


_ID = CARD_ID.__getitem__
_tuple_new = tuple.__new__


def _zone(name: str, cards: list[int], seen_by: frozenset[int] | None) -> Zone:
    """Return ``Zone(name, <the cards' ids>, seen_by)``, built as the tuple it is (a named tuple's own
    ``__new__`` is a Python call that fills in the defaults)."""
    return _tuple_new(Zone, (name, list(map(_ID, cards)), seen_by, True))


@cache
def _only(seat: int) -> frozenset[int]:
    """``Zone.seen_by`` of the zones only ``seat`` sees (:func:`~club_agentes.engine.core.visibility.seats`)."""
    return seats(seat)


@cache
def zone_names(seat: int) -> tuple[str, str, str, str]:
    """Return the names of a seat's zones of cards in hand: its hand, its hand's public part, its strategies and
    their public part (``hand/<s>``, ``hand/<s>/public``, ``strategies/<s>``, ``strategies/<s>/public``)."""
    return f"hand/{seat}", f"hand/{seat}/public", f"strategies/{seat}", f"strategies/{seat}/public"


@cache
def _investment_name(seat: int, k: int) -> str:
    return f"investment/{seat}/{k}"


def hidden_ids(state: State, vis: Visibility, seat: int | None) -> frozenset[str]:
    """Return the cards ``seat`` may not be shown: hidden by :meth:`Visibility.hidden_ids` and never shown to it.

    A card once shown to a seat (in a view or an event) stays in its log: naming it again
    reveals nothing, even where the seat can no longer tell where it is now.
    """
    bit = state.public_bit if seat is None else 1 << seat
    seen = state.seen
    out: list[str] = []
    known = vis.known
    for z in vis.zones.values():
        if z.seen(seat):
            continue
        for c in z.cards:
            if (seat is None or seat not in known.get(c, ())) and not seen[CARD_INDEX[c]] & bit:
                out.append(c)
    return frozenset(out)
