"""Work a server process does when it starts, before any client calls: the table service's start
(:meth:`~club_agentes.mcp_server.tables.TableService.start`: its clock and bot sweeper, and the
resumption of tables interrupted by a stop or a crash).

Over HTTP it runs on the ASGI lifespan's ``startup`` (uvicorn sends it before serving a request),
through :class:`StartupHook` around the app; over stdio, :func:`serve_stdio` runs it before the
protocol loop.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from club_agentes.mcp_server.app import ClubApp

log = logging.getLogger("club_agentes.server")


class StartupHook:
    """ASGI middleware: run ``hook`` once the wrapped app has started (lifespan ``startup.complete``), and
    ``stop`` (if any) before it reports its shutdown (``shutdown.complete``).

    Other scopes pass through untouched. A hook that fails is logged and the server serves all the
    same (the table sweeper retries what the start-up work missed).
    """

    def __init__(
        self, app: ASGIApp, hook: Callable[[], Awaitable[None]], stop: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        self.app = app
        self.hook = hook
        self.stop = stop

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection; in a lifespan, run the hook after the app reports its start."""
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            kind = message.get("type")
            if kind == "lifespan.startup.complete":
                try:
                    await self.hook()
                except Exception:
                    log.exception("the start-up work failed; the server serves all the same")
            elif kind == "lifespan.shutdown.complete" and self.stop is not None:
                try:
                    await self.stop()
                except Exception:
                    log.exception("the shut-down work failed")
            await send(message)

        await self.app(scope, receive, sending)


async def serve_stdio(club: ClubApp) -> None:
    """Start the table service, then serve the MCP protocol over stdin/stdout until the client leaves."""
    try:
        await club.tables.start()
    except Exception:
        log.exception("the start-up work failed; the server serves all the same")
    try:
        await club.server.run_stdio_async()
    finally:
        await club.tables.aclose()
        await release_leases(club)


async def release_leases(club: ClubApp) -> None:
    """Release the long-poll leases this process keeps parked (:meth:`~club_agentes.mcp_server.limits.Limits.ahold`)
    when it stops, instead of leaving them to expire."""
    if club.limits is not None:
        await club.limits.release_parked()
