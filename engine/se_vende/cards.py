"""Se Vende's card set: loaded from ``data/cards.toml`` and checked when loaded.

The data file's header documents the format. Powers come from a closed vocabulary
(:class:`PowerName`); the loader refuses anything else and names the file, the
card and the field. Physical cards get ids ``SV-C001``, ``SV-C002``... in file
order, one per copy, so that a card id can never appear by accident in other text.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from typing import Any

DATA_FILE = "engine/se_vende/data/cards.toml"

GOOD_KINDS: tuple[str, ...] = ("novedad", "elementos-raros", "genes", "tecnologia-alienigena")
"""The four kinds of good, in trade-price order (cheapest first)."""

GOOD_NAMES: dict[str, str] = {
    "novedad": "novedad",
    "elementos-raros": "elementos raros",
    "genes": "genes",
    "tecnologia-alienigena": "tecnología alienígena",
}
GOOD_COLOURS: dict[str, str] = {
    "novedad": "azul",
    "elementos-raros": "marrón",
    "genes": "verde",
    "tecnologia-alienigena": "amarillo",
}
TRADE_PRICE: dict[str, int] = {"novedad": 2, "elementos-raros": 3, "genes": 4, "tecnologia-alienigena": 5}
"""Cards drawn when selling one good with Consumir: Comercio (se-vende/preguntas/comercio)."""

WORLD_KINDS: tuple[str, ...] = ("plain", "windfall", "production")
WORLD_KIND_NAMES: dict[str, str] = {
    "plain": "mundo sin bienes",
    "windfall": "mundo de caída (halo)",
    "production": "mundo de producción (círculo sólido)",
}
SPECIAL_PER: tuple[str, ...] = (
    "world",
    "military_world",
    "production_world",
    "windfall_world",
    "development",
    "cost6_development",
    "good",
)


class CardDataError(ValueError):
    """The card data file is inconsistent; the message names the file, card and field."""


class PowerName(StrEnum):
    """The closed vocabulary of card powers, one phase each."""

    EXPLORE_DRAW = "explore_draw"
    EXPLORE_KEEP = "explore_keep"
    DEVELOP_DISCOUNT = "develop_discount"
    DEVELOP_DRAW = "develop_draw"
    SETTLE_DISCOUNT = "settle_discount"
    SETTLE_MILITARY = "settle_military"
    SETTLE_DRAW = "settle_draw"
    TRADE_BONUS = "trade_bonus"
    CONSUME_GOODS = "consume_goods"
    CONSUME_HAND = "consume_hand"
    PRODUCE_WINDFALL = "produce_windfall"
    PRODUCE_DRAW = "produce_draw"
    PRODUCE_DRAW_PER_KIND = "produce_draw_per_kind"


# Fields each power takes: name -> (required, optional-with-default).
_POWER_FIELDS: dict[PowerName, tuple[tuple[str, ...], dict[str, Any]]] = {
    PowerName.EXPLORE_DRAW: (("n",), {}),
    PowerName.EXPLORE_KEEP: (("n",), {}),
    PowerName.DEVELOP_DISCOUNT: (("n",), {}),
    PowerName.DEVELOP_DRAW: (("n",), {}),
    PowerName.SETTLE_DISCOUNT: (("n",), {}),
    PowerName.SETTLE_MILITARY: (("n",), {}),
    PowerName.SETTLE_DRAW: (("n",), {}),
    PowerName.TRADE_BONUS: (("n",), {"good": "any"}),
    PowerName.CONSUME_GOODS: (("up_to", "vp", "cards"), {"good": "any"}),
    PowerName.CONSUME_HAND: (("up_to",), {}),
    PowerName.PRODUCE_WINDFALL: ((), {"good": "any"}),
    PowerName.PRODUCE_DRAW: (("n",), {}),
    PowerName.PRODUCE_DRAW_PER_KIND: (("good", "n"), {}),
}

PHASE_OF_POWER: dict[PowerName, str] = {
    PowerName.EXPLORE_DRAW: "Explorar",
    PowerName.EXPLORE_KEEP: "Explorar",
    PowerName.DEVELOP_DISCOUNT: "Desarrollar",
    PowerName.DEVELOP_DRAW: "Desarrollar",
    PowerName.SETTLE_DISCOUNT: "Asentar",
    PowerName.SETTLE_MILITARY: "Asentar",
    PowerName.SETTLE_DRAW: "Asentar",
    PowerName.TRADE_BONUS: "Consumir",
    PowerName.CONSUME_GOODS: "Consumir",
    PowerName.CONSUME_HAND: "Consumir",
    PowerName.PRODUCE_WINDFALL: "Producir",
    PowerName.PRODUCE_DRAW: "Producir",
    PowerName.PRODUCE_DRAW_PER_KIND: "Producir",
}


def _cards(n: int) -> str:
    return "1 carta" if n == 1 else f"{n} cartas"


def _of_kind(good: str, article: str = "de") -> str:
    return "" if good == "any" else f" {article} {GOOD_NAMES[good]}"


@dataclass(frozen=True, slots=True)
class Power:
    """One power of a card: its name and parameters (unused ones are 0 or ``"any"``)."""

    name: PowerName
    n: int = 0
    good: str = "any"
    up_to: int = 0
    vp: int = 0
    cards: int = 0

    def matches(self, kind: str) -> bool:
        """Return whether a good of ``kind`` satisfies this power's kind filter."""
        return self.good == "any" or self.good == kind

    def text(self) -> str:
        """Return the power as the card prints it, in Spanish."""
        p = self.name
        if p is PowerName.EXPLORE_DRAW:
            body = f"roba {_cards(self.n)} más."
        elif p is PowerName.EXPLORE_KEEP:
            body = f"conserva {_cards(self.n)} más."
        elif p is PowerName.DEVELOP_DISCOUNT:
            body = f"los desarrollos te cuestan {self.n} menos."
        elif p is PowerName.DEVELOP_DRAW:
            body = f"roba {_cards(self.n)} después de colocar un desarrollo."
        elif p is PowerName.SETTLE_DISCOUNT:
            body = f"los mundos no militares te cuestan {self.n} menos."
        elif p is PowerName.SETTLE_MILITARY:
            body = f"+{self.n} Militar."
        elif p is PowerName.SETTLE_DRAW:
            body = f"roba {_cards(self.n)} después de colocar un mundo."
        elif p is PowerName.TRADE_BONUS:
            body = f"al vender un bien{_of_kind(self.good)}, roba {_cards(self.n)} más."
        elif p is PowerName.CONSUME_GOODS:
            kind = " de cualquier tipo" if self.good == "any" else _of_kind(self.good)
            goods = "1 bien" if self.up_to == 1 else f"hasta {self.up_to} bienes"
            gains = [f"{self.vp} PV"] if self.vp else []
            if self.cards:
                gains.append(_cards(self.cards))
            each = "" if self.up_to == 1 else " cada uno"
            body = f"descarta {goods}{kind} por {' y '.join(gains)}{each}."
        elif p is PowerName.CONSUME_HAND:
            body = f"descarta hasta {self.up_to} cartas de la mano por 1 PV cada una."
        elif p is PowerName.PRODUCE_WINDFALL:
            body = f"produce un bien en uno de tus mundos de caída{_of_kind(self.good)} sin bien."
        elif p is PowerName.PRODUCE_DRAW:
            body = f"roba {_cards(self.n)}."
        else:
            body = f"roba {_cards(self.n)} por cada bien de {GOOD_NAMES[self.good]} que produzcas en esta fase."
        return f"{PHASE_OF_POWER[p]}: {body}"

    def to_json(self) -> dict[str, Any]:
        """Return the power's data as JSON (only the fields it uses)."""
        required, optional = _POWER_FIELDS[self.name]
        out: dict[str, Any] = {"power": self.name.value}
        for f in (*required, *optional):
            out[f] = getattr(self, f)
        return out


