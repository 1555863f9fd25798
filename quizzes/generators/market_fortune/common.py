"""What the Market Fortune templates share: the engine, section ids, card names in Spanish, a turn driver.

Situations are built with the engine's public scenario builder
(:func:`club_agentes.engine.market_fortune.scenario.position`) and played with the engine's
``legal_moves``/``apply``; answers are read from its ``view`` and ``result``. Cards are named by
their ids; :func:`card` writes one with its article ("la Acción Energía 3M", "el Rendimiento
Energía +2M", "Robo").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from club_agentes.engine.core import Event, Game, IllegalMove, Rng, get_game
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_IND,
    CARD_INDEX,
    CARD_NAME,
    CARD_STRAT,
    CARD_TYPE,
    CARD_VAL,
    INDUSTRIES,
    STRATEGIES,
    StrategyDef,
)
from club_agentes.quizzes.model import Redraw
from club_agentes.quizzes.wording import join

GAME = "market-fortune"
P = GAME + "/"
PREPARACION = P + "cap-1/preparacion"
DESCARTE = P + "cap-2/regla-critica-de-descarte"
OCHO = P + "cap-2/regla-8-cartas"
TURNO = P + "cap-2/tu-turno"
MOMENTUM = P + "cap-2/regla-de-momentum"
VICTORIA = P + "cap-2/condicion-de-victoria"
INVERSION = P + "cap-3"
OPTIMIZACION = P + "cap-3/optimizacion-del-portafolio"
COLORES = P + "cap-4"
ROJA = P + "cap-4/roja"
AZUL = P + "cap-4/azul"
VERDE = P + "cap-4/verde"
AMARILLA = P + "cap-4/amarilla"
COMBATE = P + "cap-4/sistema-de-combate"
CIERRE = P + "cap-5/cierre-del-mercado"
DECLARAR = P + "cap-5/declarar-victoria"
LIDER = P + "cap-5/terminos-del-mercado/lider"
ULTIMO = P + "cap-5/terminos-del-mercado/ir-de-ultimo"
AVANZADO = P + "cap-5/terminos-del-mercado/igual-o-mas-avanzado"
CONSTRUCCION = P + "cap-5/terminos-del-mercado/cartas-de-construccion"
FAMILIA = P + "cap-6/familia"
FORTUNA = P + "cap-6/fortuna"
CAMPEONATO = P + "cap-6/campeonato"
DADO = P + "referencia-rapida/dado-fortune"
VALORES = P + "referencia-rapida/valores-clave"
FAQ_GUARDADA = P + "faq/estrategia-guardada"
FAQ_SIN_25 = P + "faq/cuarta-inversion-sin-25m"
FAQ_OPTIMIZAR = P + "faq/optimizar-antes-de-revelar"
FAQ_COLAPSO = P + "faq/colapso-de-mercado"
FAQ_DESCARTE = P + "faq/descarte-de-estrategias"
GLOSARIO_MOMENTUM = P + "faq/glosario/momentum"
RULINGS = P + "rulings/"

STOCK_IDS: tuple[str, ...] = tuple(CARD_ID[c] for c in range(len(CARD_ID)) if CARD_TYPE[c] == 0)
RETURN_IDS: tuple[str, ...] = tuple(CARD_ID[c] for c in range(len(CARD_ID)) if CARD_TYPE[c] == 1)
BY_NAME: dict[str, StrategyDef] = {s.name: s for s in STRATEGIES}
COLOUR_NAMES = {"roja": "Roja", "azul": "Azul", "verde": "Verde", "amarilla": "Amarilla"}


@cache
def engine() -> Game:
    """Return the installed Market Fortune engine.

    Raises:
        UnknownGame: the game is not installed.
    """
    return get_game(GAME)


# --------------------------------------------------------------------------- cards in words


def card(cid: str) -> str:
    """Write a card with its article: ``"la Acción Energía 3M"``, ``"el Rendimiento Salud +2M"``, ``"Robo"``."""
    c = CARD_INDEX[cid]
    if CARD_TYPE[c] == 0:
        return f"la {CARD_NAME[c]}"
    if CARD_TYPE[c] == 1:
        return f"el {CARD_NAME[c]}"
    strategy = CARD_STRAT[c]
    assert strategy is not None
    return strategy.name


def cards(ids: Iterable[str]) -> str:
    """Write several cards as a Spanish list (``"la Acción ..., el Rendimiento ... y ..."``)."""
    return join([card(c) for c in ids])


def value(cid: str) -> int:
    """Return a building card's value in millions."""
    return CARD_VAL[CARD_INDEX[cid]]


