"""The legal moves closest to a move that could not be read, at a cost bounded by the legal moves' length.

A refused move gets the closest legal moves as suggestions (``play_move``'s ``closest``). The similarity is
difflib's ratio, whose cost grows with the product of the two texts' lengths: a sent text of 500
characters compared with every legal move cost several milliseconds of the event loop per refused move
(the attack benchmark's "bad 500-char moves", profiled in benchmarks/attack.py's notes). Only the first
:func:`compared_length` characters of the sent text are compared (twice the longest legal move, at most
:data:`MAX_COMPARED`), and at most :data:`MAX_COMPARED` of each legal move's text and plain words, so one
comparison costs no more than two short texts' (a bound of 2x the longest legal move alone still left difflib
17% of the event loop under the attack: Se Vende's plain words are long).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from club_agentes.engine.core.text import fold
from club_agentes.mcp_server.tables.facts import MoveFacts

MARGIN = 16
"""Characters compared beyond twice the longest legal move (a few words of slack for short moves)."""
MAX_COMPARED = 96
"""The most characters of any text compared (a sent move's, a legal move's text or plain words): a typo shows in
the first words; the cost of one comparison is at most that of two texts of this length."""


def compared_length(moves: Sequence[MoveFacts]) -> int:
    """Return how many characters of a sent text are compared with ``moves``."""
    longest = max((max(len(m.text), len(m.says)) for m in moves), default=0)
    return min(MAX_COMPARED, 2 * longest + MARGIN)


def closest_moves(sent: str, moves: Sequence[MoveFacts], count: int = 3) -> list[MoveFacts]:
    """Return the ``count`` legal moves most like ``sent`` (by text or plain words), most alike first.

    Never raises.
    """
    target = fold(sent[: compared_length(moves)])
    matcher = difflib.SequenceMatcher(None)
    matcher.set_seq1(target)
    scored = []
    for i, m in enumerate(moves):
        matcher.set_seq2(fold(m.text[:MAX_COMPARED]))
        score = matcher.ratio()
        matcher.set_seq2(fold(m.says[:MAX_COMPARED]))
        score = max(score, 0.9 * matcher.ratio())
        scored.append((-score, i, m))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [m for _, _, m in scored[:count]]