@dataclass(frozen=True, slots=True)
class Special:
    """One term of a cost-6 development's end-of-game formula: ``vp`` per counted thing."""

    per: str
    vp: int
    good: str = "any"

    def text(self) -> str:
        """Return the term in Spanish."""
        kind = "" if self.good == "any" else f" de {GOOD_NAMES[self.good]}"
        what = {
            "world": f"mundo{kind} de tu tableau",
            "military_world": f"mundo militar{kind} de tu tableau",
            "production_world": f"mundo de producción{kind} de tu tableau",
            "windfall_world": f"mundo de caída{kind} de tu tableau",
            "development": "desarrollo de tu tableau (incluido este)",
            "cost6_development": "desarrollo de costo 6 de tu tableau (incluido este)",
            "good": "bien en tus mundos al final de la partida",
        }[self.per]
        return f"{self.vp} PV por cada {what}"


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card design. ``military`` worlds have a ``defence`` and no cost."""

    key: str
    name: str
    type: str
    cost: int
    vp: int
    copies: int
    start: bool
    world: str | None
    good: str | None
    defence: int
    powers: tuple[Power, ...]
    special: tuple[Special, ...]

    @property
    def is_world(self) -> bool:
        """Whether the card is a world."""
        return self.type == "world"

    @property
    def is_development(self) -> bool:
        """Whether the card is a development."""
        return self.type == "development"

    @property
    def military(self) -> bool:
        """Whether the card is a military world (red circle with a defence number)."""
        return self.defence > 0

    def total(self, name: PowerName) -> int:
        """Return the sum of ``n`` over this card's powers of one name."""
        return sum(p.n for p in self.powers if p.name is name)

    def kind_text(self) -> str:
        """Return a short Spanish description of what the card is."""
        if self.is_development:
            return f"desarrollo de costo {self.cost}"
        parts = []
        if self.military:
            parts.append(f"mundo militar (defensa {self.defence})")
        else:
            parts.append(f"mundo de costo {self.cost}")
        if self.world == "windfall":
            parts.append(f"de caída con halo {GOOD_COLOURS[self.good or '']} ({GOOD_NAMES[self.good or '']})")
        elif self.world == "production":
            parts.append(f"de producción {GOOD_COLOURS[self.good or '']} ({GOOD_NAMES[self.good or '']})")
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """Return the design's data as JSON (what a card view carries besides its id)."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "vp": self.vp,
            "description": self.kind_text(),
        }
        if self.military:
            out["military"] = True
            out["defence"] = self.defence
        else:
            out["cost"] = self.cost
        if self.is_world:
            out["world"] = self.world
            if self.good is not None:
                out["good_kind"] = self.good
        if self.start:
            out["start_world"] = True
        out["powers"] = [p.text() for p in self.powers]
        if self.special:
            out["special"] = [s.text() for s in self.special]
        return out


_CARD_FIELDS = {
    "key",
    "name",
    "type",
    "cost",
    "vp",
    "copies",
    "start",
    "world",
    "good",
    "defence",
    "powers",
    "special",
}


def _fail(where: str, key: str, field: str, problem: str) -> CardDataError:
    return CardDataError(f"{where}: card {key!r}: field {field!r}: {problem}")


def _int(entry: dict[str, Any], field: str, where: str, key: str, lo: int, hi: int, default: int | None = None) -> int:
    if field not in entry:
        if default is None:
            raise _fail(where, key, field, "is required")
        return default
    value = entry[field]
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _fail(where, key, field, f"must be an integer from {lo} to {hi}, not {value!r}")
    return value


def _good(value: Any, where: str, key: str, field: str, allow_any: bool) -> str:
    allowed = (*GOOD_KINDS, "any") if allow_any else GOOD_KINDS
    if value not in allowed:
        raise _fail(where, key, field, f"must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _power(raw: Any, where: str, key: str, index: int) -> Power:
    field = f"powers[{index}]"
    if not isinstance(raw, dict) or "power" not in raw:
        raise _fail(where, key, field, "must be a table with a 'power' name")
    try:
        name = PowerName(raw["power"])
    except ValueError:
        names = ", ".join(p.value for p in PowerName)
        raise _fail(where, key, f"{field}.power", f"unknown power {raw['power']!r}; known powers: {names}") from None
    required, optional = _POWER_FIELDS[name]
    extra = set(raw) - {"power", *required, *optional}
    if extra:
        raise _fail(where, key, f"{field}.{sorted(extra)[0]}", f"is not a field of power {name.value}")
    values: dict[str, Any] = dict(optional)
    for f in (*required, *optional):
        if f not in raw and f in optional:
            continue
        if f == "good":
            values["good"] = _good(
                raw.get("good"), where, key, f"{field}.good", name is not PowerName.PRODUCE_DRAW_PER_KIND
            )
        else:
            lo = 0 if f in ("vp", "cards") else 1
            values[f] = _int(raw, f, where, key, lo, 9)
    if name is PowerName.CONSUME_GOODS and values["vp"] == 0 and values["cards"] == 0:
        raise _fail(where, key, field, "a consume_goods power must give victory points or cards")
    return Power(name, **values)


def _special(raw: Any, where: str, key: str, index: int) -> Special:
    field = f"special[{index}]"
    if not isinstance(raw, dict):
        raise _fail(where, key, field, "must be a table { per, vp, good? }")
    extra = set(raw) - {"per", "vp", "good"}
    if extra:
        raise _fail(where, key, f"{field}.{sorted(extra)[0]}", "is not a field of a special term")
    per = raw.get("per")
    if per not in SPECIAL_PER:
        raise _fail(where, key, f"{field}.per", f"must be one of {', '.join(SPECIAL_PER)}, not {per!r}")
    good = _good(raw.get("good", "any"), where, key, f"{field}.good", True)
    if good != "any" and not str(per).endswith("world"):
        raise _fail(where, key, f"{field}.good", "only world terms can be restricted to a kind of good")
    return Special(str(per), _int(raw, "vp", where, key, 1, 9), good)


def _card(entry: Any, where: str, index: int) -> CardDef:
    if not isinstance(entry, dict):
        raise CardDataError(f"{where}: card #{index + 1} is not a table")
    key = entry.get("key")
    if not isinstance(key, str) or not key or not all(c.islower() or c.isdigit() or c == "-" for c in key):
        raise CardDataError(f"{where}: card #{index + 1}: field 'key' must be a lowercase slug, not {key!r}")
    extra = set(entry) - _CARD_FIELDS
    if extra:
        raise _fail(where, key, sorted(extra)[0], "is not a card field")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(where, key, "name", "must be a non-empty string")
    ctype = entry.get("type")
    if ctype not in ("world", "development"):
        raise _fail(where, key, "type", f"must be 'world' or 'development', not {ctype!r}")
    start = entry.get("start", False)
    if not isinstance(start, bool):
        raise _fail(where, key, "start", "must be true or false")
    vp = _int(entry, "vp", where, key, 0, 9)
    copies = _int(entry, "copies", where, key, 1, 9, default=1)
    powers = tuple(_power(p, where, key, i) for i, p in enumerate(entry.get("powers", [])))
    special = tuple(_special(s, where, key, i) for i, s in enumerate(entry.get("special", [])))
    if ctype == "development":
        cost = _development_cost(entry, where, key, copies, special)
        world = good = None
        defence = 0
    else:
        if special:
            raise _fail(where, key, "special", "only cost-6 developments score special points")
        world, good, cost, defence = _world_fields(entry, where, key)
    return CardDef(key, name, ctype, cost, vp, copies, start, world, good, defence, powers, special)


def _development_cost(entry: dict[str, Any], where: str, key: str, copies: int, special: tuple[Special, ...]) -> int:
    """Check the fields of a development card and return its cost.

    Raises:
        CardDataError: a world's field, more than one copy, or special scoring on a card not of cost 6 (or none on one).
    """
    for f in ("world", "good", "defence", "start"):
        if f in entry:
            raise _fail(where, key, f, "is for worlds only")
    cost = _int(entry, "cost", where, key, 1, 6)
    if copies != 1:
        raise _fail(where, key, "copies", "developments are unique (copies = 1)")
    if cost == 6 and not special:
        raise _fail(where, key, "special", "a cost-6 development needs its special scoring formula")
    if cost != 6 and special:
        raise _fail(where, key, "special", "only cost-6 developments score special points")
    return cost


def _world_fields(entry: dict[str, Any], where: str, key: str) -> tuple[str, str | None, int, int]:
    """Check the fields of a world card and return its kind, good, cost and defence (0: not military).

    Raises:
        CardDataError: an unknown kind, a good on a plain world (or none on another), a military world with a cost.
    """
    world = entry.get("world")
    if world not in WORLD_KINDS:
        raise _fail(where, key, "world", f"must be one of {', '.join(WORLD_KINDS)}, not {world!r}")
    good = None
    if world == "plain":
        if "good" in entry:
            raise _fail(where, key, "good", "a plain world has no good")
    else:
        good = _good(entry.get("good"), where, key, "good", False)
    if "defence" in entry:
        defence = _int(entry, "defence", where, key, 1, 9)
        if "cost" in entry:
            raise _fail(where, key, "cost", "a military world is not paid for: give defence, not cost")
        return world, good, 0, defence
    return world, good, _int(entry, "cost", where, key, 0, 6), 0


def parse_cards(text: str, where: str = DATA_FILE) -> tuple[CardDef, ...]:
    """Parse and check card data given as TOML text.

    Raises:
        CardDataError: bad TOML, an unknown field, power or value, a duplicate key,
            or not exactly five start worlds with Alfa Centauro among them; the
            message names the file, card and field.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{where}: {exc}") from exc
    extra = set(data) - {"card"}
    if extra:
        raise CardDataError(f"{where}: unknown top-level key {sorted(extra)[0]!r}; only [[card]] tables are allowed")
    cards = tuple(_card(e, where, i) for i, e in enumerate(data.get("card", [])))
    seen: set[str] = set()
    for c in cards:
        if c.key in seen:
            raise _fail(where, c.key, "key", "is used by two cards")
        seen.add(c.key)
    starts = [c for c in cards if c.start]
    if len(starts) != 5 or sum(c.copies for c in starts) != 5:
        raise CardDataError(f"{where}: there must be exactly five start worlds, one copy each; found {len(starts)}")
    alfa = next((c for c in starts if c.key == "alfa-centauro"), None)
    if alfa is None or alfa.world != "windfall":
        raise CardDataError(
            f"{where}: card 'alfa-centauro': field 'start': Alfa Centauro must be a windfall start world"
        )
    return cards


