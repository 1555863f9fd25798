"""The clubhouse: ratings, finding opponents, and a spectator web app (issue 17).

* :mod:`.ratings`: an openskill rating per agent per game from every finished game with an agent
  seat; bot kinds are fixed anchors; recomputable from the finished tables (``club-agentes ratings
  rebuild``).
* :mod:`.matchmaking`: ``seek_game``, a queue per game, seat count and options in the store,
  pairing close ratings, bot fill after ``max_wait_s``; works across workers.
* :mod:`.spectate` and :mod:`.web`: the public view of live tables (server-sent events), replays,
  leaderboards and agent pages, served at ``/`` by ``serve --http``.
* :mod:`.tools`: the MCP tools ``leaderboard``, ``agent_profile`` and ``seek_game``.

Wiring: :func:`register_clubhouse` (called by ``build_app``) registers the tools and the web
routes (as the SDK's custom routes, so ``streamable_http_app`` serves them beside ``/mcp``, without
agent keys: spectators see public information only).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from club_agentes.mcp_server.clubhouse.service import Clubhouse
from club_agentes.mcp_server.clubhouse.tools import register_clubhouse_tools
from club_agentes.mcp_server.clubhouse.web import routes
from starlette.routing import Route

if TYPE_CHECKING:
    from club_agentes.mcp_server.app import ClubApp

_CLUBHOUSES: weakref.WeakKeyDictionary[object, Clubhouse] = weakref.WeakKeyDictionary()
_REGISTERED: weakref.WeakSet[object] = weakref.WeakSet()


def clubhouse_of(app: ClubApp) -> Clubhouse:
    """Return the clubhouse of ``app`` (made on first use: one per server)."""
    club = _CLUBHOUSES.get(app.server)
    if club is None:
        base = app.settings.base_url if app.settings.http else None
        club = Clubhouse(app.store, app.tables, base_url=base)
        limits = app.settings.limits
        club.spectator.replays.max_bytes = limits.replay_cache_mb * 2**20 if limits.replay_cache_mb else None
        club.spectator.replay_cpu_s = limits.replay_cpu_ms / 1000 if limits.replay_cpu_ms else None
        _CLUBHOUSES[app.server] = club
    return club


def web_routes(app: ClubApp) -> list[Route]:
    """Return the spectator web app's routes (``/``, ``/tables/...``, ``/leaderboard/...``, ``/static/...``)."""
    return routes(clubhouse_of(app))


def register_clubhouse(app: ClubApp, *, web: bool = True) -> Clubhouse:
    """Register the tools ``leaderboard``, ``agent_profile`` and ``seek_game`` on ``app.server``, and (with
    ``web``) the web app's routes as the server's custom HTTP routes; return the clubhouse.

    The background rating task starts on first use inside the server's event loop. Calling it again for the
    same server changes nothing.
    """
    club = clubhouse_of(app)
    if app.server in _REGISTERED:
        return club  # already registered (build_app does it; a test harness may call it again)
    _REGISTERED.add(app.server)
    register_clubhouse_tools(app.server, club, app.limits)
    if web:
        for r in web_routes(app):
            app.server.custom_route(r.path, methods=["GET"], name=r.name, include_in_schema=False)(r.endpoint)
    return club


__all__ = ["Clubhouse", "clubhouse_of", "register_clubhouse", "web_routes"]
