"""Moves of Yo soy el jefe, declared once on the shared codec (:mod:`club_agentes.engine.core.moves`).

Every act the rulebook allows is one move; the codec derives each move's JSON form, text form,
parser and JSON schema from its declaration. A price is named in two steps: first what it is for
(:class:`Offer` by a seat for its own colour, :class:`Bid` by the boss for another seat's colour),
then the amount (:class:`Price`), so that a seat's list of legal moves stays short.

Text forms (English; the rulebook's Spanish words and the older forms such as ``accept 1 rojo``
are read too)::

    marker 9              negotiate             roll                  draw
    discard hire          discard family rojo   discard travel gris
    family rojo           offer rojo            bid seat 1 rojo       price 8M / price 2 dividends
    accept seat 1 rojo    accept seat 1 rojo and close              refuse seat 3 verde
    withdraw seat 1 rojo  travel investor seat 0 azul [grey]        travel family seat 3 azul [grey]
    hire amarillo         boss keep / boss restart                  stop    pass    close    fail
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from club_agentes.engine.core.errors import InvalidMove
from club_agentes.engine.core.moves import Choice, FieldKind, Flag, Int, Maybe, MoveCodec, Seat, spec
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
MAX_AMOUNT = 99
"""The largest amount a price may name (no deal pays more than 7 dividends of 6M = 42M)."""

_COLOUR_ALIASES: dict[str, str] = {}
for _fam in components().families:
    _COLOUR_ALIASES[_fam.english] = _fam.id
    _COLOUR_ALIASES[_fam.id + "s"] = _fam.id
    if _fam.id.endswith("o"):
        _COLOUR_ALIASES[_fam.id[:-1] + "a"] = _fam.id  # roja, amarilla
        _COLOUR_ALIASES[_fam.id[:-1] + "as"] = _fam.id
_KIND_ALIASES: dict[str, str] = {name: kind for kind in CARD_KINDS for name in KIND_NAMES_ES[kind]}
_KIND_ALIASES.update({"contratacion": HIRE, "empleos": HIRE, "contrataciones": HIRE, "paradas": STOP})

COLOUR = Choice(COLOURS, "a family colour", _COLOUR_ALIASES)
CARD_COLOUR = Choice(
    (*COLOURS, GREY),
    "a family colour, or gris for a grey travel card",
    {
        **_COLOUR_ALIASES,
        "grey": GREY,
        "gray": GREY,
    },
)
KIND = Choice(CARD_KINDS, "an influence card kind", _KIND_ALIASES)
TARGET = Choice(
    TARGETS,
    "what the travel card is played on: an investor card or a placed family card",
    {"inversor": INVESTOR, "inversionista": INVESTOR, "familia": FAMILY, "tribu": FAMILY, "clan": FAMILY},
)
SEAT = Seat(maximum=MAX_SEATS - 1)
_MILLION_WORDS = ("m", "millon", "millones", "million", "millions", "mill")
_DIVIDEND_WORDS = ("d", "div", "dividend", "dividends", "dividendo", "dividendos")
_UNIT_OF = {**{w: MILLIONS for w in _MILLION_WORDS}, **{w: DIVIDENDS for w in _DIVIDEND_WORDS}}


@dataclass(frozen=True)
class Amount(Int):
    """A price's amount: ``8`` before a unit word, or ``8M`` / ``2d`` with the unit attached (read by :class:`Unit`)."""

    description: str = "how many millions or dividends"
    minimum: int = 1
    maximum: int | None = MAX_AMOUNT

    def from_text(self, words: Sequence[str], i: int) -> tuple[int, int] | None:
        """Read ``8`` (then the next word is the unit) or ``8m`` (the unit is read from the same word)."""
        if i >= len(words):
            return None
        m = re.fullmatch(r"(\d{1,3})([a-z]*)", words[i])
        if m is None or (m.group(2) and m.group(2) not in _UNIT_OF):
            return None
        value = int(m.group(1))
        if value < self.minimum or (self.maximum is not None and value > self.maximum):
            return None
        return (value, i) if m.group(2) else (value, i + 1)


