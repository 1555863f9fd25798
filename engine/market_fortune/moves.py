"""Market Fortune's moves, declared once on the shared codec (:mod:`club_agentes.engine.core.moves`).

Every move has a ``"type"`` tag. Compound actions are split so each choice stays small:
Construir is ``build`` (choose the source) then ``discard``; an optimisation is ``optimise``
(choose the swap) then ``discard`` (its cost); a declaration is ``declare``, then ``attach``
greens and ``reveal``. Card fields hold card ids such as ``"MF-A-ENE-3"``; investment fields
hold 0-based indexes in their owner's portfolio; seats are written ``seat 2`` in text.

JSON form, text form, parser and JSON schema all come from the declarations below. Shorter
text forms parse too: ``attach MF-E-INNOVACION-1 2``, ``optimise 0 MF-A-ENE-5``, ``return 3``
(the optional words of the templates). Spanish verbs are read too (``construir``,
``arriesgar``, ``dominar``...).

Move values are interned by the codec (:meth:`MoveCodec.intern`): the legal-move lists
reuse the same instances, so listing allocates little.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from club_agentes.engine.core.moves import Choice, Ident, Int, Maybe, MoveCodec, Seat, spec
from club_agentes.engine.market_fortune.components import CARD_INDEX

# Where a building card can be taken from. "strategy-discard" is accepted by the parser
# only so that the engine can refuse it with the rule that forbids it.
SOURCES: tuple[str, ...] = ("stock-deck", "return-deck", "stock-discard", "return-discard", "strategy-discard")
BUILDING_SOURCES: tuple[str, ...] = SOURCES[:4]
DECK_SOURCES: tuple[str, ...] = SOURCES[:2]
SOURCE_WORDS = {
    "stock-deck": "the $ deck",
    "return-deck": "the +R deck",
    "stock-discard": "the $ discard pile",
    "return-discard": "the +R discard pile",
    "strategy-discard": "the strategy discard pile",
}
_SOURCE_ALIASES = {
    "$ deck": "stock-deck",
    "mazo $": "stock-deck",
    "stock deck": "stock-deck",
    "+r deck": "return-deck",
    "mazo +r": "return-deck",
    "return deck": "return-deck",
    "$ discard": "stock-discard",
    "descarte $": "stock-discard",
    "stock discard": "stock-discard",
    "+r discard": "return-discard",
    "descarte +r": "return-discard",
    "return discard": "return-discard",
    "descarte de estrategias": "strategy-discard",
    "strategy discard": "strategy-discard",
}

SOURCE = Choice(SOURCES, "where the card is taken from", _SOURCE_ALIASES)
CARD = Ident(
    r"MF-(?:A|R)-[A-Z]{3}-[1-5]|MF-E-[A-Z]{3,16}-[1-9]",
    "a card id such as MF-A-ENE-3 (Acción), MF-R-TEC-5 (Rendimiento) or MF-E-ROBO-1 (Estrategia)",
    "MF-A-ENE-3",
    known=CARD_INDEX,
)
INVESTMENT = Int("an investment's index (0-based) in its owner's portfolio")

MOVES = MoveCodec(
    "Market Fortune move",
    filler=("the", "el", "la"),
    phrases={"no defender": "decline", "declarar victoria": "declare", "declare victory": "declare"},
)


@MOVES.move(
    "build {source}",
    "Construir: take 1 building card from a source (then discard 1 if you hold more than 8).",
    aliases=("construir",),
)
@dataclass(frozen=True, slots=True)
class Build:
    """Construir, first half: take 1 building card from ``source``."""

    type: ClassVar[str] = "build"
    source: str = spec(SOURCE, "where the card is taken from: a deck or the top of a $ or +R discard pile")


@MOVES.move(
    "take {source}",
    "Take 1 building card for a strategy in progress (Comprar Más, Rescate).",
    aliases=("tomar",),
)
@dataclass(frozen=True, slots=True)
class Take:
    """Take 1 building card from ``source`` for a strategy (Comprar Más, Rescate)."""

    type: ClassVar[str] = "take"
    source: str = spec(SOURCE, "where the card is taken from")


@MOVES.move("discard {card}", "Discard 1 building card ($ or +R) from your hand.", aliases=("descartar",))
@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one building card from the hand (Construir, an optimisation's cost, the rule of 8)."""

    type: ClassVar[str] = "discard"
    card: str = spec(CARD, "the building card of your hand to discard, e.g. MF-A-ENE-1")


@MOVES.move(
    "risk {stock} {ret}",
    "Arriesgar: form an investment from 1 $ and 1 +R of the same industry, then the die is rolled.",
    aliases=("arriesgar",),
)
@dataclass(frozen=True, slots=True)
class Risk:
    """Arriesgar: form an investment from 1 $ (``stock``) and 1 +R (``ret``) of one industry."""

    type: ClassVar[str] = "risk"
    stock: str = spec(CARD, "the Acción ($) card id, e.g. MF-A-ENE-3")
    ret: str = spec(CARD, "the Rendimiento (+R) card id, e.g. MF-R-ENE-2", json="return", example="MF-R-ENE-2")


@MOVES.move("dominate", "Dominar: take 1 strategy from the strategy deck.", aliases=("dominar",))
@dataclass(frozen=True, slots=True)
class Dominate:
    """Dominar: take 1 strategy from the deck."""

    type: ClassVar[str] = "dominate"


