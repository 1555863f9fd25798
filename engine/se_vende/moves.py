"""Se Vende's moves: small frozen values with a JSON form and a short text form.

Every decision of the game is one of these moves (compound decisions are split:
choose the card to place, then the cards to pay with, one at a time):

=================  =====================================  ================================
move               JSON                                   text
=================  =====================================  ================================
ChooseAction       {"type": "action", "action": "desarrollar"}  ``action desarrollar``
Keep               {"type": "keep", "card": "SV-C012"}    ``keep SV-C012``
Discard            {"type": "discard", "card": "SV-C012"} ``discard SV-C012``
Place              {"type": "place", "card": "SV-C012"}   ``place SV-C012``
PlaceNone          {"type": "place", "card": null}        ``place none``
Pay                {"type": "pay", "card": "SV-C012"}     ``pay SV-C012``
Sell               {"type": "sell", "world": "SV-C040"}   ``sell SV-C040``
UsePower           {"type": "use", "card": "SV-C020", "power": 1}  ``use SV-C020 1``
ConsumeGood        {"type": "consume", "world": "SV-C040"}  ``consume SV-C040``
Produce            {"type": "produce", "world": "SV-C040"}  ``produce SV-C040``
Done               {"type": "done"}                       ``done``
=================  =====================================  ================================
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import InvalidMove

ACTIONS: tuple[tuple[str, str, str], ...] = (
    ("explorar-5", "Explorar +5", "E5"),
    ("explorar-1-1", "Explorar +1/+1", "E11"),
    ("desarrollar", "Desarrollar", "DEV"),
    ("asentar", "Asentar", "SET"),
    ("comercio", "Consumir: Comercio", "TRD"),
    ("2x-pv", "Consumir: 2x PV", "X2"),
    ("producir", "Producir", "PRO"),
)
"""The seven action cards: (code used in moves, printed name, short tag used in ids)."""

ACTION_CODES: tuple[str, ...] = tuple(a[0] for a in ACTIONS)
ACTION_NAMES: dict[str, str] = {a[0]: a[1] for a in ACTIONS}
ACTION_TAGS: dict[str, str] = {a[0]: a[2] for a in ACTIONS}

_CARD_RE = re.compile(r"^SV-C\d{3}$")
_ALIASES: dict[str, str] = {
    "explorar5": "explorar-5",
    "explore5": "explorar-5",
    "explorar11": "explorar-1-1",
    "explore11": "explorar-1-1",
    "desarrollar": "desarrollar",
    "develop": "desarrollar",
    "asentar": "asentar",
    "settle": "asentar",
    "comercio": "comercio",
    "consumircomercio": "comercio",
    "trade": "comercio",
    "consumetrade": "comercio",
    "2xpv": "2x-pv",
    "consumir2xpv": "2x-pv",
    "2xvp": "2x-pv",
    "consume2xvp": "2x-pv",
    "producir": "producir",
    "produce": "producir",
}


def action_code(text: str) -> str | None:
    """Return the action code a name or code stands for (accents, case and punctuation ignored), else ``None``."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return _ALIASES.get(re.sub(r"[^a-z0-9]", "", folded))


@dataclass(frozen=True, slots=True, order=True)
class ChooseAction:
    """Choose this round's action card (sealed until every seat has chosen)."""

    action: str

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "action", "action": self.action}

    def text(self) -> str:
        """Return the text form."""
        return f"action {self.action}"


@dataclass(frozen=True, slots=True, order=True)
class Keep:
    """Keep one of the cards drawn while exploring."""

    card: str

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "keep", "card": self.card}

    def text(self) -> str:
        """Return the text form."""
        return f"keep {self.card}"


