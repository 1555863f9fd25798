"""Se Vende's moves, declared once with the shared codec (:mod:`club_agentes.engine.core.moves`).

Every decision of the game is one of these moves (compound decisions are split: choose the
card to place, then the cards to pay with, one at a time). JSON form, text form, parser and
schema all come from the declarations below:

=============  ===============================================  =======================
move           JSON                                             text
=============  ===============================================  =======================
ChooseAction   ``{"type": "action", "action": "desarrollar"}``  ``action desarrollar``
Keep           ``{"type": "keep", "card": "SV-C012"}``          ``keep SV-C012``
Discard        ``{"type": "discard", "card": "SV-C012"}``       ``discard SV-C012``
Place          ``{"type": "place", "card": "SV-C012"}``         ``place SV-C012``
Place(None)    ``{"type": "place", "card": null}``              ``place none``
Pay            ``{"type": "pay", "card": "SV-C012"}``           ``pay SV-C012``
Sell           ``{"type": "sell", "world": "SV-C040"}``         ``sell SV-C040``
UsePower       ``{"type": "use", "card": "SV-C020", "power": 1}``  ``use SV-C020 1``
ConsumeGood    ``{"type": "consume", "world": "SV-C040"}``      ``consume SV-C040``
Produce        ``{"type": "produce", "world": "SV-C040"}``      ``produce SV-C040``
Done           ``{"type": "done"}``                             ``done``
=============  ===============================================  =======================

Older forms keep parsing: action cards by printed name (``action Explorar +1/+1``,
``action Consumir: 2x PV``), lowercase card ids, and a few English and Spanish aliases.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from club_agentes.engine.core.errors import InvalidMove
from club_agentes.engine.core.moves import Choice, Ident, Int, Maybe, MoveCodec, spec
from club_agentes.engine.core.text import fold
from club_agentes.engine.se_vende.actions import ACTION_CODES, ACTION_NAMES, ACTION_TAGS, ACTIONS
from club_agentes.engine.se_vende.cards import load_deck

__all__ = [
    "ACTIONS",
    "ACTION_CODES",
    "ACTION_NAMES",
    "ACTION_TAGS",
    "BY_CARD",
    "DONE",
    "MOVES",
    "MOVE_TYPES",
    "PLACE_NONE",
    "ChooseAction",
    "ConsumeGood",
    "Discard",
    "Done",
    "Keep",
    "Pay",
    "Place",
    "Produce",
    "SeVendeMove",
    "Sell",
    "UsePower",
    "action_code",
    "card_moves",
]

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
    return _ALIASES.get(re.sub(r"[^a-z0-9]", "", fold(text)))


@dataclass(frozen=True)
class ActionCard(Choice):
    """An action card: its code (``explorar-1-1``) or printed name (``Explorar +1/+1``), punctuation ignored."""

    def from_json(self, raw: Any, where: str) -> str:
        """Return the action code.

        Raises:
            InvalidMove: not an action card's code or name.
        """
        code = action_code(raw) if isinstance(raw, str) else None
        if code is None:
            raise InvalidMove(f"{where} must be an action card, one of {', '.join(self.values)}; not {raw!r:.60}")
        return code

    def from_text(self, words: Sequence[str], i: int) -> tuple[str, int] | None:
        """Read a code or a printed name of up to four words (``consumir 2x pv``)."""
        for n in (4, 3, 2, 1):
            if i + n <= len(words):
                code = action_code("".join(words[i : i + n]))
                if code is not None:
                    return code, i + n
        return None


DECK = load_deck()
ACTION = ActionCard(
    values=ACTION_CODES,
    description="an action card code: " + ", ".join(f"{c} ({n})" for c, n in ACTION_NAMES.items()),
)
CARD = Ident(
    pattern=r"SV-C\d{3}",
    description=f"a Se Vende card id, from SV-C001 to SV-C{len(DECK.ids):03d}",
    sample="SV-C012",
    known=frozenset(DECK.ids),
)
POWER = Int(description="a power's position among the card's printed powers, from 0", minimum=0, maximum=9)

MOVES = MoveCodec("Se Vende move")


@MOVES.move("action {action}", "Choose this round's action card, sealed until every seat has chosen.")
@dataclass(frozen=True, slots=True)
class ChooseAction:
    """Choose this round's action card (sealed until every seat has chosen)."""

    type: ClassVar[str] = "action"
    action: str = spec(ACTION, "the action card's code")


