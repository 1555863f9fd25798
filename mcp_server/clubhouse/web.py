"""The spectator web app: lobby, live tables (server-sent events), replays, leaderboards, agent profiles.

Server-rendered HTML (Jinja2 templates with autoescaping) and small scripts, all shipped in this package
(nothing is downloaded at run time, no build step, no inline script or style: the pages work under a
``script-src 'self'`` policy). Pages are in Spanish or English (``?lang=es|en``, else the browser's
preference, else Spanish); game and card names stay as the rulebooks print them.

A table is drawn by ``static/draw.js`` (:mod:`.draw` builds what it draws from: the engine's public
view, the seats with their ratings, the last move) as cards, piles and boards; the engine's compact text
of the view stays one click away, and every page works without JavaScript (the text and the log).

What a page may show is decided in :mod:`.spectate`: a live table's spectator view and public
events only; a finished game's full log in its replay.

Routes (:func:`routes`):

* ``/`` the lobby: per game, live tables and recent finished games with their seats and agents;
  ``/lobby/stream`` the server-sent events that keep it current;
* ``/tables/{id}`` a table drawn from its public view, its public log and, at the end, the result with
  its breakdown; ``/tables/{id}/stream`` the server-sent events that keep it current;
* ``/tables/{id}/replay`` a finished game step by step; ``/tables/{id}/replay/{step}`` one step (JSON);
* ``/leaderboard`` and ``/leaderboard/{game}``; ``/agents/{agent}`` an agent's ratings and games;
* ``/static/{file}`` the stylesheets, scripts and icon; ``/favicon.ico``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from club_agentes.mcp_server.clubhouse import draw
from club_agentes.mcp_server.clubhouse.i18n import DRAW_TEXTS, TEXTS, count_words, pick_language
from club_agentes.mcp_server.clubhouse.spectate import NotFound, PublicTable, Replay, ReplayBusy
from club_agentes.mcp_server.clubhouse.tools import build_leaderboard, build_profile
from club_agentes.mcp_server.clubhouse.words import Words
from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.heavy import off_loop
from club_agentes.mcp_server.identity import InvalidAgent, normalize_agent_name
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
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
STATIC_FILES = {
    "club.css": "text/css",
    "draw.css": "text/css",
    "draw.js": "text/javascript",
    "table.js": "text/javascript",
    "replay.js": "text/javascript",
    "lobby.js": "text/javascript",
    "favicon.svg": "image/svg+xml",
    "favicon.ico": "image/x-icon",
}
TABLE_ID = re.compile(r"t-[0-9a-f]{12}")
STREAM_POLL_S = 0.2
"""How often a table's event stream looks for new moves (one indexed read)."""
LOBBY_POLL_S = 2.0
"""How often the lobby's stream looks for changes (the listing is shared by every open lobby, see LOBBY_TTL_S)."""
LOBBY_TTL_S = 1.5
"""How long one rendering of the lobby's tables serves every lobby page and stream of a language."""
FINAL_MESSAGES = 32
"""Finished tables whose stream's last messages a worker keeps (a reconnecting spectator gets them at once: building
them cost tens of milliseconds of the event loop each, the attack benchmark's "spectator reconnects")."""
FINAL_TTL_S = 10.0
"""How long a finished table's kept stream messages serve (its seats' ratings may still be applied after the end)."""
EVENTS_SHOWN = 200
"""The most public events a table page and one stream message carry."""
MOVE_WINDOW = 200
"""The lines of a replay's move list one page shows (a window around the shown step)."""
BUSY_RETRY_S = 1
"""``Retry-After`` of a replay step that ran out of its CPU budget (the work done so far is kept)."""
LOBBY_LIVE = 20
LOBBY_RECENT = 8

