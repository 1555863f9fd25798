"""The components of Yo soy el jefe, loaded from ``components.toml`` (the single source of truth).

Plain functions give the values other packages need (the quiz bank computes
questions from them): :func:`dividend_value`, :func:`payout`, :func:`deal_card`,
:func:`board_spaces`, :func:`board_space`; the rule numbers the rulebook states in its
text are constants here too (:data:`HAND_SIZE`, :data:`DRAW_COUNT`, :data:`HAND_LIMIT`...).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("components.toml")

FAMILY = "family"
TRAVEL = "travel"
BOSS = "boss"
HIRE = "hire"
STOP = "stop"
CARD_KINDS: tuple[str, ...] = (FAMILY, TRAVEL, BOSS, HIRE, STOP)
GREY = "gris"

# Spanish names of the kinds (the rulebook's words, first one canonical).
KIND_NAMES_ES: dict[str, tuple[str, ...]] = {
    FAMILY: ("familia", "tribu", "clan"),
    TRAVEL: ("viaje",),
    BOSS: ("jefe",),
    HIRE: ("empleo", "contratacion", "contratación"),
    STOP: ("parada", "bloqueo"),
}
KIND_LABELS: dict[str, str] = {
    FAMILY: "family card (familia)",
    TRAVEL: "travel card (viaje)",
    BOSS: "boss card (jefe)",
    HIRE: "hire card (empleo)",
    STOP: "stop card (parada)",
}
ID_PREFIX = "YSJ"

# Rule numbers the rulebook states in its text (not component data); the engine and the quiz bank read them here.
HAND_SIZE = 5
"""Influence cards dealt to each player: "se reparten 5 cartas a cada jugador" (2-preparacion)."""
DRAW_COUNT = 3
"""Cards a draw takes: "Tomar 3 cartas del mazo de cartas de influencia" (3-desarrollo/tomar-cartas)."""
HAND_LIMIT = 12
"""The hand limit after drawing: "Cada jugador puede tener hasta 12 cartas de influencia" (3-desarrollo)."""
HAND_LIMIT_LATE = 10
"""The limit under the variant "A partir del décimo negocio ... hasta un máximo de 10 cartas" (5-variantes)."""
LATE_LIMIT_AFTER = 9
"""Deals closed after which the late limit applies (ruling dado-de-fin-y-partida-rapida)."""
DRAW_BY_INVESTORS: tuple[int, ...] = (4, 3, 2, 1)
"""Cards drawn under the variant robo-segun-inversores with 0, 1, 2, 3 or more investor cards."""
MINIMUM_TO_NEGOTIATE = 4
"""Fewest cards to start a negotiation under "Si tienes 3 o menos cartas ... no puedes intentar una negociación"."""
MANDATORY_AT = 10
"""Cards from which the variant obliges a negotiation: "si tiene 10 o más cartas de influencia en la mano"."""
INVESTORS_EACH: dict[int, int] = {2: 3, 3: 2, 4: 1, 5: 1, 6: 1}
"""Investor cards dealt to each seat by seat count (2-preparacion, rulings errata-reparto-de-inversores and
dos-jugadores)."""
QUICK_GAME_REMOVED: tuple[int, ...] = (3, 6, 9)
"""Deal cards left out of the quick game: "sin las cartas 3, 6 y 9" (5-variantes)."""


class ComponentDataError(ValueError):
    """The component data file is malformed; the message names the file, the item and the field."""


@dataclass(frozen=True, slots=True)
class Family:
    """One of the six families (colours) and its investor card."""

    index: int
    id: str
    code: str
    english: str

    @property
    def investor_id(self) -> str:
        """The investor card's id, e.g. ``"YSJ-INV-ROJ"``."""
        return f"{ID_PREFIX}-INV-{self.code}"


@dataclass(frozen=True, slots=True)
class InfluenceCard:
    """One influence card; ``colour`` is a family id, ``"gris"`` (grey travel) or ``None``."""

    index: int
    id: str
    kind: str
    colour: str | None
    name: str
    effect: str

    def to_json(self) -> dict[str, Any]:
        """Return the card as a JSON object (id, kind, colour, name, effect)."""
        return {"id": self.id, "kind": self.kind, "colour": self.colour, "name": self.name, "effect": self.effect}