@dataclass(frozen=True, slots=True, order=True)
class Discard:
    """Discard a card from hand face down (setup, hand limit, a consume-from-hand power)."""

    card: str

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "discard", "card": self.card}

    def text(self) -> str:
        """Return the text form."""
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Place a development (Desarrollar) or a world (Asentar) from hand, sealed until all have chosen."""

    card: str

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "place", "card": self.card}

    def text(self) -> str:
        """Return the text form."""
        return f"place {self.card}"


@dataclass(frozen=True, slots=True, order=True)
class PlaceNone:
    """Place nothing this phase (se-vende/preguntas/no-colocar-nada)."""

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "place", "card": None}

    def text(self) -> str:
        """Return the text form."""
        return "place none"


@dataclass(frozen=True, slots=True, order=True)
class Pay:
    """Discard one card from hand towards the cost of the card just placed."""

    card: str

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "pay", "card": self.card}

    def text(self) -> str:
        """Return the text form."""
        return f"pay {self.card}"


@dataclass(frozen=True, slots=True, order=True)
class Sell:
    """Consumir: Comercio: sell the good on this world of your tableau."""

    world: str

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "sell", "world": self.world}

    def text(self) -> str:
        """Return the text form."""
        return f"sell {self.world}"


@dataclass(frozen=True, slots=True, order=True)
class UsePower:
    """Invoke a consume power: ``power`` is its 0-based position among the card's powers."""

    card: str
    power: int

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "use", "card": self.card, "power": self.power}

    def text(self) -> str:
        """Return the text form."""
        return f"use {self.card} {self.power}"


@dataclass(frozen=True, slots=True, order=True)
class ConsumeGood:
    """Give the good on this world to the consume power in use."""

    world: str

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "consume", "world": self.world}

    def text(self) -> str:
        """Return the text form."""
        return f"consume {self.world}"


@dataclass(frozen=True, slots=True, order=True)
class Produce:
    """Producir: put a good on this empty windfall world (the chooser's bonus or a power)."""

    world: str

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "produce", "world": self.world}

    def text(self) -> str:
        """Return the text form."""
        return f"produce {self.world}"


@dataclass(frozen=True, slots=True, order=True)
class Done:
    """Stop: finish consuming, end a consume-from-hand power, or decline a windfall production."""

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "done"}

    def text(self) -> str:
        """Return the text form."""
        return "done"


SeVendeMove = ChooseAction | Keep | Discard | Place | PlaceNone | Pay | Sell | UsePower | ConsumeGood | Produce | Done
MOVE_TYPES: tuple[type, ...] = (
    ChooseAction,
    Keep,
    Discard,
    Place,
    PlaceNone,
    Pay,
    Sell,
    UsePower,
    ConsumeGood,
    Produce,
    Done,
)

_ACCEPTED = (
    "a move is one of: action <code>, keep <card>, discard <card>, place <card>, place none, pay <card>, "
    "sell <world>, use <card> <power>, consume <world>, produce <world>, done (card ids look like SV-C012; "
    f"action codes: {', '.join(ACTION_CODES)})"
)


def _card(value: Any, field: str, valid: Mapping[str, int]) -> str:
    if not isinstance(value, str):
        raise InvalidMove(f"field {field!r} must be a card id such as 'SV-C012', not {value!r}")
    cid = value.strip().upper()
    if not _CARD_RE.match(cid) or cid not in valid:
        raise InvalidMove(f"{value!r} is not a Se Vende card id; card ids run from SV-C001 to SV-C{len(valid):03d}")
    return cid


