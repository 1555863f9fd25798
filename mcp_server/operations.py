"""Operations endpoints: ``/healthz`` for balancers and orchestrators, ``/metrics`` for Prometheus.

* ``GET /healthz``: 200 with ``{"status": "ok", ...}`` when the store answers a cheap query and every
  store component's migrations are applied; 503 with one sentence otherwise. No key, never counted
  against any limit, and served before the host check (a Kubernetes probe names the pod's IP as Host);
  it says nothing but whether this worker can serve.
* ``GET /metrics``: Prometheus text (``prometheus-client``), only under ``--metrics``
  (``CLUB_AGENTES_METRICS``), else 404. It asks for no key either: it counts requests, tool calls and
  moves, never names an agent or a table, so the operator keeps the path off the public balancer
  (scrape each worker directly). Each app has its own ``CollectorRegistry``, so several apps in one
  process (tests) never share a count.

Metrics (all per worker process): ``club_http_requests_total{route,status}`` (route is the first path
segment of a known route, else ``other``), ``club_tool_calls_total{tool}`` and
``club_tool_errors_total{tool}`` (unknown tool names count as ``unknown``), ``club_moves_total`` (moves
this worker applied and stored), ``club_live_tables``, ``club_waiters`` (calls waiting for a turn),
``club_lane_queue`` (bot work submitted to the lanes and not finished), and
``club_store_seconds{kind}`` (a histogram of store transactions, ``read`` or ``write``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import anyio
from club_agentes.mcp_server.store import Store
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from club_agentes.mcp_server.app import ClubApp
    from club_agentes.mcp_server.tables import TableService

HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"

HEALTH_TIMEOUT_S = 5.0
"""How long ``/healthz`` waits for the store before answering 503."""


def store_health(store: Store) -> str | None:
    """Return why ``store`` cannot serve (one sentence), or ``None`` when it answers and its migrations are current.

    Blocking (a store query): call it from a thread. Never raises.
    """
    from club_agentes.mcp_server.store import MIGRATIONS

    try:
        store.db.one("SELECT 1")
        applied = store.db.schema_versions()
    except Exception as exc:  # StoreError or any driver error: the store cannot be reached
        return f"The store does not answer a query ({type(exc).__name__})."
    wanted: dict[str, int] = {}
    for m in MIGRATIONS:
        wanted[m.component] = max(wanted.get(m.component, 0), m.version)
    behind = sorted(c for c, v in wanted.items() if applied.get(c, 0) < v)
    if behind:
        return f"The store's migrations are behind this server's for {', '.join(behind)}: restart a worker to migrate."
    return None


class _Gauges(Collector):
    """The gauges read at scrape time from the table service (nothing is kept between scrapes)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """Yield live tables, waiters and the lane queue, as the table service counts them now."""
        load = self.tables.load()
        yield GaugeMetricFamily("club_live_tables", "Tables this worker holds in memory.", value=load["live_tables"])
        yield GaugeMetricFamily("club_waiters", "Calls waiting for a turn on this worker.", value=load["waiters"])
        yield GaugeMetricFamily(
            "club_lane_queue", "Bot work submitted to the lanes and not finished.", value=load["lane_queue"]
        )


class Metrics:
    """One app's Prometheus metrics, in a registry of their own."""

    def __init__(self, tables: TableService, tools: Iterable[str]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.tools = set(tools)
        self.routes: set[str] = {HEALTH_PATH, METRICS_PATH}
        self.requests = Counter(
            "club_http_requests", "HTTP requests by route and status.", ["route", "status"], registry=self.registry
        )
        self.tool_calls = Counter("club_tool_calls", "Tool calls by tool.", ["tool"], registry=self.registry)
        self.tool_errors = Counter(
            "club_tool_errors", "Tool calls answered with an error, by tool.", ["tool"], registry=self.registry
        )
        self.moves = Counter("club_moves", "Moves this worker applied and stored.", registry=self.registry)
        self.store_seconds = Histogram(
            "club_store_seconds", "Store transactions by kind (read or write).", ["kind"], registry=self.registry
        )
        self.registry.register(_Gauges(tables))
        self._moves_seen = 0
        self._tables = tables
        # Labelled children, looked up once each: ``labels()`` checks and locks on every call, and it is asked
        # on every request, every tool call and every store transaction.
        self._children: dict[tuple[str, ...], Any] = {}

    def child(self, metric: Any, *values: str) -> Any:
        """Return ``metric.labels(*values)``, kept after the first call (the same child prometheus keeps)."""
        key = (str(id(metric)), *values)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*values)
        return found

    def route(self, path: str) -> str:
        """Return the route label of ``path``: its first segment when a known route starts with it, else ``other``."""
        first = "/" + path.lstrip("/").split("/", 1)[0]
        return first if first in self.routes else "other"

    def observe_store(self, kind: str, seconds: float) -> None:
        """Record one store transaction (the store's observer). Never raises."""
        self.child(self.store_seconds, kind).observe(seconds)

    def text(self) -> bytes:
        """Return the metrics in Prometheus text format."""
        done = self._tables.moves_applied
        if done > self._moves_seen:  # the service counts; the counter follows it at scrape time
            self.moves.inc(done - self._moves_seen)
            self._moves_seen = done
        return generate_latest(self.registry)


