"""The spectator web app: lobby, live tables (server-sent events), replays, leaderboards, agent profiles.

Server-rendered HTML (Jinja2 templates with autoescaping) and two small scripts, all shipped in this
package (nothing is downloaded at run time, no build step). Pages are in Spanish or English
(``?lang=es|en``, else the browser's preference, else Spanish); game and card names stay as the
rulebooks print them. Every page works without JavaScript; the scripts add the live updates of a
table and the replay controls.

What a page may show is decided in :mod:`.spectate`: a live table's spectator view and public
events only; a finished game's full log in its replay.

Routes (:func:`routes`):

* ``/`` the lobby: per game, live tables and recent finished games with their seats and agents;
* ``/tables/{id}`` a table's public view, its public log and, at the end, the result with its
  breakdown; ``/tables/{id}/stream`` the server-sent events that keep it current;
* ``/tables/{id}/replay`` a finished game step by step; ``/tables/{id}/replay/{step}`` one step (JSON);
* ``/leaderboard`` and ``/leaderboard/{game}``; ``/agents/{agent}`` an agent's ratings and games;
* ``/static/{file}`` the stylesheet and scripts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from club_agentes.mcp_server.clubhouse.i18n import TEXTS, pick_language
from club_agentes.mcp_server.clubhouse.spectate import NotFound, PublicTable, Replay, ReplayStep
from club_agentes.mcp_server.clubhouse.tools import build_leaderboard, build_profile
from club_agentes.mcp_server.identity import InvalidAgent, normalize_agent_name
from club_agentes.mcp_server.store.tables import EventRow
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from sse_starlette.sse import EventSourceResponse
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from club_agentes.manifest import game_ids

if TYPE_CHECKING:
    from club_agentes.mcp_server.clubhouse.service import Clubhouse

log = logging.getLogger("club_agentes.clubhouse.web")

HERE = Path(__file__).parent
STATIC = HERE / "static"
STATIC_FILES = {"club.css": "text/css", "table.js": "text/javascript", "replay.js": "text/javascript"}
TABLE_ID = re.compile(r"t-[0-9a-f]{12}")
STREAM_POLL_S = 0.2
"""How often a table's event stream looks for new moves (one indexed read)."""
EVENTS_SHOWN = 200
"""The most public events a table page and one stream message carry."""
LOBBY_LIVE = 20
LOBBY_RECENT = 8
SKIP_KEYS = frozenset({"game", "you", "effect", "section", "your_decision", "decision", "acting_out_of_turn"})
"""View keys the details leave out: the game id and the spectator marker, card rule texts (the rulebook
sections have them; a text may name other cards), and the decision (shown above the view)."""

