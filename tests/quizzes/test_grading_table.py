"""A table of phrasings graded against items of all three games: right answers said in many ways, and
wrong answers that come close (another number, a hedge between the right one and another, a negation,
a bound, a right letter with a wrong text).

The items copy prompts, options and vocabularies from the bank (``quizzes/data/<game>/``) so that the
table does not move when the bank's content is edited; prompts that state numbers, terms or option
texts exercise the grader's restatement rule. Per answer type: at least 80 right phrasings and 40 wrong
ones, no wrong one accepted, at most 5% of right ones rejected. Run with ``-s`` to see the rates.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from club_agentes.engine.core.text import fold
from club_agentes.quizzes.grading import Vocabulary, VocabularyTerm, grade
from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from club_agentes.quizzes.spanish import number_to_words

MAX_FALSE_REJECT_RATE = 0.05
MIN_RIGHT = 80
MIN_WRONG = 40


@dataclass(frozen=True)
class Case:
    item: Item
    answer: str | int
    right: bool


def _item(game: str, slug: str, type_: str, prompt: str, answer: str, **extra: object) -> Item:
    return Item(f"{game}/q/{slug}", game, "question", type_, prompt, answer, (f"{game}/s",), **extra)  # type: ignore[arg-type]


MF, SV, YS = "market-fortune", "se-vende", "yo-soy-el-jefe"

# --------------------------------------------------------------------------- integer items

INTEGER_ITEMS = (
    _item(
        MF, "cartas-iniciales", "integer", "Al preparar la partida, ¿cuántas cartas en mano recibe cada jugador?", "8"
    ),
    _item(
        MF,
        "max-jugadores",
        "integer",
        "¿Cuántos jugadores pueden jugar como máximo una partida de Market Fortune?",
        "6",
    ),
    _item(
        MF,
        "cartas-en-mano",
        "integer",
        "Tienes 2 inversiones. Según la regla de las 8 cartas, ¿cuántas cartas de construcción tienes en la mano?",
        "4",
    ),
    _item(
        MF,
        "meta-fortuna",
        "integer",
        "En modo Fortuna, ¿qué valor total mínimo, en millones, debe alcanzar tu portafolio para ganar?",
        "25",
        unit="M",
    ),
    _item(
        MF,
        "dado-porcentaje",
        "integer",
        "¿Qué porcentaje favorable atribuye el capítulo I al Dado Fortune?",
        "66",
        unit="%",
    ),
    _item(
        SV,
        "fases",
        "integer",
        "¿Entre cuántas fases distintas elige en secreto cada jugador al comienzo de una ronda?",
        "5",
    ),
    _item(
        SV,
        "limite-mano",
        "integer",
        "Al final de cada ronda, ¿a cuántas cartas como máximo debes reducir tu mano?",
        "10",
    ),
    _item(
        SV,
        "mano-inicial",
        "integer",
        "Al preparar la partida recibes 6 cartas y descartas 2. ¿Con cuántas cartas te quedas en la mano?",
        "4",
    ),
    _item(YS, "influencia", "integer", "¿Cuántas cartas de influencia hay en total?", "98"),
    _item(
        YS,
        "pago",
        "integer",
        "Según el ejemplo de pago del reglamento, si un dividendo vale $3M en la sexta transacción y la casilla "
        "tiene 4 dividendos, ¿cuánto paga el banquero?",
        "12",
        unit="M",
    ),
    _item(
        YS,
        "suma-dividendos",
        "integer",
        "En el ejemplo de la sección 6, la casilla tiene 6 dividendos de $5M. ¿Cuánto suman los dividendos?",
        "30",
        unit="M",
    ),
)

# Phrasings an agent uses to state a number ({x} is the number in one of its written forms).
INTEGER_RIGHT = (
    "{x}",
    "{x}.",
    "Son {x}.",
    "La respuesta es {x}.",
    "Respuesta: {x}",
    "Mi respuesta final: {x}",
    "Creo que es {x}.",
    "Creo que son {x}.",
    "Diría que {x}.",
    "{x}, porque así lo indica el reglamento.",
    "{x}, según el reglamento.",
    "Answer: {x}",
    "The answer is {x}.",
    "**{x}**",
    "Final answer: {x}",
    "Exactamente {x}.",
    "Unos {x}.",
    "Aproximadamente {x}.",
    "Alrededor de {x}.",
    "Cerca de {x}.",
    "En total, {x}.",
    "Respuesta correcta: {x}",
    "Yo diría que la respuesta es {x}.",
    "Sin duda, {x}.",
    "{x} (lo dice la sección citada).",
    "La respuesta correcta es {x}, ya que lo dice el texto.",
)
# Close but wrong: {w} is another number, {n} the right one.
INTEGER_WRONG = (
    "{w}",
    "{w}.",
    "La respuesta es {w}.",
    "Creo que son {w}.",
    "{n} o {w}",
    "{w} o {n}",
    "entre {n} y {w}",
    "{n} y {w}",
    "{n}/{w}",
    "no es {n}",
    "No son {n}.",
    "Seguro que no es {n}.",
    "ni {n} ni {w}",
    "más de {n}",
    "menos de {n}",
    "{n}, aunque quizá {w}",
    "Creo que {n}, o tal vez {w}.",
    "No sé, {n} o {w}.",
    "Quizá {n}, quizá {w}.",
    "Pensé {n}, pero mi respuesta final es {w}.",
    "{w}, porque con {n} no alcanza.",
    "{n}, porque lo dice el reglamento, aunque podría ser {w}.",
    "Respuesta: {n} o {w}",
    "{n} u {w}",
)
# Bounds: wrong unless the prompt asks for a minimum (lower) or a maximum (upper).
LOWER_BOUNDS = ("al menos {n}", "{n} o más", "como mínimo {n}")
UPPER_BOUNDS = ("hasta {n}", "{n} como máximo", "como máximo {n}")


def number_forms(n: int, unit: str) -> tuple[str, ...]:
    """The ways of writing ``n`` in the item's unit: digits and Spanish words, with the unit's marks."""
    words = number_to_words(n)
    if unit == "M":
        return (
            f"{n}M",
            f"{number_to_words(n, apocope=True)} millones",
            f"{n:,}".replace(",", ".") + ".000.000",
            f"${n}M",
        )
    if unit == "%":
        return (f"{n} %", f"{words} por ciento", f"{n}%")
    return (str(n), words)


def restatements(item: Item) -> tuple[str, ...]:
    """Right answers that repeat the prompt's numbers beside the answer."""
    n = int(item.answer)
    table = {
        "market-fortune/q/cartas-en-mano": (
            "Con 2 inversiones, tienes 4 en mano.",
            "Con 2 inversiones hay 4 cartas en inversiones, así que en la mano quedan 4.",
            "8 - 2×2 = 4",
            "Tienes 2 inversiones; según la regla de las 8 cartas, en la mano tienes cuatro.",
        ),
        "se-vende/q/mano-inicial": (
            "Si recibes 6 y descartas 2, te quedas con 4.",
            "6 - 2 = 4 cartas.",
            "Recibes seis, descartas dos: quedan cuatro.",
        ),
        "yo-soy-el-jefe/q/pago": (
            "4 dividendos de 3M son 12M.",
            "El banquero paga 12M (3M por cada uno de los 4 dividendos).",
            "3M × 4 = 12M",
        ),
        "yo-soy-el-jefe/q/suma-dividendos": ("6 dividendos de $5M suman $30M.", "6 × 5M = 30M"),
        "market-fortune/q/max-jugadores": (f"Hasta {n} jugadores.", f"Como máximo {n}."),
        "se-vende/q/limite-mano": (f"Hasta {n} cartas.", f"A {n} cartas como máximo."),
        "market-fortune/q/meta-fortuna": (f"Al menos {n}M.", f"Como mínimo {n} millones."),
    }
    return table.get(item.id, ())