ENV = Environment(
    loader=FileSystemLoader(str(HERE / "templates")),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _num(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def json_block(value: Any) -> Markup:
    """Return ``value`` as JSON safe inside a ``<script type="application/json">`` element (no ``</``)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


class Pages:
    """Renders the pages of one clubhouse."""

    def __init__(self, club: Clubhouse) -> None:
        self.club = club
        self._lobby: dict[str, tuple[float, str]] = {}
        self._lobby_lock = asyncio.Lock()
        self._final: OrderedDict[tuple[str, str, int], tuple[float, list[dict[str, str]]]] = OrderedDict()
        """The last messages of finished tables' streams, by table, language and revision, and when they were made."""

    # ----- common

    def lang(self, request: Request) -> str:
        """Return the request's language."""
        return pick_language(request.query_params.get("lang"), request.headers.get("accept-language"))

    def render(self, request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        """Render a page with the words of the request's language."""
        lang = self.lang(request)
        html = ENV.get_template(template).render(**self.context(lang, request.url.path), **ctx)
        return HTMLResponse(html, status_code=status, headers={"Content-Language": lang})

    def context(self, lang: str, path: str) -> dict[str, Any]:
        """Return what every template may use: the language's words and small helpers."""
        return {
            "t": TEXTS[lang],
            "lang": lang,
            "other": "en" if lang == "es" else "es",
            "path": path,
            "games": [(g, self.club.game(g).name) for g in game_ids()],
            "game_name": lambda g: self.club.game(g).name,
            "status_label": lambda s: TEXTS[lang].get(s, s),
            "plural": lambda n, key: count_words(lang, key, n),
            "num": _num,
        }

    def not_found(self, request: Request, message: str) -> HTMLResponse:
        """Return the 404 page with one sentence."""
        return self.render(
            request, "error.html", status=404, title=TEXTS[self.lang(request)]["not_found"], message=message
        )

    # ----- parts shared by the page and the stream

    def seat_names(self, table: PublicTable | Replay, t: Mapping[str, str]) -> list[str]:
        """Return each seat's label: the agent's name, a bot kind, or an open seat."""
        return [s.player if not s.open else t["open_seat"] for s in table.seats]

    def status_text(self, table: PublicTable, t: Mapping[str, str]) -> str:
        """Return the status line: status, moves so far and who decides."""
        text = f"{t.get(table.status, table.status)} · {t['moves']}: {table.version}"
        if table.deciding:
            names = self.seat_names(table, t)
            who = ", ".join(f"{t['seat']} {s} ({names[s]})" for s in table.deciding)
            text += f" · {t['deciding']}: {who}"
        return text

    def result_html(self, result: Mapping[str, Any] | None, names: list[str], words: Words) -> str:
        """Return the result section (winners, reason, breakdown per seat), or ``""``."""
        if not result:
            return ""
        return ENV.get_template("_result.html").render(
            t=TEXTS[words.lang], result=words.result(result), names=names, num=_num, raw=result
        )

    def update(self, table: PublicTable, events: list[EventRow], scene: dict[str, Any], words: Words) -> dict[str, Any]:
        """Return one stream message: everything on the page that changes as moves land."""
        t = TEXTS[words.lang]
        names = self.seat_names(table, t)
        return {
            "version": table.version,
            "status": table.status,
            "status_text": self.status_text(table, t),
            **self.text_view(words, table.view, table.summary, table.result),
            "scene": scene,
            "events": [{"version": e.version, **words.event_line(e)} for e in events],
            "result": words.result(table.result) if table.result else None,
            "result_html": self.result_html(table.result, names, words),
            "names": names,
            "over": table.status in ("finished", "aborted"),
        }

    def text_view(
        self, words: Words, view: Mapping[str, Any], summary: str, result: Mapping[str, Any] | None
    ) -> dict[str, str]:
        """Return the view as text in the page's language (``summary``) and the language it is in."""
        text, lang = words.text_view(view, summary, result)
        return {"summary": text, "summary_lang": lang}

    def table_scene(
        self, table: PublicTable, recent: list[EventRow], seat_info: list[dict[str, Any]], words: Words
    ) -> dict[str, Any]:
        """Return what the drawing of a live table needs (see :func:`.draw.scene`)."""
        last_seat = self.club.store.tables.load_moves(table.table_id, after=table.version - 1, upto=table.version)
        mover = last_seat[-1].seat if last_seat else None
        return draw.scene(
            game=table.game,
            view=table.view,
            version=table.version,
            seats=seat_info,
            deciding=list(table.deciding),
            winners=list((table.result or {}).get("winners", [])),
            last=draw.last_move(table.version, mover, recent, words),
            prompt=words.prompt(table.view, table.prompt) if table.prompt else "",
            die=draw.last_roll(table.game, recent),
        )

    def seat_info(self, game: str, table: PublicTable | Replay, lang: str) -> list[dict[str, Any]]:
        """Return each seat as the drawing shows it: name, rating (mu - 3 sigma) and a link for agents."""
        ratings = {s.row.player: s for s in self.club.standings(game)}
        t = TEXTS[lang]
        out = []
        for s in table.seats:
            st = ratings.get(s.player) if not s.open else None
            out.append(
                {
                    "seat": s.seat,
                    "name": s.player if not s.open else t["open_seat"],
                    "kind": "open" if s.open else s.kind,
                    "href": f"/agents/{s.player}?lang={lang}" if s.kind == "agent" and not s.open else None,
                    "rating": round(st.rating, 1) if st is not None else None,
                    "mu": round(st.row.mu, 1) if st is not None else None,
                    "sigma": round(st.row.sigma, 1) if st is not None else None,
                }
            )
        return out

    # ----- pages

    async def lobby_html(self, lang: str) -> str:
        """Return the lobby's tables as HTML (one rendering per language serves every page for LOBBY_TTL_S)."""
        cached = self._lobby.get(lang)
        if cached is not None and time.monotonic() - cached[0] < LOBBY_TTL_S:
            return cached[1]
        async with self._lobby_lock:
            cached = self._lobby.get(lang)
            if cached is not None and time.monotonic() - cached[0] < LOBBY_TTL_S:
                return cached[1]
            sections = []
            for g in game_ids():
                live = []
                for status in ("playing", "waiting"):
                    page = await self.club.tables.list(g, status, limit=LOBBY_LIVE)
                    live += page.tables
                recent = (await self.club.tables.list(g, "finished", limit=LOBBY_RECENT)).tables
                sections.append({"id": g, "name": self.club.game(g).name, "live": live[:LOBBY_LIVE], "recent": recent})
            html = ENV.get_template("_lobby_sections.html").render(**self.context(lang, "/"), sections=sections)
            self._lobby[lang] = (time.monotonic(), html)
            return html

    async def lobby(self, request: Request) -> Response:
        """The lobby: live and recent tables of every game."""
        self.club.ensure_started()
        lang = self.lang(request)
        return self.render(request, "lobby.html", sections_html=Markup(await self.lobby_html(lang)))

    async def lobby_stream(self, request: Request) -> Response:
        """Server-sent events of the lobby: an ``update`` with its tables whenever they change."""
        self.club.ensure_started()
        lang = self.lang(request)

        async def messages() -> AsyncIterator[dict[str, str]]:
            seen: str | None = None
            while True:
                html = await self.lobby_html(lang)
                if html != seen:
                    seen = html
                    yield {"event": "update", "data": json.dumps({"html": html}, ensure_ascii=False)}
                if await request.is_disconnected():
                    return
                await asyncio.sleep(LOBBY_POLL_S)

        return EventSourceResponse(messages(), ping=15, headers={"Cache-Control": "no-store"})

    async def table(self, request: Request) -> Response:
        """A table drawn from its public view, its public log and result."""
        table_id = request.path_params["table_id"]
        lang = self.lang(request)
        t = TEXTS[lang]
        if not TABLE_ID.fullmatch(table_id):
            return self.not_found(request, f"{table_id[:40]!r}: not a table id (t- and 12 hex digits).")
        try:
            table = await asyncio.to_thread(self.club.spectator.public, table_id)
        except NotFound as exc:
            return self.not_found(request, str(exc))
        words = Words(table.game, lang)
        await self.club.fresh()
        events = await asyncio.to_thread(self.club.spectator.public_events, table_id, -1, table.version, EVENTS_SHOWN)
        seats = await asyncio.to_thread(self.seat_info, table.game, table, lang)
        scene = await asyncio.to_thread(self.table_scene, table, events, seats, words)
        data = self.update(table, events, scene, words)
        return self.render(
            request,
            "table.html",
            table=table,
            names=self.seat_names(table, t),
            data=data,
            scene_json=json_block(scene),
            labels_json=json_block(DRAW_TEXTS[lang]),
            result_json=json_block({"result": data["result"], "names": data["names"]}),
            result_html=Markup(data["result_html"]),
            options=words.options(table_options(self.club, table_id)),
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
        lang = self.lang(request)
        spectator = self.club.spectator
        head = await asyncio.to_thread(spectator.head, table_id)
        if head is None:
            return JSONResponse({"error": f"there is no table {table_id}"}, status_code=404)

        kept_at, kept = self._final.get((table_id, lang, head[0]), (0.0, []))
        if since == -1 and head[2] in ("finished", "aborted") and kept and time.monotonic() - kept_at < FINAL_TTL_S:

            async def final() -> AsyncIterator[dict[str, str]]:
                for message in kept:
                    yield message

            return EventSourceResponse(final(), ping=15, headers={"Cache-Control": "no-store"})

        async def messages() -> AsyncIterator[dict[str, str]]:
            nonlocal since
            first = since == -1
            seen: int | None = None
            seats: list[dict[str, Any]] | None = None
            recent: list[EventRow] = []
            while True:
                head = await asyncio.to_thread(spectator.head, table_id)
                if head is None:
                    return
                if head[0] != seen:
                    table = await asyncio.to_thread(spectator.public, table_id)
                    words = Words(table.game, lang)
                    if seats is None or table.status != "playing":
                        await self.club.fresh()
                        seats = await asyncio.to_thread(self.seat_info, table.game, table, lang)
                    if not recent:
                        recent = await asyncio.to_thread(
                            spectator.public_events, table_id, -1, table.version, EVENTS_SHOWN
                        )
                        events = [e for e in recent if e.version > since]
                    else:
                        events = await asyncio.to_thread(
                            spectator.public_events, table_id, since, table.version, EVENTS_SHOWN
                        )
                        recent = (recent + events)[-EVENTS_SHOWN:]
                    since = max(since, table.version)
                    seen = table.revision
                    scene = await asyncio.to_thread(self.table_scene, table, recent, seats, words)
                    data = self.update(table, events, scene, words)
                    message = {
                        "event": "update",
                        "id": str(table.version),
                        "data": json.dumps(data, ensure_ascii=False),
                    }
                    yield message
                    opening, first = first, False
                    if data["over"]:
                        end = {"event": "end", "data": json.dumps({"version": table.version})}
                        if opening:  # the whole stream was the finished table's last messages
                            self._final[(table_id, lang, table.revision)] = (time.monotonic(), [message, end])
                            while len(self._final) > FINAL_MESSAGES:
                                self._final.popitem(last=False)
                        yield end
                        return
                if await request.is_disconnected():
                    return
                await asyncio.sleep(STREAM_POLL_S)

        return EventSourceResponse(messages(), ping=15, headers={"Cache-Control": "no-store"})

    async def replay(self, request: Request) -> Response:
        """A finished game step by step (the asked step rendered here; the script fetches the others).

        The page costs what it shows: one step (from the nearest checkpoint) and a window of
        :data:`MOVE_WINDOW` lines of the move list around it.
        """
        table_id = request.path_params["table_id"]
        lang = self.lang(request)
        t = TEXTS[lang]
        if not TABLE_ID.fullmatch(table_id):
            return self.not_found(request, f"{table_id[:40]!r}: not a table id (t- and 12 hex digits).")
        spectator = self.club.spectator
        try:
            replay = await asyncio.to_thread(spectator.replay, table_id)
        except NotFound as exc:
            return self.not_found(request, str(exc))
        try:
            index = int(request.query_params.get("step", "0")[:20])
        except ValueError:
            index = 0
        index = max(0, min(index, replay.count - 1))
        words = Words(replay.game, lang)
        await self.club.fresh()
        seats = await asyncio.to_thread(self.seat_info, replay.game, replay, lang)
        try:
            step = await off_loop(self.step_data, replay, index, seats, words)
        except ReplayBusy as exc:
            return busy_response(str(exc))
        names = self.seat_names(replay, t)
        first = max(0, min(index - MOVE_WINDOW // 2, replay.count - MOVE_WINDOW))
        lines = await off_loop(spectator.move_lines, replay, first, first + MOVE_WINDOW - 1)
        result = words.result(replay.result) if replay.result else None
        return await off_loop(
            self.render,
            request,
            "replay.html",
            replay=replay,
            names=names,
            step=step,
            moves=draw.move_list(lines, names, words),
            earlier=first - 1 if first > 0 else None,
            later=first + MOVE_WINDOW if first + MOVE_WINDOW < replay.count else None,
            scene_json=json_block(step["scene"]),
            labels_json=json_block(DRAW_TEXTS[lang]),
            result_json=json_block({"result": result, "names": names}),
            result_html=Markup(self.result_html(replay.result, names, words)),
            options=words.options(replay.options),
        )

    def step_data(self, replay: Replay, index: int, seats: list[dict[str, Any]], words: Words) -> dict[str, Any]:
        """Return one replay step as JSON: its title, the drawing's scene after it, its text and its events.

        Blocks (builds the step from its nearest checkpoint): call it from a worker thread.

        Raises:
            ReplayBusy: building the step ran out of its CPU budget.
        """
        t = TEXTS[words.lang]
        spectator = self.club.spectator
        step = spectator.replay_step(replay, index)
        die = None
        if replay.game == "market-fortune":
            die = spectator.look_back(replay.table_id, index, 1000, lambda es: draw.last_roll(replay.game, es))
        names = self.seat_names(replay, t)
        last = replay.count - 1
        if step.seat is None:
            title = f"{t['step']} 0 {t['of']} {last}: {t['deal']}"
        else:
            title = f"{t['step']} {index} {t['of']} {last}: {t['move_by']} {step.seat} ({names[step.seat]})"
        return {
            "index": index,
            "count": replay.count,
            "version": step.version,
            "title": title,
            **self.text_view(
                words, step.view, step.summary, replay.result if index == last and step.seat is not None else None
            ),
            "scene": draw.replay_scene(replay, step, die, seats, words),
            "events": [words.event_line(e) for e in step.events],
        }

    async def replay_step(self, request: Request) -> Response:
        """One replay step as JSON (for the replay page's script)."""
        table_id = request.path_params["table_id"]
        lang = self.lang(request)
        if not TABLE_ID.fullmatch(table_id):
            return JSONResponse({"error": "not a table id (t- and 12 hex digits)"}, status_code=404)
        try:
            replay = await asyncio.to_thread(self.club.spectator.replay, table_id)
        except NotFound as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        index = int(request.path_params["step"])
        if not 0 <= index < replay.count:
            return JSONResponse({"error": f"step must be from 0 to {replay.count - 1}, not {index}"}, status_code=404)
        seats = await asyncio.to_thread(self.seat_info, replay.game, replay, lang)
        try:
            data = await off_loop(self.step_data, replay, index, seats, Words(replay.game, lang))
        except ReplayBusy as exc:
            return busy_response(str(exc))
        return JSONResponse(data)

    async def leaderboards(self, request: Request) -> Response:
        """Redirect to the first game's leaderboard."""
        lang = request.query_params.get("lang")
        query = f"?lang={lang}" if lang in TEXTS else ""
        return RedirectResponse(f"/leaderboard/{game_ids()[0]}{query}", status_code=307)

    async def leaderboard(self, request: Request) -> Response:
        """A game's leaderboard, best conservative rating (mu - 3 sigma) first."""
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
        """The stylesheets, scripts and icons."""
        name = request.path_params["name"]
        media = STATIC_FILES.get(name)
        if media is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return FileResponse(STATIC / name, media_type=media, headers={"Cache-Control": "public, max-age=300"})

    async def favicon(self, request: Request) -> Response:
        """The icon browsers ask for at ``/favicon.ico``."""
        return FileResponse(
            STATIC / "favicon.ico", media_type="image/x-icon", headers={"Cache-Control": "public, max-age=86400"}
        )


def busy_response(message: str) -> JSONResponse:
    """Return the 503 answer of a replay step that ran out of its CPU budget (one sentence, ``Retry-After``)."""
    return JSONResponse({"error": message}, status_code=503, headers={"Retry-After": str(BUSY_RETRY_S)})


def table_options(club: Clubhouse, table_id: str) -> dict[str, Any]:
    """Return a table's game options as stored (``{}`` if the table is gone)."""
    row = club.store.tables.load_table(table_id)
    return dict(row.config) if row is not None else {}


def routes(club: Clubhouse) -> list[Route]:
    """Return the web app's routes over ``club``."""
    p = Pages(club)
    return [
        Route("/", p.lobby, methods=["GET"], name="clubhouse_lobby"),
        Route("/lobby/stream", p.lobby_stream, methods=["GET"], name="clubhouse_lobby_stream"),
        Route("/tables/{table_id}", p.table, methods=["GET"], name="clubhouse_table"),
        Route("/tables/{table_id}/stream", p.stream, methods=["GET"], name="clubhouse_stream"),
        Route("/tables/{table_id}/replay", p.replay, methods=["GET"], name="clubhouse_replay"),
        Route("/tables/{table_id}/replay/{step:int}", p.replay_step, methods=["GET"], name="clubhouse_replay_step"),
        Route("/leaderboard", p.leaderboards, methods=["GET"], name="clubhouse_leaderboards"),
        Route("/leaderboard/{game}", p.leaderboard, methods=["GET"], name="clubhouse_leaderboard"),
        Route("/agents/{agent}", p.agent, methods=["GET"], name="clubhouse_agent"),
        Route("/static/{name}", p.static, methods=["GET"], name="clubhouse_static"),
        Route("/favicon.ico", p.favicon, methods=["GET"], name="clubhouse_favicon"),
    ]


__all__ = ["Pages", "json_block", "routes"]
