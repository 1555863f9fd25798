"""The club part of the store (SQLite and PostgreSQL) keeps what the memory store keeps: each attempt's
option orders and prompt fingerprints, an agent's recent papers, every pass, and hands over an old key once."""

from __future__ import annotations

import pytest
from club_agentes.quizzes.store import Attempt, MemoryQuizStore, PassRecord

from tests.conftest import DbLocation


@pytest.fixture(params=["db", "memory"])
def store(request, db_location: DbLocation):
    if request.param == "memory":
        return MemoryQuizStore()
    s = db_location.open()
    request.addfinalizer(s.close)
    return s.quizzes


def test_attempts_keep_their_layout(store) -> None:
    a = Attempt(
        "q-1",
        "ana",
        "se-vende",
        False,
        ("se-vende/gen/x/1", "se-vende/gen/y/2"),
        100.0,
        1000.0,
        orders=((2, 0, 3, 1), ()),
        prompt_keys=("aaaa", "bbbb"),
    )
    store.save_attempt(a)
    assert store.load_attempt("q-1") == a
    assert store.finish_attempt("q-1", 200.0, {"passed": False})
    done = store.load_attempt("q-1")
    assert done.orders == ((2, 0, 3, 1), ()) and done.prompt_keys == ("aaaa", "bbbb")


def test_recent_prompt_keys_are_an_agents_latest_entry_papers_of_a_game(store) -> None:
    for n in range(14):
        store.save_attempt(Attempt(f"e-{n}", "ana", "se-vende", False, ("x",), float(n), 9e9, prompt_keys=(f"k{n}",)))
    store.save_attempt(Attempt("p-1", "ana", "se-vende", True, ("x",), 50.0, 9e9, prompt_keys=("practice",)))
    store.save_attempt(Attempt("o-1", "ana", "market-fortune", False, ("x",), 60.0, 9e9, prompt_keys=("other",)))
    store.save_attempt(Attempt("b-1", "bea", "se-vende", False, ("x",), 70.0, 9e9, prompt_keys=("bea",)))
    recent = store.recent_prompt_keys("ana", "se-vende", 10)
    assert recent == [(f"k{n}",) for n in range(13, 3, -1)]


def test_every_pass_is_listed(store) -> None:
    store.save_pass(PassRecord("j2", "bea", ("se-vende",), 20.0, 99.0))
    store.save_pass(PassRecord("j1", "ana", ("market-fortune", "se-vende"), 10.0, 99.0))
    assert [p.jti for p in store.list_passes()] == ["j1", "j2"]
    assert [p.jti for p in store.list_passes("bea")] == ["j2"] and store.list_passes("cy") == []
    assert store.passes_for("ana") == [store.load_pass("j1")]


def test_a_legacy_key_is_handed_over_once(db_location: DbLocation) -> None:
    s = db_location.open()
    assert s.quizzes.take_legacy_secret() is None
    with s.db.tx() as tx:
        tx.execute("INSERT INTO meta (key, value) VALUES ('club_pass_key', ?)", ((b"K" * 32).hex(),))
    assert s.quizzes.take_legacy_secret() == b"K" * 32
    assert s.quizzes.take_legacy_secret() is None
    s.close()