# Free-form answers of the kind agents write, per item.
INTEGER_FREE_RIGHT = {
    "market-fortune/q/cartas-iniciales": (
        "Cada jugador recibe 8 cartas.",
        "Recibe ocho cartas en mano.",
        "8 cartas",
        "Ocho (8).",
        "Se reparten 8 cartas a cada jugador, así que la respuesta es 8.",
        "**Respuesta:** 8",
        "Respuesta: 8\nRazonamiento: el reglamento reparte ocho cartas a cada jugador.",
    ),
    "market-fortune/q/dado-porcentaje": ("El 66 %.", "Un 66%.", "Un sesenta y seis por ciento."),
    "market-fortune/q/meta-fortuna": ("La respuesta es: 25M", "25 millones de dólares", "Necesitas 25M o más."),
    "yo-soy-el-jefe/q/influencia": ("Hay 98 cartas de influencia.", "En total hay noventa y ocho."),
}
INTEGER_FREE_WRONG = {
    "market-fortune/q/cartas-iniciales": (
        "8... no, espera, 7",
        "Ni idea",
        "Depende: 7 u 8",
        "8? 9?",
        "8-9",
        "de 7 a 8",
        "8, quizás 9",
        "88",
        "8.5",
        "ocho mil",
        "8M",
        "No 8 sino 9",
        "8? No, 9.",
        "cuatro o cinco",
    ),
    "market-fortune/q/meta-fortuna": ("25 mil millones", "No 25M sino 26M", "25M? No, 26M.", "~25 ó 26"),
}


