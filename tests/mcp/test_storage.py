"""The store (SQLite and PostgreSQL) keeps quiz attempts, passes and the key exactly as the in-memory
store does, and keeps them across reopening."""

from __future__ import annotations

from pathlib import Path

import pytest
from club_agentes.mcp_server.store import SeatClaim, StaleVersion, TableRow
from club_agentes.mcp_server.store.tables import Append
from club_agentes.quizzes.store import Attempt, MemoryQuizStore, PassRecord

from tests.conftest import DbLocation


@pytest.fixture(params=["db", "memory"])
def store(request, db_location: DbLocation):
    if request.param == "memory":
        return MemoryQuizStore()
    s = db_location.open()
    request.addfinalizer(s.close)
    return s.quizzes


def test_attempts_are_single_use(store) -> None:
    a = Attempt("q-1", "ana", "se-vende", False, ("se-vende/q/x",), 100.0, 1000.0)
    store.save_attempt(a)
    assert store.load_attempt("q-1") == a
    assert store.finish_attempt("q-1", 200.0, {"passed": True})
    assert not store.finish_attempt("q-1", 201.0, {"passed": False})
    done = store.load_attempt("q-1")
    assert done.graded_at == 200.0 and done.result == {"passed": True}
    assert store.graded_attempts("se-vende") == [done] and store.graded_attempts("market-fortune") == []
    assert store.attempt_times("ana", 50.0) == [100.0] and store.attempt_times("ana", 150.0) == []


def test_passes_and_key(store) -> None:
    p = PassRecord("j1", "ana", ("se-vende",), 10.0, 99.0)
    store.save_pass(p)
    assert store.load_pass("j1") == p and store.passes_for("ana") == [p] and store.passes_for("bob") == []
    assert store.revoke_pass("j1") and store.load_pass("j1").revoked and not store.revoke_pass("nope")
    assert store.list_passes() == [store.load_pass("j1")] and store.list_passes("bob") == []
    assert store.take_legacy_secret() is None  # the key lives in its own file now, never in a fresh store


def test_everything_survives_reopening(db_location: DbLocation) -> None:
    s = db_location.open()
    s.quizzes.save_pass(PassRecord("j1", "ana", ("se-vende",), 10.0, 99.0))
    s.tables.create_table(
        TableRow("t-000000000001", "se-vende", {}, 5, True, ["agent", "agent"], False, 1.0, "playing")
    )
    s.tables.append(_append("t-000000000001", 0, 0, "x"))
    s.close()
    again = db_location.open()
    assert again.quizzes.load_pass("j1") is not None
    assert again.tables.table_version("t-000000000001") == 1
    with pytest.raises(StaleVersion) as err:
        again.tables.append(_append("t-000000000001", 0, 1, "y"))
    assert err.value.current == 1
    assert [m.move for m in again.tables.load_moves("t-000000000001")] == [{"type": "x"}]


def test_a_fresh_sqlite_file_is_private(tmp_path: Path) -> None:
    s = DbLocation("sqlite", str(tmp_path / "new" / "club.sqlite3")).open()
    s.quizzes.save_pass(PassRecord("j1", "ana", ("se-vende",), 10.0, 99.0))
    for f in (tmp_path / "new").iterdir():
        assert f.stat().st_mode & 0o077 == 0, f"{f.name} is readable by others"
    assert (tmp_path / "new").stat().st_mode & 0o077 == 0
    s.close()


def test_racing_appends_never_both_apply(db_location: DbLocation) -> None:
    a, b = db_location.open(), db_location.open()
    a.tables.create_table(TableRow("t-000000000002", "se-vende", {}, 5, True, ["agent"] * 2, False, 1.0, "playing"))
    a.tables.append(_append("t-000000000002", 0, 0, "x"))
    with pytest.raises(StaleVersion):
        b.tables.append(_append("t-000000000002", 0, 1, "y"))
    b.tables.append(_append("t-000000000002", 1, 1, "y"))
    assert [m.version for m in a.tables.load_moves("t-000000000002")] == [1, 2]
    a.close()
    b.close()


def _append(table_id: str, base: int, seat: int, tag: str, **kw: object) -> Append:
    return Append(
        table_id=table_id,
        base_version=base,
        moves=[(seat, {"type": tag}, "agent", 2.0)],
        events=[
            (base + 1, None, f"seat {seat} did {tag}", None),
            (base + 1, (seat,), f"only seat {seat} sees", {"k": 1}),
        ],
        status="playing",
        now=3.0,
        **kw,  # type: ignore[arg-type]
    )


