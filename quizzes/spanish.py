"""Spanish text helpers for the grader: accent folding and whole numbers written as words.

:func:`number_to_words` is the inverse of ``text2num`` for whole numbers: the grader's
property tests use it to write any number the way a Spanish speaker would.
"""

from __future__ import annotations

import unicodedata

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


def fold(text: str) -> str:
    """Return ``text`` in lower case without accents or diaeresis (``"Acción"`` -> ``"accion"``).

    ``ñ`` becomes ``n``. Never raises.
    """
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


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