def integer_cases() -> Iterator[Case]:
    for item in INTEGER_ITEMS:
        n = int(item.answer)
        others = (n + 1, n - 1 if n > 1 else n + 2)
        for template in INTEGER_RIGHT:
            for x in number_forms(n, item.unit):
                yield Case(item, template.format(x=x), True)
        yield Case(item, n, True)
        for answer in restatements(item):
            yield Case(item, answer, True)
        for w in others:
            forms = number_forms(w, item.unit)
            for template in INTEGER_WRONG:
                yield Case(item, template.format(n=number_forms(n, item.unit)[0], w=forms[0]), False)
            yield Case(item, forms[-1], False)
            yield Case(item, w, False)
        asks_min, asks_max = "mínimo" in item.prompt, "máximo" in item.prompt
        for template in LOWER_BOUNDS:
            yield Case(item, template.format(n=number_forms(n, item.unit)[0]), asks_min)
        for template in UPPER_BOUNDS:
            yield Case(item, template.format(n=number_forms(n, item.unit)[0]), asks_max)
        if item.unit == "":
            yield Case(item, f"{n} millones", False)
        if item.unit == "M":
            yield Case(item, f"{n} mil", False)
        for answer in INTEGER_FREE_RIGHT.get(item.id, ()):
            yield Case(item, answer, True)
        for answer in INTEGER_FREE_WRONG.get(item.id, ()):
            yield Case(item, answer, False)
        if item.id == "market-fortune/q/cartas-en-mano":
            yield Case(item, "Con 2 inversiones, tienes 4 cartas en mano.", True)
            yield Case(item, "Con 4 inversiones tienes 2 en mano.", False)
            yield Case(item, "Quedan 2, porque 4 están en inversiones.", False)
            yield Case(item, "Con 2 inversiones, tienes 5 en mano.", False)
            yield Case(item, "Tienes 2.", False)
            yield Case(item, "2 o 4", False)
            yield Case(item, "8", False)
        if item.id == "se-vende/q/mano-inicial":
            yield Case(item, "Recibes 6 y te quedas con 6.", False)
            yield Case(item, "6 o 4", False)


# --------------------------------------------------------------------------- choice items

CHOICE_ITEMS = (
    _item(
        MF,
        "dado",
        "choice",
        "¿Cómo es el Dado Fortune?",
        "A",
        options=("Negro con dorado", "Blanco con puntos rojos", "Verde con dorado", "Transparente"),
    ),
    _item(
        MF,
        "sentido",
        "choice",
        "Una vez elegido el primer jugador, ¿en qué sentido se juega?",
        "C",
        options=(
            "En sentido antihorario",
            "Por orden de edad",
            "En sentido horario",
            "Primero quien tenga más inversiones",
        ),
    ),
    _item(
        MF,
        "descarte",
        "choice",
        "Según la regla crítica de descarte, ¿de qué descarte no puedes tomar nunca?",
        "C",
        options=(
            "Del descarte de Acciones",
            "Del descarte de Rendimientos",
            "Del descarte de Estrategias",
            "De ninguno: puedes tomar de todos",
        ),
    ),
    _item(
        SV,
        "orden",
        "choice",
        "¿En qué orden se ejecutan las fases elegidas en una ronda?",
        "A",
        options=(
            "En orden numérico I a V",
            "En el orden en que se revelaron",
            "En orden inverso, de V a I",
            "En el orden que decida el jugador inicial",
        ),
    ),
    _item(
        SV,
        "bonus",
        "choice",
        "Si varios jugadores eligen la misma fase, ¿quién recibe el bonus de esa fase?",
        "C",
        options=(
            "Solo el primero que la eligió",
            "Nadie, porque se anulan entre sí",
            "Todos los jugadores que la eligieron",
            "Todos los jugadores, la hayan elegido o no",
        ),
    ),
    _item(
        SV,
        "ejemplo-bonus",
        "choice",
        "Según el resumen de las reglas, ¿cuál de estos es un ejemplo del bonus de quien eligió una fase?",
        "D",
        options=(
            "Ganar una ficha de victoria de 10",
            "Colocar dos mundos en la misma fase",
            "Elegir una segunda fase en la misma ronda",
            "Pagar menos por desarrollar",
        ),
    ),
    _item(
        YS,
        "tamano",
        "choice",
        "¿Qué relación hay entre el tamaño de una negociación y los inversores que requiere?",
        "D",
        options=(
            "Cuanto mayor sea la negociación, menos inversores se requieren",
            "Todas requieren el mismo número de inversores",
            "Solo las negociaciones pequeñas requieren inversores",
            "Cuanto mayor sea la negociación, más inversores se requieren",
        ),
    ),
    _item(
        YS,
        "inversores-restantes",
        "choice",
        "En juegos con 4 o 5 jugadores, ¿qué se hace con las cartas de inversor restantes?",
        "A",
        options=(
            "Se colocan al lado del tablero",
            "Se las queda el banquero",
            "Se barajan con las cartas de influencia",
            "Se devuelven a la caja",
        ),
    ),
    _item(
        YS,
        "papel",
        "choice",
        "Durante el juego, ¿qué papel representa cada jugador?",
        "C",
        options=(
            "El papel del banquero",
            "El papel de un jefe fijo para toda la partida",
            "El papel de un inversor que representa a su familia",
            "El papel de una ciudad que compra negocios",
        ),
    ),
)