@MOVES.move("keep {card}", "Explorar: keep one of the cards you drew.")
@dataclass(frozen=True, slots=True)
class Keep:
    """Keep one of the cards drawn while exploring."""

    type: ClassVar[str] = "keep"
    card: str = spec(CARD, "the card to keep, one of those you drew")


@MOVES.move(
    "discard {card}",
    "Discard a card from hand face down (setup step 5, the hand limit, or a power that discards from hand).",
)
@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card from hand face down (setup, hand limit, a consume-from-hand power)."""

    type: ClassVar[str] = "discard"
    card: str = spec(CARD, "the card to discard from your hand")


@MOVES.move(
    "place {card}",
    "Place a development (Desarrollar) or a world (Asentar) from hand, sealed until every seat has chosen; "
    "'place none' places nothing.",
)
@dataclass(frozen=True, slots=True)
class Place:
    """Place a card from hand (sealed until all have chosen); ``card=None`` places nothing."""

    type: ClassVar[str] = "place"
    card: str | None = spec(Maybe(CARD), "the card to place from your hand, or null to place nothing")


@MOVES.move("pay {card}", "Discard one card from hand towards the cost of the card you placed.")
@dataclass(frozen=True, slots=True)
class Pay:
    """Discard one card from hand towards the cost of the card just placed."""

    type: ClassVar[str] = "pay"
    card: str = spec(CARD, "the card to pay with, from your hand")


@MOVES.move("sell {world}", "Consumir: Comercio: sell the good on one of your worlds for cards.")
@dataclass(frozen=True, slots=True)
class Sell:
    """Consumir: Comercio: sell the good on this world of your tableau."""

    type: ClassVar[str] = "sell"
    world: str = spec(CARD, "the world of your tableau whose good you sell")


@MOVES.move("use {card} {power}", "Invoke a consume power of one of your cards (powers are numbered from 0).")
@dataclass(frozen=True, slots=True)
class UsePower:
    """Invoke a consume power: ``power`` is its 0-based position among the card's powers."""

    type: ClassVar[str] = "use"
    card: str = spec(CARD, "the card of your tableau whose power you use")
    power: int = spec(POWER, "the power's position among the card's printed powers, from 0")


@MOVES.move("consume {world}", "Give the good on one of your worlds to the consume power in use.")
@dataclass(frozen=True, slots=True)
class ConsumeGood:
    """Give the good on this world to the consume power in use."""

    type: ClassVar[str] = "consume"
    world: str = spec(CARD, "the world of your tableau whose good is consumed")


@MOVES.move("produce {world}", "Producir: put a good on one of your empty windfall worlds.")
@dataclass(frozen=True, slots=True)
class Produce:
    """Producir: put a good on this empty windfall world (the chooser's bonus or a power)."""

    type: ClassVar[str] = "produce"
    world: str = spec(CARD, "the empty windfall world of your tableau that gets a good")


@MOVES.move("done", "Stop: finish consuming, end a power that discards from hand, or decline a windfall production.")
@dataclass(frozen=True, slots=True)
class Done:
    """Stop: finish consuming, end a consume-from-hand power, or decline a windfall production."""

    type: ClassVar[str] = "done"


SeVendeMove = ChooseAction | Keep | Discard | Place | Pay | Sell | UsePower | ConsumeGood | Produce | Done
"""Any Se Vende move."""

MOVE_TYPES: tuple[type, ...] = (ChooseAction, Keep, Discard, Place, Pay, Sell, UsePower, ConsumeGood, Produce, Done)

PLACE_NONE = Place(None)
"""Place nothing this phase (se-vende/preguntas/no-colocar-nada)."""

DONE = Done()

BY_CARD: dict[type, tuple[Any, ...]] = {
    cls: tuple(MOVES.intern(cls, cid) for cid in DECK.ids)
    for cls in (Keep, Discard, Place, Pay, Sell, ConsumeGood, Produce)
}
"""Move class -> its move for each card number (``BY_CARD[Keep][c]`` is ``Keep(ids[c])``), built once."""


def card_moves(cls: type, cards: Iterable[int]) -> list[Any]:
    """Return ``cls``'s move for each of ``cards`` (card numbers), in their order, from :data:`BY_CARD`."""
    table = BY_CARD[cls]
    return [table[c] for c in cards]