def industry(cid: str) -> str:
    """Return a building card's industry name."""
    return INDUSTRIES[CARD_IND[CARD_INDEX[cid]]].name


def strategy_id(name: str, copy: int = 1) -> str:
    """Return the id of copy ``copy`` of the strategy called ``name`` (``"Robo"`` -> ``"MF-E-ROBO-1"``)."""
    return BY_NAME[name].card_ids()[copy - 1]


def colour_of(name: str) -> str:
    """Return a strategy's colour as the engine's data has it (``"roja"``...)."""
    return BY_NAME[name].colour


def building_cards(rng: Rng, k: int, avoid: Iterable[str] = ()) -> list[str]:
    """Return ``k`` distinct random building card ids ($ or +R) not in ``avoid``."""
    pool = [c for c in (*STOCK_IDS, *RETURN_IDS) if c not in set(avoid)]
    rng.shuffle(pool)
    return sorted(pool[:k])


def investment_cards(rng: Rng, k: int, avoid: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Return ``k`` random investments ($, +R of one industry each), none using a card of ``avoid``."""
    used = set(avoid)
    out: list[tuple[str, str]] = []
    while len(out) < k:
        ind = INDUSTRIES[rng.below(len(INDUSTRIES))].code
        pair = (f"MF-A-{ind}-{1 + rng.below(5)}", f"MF-R-{ind}-{1 + rng.below(5)}")
        if not used & set(pair):
            used.update(pair)
            out.append(pair)
    return out


def investments_text(pairs: Sequence[tuple[str, str]]) -> str:
    """Write investments by their cards: ``"una inversión (la Acción X + el Rendimiento Y)"``, or a list."""
    if not pairs:
        return "ninguna inversión"
    inner = [f"{card(a)} + {card(r)}" for a, r in pairs]
    noun = "una inversión" if len(pairs) == 1 else f"{len(pairs)} inversiones"
    return f"{noun} boca abajo ({'; '.join(inner)})"


# --------------------------------------------------------------------------- driving the engine


def apply(st: Any, seat: int, text: str) -> list[Event]:
    """Play the move written ``text`` for ``seat``.

    Raises:
        Redraw: the engine refuses the move in this situation (the template draws again).
    """
    try:
        return engine().apply(st, seat, engine().parse_move(text))
    except IllegalMove:
        raise Redraw from None


def legal(st: Any, seat: int) -> list[str]:
    """Return the text forms of ``seat``'s legal moves now."""
    return [m.text() for m in engine().legal_moves(st, seat)]


def deciding(st: Any) -> int | None:
    """Return the seat that must decide now, or ``None`` once the game is over."""
    pending = engine().pending(st)
    return None if pending.kind == "over" or not pending.seats else pending.seats[0]


def end_turn(st: Any, seat: int, limit: int = 20) -> None:
    """Let ``seat`` finish its turn without doing anything more: skip what can be skipped, discard the first card.

    Raises:
        Redraw: the turn does not end this way within ``limit`` decisions.
    """
    for _ in range(limit):
        if deciding(st) != seat:
            return
        moves = legal(st, seat)
        pick = next((m for m in moves if m == "skip"), None) or next(
            (m for m in moves if m.startswith("discard")), None
        )
        if pick is None:
            raise Redraw
        apply(st, seat, pick)
    raise Redraw


def quiet_turn(st: Any, seat: int) -> None:
    """Let a rival play a turn that changes nothing the question asks about: Construir from the $ deck, discard it.

    Raises:
        Redraw: the engine offers no such turn.
    """
    apply(st, seat, "build stock-deck")
    taken = [m for m in legal(st, seat) if m.startswith("discard")]
    if deciding(st) == seat and taken:
        apply(st, seat, taken[-1])
    end_turn(st, seat)


def player(st: Any, seat: int) -> dict[str, Any]:
    """Return the public view of ``seat`` (hand and strategy counts, investments)."""
    return dict(engine().view(st, None)["players"][seat])


def held_strategies(st: Any, seat: int) -> list[str]:
    """Return the names of the strategies ``seat`` holds (from its own view)."""
    return [s["name"] for s in engine().view(st, seat)["strategies"]]


def strategy_names(colour: str | None = None) -> list[str]:
    """Return the strategy names (of one colour), in the engine's data order."""
    return [s.name for s in STRATEGIES if colour in (None, s.colour)]