# {L} is the right letter, {T} its option's text.
CHOICE_RIGHT = (
    "{L}",
    "{l}",
    "{L})",
    "{L}.",
    "({L})",
    "**{L}**",
    "la {L}",
    "La {L}.",
    "opción {L}",
    "opción {l}",
    "La opción {L}",
    "Respuesta: {L}",
    "La respuesta es la {L}.",
    "Creo que es la {L}",
    "Creo que es la {l}",
    "Answer: {L}",
    "The answer is {L}.",
    "{L}, porque {T}.",
    "{L}) {T}",
    "{L}: {T}",
    "{T}",
    "{T}.",
    "Mi respuesta final: {L}",
    "Me quedo con la {L}.",
    "Elijo la {L}.",
    "Letra {L}",
    "Diría que la {L}.",
    "**{L}) {T}**",
    "Final answer: {L}",
    "Sin duda la {L}.",
    "La respuesta correcta es la {L}, ya que el reglamento lo dice.",
    "{L} ({T})",
)
# {M} is a wrong letter, {TM} its text.
CHOICE_WRONG = (
    "{M}",
    "la {M}",
    "opción {M}",
    "Respuesta: {M}",
    "{TM}",
    "{M}) {TM}",
    "{L} o {M}",
    "{M} o {L}",
    "la {L} o la {M}",
    "{L} y {M}",
    "{L}/{M}",
    "entre la {L} y la {M}",
    "No sé, quizá {L} o {M}.",
    "{M}) {T}",
    "{L}) {TM}",
    "Creo que es la {L}, aunque quizá la {M}.",
    "{L}, o tal vez {M}.",
    "Pensé en la {L}, pero mi respuesta final es la {M}.",
    "No es la {L}, es la {M}.",
    "La {L} no; la {M}.",
    "todas menos la {M}",
)
CHOICE_WRONG_ONCE = (
    "no es la {L}",
    "cualquiera menos la {L}",
    "Ninguna",
    "Todas",
    "la {L} es incorrecta",
    "No sé.",
    "E",
)


CHOICE_FREE_RIGHT = {
    "market-fortune/q/sentido": (
        "La respuesta correcta es la opción C: En sentido horario.",
        "C) En sentido horario — porque el reglamento dice que se juega en sentido horario.",
        "Se juega en sentido horario (C).",
        "Opción C. Se juega en sentido horario.",
        "Respuesta: **C**",
        "**Respuesta:** C",
        "La C: en sentido horario.",
        "C\n\nExplicación: se juega en sentido horario, no en sentido antihorario.",
        "Respuesta: C\nRazonamiento: el reglamento dice que el turno pasa en sentido horario.",
        "No es la A; es la C.",
    ),
}
CHOICE_FREE_WRONG = {
    "market-fortune/q/sentido": (
        "C... no, espera, B",
        "Ni idea",
        "Depende: A o C",
        "C? o B?",
        "Probablemente C, pero también podría ser B",
        "A, B, C o D",
        "todas las opciones",
        "La C es falsa",
        "C (aunque B también es posible)",
        "En sentido horario o en sentido antihorario",
        "No es en sentido horario",
    ),
}


def choice_cases() -> Iterator[Case]:
    for item in CHOICE_ITEMS:
        letter = item.answer
        text = item.options[CHOICE_LETTERS.index(letter)]
        for template in CHOICE_RIGHT:
            yield Case(item, template.format(L=letter, l=letter.lower(), T=text), True)
        yield Case(item, text.upper(), True)
        yield Case(item, fold(text), True)
        for answer in CHOICE_FREE_RIGHT.get(item.id, ()):
            yield Case(item, answer, True)
        for answer in CHOICE_FREE_WRONG.get(item.id, ()):
            yield Case(item, answer, False)
        for template in CHOICE_WRONG_ONCE:
            yield Case(item, template.format(L=letter), False)
        for other in CHOICE_LETTERS:
            if other == letter:
                continue
            other_text = item.options[CHOICE_LETTERS.index(other)]
            for template in CHOICE_WRONG:
                yield Case(item, template.format(L=letter, M=other, T=text, TM=other_text), False)


# --------------------------------------------------------------------------- term items

