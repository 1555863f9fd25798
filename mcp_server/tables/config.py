"""Settings of the table service (server-wide) and the table options a creator may set (per table).

Server settings come from :class:`TableSettings`: environment variables ``CLUB_AGENTES_*``, read
through :func:`club_agentes.mcp_server.settings.table_setting_values` by :meth:`TableSettings.from_env`.
Table options are the ``options`` keys of ``create_table`` that belong to the table rather than to the
game (:data:`TABLE_OPTION_SCHEMA`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from club_agentes.mcp_server.settings import TABLE_SETTING_ENV, table_setting_values

from club_agentes.errors import Refused


class TableError(Refused):
    """A request the table service refuses (bad id, token, seat, option...): one sentence."""


MAX_SEED = 2**63 - 1
MAX_WAIT_S = 60.0
"""The longest a ``wait_for_turn`` call waits."""

DECISION_TIMEOUT_RANGE = (1, 86_400)
MAX_TIMEOUTS_RANGE = (1, 100)
MCTS_BUDGET_RANGE = (10, 2_000)
"""CPU milliseconds a ``bot:mcts`` seat may think per decision (the table option ``mcts_budget_ms``)."""


def _cpus() -> int:
    return os.cpu_count() or 1


SETTING_ENV = TABLE_SETTING_ENV
"""Environment variable of each setting read by :meth:`from_env` (defined in :mod:`.settings`)."""


@dataclass(frozen=True)
class TableSettings:
    """Server-wide settings of the table service.

    Attributes:
        max_live_tables: tables kept in memory at most (least recently used are dropped, reloaded on demand).
        idle_s: a table untouched this long is dropped from memory (finished tables as soon as nobody waits).
        decision_timeout_s: the decision clock of tables with agent seats when the creator does not set
            ``decision_timeout_s`` (``None``: no clock by default).
        max_timeouts: decisions in a row the clock plays for a seat before a bot takes the seat over.
        bot_workers: processes that run bot decisions (0: a thread of this process, for tests and
            for games that are not installed entry points).
        bot_cpu_share: the share of one core a table's bots may use over time (a token bucket).
        bot_cpu_burst_s: CPU seconds a table's bots may use at once before the share applies.
        bot_cpu_total_s: CPU seconds a table's bots may use in all; then the server stops the table.
        chunk_moves, chunk_cpu_s: the most bot moves / CPU seconds of one piece of bot work, so that
            bot work of many tables interleaves fairly.
        snapshot_every: a snapshot of the game state is stored every this many moves (and at the end).
        reply_wait_s: how long ``play_move`` waits for the bot moves that follow it before answering.
        poll_s: how often a waiting ``wait_for_turn`` re-reads the store for writes of other processes
            (SQLite; on PostgreSQL ``LISTEN`` wakes it at once and this is only a safety net).
        sweep_s: how often the clock and the stalled-bot sweeper look for work.
        waiting_expiry_s: a table waiting for agents expires (status ``aborted``, its open-table slot
            freed) when this many seconds pass without a seat taken (``None``: never).
    """

    max_live_tables: int = 500
    idle_s: float = 300.0
    decision_timeout_s: float | None = 300.0
    max_timeouts: int = 3
    bot_workers: int = max(1, min(4, _cpus() - 1))
    bot_cpu_share: float = 0.5
    bot_cpu_burst_s: float = 5.0
    bot_cpu_total_s: float = 600.0
    chunk_moves: int = 400
    chunk_cpu_s: float = 0.05
    snapshot_every: int = 100
    reply_wait_s: float = 0.5
    poll_s: float = 0.5
    sweep_s: float = 1.0
    waiting_expiry_s: float | None = 1800.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, base: TableSettings | None = None) -> TableSettings:
        """Return ``base`` (default: the defaults) with the ``CLUB_AGENTES_*`` variables of ``env`` (default: the
        process environment, read through :mod:`~club_agentes.mcp_server.settings`) applied.

        ``CLUB_AGENTES_DECISION_TIMEOUT_S=none`` turns the default clock off.

        Raises:
            TableError: a variable has a value out of range (one sentence naming it).
        """
        out = base or cls()
        changes: dict[str, Any] = {}
        for name, raw in table_setting_values(env).items():
            var = SETTING_ENV[name]
            if name == "decision_timeout_s" and raw.lower() in ("none", "off", "0"):
                changes[name] = None
                continue
            try:
                value = float(raw)
            except ValueError:
                raise TableError(f"{var} must be a number, not {raw[:40]!r}") from None
            if not math.isfinite(value) or value < (0 if name == "bot_workers" else 1e-9):
                raise TableError(f"{var} must be a positive number, not {raw[:40]!r}")
            changes[name] = int(value) if isinstance(getattr(out, name), int) else value
        out = replace(out, **changes)
        if out.decision_timeout_s is not None and not (
            DECISION_TIMEOUT_RANGE[0] <= out.decision_timeout_s <= DECISION_TIMEOUT_RANGE[1]
        ):
            lo, hi = DECISION_TIMEOUT_RANGE
            raise TableError(f"CLUB_AGENTES_DECISION_TIMEOUT_S must be from {lo} to {hi} seconds, or none")
        return out


TABLE_OPTION_SCHEMA: dict[str, Any] = {
    "require_club_pass": {
        "type": "boolean",
        "default": True,
        "description": "join_table demands a club pass covering this game, issued to the joining agent.",
    },
    "decision_timeout_s": {
        "type": ["integer", "null"],
        "minimum": DECISION_TIMEOUT_RANGE[0],
        "maximum": DECISION_TIMEOUT_RANGE[1],
        "description": "Seconds an agent seat has for each decision; then the rules' default move (or the "
        "heuristic bot's) is played for it. Default: the server's (300 unless its operator changed it); "
        "null: no clock.",
    },
    "max_timeouts": {
        "type": "integer",
        "minimum": MAX_TIMEOUTS_RANGE[0],
        "maximum": MAX_TIMEOUTS_RANGE[1],
        "default": 3,
        "description": "Decisions in a row the clock may play for a seat; then bot:heuristic takes the seat over "
        "for the rest of the game.",
    },
    "seats_per_agent": {
        "type": "integer",
        "minimum": 1,
        "maximum": 6,
        "default": 1,
        "description": "How many seats one agent may hold at this table (default 1).",
    },
    "mcts_budget_ms": {
        "type": ["integer", "null"],
        "minimum": MCTS_BUDGET_RANGE[0],
        "maximum": MCTS_BUDGET_RANGE[1],
        "description": "CPU milliseconds each bot:mcts seat thinks per decision (its search budget), e.g. 100 for "
        "a quicker, weaker opponent or 1000 for a stronger one. Default (null): the game's own budget, 500 ms.",
    },
}
"""JSON schema of the table options (the ``options`` keys that belong to the table, not to the game)."""


@dataclass(frozen=True)
class TableOptions:
    """The table's own options (see :data:`TABLE_OPTION_SCHEMA`)."""

    require_club_pass: bool = True
    decision_timeout_s: float | None = None
    max_timeouts: int = 3
    seats_per_agent: int = 1
    mcts_budget_ms: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the options as stored and shown (``mcts_budget_ms`` only when set)."""
        out: dict[str, Any] = {
            "require_club_pass": self.require_club_pass,
            "decision_timeout_s": self.decision_timeout_s,
            "max_timeouts": self.max_timeouts,
            "seats_per_agent": self.seats_per_agent,
        }
        if self.mcts_budget_ms is not None:
            out["mcts_budget_ms"] = self.mcts_budget_ms
        return out

    def bot_options(self) -> dict[str, dict[str, Any]]:
        """Return bot kind -> the options its ``Game.make_bot`` takes at this table (for :class:`LaneTask`)."""
        if self.mcts_budget_ms is None:
            return {}
        return {"mcts": {"budget_ms": float(self.mcts_budget_ms)}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableOptions:
        """Return the options stored by :meth:`to_json` (missing keys take their defaults)."""
        timeout = data.get("decision_timeout_s")
        return cls(
            require_club_pass=bool(data.get("require_club_pass", True)),
            decision_timeout_s=float(timeout) if timeout is not None else None,
            max_timeouts=int(data.get("max_timeouts", 3)),
            seats_per_agent=int(data.get("seats_per_agent", 1)),
            mcts_budget_ms=int(data["mcts_budget_ms"]) if data.get("mcts_budget_ms") is not None else None,
        )


def split_options(
    options: Mapping[str, Any] | None, settings: TableSettings, *, has_agents: bool
) -> tuple[TableOptions, dict[str, Any]]:
    """Split ``create_table`` options into the table's options and the game's options.

    Raises:
        TableError: a table option has a bad value (one sentence naming it and its range).
    """
    game_opts = dict(options or {})
    require = game_opts.pop("require_club_pass", True)
    if not isinstance(require, bool):
        raise TableError("option require_club_pass must be true or false")
    default_timeout = settings.decision_timeout_s if has_agents else None
    timeout = game_opts.pop("decision_timeout_s", default_timeout)
    if timeout is not None:
        lo, hi = DECISION_TIMEOUT_RANGE
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not lo <= timeout <= hi:
            raise TableError(
                f"option decision_timeout_s must be a number of seconds from {lo} to {hi}, or null for no clock; "
                f"not {str(timeout)[:40]!r}"
            )
        timeout = float(timeout)
    max_timeouts = game_opts.pop("max_timeouts", settings.max_timeouts)
    lo, hi = MAX_TIMEOUTS_RANGE
    if isinstance(max_timeouts, bool) or not isinstance(max_timeouts, int) or not lo <= max_timeouts <= hi:
        raise TableError(
            f"option max_timeouts must be a whole number from {lo} to {hi}, not {str(max_timeouts)[:40]!r}"
        )
    per_agent = game_opts.pop("seats_per_agent", 1)
    if isinstance(per_agent, bool) or not isinstance(per_agent, int) or not 1 <= per_agent <= 6:
        raise TableError(f"option seats_per_agent must be a whole number from 1 to 6, not {str(per_agent)[:40]!r}")
    budget = game_opts.pop("mcts_budget_ms", None)
    lo, hi = MCTS_BUDGET_RANGE
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or not lo <= budget <= hi):
        raise TableError(
            f"option mcts_budget_ms must be a whole number of milliseconds from {lo} to {hi}, or null for the "
            f"game's default; not {str(budget)[:40]!r}"
        )
    return TableOptions(require, timeout, max_timeouts, per_agent, budget), game_opts