@dataclass(frozen=True)
class Unit(FieldKind):
    """A price's unit: ``M`` (millions) or ``dividends`` (whole dividends of this deal)."""

    description: str = "M (millions) or dividends (whole dividends of this deal)"

    def schema(self) -> dict[str, Any]:
        """Return the enum of the two units."""
        return {"type": "string", "enum": list(UNITS), "description": self.description}

    def from_json(self, raw: Any, where: str) -> str:
        """Return ``"M"`` or ``"dividends"``.

        Raises:
            InvalidMove: any other value.
        """
        unit = _UNIT_OF.get(raw.strip().lower()) if isinstance(raw, str) else None
        if unit is None:
            raise InvalidMove(f"{where} must be 'M' (millions) or 'dividends', not {str(raw)[:40]!r}")
        return unit

    def from_text(self, words: Sequence[str], i: int) -> tuple[str, int] | None:
        """Read a unit word, or the unit attached to an amount (``8m``)."""
        if i >= len(words):
            return None
        m = re.fullmatch(r"\d{0,3}([a-z]+)", words[i])
        unit = _UNIT_OF.get(m.group(1)) if m else None
        return (unit, i + 1) if unit is not None else None

    def example(self) -> str:
        """Return ``"M"``."""
        return MILLIONS


@dataclass(frozen=True)
class KeepOrRestart(FieldKind):
    """A boss card's choice: keep the negotiation as it stands (``false``) or restart it (``true``)."""

    description: str = "true: restart the negotiation from the beginning; false: keep it as it stands"

    def schema(self) -> dict[str, Any]:
        """Return ``{"type": "boolean"}``."""
        return {"type": "boolean", "description": self.description}

    def from_json(self, raw: Any, where: str) -> bool:
        """Return the boolean.

        Raises:
            InvalidMove: not true or false.
        """
        if not isinstance(raw, bool):
            raise InvalidMove(f"{where} must be true (restart) or false (keep), not {str(raw)[:40]!r}")
        return raw

    def from_text(self, words: Sequence[str], i: int) -> tuple[bool, int] | None:
        """Read ``keep``/``mantener`` or ``restart``/``reiniciar``."""
        if i >= len(words):
            return None
        if words[i] in ("keep", "mantener", "mantiene", "seguir"):
            return False, i + 1
        if words[i] in ("restart", "reiniciar", "reinicia", "reset"):
            return True, i + 1
        return None

    def to_text(self, value: Any) -> str:
        """Return ``restart`` or ``keep``."""
        return "restart" if value else "keep"

    def example(self) -> bool:
        """Return ``False`` (keep)."""
        return False


MOVES = MoveCodec(
    "Yo soy el jefe move",
    filler=(
        *("of", "de", "del", "from", "on", "en", "the", "el", "la", "card", "carta", "tarjeta", "a", "to", "al"),
        *("and", "y", "then", "luego"),
    ),
    phrases={
        "uno dos la transaccion se ha completado": "close",
        "uno dos el trato esta hecho": "close",
        "uno dos": "close",
        "vamos a negociar": "negotiate",
        "yo soy el jefe": "boss",
        "soy el jefe": "boss",
        "place family": "family",
        "place marker": "marker",
        "colocar familia": "family",
        "play hire": "hire",
        "play travel": "travel",
        "play boss": "boss",
        "play stop": "stop",
    },
)


@MOVES.move(
    "marker {space}",
    "Setup: the seat to the first player's right places the dollar marker on a board space.",
    aliases=("marcador", "place_marker"),
)
@dataclass(frozen=True, slots=True)
class PlaceMarker:
    """Place the dollar marker on a board space before the first turn (setup)."""

    type: ClassVar[str] = "place_marker"
    space: int = spec(Int("a board space, 1 to 16", minimum=1, maximum=SPACES))


@MOVES.move(
    "negotiate",
    "Say '¡Vamos a negociar!': start a deal on the marker's space, as its boss.",
    aliases=("negociar", "negotiation"),
)
@dataclass(frozen=True, slots=True)
class Negotiate:
    """Say "¡Vamos a negociar!": start a deal on the marker's space, as its boss."""

    type: ClassVar[str] = "negotiate"


