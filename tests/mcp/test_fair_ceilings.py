"""Issue 23, point 4: no few agents can spend a global ceiling. Each ceiling is shared fairly (no agent, or no
address for address limits, takes more than its share, 10% by default), waiting tables expire and free their
slot, refused registrations do not count, and wrong keys are slowed per address without locking out a right key."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from club_agentes.mcp_server.auth import KeyBackoff
from club_agentes.mcp_server.limits import LimitReached, Limits, LimitSettings, entry_quiz_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import TableError, TableService

from club_agentes.errors import Refused
from tests.conftest import DbLocation
from tests.mcp.edge import http_club, keyed_client
from tests.mcp.helpers import add_agent
from tests.mcp.test_tables_service import CORPUS, QUIET, Clock, Passes, toy
from tests.quizzes.conftest import FakeClock

pytestmark = pytest.mark.anyio

GAMES = ("market-fortune", "se-vende", "yo-soy-el-jefe")
RATE_SETTINGS = {
    "entry_quiz": "entry_quizzes_per_hour",
    "practice": "practice_per_hour",
    "table": "tables_per_hour",
    "registration": "registrations_per_hour",
    "login": "logins_per_hour",
    "oauth_client": "oauth_clients_per_hour",
}


@pytest.fixture
def store(db_location: DbLocation) -> Iterator[Store]:
    s = db_location.open()
    yield s
    s.close()


def _context(kind: str, n: int) -> contextlib.AbstractContextManager[None]:
    """Entry quizzes are counted per game: the greedy agents spread theirs over every game."""
    return entry_quiz_game(GAMES[n % len(GAMES)]) if kind == "entry_quiz" else contextlib.nullcontext()


def _spend(limits: Limits, kind: str, subject: str, tries: int = 100) -> tuple[int, LimitReached | None]:
    """Take ``kind`` for ``subject`` until refused; return how many were counted and the refusal."""
    for n in range(tries):
        try:
            with _context(kind, n):
                limits.take(kind, subject)
        except LimitReached as exc:
            return n, exc
    return tries, None


# --------------------------------------------------------------------------- the share of each ceiling


@pytest.mark.parametrize("kind", sorted(RATE_SETTINGS))
def test_eight_subjects_spending_a_rate_ceiling_leave_a_ninth_served(store: Store, kind: str) -> None:
    name = RATE_SETTINGS[kind]
    limits = Limits(LimitSettings.parse(f"{name}=none,{name}_global=50"), store, clock=FakeClock())
    for i in range(8):
        got, refusal = _spend(limits, kind, f"greedy-{i}")
        assert got == 5 and refusal is not None, (i, got)  # 10% of 50, whatever the (absent) own limit says
        assert "fair share (10%) of the club's ceiling (at most 5 for any one); retry after" in str(refusal)
        assert refusal.retry_after > 0
    with _context(kind, 0):
        limits.take(kind, "ninth")
    assert store.limits.rate_count(kind, None, since=0) == 41


@pytest.mark.parametrize("kind", ["table", "registration"])
def test_without_the_share_rule_eight_subjects_do_spend_the_ceiling(store: Store, kind: str) -> None:
    """The contrast that shows the rule is what protects the ninth: with it off, the ceiling is spent."""
    name = RATE_SETTINGS[kind]
    limits = Limits(LimitSettings.parse(f"{name}=none,{name}_global=50"), store, clock=FakeClock(), fair_share=None)
    spent = sum(_spend(limits, kind, f"greedy-{i}")[0] for i in range(8))
    assert spent == 50
    with pytest.raises(LimitReached, match="from all agents together"):
        limits.take(kind, "ninth")


def test_eight_agents_holding_long_polls_leave_a_ninth_one(store: Store) -> None:
    limits = Limits(LimitSettings.parse("long_polls=none,long_polls_global=20"), store, clock=FakeClock())
    with contextlib.ExitStack() as held:
        for i in range(8):
            for _ in range(2):
                held.enter_context(limits.hold("long_poll", f"greedy-{i}", 30))
            with pytest.raises(LimitReached, match=r"long-polls .* fair share \(10%\)"):
                held.enter_context(limits.hold("long_poll", f"greedy-{i}", 30))
        with limits.hold("long_poll", "ninth", 30):
            pass


def test_the_share_is_a_setting_and_lowers_only_what_is_above_it(store: Store) -> None:
    limits = Limits(LimitSettings.parse("tables_per_hour=3,tables_per_hour_global=100"), store, fair_share=0.25)
    assert limits.share_of(100) == 25 and limits.fair_limit("tables_per_hour") == 3
    assert limits.fair_limit("legacy_sessions") == 8  # its own limit, under 25% of 1000
    assert Limits(LimitSettings.parse("legacy_sessions=none"), store).fair_limit("legacy_sessions") == 100
    assert Limits(LimitSettings(), store).share_of(4) == 1, "a tiny ceiling still lets everyone have one"
    with pytest.raises(ValueError):
        Limits(LimitSettings(), store, fair_share=0)


async def test_eight_agents_creating_tables_leave_a_ninth_served(tmp_path: Path) -> None:
    """Through the table service: the tables-per-hour ceiling and the open-tables ceiling."""
    for text, most in (
        ("tables_per_hour=none,tables_per_hour_global=30,open_tables=none,open_tables_global=none", 3),
        ("tables_per_hour=none,tables_per_hour_global=none,open_tables=none,open_tables_global=20", 2),
    ):
        store = Store(tmp_path / f"{most}.db")
        svc = TableService(
            store, CORPUS, Passes(), games=toy, settings=QUIET, limits=Limits(LimitSettings.parse(text), store)
        )
        try:
            for i in range(8):
                made = 0
                with pytest.raises(Refused, match="fair share"):
                    for _ in range(50):
                        await svc.create(
                            "toy-race", ["agent", "agent"], {"require_club_pass": False}, None, creator=f"greedy-{i}"
                        )
                        made += 1
                assert made == most
            created = await svc.create(
                "toy-race", ["agent", "agent"], {"require_club_pass": False}, None, creator="ninth"
            )
            assert created.table.status == "waiting"
        finally:
            await svc.aclose()
            store.close()


# --------------------------------------------------------------------------- waiting tables expire


async def test_a_waiting_table_expires_frees_its_slot_and_tells_the_seated_agent(tmp_path: Path) -> None:
    clock = Clock()
    store = Store(tmp_path / "db")
    limits = Limits(LimitSettings.parse("open_tables=1"), store, clock=clock)
    settings = dataclasses.replace(QUIET, waiting_expiry_s=1800.0)
    svc = TableService(store, CORPUS, Passes(), games=toy, settings=settings, limits=limits, clock=clock)
    try:
        created = await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, 1, creator="ana")
        table_id = created.table.table_id
        assert created.table.deadline_at == clock.now + 1800
        with pytest.raises(Refused, match="ana has 1 open tables"):
            await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, 2, creator="ana")
        clock.now += 600
        joined = await svc.join(table_id, "ana", None, 0)
        assert joined.table.deadline_at == clock.now + 1800, "a seat taken restarts the wait"
        clock.now += 1799
        await svc.tick()
        assert (await svc.view(table_id, joined.token)).table.status == "waiting"
        clock.now += 2
        await svc.tick()
        state = await svc.view(table_id, joined.token)
        assert state.table.status == "aborted" and state.table.deadline_at is None
        assert state.table.note is not None and "expired" in state.table.note and "30 minutes" in state.table.note
        assert store.tables.open_table_counts("ana") == (0, 0)
        with pytest.raises(TableError, match="is closed: the table expired"):
            await svc.join(table_id, "bea", None, None)
        again = await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, 3, creator="ana")
        assert again.table.status == "waiting", "the expired table's slot is free again"
        other = Store(tmp_path / "db")  # another worker reads the same answer from the store
        try:
            row = other.tables.load_table(table_id)
            assert row is not None and row.status == "aborted" and row.deadline_at is None
        finally:
            other.close()
    finally:
        await svc.aclose()
        store.close()


# --------------------------------------------------------------------------- refused registrations do not count


def test_a_refused_request_is_given_back(store: Store) -> None:
    limits = Limits(LimitSettings.parse("registrations_per_hour=2"), store, clock=FakeClock())
    for _ in range(5):
        with pytest.raises(Refused), limits.counting("registration", "10.0.0.1"):
            raise Refused("that name exists already")
    assert store.limits.rate_count("registration", "10.0.0.1", since=0) == 0
    for _ in range(2):
        with limits.counting("registration", "10.0.0.1"):
            pass
    with pytest.raises(LimitReached, match="the limit is 2"), limits.counting("registration", "10.0.0.1"):
        pass


# --------------------------------------------------------------------------- wrong keys are slowed per address


def test_wrong_keys_back_off_exponentially_up_to_a_bound() -> None:
    clock = FakeClock()
    backoff = KeyBackoff(free=5, base_s=1, max_s=60, forget_s=900, clock=clock)
    assert [backoff.failed("10.0.0.9")[1] for _ in range(6)] == [None] * 6  # the 6th starts a 1 s wait
    assert backoff.failed("10.0.0.9") == (7, 2)  # came within the wait: 429, and the wait doubles
    waits = [backoff.failed("10.0.0.9")[1] for _ in range(10)]
    assert waits == [4, 8, 16, 32, 60, 60, 60, 60, 60, 60]
    assert backoff.failed("10.0.0.10") == (1, None), "per address"
    clock.advance(901)
    assert backoff.failed("10.0.0.9") == (1, None), "forgotten after a quiet while"
    small = KeyBackoff(max_addresses=3, clock=clock)
    for i in range(10):
        small.failed(f"10.1.0.{i}")
    assert len(small._seen) == 3


async def test_wrong_keys_get_429_with_retry_after_and_a_right_key_from_the_same_address_is_served(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db"
    key = add_agent(db, "ana")
    wrong = key[:-4] + ("AAAA" if not key.endswith("AAAA") else "BBBB")
    with http_club(db) as (_app, url):
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        body = b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'
        statuses = []
        async with httpx2.AsyncClient() as http:
            for _ in range(9):
                r = await http.post(url, content=body, headers={**headers, "Authorization": f"Bearer {wrong}"})
                statuses.append(r.status_code)
                if r.status_code == 429:
                    retry = int(r.headers["retry-after"])
                    assert 1 <= retry <= 60
                    assert "Too many wrong keys" in r.json()["error"]["message"]
        assert statuses[:6] == [401] * 6 and set(statuses[6:]) == {429}, statuses
        async with keyed_client(url, key) as ana:  # the owner of a key is never locked out
            assert len((await ana.call("list_games", {}))["games"]) == 3


async def test_over_http_eight_keyed_agents_creating_tables_leave_a_ninth_served(tmp_path: Path) -> None:
    """The same through the server's edge: agents known only by their keys, create_table as a tool."""
    db = tmp_path / "db"
    names = [f"greedy-{i}" for i in range(8)] + ["ninth"]
    keys = {n: add_agent(db, n) for n in names}
    limits = LimitSettings.parse("tables_per_hour=none,tables_per_hour_global=30,open_tables=none")
    args = {"game": "se-vende", "seats": ["agent", "bot:random"], "options": {"require_club_pass": False}}
    with http_club(db, limits=limits) as (_app, url):
        for name in names[:8]:
            async with keyed_client(url, keys[name]) as greedy:
                for _ in range(3):
                    await greedy.call("create_table", args)
                text = await greedy.error("create_table", args)
                assert f"{name} has 3 tables created in the last hour, its fair share (10%)" in text
        async with keyed_client(url, keys["ninth"]) as ninth:
            made = await ninth.call("create_table", args)
            assert made["status"] == "waiting"


