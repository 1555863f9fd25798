"""Market Fortune's moves: small frozen values with a JSON form and a short text form.

Every move has a ``"type"`` tag. Compound actions are split so each choice stays
small: Construir is ``build`` (choose the source) then ``discard``; an optimisation is
``optimise`` (choose the swap) then ``discard`` (its cost); a declaration is
``declare``, then ``attach`` greens and ``reveal``. Card fields hold card ids such
as ``"MF-A-ENE-3"``; seat and investment fields hold 0-based integers.

Move values are interned in module caches (:func:`intern`), so listing legal moves
in the hot path allocates little.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from club_agentes.engine.core import InvalidMove
from club_agentes.engine.market_fortune.components import CARD_INDEX

# Where a building card can be taken from. "strategy-discard" is accepted by the parser
# only so that the engine can refuse it with the rule that forbids it.
SOURCES: tuple[str, ...] = ("stock-deck", "return-deck", "stock-discard", "return-discard", "strategy-discard")
SOURCE_WORDS = {
    "stock-deck": "the $ deck",
    "return-deck": "the +R deck",
    "stock-discard": "the $ discard pile",
    "return-discard": "the +R discard pile",
    "strategy-discard": "the strategy discard pile",
}


@dataclass(frozen=True, slots=True)
class Build:
    """Construir, first half: take 1 building card from ``source``."""

    source: str
    type: ClassVar[str] = "build"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "build", "source": self.source}

    def text(self) -> str:
        """Return the text form, e.g. ``"build stock-deck"``."""
        return f"build {self.source}"


@dataclass(frozen=True, slots=True)
class Take:
    """Take 1 building card from ``source`` for a strategy (Comprar Más, Rescate)."""

    source: str
    type: ClassVar[str] = "take"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "take", "source": self.source}

    def text(self) -> str:
        """Return the text form, e.g. ``"take return-deck"``."""
        return f"take {self.source}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one building card from the hand (Construir, an optimisation's cost, the rule of 8)."""

    card: str
    type: ClassVar[str] = "discard"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "discard", "card": self.card}

    def text(self) -> str:
        """Return the text form, e.g. ``"discard MF-A-ENE-1"``."""
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Risk:
    """Arriesgar: form an investment from 1 $ (``stock``) and 1 +R (``ret``) of one industry."""

    stock: str
    ret: str
    type: ClassVar[str] = "risk"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "risk", "stock": self.stock, "return": self.ret}

    def text(self) -> str:
        """Return the text form, e.g. ``"risk MF-A-ENE-3 MF-R-ENE-2"``."""
        return f"risk {self.stock} {self.ret}"


@dataclass(frozen=True, slots=True)
class Dominate:
    """Dominar: take 1 strategy from the deck."""

    type: ClassVar[str] = "dominate"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "dominate"}

    def text(self) -> str:
        """Return the text form."""
        return "dominate"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a red strategy. Which optional fields a card needs is in its compendium text.

    Attributes:
        card: the red card's id.
        target: the attacked rival's seat (one-rival attacks).
        investment: an investment index: the rival's (Corrección) or your own (Interés Compuesto).
        swap: a building card of your hand: the +R put into your investment (Interés
            Compuesto) or the card you give (Movimiento Astuto).
        source: the discard pile you take from (Movimiento Astuto).
    """

    card: str
    target: int | None = None
    investment: int | None = None
    swap: str | None = None
    source: str | None = None
    type: ClassVar[str] = "play"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form (optional fields only when set)."""
        out: dict[str, Any] = {"type": "play", "card": self.card}
        if self.target is not None:
            out["target"] = self.target
        if self.investment is not None:
            out["investment"] = self.investment
        if self.swap is not None:
            out["swap"] = self.swap
        if self.source is not None:
            out["source"] = self.source
        return out

    def text(self) -> str:
        """Return the text form, e.g. ``"play MF-E-CORRECCION-1 target=2 investment=0"``."""
        parts = ["play", self.card]
        if self.target is not None:
            parts.append(f"target={self.target}")
        if self.investment is not None:
            parts.append(f"investment={self.investment}")
        if self.swap is not None:
            parts.append(f"swap={self.swap}")
        if self.source is not None:
            parts.append(f"source={self.source}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Defend:
    """Answer an attack with a blue strategy."""

    card: str
    type: ClassVar[str] = "defend"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "defend", "card": self.card}

    def text(self) -> str:
        """Return the text form, e.g. ``"defend MF-E-CONTROL-1"``."""
        return f"defend {self.card}"


