"""The one accent-folding function, shared by the move parser, the corpus search, the quiz grader and names.

Callers that also collapse spaces, drop punctuation or hash the result do that on top of :func:`fold`.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=4096)
def _fold_char(c: str) -> str:
    base = "".join(d for d in unicodedata.normalize("NFKD", c) if not unicodedata.combining(d))
    return base if len(base) == 1 else c


def fold(text: str) -> str:
    """Return ``text`` lower-cased without accents or diaeresis, one character for one.

    ``ñ`` becomes ``n``; a character whose decomposition is not one base letter (``ß``, ``ﬁ``) is kept
    as it is, so offsets found in the result hold in ``text.lower()``. Never raises.

    Example:
        >>> fold("Acción, Ñandú y PINGÜINO")
        'accion, nandu y pinguino'
    """
    return "".join(_fold_char(c) for c in text.lower())


def counted(n: int, one: str, many: str | None = None) -> str:
    """Return a count with its noun in the right number: ``1 game``, ``2 games``, ``0 strategies``.

    ``many`` is the plural when it is not ``one`` + "s" (``counted(2, "strategy", "strategies")``).
    """
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"