async def test_a_waiting_table_stored_without_a_deadline_gets_one_when_first_seen(tmp_path: Path) -> None:
    """Tables made before waiting tables had a deadline (deadline_at null) get one the first time a sweeper sees
    them, the whole expiry from then (an upgrade never ends them at once), and expire when it passes."""
    clock = Clock()
    store = Store(tmp_path / "db")
    settings = dataclasses.replace(QUIET, waiting_expiry_s=1800.0)
    svc = TableService(store, CORPUS, Passes(), games=toy, settings=settings, clock=clock)
    try:
        created = await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, 1, creator="ana")
        table_id = created.table.table_id
        with store.db.tx() as tx:
            tx.execute("UPDATE game_tables SET deadline_at = NULL WHERE id = ?", (table_id,))
        svc._live.drop(table_id)
        clock.now += 5000  # long after its last write: it is not ended for that
        await svc.tick()
        assert store.tables.load_table(table_id).status == "waiting"  # type: ignore[union-attr]
        clock.now += 1799
        await svc.tick()
        assert store.tables.load_table(table_id).status == "waiting"  # type: ignore[union-attr]
        clock.now += 2
        await svc.tick()
        row = store.tables.load_table(table_id)
        assert row is not None and row.status == "aborted" and "expired" in (row.note or "")
    finally:
        await svc.aclose()
        store.close()
