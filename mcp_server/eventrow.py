"""The event row of the table service: :class:`EventRow`, an event of a table's log.

This module imports nothing of the store, so that bot lane processes can build rows and still start quickly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class EventRow:
    """One event of a table's log.

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
