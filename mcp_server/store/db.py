"""The database under the store: SQLite (embedded default) or PostgreSQL, one small interface.

:func:`open_database` takes a location: a file path (or ``":memory:"``) opens SQLite in WAL
mode; a ``postgresql://`` URL opens a psycopg 3 connection pool. Store modules write their SQL
once, with ``?`` placeholders and the common subset of the two dialects (``BIGINT``,
``DOUBLE PRECISION``, ``TEXT``, ``ON CONFLICT``); :class:`Database` translates placeholders for
PostgreSQL.

Schema changes are versioned migrations: each store module declares a list of
:class:`Migration` (component, version, statements); :meth:`Database.migrate` applies, in one
transaction each, those not yet recorded in ``schema_migrations``. Components number their
migrations independently, so store modules never collide.

Files: a SQLite database and its WAL/SHM files are created readable by their owner only (0600),
in a folder made 0700 when this module creates it.

Thread safety: SQLite uses one connection behind a lock; PostgreSQL a pool. Calls block.

The async boundary: coroutines reach the store only through :meth:`Database.run` (``await
store.run(fn, *args)``), so a slow or lock-held query waits in a thread while the event loop serves
every other client. PostgreSQL: every call runs on one of the database's own threads (:class:`_Threads`), as
many as the pool has connections (a call never waits for a thread while a connection is free, and
never holds a thread waiting for a connection). SQLite: a call runs inline on the loop as long as it
would not wait (one local file: a call costs microseconds, less than a thread hop, and a thread waiting
for the GIL of a busy loop waits up to the interpreter's 5 ms switch interval per hand-over); the moment
it would wait (the connection is in use by another thread, or another process holds the write lock:
``BEGIN IMMEDIATE`` answers "busy" at once with a zero busy timeout), it stops before doing anything and
runs again on the database's one thread, where it waits. Once an inline call has committed a
transaction it is not started again (that would repeat the write): it then waits where it is, as every
call did before this boundary existed.

The SQLite busy timeout is set only when it changes (:meth:`Database._busy`): zero for what must not wait
(an inline call that may still move, and :meth:`Database.data_version`), :data:`SQLITE_BUSY_MS` for the rest
(a call in a thread, an inline call that committed, a command-line tool). In WAL mode the statements of a
transaction after its ``BEGIN IMMEDIATE`` never wait for a lock (SQLite asks its busy handler only to begin a
read or write transaction, and for the checkpoints a commit never runs but passively), so an inline
transaction keeps the zero timeout it began with; calls made one after another on the loop then set it once,
not twice per transaction.

Why not psycopg's ``AsyncConnectionPool``: the store's SQL is written once, against the synchronous
:class:`Tx`, and is used as is by the command-line tools, the bot lanes (threads and processes) and
the tests; an async pool would need a second, ``await``-ing copy of every query and every
transaction body (``Tx.one`` becomes ``await tx.one``, and so on up through each store method).
The threads give the event loop the same guarantee (nothing on the loop waits on the network or a
lock) with one copy of the SQL; the cost is one thread hop per call (about 26,000 instructions), which the
pool size bounds; a call holds one pooled connection for all its statements (:meth:`Database._pinned_call`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, ParamSpec, TypeVar, cast
from urllib.parse import urlsplit

Dialect = Literal["sqlite", "postgresql"]
SQLITE_BUSY_MS = 30_000
"""How long a SQLite call waits for another process's write lock (off the loop) before failing."""
SQLITE_PAGE_SIZE = 1024
"""The page size of a SQLite file this module creates (a file made with another keeps its own).

A turn changes about a dozen pages (the table's row, each of its indexes, and the leaves of the moves and
events tables with their indexes), and WAL mode writes each changed page whole, with a checksum over all of its
bytes. Measured over 1,000 moves of 8 Market Fortune tables: 12.2 pages of 4 KiB per move (50 KB) at SQLite's
default page size, 15.2 pages of 1 KiB (16 KB) at this one: a third of the bytes written and checksummed per
move. Rows of the hot tables are a few hundred bytes; larger ones (a snapshot) spill to overflow pages as
before."""
P = ParamSpec("P")
R = TypeVar("R")


class StoreError(Exception):
    """The database could not be opened or used; the message is one sentence naming it."""