@dataclass(frozen=True, slots=True)
class DealCard:
    """A deal card: front, the value of one dividend; back, the die faces that end the game."""

    number: int
    dividend: int
    end_numbers: tuple[int, ...]
    final: bool

    @property
    def id(self) -> str:
        """The card's id, e.g. ``"YSJ-NEG-13"``."""
        return f"{ID_PREFIX}-NEG-{self.number:02d}"

    def to_json(self) -> dict[str, Any]:
        """Return the card as a JSON object."""
        return {
            "id": self.id,
            "number": self.number,
            "dividend": self.dividend,
            "end_numbers": list(self.end_numbers),
            "final": self.final,
        }


@dataclass(frozen=True, slots=True)
class Space:
    """A board space: its dividends and the families a deal there needs."""

    number: int
    dividends: int
    mandatory: tuple[str, ...]
    optional: tuple[str, ...]
    optional_needed: int

    @property
    def investors_needed(self) -> int:
        """How many investors (families) must agree: the mandatory ones plus ``optional_needed``."""
        return len(self.mandatory) + self.optional_needed

    @property
    def colours(self) -> tuple[str, ...]:
        """Every family this space can use (mandatory first, then optional)."""
        return self.mandatory + self.optional

    def describe(self) -> str:
        """Return the requirement in words, e.g. ``"rojo, azul, amarillo + 2 of naranja/rosa/verde"``."""
        text = ", ".join(self.mandatory)
        if self.optional_needed:
            text += f" + {self.optional_needed} of {'/'.join(self.optional)}"
        return text

    def to_json(self) -> dict[str, Any]:
        """Return the space as a JSON object."""
        return {
            "space": self.number,
            "dividends": self.dividends,
            "mandatory": list(self.mandatory),
            "optional": list(self.optional),
            "optional_needed": self.optional_needed,
            "investors_needed": self.investors_needed,
        }


@dataclass(frozen=True, slots=True)
class Components:
    """Everything in the box."""

    families: tuple[Family, ...]
    cards: tuple[InfluenceCard, ...]
    deal_cards: tuple[DealCard, ...]
    spaces: tuple[Space, ...]
    die_faces: int
    money_cards: int
    influence_counts: dict[str, int]

    @property
    def colours(self) -> tuple[str, ...]:
        """The family ids in their fixed order."""
        return tuple(f.id for f in self.families)


def _fail(where: str, item: str, field: str, problem: str) -> ComponentDataError:
    return ComponentDataError(f"{where}: {item}: field {field!r} {problem}")


def _keys(where: str, item: str, entry: dict[str, Any], expected: tuple[str, ...]) -> None:
    for key in entry:
        if key not in expected:
            raise _fail(where, item, key, f"is unknown; the fields are {', '.join(expected)}")
    for key in expected:
        if key not in entry:
            raise _fail(where, item, key, "is missing")


def _int(where: str, item: str, entry: dict[str, Any], field: str, low: int, high: int) -> int:
    value = entry[field]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(where, item, field, f"must be a whole number from {low} to {high}, not {value!r}")
    return value


def _colours(where: str, item: str, entry: dict[str, Any], field: str, known: tuple[str, ...]) -> tuple[str, ...]:
    value = entry[field]
    if not isinstance(value, list) or any(c not in known for c in value) or len(set(value)) != len(value):
        raise _fail(where, item, field, f"must be a list of distinct family ids among {', '.join(known)}")
    return tuple(value)


def _families(where: str, data: dict[str, Any]) -> tuple[Family, ...]:
    entries = data.get("family")
    if not isinstance(entries, list) or len(entries) != 6:
        raise _fail(where, "[[family]]", "family", "must list exactly 6 families")
    out = []
    for i, entry in enumerate(entries):
        item = f"family #{i + 1}"
        _keys(where, item, entry, ("id", "code", "english"))
        for field in ("id", "code", "english"):
            if not isinstance(entry[field], str) or not entry[field]:
                raise _fail(where, item, field, "must be a non-empty string")
        if not entry["id"].isascii() or not entry["id"].isalpha() or not entry["id"].islower():
            raise _fail(where, item, "id", f"must be lowercase ASCII letters, not {entry['id']!r}")
        if len(entry["code"]) != 3 or not entry["code"].isupper() or not entry["code"].isalpha():
            raise _fail(where, item, "code", f"must be three capital letters, not {entry['code']!r}")
        out.append(Family(i, entry["id"], entry["code"], entry["english"]))
    for field in ("id", "code", "english"):
        values = [getattr(f, field) for f in out]
        if len(set(values)) != len(values):
            raise _fail(where, "[[family]]", field, "must be unique across families")
    if GREY in {f.id for f in out} or "GRI" in {f.code for f in out}:
        raise _fail(where, "[[family]]", "id", f"must not be {GREY!r} (reserved for grey travel cards)")
    return tuple(out)


