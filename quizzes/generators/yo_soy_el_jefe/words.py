"""Spanish wording for the Yo soy el jefe generators: players, colours, lists, numbers, and the cited sections."""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.engine.core.rng import Rng

G = "yo-soy-el-jefe"

# Rulebook sections (rules_corpus/data/yo-soy-el-jefe/sections.toml).
INTRO = f"{G}/introduccion"
COMP_INFLUENCIA = f"{G}/1-componentes/cartas-de-influencia"
COMP_OTROS = f"{G}/1-componentes/otros-componentes"
TABLERO = f"{G}/1-componentes/tablero"
TABLERO_EJEMPLO = f"{G}/1-componentes/tablero/ejemplo"
PREP_INVERSORES = f"{G}/2-preparacion/cartas-de-inversor"
PREP_INFLUENCIA = f"{G}/2-preparacion/cartas-de-influencia"
BANQUERO = f"{G}/2-preparacion/banquero"
PRIMER_JUGADOR = f"{G}/2-preparacion/primer-jugador"
ACCIONES = f"{G}/3-desarrollo/acciones-del-turno"
TIRAR_DADO = f"{G}/3-desarrollo/tirar-el-dado"
TOMAR = f"{G}/3-desarrollo/tomar-cartas"
FIN_TURNO = f"{G}/3-desarrollo/fin-del-turno"
NEGOCIAR = f"{G}/3-1-negociar"
INVERSORES_JEFE = f"{G}/3-1-negociar/inversores-del-jefe"
FAMILIA_JEFE = f"{G}/3-1-negociar/cartas-de-familia-del-jefe"
NEGOCIAR_CON_OTROS = f"{G}/3-1-negociar/negociar-con-otros"
NEGOCIACION = f"{G}/3-2-negociacion"
PARTICIPACION = f"{G}/3-2-1-participacion"
CONTRAPRESTACION = f"{G}/3-2-1-participacion/contraprestacion"
FAMILIA_COLOCADA = f"{G}/3-2-1-participacion/cartas-de-familia-colocadas"
INFLUENCIA = f"{G}/3-2-2-cartas-de-influencia"
VIAJE = f"{G}/3-2-2-cartas-de-influencia/viaje"
EMPLEO = f"{G}/3-2-2-cartas-de-influencia/empleo"
JEFE = f"{G}/3-2-2-cartas-de-influencia/jefe"
PARADA = f"{G}/3-2-2-cartas-de-influencia/parada"
PARADA_EJEMPLO = f"{G}/3-2-2-cartas-de-influencia/parada/ejemplo"
CIERRE = f"{G}/3-3-cierre"
CIERRE_CARTAS = f"{G}/3-3-cierre/consejo-y-cartas"
PAGO = f"{G}/3-3-cierre/pago"
PAGO_EJEMPLO = f"{G}/3-3-cierre/pago/ejemplo"
TRAS_PAGO = f"{G}/3-3-cierre/tras-el-pago"
FRACASO = f"{G}/3-3-cierre/fracaso"
FRACASO_REFERENCIA = f"{G}/3-3-cierre/fracaso/referencia"
DADO_FIN = f"{G}/4-finalizacion/dado-de-fin"
DADO_FIN_EJEMPLO = f"{G}/4-finalizacion/ejemplo"
V_JEFE_TURNO = f"{G}/5-variantes/jefe-sin-cambio-de-turno"
V_OBLIGATORIA = f"{G}/5-variantes/negociacion-obligatoria"
V_PARTICIPANTES = f"{G}/5-variantes/dividendos-solo-participantes"
V_ROBO = f"{G}/5-variantes/robo-segun-inversores"
V_MINIMO = f"{G}/5-variantes/minimo-para-negociar"
V_LIMITE_10 = f"{G}/5-variantes/limite-10-y-partida-rapida"
DOS_JUGADORES = f"{G}/5-variantes/dos-jugadores"
DOS_PARA_TODOS = f"{G}/5-variantes/reglas-de-dos-para-todos"
EJEMPLO = f"{G}/6-ejemplos"
EJEMPLO_INICIO = f"{G}/6-ejemplos/inicio"
EJEMPLO_OFERTAS = f"{G}/6-ejemplos/oferta-y-contraoferta"
EJEMPLO_VIAJES = f"{G}/6-ejemplos/viajes-y-parada"
EJEMPLO_JEFES = f"{G}/6-ejemplos/cartas-de-jefe"
EJEMPLO_FAMILIAS = f"{G}/6-ejemplos/naranja-y-rosa"
EJEMPLO_CONTRATACION = f"{G}/6-ejemplos/contratacion"
EJEMPLO_CIERRE = f"{G}/6-ejemplos/cierre"
VARIANTES = f"{G}/5-variantes"
EJEMPLO_FIN = f"{G}/6-ejemplos/fin-del-ejemplo"