@MOVES.move(
    "play {card} [against {target}] [investment {investment}] [swap {swap}] [from {source}]",
    "Play a red strategy on your turn; which of the optional parts a card takes is in its card text.",
    aliases=("jugar", "usar"),
)
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

    type: ClassVar[str] = "play"
    card: str = spec(CARD, "the red strategy's card id, e.g. MF-E-ROBO-1", example="MF-E-CORRECCION-1")
    target: int | None = spec(Maybe(Seat()), "the attacked rival's seat (one-rival attacks)", default=None)
    investment: int | None = spec(
        Maybe(INVESTMENT),
        "an investment index: the rival's (Corrección) or your own (Interés Compuesto)",
        default=None,
    )
    swap: str | None = spec(
        Maybe(CARD),
        "a building card of your hand: the +R put into your investment (Interés Compuesto) or the card you give "
        "(Movimiento Astuto)",
        default=None,
    )
    source: str | None = spec(
        Maybe(SOURCE), "the discard pile you take the top card from (Movimiento Astuto)", default=None
    )


@MOVES.move("defend {card}", "Cancel the attack against you with a blue strategy.", aliases=("defender",))
@dataclass(frozen=True, slots=True)
class Defend:
    """Answer an attack with a blue strategy."""

    type: ClassVar[str] = "defend"
    card: str = spec(CARD, "the blue strategy's card id, e.g. MF-E-CONTROL-1", example="MF-E-CONTROL-1")


@MOVES.move("decline", "Do not defend; the attack hits you.", aliases=("rechazar",))
@dataclass(frozen=True, slots=True)
class Decline:
    """Do not defend: the attack hits you."""

    type: ClassVar[str] = "decline"


@MOVES.move(
    "optimise [investment] {investment} [with] {card}",
    "Swap a hand card into a face-down investment ($ for $, +R for +R, same industry); then pay 1 discard.",
    aliases=("optimize", "optimizar"),
)
@dataclass(frozen=True, slots=True)
class Optimise:
    """Optimisation, first half: put ``card`` from the hand into ``investment`` (same type and industry)."""

    type: ClassVar[str] = "optimise"
    investment: int = spec(INVESTMENT, "the index (0-based) of your face-down investment")
    card: str = spec(CARD, "the building card of your hand put into the investment, e.g. MF-A-ENE-5")


@MOVES.move(
    "attach {card} [to] [investment] {investment}",
    "Attach a green strategy to one of your face-down investments (one green per investment).",
    aliases=("unir",),
)
@dataclass(frozen=True, slots=True)
class Attach:
    """Attach a green strategy to one of your investments."""

    type: ClassVar[str] = "attach"
    card: str = spec(CARD, "the green strategy's card id, e.g. MF-E-INNOVACION-1", example="MF-E-INNOVACION-1")
    investment: int = spec(INVESTMENT, "the index (0-based) of your investment")


@MOVES.move("declare", "Declare victory with 4 investments (Fortuna, Campeonato).", aliases=("declarar",))
@dataclass(frozen=True, slots=True)
class Declare:
    """Declare victory (Fortuna, Campeonato)."""

    type: ClassVar[str] = "declare"


@MOVES.move(
    "reveal", "Finish the declaration: flip your portfolio, reveal your yellows and count.", aliases=("revelar",)
)
@dataclass(frozen=True, slots=True)
class Reveal:
    """Close a declaration: flip the portfolio, reveal the yellows and count."""

    type: ClassVar[str] = "reveal"


@MOVES.move(
    "return [investment] {investment}",
    "After a failed declaration, return one investment to your hand.",
    aliases=("devolver", "regresar"),
)
@dataclass(frozen=True, slots=True)
class Return:
    """After a failed declaration: return one investment to the hand."""

    type: ClassVar[str] = "return"
    investment: int = spec(INVESTMENT, "the index (0-based) of the investment that returns to your hand")


@MOVES.move(
    "skip",
    "Decline an optional step (attach nothing, do not declare, keep the red card just drawn).",
    aliases=("saltar", "omitir", "keep", "guardar"),
)
@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional step: attach no green, do not declare, keep the red just drawn."""

    type: ClassVar[str] = "skip"


@MOVES.move("pass", "End the turn without an action (only when no action is possible).", aliases=("pasar",))
@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without an action; legal only when no action is possible."""

    type: ClassVar[str] = "pass"


Move = (
    Build
    | Take
    | Discard
    | Risk
    | Dominate
    | Play
    | Defend
    | Decline
    | Optimise
    | Attach
    | Declare
    | Reveal
    | Return
    | Skip
    | Pass
)
"""Any Market Fortune move."""

MOVE_TYPES: dict[str, type] = {tag: mt.cls for tag, mt in MOVES.types.items()}
MOVE_CLASSES = frozenset(MOVE_TYPES.values())

DOMINATE = MOVES.intern(Dominate)
DECLINE = MOVES.intern(Decline)
DECLARE = MOVES.intern(Declare)
REVEAL = MOVES.intern(Reveal)
SKIP = MOVES.intern(Skip)
PASS = MOVES.intern(Pass)


def intern(cls: type[Any], *args: Any) -> Any:
    """Return the shared instance of ``cls(*args)`` (moves are immutable values)."""
    return MOVES.intern(cls, *args)


def parse_move(data: Any) -> Any:
    """Turn a move's JSON object or text form (or a move) into the move.

    Raises:
        InvalidMove: malformed input (unknown type, missing or mistyped field, unknown card id
            or source); the message says what is accepted.
    """
    return MOVES.parse(data)
