"""The store (SQLite and PostgreSQL) keeps quiz attempts, passes and the key exactly as the in-memory
store does, and keeps them across reopening."""

from __future__ import annotations

from pathlib import Path

import pytest
from club_agentes.mcp_server.store import StaleVersion, TableRow
from club_agentes.quizzes.store import Attempt, MemoryQuizStore, PassRecord
from tests.conftest import DbLocation


@pytest.fixture(params=["db", "memory"])
def store(request, db_location: DbLocation):
    if request.param == "memory":
        return MemoryQuizStore()
    s = db_location.open()
    request.addfinalizer(s.close)
    return s


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
    assert store.secret(b"k" * 32) == b"k" * 32
    assert store.secret(b"x" * 32) == b"k" * 32


def test_everything_survives_reopening(db_location: DbLocation) -> None:
    s = db_location.open()
    s.save_pass(PassRecord("j1", "ana", ("se-vende",), 10.0, 99.0))
    key = s.secret(b"k" * 32)
    s.create_table(
        TableRow("t-000000000001", "se-vende", {}, 5, True, ["agent", "agent"], False, 1.0, "playing", 0, None)
    )
    assert s.append_moves("t-000000000001", 0, [(0, {"type": "x"}, "agent", 2.0)]) == 1
    s.close()
    again = db_location.open()
    assert again.load_pass("j1") is not None and again.secret(b"z" * 32) == key
    assert again.table_version("t-000000000001") == 1
    with pytest.raises(StaleVersion) as err:
        again.append_moves("t-000000000001", 0, [(1, {"type": "y"}, "agent", 3.0)])
    assert err.value.current == 1
    assert [m.move for m in again.load_moves("t-000000000001")] == [{"type": "x"}]


def test_a_fresh_sqlite_file_is_private(tmp_path: Path) -> None:
    s = DbLocation("sqlite", str(tmp_path / "new" / "club.sqlite3")).open()
    s.save_pass(PassRecord("j1", "ana", ("se-vende",), 10.0, 99.0))
    for f in (tmp_path / "new").iterdir():
        assert f.stat().st_mode & 0o077 == 0, f"{f.name} is readable by others"
    assert (tmp_path / "new").stat().st_mode & 0o077 == 0
    s.close()


def test_racing_appends_never_both_apply(db_location: DbLocation) -> None:
    a, b = db_location.open(), db_location.open()
    a.create_table(TableRow("t-000000000002", "se-vende", {}, 5, True, ["agent"] * 2, False, 1.0, "playing", 0, None))
    assert a.append_moves("t-000000000002", 0, [(0, {"type": "x"}, "agent", 2.0)]) == 1
    with pytest.raises(StaleVersion):
        b.append_moves("t-000000000002", 0, [(1, {"type": "y"}, "agent", 3.0)])
    assert b.append_moves("t-000000000002", 1, [(1, {"type": "y"}, "agent", 3.0)]) == 2
    assert [m.version for m in a.load_moves("t-000000000002")] == [1, 2]
    a.close()
    b.close()
