"""What the drawn table is drawn from: a scene built around the engine's view, and the files that draw it.

The drawing itself is one script, ``static/draw.js`` with ``static/draw.css``, used by the spectator
pages (live table and replay) and by the MCP App (:mod:`club_agentes.mcp_server.ui_app`), so a table
looks the same in a browser and beside an agent's tool calls. It draws from a *scene*: the engine's view
(``game.view(state, seat)``: the spectator's view, or a seat's with its own hand) and what the view does
not hold: who sits where with their rating, the last move named in one line, the decision in words and,
for Market Fortune, the Fortune die's last roll (the view does not carry it; the public events do).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from club_agentes.mcp_server.eventrow import EventRow

if TYPE_CHECKING:
    from club_agentes.mcp_server.clubhouse.spectate import MoveLine, Replay, ReplayStep
    from club_agentes.mcp_server.clubhouse.words import Words

STATIC = Path(__file__).parent / "static"
SCRIPT = STATIC / "draw.js"
STYLE = STATIC / "draw.css"

ROLL = re.compile(r"seat (\d+)[^.;]*?(?:rolled|the die shows) ([+−])")
"""A Market Fortune event that names a roll of the Fortune die: ``seat 2 chose Arriesgar: the die shows +``,
``Fortuna: seat 1 rolled −``, ``seat 0 did not defend against Riesgo Sistémico, rolled +``."""
MOVE_LINE_CHARS = 140
"""The most characters of a move's line in a replay's move list."""


def scene(
    *,
    game: str,
    view: dict[str, Any],
    version: int,
    seats: list[dict[str, Any]],
    deciding: list[int],
    winners: list[int],
    last: dict[str, Any] | None,
    prompt: str,
    die: dict[str, Any] | None,
    you: int | None = None,
) -> dict[str, Any]:
    """Return what ``draw.js`` draws a table from.

    Args:
        game: the game id.
        view: the engine's view (``game.view(state, None)``), sent without card rule texts (:func:`drawn_view`).
        version: the table version the view is at.
        seats: per seat ``{seat, name, kind, href, rating, mu, sigma}`` (rating: mu - 3 sigma, or ``None``).
        deciding: the seats that must decide now.
        winners: the winning seats once the game is over.
        last: the last move, ``{seat, version, text}`` (seat ``None``: the deal), or ``None`` before any.
        prompt: the decision in words for the page's reader.
        die: Market Fortune's last roll of the Fortune die ``{seat, plus, version}``, else ``None``.
        you: the seat whose view this is (its hand is drawn face up), ``None`` for a spectator.
    """
    return {
        "game": game,
        "view": drawn_view(view),
        "version": version,
        "seats": seats,
        "you": you,
        "deciding": deciding,
        "winners": winners,
        "last": last,
        "prompt": prompt,
        "die": die,
    }


CARD_TEXT_KEYS = frozenset({"effect", "section"})
"""Card keys a page's drawing leaves out: a card's rule text (it may name other cards; the rulebook section has it)
and its section id."""


def drawn_view(view: Any) -> Any:
    """Return ``view`` without the card rule texts the drawing does not show (:data:`CARD_TEXT_KEYS`)."""
    if isinstance(view, dict):
        return {k: drawn_view(v) for k, v in view.items() if k not in CARD_TEXT_KEYS}
    if isinstance(view, list):
        return [drawn_view(v) for v in view]
    return view


def first_public(events: Sequence[EventRow], version: int) -> EventRow | None:
    """Return the first event of ``version`` everyone was told, else its first event, else ``None``."""
    mine = [e for e in events if e.version == version]
    for e in mine:
        if e.audience is None:
            return e
    return mine[0] if mine else None


def last_move(version: int, seat: int | None, events: Sequence[EventRow], words: Words) -> dict[str, Any] | None:
    """Return the last move in one line: who played it, its first public event in the page's language and the
    language those words are in (``en`` for a sentence no pattern reads), or ``None`` before any move."""
    if version <= 0:
        return None
    e = first_public(events, version)
    text, lang = words.event_said(e.text) if e is not None else ("", words.lang)
    return {"seat": seat, "version": version, "text": text, "lang": lang}


def last_roll(game: str, events: Sequence[EventRow]) -> dict[str, Any] | None:
    """Return Market Fortune's last roll of the Fortune die named by ``events`` (oldest first), else ``None``.

    Only public events are read: a private event never reaches a spectator's drawing.
    """
    if game != "market-fortune":
        return None
    for e in reversed(events):
        if e.audience is not None:
            continue
        m = ROLL.search(e.text)
        if m:
            return {"seat": int(m.group(1)), "plus": m.group(2) == "+", "version": e.version}
    return None


def replay_scene(
    replay: Replay, step: ReplayStep, die: dict[str, Any] | None, seats: list[dict[str, Any]], words: Words
) -> dict[str, Any]:
    """Return the scene of a replay's step: the spectator's view after it, its move in one line.

    ``die`` is Market Fortune's last roll at or before the step (:func:`last_roll` over the public events
    before it), else ``None``.
    """
    over = step.version == replay.count - 1
    winners = list((replay.result or {}).get("winners", [])) if over else []
    deciding = list(step.view.get("decision", {}).get("seats", [])) if not over else []
    return scene(
        game=replay.game,
        view=step.view,
        version=step.version,
        seats=seats,
        deciding=deciding,
        winners=winners,
        last=last_move(step.version, step.seat, step.events, words),
        prompt="",
        die=die,
    )


def move_list(lines: Sequence[MoveLine], names: list[str], words: Words) -> list[dict[str, Any]]:
    """Return one line per replay step of a window of the move list: its index, seat, player, first public event
    and the language that event's words are in."""
    out = []
    for line in lines:
        e = line.event
        text, lang = words.event_said(e.text) if e is not None and line.seat is not None else ("", words.lang)
        if len(text) > MOVE_LINE_CHARS:
            text = text[: MOVE_LINE_CHARS - 1] + "…"
        seat = line.seat
        player = names[seat] if seat is not None else ""
        out.append({"index": line.index, "seat": seat, "player": player, "text": text, "lang": lang})
    return out


def script() -> str:
    """Return the drawing script (``static/draw.js``)."""
    return SCRIPT.read_text(encoding="utf-8")


def style() -> str:
    """Return the drawing's stylesheet (``static/draw.css``)."""
    return STYLE.read_text(encoding="utf-8")