def parse_move(data: Mapping[str, Any] | str, valid: Mapping[str, int]) -> SeVendeMove:
    """Parse a move's JSON object or text form; ``valid`` maps every card id to its number.

    Raises:
        InvalidMove: malformed input; the message says what is accepted.
    """
    if isinstance(data, str):
        words = data.strip().split()
        if not words:
            raise InvalidMove(f"the move is empty; {_ACCEPTED}")
        head, rest = words[0].lower(), words[1:]
        obj: dict[str, Any] = {"type": head}
        if head == "action":
            obj["action"] = " ".join(rest)
        elif head == "use" and len(rest) == 2:
            obj["card"] = rest[0]
            if not rest[1].isdigit():
                raise InvalidMove(f"the power number in {data!r} must be a whole number such as 0 or 1")
            obj["power"] = int(rest[1])
        elif head in ("keep", "discard", "place", "pay") and len(rest) == 1:
            obj["card"] = None if head == "place" and rest[0].lower() == "none" else rest[0]
        elif head in ("sell", "consume", "produce") and len(rest) == 1:
            obj["world"] = rest[0]
        elif head != "done" or rest:  # "done" takes no fields
            raise InvalidMove(f"cannot read the move {data!r}; {_ACCEPTED}")
        data = obj
    if not isinstance(data, Mapping):
        raise InvalidMove(f"a move must be a JSON object or a text string, not {type(data).__name__}; {_ACCEPTED}")
    kind = data.get("type")
    fields = {
        "action": {"action"},
        "keep": {"card"},
        "discard": {"card"},
        "place": {"card"},
        "pay": {"card"},
        "sell": {"world"},
        "use": {"card", "power"},
        "consume": {"world"},
        "produce": {"world"},
        "done": set(),
    }
    if not isinstance(kind, str) or kind not in fields:
        raise InvalidMove(f"unknown move type {kind!r}; {_ACCEPTED}")
    missing = fields[kind] - set(data)
    extra = set(data) - fields[kind] - {"type"}
    if missing or extra:
        wanted = ", ".join(sorted(fields[kind])) or "no other field"
        raise InvalidMove(f"a {kind!r} move takes the fields: {wanted}")
    if kind == "action":
        raw = data["action"]
        code = action_code(raw) if isinstance(raw, str) else None
        if code is None:
            raise InvalidMove(f"{raw!r} is not an action card; the action codes are {', '.join(ACTION_CODES)}")
        return ChooseAction(code)
    if kind == "done":
        return Done()
    if kind == "place" and data["card"] is None:
        return PlaceNone()
    if kind == "use":
        power = data["power"]
        if not isinstance(power, int) or isinstance(power, bool) or power < 0:
            raise InvalidMove(f"field 'power' must be a power number (0, 1, ...), not {power!r}")
        return UsePower(_card(data["card"], "card", valid), power)
    if kind in ("sell", "consume", "produce"):
        world = _card(data["world"], "world", valid)
        return {"sell": Sell, "consume": ConsumeGood, "produce": Produce}[kind](world)
    card = _card(data["card"], "card", valid)
    return {"keep": Keep, "discard": Discard, "place": Place, "pay": Pay}[kind](card)


def move_schema() -> dict[str, Any]:
    """Return the JSON schema (draft 2020-12) that every move's JSON form satisfies."""
    card = {"type": "string", "pattern": "^SV-C[0-9]{3}$", "description": "a card id, e.g. SV-C012"}

    def obj(tag: str, description: str, **props: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "description": description,
            "properties": {"type": {"const": tag}, **props},
            "required": ["type", *props],
            "additionalProperties": False,
        }

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Se Vende move",
        "oneOf": [
            obj(
                "action",
                "choose this round's action card, sealed",
                action={"enum": list(ACTION_CODES), "description": "the action card's code"},
            ),
            obj("keep", "keep a card drawn while exploring", card=card),
            obj("discard", "discard a card from hand face down", card=card),
            obj(
                "place",
                "place a development or world from hand (null: place nothing)",
                card={"oneOf": [card, {"type": "null"}]},
            ),
            obj("pay", "discard a card from hand to pay for the card just placed", card=card),
            obj("sell", "Comercio: sell the good on one of your worlds", world=card),
            obj(
                "use",
                "invoke a consume power of one of your cards",
                card=card,
                power={"type": "integer", "minimum": 0, "description": "0-based position among the card's powers"},
            ),
            obj("consume", "give the good on one of your worlds to the consume power in use", world=card),
            obj("produce", "produce a good on one of your empty windfall worlds", world=card),
            obj("done", "finish consuming, end a consume-from-hand power, or decline a windfall production"),
        ],
    }