class ToolMetrics:
    """SDK server middleware: count each ``tools/call`` and each one answered with an error, by tool."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Serve one message, counting it when it is a tool call."""
        if ctx.method != "tools/call":
            return await call_next(ctx)
        params = ctx.params if isinstance(ctx.params, dict) else {}
        name = params.get("name")
        tool = name if isinstance(name, str) and name in self.metrics.tools else "unknown"
        metrics = self.metrics
        metrics.child(metrics.tool_calls, tool).inc()
        try:
            result = await call_next(ctx)
        except Exception:
            metrics.child(metrics.tool_errors, tool).inc()
            raise
        failed = result.get("isError") if isinstance(result, dict) else getattr(result, "is_error", False)
        if failed:
            metrics.child(metrics.tool_errors, tool).inc()
        return result


def install_metrics(club: ClubApp) -> Metrics:
    """Make ``club``'s metrics: count its tool calls and its store transactions. Returns them."""
    tools = [t.name for t in club.server._tool_manager.list_tools()]
    metrics = Metrics(club.tables, tools)
    club.server.middleware.append(ToolMetrics(metrics))
    club.store.db.observer = metrics.observe_store
    return metrics


class Operations:
    """ASGI layer (outside the host check and every limit): ``/healthz``, ``/metrics``, and request counts."""

    def __init__(self, app: ASGIApp, club: ClubApp, *, metrics: bool, routes: Iterable[str] = ()) -> None:
        self.app = app
        self.club = club
        self.serve_metrics = metrics
        self.metrics = club.metrics if club.metrics is not None else install_metrics(club)
        club.metrics = self.metrics
        self.metrics.routes.update("/" + r.lstrip("/").split("/", 1)[0] for r in routes)

    async def health(self) -> Response:
        """Answer ``/healthz``: 200 and a small JSON body, or 503 and one sentence."""
        with anyio.move_on_after(HEALTH_TIMEOUT_S):
            started = time.perf_counter()
            reason = await anyio.to_thread.run_sync(store_health, self.club.store, abandon_on_cancel=True)
            if reason is None:
                ms = round((time.perf_counter() - started) * 1000, 1)
                return JSONResponse({"status": "ok", "store": self.club.store.db.dialect, "store_ms": ms})
            return PlainTextResponse(reason, status_code=503, headers={"Cache-Control": "no-store"})
        return PlainTextResponse(
            f"The store did not answer within {HEALTH_TIMEOUT_S:g} seconds.",
            status_code=503,
            headers={"Cache-Control": "no-store"},
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI event."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        response: Response | None = None
        if path == HEALTH_PATH and scope.get("method") in ("GET", "HEAD"):
            response = await self.health()
        elif path == METRICS_PATH and self.serve_metrics and scope.get("method") == "GET":
            response = Response(self.metrics.text(), media_type=CONTENT_TYPE_LATEST)
        status = 500
        if response is not None:
            status = response.status_code
            await response(scope, receive, send)
        else:

            async def counted(message: Message) -> None:
                nonlocal status
                if message["type"] == "http.response.start":
                    status = int(message["status"])
                await send(message)

            try:
                await self.app(scope, receive, counted)
            finally:
                self.metrics.child(self.metrics.requests, self.metrics.route(path), str(status)).inc()
            return
        self.metrics.child(self.metrics.requests, self.metrics.route(path), str(status)).inc()
