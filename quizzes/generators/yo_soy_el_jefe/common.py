"""What the Yo soy el jefe templates share: section ids, people at the table, colours in Spanish, the engine.

Situations are explicit positions of the engine's scenario builder
(:func:`club_agentes.engine.yo_soy_el_jefe.scenario.position`), driven move by move with
:class:`~club_agentes.quizzes.generators.yo_soy_el_jefe.table.Table` (the engine's public
``pending``/``legal_moves``/``apply``/``view``). Seats are named in the order the turn passes
(to the left, clockwise): the prompt says so, so "to the left of" and "to the right of" follow.
"""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.engine.core import Rng
from club_agentes.engine.yo_soy_el_jefe.components import components
from club_agentes.quizzes.model import Redraw
from club_agentes.quizzes.wording import count, join, people

GAME = "yo-soy-el-jefe"
P = GAME + "/"
TABLERO = P + "1-componentes/tablero"
INVERSORES = P + "2-preparacion/cartas-de-inversor"
MAZO = P + "2-preparacion/cartas-de-influencia"
PRIMERO = P + "2-preparacion/primer-jugador"
ACCIONES = P + "3-desarrollo/acciones-del-turno"
DADO = P + "3-desarrollo/tirar-el-dado"
TOMAR = P + "3-desarrollo/tomar-cartas"
FIN_TURNO = P + "3-desarrollo/fin-del-turno"
NEGOCIAR = P + "3-1-negociar"
VIAJE = P + "3-2-2-cartas-de-influencia/viaje"
EMPLEO = P + "3-2-2-cartas-de-influencia/empleo"
JEFE = P + "3-2-2-cartas-de-influencia/jefe"
PARADA = P + "3-2-2-cartas-de-influencia/parada"
CIERRE = P + "3-3-cierre"
PAGO = P + "3-3-cierre/pago"
TRAS_PAGO = P + "3-3-cierre/tras-el-pago"
FRACASO = P + "3-3-cierre/fracaso"
FRACASO_REF = P + "3-3-cierre/fracaso/referencia"
FIN = P + "4-finalizacion/dado-de-fin"
FIN_EJEMPLO = P + "4-finalizacion/ejemplo"
ROBO_VARIANTE = P + "5-variantes/robo-segun-inversores"
DOS = P + "5-variantes/dos-jugadores"
NEGOCIACION_DATOS = P + "componentes/cartas-de-negociacion"
CASILLAS_DATOS = P + "componentes/casillas-del-tablero"
RULINGS = P + "rulings/"

COLOURS: tuple[str, ...] = components().colours
SPACES = components().spaces
DEAL_CARDS = components().deal_cards


def seating(rng: Rng, seats: int) -> list[str]:
    """Names for ``seats`` players, seat 0 first."""
    return people(rng, seats)


def table_words(names: Sequence[str]) -> str:
    """``"sentados alrededor de la mesa en este orden, cada uno a la izquierda del anterior: Ana, Beto y Carla"``."""
    return f"sentados alrededor de la mesa en este orden, cada uno a la izquierda del anterior: {join(list(names))}"


def deals_done(n: int) -> str:
    """``"ya se ha completado una negociación"``, ``"ya se han completado 3 negociaciones"``, or none yet."""
    if n == 0:
        return "todavía no se ha completado ninguna negociación"
    if n == 1:
        return "ya se ha completado una negociación"
    return f"ya se han completado {count(n, 'negociación', 'negociaciones', feminine=True)}"


def investor(colour: str) -> str:
    """``"la carta de inversor de color rojo"``."""
    return f"la carta de inversor de color {colour}"


def family(colour: str) -> str:
    """``"una carta de familia de color rojo"``."""
    return f"una carta de familia de color {colour}"


def space_words(number: int) -> str:
    """``"la casilla 7"``."""
    return f"la casilla {number}"


def ordinal(n: int) -> str:
    """Spanish ordinal of a deal number, as the rulebook writes them (``"décima"``) up to fifteen."""
    words = (
        "primera",
        "segunda",
        "tercera",
        "cuarta",
        "quinta",
        "sexta",
        "séptima",
        "octava",
        "novena",
        "décima",
        "undécima",
        "duodécima",
        "decimotercera",
        "decimocuarta",
        "decimoquinta",
    )
    if not 1 <= n <= len(words):
        raise Redraw
    return words[n - 1]
