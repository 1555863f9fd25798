"""One visibility rule: who knows each card, from which every view and every leak test is built.

A game describes where its cards are as :class:`Zone` values (a hand, a deck, a discard pile, a
face-down investment...), each saying which seats see its cards (``PUBLIC``, nobody, or some
seats), plus the cards some seats know although their zone hides them (a card shown to one
rival, a card its owner revealed). :class:`Visibility` answers, for any seat (``None`` is a
spectator): does this seat know this card (:meth:`Visibility.knows`), what of this zone may it
see (:meth:`Visibility.show`), and which cards are hidden from it (:meth:`Visibility.hidden_ids`).

A game's ``view`` builds every card list through :meth:`Visibility.show` (or
:meth:`Visibility.card`), and its ``hidden_ids`` is :meth:`Visibility.hidden_ids`: the view and
the leak tests then read the same knowledge and cannot disagree. :meth:`Visibility.unknown_slots`
gives determinization (sampling a world consistent with a seat's view) the places whose cards the
seat does not know, and the multiset of cards that may fill them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple

PUBLIC: frozenset[int] | None = None
"""``Zone.seen_by`` for a zone every seat and spectator sees."""

NOBODY: frozenset[int] = frozenset()
"""``Zone.seen_by`` for a zone nobody sees (a deck, a face-down pile)."""


def seats(*seat: int) -> frozenset[int]:
    """Return ``Zone.seen_by`` for a zone only the given seats see (e.g. a hand: ``seats(2)``)."""
    return frozenset(seat)


class Zone(NamedTuple):
    """Where some cards are, in order, and who sees them (a named tuple: views build many, cheaply).

    Attributes:
        name: a stable name, e.g. ``"hand/2"``, ``"deck/stock"``, ``"investment/1/0"``.
        cards: the card ids in the zone, in their order (top of a pile last, unless the game says).
        seen_by: ``PUBLIC`` (``None``), ``NOBODY`` or the seats that see these cards.
        count_public: whether every seat may know how many cards the zone holds (a hand's size,
            a deck's size); ``False`` for a zone whose size is itself secret.
    """

    name: str
    cards: Sequence[str]
    seen_by: frozenset[int] | None = NOBODY
    count_public: bool = True

    def seen(self, seat: int | None) -> bool:
        """Return whether ``seat`` (``None``: a spectator) sees this zone's cards."""
        return self.seen_by is None or (seat is not None and seat in self.seen_by)


def _clash(zones: Iterable[Zone]) -> None:
    """Raise the ValueError naming the first card of ``zones`` (in order) that is in two of them (or twice in one).

    Raises:
        ValueError: always, for zones that hold a card twice.
    """
    where: dict[str, str] = {}
    for z in zones:
        for c in z.cards:
            if c in where:
                raise ValueError(f"card {c!r} is in zones {where[c]!r} and {z.name!r}")
            where[c] = z.name
    raise AssertionError("no card is given twice")  # pragma: no cover (called only when one is)


@dataclass(frozen=True, slots=True)
class Hidden:
    """What a seat may see of a zone it cannot look into: how many cards it holds (or nothing)."""

    count: int | None

    def to_json(self) -> dict[str, int | None]:
        """Return ``{"hidden": count}``."""
        return {"hidden": self.count}


@dataclass
class Visibility:
    """The knowledge of one moment of a game: its zones and the cards some seats know besides.

    Attributes:
        zones: every zone of the game, by name.
        known: card id -> seats that know it although its zone hides it from them.
    """

    zones: dict[str, Zone] = field(default_factory=dict)
    known: dict[str, frozenset[int]] = field(default_factory=dict)
    _where: dict[str, str] | None = field(default=None, repr=False, compare=False)
    """Card id -> the name of its zone, built on first use (:meth:`where`): a view reads zones by name and
    needs no card's zone, so a view of every move does not pay for it."""

    @classmethod
    def of(cls, zones: Iterable[Zone], known: Mapping[str, Iterable[int]] | None = None) -> Visibility:
        """Build the knowledge from zones and extra knowledge.

        Raises:
            ValueError: two zones share a name, or a card is in two zones.
        """
        listed = zones if isinstance(zones, list) else list(zones)
        by_name = {z.name: z for z in listed}
        if len(by_name) != len(listed):  # a name given twice: find the first, to name it
            named: set[str] = set()
            for z in listed:
                if z.name in named:
                    raise ValueError(f"zone {z.name!r} is given twice")
                named.add(z.name)
        counted = 0
        for z in listed:
            counted += len(z.cards)
        if len(set(chain.from_iterable([z.cards for z in listed]))) != counted:  # a card given twice: name it
            _clash(listed)
        return cls(by_name, {card: frozenset(who) for card, who in known.items()} if known else {})

    def where(self) -> dict[str, str]:
        """Return card id -> the name of the zone holding it (built once, on first use). Raises nothing."""
        where = self._where
        if where is None:
            where = self._where = {c: name for name, z in self.zones.items() for c in z.cards}
        return where

    def zone_of(self, card: str) -> Zone:
        """Return the zone holding ``card``.

        Raises:
            KeyError: the card is in no zone.
        """
        return self.zones[self.where()[card]]

    def knows(self, seat: int | None, card: str) -> bool:
        """Return whether ``seat`` (``None``: a spectator) knows where ``card`` is and what it is."""
        zone = self.zones.get(self.where().get(card, ""))
        if zone is not None and zone.seen(seat):
            return True
        return seat is not None and seat in self.known.get(card, ())

    def card(self, seat: int | None, card: str) -> str | None:
        """Return ``card`` if ``seat`` knows it, else ``None`` (a face-down card)."""
        return card if self.knows(seat, card) else None

    def show(self, seat: int | None, zone: str) -> list[str] | Hidden:
        """Return what ``seat`` may see of a zone.

        The card ids when it sees the zone; otherwise :class:`Hidden` with the card count (or
        ``None`` when the count is secret). Cards of a hidden zone that the seat knows
        individually are shown by :meth:`known_in`.

        Raises:
            KeyError: no such zone.
        """
        z = self.zones[zone]
        if z.seen(seat):
            return list(z.cards)
        return Hidden(len(z.cards) if z.count_public else None)

    def known_in(self, seat: int | None, zone: str) -> list[str]:
        """Return the cards of a zone that ``seat`` knows (all of them if it sees the zone).

        Raises:
            KeyError: no such zone.
        """
        z = self.zones[zone]
        if z.seen(seat):
            return list(z.cards)
        known = self.known
        if seat is None or not known:
            return []
        # each card is in this zone only (Visibility.of): it is known to ``seat`` only through ``known``
        return [c for c in z.cards if seat in known.get(c, ())]

    def hidden_ids(self, seat: int | None) -> frozenset[str]:
        """Return every card id ``seat`` does not know (other hands, decks, face-down cards)."""
        return frozenset(c for c in self.where() if not self.knows(seat, c))

    def unknown_slots(self, seat: int | None) -> tuple[dict[str, list[int]], list[str]]:
        """Return, for determinization, the places whose card ``seat`` does not know and those cards.

        Returns ``(slots, cards)``: ``slots`` maps a zone name to the indexes (in ``Zone.cards``)
        of its unknown cards; ``cards`` is the multiset of unknown cards, sorted, so that any
        arrangement of the true hidden cards gives the same result.
        """
        slots: dict[str, list[int]] = {}
        cards: list[str] = []
        for z in self.zones.values():
            for i, c in enumerate(z.cards):
                if not self.knows(seat, c):
                    slots.setdefault(z.name, []).append(i)
                    cards.append(c)
        return slots, sorted(cards)
