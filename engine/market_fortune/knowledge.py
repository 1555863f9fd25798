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


def hand_zones(state: State, seat: int) -> tuple[list[int], list[int]]:
    """Return a seat's hand split into (cards only some know, cards everyone knows)."""
    pub = state.public_bit
    know = state.know
    private: list[int] = []
    public: list[int] = []
    for c in state.hands[seat]:
        (public if know[c] & pub else private).append(c)
    return private, public


def strategy_zones(state: State, seat: int) -> tuple[list[int], list[int]]:
    """Return a seat's strategies split into (cards only some know, cards everyone knows)."""
    pub = state.public_bit
    know = state.know
    private: list[int] = []
    public: list[int] = []
    for c in state.strats[seat]:
        (public if know[c] & pub else private).append(c)
    return private, public


def visibility(state: State) -> Visibility:
    """Return who knows each card of the table now (see the module docstring for the zones), worked out once per
    state version and shared by every seat's view (core :func:`.steps.kept`): callers read it and change nothing."""
    return kept(state, _visibility)


def _visibility(state: State) -> Visibility:
    """Return who knows each card of the table now."""
    n = state.n
    know = state.know
    zones: list[Zone] = [
        Zone("deck/stock", _ids(state.decks[0]), NOBODY),
        Zone("deck/return", _ids(state.decks[1]), NOBODY),
        Zone("deck/strategy", _ids(state.decks[2]), NOBODY),
    ]
    known: dict[str, frozenset[int]] = {}

    def note(cards: list[int]) -> None:
        for c in cards:
            mask = know[c] & ~state.public_bit
            if mask:
                known[CARD_ID[c]] = _seats_of(mask, n)

    for pile, name in ((0, "stock"), (1, "return")):
        up = [c for c in state.discards[pile] if not state.facedown[c]]
        down = [c for c in state.discards[pile] if state.facedown[c]]
        zones.append(Zone(f"discard/{name}", _ids(up), PUBLIC))
        zones.append(Zone(f"discard/{name}/face-down", _ids(down), NOBODY))
        note(down)
    zones.append(Zone("discard/strategy", _ids(state.discards[2]), PUBLIC))
    zones.append(Zone("attack", _ids([state.attack.card]) if state.attack is not None else [], PUBLIC))
    for s in range(n):
        hand, public_hand, strats, public_strats = zone_names(s)
        only = seats(s)
        private, public = hand_zones(state, s)
        zones.append(Zone(hand, _ids(private), only))
        zones.append(Zone(public_hand, _ids(public), PUBLIC))
        note(private)
        private, public = strategy_zones(state, s)
        zones.append(Zone(strats, _ids(private), only))
        zones.append(Zone(public_strats, _ids(public), PUBLIC))
        note(private)
        for k, inv in enumerate(state.invs[s]):
            zones.append(Zone(_investment_name(s, k), _ids(inv.cards()), PUBLIC if inv.face_up else only))
    return Visibility.of(zones, known)


@cache
def zone_names(seat: int) -> tuple[str, str, str, str]:
    """Return the names of a seat's zones of cards in hand: its hand, its hand's public part, its strategies and
    their public part (``hand/<s>``, ``hand/<s>/public``, ``strategies/<s>``, ``strategies/<s>/public``)."""
    return f"hand/{seat}", f"hand/{seat}/public", f"strategies/{seat}", f"strategies/{seat}/public"


@cache
def _investment_name(seat: int, k: int) -> str:
    return f"investment/{seat}/{k}"


_ID = CARD_ID.__getitem__


def _ids(cards: list[int]) -> list[str]:
    return list(map(_ID, cards))


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