def _cards(where: str, data: dict[str, Any], families: tuple[Family, ...]) -> tuple[tuple[InfluenceCard, ...], dict]:
    entry = data.get("influence")
    if not isinstance(entry, dict):
        raise _fail(where, "[influence]", "influence", "is missing")
    fields = ("family_per_colour", "travel_per_colour", "travel_grey", "boss", "hire", "stop")
    _keys(where, "[influence]", entry, fields)
    counts = {f: _int(where, "[influence]", entry, f, 0, 99) for f in fields}
    cards: list[InfluenceCard] = []

    def add(kind: str, colour: str | None, card_id: str, name: str, effect: str) -> None:
        cards.append(InfluenceCard(len(cards), card_id, kind, colour, name, effect))

    for fam in families:
        for k in range(1, counts["family_per_colour"] + 1):
            add(
                FAMILY,
                fam.id,
                f"{ID_PREFIX}-FAM-{fam.code}-{k}",
                f"Familia {fam.id}",
                f"Placed in a deal, it stands in for the {fam.id} investor.",
            )
    for fam in families:
        for k in range(1, counts["travel_per_colour"] + 1):
            add(
                TRAVEL,
                fam.id,
                f"{ID_PREFIX}-VIA-{fam.code}-{k}",
                f"Viaje {fam.id}",
                f"Played on an investor card or a placed family card of colour {fam.id}: it sits out this deal.",
            )
    for k in range(1, counts["travel_grey"] + 1):
        add(
            TRAVEL,
            GREY,
            f"{ID_PREFIX}-VIA-GRI-{k}",
            "Viaje gris",
            "Played on an investor card or a placed family card of any colour: it sits out this deal.",
        )
    for kind, code, name, effect in (
        (BOSS, "JEF", "Jefe", "In a negotiation, you become its boss."),
        (HIRE, "EMP", "Empleo", "Three together take an investor card."),
        (
            STOP,
            "PAR",
            "Parada",
            "Cancels a travel card, boss card or hire set just played.",
        ),
    ):
        for k in range(1, counts[kind] + 1):
            add(kind, None, f"{ID_PREFIX}-{code}-{k:02d}", name, effect)
    return tuple(cards), counts


def _deal_cards(where: str, data: dict[str, Any], faces: int) -> tuple[DealCard, ...]:
    entries = data.get("deal_card")
    if not isinstance(entries, list) or not entries:
        raise _fail(where, "[[deal_card]]", "deal_card", "must list the deal cards")
    out = []
    for i, entry in enumerate(entries):
        item = f"deal card #{i + 1}"
        _keys(where, item, entry, ("number", "dividend", "end_numbers", "final"))
        number = _int(where, item, entry, "number", 1, 99)
        if number != i + 1:
            raise _fail(where, item, "number", f"must be {i + 1} (cards are listed in order), not {number}")
        dividend = _int(where, item, entry, "dividend", 1, 99)
        ends = entry["end_numbers"]
        if not isinstance(ends, list) or any(
            not isinstance(x, int) or isinstance(x, bool) or not 1 <= x <= faces for x in ends
        ):
            raise _fail(where, item, "end_numbers", f"must be a list of die faces from 1 to {faces}")
        if ends != sorted(set(ends)):
            raise _fail(where, item, "end_numbers", "must be ascending without repeats")
        if not isinstance(entry["final"], bool):
            raise _fail(where, item, "final", "must be true or false")
        if entry["final"] and ends:
            raise _fail(where, item, "end_numbers", "must be empty on the final card (it ends the game without a roll)")
        out.append(DealCard(number, dividend, tuple(ends), entry["final"]))
    if not out[-1].final or any(c.final for c in out[:-1]):
        raise _fail(where, "[[deal_card]]", "final", "must be true on the last card only")
    if any(b.dividend < a.dividend for a, b in pairwise(out)):
        raise _fail(where, "[[deal_card]]", "dividend", "must never decrease from one card to the next")
    return tuple(out)