@MOVES.move("roll", "Roll the die and move the marker clockwise over the free spaces.", aliases=("tirar", "dado"))
@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the die and move the marker clockwise over the free spaces."""

    type: ClassVar[str] = "roll"


@MOVES.move("draw", "After rolling, take influence cards instead of negotiating.", aliases=("robar", "tomar"))
@dataclass(frozen=True, slots=True)
class Draw:
    """After rolling, take influence cards instead of negotiating."""

    type: ClassVar[str] = "draw"


@MOVES.move(
    "discard {kind} [{colour}]",
    "Over the hand limit: discard one influence card of a kind (and colour).",
    aliases=("descartar",),
)
@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card of a kind (and colour, for family and travel cards) over the hand limit."""

    type: ClassVar[str] = "discard"
    kind: str = spec(KIND, "the kind of card to discard", json="card")
    colour: str | None = spec(
        Maybe(CARD_COLOUR, description="the colour, for a family or travel card (gris: a grey travel card)"),
        default=None,
        example="rojo",
    )

    def __post_init__(self) -> None:
        if self.kind in (FAMILY, TRAVEL):
            if self.colour is None or (self.kind == FAMILY and self.colour == GREY):
                allowed = "a family colour" + (" or gris" if self.kind == TRAVEL else "")
                raise InvalidMove(
                    f"a discarded {self.kind} card needs its colour ({allowed}), e.g. 'discard {self.kind} rojo'"
                )
        elif self.colour is not None:
            raise InvalidMove(f"a {self.kind} card has no colour; write 'discard {self.kind}'")


@MOVES.move(
    "family {colour}",
    "Place a family card of a colour face up in the deal (the boss's stands in for the "
    "investor; another seat's proposes taking part).",
    aliases=("familia", "tribu", "clan", "place_family"),
)
@dataclass(frozen=True, slots=True)
class PlaceFamily:
    """Place a family card of a colour face up in the deal."""

    type: ClassVar[str] = "place_family"
    colour: str = spec(COLOUR)


@MOVES.move(
    "offer {colour}",
    "A seat that is not the boss offers its colour to the boss; it names its price next.",
    aliases=("ofrecer", "ask", "pedir", "exigir"),
)
@dataclass(frozen=True, slots=True)
class Offer:
    """A seat that is not the boss states (or changes) its demand for a colour it represents; a price follows."""

    type: ClassVar[str] = "offer"
    colour: str = spec(COLOUR)


@MOVES.move(
    "bid {seat} {colour}",
    "The boss proposes a price to a seat for its colour; the boss names it next.",
    aliases=("proponer",),
)
@dataclass(frozen=True, slots=True)
class Bid:
    """The boss proposes (or changes) a price to a seat for its colour; the amount follows."""

    type: ClassVar[str] = "bid"
    seat: int = spec(SEAT, "the seat the boss proposes a price to")
    colour: str = spec(COLOUR)


@MOVES.move(
    "price {amount} {unit}",
    "The amount of the offer or bid just made: whole millions, or whole dividends of this deal.",
    aliases=("precio",),
)
@dataclass(frozen=True, slots=True)
class Price:
    """The amount of an offer or a bid: ``amount`` millions, or ``amount`` dividends of this deal."""

    type: ClassVar[str] = "price"
    amount: int = spec(Amount(), example=8)
    unit: str = spec(Unit())

    def text(self) -> str:
        """Return ``price 8M`` or ``price 2 dividends``."""
        return f"price {self.amount}M" if self.unit == MILLIONS else f"price {self.amount} dividends"


@MOVES.move(
    "accept {seat} {colour} [{close}]",
    "Accept the price standing for a seat's colour (the boss an "
    "asked price, a seat the boss's proposal); the boss may accept and close at once.",
    aliases=("aceptar",),
)
@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the price standing for ``seat``'s colour; ``close``: the boss closes the deal in the same breath."""

    type: ClassVar[str] = "accept"
    seat: int = spec(SEAT, "the seat whose colour takes part")
    colour: str = spec(COLOUR)
    close: bool = spec(
        Flag("close", "the boss closes the deal at once ('Uno, dos...') after accepting", aliases=("cerrar",)),
        default=False,
    )

    def text(self) -> str:
        """Return ``accept seat 1 rojo`` or ``accept seat 1 rojo and close``."""
        return f"accept seat {self.seat} {self.colour}" + (" and close" if self.close else "")


@MOVES.move("refuse {seat} {colour}", "Refuse the price standing for a seat's colour.", aliases=("rechazar",))
@dataclass(frozen=True, slots=True)
class Refuse:
    """Refuse the price standing for ``seat``'s colour (named by the other side)."""

    type: ClassVar[str] = "refuse"
    seat: int = spec(SEAT, "the seat whose colour the price is for")
    colour: str = spec(COLOUR)


@MOVES.move(
    "withdraw {seat} {colour}",
    "Withdraw the price you named for a seat's colour, before it is accepted.",
    aliases=("retirar",),
)
@dataclass(frozen=True, slots=True)
class Withdraw:
    """Withdraw a price you named for ``seat``'s colour (your own demand, or the boss's proposal) before acceptance."""

    type: ClassVar[str] = "withdraw"
    seat: int = spec(SEAT, "the seat whose colour the price is for (a seat's own demand: itself)")
    colour: str = spec(COLOUR)