ACCIONES = Vocabulary(
    "acciones",
    "Las tres acciones del turno",
    (
        VocabularyTerm("Construir", ("tomar capital",)),
        VocabularyTerm("Arriesgar", ("formar inversión", "formar una inversión")),
        VocabularyTerm("Dominar", ("tomar estrategia", "tomar una estrategia")),
    ),
)
MAZOS = Vocabulary(
    "mazos",
    "Los tres mazos",
    (
        VocabularyTerm("Acciones", ("$", "mazo $", "capital")),
        VocabularyTerm("Rendimientos", ("+R", "mazo +R", "crecimiento")),
        VocabularyTerm("Estrategias", ("mazo de Estrategias",)),
    ),
)
FASES = Vocabulary(
    "fases",
    "Las cinco fases",
    (
        VocabularyTerm("Explorar", ("exploración",)),
        VocabularyTerm("Desarrollar", ("desarrollo",)),
        VocabularyTerm("Asentar", ("asentamiento", "colonizar", "colonización")),
        VocabularyTerm("Consumir", ("consumo",)),
        VocabularyTerm("Producir", ("producción",)),
    ),
)
INFLUENCIA = Vocabulary(
    "cartas-de-influencia",
    "Los tipos de carta de influencia",
    (
        VocabularyTerm("Familia", ("tribu", "clan", "carta de familia")),
        VocabularyTerm("Viaje", ("carta de viaje",)),
        VocabularyTerm("Jefe", ("carta de jefe",)),
        VocabularyTerm("Empleo", ("contratación", "carta de empleo")),
        VocabularyTerm("Parada", ("bloqueo", "carta de parada")),
    ),
)
COLORES = Vocabulary(
    "colores",
    "Los colores de los inversores",
    (
        VocabularyTerm("rojo", ("roja",)),
        VocabularyTerm("azul", ()),
        VocabularyTerm("amarillo", ("amarilla",)),
        VocabularyTerm("rosa", ("rosado", "rosada")),
        VocabularyTerm("naranja", ("anaranjado", "anaranjada")),
        VocabularyTerm("verde", ()),
    ),
)

TERM_ITEMS: tuple[tuple[Item, Vocabulary], ...] = (
    (
        _item(
            MF,
            "dominar",
            "term",
            "¿Qué acción del turno consiste en tomar 1 Estrategia del mazo sin descartar nada?",
            "Dominar",
            vocabulary="acciones",
        ),
        ACCIONES,
    ),
    (
        _item(
            MF,
            "construir",
            "term",
            "¿Qué acción del turno te hace tomar 1 carta del mazo $ o +R (o la superior del descarte) y luego "
            "descartar 1 $ o +R?",
            "Construir",
            vocabulary="acciones",
        ),
        ACCIONES,
    ),
    (
        _item(
            MF,
            "rendimientos",
            "term",
            "¿Qué mazo es «tu crecimiento», con cartas de +1M a +5M que se combinan con las Acciones?",
            "Rendimientos",
            vocabulary="mazos",
        ),
        MAZOS,
    ),
    (
        _item(
            SV,
            "fase-iii",
            "term",
            "Las fases se ejecutan en orden numérico de I a V. ¿Qué fase es la número III?",
            "Asentar",
            vocabulary="fases",
        ),
        FASES,
    ),
    (
        _item(
            SV,
            "no-colocar",
            "term",
            "Además de Desarrollar, ¿en qué otra fase puedes decidir no colocar ninguna carta?",
            "Asentar",
            vocabulary="fases",
        ),
        FASES,
    ),
    (
        _item(
            SV,
            "ultima-fase",
            "term",
            "Si en una ronda se eligen las cinco fases, ¿cuál se ejecuta en último lugar?",
            "Producir",
            vocabulary="fases",
        ),
        FASES,
    ),
    (
        _item(
            YS,
            "empleo",
            "term",
            "¿Qué tipo de carta de influencia se juega en conjuntos de tres para quitarle a otro jugador una "
            "carta de inversor?",
            "Empleo",
            vocabulary="cartas-de-influencia",
        ),
        INFLUENCIA,
    ),
    (
        _item(
            YS,
            "jefe",
            "term",
            "¿Qué tipo de carta de influencia permite a quien la juega convertirse en el nuevo jefe y dirigir "
            "la negociación?",
            "Jefe",
            vocabulary="cartas-de-influencia",
        ),
        INFLUENCIA,
    ),
    (
        _item(
            YS,
            "amarillo",
            "term",
            "En el ejemplo de casilla del tablero, son obligatorios los inversores rojo, azul y ¿de qué otro color?",
            "amarillo",
            vocabulary="colores",
        ),
        COLORES,
    ),
)