def _spaces(where: str, data: dict[str, Any], colours: tuple[str, ...]) -> tuple[Space, ...]:
    entries = data.get("space")
    if not isinstance(entries, list) or not entries:
        raise _fail(where, "[[space]]", "space", "must list the board spaces")
    out = []
    for i, entry in enumerate(entries):
        item = f"space #{i + 1}"
        _keys(where, item, entry, ("number", "dividends", "mandatory", "optional", "optional_needed"))
        number = _int(where, item, entry, "number", 1, 99)
        if number != i + 1:
            raise _fail(where, item, "number", f"must be {i + 1} (spaces are listed clockwise), not {number}")
        dividends = _int(where, item, entry, "dividends", 1, 99)
        mandatory = _colours(where, item, entry, "mandatory", colours)
        optional = _colours(where, item, entry, "optional", colours)
        if set(mandatory) & set(optional):
            raise _fail(where, item, "optional", "must not repeat a mandatory family")
        needed = _int(where, item, entry, "optional_needed", 0, len(optional))
        if optional and not 0 < needed < len(optional):
            raise _fail(where, item, "optional_needed", "must be at least 1 and fewer than the optional families")
        if not mandatory:
            raise _fail(where, item, "mandatory", "must name at least one family")
        # Store colours in the fixed family order so that every listing is stable.
        mandatory = tuple(c for c in colours if c in mandatory)
        optional = tuple(c for c in colours if c in optional)
        out.append(Space(number, dividends, mandatory, optional, needed))
    return tuple(out)


def load_components(path: Path | None = None) -> Components:
    """Load and check the component data file (``components.toml`` beside this module by default).

    Raises:
        ComponentDataError: the file is not valid TOML, or an item has an unknown,
            missing or bad field; the message names the file, the item and the field.
        OSError: the file cannot be read.
    """
    path = DATA_FILE if path is None else path
    where = path.name if path == DATA_FILE else str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ComponentDataError(f"{where}: not valid TOML: {exc}") from None
    for key in data:
        if key not in ("family", "influence", "deal_card", "space", "die", "money"):
            raise _fail(where, f"[{key}]", key, "is not a known table")
    families = _families(where, data)
    cards, counts = _cards(where, data, families)
    die = data.get("die")
    if not isinstance(die, dict):
        raise _fail(where, "[die]", "die", "is missing")
    _keys(where, "[die]", die, ("faces",))
    faces = _int(where, "[die]", die, "faces", 2, 20)
    money = data.get("money")
    if not isinstance(money, dict):
        raise _fail(where, "[money]", "money", "is missing")
    _keys(where, "[money]", money, ("cards",))
    money_cards = _int(where, "[money]", money, "cards", 0, 9999)
    deal_cards = _deal_cards(where, data, faces)
    spaces = _spaces(where, data, tuple(f.id for f in families))
    if len(spaces) <= len(deal_cards):
        raise _fail(where, "[[space]]", "space", "must outnumber the deal cards (the marker needs a free space)")
    return Components(families, cards, deal_cards, spaces, faces, money_cards, counts)


@lru_cache(maxsize=1)
def components() -> Components:
    """Return the packaged components, loaded once per process.

    Raises:
        ComponentDataError: the packaged data file is malformed.
    """
    return load_components()


def deal_card(number: int) -> DealCard:
    """Return deal card ``number`` (1 to 15).

    Raises:
        ValueError: no deal card has that number.
    """
    cards = components().deal_cards
    if not 1 <= number <= len(cards):
        raise ValueError(f"deal cards are numbered 1 to {len(cards)}, not {number}")
    return cards[number - 1]


def dividend_value(deal_number: int) -> int:
    """Return the value in millions of one dividend of the deal closed with card ``deal_number`` on top.

    In the standard game the n-th deal uses card n, so ``dividend_value(6) == 3``
    and ``dividend_value(13) == 5``.

    Raises:
        ValueError: no deal card has that number.
    """
    return deal_card(deal_number).dividend


def payout(deal_number: int, dividends: int) -> int:
    """Return what the bank pays the boss, in millions: ``dividends`` times the dividend of card ``deal_number``.

    Raises:
        ValueError: no deal card has that number, or ``dividends`` is negative.
    """
    if dividends < 0:
        raise ValueError(f"a deal pays a whole, non-negative number of dividends, not {dividends}")
    return dividend_value(deal_number) * dividends


def board_spaces() -> tuple[Space, ...]:
    """Return the 16 board spaces in clockwise order (space 1 first)."""
    return components().spaces


def board_space(number: int) -> Space:
    """Return board space ``number`` (1 to 16).

    Raises:
        ValueError: no space has that number.
    """
    spaces = components().spaces
    if not 1 <= number <= len(spaces):
        raise ValueError(f"board spaces are numbered 1 to {len(spaces)}, not {number}")
    return spaces[number - 1]
