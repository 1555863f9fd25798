"""Spanish text helpers for the grader: whole numbers written as words, and the phrases that frame
an answer in a sentence (markers, reasons, negations, hedges, bounds). Accents are folded by the one
folding function of the project, :func:`club_agentes.engine.core.text.fold`.

:func:`number_to_words` is the inverse of ``text2num`` for whole numbers: the grader's
property tests use it to write any number the way a Spanish speaker would. The phrase lists
are data for :mod:`club_agentes.quizzes.grading`; each is a tuple of folded token tuples
(or a set of folded words), so that adding a phrasing is a one-line change here.
"""

from __future__ import annotations

_UNITS = (
    "cero",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
)
_TENS = ("", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa")
_HUNDREDS = (
    "",
    "ciento",
    "doscientos",
    "trescientos",
    "cuatrocientos",
    "quinientos",
    "seiscientos",
    "setecientos",
    "ochocientos",
    "novecientos",
)
_MAX = 10**12 - 1


def _below_thousand(n: int, apocope: bool) -> str:
    """Words for ``0 < n < 1000``; ``apocope`` shortens a final "uno" to "un" (before a noun)."""
    hundreds, rest = divmod(n, 100)
    words: list[str] = []
    if hundreds:
        words.append("cien" if hundreds == 1 and rest == 0 else _HUNDREDS[hundreds])
    if rest:
        if rest < 30:
            word = _UNITS[rest]
        else:
            tens, unit = divmod(rest, 10)
            word = _TENS[tens] if unit == 0 else f"{_TENS[tens]} y {_UNITS[unit]}"
        if apocope and word.endswith("uno"):
            word = word[:-3] + ("ún" if word == "veintiuno" else "un")
        words.append(word)
    return " ".join(words)


def number_to_words(n: int, *, apocope: bool = False) -> str:
    """Write a whole number in Spanish words (``66`` -> ``"sesenta y seis"``).

    ``apocope=True`` writes the form used before a noun (``21`` -> ``"veintiún"``,
    ``1`` -> ``"un"``), as in "veintiún millones". Negative numbers start with
    ``"menos"``.

    Raises:
        ValueError: ``abs(n)`` is 10**12 or more.
    """
    if abs(n) > _MAX:
        raise ValueError(f"number_to_words() handles numbers below 10**12, got {n}")
    if n < 0:
        return "menos " + number_to_words(-n, apocope=apocope)
    if n == 0:
        return "cero"
    millions, rest = divmod(n, 10**6)
    thousands, units = divmod(rest, 1000)
    words: list[str] = []
    if millions:
        words.append("un millón" if millions == 1 else number_to_words(millions, apocope=True) + " millones")
    if thousands:
        words.append("mil" if thousands == 1 else _below_thousand(thousands, apocope=True) + " mil")
    if units:
        words.append(_below_thousand(units, apocope))
    return " ".join(words)


# --------------------------------------------------------------------------- how answers are phrased
#
# Phrases the grader looks for around a candidate answer, as tuples of folded tokens (lower
# case, no accents; punctuation marks are tokens of their own). Spanish first, with the few
# English forms agents often use.

Phrase = tuple[str, ...]


def _phrases(*texts: str) -> tuple[Phrase, ...]:
    """Split each space-separated phrase into its tokens."""
    return tuple(tuple(t.split()) for t in texts)


# An explicit statement of the answer: what follows the last one is the answer; what came
# before it (deliberation) is set aside.
ANSWER_MARKERS = _phrases(
    "respuesta final",
    "mi respuesta",
    "la respuesta",
    "respuesta correcta",
    "respuesta",
    "solucion",
    "resultado",
    "me quedo con",
    "elijo",
    "escojo",
    "final answer",
    "correct answer",
    "answer",
    "i choose",
    "i pick",
)
# A conclusion after reasoning ("tienes 6 y juegas 2, entonces 4"): what follows the last one
# is the answer unless the reasoning before it hedges.
CONCLUSION_MARKERS = _phrases(
    "creo que",
    "pienso que",
    "diria que",
    "yo diria",
    "me parece que",
    "opino que",
    "considero que",
    "supongo que",
    "entonces",
    "por lo tanto",
    "por tanto",
    "asi que",
    "en total",
    "total",
    "o sea",
    "es decir",
    "en resumen",
    "en conclusion",
    "=",
    "→",
    "⇒",
    "i think",
    "i would say",
    "therefore",
    "thus",
)
# What follows one of these, once an answer was named, explains it.
REASON_CONNECTORS = _phrases(
    "porque",
    "ya que",
    "puesto que",
    "dado que",
    "pues",
    "debido a",
    "visto que",
    "because",
    "since",
    "given that",
)
# Words that deny what follows them ("no es la A", "cualquiera menos la A", "ni 4 ni 5").
NEGATORS = frozenset(
    {"no", "not", "nunca", "never", "ni", "nor", "menos", "excepto", "salvo", "except", "tampoco", "jamas"}
)
# Words that deny what comes before them ("la A es incorrecta", "4 no").
POST_NEGATORS = frozenset(
    {"no", "incorrecta", "incorrecto", "falsa", "falso", "erronea", "erroneo", "wrong", "incorrect", "false"}
)
# After a candidate, "no" denies it only at the end of a clause or before one of these ("la A no es"),
# not in "A, no sé" or "B no se juega".
POST_NEGATION_VERBS = frozenset({"es", "son", "sera", "seria", "vale", "is"})
# Words that may stand between a negator and what it denies ("no creo que sea la A").
NEGATION_FILLERS = frozenset(
    {
        "es",
        "son",
        "sea",
        "sean",
        "seria",
        "serian",
        "sera",
        "seran",
        "fue",
        "fuera",
        "fueran",
        "la",
        "el",
        "los",
        "las",
        "lo",
        "un",
        "una",
        "opcion",
        "letra",
        "respuesta",
        "alternativa",
        "correcta",
        "correcto",
        "exactamente",
        "creo",
        "pienso",
        "que",
        "de",
        "a",
        "is",
        "the",
        "option",
        "answer",
        "it",
        "be",
        "would",
    }
)
# Words that make an answer naming two candidates a hedge rather than a restatement.
HEDGES = _phrases(
    "o",
    "u",
    "or",
    "entre",
    "quiza",
    "quizas",
    "tal vez",
    "puede que",
    "puede ser",
    "podria",
    "posiblemente",
    "aunque",
    "dudo",
    "depende",
    "tambien",
    "no se",
    "no lo se",
    "ni idea",
    "no estoy seguro",
    "no estoy segura",
    "maybe",
    "perhaps",
    "either",
    "also",
)
# Words that may join two candidates listed side by side ("4 y 5", "B/C", "de 4 a 5").
LIST_JOINERS = frozenset({"y", "e", "o", "u", "ni", "a", "al", "hasta", "entre", "de", "and", "or", "to"})
# "Unos 25", "alrededor de 25", "aproximadamente 25" mean 25 (a regular expression over lower-case text).
APPROXIMATORS = (
    r"unos|unas|alrededor\s+de|aproximadamente|aprox\.?|cerca\s+de|m[aá]s\s+o\s+menos|"
    r"about|around|approximately|roughly|approx\.?|[~≈]"
)
# "Cada uno", "cada una": "each", not the number 1 (a regular expression over lower-case text).
NOT_NUMBERS = r"(?<=cada)\s+un[oa](?!\w)"
# Bounds: "más de 4" or "4 o más" is not 4. Lower and upper bounds are accepted when the prompt
# itself asks for a minimum or a maximum ("¿cuántas cartas como máximo...?" -> "hasta 10").
LOWER_BOUNDS_BEFORE = _phrases("al menos", "por lo menos", "como minimo", "como poco", "minimo", "at least", "≥", "> =")
UPPER_BOUNDS_BEFORE = _phrases(
    "hasta", "como maximo", "como mucho", "a lo sumo", "maximo", "at most", "up to", "≤", "< ="
)
STRICT_BOUNDS_BEFORE = _phrases(
    "mas de",
    "menos de",
    "mayor que",
    "menor que",
    "superior a",
    "inferior a",
    "por encima de",
    "por debajo de",
    "more than",
    "less than",
    "over",
    "under",
    ">",
    "<",
)
LOWER_BOUNDS_AFTER = _phrases("o mas", "como minimo", "al menos", "or more", "+", "o superior")
UPPER_BOUNDS_AFTER = _phrases("o menos", "como maximo", "a lo sumo", "or less", "or fewer", "o inferior")
# Prompt words that make a lower or an upper bound a fair way to answer.
PROMPT_LOWER_WORDS = _phrases("minimo", "al menos", "por lo menos", "como poco", "at least")
PROMPT_UPPER_WORDS = _phrases("maximo", "hasta", "limite", "como mucho", "a lo sumo", "tope", "at most", "up to")
# Words after which a lowercase "a" is the option letter A ("la a", "opción a").
LETTER_INTRODUCERS = frozenset({"la", "opcion", "letra", "alternativa", "inciso", "option", "answer", "("})
# Lowercase words that may follow a capital "A" that is the option letter ("A y B", "A porque...");
# after any other lowercase word a capital "A" is the preposition ("A mi juicio...").
LETTER_A_FOLLOWERS = frozenset(
    {
        "o",
        "u",
        "y",
        "e",
        "ni",
        "no",
        "es",
        "seria",
        "sera",
        "porque",
        "pues",
        "ya",
        "segun",
        "dado",
        "puesto",
        "creo",
        "me",
        "sin",
        "or",
        "and",
        "is",
        "because",
        "since",
    }
)