@dataclass(frozen=True, slots=True)
class Decline:
    """Do not defend: the attack hits you."""

    type: ClassVar[str] = "decline"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "decline"}

    def text(self) -> str:
        """Return the text form."""
        return "decline"


@dataclass(frozen=True, slots=True)
class Optimise:
    """Optimisation, first half: put ``card`` from the hand into ``investment`` (same type and industry)."""

    investment: int
    card: str
    type: ClassVar[str] = "optimise"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "optimise", "investment": self.investment, "card": self.card}

    def text(self) -> str:
        """Return the text form, e.g. ``"optimise 0 MF-A-ENE-5"``."""
        return f"optimise {self.investment} {self.card}"


@dataclass(frozen=True, slots=True)
class Attach:
    """Attach a green strategy to one of your investments."""

    card: str
    investment: int
    type: ClassVar[str] = "attach"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "attach", "card": self.card, "investment": self.investment}

    def text(self) -> str:
        """Return the text form, e.g. ``"attach MF-E-INNOVACION-1 2"``."""
        return f"attach {self.card} {self.investment}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare victory (Fortuna, Campeonato)."""

    type: ClassVar[str] = "declare"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "declare"}

    def text(self) -> str:
        """Return the text form."""
        return "declare"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Close a declaration: flip the portfolio, reveal the yellows and count."""

    type: ClassVar[str] = "reveal"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "reveal"}

    def text(self) -> str:
        """Return the text form."""
        return "reveal"


@dataclass(frozen=True, slots=True)
class Return:
    """After a failed declaration: return one investment to the hand."""

    investment: int
    type: ClassVar[str] = "return"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "return", "investment": self.investment}

    def text(self) -> str:
        """Return the text form, e.g. ``"return 3"``."""
        return f"return {self.investment}"


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional step: attach no green, do not declare, keep the red just drawn."""

    type: ClassVar[str] = "skip"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "skip"}

    def text(self) -> str:
        """Return the text form."""
        return "skip"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without an action; legal only when no action is possible."""

    type: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "pass"}

    def text(self) -> str:
        """Return the text form."""
        return "pass"


MOVE_TYPES: dict[str, type] = {
    cls.type: cls
    for cls in (
        Build,
        Take,
        Discard,
        Risk,
        Dominate,
        Play,
        Defend,
        Decline,
        Optimise,
        Attach,
        Declare,
        Reveal,
        Return,
        Skip,
        Pass,
    )
}
MOVE_CLASSES = frozenset(MOVE_TYPES.values())

DOMINATE = Dominate()
DECLINE = Decline()
DECLARE = Declare()
REVEAL = Reveal()
SKIP = Skip()
PASS = Pass()

_CACHE: dict[tuple[Any, ...], Any] = {}


def intern(cls: type, *args: Any) -> Any:
    """Return the shared instance of ``cls(*args)`` (moves are immutable values)."""
    key = (cls, *args)
    m = _CACHE.get(key)
    if m is None:
        m = _CACHE[key] = cls(*args)
    return m


# JSON fields of each type: name -> ("card" | "int" | "source" | "text"), required flag.
_JSON_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "build": {"source": ("source", True)},
    "take": {"source": ("source", True)},
    "discard": {"card": ("card", True)},
    "risk": {"stock": ("card", True), "return": ("card", True)},
    "dominate": {},
    "play": {
        "card": ("card", True),
        "target": ("int", False),
        "investment": ("int", False),
        "swap": ("card", False),
        "source": ("source", False),
    },
    "defend": {"card": ("card", True)},
    "decline": {},
    "optimise": {"investment": ("int", True), "card": ("card", True)},
    "attach": {"card": ("card", True), "investment": ("int", True)},
    "declare": {},
    "reveal": {},
    "return": {"investment": ("int", True)},
    "skip": {},
    "pass": {},
}
_ATTR = {"return": "ret"}  # JSON key -> attribute, where they differ (only Risk's "return")

_DESCRIPTIONS = {
    "build": "Construir: take 1 building card from a source (then discard 1 if you hold more than 8).",
    "take": "Take 1 building card for a strategy in progress (Comprar Más, Rescate).",
    "discard": "Discard 1 building card ($ or +R) from your hand.",
    "risk": "Arriesgar: form an investment from 1 $ and 1 +R of the same industry, then the die is rolled.",
    "dominate": "Dominar: take 1 strategy from the strategy deck.",
    "play": "Play a red strategy on your turn; the fields it needs are in its card text.",
    "defend": "Cancel the attack against you with a blue strategy.",
    "decline": "Do not defend; the attack hits you.",
    "optimise": "Swap a hand card into a face-down investment ($ for $, +R for +R, same industry); then pay 1 discard.",
    "attach": "Attach a green strategy to one of your investments (one green per investment).",
    "declare": "Declare victory with 4 investments (Fortuna, Campeonato).",
    "reveal": "Finish the declaration: flip your portfolio, reveal your yellows and count.",
    "return": "After a failed declaration, return one investment to your hand.",
    "skip": "Decline an optional step (attach nothing, do not declare, keep the red card just drawn).",
    "pass": "End the turn without an action (only when no action is possible).",
}

_ID_PATTERN = r"^MF-(A|R)-[A-Z]{3}-[1-5]$|^MF-E-[A-Z]{3,16}-[1-9]$"


def _field_schema(kind: str) -> dict[str, Any]:
    if kind == "card":
        return {"type": "string", "pattern": _ID_PATTERN, "description": "a card id such as MF-A-ENE-3"}
    if kind == "int":
        return {"type": "integer", "minimum": 0, "description": "a 0-based seat or investment index"}
    return {"type": "string", "enum": list(SOURCES), "description": "where the card is taken from"}


def _fields_text(tag: str) -> str:
    spec = _JSON_FIELDS[tag]
    if not spec:
        return "no other field"
    return ", ".join(f"{name}{'' if req else ' (optional)'}" for name, (_, req) in spec.items())


def move_schema() -> dict[str, Any]:
    """Return the JSON schema (draft 2020-12) that every move's JSON form satisfies.

    One flat object: ``type`` names the move and the other properties are typed; the
    ``type`` description says which fields each type takes. ``parse_move`` checks the
    exact fields of each type. (A schema with one branch per type validates about ten
    times slower, and clients validate every move they are shown.)
    """
    per_type = "; ".join(f"'{t}' ({_fields_text(t)}): {d}" for t, d in _DESCRIPTIONS.items())
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Market Fortune move",
        "description": "A move is an object whose 'type' names it; each type takes the fields listed with it.",
        "type": "object",
        "required": ["type"],
        "additionalProperties": False,
        "properties": {
            "type": {"enum": list(_JSON_FIELDS), "description": "The move. " + per_type},
            "source": _field_schema("source"),
            "card": _field_schema("card") | {"description": "a card id such as MF-A-ENE-3 or MF-E-ROBO-1"},
            "stock": _field_schema("card") | {"description": "risk: the Acción ($) card id, e.g. MF-A-ENE-3"},
            "return": _field_schema("card") | {"description": "risk: the Rendimiento (+R) card id, e.g. MF-R-ENE-2"},
            "swap": _field_schema("card")
            | {"description": "play: the building card of your hand put into an investment or given away"},
            "target": _field_schema("int") | {"description": "play: the attacked rival's seat (0-based)"},
            "investment": _field_schema("int")
            | {"description": "an investment's index (0-based) in its owner's portfolio"},
        },
    }


def _accepted() -> str:
    return ", ".join(sorted(_JSON_FIELDS))


def _value(tag: str, name: str, kind: str, raw: Any) -> Any:
    if kind == "int":
        if isinstance(raw, str) and raw.strip().isdigit():
            return int(raw)
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
            raise InvalidMove(f"field {name!r} of a {tag!r} move must be a non-negative integer, not {raw!r}")
        return raw
    if not isinstance(raw, str):
        raise InvalidMove(f"field {name!r} of a {tag!r} move must be a string, not {raw!r}")
    if kind == "source":
        value = raw.strip().lower()
        if value not in SOURCES:
            raise InvalidMove(f"unknown source {raw!r}; accepted sources: {', '.join(SOURCES)}")
        return value
    value = raw.strip().upper()
    if value not in CARD_INDEX:
        raise InvalidMove(f"unknown card id {raw!r}; card ids look like MF-A-ENE-3, MF-R-TEC-5 or MF-E-ROBO-1")
    return value


def _from_fields(tag: str, data: Mapping[str, Any]) -> Any:
    spec = _JSON_FIELDS[tag]
    extra = sorted(k for k in data if k != "type" and k not in spec)
    if extra:
        raise InvalidMove(f"a {tag!r} move has no field {extra[0]!r}; its fields are: {', '.join(spec) or 'none'}")
    kwargs: dict[str, Any] = {}
    for name, (kind, required) in spec.items():
        raw = data.get(name)
        if raw is None:
            if required:
                raise InvalidMove(f"a {tag!r} move needs the field {name!r}; its fields are: {', '.join(spec)}")
            continue
        kwargs[_ATTR.get(name, name)] = _value(tag, name, kind, raw)
    cls = MOVE_TYPES[tag]
    return intern(cls, *[kwargs.get(f.name) for f in fields(cls)])


def _from_text(text: str) -> Any:
    words = text.split()
    if not words:
        raise InvalidMove(f"an empty move; accepted move types: {_accepted()}")
    tag = words[0].lower()
    if tag not in _JSON_FIELDS:
        raise InvalidMove(f"unknown move type {words[0]!r}; accepted move types: {_accepted()}")
    spec = _JSON_FIELDS[tag]
    data: dict[str, Any] = {"type": tag}
    if tag == "play":
        if len(words) < 2:
            raise InvalidMove("a play move is 'play <card id> [target=N] [investment=N] [swap=<card>] [source=<pile>]'")
        data["card"] = words[1]
        for word in words[2:]:
            key, sep, value = word.partition("=")
            if not sep or key not in spec:
                raise InvalidMove(
                    f"cannot read {word!r}; after the card a play move takes key=value parts: "
                    "target, investment, swap, source"
                )
            data[key] = value
        return _from_fields(tag, data)
    names = list(spec)
    if len(words) - 1 != len(names):
        form = " ".join([tag, *[f"<{n}>" for n in names]])
        raise InvalidMove(f"a {tag!r} move is written {form!r}")
    data.update(zip(names, words[1:], strict=True))
    return _from_fields(tag, data)


def parse_move(data: Mapping[str, Any] | str) -> Any:
    """Turn a move's JSON object or text form into the move.

    Raises:
        InvalidMove: malformed input (unknown type, missing or mistyped field, unknown
            card id or source); the message says what is accepted.
    """
    if type(data) in MOVE_CLASSES:
        return data
    if isinstance(data, str):
        return _from_text(data)
    if not isinstance(data, Mapping):
        raise InvalidMove(f"a move is a JSON object with a 'type' or its text form, not {type(data).__name__}")
    tag = data.get("type")
    if not isinstance(tag, str) or tag.lower() not in _JSON_FIELDS:
        raise InvalidMove(f"unknown move type {tag!r}; accepted move types: {_accepted()}")
    return _from_fields(tag.lower(), data)
