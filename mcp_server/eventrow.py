"""The one event type of the table service: :class:`EventRow`, an event of a table's log.

The engine's rules produce :class:`~club_agentes.engine.core.Event` (text, audience, data); a turn makes rows of
them once (:func:`event_rows`: each with the version its move created and its place in the table's log), and
that row is what everything after the rules passes on: what ``Append.events`` carries and the store writes and
reads back (``table_events``), what a live table keeps in its tail, what the bot lanes return (a lane builds
them in its worker process: rows pickle), and what the presenter turns into the wire model ``EventInfo``.

The place of a row (``idx``) has one source of truth, the table's stored ``event_count``: a turn numbers its
rows from the count its live table holds (``LiveTable.event_count``, the stored count as it last read or wrote
it), and the store takes them only at that place (a row built on an older count means the log moved on: the
write is refused as stale).

This module imports only the engine, so that lane processes start quickly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from club_agentes.engine.core import Event


@dataclass(frozen=True, slots=True)
class EventRow:
    """One event of a table's log, as stored and as passed on by the table service.

    Attributes:
        idx: its place in the table's event log (0-based).
        version: the table version of the move that caused it (0: the deal).
        audience: the seats that may see it, or ``None`` for everyone.
        text: one English sentence.
        data: JSON-able details with the same visibility as the text, or ``None``.
    """

    idx: int
    version: int
    audience: tuple[int, ...] | None
    text: str
    data: dict[str, Any] | None


def event_rows(events: Iterable[Event], version: int, first: int) -> list[EventRow]:
    """Return the engine's ``events`` caused by the move that created ``version`` as rows, the first at place
    ``first`` of the table's log and the others after it.

    Each row owns its data (a shallow copy: the engine words many events once and shares them). Raises nothing.
    """
    return [
        EventRow(
            first + i,
            version,
            tuple(e.audience) if e.audience is not None else None,
            e.text,
            dict(e.data) if e.data is not None else None,
        )
        for i, e in enumerate(events)
    ]