def _table(table_id: str, created: float, seats: list[str], creator: str = "ana", game: str = "se-vende") -> TableRow:
    agents = sum(1 for s in seats if s == "agent")
    return TableRow(
        table_id,
        game,
        {},
        5,
        False,
        seats,
        False,
        created,
        "waiting" if agents else "playing",
        creator=creator,
        open_seats=agents,
        updated_at=created,
    )


def test_claims_write_the_status_they_cause_in_one_transaction(db_location: DbLocation) -> None:
    s = db_location.open()
    s.tables.create_table(_table("t-000000000003", 1.0, ["agent", "agent"]), [(0, (0,), "your hand", None)])
    r1 = s.tables.claim_seat(
        SeatClaim("t-000000000003", 0, "ana", "h0", 2.0),
        revision=1,
        status="waiting",
        waiting_on=None,
        deadline_at=None,
        now=2.0,
    )
    with pytest.raises(StaleVersion):  # decided on an old revision: refused, nothing written
        s.tables.claim_seat(
            SeatClaim("t-000000000003", 1, "bob", "h1", 2.0),
            revision=1,
            status="playing",
            waiting_on="agent",
            deadline_at=9.0,
            now=2.0,
        )
    with pytest.raises(StaleVersion):  # the seat is taken
        s.tables.claim_seat(
            SeatClaim("t-000000000003", 0, "bob", "h1", 2.0),
            revision=r1,
            status="playing",
            waiting_on="agent",
            deadline_at=9.0,
            now=2.0,
        )
    s.tables.claim_seat(
        SeatClaim("t-000000000003", 1, "bob", "h1", 2.0),
        revision=r1,
        status="playing",
        waiting_on="agent",
        deadline_at=9.0,
        now=2.5,
    )
    row = s.tables.load_table("t-000000000003")
    assert row is not None and (row.status, row.open_seats, row.revision, row.deadline_at) == ("playing", 0, 3, 9.0)
    assert row.seat_versions == {0: 0, 1: 0} and [c.agent for c in s.tables.seat_claims("t-000000000003")] == [
        "ana",
        "bob",
    ]
    assert s.tables.due_tables(8.9) == [] and s.tables.due_tables(9.0) == ["t-000000000003"]
    s.close()


def test_appends_store_events_status_result_and_snapshots_together(db_location: DbLocation) -> None:
    s = db_location.open()
    s.tables.create_table(
        _table("t-000000000004", 1.0, ["agent", "agent"]), [(0, None, "deal", None), (0, (1,), "hand", None)]
    )
    s.tables.claim_seat(
        SeatClaim("t-000000000004", 0, "ana", "h0", 2.0),
        revision=1,
        status="waiting",
        waiting_on=None,
        deadline_at=None,
        now=2.0,
    )
    s.tables.claim_seat(
        SeatClaim("t-000000000004", 1, "bob", "h1", 2.0),
        revision=2,
        status="playing",
        waiting_on="agent",
        deadline_at=None,
        now=2.0,
    )
    rev = s.tables.append(_append("t-000000000004", 0, 0, "x", seat_versions={0: 1}, snapshot=(1, 1, {"s": 1}, {})))
    rev = s.tables.append(
        _append("t-000000000004", 1, 1, "y", seat_versions={1: 2}, timeouts={1: 2}, handed={1: "heuristic"})
    )
    assert rev == 5
    assert (
        s.tables.append(
            Append(
                "t-000000000004",
                2,
                [(0, {"type": "z"}, "agent", 4.0)],
                [(3, None, "end", None)],
                "finished",
                result={"winners": [0]},
                now=4.0,
            )
        )
        == 6
    )
    with pytest.raises(StaleVersion):  # nothing is appended to a finished table
        s.tables.append(_append("t-000000000004", 3, 1, "late"))
    row = s.tables.load_table("t-000000000004")
    assert row is not None and row.status == "finished" and row.result == {"winners": [0]} and row.version == 3
    assert row.seat_versions == {0: 1, 1: 2} and row.event_count == 7
    claim = s.tables.seat_claims("t-000000000004")[1]
    assert (claim.timeouts, claim.bot) == (2, "heuristic")
    assert [e.text for e in s.tables.load_events("t-000000000004", seat=None)] == [
        "deal",
        "seat 0 did x",
        "seat 1 did y",
        "end",
    ]
    assert [e.text for e in s.tables.load_events("t-000000000004", seat=1)] == [
        "deal",
        "hand",
        "seat 0 did x",
        "seat 1 did y",
        "only seat 1 sees",
        "end",
    ]
    assert [e.idx for e in s.tables.load_events("t-000000000004", everything=True)] == list(range(7))
    assert [
        e.version for e in s.tables.load_events("t-000000000004", everything=True, after_version=1, upto_version=2)
    ] == [
        2,
        2,
    ]
    assert s.tables.count_events("t-000000000004", after_version=0, seat=0) == 4
    snap = s.tables.latest_snapshot("t-000000000004", 1)
    assert (
        snap is not None
        and (snap.version, snap.data) == (1, {"s": 1})
        and s.tables.latest_snapshot("t-000000000004", 2) is None
    )
    assert s.tables.last_moves_by_seat("t-000000000004") == {0: 3, 1: 2}
    s.close()


