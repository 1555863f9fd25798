"""Which events of a seat's answer are its own, and which older ones may be folded away.

A seat's own events are never folded under "(+N earlier: game_log)": the events told to it (a
private event whose audience holds the seat: the cards it was dealt or drew, its sealed choice)
and the public events of its own acts (the engine writes those ``seat N ...``, N the seat). Only
other seats' and the table's older events may be summarised by a count.
"""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.mcp_server.eventrow import EventRow


def is_own(e: EventRow, seat: int) -> bool:
    """Return whether ``e`` is ``seat``'s own event: told to it privately, or an act of its own (``seat 2 ...``)."""
    if e.audience is not None and seat in e.audience:
        return True
    text = e.text
    prefix = f"seat {seat}"
    return text.startswith(prefix) and text[len(prefix) : len(prefix) + 1] in (" ", ",", ":", "'")


def keep_own(events: Sequence[EventRow], seat: int, others: int) -> tuple[list[EventRow], int]:
    """Return ``(kept, folded)``: every own event of ``seat`` and the newest ``others`` other events, in order.

    ``folded`` counts the other events left out (the oldest ones).
    """
    other_idx = [i for i, e in enumerate(events) if not is_own(e, seat)]
    dropped = set(other_idx[: max(0, len(other_idx) - others)])
    return [e for i, e in enumerate(events) if i not in dropped], len(dropped)
