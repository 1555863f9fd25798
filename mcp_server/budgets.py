"""Per-agent budgets of the tool calls whose work a few agents could repeat without end (HTTP workers).

:class:`ToolBudgets` is an SDK server middleware (inside the identity middleware, so it knows the agent of
each call), installed by :func:`~club_agentes.mcp_server.http.build_http_app`. Each budget is a token bucket
per agent, held in memory per worker, charged with what a call cost once it is answered; while an agent's
balance is below zero its next call of that tool is refused at once, with one sentence that says when to
retry, before any work is done (after waiting up to :data:`~club_agentes.mcp_server.guard.REFUSAL_DELAY_S`, so
that an agent calling in a loop is slowed down, not answered thousands of times a second):

* **Refused moves** (``play_move`` answered ``accepted: false`` or with an error): at most
  :data:`REFUSED_MOVES_PER_MINUTE` a minute (:data:`REFUSED_MOVES_BURST` at once). A refused move is answered
  with the seat's state and the closest legal moves, real work; an agent sending unreadable moves in a loop
  kept a worker busy (benchmarks/attack.py, "bad 500-char moves": 200 refusals a second from four agents).
  An agent that plays its legal moves is never near it.
* **Log pages** (``game_log``): at most :data:`LOG_MOVES_PER_MINUTE` moves (versions) of logs a minute
  (:data:`LOG_MOVES_BURST` at once), charged with the versions each page covered. A page of 500 moves of a
  long game costs tens of milliseconds of the event loop to send (the SDK serializes the result there: see
  the attack benchmark's "game_log paging"); reading a long game's whole log stays possible, at that pace.

* **Rule searches** (``search_rules``): at most :data:`SEARCHES_PER_MINUTE` a minute (:data:`SEARCHES_BURST` at
  once). A search runs on the event loop (milliseconds each); four agents searching in a loop kept it busy
  (the attack benchmark's "search_rules flood").

Calls without an agent (anonymous) are not counted here: the edge guard limits them per address. A server
without agent keys (``--no-auth``: every request is the local agent's) installs no budgets.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import anyio
from club_agentes.mcp_server.guard import REFUSAL_DELAY_S
from club_agentes.mcp_server.identity import NoIdentity, current_agent
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

REFUSED_MOVES_PER_MINUTE = 60
"""Refused ``play_move`` calls one agent may make per minute."""
REFUSED_MOVES_BURST = 10
"""Refused ``play_move`` calls one agent may make at once."""
LOG_MOVES_PER_MINUTE = 3000
"""Moves (versions) of ``game_log`` pages one agent may read per minute."""
LOG_MOVES_BURST = 1000
"""Moves (versions) of ``game_log`` pages one agent may read at once."""
SEARCHES_PER_MINUTE = 60
"""``search_rules`` calls one agent may make per minute."""
SEARCHES_BURST = 10
"""``search_rules`` calls one agent may make at once."""
AGENTS = 10_000
"""Agents whose balances a worker remembers (the least recently seen are forgotten: full again)."""


class Budget:
    """Token buckets per agent that may run below zero: a call is refused while its agent's balance is negative."""

    def __init__(self, per_minute: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.burst = burst
        self.rate = per_minute / 60.0
        self.clock = clock
        self._balances: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def _balance(self, agent: str) -> float:
        now = self.clock()
        tokens, at = self._balances.pop(agent, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        self._balances[agent] = (tokens, now)
        while len(self._balances) > AGENTS:
            self._balances.popitem(last=False)
        return tokens

    def wait(self, agent: str) -> float:
        """Return 0 when ``agent`` may call now, else the seconds until its balance is back to zero."""
        tokens = self._balance(agent)
        return 0.0 if tokens >= 0 else -tokens / self.rate

    def charge(self, agent: str, cost: float) -> None:
        """Spend ``cost`` of ``agent``'s balance (it may go below zero)."""
        tokens = self._balance(agent)
        self._balances[agent] = (tokens - cost, self.clock())


def _refusal(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _structured(result: Any) -> dict[str, Any]:
    if isinstance(result, dict):
        content = result.get("structuredContent")
        return content if isinstance(content, dict) else {}
    return {}


class ToolBudgets:
    """SDK server middleware: per-agent budgets of refused moves, log pages and rule searches (see the module)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.budgets = {
            "play_move": Budget(REFUSED_MOVES_PER_MINUTE, REFUSED_MOVES_BURST, clock),
            "game_log": Budget(LOG_MOVES_PER_MINUTE, LOG_MOVES_BURST, clock),
            "search_rules": Budget(SEARCHES_PER_MINUTE, SEARCHES_BURST, clock),
        }

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Serve one message, refusing a budgeted tool call of an agent whose balance is spent."""
        if ctx.method != "tools/call":
            return await call_next(ctx)
        params = ctx.params if isinstance(ctx.params, dict) else {}
        tool = params.get("name")
        budget = self.budgets.get(tool) if isinstance(tool, str) else None
        if budget is None:
            return await call_next(ctx)
        try:
            agent = current_agent()
        except NoIdentity:
            return await call_next(ctx)
        wait = budget.wait(agent)
        if wait > 0:
            retry = max(1, int(wait + 0.999))
            if tool == "play_move":
                text = (
                    f"This agent had more than {REFUSED_MOVES_PER_MINUTE} moves refused in a minute; retry after "
                    f"{retry} seconds with a legal move (get_view lists them)."
                )
            elif tool == "game_log":
                text = (
                    f"This agent read more than {LOG_MOVES_PER_MINUTE} moves of game logs in a minute; retry after "
                    f"{retry} seconds."
                )
            else:
                text = (
                    f"This agent searched the rules more than {SEARCHES_PER_MINUTE} times in a minute; retry after "
                    f"{retry} seconds (read_rules reads a section found before)."
                )
            await anyio.sleep(min(wait, REFUSAL_DELAY_S))  # an agent calling in a loop waits too
            return _refusal(text)
        result = await call_next(ctx)
        content = _structured(result)
        if tool == "play_move":
            failed = result.get("isError") if isinstance(result, dict) else True
            if failed or content.get("accepted") is False:
                budget.charge(agent, 1)
        elif tool == "search_rules":
            budget.charge(agent, 1)
        else:
            after, upto = content.get("after"), content.get("upto")
            if isinstance(after, int) and isinstance(upto, int):
                budget.charge(agent, max(0, upto - max(after, -1)))
        return result
