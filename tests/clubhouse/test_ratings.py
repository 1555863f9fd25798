"""Ratings: places from results, anchors, several seats of one agent, the store, the tools, rebuilds and races."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.app import ClubApp
from club_agentes.mcp_server.clubhouse import Clubhouse
from club_agentes.mcp_server.clubhouse.ratings import ANCHORS, MODEL, Book, Ratings, places, rate_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.clubhouse import FinishedTable
from mcp import Client

from tests.clubhouse.helpers import clubhouse_app, finished_game
from tests.conftest import DbLocation

pytestmark = pytest.mark.anyio


def table(players: tuple[str, ...], winners: list[int], scores: list[float], at: float = 1.0) -> FinishedTable:
    agents = tuple(s for s, p in enumerate(players) if not p.startswith("bot:"))
    result = {"winners": winners, "scores": scores, "reason": "test", "breakdown": []}
    return FinishedTable(f"t-{int(at * 1000):012x}", "se-vende", players, agents, result, at)


# ---------------------------------------------------------------------------- places and one game


def test_places_put_winners_first_then_scores_with_ties() -> None:
    assert places({"winners": [2], "scores": [10, 30, 20]}, 3) == [3, 2, 1]  # more money, no win: second
    assert places({"winners": [0, 2], "scores": [5, 9, 5]}, 3) == [1, 3, 1]  # a shared win
    assert places({"winners": [1], "scores": [4, 8, 4, 1]}, 4) == [2, 1, 2, 4]  # equal scores tie
    with pytest.raises(ValueError):
        places({"winners": [0], "scores": [1]}, 2)


def test_a_win_over_an_anchor_raises_the_agent_and_leaves_the_anchor_fixed() -> None:
    book = Book({})
    outcome = rate_game(book, table(("alice", "bot:heuristic"), [0], [30, 10]))
    alice, bot = book.get("se-vende", "alice"), book.get("se-vende", "bot:heuristic")
    assert alice.mu > MODEL.mu and alice.sigma < MODEL.sigma
    assert (bot.mu, bot.sigma) == ANCHORS["bot:heuristic"]
    assert (alice.games, alice.wins, bot.games, bot.wins) == (1, 1, 1, 0)
    assert [s["place"] for s in outcome["seats"]] == [1, 2]
    rate_game(book, table(("alice", "bot:heuristic"), [1], [10, 30], at=2.0))
    after = book.get("se-vende", "alice")
    assert after.mu < alice.mu and (after.games, after.wins) == (2, 1)
    assert book.get("se-vende", "bot:heuristic").mu == ANCHORS["bot:heuristic"][0]


def test_losing_to_the_random_anchor_costs_more_than_losing_to_the_heuristic_one() -> None:
    a, b = Book({}), Book({})
    rate_game(a, table(("alice", "bot:random"), [1], [1, 2]))
    rate_game(b, table(("alice", "bot:heuristic"), [1], [1, 2]))
    assert a.get("se-vende", "alice").mu < b.get("se-vende", "alice").mu < MODEL.mu


def test_one_agent_at_two_seats_plays_one_game_with_the_mean_of_its_seats() -> None:
    book = Book({})
    outcome = rate_game(book, table(("alice", "bob", "alice"), [2], [5, 7, 9]))
    alice = book.get("se-vende", "alice")
    seats = [s for s in outcome["seats"] if s["player"] == "alice"]
    assert len(seats) == 2 and {s["place"] for s in seats} == {1, 3}
    assert (alice.games, alice.wins) == (1, 1)
    assert all(s["mu_after"] == alice.mu for s in seats)
    single = Book({})
    rate_game(single, table(("alice", "bob"), [1], [5, 9]))
    assert alice.mu != single.get("se-vende", "alice").mu  # its winning seat counted too


def test_a_shared_win_counts_for_both_and_moves_them_alike() -> None:
    book = Book({})
    rate_game(book, table(("alice", "bob", "carol"), [0, 1], [9, 9, 3]))
    alice, bob, carol = (book.get("se-vende", p) for p in ("alice", "bob", "carol"))
    assert alice.wins == bob.wins == 1 and carol.wins == 0
    assert alice.mu == pytest.approx(bob.mu) and alice.mu > carol.mu


# ---------------------------------------------------------------------------- real games, the store, the tools


async def test_finished_games_update_ratings_the_tools_show_them_and_a_rebuild_gives_the_same_numbers(
    club: tuple[ClubApp, Clubhouse],
) -> None:
    app, house = club
    await finished_game(app, "se-vende", ["agent", "agent"], {0: "alice", 1: "bob"}, seed=1)
    await finished_game(app, "se-vende", ["agent", "bot:heuristic"], {0: "alice"}, seed=2)
    await finished_game(app, "yo-soy-el-jefe", ["agent", "bot:random", "agent"], {0: "bob", 2: "local"}, seed=3)
    bots_only = await app.tables.create("se-vende", ["bot:random", "bot:random"], None, 4)
    for _ in range(200):
        if app.store.tables.table_head(bots_only.table.table_id).status == "finished":  # type: ignore[union-attr]
            break
        await asyncio.sleep(0.05)
    async with Client(app.server) as client:
        board = (await client.call_tool("leaderboard", {"game": "se-vende"})).structured_content
        profile = (await client.call_tool("agent_profile", {})).structured_content
        alice = (await client.call_tool("agent_profile", {"agent": "Alice"})).structured_content
        text = (await client.call_tool("leaderboard", {"game": "yo-soy-el-jefe", "limit": 3})).content[0].text
    assert board is not None and profile is not None and alice is not None
    assert board["rated_games"] == 2  # se-vende games with agents (the bots-only one is not rated)
    players = {e["player"]: e for e in board["entries"]}
    assert set(players) == {"alice", "bob"} | {f"bot:{kind}" for kind in get_game("se-vende").bots}
    assert players["bot:heuristic"]["anchor"] and players["bot:heuristic"]["mu"] == 25.0
    assert players["bot:random"]["games"] == 0  # shown as an anchor, never played here
    assert players["alice"]["games"] == 2 and players["bob"]["games"] == 1
    assert [e["rank"] for e in board["entries"]] == list(range(1, len(players) + 1))
    ordered = [e["rating"] for e in board["entries"]]
    assert ordered == sorted(ordered, reverse=True)
    assert profile["agent"] == "local" and [r["game"] for r in profile["ratings"]] == ["yo-soy-el-jefe"]
    assert [g["game"] for g in alice["recent"]] == ["se-vende", "se-vende"]
    assert all(g["log"] == f"game_log(table_id='{g['table_id']}')" for g in alice["recent"])
    assert "yo-soy-el-jefe" not in {r["game"] for r in alice["ratings"]}
    assert text.startswith("Yo soy el jefe leaderboard") and "(anchor)" in text
    before = house.ratings.snapshot()
    assert Ratings(app.store).rebuild() == 3
    assert house.ratings.snapshot() == before


async def test_a_game_rated_out_of_order_makes_the_next_pass_rebuild_in_order(club: tuple[ClubApp, Clubhouse]) -> None:
    app, house = club
    first = await finished_game(app, "se-vende", ["agent", "agent"], {0: "alice", 1: "bob"}, seed=5)
    assert house.ratings.rate_pending() == 1
    late = await finished_game(app, "se-vende", ["agent", "agent"], {0: "bob", 1: "alice"}, seed=6)
    # The late game committed after the pass but finished (by its clock) before the first one.
    row = app.store.tables.load_table(first)
    assert row is not None
    with app.store.db.tx() as tx:
        tx.execute("UPDATE game_tables SET updated_at = ? WHERE id = ?", (row.updated_at - 1.0, late))
    assert house.ratings.rate_pending() == 2  # everything again, in finishing order
    incremental = house.ratings.snapshot()
    Ratings(app.store).rebuild()
    assert house.ratings.snapshot() == incremental
    order = [g.table_id for g in reversed(app.store.clubhouse.recent_rated("alice", 5))]
    assert order == [late, first]


async def test_ratings_survive_a_restart(tmp_path: Path) -> None:
    app, house = clubhouse_app(Store(tmp_path / "club.sqlite3"))
    await finished_game(app, "market-fortune", ["agent", "bot:heuristic"], {0: "alice"}, seed=7)
    await house.fresh()
    before = house.ratings.snapshot()
    await house.aclose()
    await app.tables.aclose()
    app.store.close()
    again, house2 = clubhouse_app(Store(tmp_path / "club.sqlite3"))
    try:
        assert house2.ratings.snapshot() == before and len(before) == 2
        assert house2.ratings.rate_pending() == 0
    finally:
        await again.tables.aclose()
        again.store.close()


async def test_workers_racing_to_rate_rate_each_game_once(db_location: DbLocation) -> None:
    app, house = clubhouse_app(db_location.open())
    try:
        for seed in range(2):
            await finished_game(app, "market-fortune", ["agent", "agent"], {0: "alice", 1: "bob"}, seed=10 + seed)
        stores = [db_location.open() for _ in range(3)]
        counts: list[int] = []
        errors: list[BaseException] = []

        def work(store: Store) -> None:
            try:
                counts.append(Ratings(store).rate_pending())
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(s,)) for s in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        assert sorted(counts) == [0, 0, 2]
        assert app.store.clubhouse.rated_count() == 2
        raced = house.ratings.snapshot()
        Ratings(stores[0]).rebuild()
        assert house.ratings.snapshot() == raced
        for s in stores:
            s.close()
    finally:
        await app.tables.aclose()
        app.store.close()


async def test_bad_requests_get_one_sentence(club: tuple[ClubApp, Clubhouse]) -> None:
    app, _ = club
    async with Client(app.server) as client:
        bad: list[Any] = [
            ("leaderboard", {"game": "ajedrez"}),
            ("leaderboard", {"game": "se-vende", "limit": 0}),
            ("agent_profile", {"agent": "!!!"}),
            ("agent_profile", {"recent": 99}),
        ]
        for tool, args in bad:
            result = await client.call_tool(tool, args)
            assert result.is_error, (tool, args)
            text = result.content[0].text
            assert "Traceback" not in text and text.count("\n") == 0 and len(text) < 400, text