@MOVES.move(
    "travel {target} {seat} {colour} [{grey}]",
    "Play a travel card on a seat's investor card or placed family card of a colour (grey: a grey travel card).",
    aliases=("viaje", "viajar"),
)
@dataclass(frozen=True, slots=True)
class Travel:
    """Play a travel card on ``seat``'s investor card or placed family card of ``colour``."""

    type: ClassVar[str] = "travel"
    target: str = spec(TARGET)
    seat: int = spec(SEAT, "the seat that holds the investor card or placed the family card")
    colour: str = spec(COLOUR)
    grey: bool = spec(
        Flag("grey", "use a grey travel card (default: one of the colour)", aliases=("gris", "gray")), default=False
    )


@MOVES.move(
    "hire {colour}",
    "Play a set of three hire cards to take the investor card of a colour.",
    aliases=("empleo", "contratacion", "contratar", "emplear"),
)
@dataclass(frozen=True, slots=True)
class Hire:
    """Play a set of three hire cards to take the investor card of ``colour``."""

    type: ClassVar[str] = "hire"
    colour: str = spec(COLOUR)


@MOVES.move(
    "boss {restart}",
    "Play a boss card ('¡Soy el jefe!'): become the boss, keeping the negotiation as it stands or restarting it.",
    aliases=("jefe",),
)
@dataclass(frozen=True, slots=True)
class PlayBoss:
    """Play a boss card ("¡Soy el jefe!"); ``restart``: start the negotiation again, else keep what stands."""

    type: ClassVar[str] = "boss"
    restart: bool = spec(KeepOrRestart())


@MOVES.move(
    "stop",
    "Play a stop card to cancel the travel card, boss card or hire set just played.",
    aliases=("parada", "bloqueo"),
)
@dataclass(frozen=True, slots=True)
class Stop:
    """Play a stop card to cancel the travel card, boss card or hire set just played."""

    type: ClassVar[str] = "stop"


@MOVES.move("pass", "Let the moment go by: answer the last change without acting.", aliases=("paso", "pasar", "wait"))
@dataclass(frozen=True, slots=True)
class Pass:
    """Let the moment go by without acting."""

    type: ClassVar[str] = "pass"


@MOVES.move("close", "The boss closes the deal: 'Uno, dos, la transacción se ha completado'.", aliases=("cerrar",))
@dataclass(frozen=True, slots=True)
class Close:
    """The boss closes the deal: "Uno, dos, la transacción se ha completado"."""

    type: ClassVar[str] = "close"


@MOVES.move("fail", "The boss declares that the deal has failed.", aliases=("fracaso", "fracasar"))
@dataclass(frozen=True, slots=True)
class Fail:
    """The boss declares that the deal has failed."""

    type: ClassVar[str] = "fail"


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
    | Withdraw
    | Travel
    | Hire
    | PlayBoss
    | Stop
    | Pass
    | Close
    | Fail
)
"""Every move of the game (a union of the declared move types)."""

MOVE_TYPES: tuple[type, ...] = tuple(mt.cls for mt in MOVES.types.values())
BY_TYPE: dict[str, type] = {tag: mt.cls for tag, mt in MOVES.types.items()}

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
ACCEPTS_CLOSE = tuple(tuple(Accept(s, c, True) for c in COLOURS) for s in range(MAX_SEATS))
REFUSES = tuple(tuple(Refuse(s, c) for c in COLOURS) for s in range(MAX_SEATS))
WITHDRAWS = tuple(tuple(Withdraw(s, c) for c in COLOURS) for s in range(MAX_SEATS))
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
PRICES_M = tuple(Price(m, MILLIONS) if m else None for m in range(MAX_AMOUNT + 1))
PRICES_D = tuple(Price(k, DIVIDENDS) if k else None for k in range(MAX_AMOUNT + 1))


def parse_move(data: Any) -> Any:
    """Turn a move's JSON object or text form back into a move (the codec's parser).

    Raises:
        InvalidMove: malformed input; the message says what is accepted.
    """
    return MOVES.parse(data)


def move_schema() -> dict[str, Any]:
    """Return the JSON schema (draft 2020-12) that every move's JSON form satisfies (the codec's schema)."""
    return MOVES.schema()