# {W} is the right term, {S} one of its synonyms.
TERM_RIGHT = (
    "{W}",
    "{w}",
    "{WU}",
    "{W}.",
    "Es {W}.",
    "La respuesta es {W}.",
    "Respuesta: {W}",
    "Creo que es {W}.",
    "**{W}**",
    "Answer: {W}",
    "{W}, porque lo dice el reglamento.",
    "Mi respuesta final: {W}",
    "Diría que {W}.",
    "{Wf}",
    "Final answer: {W}",
    "Sin duda, {W}.",
    "La respuesta correcta es {W}, según el reglamento.",
)
TERM_RIGHT_SYNONYM = ("{S}", "{W} ({S})", "Respuesta: {S}")
# {X} is another term of the vocabulary.
TERM_WRONG = (
    "{X}",
    "Es {X}.",
    "{W} o {X}",
    "{X} o {W}",
    "{W} y {X}",
    "No sé, {W} o {X}.",
    "entre {W} y {X}",
    "{W}, aunque quizá {X}.",
    "Respuesta final: {X}",
    "No es {W}, es {X}.",
    "{X}, no {W}.",
    "Pensé en {W}, pero mi respuesta final es {X}.",
)
TERM_WRONG_ONCE = ("no es {W}", "cualquiera menos {W}", "No sé.", "ninguna de ellas")


def term_cases() -> Iterator[tuple[Case, Vocabulary]]:
    for item, vocab in TERM_ITEMS:
        word = item.answer
        entry = vocab.find(word)
        assert entry is not None
        for template in TERM_RIGHT:
            answer = template.format(W=word, w=word.lower(), WU=word.upper(), Wf=fold(word))
            yield Case(item, answer, True), vocab
        for synonym in entry.synonyms:
            for template in TERM_RIGHT_SYNONYM:
                yield Case(item, template.format(W=word, S=synonym), True), vocab
        for template in TERM_WRONG_ONCE:
            yield Case(item, template.format(W=word), False), vocab
        for other in vocab.term_names:
            if other == word:
                continue
            for template in TERM_WRONG:
                yield Case(item, template.format(W=word, X=other), False), vocab
    dominar = TERM_ITEMS[0]
    for answer in (
        "La acción es Dominar: tomas 1 Estrategia del mazo.",
        "Se llama Dominar.",
        "Dominar (no se descarta nada).",
        "Respuesta: **Dominar**",
    ):
        yield Case(dominar[0], answer, True), dominar[1]
    for answer in (
        "Dominar... no, espera, Construir",
        "Ni idea",
        "Depende: Construir o Dominar",
        "Dominar? Arriesgar?",
        "Probablemente Dominar, pero también podría ser Arriesgar",
        "Dominar es incorrecta",
        "Dominar (aunque Construir también es posible)",
        "Dominación",
    ):
        yield Case(dominar[0], answer, False), dominar[1]
    restated = TERM_ITEMS[4]
    for answer in ("Además de Desarrollar, en Asentar.", "En Asentar; en Desarrollar también, como dice la pregunta."):
        yield Case(restated[0], answer, True), restated[1]
    yield Case(restated[0], "Desarrollar", False), restated[1]
    rend = TERM_ITEMS[2]
    yield Case(rend[0], "El de Rendimientos, que se combinan con las Acciones.", True), rend[1]
    yield Case(rend[0], "Acciones", False), rend[1]


# --------------------------------------------------------------------------- working, English numbers, paraphrases
#
# Issue 24: right answers followed by their working or a breakdown, English number words, and a choice
# answered by a paraphrase that names its option's distinctive words; each with close wrong answers
# (a breakdown of another number, a hedge inside the working, a negated paraphrase, a paraphrase that
# mixes two options).