class IntegrityError(StoreError):
    """A write broke a uniqueness or key constraint (e.g. a version already appended)."""


@dataclass(frozen=True)
class Migration:
    """One schema change of one store component.

    Attributes:
        component: the store module's name, e.g. ``"tables"``.
        version: 1, 2, ... in the order they apply.
        statements: SQL statements (no parameters), run in one transaction.
    """

    component: str
    version: int
    statements: tuple[str, ...]


class _WouldWait(BaseException):
    """An inline SQLite call would wait for a lock: :meth:`Database.run` runs it in the store's thread instead.

    A ``BaseException`` so that no store function's ``except Exception`` can swallow it.
    """


class _Inline(threading.local):
    """Per thread: whether a call is running inline (on the event loop) and how many transactions it committed."""

    active = False
    committed = 0


class _Threads:
    """The store's own threads: :meth:`Database.run`'s hand-over off the event loop, made for one thing.

    A call is put on a queue with an asyncio future; one of ``size`` threads (started with the first call) runs it
    and sets the future through ``loop.call_soon_threadsafe``. The same hand-over through a
    ``ThreadPoolExecutor`` and ``asyncio.wrap_future`` took 111,000 instructions (its futures, conditions,
    semaphore and the two futures chained both ways), this one 26,000 (``benchmarks/store_hop.py``, callgrind):
    on PostgreSQL, where every store call is a hand-over, more than the query itself. A call runs to its end even
    when its caller is cancelled (a transaction is never cut in half); its result is then dropped.
    """

    def __init__(self, size: int, name: str) -> None:
        self._size = size
        self._name = name
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any], asyncio.AbstractEventLoop] | None]
        self._queue = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    async def run(self, call: Callable[[], R]) -> R:
        """Run ``call()`` in one of the threads; return its result or raise what it raised.

        Raises:
            Exception: whatever ``call`` raises.
        """
        if len(self._threads) < self._size:
            self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        self._queue.put((call, future, loop))
        return await future

    def _start(self) -> None:
        with self._lock:
            while len(self._threads) < self._size:
                t = threading.Thread(target=self._work, name=f"{self._name}_{len(self._threads)}", daemon=True)
                t.start()
                self._threads.append(t)

    def _work(self) -> None:
        get = self._queue.get
        while True:
            item = get()
            if item is None:
                return
            call, future, loop = item
            try:
                result = call()
            except BaseException as exc:  # handed to the caller, whatever it is
                _hand(loop, _failed, future, exc)
            else:
                _hand(loop, _done, future, result)
            del item, call, future, loop

    def shutdown(self) -> None:
        """Let the calls queued or running end, then stop the threads (returns when they have stopped)."""
        with self._lock:
            threads, self._threads = self._threads, []
            self._size = 0
        for _ in threads:
            self._queue.put(None)
        for t in threads:
            t.join()


