"""Spanish wording shared by every game's templates: lists, counts, names of people at the table.

Templates write their prompts with these helpers so that the slips a template can make once and
repeat thousands of times (a list of one written as a list, "ningún" without "no", a plural
verb on one thing) are written correctly in one place. The grammar tests render hundreds of
items per game and check them for those slips.
"""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.engine.core import Rng
from club_agentes.engine.core.text import fold

PEOPLE: tuple[str, ...] = ("Ana", "Beto", "Carla", "Darío", "Elena", "Fede", "Gabi", "Hugo", "Inés", "Julio")
"""Names for the other people at a table (the reader is always "tú")."""

_NUMBERS = {
    1: ("un", "una"),
    2: ("dos", "dos"),
    3: ("tres", "tres"),
    4: ("cuatro", "cuatro"),
    5: ("cinco", "cinco"),
    6: ("seis", "seis"),
    7: ("siete", "siete"),
    8: ("ocho", "ocho"),
    9: ("nueve", "nueve"),
    10: ("diez", "diez"),
}


def _conjunction(word: str, last: str) -> str:
    """``y`` becomes ``e`` before an /i/ sound, ``o`` becomes ``u`` before an /o/ sound."""
    head = fold(last.lstrip('¡¿"«(')).split(" ", 1)[0]
    if word == "y" and (head.startswith("i") or (head.startswith("hi") and not head.startswith("hie"))):
        return "e"
    if word == "o" and (head.startswith("o") or head.startswith("ho")):
        return "u"
    return word


def join(items: Sequence[str], word: str = "y") -> str:
    """Join ``items`` as Spanish lists are written: ``"A"``, ``"A y B"``, ``"A, B y C"`` (``y``/``e``, ``o``/``u``).

    Raises:
        ValueError: ``items`` is empty.
    """
    if not items:
        raise ValueError("join() needs at least one item")
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {_conjunction(word, items[-1])} {items[-1]}"


def number(n: int, *, feminine: bool = False) -> str:
    """Write ``n`` before a noun: words up to ten (``"una"``, ``"tres"``), digits above."""
    if n in _NUMBERS:
        return _NUMBERS[n][1 if feminine else 0]
    return str(n)


def count(n: int, singular: str, plural: str, *, feminine: bool = False, zero: str = "") -> str:
    """Write a quantity with its noun in the right number: ``"una inversión"``, ``"3 inversiones"``.

    ``zero`` is the phrase for none (e.g. ``"ninguna inversión"``); without it, ``"0 <plural>"``.
    """
    if n == 0:
        return zero or f"0 {plural}"
    return f"{number(n, feminine=feminine)} {singular if n == 1 else plural}"


def people(rng: Rng, k: int) -> list[str]:
    """Return ``k`` distinct names from :data:`PEOPLE`, in a random order.

    Raises:
        ValueError: more names asked than there are.
    """
    if k > len(PEOPLE):
        raise ValueError(f"only {len(PEOPLE)} names are available")
    names = list(PEOPLE)
    rng.shuffle(names)
    return names[:k]


def capital(text: str) -> str:
    """Return ``text`` with its first letter in upper case (the rest unchanged)."""
    return text[:1].upper() + text[1:]