WORKED = (
    _item(MF, "mano-tres", "integer", "¿Cuántas cartas tienes en la mano al terminar el turno?", "9"),
    _item(MF, "valor", "integer", "¿Cuántos millones vale tu inversión?", "6", unit="M"),
    _item(YS, "pago-doce", "integer", "¿Cuánto paga el banquero?", "12", unit="M"),
    _item(SV, "coste", "integer", "¿Cuántas cartas descartas para pagarlo?", "3"),
    _item(YS, "marcador", "integer", "¿En qué casilla queda el marcador?", "21"),
)
WORKED_RIGHT = {
    "market-fortune/q/mano-tres": (
        "9 cartas: 6 de construcción y 3 Estrategias",
        "9 (6 de construcción + 3 Estrategias)",
        "Son 6 de construcción más 3 Estrategias, o sea 9",
        "6 + 3 = 9",
        "9: 8 - 2 + 3",
        "nine",
        "Nine cards.",
        "The answer is nine.",
        "Respuesta: 9 (6 + 3).",
        "En total 9, es decir 6 de construcción y 3 Estrategias.",
    ),
    "market-fortune/q/valor": (
        "6M (5M + 1M)",
        "6M = 5M + 1M",
        "6 millones (5 + 1)",
        "Vale 5M + 1M, o sea 6M",
        "six",
        "6M: 3M × 2",
    ),
    "yo-soy-el-jefe/q/pago-doce": (
        "12M (3M × 4)",
        "12M: 4 dividendos de 3M",
        "3M × 4 = 12M",
        "twelve",
        "12 millones (4 × 3M)",
    ),
    "se-vende/q/coste": ("3 (4 - 1)", "3: 4 menos 1", "three", "Tres (el coste 4, menos 1)."),
    "yo-soy-el-jefe/q/marcador": ("twenty-one", "Twenty-one.", "21 (16 + 5)"),
}
WORKED_WRONG = {
    "market-fortune/q/mano-tres": (
        "9 cartas: 6 de construcción y 4 Estrategias",
        "10 (6 + 4)",
        "9 (o 10)",
        "9: 6 y quizá 4",
        "ten",
        "nine or ten",
        "No son 9.",
        "Son 6 de construcción más 3 Estrategias, o sea 10",
    ),
    "market-fortune/q/valor": ("6M (5M + 2M)", "7M = 5M + 2M", "five", "6M o 7M", "six or seven"),
    "yo-soy-el-jefe/q/pago-doce": ("12M (3M × 5)", "15M (3M × 5)", "eleven", "12M, aunque quizá 15M"),
    "se-vende/q/coste": ("3 (4 - 2)", "4 (4 - 0)", "two", "3 o 4"),
    "yo-soy-el-jefe/q/marcador": ("twenty", "21 (16 + 6)", "twenty-one or twenty-two"),
}
PARAPHRASE_ITEMS = (
    _item(
        MF,
        "destino",
        "choice",
        "Una carta de construcción sale de tu inversión. ¿Adónde va?",
        "B",
        options=("Va a tu mano", "Va al montón de descarte", "Se queda en la inversión", "Se retira del juego"),
    ),
    _item(
        YS,
        "viaje-familia",
        "choice",
        "¿Qué pasa con la carta de familia?",
        "A",
        options=(
            "La carta de viaje y la de familia se descartan en el acto",
            "La carta de viaje se queda encima hasta que termine la transacción",
            "La carta de familia vuelve a la mano de su dueño",
            "Nada: la carta de viaje no tiene efecto",
        ),
    ),
)
PARAPHRASE_RIGHT = {
    "market-fortune/q/destino": (
        "Va al descarte",
        "Al descarte.",
        "al montón",
        "Va al descarte, porque sale de la inversión",
    ),
    "yo-soy-el-jefe/q/viaje-familia": ("Se descartan en el acto", "La de viaje y la de familia se descartan."),
}
PARAPHRASE_WRONG = {
    "market-fortune/q/destino": ("No va al descarte", "Va a la mano o al descarte", "A tu mano", "Se retira"),
    "yo-soy-el-jefe/q/viaje-familia": (
        "La de viaje se queda encima",
        "No se descartan",
        "Vuelve a la mano",
        "Se descartan o vuelven a la mano",
    ),
}


def worked_cases() -> Iterator[tuple[Case, Vocabulary | None]]:
    for item in WORKED:
        yield from ((Case(item, a, True), None) for a in WORKED_RIGHT[item.id])
        yield from ((Case(item, a, False), None) for a in WORKED_WRONG[item.id])
    for item in PARAPHRASE_ITEMS:
        yield from ((Case(item, a, True), None) for a in PARAPHRASE_RIGHT[item.id])
        yield from ((Case(item, a, False), None) for a in PARAPHRASE_WRONG[item.id])


def test_working_english_numbers_and_paraphrases() -> None:
    """No false accept; at most 2 % of the right phrasings refused (the issue's bound)."""
    cases = list(worked_cases())
    rights = [c for c, _ in cases if c.right]
    wrongs = [c for c, _ in cases if not c.right]
    false_rejects = [(c.item.id, c.answer) for c in rights if not grade(c.item, c.answer).correct]
    false_accepts = [(c.item.id, c.answer) for c in wrongs if grade(c.item, c.answer).correct]
    print(
        f"\nworking: {len(rights)} right, {len(wrongs)} wrong; false accepts {len(false_accepts)}, "
        f"false rejects {len(false_rejects)}"
    )
    assert len(rights) >= 30 and len(wrongs) >= 25
    assert false_accepts == []
    assert len(false_rejects) <= 0.02 * len(rights), false_rejects


# --------------------------------------------------------------------------- the measure


