"""Moves of Yo soy el jefe: small frozen values with a JSON form and a short text form.

Every act the rulebook allows is one move. A price is named in two steps: first
what is offered or bid on (:class:`Offer`, :class:`PlaceFamily` by a seat that is
not the boss, :class:`Bid` by the boss), then the amount (:class:`Price`).

Text forms (English; the Spanish words of the rulebook are accepted too)::

    marker 9            negotiate           roll                draw
    discard hire        discard family rojo discard travel gris
    family rojo         offer rojo          bid 1 rojo          price 8M / price 2 dividends
    accept 1 rojo       refuse 1 rojo       travel investor 0 azul [grey]
    travel family 3 azul [grey]             hire amarillo       boss keep / boss restart
    stop                pass                close               fail
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from club_agentes.engine.core import InvalidMove
from club_agentes.engine.yo_soy_el_jefe.components import (
    BOSS,
    CARD_KINDS,
    FAMILY,
    GREY,
    HIRE,
    KIND_NAMES_ES,
    STOP,
    TRAVEL,
    components,
)

COLOURS: tuple[str, ...] = components().colours
SPACES = len(components().spaces)
MAX_SEATS = 6
MILLIONS = "M"
DIVIDENDS = "dividends"
UNITS = (MILLIONS, DIVIDENDS)
INVESTOR = "investor"
TARGETS = (INVESTOR, FAMILY)


@dataclass(frozen=True, slots=True)
class PlaceMarker:
    """Place the dollar marker on a board space before the first turn (setup)."""

    space: int
    type: ClassVar[str] = "place_marker"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "space": self.space}

    def text(self) -> str:
        """Return the text form."""
        return f"marker {self.space}"


@dataclass(frozen=True, slots=True)
class Negotiate:
    """Say "¡Vamos a negociar!": start a deal on the marker's space, as its boss."""

    type: ClassVar[str] = "negotiate"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type}

    def text(self) -> str:
        """Return the text form."""
        return "negotiate"


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the die and move the marker clockwise over the free spaces."""

    type: ClassVar[str] = "roll"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type}

    def text(self) -> str:
        """Return the text form."""
        return "roll"


@dataclass(frozen=True, slots=True)
class Draw:
    """After rolling, take influence cards instead of negotiating."""

    type: ClassVar[str] = "draw"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type}

    def text(self) -> str:
        """Return the text form."""
        return "draw"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card of a kind (and colour, for family and travel cards) over the hand limit."""

    kind: str
    colour: str | None = None
    type: ClassVar[str] = "discard"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "card": self.kind, "colour": self.colour}

    def text(self) -> str:
        """Return the text form."""
        return f"discard {self.kind}" + (f" {self.colour}" if self.colour else "")


@dataclass(frozen=True, slots=True)
class PlaceFamily:
    """Place a family card of a colour face up in the deal (a seat that is not the boss then names its price)."""

    colour: str
    type: ClassVar[str] = "place_family"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "colour": self.colour}

    def text(self) -> str:
        """Return the text form."""
        return f"family {self.colour}"


@dataclass(frozen=True, slots=True)
class Offer:
    """A seat that is not the boss offers its colour (investor or placed family card); it then names its price."""

    colour: str
    type: ClassVar[str] = "offer"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "colour": self.colour}

    def text(self) -> str:
        """Return the text form."""
        return f"offer {self.colour}"


@dataclass(frozen=True, slots=True)
class Bid:
    """The boss proposes a price to a seat for its colour; the boss then names the amount."""

    seat: int
    colour: str
    type: ClassVar[str] = "bid"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "seat": self.seat, "colour": self.colour}

    def text(self) -> str:
        """Return the text form."""
        return f"bid {self.seat} {self.colour}"