def test_list_tables_pages_newest_first_with_filters_in_one_query_each(db_location: DbLocation) -> None:
    s = db_location.open()
    for i in range(5):
        s.tables.create_table(_table(f"t-00000000001{i}", 10.0 + i, ["agent", "bot:random"], creator=f"c{i % 2}"))
    s.tables.create_table(_table("t-000000000020", 10.0, ["agent", "agent"], creator="c9"))  # same time as t-...10
    s.tables.claim_seat(
        SeatClaim("t-000000000014", 0, "zed", "h", 20.0),
        revision=1,
        status="playing",
        waiting_on="agent",
        deadline_at=None,
        now=20.0,
    )
    page = s.tables.list_tables(limit=3)
    assert [r.id for r in page] == ["t-000000000014", "t-000000000013", "t-000000000012"]
    rest = s.tables.list_tables(before=(page[-1].created_at, page[-1].id), limit=10)
    assert [r.id for r in rest] == ["t-000000000011", "t-000000000010", "t-000000000020"]
    assert [r.id for r in s.tables.list_tables(open_seats=True, limit=10)][:1] == ["t-000000000013"]
    assert "t-000000000014" not in [r.id for r in s.tables.list_tables(open_seats=True, limit=10)]
    assert [r.id for r in s.tables.list_tables(agent="zed")] == ["t-000000000014"]
    assert [r.id for r in s.tables.list_tables(agent="c1")] == ["t-000000000013", "t-000000000011"]
    assert [r.id for r in s.tables.list_tables(status="playing")] == ["t-000000000014"]
    claims = s.tables.seat_claims_of(["t-000000000014", "t-000000000013"])
    assert list(claims) == ["t-000000000014"] and claims["t-000000000014"][0].agent == "zed"
    assert s.tables.open_table_counts("c0") == (3, 6)
    s.close()


def test_abort_and_backfill(db_location: DbLocation) -> None:
    s = db_location.open()
    s.tables.create_table(_table("t-000000000030", 1.0, ["bot:random", "bot:random"]))
    rev = s.tables.abort_table("t-000000000030", revision=1, note="stopped", now=2.0)
    row = s.tables.load_table("t-000000000030")
    assert row is not None and (row.status, row.note, row.revision) == ("aborted", "stopped", rev)
    with pytest.raises(StaleVersion):
        s.tables.abort_table("t-000000000030", revision=1, note="again", now=3.0)
    assert not s.tables.backfill_events("t-000000000030", [(0, None, "x", None)], version=0)  # it has its events
    s.close()


def test_sqlite_reads_do_not_queue_behind_another_process_writing(tmp_path: Path) -> None:
    """A read is one statement, not a write-locked transaction: it answers while another connection (another
    worker process) holds the database's write lock."""
    import sqlite3

    from club_agentes.mcp_server.store import Store

    path = tmp_path / "club.sqlite3"
    store = Store(path)
    other = sqlite3.connect(path, isolation_level=None, timeout=0.1)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("CREATE TABLE held (x INTEGER)")
        assert store.db.one("SELECT 1") == (1,)
        assert store.tables.table_head("t-000000000000") is None
        other.execute("ROLLBACK")
    finally:
        other.close()
        store.close()