def measure(cases: list[tuple[Case, Vocabulary | None]], label: str) -> None:
    rights = [(c, v) for c, v in cases if c.right]
    wrongs = [(c, v) for c, v in cases if not c.right]
    false_rejects = [(c, v) for c, v in rights if not grade(c.item, c.answer, v).correct]
    false_accepts = [c for c, v in wrongs if grade(c.item, c.answer, v).correct]
    games = {c.item.game for c, _ in cases}
    reject_rate = len(false_rejects) / len(rights)
    print(
        f"\n{label}: {len(rights)} right phrasings, {len(wrongs)} wrong ones over {len(games)} games; "
        f"false accepts {len(false_accepts)} (0.0%), false rejects {len(false_rejects)} ({100 * reject_rate:.1f}%)"
    )
    for c, v in false_rejects:
        print(f"  rejected: {c.item.id}: {c.answer!r}: {grade(c.item, c.answer, v).reason}")
    assert len(rights) >= MIN_RIGHT and len(wrongs) >= MIN_WRONG
    assert games == {MF, SV, YS}
    assert not false_accepts, [(c.item.id, c.answer) for c in false_accepts]
    assert reject_rate <= MAX_FALSE_REJECT_RATE, [(c.item.id, c.answer) for c, _ in false_rejects]


def test_integer_phrasings() -> None:
    measure([(c, None) for c in integer_cases()], "integer")


def test_choice_phrasings() -> None:
    measure([(c, None) for c in choice_cases()], "choice")


def test_term_phrasings() -> None:
    measure([(c, v) for c, v in term_cases()], "term")


@pytest.mark.parametrize(
    ("item", "answer"),
    [
        (INTEGER_ITEMS[2], "Con 2 inversiones, tienes 4 en mano"),
        (INTEGER_ITEMS[2], "4"),
        (INTEGER_ITEMS[3], "Mi respuesta final: veinticinco millones"),
        (INTEGER_ITEMS[3], "unos 25 millones"),
        (CHOICE_ITEMS[1], "Creo que es la C"),
        (CHOICE_ITEMS[1], "Answer: C"),
        (CHOICE_ITEMS[1], "**C**"),
        (CHOICE_ITEMS[1], "(C)"),
        (CHOICE_ITEMS[0], "opción a"),
    ],
)
def test_the_issue_examples_are_right(item: Item, answer: str) -> None:
    assert grade(item, answer).correct


@pytest.mark.parametrize(
    ("item", "answer"),
    [
        (INTEGER_ITEMS[3], "no es 25M"),
        (INTEGER_ITEMS[3], "25 o 26"),
        (INTEGER_ITEMS[2], "entre 4 y 5"),
        (CHOICE_ITEMS[1], "B o C"),
        (CHOICE_ITEMS[1], "no sé, quizá A o C"),
        (CHOICE_ITEMS[1], "cualquiera menos la A"),
    ],
)
def test_the_issue_hedges_are_wrong(item: Item, answer: str) -> None:
    assert not grade(item, answer).correct


# --------------------------------------------------------------------------- every item of the bank


def bank_cases() -> Iterator[tuple[Case, Vocabulary | None]]:
    """Plain phrasings of every hand-written item's right answer, and hedges and negations of it."""
    from club_agentes.quizzes.bank import default_bank
    from club_agentes.quizzes.grading import display_answer

    bank = default_bank()
    templates = ("{x}", "La respuesta es {x}.", "Mi respuesta final: {x}", "{x}, porque lo dice el reglamento.")
    for gb in bank.games.values():
        for item in gb.items:
            vocab = bank.vocabulary(item)
            if item.type == "choice":
                forms = [item.answer, f"la {item.answer}", item.options[CHOICE_LETTERS.index(item.answer)]]
                others = [letter for letter in CHOICE_LETTERS if letter != item.answer]
            elif item.type == "integer":
                forms = [display_answer(item), item.answer]
                others = [str(int(item.answer) + 1)]
            else:
                assert vocab is not None
                forms = [item.answer]
                others = [t for t in vocab.term_names if t != item.answer][:3]
            for form in forms:
                for template in templates:
                    yield Case(item, template.format(x=form), True), vocab
            for other in others:
                for answer in (other, f"{forms[0]} o {other}", f"no es {forms[0]}", f"Respuesta final: {other}"):
                    yield Case(item, answer, False), vocab


def test_every_bank_item() -> None:
    measure(list(bank_cases()), "bank")


def test_the_answer_reader_tokenizes_option_texts_and_terms_as_normalize_does() -> None:
    """Options and vocabulary forms are matched in an answer token by token: the answer's tokens must be
    what :func:`normalize` makes of the same text, or a right option text would go unread."""
    from club_agentes.quizzes.bank import default_bank
    from club_agentes.quizzes.grading import _lex, normalize

    bank = default_bank()
    texts = [o for gb in bank.games.values() for it in gb.items for o in it.options]
    texts += [f for gb in bank.games.values() for v in gb.vocabularies.values() for t in v.terms for f in t.forms]
    assert len(texts) > 500
    for text in texts:
        assert " ".join(t.norm for t in _lex(text, letters=True) if t.norm) == normalize(text), text
