"""What the parts of the table service share: limits of one answer, argument checks, seat tokens, protocols."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from club_agentes.engine.core import Game
from club_agentes.mcp_server.store.tables import (
    SeatClaim,
)
from club_agentes.mcp_server.tables.config import (
    TableError,
)

MAX_EVENTS = 50
"""The most events of other seats one answer carries (older ones are counted and left to ``game_log``); the
seat's own are all carried."""
OWN_EVENTS_READ = 500
"""Events read from the store for an answer whose events the in-memory tail does not cover: the seat's own among
them are all kept, the others' newest MAX_EVENTS."""
MAX_LOG_PAGE = 500
"""The most versions (moves) one ``game_log`` page covers."""
LOG_READ_CHUNK = 50
"""Versions a ``game_log`` page reads per statement (see :func:`.gamelog._log_rows`)."""
LOG_PAGE_EVENTS = 400
"""A ``game_log`` page ends early, after the chunk of versions that brings it to this many events (its ``upto``
and ``next_cursor`` say where): a page of a long game's full log would otherwise hold thousands of events, tens
of milliseconds of the event loop to serialise and more text than a model should read at once."""
MAX_LIST_PAGE = 100
"""The most tables one ``list_tables`` page lists."""
MOVE_ATTEMPTS = 4
"""How often a move is tried when another worker's write wins the race (each retry re-checks it against the
seat's version, so only a move whose situation still stands is applied)."""
STALL_S = 10.0
RESUME_GAP_S = 5.0
"""Workers starting within this many seconds of one another resume the tables once."""
RESUME_BATCH = 1000
"""The most bot tables resumed at start-up at once (the sweeper takes up the rest, 20 at a time)."""
"""A playing table where a bot must move and nothing was written for this long is taken up by a sweeper."""
HOLD_S = 20.0
"""How long a move decided before other seats briefly interrupted the decision (``Game.interlude``: a price being
named, a stop window) waits for the interruption to end before it is checked."""
PAST_STATES = 16
"""Older game states kept (rebuilt from the store) to tell what a stale move meant when it was decided."""

_MOVE_ID = re.compile(r"m([1-9][0-9]{0,4})")
_TABLE_ID = re.compile(r"t-[0-9a-f]{12}")
_LOG_CURSOR = re.compile(r"v(\d{1,12})")
_LIST_CURSOR = re.compile(r"(0x[0-9a-f.p+-]{1,40})/(t-[0-9a-f]{12})")


class PassVerifier(Protocol):
    """Decides whether an agent may sit at a table that requires a club pass."""

    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        """Return ``None`` to admit, or one sentence saying why the pass is refused."""
        ...


class TableLimits(Protocol):
    """The quotas the table service asks (``club_agentes.mcp_server.limits.Limits`` implements it)."""

    def take(self, kind: str, subject: str) -> str | None:
        """Count one table created by ``subject`` or refuse (``Refused`` with ``retry_after``); return a receipt."""
        ...

    def give_back(self, receipt: str | None) -> None:
        """Uncount what :meth:`take` counted (the table was not stored after all)."""
        ...

    def check_open_tables(self, agent: str, mine: int, everyone: int) -> None:
        """Refuse one more open table (``Refused`` with ``retry_after``)."""
        ...

    def ahold(self, kind: str, subject: str, seconds: float) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold one concurrent long-poll of ``subject`` for the block, or refuse."""
        ...


def _rebases(game: Game) -> bool:
    """Return whether ``game`` says what its moves depend on (``Game.move_basis``): a stale move may then be played."""
    return type(game).move_basis is not Game.move_basis


def _charged_ms(cpu_s: float) -> int:
    """Whole milliseconds charged to a table's bot CPU budget for one piece of bot work.

    Rounded up: chunks of a few fast moves each cost under half a millisecond, and rounding them to
    the nearest millisecond let a table spend its budget without the count ever growing.
    """
    return math.ceil(cpu_s * 1000)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _version_arg(name: str, value: object) -> int | None:
    """Return a version argument (``None`` or a whole number from -1), refusing anything else.

    Raises:
        TableError: ``value`` is a boolean, not a whole number, or below -1.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < -1:
        raise TableError(
            f"{name} must be a whole number (a version or seat_version from an earlier answer), not {str(value)[:40]!r}"
        )
    return value


def _owned_seat(table_id: str, claims: Mapping[int, SeatClaim], token: object, agent: str | None) -> int:
    """Return the seat whose token is ``token``, refusing it unless ``agent`` holds that seat.

    The token is compared with every claim in constant time first; then the seat's owner with
    ``agent`` (``None``: an in-process caller that acts for no agent, e.g. a test or a benchmark).
    A token used by another agent than its seat's is refused and shows nothing.

    Raises:
        TableError: the token is not a seat token of this table, or its seat belongs to another agent.
    """
    digest = _hash(token if isinstance(token, str) else "")
    found = None
    for seat, claim in claims.items():
        if hmac.compare_digest(digest, claim.token_hash):
            found = seat
    if found is None:
        raise TableError(
            f"the seat token is not valid at table {table_id}; use the token join_table returned for this table"
        )
    if agent is not None and not hmac.compare_digest(claims[found].agent.encode(), agent.encode()):
        raise TableError(
            f"this seat token belongs to a seat of another agent at table {table_id}, and you are connected as "
            f"{agent[:64]!r}: use only the seat tokens join_table gave you"
        )
    return found


@dataclass
class _Bucket:
    """A table's bot CPU allowance: ``tokens`` CPU seconds, refilled at the table's share of a core."""

    tokens: float
    at: float