@lru_cache(maxsize=1)
def load_designs() -> tuple[CardDef, ...]:
    """Return the packaged card designs, loaded and checked once per process.

    Raises:
        CardDataError: the packaged data file is inconsistent.
    """
    text = resources.files("club_agentes.engine.se_vende").joinpath("data", "cards.toml").read_text(encoding="utf-8")
    return parse_cards(text)


@dataclass(frozen=True)
class Deck:
    """The physical cards: ``defs[i]`` is the design of the card whose id is ``ids[i]``."""

    designs: tuple[CardDef, ...]
    defs: tuple[CardDef, ...]
    ids: tuple[str, ...]
    index: dict[str, int]
    views: tuple[dict[str, Any], ...]
    start_cards: tuple[int, ...]
    alfa: int


def card_id(number: int) -> str:
    """Return the id of the physical card with 0-based ``number``: ``SV-C001`` for 0."""
    return f"SV-C{number + 1:03d}"


@lru_cache(maxsize=1)
def load_deck() -> Deck:
    """Return the physical cards of the packaged set, built once per process.

    Raises:
        CardDataError: the packaged data file is inconsistent.
    """
    designs = load_designs()
    defs = tuple(d for d in designs for _ in range(d.copies))
    ids = tuple(card_id(i) for i in range(len(defs)))
    views = tuple({"id": ids[i], **d.to_json()} for i, d in enumerate(defs))
    starts = tuple(i for i, d in enumerate(defs) if d.start)
    alfa = next(i for i, d in enumerate(defs) if d.key == "alfa-centauro")
    return Deck(designs, defs, ids, {cid: i for i, cid in enumerate(ids)}, views, starts, alfa)