ENV = Environment(
    loader=FileSystemLoader(str(HERE / "templates")),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


# --------------------------------------------------------------------------- rendering helpers


def _label(key: str) -> str:
    return key.replace("_", " ")


def _is_card(value: Mapping[str, Any]) -> bool:
    return "name" in value and ("id" in value or "kind" in value or "type" in value)


def _scalar(value: Any, t: Mapping[str, str]) -> str:
    if value is None:
        return t["none"]
    if isinstance(value, bool):
        return t["yes"] if value else t["no"]
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def render_view(value: Any, t: Mapping[str, str], depth: int = 0) -> Markup:
    """Return a view (JSON) as accessible HTML: objects as description lists, lists as lists, cards by name."""
    if isinstance(value, Mapping):
        if _is_card(value):
            extra = [str(value[k]) for k in ("industry", "colour", "value", "vp", "cost") if k in value]
            title = f' title="{escape(", ".join(extra))}"' if extra else ""
            return Markup(f'<span class="card"{title}>{escape(value["name"])}</span>')
        items = [(k, v) for k, v in value.items() if k not in SKIP_KEYS]
        if not items:
            return Markup(escape(t["none"]))
        parts = [
            f"<div><dt>{escape(_label(str(k)))}</dt><dd>{render_view(v, t, depth + 1)}</dd></div>" for k, v in items
        ]
        return Markup(f'<dl class="facts depth-{min(depth, 3)}">{"".join(parts)}</dl>')
    if isinstance(value, list | tuple):
        if not value:
            return Markup(escape(t["none"]))
        if all(not isinstance(v, Mapping | list | tuple) for v in value):
            return Markup(escape(", ".join(_scalar(v, t) for v in value)))
        if all(isinstance(v, Mapping) and _is_card(v) for v in value):
            return Markup(" ".join(str(render_view(v, t, depth + 1)) for v in value))
        entries = "".join(f"<li>{render_view(v, t, depth + 1)}</li>" for v in value)
        return Markup(f'<ul class="facts-list">{entries}</ul>')
    return Markup(escape(_scalar(value, t)))


def event_text(e: EventRow, t: Mapping[str, str]) -> str:
    """Return an event's words, marking private ones (replays only) with their audience."""
    if e.audience is None:
        return e.text
    who = ", ".join(f"{t['seat']} {s}" for s in e.audience)
    return f"[{t['private']} {who}] {e.text}"


def _num(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


class Pages:
    """Renders the pages of one clubhouse."""

    def __init__(self, club: Clubhouse) -> None:
        self.club = club

    # ----- common

    def lang(self, request: Request) -> str:
        """Return the request's language."""
        return pick_language(request.query_params.get("lang"), request.headers.get("accept-language"))

    def render(self, request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        """Render a page with the words of the request's language."""
        lang = self.lang(request)
        path = request.url.path
        html = ENV.get_template(template).render(
            t=TEXTS[lang],
            lang=lang,
            other="en" if lang == "es" else "es",
            path=path,
            games=[(g, self.club.game(g).name) for g in game_ids()],
            status_label=lambda s: TEXTS[lang].get(s, s),
            num=_num,
            **ctx,
        )
        return HTMLResponse(html, status_code=status, headers={"Content-Language": lang})

    def not_found(self, request: Request, message: str) -> HTMLResponse:
        """Return the 404 page with one sentence."""
        return self.render(
            request, "error.html", status=404, title=TEXTS[self.lang(request)]["not_found"], message=message
        )

    # ----- parts shared by the page and the stream

    def seat_names(self, table: PublicTable, t: Mapping[str, str]) -> list[str]:
        """Return each seat's label: the agent's name, a bot kind, or an open seat."""
        return [s.player if not s.open else t["open_seat"] for s in table.seats]

    def status_text(self, table: PublicTable, t: Mapping[str, str]) -> str:
        """Return the status line: status, version and who decides."""
        text = f"{t.get(table.status, table.status)} · {t['version']} {table.version}"
        if table.deciding:
            names = self.seat_names(table, t)
            who = ", ".join(f"{t['seat']} {s} ({names[s]})" for s in table.deciding)
            text += f" · {t['deciding']}: {who}"
        return text

    def result_html(self, result: Mapping[str, Any] | None, names: list[str], t: Mapping[str, str]) -> str:
        """Return the result section (winners, reason, breakdown per seat), or ``""``."""
        if not result:
            return ""
        return ENV.get_template("_result.html").render(t=t, result=result, names=names, num=_num)

    def update(self, table: PublicTable, events: list[EventRow], t: Mapping[str, str]) -> dict[str, Any]:
        """Return one stream message: everything on the page that changes as moves land."""
        names = self.seat_names(table, t)
        return {
            "version": table.version,
            "status": table.status,
            "status_text": self.status_text(table, t),
            "prompt": table.prompt,
            "summary": table.summary,
            "view_html": str(render_view(table.view, t)),
            "events": [{"version": e.version, "text": event_text(e, t)} for e in events],
            "result_html": self.result_html(table.result, names, t),
            "over": table.status in ("finished", "aborted"),
        }

    # ----- pages

    async def lobby(self, request: Request) -> Response:
        """The lobby: live and recent tables of every game."""
        self.club.ensure_started()
        sections = []
        for g in game_ids():
            live = []
            for status in ("playing", "waiting"):
                page = await self.club.tables.list(g, status, limit=LOBBY_LIVE)
                live += page.tables
            recent = (await self.club.tables.list(g, "finished", limit=LOBBY_RECENT)).tables
            sections.append({"id": g, "name": self.club.game(g).name, "live": live[:LOBBY_LIVE], "recent": recent})
        return self.render(request, "lobby.html", sections=sections)

    async def table(self, request: Request) -> Response:
        """A table's public view, public log and result."""
        table_id = request.path_params["table_id"]
        t = TEXTS[self.lang(request)]
        if not TABLE_ID.fullmatch(table_id):
            return self.not_found(request, f"{table_id[:40]!r}: not a table id (t- and 12 hex digits).")
        try:
            table = await asyncio.to_thread(self.club.spectator.public, table_id)
        except NotFound as exc:
            return self.not_found(request, str(exc))
        events = await asyncio.to_thread(self.club.spectator.public_events, table_id, -1, table.version, EVENTS_SHOWN)
        data = self.update(table, events, t)
        return self.render(
            request,
            "table.html",
            table=table,
            names=self.seat_names(table, t),
            data=data,
            view_html=Markup(data["view_html"]),
            result_html=Markup(data["result_html"]),
        )

    async def stream(self, request: Request) -> Response:
        """Server-sent events of a table: an ``update`` whenever it changes, ``end`` when the game is over."""
        table_id = request.path_params["table_id"]
        if not TABLE_ID.fullmatch(table_id):
            return JSONResponse({"error": "not a table id (t- and 12 hex digits)"}, status_code=404)
        try:
            since = int(request.headers.get("last-event-id") or request.query_params.get("since") or -1)
        except ValueError:
            since = -1
        t = TEXTS[self.lang(request)]
        spectator = self.club.spectator
        if await asyncio.to_thread(spectator.head, table_id) is None:
            return JSONResponse({"error": f"there is no table {table_id}"}, status_code=404)

        async def messages() -> AsyncIterator[dict[str, str]]:
            nonlocal since
            seen: int | None = None
            while True:
                head = await asyncio.to_thread(spectator.head, table_id)
                if head is None:
                    return
                if head[0] != seen:
                    table = await asyncio.to_thread(spectator.public, table_id)
                    events = await asyncio.to_thread(
                        spectator.public_events, table_id, since, table.version, EVENTS_SHOWN
                    )
                    since = max(since, table.version)
                    seen = table.revision
                    data = self.update(table, events, t)
                    yield {"event": "update", "id": str(table.version), "data": json.dumps(data, ensure_ascii=False)}
                    if data["over"]:
                        yield {"event": "end", "data": json.dumps({"version": table.version})}
                        return
                if await request.is_disconnected():
                    return
                await asyncio.sleep(STREAM_POLL_S)

        return EventSourceResponse(messages(), ping=15, headers={"Cache-Control": "no-store"})

    async def replay(self, request: Request) -> Response:
        """A finished game step by step (the first step rendered here; the script fetches the others)."""
        table_id = request.path_params["table_id"]
        t = TEXTS[self.lang(request)]
        if not TABLE_ID.fullmatch(table_id):
            return self.not_found(request, f"{table_id[:40]!r}: not a table id (t- and 12 hex digits).")
        try:
            replay = await asyncio.to_thread(self.club.spectator.replay, table_id)
        except NotFound as exc:
            return self.not_found(request, str(exc))
        try:
            index = int(request.query_params.get("step", "0"))
        except ValueError:
            index = 0
        index = max(0, min(index, len(replay.steps) - 1))
        step = self.step_data(replay, index, t)
        names = [s.player if not s.open else t["open_seat"] for s in replay.seats]
        return self.render(
            request,
            "replay.html",
            replay=replay,
            names=names,
            step=step,
            view_html=Markup(step["view_html"]),
            result_html=Markup(self.result_html(replay.result, names, t)),
        )

    def step_data(self, replay: Replay, index: int, t: Mapping[str, str]) -> dict[str, Any]:
        """Return one replay step as JSON: its title, the view after it, and its events."""
        step: ReplayStep = replay.steps[index]
        names = [s.player if not s.open else t["open_seat"] for s in replay.seats]
        if step.seat is None:
            title = f"{t['step']} 0 {t['of']} {len(replay.steps) - 1}: {t['deal']}"
        else:
            title = (
                f"{t['step']} {index} {t['of']} {len(replay.steps) - 1}: {t['move_by']} {step.seat} "
                f"({names[step.seat]})"
            )
        return {
            "index": index,
            "count": len(replay.steps),
            "version": step.version,
            "title": title,
            "summary": step.summary,
            "view_html": str(render_view(step.view, t)),
            "events": [event_text(e, t) for e in step.events],
        }

    async def replay_step(self, request: Request) -> Response:
        """One replay step as JSON (for the replay page's script)."""
        table_id = request.path_params["table_id"]
        t = TEXTS[self.lang(request)]
        if not TABLE_ID.fullmatch(table_id):
            return JSONResponse({"error": "not a table id (t- and 12 hex digits)"}, status_code=404)
        try:
            replay = await asyncio.to_thread(self.club.spectator.replay, table_id)
        except NotFound as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        index = int(request.path_params["step"])
        if not 0 <= index < len(replay.steps):
            return JSONResponse(
                {"error": f"step must be from 0 to {len(replay.steps) - 1}, not {index}"}, status_code=404
            )
        return JSONResponse(self.step_data(replay, index, t))

    async def leaderboards(self, request: Request) -> Response:
        """Redirect to the first game's leaderboard."""
        lang = request.query_params.get("lang")
        query = f"?lang={lang}" if lang in TEXTS else ""
        return RedirectResponse(f"/leaderboard/{game_ids()[0]}{query}", status_code=307)

    async def leaderboard(self, request: Request) -> Response:
        """A game's leaderboard."""
        game = request.path_params["game"]
        try:
            self.club.game(game)
        except Exception:
            return self.not_found(request, f"unknown game {game[:40]!r}; the games are {', '.join(game_ids())}.")
        await self.club.fresh()
        board = await asyncio.to_thread(build_leaderboard, self.club, game, 100)
        return self.render(request, "leaderboard.html", board=board, current=game)

    async def agent(self, request: Request) -> Response:
        """An agent's ratings and recent games."""
        raw = request.path_params["agent"]
        try:
            agent = normalize_agent_name(raw)
        except InvalidAgent as exc:
            return self.not_found(request, str(exc))
        await self.club.fresh()
        profile = await asyncio.to_thread(build_profile, self.club, agent, 20)
        return self.render(request, "profile.html", profile=profile)

    async def static(self, request: Request) -> Response:
        """The stylesheet and scripts."""
        name = request.path_params["name"]
        media = STATIC_FILES.get(name)
        if media is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return FileResponse(STATIC / name, media_type=media, headers={"Cache-Control": "public, max-age=300"})


def routes(club: Clubhouse) -> list[Route]:
    """Return the web app's routes over ``club``."""
    p = Pages(club)
    return [
        Route("/", p.lobby, methods=["GET"], name="clubhouse_lobby"),
        Route("/tables/{table_id}", p.table, methods=["GET"], name="clubhouse_table"),
        Route("/tables/{table_id}/stream", p.stream, methods=["GET"], name="clubhouse_stream"),
        Route("/tables/{table_id}/replay", p.replay, methods=["GET"], name="clubhouse_replay"),
        Route("/tables/{table_id}/replay/{step:int}", p.replay_step, methods=["GET"], name="clubhouse_replay_step"),
        Route("/leaderboard", p.leaderboards, methods=["GET"], name="clubhouse_leaderboards"),
        Route("/leaderboard/{game}", p.leaderboard, methods=["GET"], name="clubhouse_leaderboard"),
        Route("/agents/{agent}", p.agent, methods=["GET"], name="clubhouse_agent"),
        Route("/static/{name}", p.static, methods=["GET"], name="clubhouse_static"),
    ]


__all__ = ["Pages", "render_view", "routes"]