@dataclass(frozen=True, slots=True)
class Price:
    """The amount of an offer or a bid: ``amount`` millions, or ``amount`` dividends of this deal."""

    amount: int
    unit: str
    type: ClassVar[str] = "price"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "amount": self.amount, "unit": self.unit}

    def text(self) -> str:
        """Return the text form."""
        return f"price {self.amount}M" if self.unit == MILLIONS else f"price {self.amount} dividends"


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the price on the table for ``seat``'s colour (the boss an asked price, a seat the boss's bid)."""

    seat: int
    colour: str
    type: ClassVar[str] = "accept"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "seat": self.seat, "colour": self.colour}

    def text(self) -> str:
        """Return the text form."""
        return f"accept {self.seat} {self.colour}"


@dataclass(frozen=True, slots=True)
class Refuse:
    """Refuse the price on the table for ``seat``'s colour."""

    seat: int
    colour: str
    type: ClassVar[str] = "refuse"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "seat": self.seat, "colour": self.colour}

    def text(self) -> str:
        """Return the text form."""
        return f"refuse {self.seat} {self.colour}"


@dataclass(frozen=True, slots=True)
class Travel:
    """Play a travel card on ``seat``'s investor card or placed family card of ``colour`` (``grey``: a grey card)."""

    target: str
    seat: int
    colour: str
    grey: bool = False
    type: ClassVar[str] = "travel"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "target": self.target, "seat": self.seat, "colour": self.colour, "grey": self.grey}

    def text(self) -> str:
        """Return the text form."""
        return f"travel {self.target} {self.seat} {self.colour}" + (" grey" if self.grey else "")


@dataclass(frozen=True, slots=True)
class Hire:
    """Play a set of three hire cards to take the investor card of ``colour``."""

    colour: str
    type: ClassVar[str] = "hire"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "colour": self.colour}

    def text(self) -> str:
        """Return the text form."""
        return f"hire {self.colour}"


@dataclass(frozen=True, slots=True)
class PlayBoss:
    """Play a boss card ("¡Soy el jefe!"); ``restart``: start the negotiation again, else keep what was agreed."""

    restart: bool
    type: ClassVar[str] = "boss"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type, "restart": self.restart}

    def text(self) -> str:
        """Return the text form."""
        return "boss restart" if self.restart else "boss keep"