def _hand(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> None:
    """Call ``fn(*args)`` in ``loop``'s thread (nothing when the loop is closed: nobody waits any more)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fn, *args)


def _done(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():
        future.set_result(result)


def _failed(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)


class _Pinned(threading.local):
    """Per thread: the PostgreSQL connection a call of :meth:`Database.run` holds from the pool for its whole
    length (``None`` outside such a call), and whether a transaction is open on it."""

    conn: Any = None
    in_tx = False


class Tx:
    """One transaction: run statements with ``?`` placeholders and read their rows."""

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self._cur = cursor
        self.dialect = dialect

    def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed.

        Raises:
            IntegrityError: a constraint was broken.
        """
        try:
            self._cur.execute(_translate(sql, self.dialect), tuple(args))
        except Exception as exc:
            if _is_integrity(exc):
                raise IntegrityError(str(exc).splitlines()[0]) from exc
            raise
        return int(self._cur.rowcount or 0)

    def one(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """Run a query; return its first row or ``None``."""
        self.execute(sql, args)
        row = self._cur.fetchone()
        return tuple(row) if row is not None else None

    def all(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a query; return all its rows."""
        self.execute(sql, args)
        return [tuple(r) for r in self._cur.fetchall()]

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each of ``rows``.

        Raises:
            IntegrityError: a constraint was broken.
        """
        try:
            self._cur.executemany(_translate(sql, self.dialect), [tuple(r) for r in rows])
        except Exception as exc:
            if _is_integrity(exc):
                raise IntegrityError(str(exc).splitlines()[0]) from exc
            raise


def _translate(sql: str, dialect: Dialect) -> str:
    if dialect == "postgresql":
        return sql.replace("%", "%%").replace("?", "%s")
    return sql


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused a statement because another connection holds a lock ("busy" or "locked")."""
    text = str(exc)
    return "locked" in text or "busy" in text


def _is_integrity(exc: Exception) -> bool:
    if isinstance(exc, sqlite3.IntegrityError):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.errors.IntegrityError)


class Database:
    """A SQLite file or a PostgreSQL database, with transactions and migrations.

    Attributes:
        dialect: ``"sqlite"`` or ``"postgresql"``.
        location: the file path or the URL (without password) it was opened with.
    """

    def __init__(self, dialect: Dialect, location: str) -> None:
        self.dialect = dialect
        self.location = location
        self._lock = threading.RLock()
        self._sqlite: sqlite3.Connection | None = None
        self._pool: Any = None
        self._closed = False
        self._workers = 1
        self._threads: _Threads | None = None
        self._inline = _Inline()
        self._pinned = _Pinned()
        self._busy_ms = SQLITE_BUSY_MS
        """SQLite: the connection's busy timeout now (changed only under :attr:`_lock`, by :meth:`_busy`)."""
        self._wal = False
        """SQLite: whether the file is in WAL mode (then a transaction's statements after its begin never wait)."""
        self.observer: Callable[[str, float], None] | None = None
        """Called with ``"read"`` or ``"write"`` and the seconds each transaction took (the metrics)."""

    # ----- opening

    @classmethod
    def sqlite(cls, path: str | Path) -> Database:
        """Open (creating if needed) a SQLite database file, 0600, in WAL mode (a new file with pages of
        :data:`SQLITE_PAGE_SIZE` bytes).

        Raises:
            StoreError: the file cannot be opened or created.
        """
        location = str(path)
        db = cls("sqlite", location)
        try:
            if location != ":memory:":
                folder = Path(location).parent
                if not folder.exists():
                    folder.mkdir(parents=True, mode=0o700, exist_ok=True)  # servers started at once may race
                old = os.umask(0o077)
                try:
                    conn = sqlite3.connect(location, check_same_thread=False, isolation_level=None, timeout=30)
                    # Only a file without pages takes a page size (a file made before keeps its own).
                    conn.execute(f"PRAGMA page_size={SQLITE_PAGE_SIZE}")
                    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()
                    db._wal = mode is not None and str(mode[0]).lower() == "wal"
                finally:
                    os.umask(old)
                for suffix in ("", "-wal", "-shm"):
                    f = Path(location + suffix)
                    if f.exists():
                        f.chmod(0o600)
            else:
                conn = sqlite3.connect(location, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open the SQLite database {location}: {exc}") from exc
        db._sqlite = conn
        return db

    @classmethod
    def postgresql(cls, url: str, *, schema: str | None = None, max_size: int = 10) -> Database:
        """Open a pool of connections to a PostgreSQL database.

        ``schema`` (created if missing) becomes the search path of every connection, so that tests
        (or clubs sharing one server) never collide.

        Raises:
            StoreError: the server cannot be reached or the URL is malformed.
        """
        import psycopg
        from psycopg_pool import ConnectionPool

        parts = urlsplit(url)
        shown = f"{parts.scheme}://{parts.hostname or ''}{':' + str(parts.port) if parts.port else ''}{parts.path}"
        db = cls("postgresql", shown)
        if schema is not None and not schema.replace("_", "").isalnum():
            raise StoreError(f"schema name {schema!r} must be letters, digits and underscores")

        def configure(conn: Any) -> None:
            conn.autocommit = True
            if schema is not None:
                conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
                conn.execute(f'SET search_path TO "{schema}"')

        try:
            pool = ConnectionPool(url, min_size=1, max_size=max_size, configure=configure, open=False)
            pool.open(wait=True, timeout=10)
        except (psycopg.Error, Exception) as exc:
            raise StoreError(f"cannot connect to the PostgreSQL database {shown}: {exc}") from exc
        db._pool = pool
        db._workers = max_size
        return db

    def close(self) -> None:
        """Close the connection or pool (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            threads = self._threads
        if threads is not None:  # outside the lock: a SQLite call in its thread may need it to finish
            threads.shutdown()
        with self._lock:
            if self._sqlite is not None:
                self._sqlite.close()
            if self._pool is not None:
                self._pool.close()

    # ----- the async boundary

    @property
    def workers(self) -> int:
        """Threads :meth:`run` hands calls to: the PostgreSQL pool's size, or 1 for SQLite."""
        return self._workers

    async def run(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run the blocking store call ``fn(*args, **kwargs)`` off the event loop; return its result.

        The calling coroutine waits, the event loop does not: other clients go on while the query waits
        on the network or on a lock. PostgreSQL: on one of this database's threads. SQLite: inline while it would
        not wait, else on the database's thread (see the module's docstring). A call in a thread runs in a
        copy of the caller's context (context variables such as the requester reach it, as with
        :func:`asyncio.to_thread`); if the awaiting coroutine is cancelled it still completes there (a
        transaction is never cut in half).

        Raises:
            StoreError: the database is closed.
            Exception: whatever ``fn`` raises.
        """
        if self._closed:
            raise StoreError(f"the database {self.location} is closed")
        inline = self._inline
        if self._sqlite is not None and not inline.active:
            inline.active, inline.committed = True, 0
            try:
                return fn(*args, **kwargs)
            except _WouldWait:
                pass  # it stopped before doing anything: run it where it may wait
            finally:
                inline.active = False
        threads = self._threads
        if threads is None:
            with self._lock:
                if self._threads is None:
                    self._threads = _Threads(self._workers, f"store-{self.dialect}")
                threads = self._threads
        context = contextvars.copy_context()
        if self._pool is not None:
            call = functools.partial(context.run, self._pinned_call, fn, *args, **kwargs)
        else:
            call = functools.partial(context.run, fn, *args, **kwargs)
        return await threads.run(call)

    def _pinned_call(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """PostgreSQL: run ``fn`` in this store thread on one connection taken from the pool for the call.

        A call of :meth:`run` often makes several statements (the head of a table, then what a live copy
        missed: four more reads) and a transaction: each took a connection from the pool and gave it back,
        which cost as much as a statement. Now the call takes one connection for all of them; its reads run on
        it in autocommit and its transactions open on it, as they did on the connections they took. A read
        made inside an open transaction still takes a connection of its own, as before (it does not see the
        transaction's writes). A connection a failed statement broke goes back to the pool, which discards it.

        Raises:
            StoreError: the database is closed.
            Exception: whatever ``fn`` raises.
        """
        pinned = self._pinned
        if pinned.conn is not None:  # a call within a call: the outer one holds the connection
            return fn(*args, **kwargs)
        if self._closed:
            raise StoreError(f"the database {self.location} is closed")
        with self._pool.connection() as conn:
            pinned.conn = conn
            try:
                return fn(*args, **kwargs)
            finally:
                pinned.conn, pinned.in_tx = None, False

    # ----- transactions

    def tx(self) -> contextlib.AbstractContextManager[Tx]:
        """Run a block in one transaction (committed at the end, rolled back on any exception).

        Raises:
            StoreError: the database is closed.
            IntegrityError: a statement broke a constraint (the transaction is rolled back).
        """
        if self._sqlite is not None:
            return _SqliteTx(self)
        if self.observer is None:
            return self._pg_tx()
        return self._observed_pg_tx(self.observer)

    def _acquire(self, fresh: bool) -> None:
        """Take the SQLite connection's lock; an inline call that may still move (``fresh``) never waits for it.

        Raises:
            _WouldWait: ``fresh`` and another thread is using the connection.
        """
        if fresh:
            if not self._lock.acquire(blocking=False):
                raise _WouldWait
        else:
            self._lock.acquire()

    def _busy(self, conn: sqlite3.Connection, ms: int) -> None:
        """Set the SQLite connection's busy timeout to ``ms`` unless it is that already. Call with :attr:`_lock`.

        Raises:
            sqlite3.Error: the statement failed.
        """
        if self._busy_ms != ms:
            conn.execute(f"PRAGMA busy_timeout={ms}")
            self._busy_ms = ms

    @contextlib.contextmanager
    def _observed_pg_tx(self, observer: Callable[[str, float], None]) -> Iterator[Tx]:
        """:meth:`_pg_tx`, timed by ``observer``.

        Raises:
            StoreError: the database is closed.
            IntegrityError: a statement broke a constraint (the transaction is rolled back).
        """
        started = time.perf_counter()
        try:
            with self._pg_tx() as tx:
                yield tx
        except BaseException:
            observer("write", time.perf_counter() - started)
            raise
        observer("write", time.perf_counter() - started)

    @contextlib.contextmanager
    def _pg_tx(self) -> Iterator[Tx]:
        """One PostgreSQL transaction on a pooled connection.

        Raises:
            StoreError: the database is closed.
            IntegrityError: a statement broke a constraint (the transaction is rolled back).
        """
        if self._closed:
            raise StoreError(f"the database {self.location} is closed")
        pinned = self._pinned
        if pinned.conn is not None and not pinned.in_tx:  # on the connection the call holds (:meth:`_pinned_call`)
            pinned.in_tx = True
            try:
                with pinned.conn.transaction(), pinned.conn.cursor() as cur:
                    yield Tx(cur, "postgresql")
            finally:
                pinned.in_tx = False
            return
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            yield Tx(cur, "postgresql")

    def write_alone(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """PostgreSQL: run one write statement as a transaction of its own and return its first row (``None``: it
        returned none).

        The pooled connections are in autocommit, so the statement commits by itself, all of it or nothing: no
        ``BEGIN`` and ``COMMIT`` around it (each a round trip, and about as much work in psycopg as the statement).
        For a write that is one statement (:meth:`.TableStore.append`'s turn); a write of several statements
        takes :meth:`tx`.

        Raises:
            StoreError: the database is closed, or it is SQLite (whose writes take :meth:`tx`).
            IntegrityError: the statement broke a constraint (nothing was written).
        """
        if self._sqlite is not None:
            raise StoreError("write_alone is for PostgreSQL: a SQLite write takes tx()")
        if self._closed:
            raise StoreError(f"the database {self.location} is closed")
        started = time.perf_counter()
        try:
            pinned = self._pinned
            if pinned.conn is not None and not pinned.in_tx:  # the call's own connection (:meth:`_pinned_call`)
                with pinned.conn.cursor() as cur:
                    return Tx(cur, "postgresql").one(sql, args)
            with self._pool.connection() as pg, pg.cursor() as cur:
                return Tx(cur, "postgresql").one(sql, args)
        finally:
            if self.observer is not None:
                self.observer("write", time.perf_counter() - started)

    @property
    def local(self) -> bool:
        """Whether calls are cheap enough to make on an event loop: an embedded SQLite file, no network.

        A one-row read of SQLite costs tens of microseconds, less than handing it to a worker thread;
        PostgreSQL calls wait on the network and belong in a worker thread.
        """
        return self._sqlite is not None

    def _read(self, sql: str, args: Sequence[Any], rows: bool) -> Any:
        """Run one read statement outside a transaction and return its first row (or ``None``), or with ``rows``
        all its rows: a single statement reads a consistent snapshot by itself. On SQLite outside ``BEGIN
        IMMEDIATE`` (taking the write lock for a read made readers of every process queue behind each other's
        writes); on PostgreSQL on a pooled connection in autocommit, one round trip (a ``BEGIN``/``COMMIT``
        around it made three). An inline SQLite call that may still move reads with a zero busy timeout: if the
        file answers "busy" (nothing was read), it moves to the store's thread, as when the connection is in use.

        Raises:
            StoreError: the database is closed.
        """
        started = time.perf_counter()
        try:
            result = self._fetch(sql, args, rows)
        except _WouldWait:
            raise  # nothing was read: the call runs again in the store's thread, and is measured there
        except BaseException:
            if self.observer is not None:
                self.observer("read", time.perf_counter() - started)
            raise
        if self.observer is not None:
            self.observer("read", time.perf_counter() - started)
        return result

    def _fetch(self, sql: str, args: Sequence[Any], rows: bool) -> Any:
        """The statement of :meth:`_read`, unmeasured.

        Raises:
            StoreError: the database is closed.
            _WouldWait: an inline call that may still move would wait.
        """
        conn = self._sqlite
        if conn is None:
            if self._closed:
                raise StoreError(f"the database {self.location} is closed")
            pinned = self._pinned
            if pinned.conn is not None and not pinned.in_tx:  # the call's own connection (:meth:`_pinned_call`)
                with pinned.conn.cursor() as cur:
                    tx = Tx(cur, "postgresql")
                    return tx.all(sql, args) if rows else tx.one(sql, args)
            with self._pool.connection() as pg, pg.cursor() as cur:  # autocommit: see :meth:`postgresql`
                tx = Tx(cur, "postgresql")
                return tx.all(sql, args) if rows else tx.one(sql, args)
        if self._closed:
            raise StoreError(f"the database {self.location} is closed")
        inline = self._inline
        fresh = inline.active and inline.committed == 0
        self._acquire(fresh)
        try:
            tx = Tx(conn.cursor(), "sqlite")
            if conn.in_transaction:  # a read inside this thread's own transaction: it takes no lock
                return tx.all(sql, args) if rows else tx.one(sql, args)
            self._busy(conn, 0 if fresh else SQLITE_BUSY_MS)
            if not fresh:
                return tx.all(sql, args) if rows else tx.one(sql, args)
            try:
                return tx.all(sql, args) if rows else tx.one(sql, args)
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):
                    raise _WouldWait from None
                raise
        finally:
            self._lock.release()

    def data_version(self) -> int | None:
        """Return SQLite's ``PRAGMA data_version``: it changes whenever another connection (another worker,
        a command-line tool) commits to the file, and never for this connection's own commits. ``None`` on
        PostgreSQL, or when the connection is in use by another thread or the file answers "busy" (the caller
        then reads what it needs): it never waits.

        One statement on the connection, without a transaction or the metrics' observer: it is asked on every
        read of a table, to skip re-reading what nobody else can have changed.

        Raises:
            StoreError: the database is closed.
        """
        conn = self._sqlite
        if conn is None:
            return None
        if self._closed:
            raise StoreError(f"the database {self.location} is closed")
        if not self._lock.acquire(blocking=False):
            return None
        try:
            if not conn.in_transaction:  # inside this thread's own transaction it takes no lock
                self._busy(conn, 0)
            try:
                return int(conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):
                    return None
                raise
        finally:
            self._lock.release()

    def one(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """Run one read statement; return the first row or ``None``.

        Raises:
            StoreError: the database is closed.
        """
        return cast("tuple[Any, ...] | None", self._read(sql, args, False))

    def all(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one read statement; return all rows.

        Raises:
            StoreError: the database is closed.
        """
        return cast("list[tuple[Any, ...]]", self._read(sql, args, True))

    def notify(self, channel: str, payload: str) -> None:
        """Send a PostgreSQL ``NOTIFY`` (no-op on SQLite, where one process shares memory)."""
        if self.dialect == "postgresql":
            with self.tx() as tx:
                tx.execute("SELECT pg_notify(?, ?)", (channel, payload))

    # ----- migrations

    def migrate(self, migrations: Sequence[Migration]) -> list[tuple[str, int]]:
        """Apply the migrations not yet applied, each in one transaction; return those applied.

        Concurrent starts are safe: each migration records itself in ``schema_migrations`` in its
        own transaction, and a second process that loses the race skips it.

        Raises:
            StoreError: a migration failed (names it).
        """
        with self.tx() as tx:
            tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (component TEXT NOT NULL, version BIGINT NOT NULL,"
                " applied_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (component, version))"
            )
        applied: list[tuple[str, int]] = []
        for m in sorted(migrations, key=lambda m: (m.component, m.version)):
            try:
                with self.tx() as tx:
                    if self.dialect == "postgresql":
                        tx.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (f"migrate:{m.component}",))
                    done = tx.one(
                        "SELECT 1 FROM schema_migrations WHERE component = ? AND version = ?",
                        (m.component, m.version),
                    )
                    if done:
                        continue
                    for statement in m.statements:
                        tx.execute(statement)
                    tx.execute(
                        "INSERT INTO schema_migrations (component, version, applied_at) VALUES (?, ?, ?)",
                        (m.component, m.version, time.time()),
                    )
                applied.append((m.component, m.version))
            except (sqlite3.Error, IntegrityError) as exc:
                raise StoreError(f"migration {m.component} {m.version} failed: {exc}") from exc
            except Exception as exc:
                if type(exc).__module__.startswith("psycopg"):
                    raise StoreError(f"migration {m.component} {m.version} failed: {exc}") from exc
                raise
        return applied

    def schema_versions(self) -> dict[str, int]:
        """Return the newest applied migration version of each component."""
        rows = self.all("SELECT component, MAX(version) FROM schema_migrations GROUP BY component")
        return {str(c): int(v) for c, v in rows}


class _SqliteTx:
    """One SQLite transaction of :meth:`Database.tx`: a plain context manager (no generator per transaction).

    Entering takes the connection's lock and begins (``BEGIN IMMEDIATE``); leaving commits (or rolls back on an
    exception) and releases the lock. An inline call that may still move begins with a zero busy timeout: if
    it would wait (the connection in use by another thread, another process's write lock), entering raises
    :class:`_WouldWait` before doing anything. The database's observer, if any, is told how long the
    transaction took, unless it would have waited (it is measured where it runs again).
    """

    __slots__ = ("_db", "_observer", "_started")

    def __init__(self, db: Database) -> None:
        self._db = db
        self._observer = db.observer
        self._started = time.perf_counter() if self._observer is not None else 0.0

    def __enter__(self) -> Tx:
        """Take the connection's lock and begin the transaction; return it.

        Raises:
            StoreError: the database is closed.
            _WouldWait: an inline call that may still move would wait (it runs again in the store's thread).
            sqlite3.Error: the begin failed otherwise.
        """
        db = self._db
        try:
            if db._closed:
                raise StoreError(f"the database {db.location} is closed")
            inline = db._inline
            fresh = inline.active and inline.committed == 0  # an inline call that may still move to the thread
            db._acquire(fresh)
            try:
                conn = cast(sqlite3.Connection, db._sqlite)
                if fresh:
                    db._busy(conn, 0)  # answer "busy" at once instead of waiting on the loop
                    try:
                        conn.execute("BEGIN IMMEDIATE")
                    except sqlite3.OperationalError as exc:
                        if _is_busy(exc):
                            raise _WouldWait from None
                        raise
                    finally:
                        if not db._wal:  # outside WAL mode a commit may wait for readers
                            db._busy(conn, SQLITE_BUSY_MS)
                else:
                    db._busy(conn, SQLITE_BUSY_MS)
                    conn.execute("BEGIN IMMEDIATE")
                return Tx(conn.cursor(), "sqlite")
            except BaseException:
                db._lock.release()
                raise
        except _WouldWait:
            raise  # nothing was done: the call runs again in the store's thread, and is measured there
        except BaseException:
            if self._observer is not None:
                self._observer("write", time.perf_counter() - self._started)
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        """Commit (no exception) or roll back, release the lock, and tell the observer.

        Raises:
            sqlite3.Error: the commit or the rollback failed.
        """
        db = self._db
        conn = cast(sqlite3.Connection, db._sqlite)
        observed = kind is None or not issubclass(kind, _WouldWait)
        try:
            if kind is None:
                conn.execute("COMMIT")
                inline = db._inline
                if inline.active:
                    inline.committed += 1
            else:
                conn.execute("ROLLBACK")
        except BaseException:
            observed = True
            raise
        finally:
            db._lock.release()
            if observed and self._observer is not None:
                self._observer("write", time.perf_counter() - self._started)


class StorePart:
    """One part of the store (tables, quizzes, agents...): a class over one connection source.

    Attributes:
        db: the database every part of one store shares.
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def path(self) -> str:
        """The location the database was opened with (a file path, or a URL without password)."""
        return self.db.location

    async def run(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a blocking call of this part off the event loop (:meth:`Database.run`).

        Raises:
            StoreError: the database is closed.
            Exception: whatever ``fn`` raises.
        """
        return await self.db.run(fn, *args, **kwargs)


def open_database(location: str | Path, *, schema: str | None = None) -> Database:
    """Open the database at ``location``: a ``postgresql://`` URL or a SQLite file path (``":memory:"``).

    Raises:
        StoreError: it cannot be opened.
    """
    text = str(location)
    if text.startswith(("postgresql://", "postgres://")):
        return Database.postgresql(text, schema=schema)
    return Database.sqlite(text)
