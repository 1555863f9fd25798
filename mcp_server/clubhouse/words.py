"""The engine's public texts in the page's language: events, decisions, results and options.

The engines write their events, prompts and result lines in English (they are written for models); the
Spanish page shows them in Spanish, the English page as written. :class:`Words` is the one door: the web
app passes every engine text through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from club_agentes.mcp_server.clubhouse.i18n import TEXTS
from club_agentes.mcp_server.store.tables import EventRow


class Words:
    """The engine's public texts of one game in one language (``es`` or ``en``)."""

    def __init__(self, game: str, lang: str) -> None:
        self.game = game
        self.lang = lang

    def event(self, text: str) -> str:
        """Return an event's sentence in the page's language."""
        return text

    def event_line(self, e: EventRow) -> str:
        """Return an event's words, marking private ones (replays only) with their audience."""
        t = TEXTS[self.lang]
        text = self.event(e.text)
        if e.audience is None:
            return text
        who = ", ".join(f"{t['seat']} {s}" for s in e.audience)
        return f"[{t['private']} {who}] {text}"

    def prompt(self, view: Mapping[str, Any], prompt: str) -> str:
        """Return the decision's sentence in the page's language."""
        return prompt

    def result(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """Return a stored result with its reason and breakdown lines in the page's language."""
        return {
            **result,
            "breakdown": [
                {**b, "lines": [dict(line) for line in b.get("lines", [])]} for b in result.get("breakdown", [])
            ],
        }

    def options(self, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Return a table's game options as ``(name, value)`` pairs in the page's language."""
        return [(str(k), str(v)) for k, v in options.items()]