@dataclass(frozen=True, slots=True)
class Stop:
    """Play a stop card to cancel the travel card, boss card or hire set just played."""

    type: ClassVar[str] = "stop"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type}

    def text(self) -> str:
        """Return the text form."""
        return "stop"


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the moment go by without acting."""

    type: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type}

    def text(self) -> str:
        """Return the text form."""
        return "pass"


@dataclass(frozen=True, slots=True)
class Close:
    """The boss closes the deal: "Uno, dos, la transacción se ha completado"."""

    type: ClassVar[str] = "close"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type}

    def text(self) -> str:
        """Return the text form."""
        return "close"


@dataclass(frozen=True, slots=True)
class Fail:
    """The boss declares that the deal has failed."""

    type: ClassVar[str] = "fail"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": self.type}

    def text(self) -> str:
        """Return the text form."""
        return "fail"


Move = (
    PlaceMarker
    | Negotiate
    | Roll
    | Draw
    | Discard
    | PlaceFamily
    | Offer
    | Bid
    | Price
    | Accept
    | Refuse
    | Travel
    | Hire
    | PlayBoss
    | Stop
    | Pass
    | Close
    | Fail
)
MOVE_TYPES: tuple[type, ...] = (
    PlaceMarker,
    Negotiate,
    Roll,
    Draw,
    Discard,
    PlaceFamily,
    Offer,
    Bid,
    Price,
    Accept,
    Refuse,
    Travel,
    Hire,
    PlayBoss,
    Stop,
    Pass,
    Close,
    Fail,
)
BY_TYPE: dict[str, type] = {cls.type: cls for cls in MOVE_TYPES}  # type: ignore[attr-defined]

# Shared instances: legal_moves hands these out instead of building new values.
NEGOTIATE = Negotiate()
ROLL = Roll()
DRAW = Draw()
STOP_MOVE = Stop()
PASS = Pass()
CLOSE = Close()
FAIL = Fail()
BOSS_KEEP = PlayBoss(False)
BOSS_RESTART = PlayBoss(True)
MARKERS = tuple(PlaceMarker(i + 1) for i in range(SPACES))
PLACE_FAMILY = tuple(PlaceFamily(c) for c in COLOURS)
OFFERS = tuple(Offer(c) for c in COLOURS)
HIRES = tuple(Hire(c) for c in COLOURS)
BIDS = tuple(tuple(Bid(s, c) for c in COLOURS) for s in range(MAX_SEATS))
ACCEPTS = tuple(tuple(Accept(s, c) for c in COLOURS) for s in range(MAX_SEATS))
REFUSES = tuple(tuple(Refuse(s, c) for c in COLOURS) for s in range(MAX_SEATS))
TRAVELS = {
    (t, s, c, g): Travel(t, s, c, g) for t in TARGETS for s in range(MAX_SEATS) for c in COLOURS for g in (False, True)
}
DISCARDS: dict[tuple[str, str | None], Discard] = {}
for _c in COLOURS:
    DISCARDS[(FAMILY, _c)] = Discard(FAMILY, _c)
    DISCARDS[(TRAVEL, _c)] = Discard(TRAVEL, _c)
DISCARDS[(TRAVEL, GREY)] = Discard(TRAVEL, GREY)
for _k in (BOSS, HIRE, STOP):
    DISCARDS[(_k, None)] = Discard(_k, None)
PRICES_M = tuple(Price(m, MILLIONS) for m in range(0, 200))
PRICES_D = tuple(Price(k, DIVIDENDS) for k in range(0, 20))


# ---------------------------------------------------------------------------------------------
# Parsing

_ACCEPTED = (
    "a move is a JSON object with a 'type' among "
    + ", ".join(BY_TYPE)
    + " (see move_schema()), or a text such as 'negotiate', 'offer rojo', 'price 8M', 'accept 1 rojo' or 'pass'"
)

_COLOUR_ALIASES: dict[str, str] = {}
for _fam in components().families:
    _COLOUR_ALIASES[_fam.id] = _fam.id
    _COLOUR_ALIASES[_fam.english] = _fam.id
    if _fam.id.endswith("o"):
        _COLOUR_ALIASES[_fam.id[:-1] + "a"] = _fam.id  # roja, amarilla
    _COLOUR_ALIASES[_fam.id + "s"] = _fam.id
_COLOUR_ALIASES.update({"gris": GREY, "grey": GREY, "gray": GREY})

_KIND_ALIASES: dict[str, str] = {}
for _kind in CARD_KINDS:
    _KIND_ALIASES[_kind] = _kind
    for _name in KIND_NAMES_ES[_kind]:
        _KIND_ALIASES[_name] = _kind
_KIND_ALIASES.update({"contratacion": HIRE, "empleos": HIRE, "tarjeta": "", "carta": ""})

_VERBS: dict[str, str] = {
    "marker": "place_marker",
    "marcador": "place_marker",
    "place_marker": "place_marker",
    "negotiate": "negotiate",
    "negociar": "negotiate",
    "roll": "roll",
    "tirar": "roll",
    "draw": "draw",
    "robar": "draw",
    "tomar": "draw",
    "discard": "discard",
    "descartar": "discard",
    "family": "place_family",
    "familia": "place_family",
    "tribu": "place_family",
    "clan": "place_family",
    "place_family": "place_family",
    "offer": "offer",
    "ofrecer": "offer",
    "bid": "bid",
    "proponer": "bid",
    "price": "price",
    "precio": "price",
    "accept": "accept",
    "aceptar": "accept",
    "refuse": "refuse",
    "rechazar": "refuse",
    "travel": "travel",
    "viaje": "travel",
    "viajar": "travel",
    "hire": "hire",
    "empleo": "hire",
    "contratacion": "hire",
    "contratar": "hire",
    "boss": "boss",
    "jefe": "boss",
    "stop": "stop",
    "parada": "stop",
    "bloqueo": "stop",
    "pass": "pass",
    "paso": "pass",
    "pasar": "pass",
    "close": "close",
    "cerrar": "close",
    "fail": "fail",
    "fracaso": "fail",
    "fracasar": "fail",
}
_PHRASES = {"vamos a negociar": "negotiate", "uno dos": "close", "soy el jefe": "boss"}
_FILLER = {"seat", "asiento", "jugador", "player", "of", "de", "del", "from", "on", "en", "the", "el", "la", "card"}
_FILLER |= {"carta", "tarjeta", "place", "colocar", "a", "to", "al"}


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"[¡!¿?.,;:\"'()]", " ", text)
    return " ".join(text.split())


def _bad(what: str) -> InvalidMove:
    return InvalidMove(f"{what}; {_ACCEPTED}.")


def _colour(value: Any, field: str = "colour", grey: bool = False) -> str:
    if isinstance(value, str):
        c = _COLOUR_ALIASES.get(_norm(value))
        if c is not None and (c != GREY or grey):
            return c
    accepted = ", ".join(COLOURS) + (f" or {GREY}" if grey else "")
    raise InvalidMove(f"field {field!r} must be a family colour ({accepted}), not {value!r}.")


def _seat(value: Any, field: str = "seat") -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_SEATS:
        return value
    if isinstance(value, str) and value.isdigit() and int(value) < MAX_SEATS:
        return int(value)
    raise InvalidMove(f"field {field!r} must be a seat number from 0 to {MAX_SEATS - 1}, not {value!r}.")


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    raise InvalidMove(f"field {field!r} must be a whole number from {low} to {high}, not {value!r}.")


def _from_json(data: Mapping[str, Any]) -> Any:
    kind = data.get("type")
    cls = BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _bad(f"unknown move type {kind!r}")
    fields = {
        "place_marker": ("space",),
        "discard": ("card", "colour"),
        "place_family": ("colour",),
        "offer": ("colour",),
        "bid": ("seat", "colour"),
        "price": ("amount", "unit"),
        "accept": ("seat", "colour"),
        "refuse": ("seat", "colour"),
        "travel": ("target", "seat", "colour", "grey"),
        "hire": ("colour",),
        "boss": ("restart",),
    }.get(kind, ())
    optional = {"discard": ("colour",), "travel": ("grey",)}.get(kind, ())
    extra = [k for k in data if k != "type" and k not in fields]
    if extra:
        raise InvalidMove(f"a {kind!r} move has the fields {', '.join(fields) or 'none'}, not {', '.join(extra)}.")
    missing = [f for f in fields if f not in data and f not in optional]
    if missing:
        raise InvalidMove(f"a {kind!r} move needs the fields {', '.join(fields)}; missing {', '.join(missing)}.")
    if kind == "place_marker":
        return MARKERS[_int(data["space"], "space", 1, SPACES) - 1]
    if kind == "discard":
        card = data["card"]
        if card not in CARD_KINDS:
            raise InvalidMove(f"field 'card' must be one of {', '.join(CARD_KINDS)}, not {card!r}.")
        colour = data.get("colour")
        return _discard(card, colour)
    if kind in ("place_family", "offer", "hire"):
        c = _colour(data["colour"])
        return {"place_family": PLACE_FAMILY, "offer": OFFERS, "hire": HIRES}[kind][COLOURS.index(c)]
    if kind in ("bid", "accept", "refuse"):
        s, c = _seat(data["seat"]), _colour(data["colour"])
        return {"bid": BIDS, "accept": ACCEPTS, "refuse": REFUSES}[kind][s][COLOURS.index(c)]
    if kind == "price":
        unit = data["unit"]
        if unit not in UNITS:
            raise InvalidMove(f"field 'unit' must be 'M' (millions) or 'dividends', not {unit!r}.")
        if unit == MILLIONS:
            return PRICES_M[_int(data["amount"], "amount", 1, len(PRICES_M) - 1)]
        return PRICES_D[_int(data["amount"], "amount", 1, len(PRICES_D) - 1)]
    if kind == "travel":
        target = data["target"]
        if target not in TARGETS:
            raise InvalidMove(f"field 'target' must be 'investor' or 'family', not {target!r}.")
        grey = data.get("grey", False)
        if not isinstance(grey, bool):
            raise InvalidMove(f"field 'grey' must be true or false, not {grey!r}.")
        return TRAVELS[(target, _seat(data["seat"]), _colour(data["colour"]), grey)]
    if kind == "boss":
        restart = data["restart"]
        if not isinstance(restart, bool):
            raise InvalidMove(f"field 'restart' must be true or false, not {restart!r}.")
        return BOSS_RESTART if restart else BOSS_KEEP
    return {
        "negotiate": NEGOTIATE,
        "roll": ROLL,
        "draw": DRAW,
        "stop": STOP_MOVE,
        "pass": PASS,
        "close": CLOSE,
        "fail": FAIL,
    }[kind]


def _discard(card: str, colour: Any) -> Discard:
    if card in (FAMILY, TRAVEL):
        c = _colour(colour, grey=card == TRAVEL)
        return DISCARDS[(card, c)]
    if colour is not None:
        raise InvalidMove(f"a {card} card has no colour; leave 'colour' out or null, not {colour!r}.")
    return DISCARDS[(card, None)]


def _from_text(raw: str) -> Any:
    text = _norm(raw)
    for phrase, verb in _PHRASES.items():
        if text.startswith(phrase):
            text = verb + text[len(phrase) :]
    words = text.split()
    if not words:
        raise _bad("the move text is empty")
    verb = _VERBS.get(words[0])
    if verb is None and len(words) > 1 and words[0] in ("place", "colocar", "play", "jugar"):
        words = words[1:]
        verb = _VERBS.get(words[0])
    if verb is None:
        raise _bad(f"unknown move {words[0]!r}")
    args = [w for w in words[1:] if w not in _FILLER]
    if verb in ("negotiate", "roll", "draw", "stop", "pass", "close", "fail"):
        if args:
            raise _bad(f"{verb!r} takes no arguments, got {' '.join(args)!r}")
        return _from_json({"type": verb})
    if verb == "place_marker":
        if len(args) != 1 or not args[0].isdigit():
            raise InvalidMove(f"write the marker's space as 'marker N' with N from 1 to {SPACES}, not {raw!r}.")
        return _from_json({"type": verb, "space": int(args[0])})
    if verb == "discard":
        if not args or _KIND_ALIASES.get(args[0]) in (None, ""):
            raise InvalidMove(f"write 'discard KIND [COLOUR]' with KIND among {', '.join(CARD_KINDS)}, not {raw!r}.")
        kind = _KIND_ALIASES[args[0]]
        colour = args[1] if len(args) > 1 else None
        if len(args) > 2:
            raise InvalidMove(f"write 'discard KIND [COLOUR]', not {raw!r}.")
        return _discard(kind, colour)
    if verb in ("place_family", "offer", "hire"):
        if len(args) != 1:
            raise InvalidMove(f"write '{verb.replace('place_', '')} COLOUR' with one colour, not {raw!r}.")
        return _from_json({"type": verb, "colour": args[0]})
    if verb in ("bid", "accept", "refuse"):
        if len(args) != 2:
            raise InvalidMove(f"write '{verb} SEAT COLOUR' (e.g. '{verb} 1 rojo'), not {raw!r}.")
        return _from_json({"type": verb, "seat": _seat(args[0]), "colour": args[1]})
    if verb == "price":
        return _price_text(raw, args)
    if verb == "travel":
        grey = False
        if args and _COLOUR_ALIASES.get(args[-1]) == GREY:
            grey, args = True, args[:-1]
        if len(args) != 3 or args[0] not in ("investor", "inversor", "family", "familia", "tribu", "clan"):
            raise InvalidMove(f"write 'travel investor|family SEAT COLOUR [grey]', not {raw!r}.")
        target = INVESTOR if args[0] in ("investor", "inversor") else FAMILY
        return _from_json({"type": verb, "target": target, "seat": _seat(args[1]), "colour": args[2], "grey": grey})
    # boss
    if len(args) != 1 or args[0] not in ("keep", "mantener", "restart", "reiniciar"):
        raise InvalidMove(
            f"write 'boss keep' or 'boss restart' (Spanish: 'jefe mantener' / 'jefe reiniciar'), not {raw!r}."
        )
    return BOSS_RESTART if args[0] in ("restart", "reiniciar") else BOSS_KEEP


def _price_text(raw: str, args: list[str]) -> Price:
    joined = " ".join(args)
    m = re.fullmatch(r"(\d+)\s*(m|millones|million|millions|millon)", joined)
    if m:
        return _from_json({"type": "price", "amount": int(m.group(1)), "unit": MILLIONS})
    m = re.fullmatch(r"(\d+)\s*(d|div|dividend|dividends|dividendo|dividendos)", joined)
    if m:
        return _from_json({"type": "price", "amount": int(m.group(1)), "unit": DIVIDENDS})
    raise InvalidMove(f"write a price as 'price 8M' (millions) or 'price 2 dividends', not {raw!r}.")


def parse_move(data: Mapping[str, Any] | str) -> Any:
    """Turn a move's JSON object or text form back into a move.

    Raises:
        InvalidMove: malformed input; the message says what is accepted.
    """
    if isinstance(data, str):
        return _from_text(data)
    if isinstance(data, Mapping):
        return _from_json(data)
    raise _bad(f"a move cannot be a {type(data).__name__}")


def move_schema() -> dict[str, Any]:
    """Return the JSON schema (draft 2020-12) that every move's JSON form satisfies.

    Moves of the same shape share one alternative (``"type"`` tells them apart), and
    the most frequent shapes come first, so that validation stays quick.
    """
    colour = {"enum": list(COLOURS), "description": "a family colour"}
    seat = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1, "description": "a seat number (0-based)"}

    def obj(kinds: dict[str, str], **props: Any) -> dict[str, Any]:
        optional = {"grey"} | ({"colour"} if "card" in props else set())  # travel's grey, discard's colour
        required = ["type", *[k for k in props if k not in optional]]
        return {
            "type": "object",
            "description": "; ".join(f"{k}: {v}" for k, v in kinds.items()),
            "properties": {"type": {"enum": list(kinds)}, **props},
            "required": required,
            "additionalProperties": False,
        }

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Yo soy el jefe move",
        "description": "One move; its 'type' says which. Text forms: see the moves module (e.g. 'price 8M').",
        "anyOf": [
            obj(
                {
                    "pass": "let the moment go by",
                    "negotiate": "start a deal on the marker's space (¡Vamos a negociar!)",
                    "roll": "roll the die and move the marker",
                    "draw": "take influence cards",
                    "stop": "play a stop card on the travel card, boss card or hire set just played",
                    "close": "boss: close the deal ('Uno, dos...')",
                    "fail": "boss: declare the deal failed",
                }
            ),
            obj(
                {"price": "the amount of an offer or bid, in millions (M) or in dividends"},
                amount={"type": "integer", "minimum": 1},
                unit={"enum": list(UNITS)},
            ),
            obj(
                {
                    "offer": "offer your colour to the boss (then name a price)",
                    "place_family": "place a family card of a colour in the deal",
                    "hire": "play three hire cards to take the investor of a colour",
                },
                colour=colour,
            ),
            obj(
                {
                    "accept": "accept the price on the table for a seat's colour",
                    "refuse": "refuse the price on the table for a seat's colour",
                    "bid": "boss: propose a price to a seat for its colour (then name it)",
                },
                seat=seat,
                colour=colour,
            ),
            obj(
                {"travel": "play a travel card on an investor or a placed family card"},
                target={"enum": list(TARGETS)},
                seat=seat,
                colour=colour,
                grey={"type": "boolean", "description": "use a grey travel card (default false)"},
            ),
            obj({"boss": "play a boss card; restart or keep the negotiation"}, restart={"type": "boolean"}),
            obj(
                {"discard": "discard a card over the hand limit"},
                card={"enum": list(CARD_KINDS)},
                colour={"enum": [*COLOURS, GREY, None], "description": "for family and travel cards"},
            ),
            obj(
                {"place_marker": "setup: place the dollar marker on a board space"},
                space={"type": "integer", "minimum": 1, "maximum": SPACES},
            ),
        ],
    }