# Rulings of this implementation (rules_corpus/data/yo-soy-el-jefe/authored/rulings.toml).
R_REPARTO = f"{G}/rulings/errata-reparto-de-inversores"
R_PRIMER = f"{G}/rulings/primer-jugador-y-marcador"
R_PROMESAS = f"{G}/rulings/promesas"
R_COMPOSICION = f"{G}/rulings/composicion-del-cierre"
R_MOMENTO_PARADA = f"{G}/rulings/momento-de-la-parada"
R_FIN = f"{G}/rulings/fin-y-empates"
R_RAPIDA = f"{G}/rulings/dado-de-fin-y-partida-rapida"
R_DOS = f"{G}/rulings/dos-jugadores"
R_MAZO = f"{G}/rulings/mazo-agotado"
R_VARIANTES = f"{G}/rulings/variantes"

# Players: (name, feminine).
PEOPLE: tuple[tuple[str, bool], ...] = (
    ("Ana", True),
    ("Bruno", False),
    ("Carla", True),
    ("David", False),
    ("Elena", True),
    ("Fermín", False),
    ("Gloria", True),
    ("Héctor", False),
    ("Irene", True),
    ("Julián", False),
    ("Lucía", True),
    ("Marcos", False),
)
_FEMININE = dict(PEOPLE)

# Colours: the engine's family ids are the Spanish masculine forms.
_FEMININE_COLOUR = {"rojo": "roja", "amarillo": "amarilla"}


def people(rng: Rng, count: int) -> list[str]:
    """Return ``count`` distinct player names in a random order."""
    names = [name for name, _ in PEOPLE]
    rng.shuffle(names)
    return names[:count]


def is_feminine(name: str) -> bool:
    """Whether the player ``name`` takes feminine agreement.

    Raises:
        KeyError: ``name`` is not one of :data:`PEOPLE`.
    """
    return _FEMININE[name]


def boss_word(name: str) -> str:
    """Return "el jefe" or "la jefa" for the player ``name``."""
    return "la jefa" if is_feminine(name) else "el jefe"


def fem(colour: str) -> str:
    """Return the colour's feminine form ("roja" for a "carta de familia roja")."""
    return _FEMININE_COLOUR.get(colour, colour)


def join(items: Sequence[str], last: str = "y") -> str:
    """Join words the Spanish way: "a", "a y b", "a, b y c" (``last`` may be "o")."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    word = last
    if last == "y" and items[-1][:1].lower() in ("i", "í") and not items[-1].lower().startswith(("hie", "hia")):
        word = "e"
    if last == "o" and items[-1][:1].lower() in ("o", "ó"):
        word = "u"
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def count(n: int, singular: str, plural: str) -> str:
    """Return "1 carta" or "3 cartas"."""
    return f"{n} {singular if n == 1 else plural}"


def ordinal(n: int) -> str:
    """Return the abbreviated feminine ordinal: "13.ª"."""
    return f"{n}.ª"


def money(amount: int) -> str:
    """Return an amount of millions as the rulebook writes it: "$12M"."""
    return f"${amount}M"


def seating(names: Sequence[str]) -> str:
    """Describe players seated clockwise so that each has the next one on the left.

    E.g. "Ana, Bruno y Carla se sientan en ese orden en sentido horario: cada uno tiene a su
    izquierda al siguiente, y Carla tiene a Ana a su izquierda". (Prompts avoid "así que",
    "entonces" and the like, which the grader reads as the start of a stated answer.)
    """
    first, last = names[0], names[-1]
    return (
        f"{join(names)} se sientan en ese orden en sentido horario: cada uno tiene a su izquierda "
        f"al siguiente, y {last} tiene a {first} a su izquierda"
    )


def numbered_seating(players: int) -> str:
    """Describe ``players`` players numbered 1 to ``players`` clockwise, each with the next on the left."""
    return (
        f"Los {players} jugadores están numerados del 1 al {players} en sentido horario: cada uno tiene a su "
        f"izquierda al siguiente, y el {players} tiene al 1 a su izquierda"
    )


def board_ring(spaces: int) -> str:
    """The sentence that numbers the board's ``spaces`` spaces for a prompt."""
    return (
        f"Las {spaces} casillas de negociación están numeradas del 1 al {spaces} en sentido horario "
        f"(tras la {spaces} viene la 1)."
    )


def capital(text: str) -> str:
    """Return ``text`` with its first letter in upper case."""
    return text[:1].upper() + text[1:]
