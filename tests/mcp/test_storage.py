"""The SQLite store keeps quiz attempts, passes and the key exactly as the in-memory store does,
and keeps them across reopening the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from club_agentes.mcp_server.store import StaleVersion, Store, TableRow
from club_agentes.quizzes.store import Attempt, MemoryQuizStore, PassRecord


@pytest.fixture(params=["sqlite", "memory"])
def store(request, tmp_path: Path):
    return Store(tmp_path / "s.sqlite3") if request.param == "sqlite" else MemoryQuizStore()


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


def test_everything_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    s = Store(path)
    s.save_pass(PassRecord("j1", "ana", ("se-vende",), 10.0, 99.0))
    key = s.secret(b"k" * 32)
    s.create_table(
        TableRow("t-000000000001", "se-vende", {}, 5, True, ["agent", "agent"], False, 1.0, "playing", 0, None)
    )
    assert s.append_moves("t-000000000001", 0, [(0, {"type": "x"}, "agent", 2.0)]) == 1
    s.close()
    again = Store(path)
    assert again.load_pass("j1") is not None and again.secret(b"z" * 32) == key
    assert again.table_version("t-000000000001") == 1
    with pytest.raises(StaleVersion) as err:
        again.append_moves("t-000000000001", 0, [(1, {"type": "y"}, "agent", 3.0)])
    assert err.value.current == 1
    assert [m.move for m in again.load_moves("t-000000000001")] == [{"type": "x"}]
