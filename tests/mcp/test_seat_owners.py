"""Seats belong to agents: a seat token works only for the agent that holds its seat (over HTTP with two
keys, and in the table service), and revoking an agent hands its seats to bot:heuristic at once, on every
worker sharing the store (SQLite, and two PostgreSQL workers)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from club_agentes.mcp_server.auth import AgentRegistry
from club_agentes.mcp_server.tables import TableError, TableService, TableSettings
from club_agentes.rules_corpus import load_corpus

from tests.conftest import DbLocation
from tests.mcp.edge import http_club, keyed_client
from tests.mcp.test_workers import Anyone, race

pytestmark = pytest.mark.anyio

CORPUS = load_corpus()
OTHERS = "belongs to a seat of another agent"


@contextlib.asynccontextmanager
async def worker(loc: DbLocation) -> AsyncIterator[TableService]:
    """A table service on the store at ``loc`` whose sweeper runs only when the test calls ``tick``."""
    settings = TableSettings(bot_workers=0, decision_timeout_s=None, sweep_s=3600)
    svc = TableService(loc.open(), CORPUS, Anyone(), games=race, settings=settings)
    try:
        yield svc
    finally:
        await svc.aclose()
        svc.store.close()


async def test_a_seat_token_used_by_another_agent_over_http_shows_and_changes_nothing(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        assert app.agents is not None
        _, alice_key = app.agents.add("Alice")
        _, bob_key = app.agents.add("Bob")
        async with keyed_client(url, alice_key) as alice, keyed_client(url, bob_key) as bob:
            t = await alice.call(
                "create_table",
                {"game": "market-fortune", "seats": ["agent", "agent"], "options": {"require_club_pass": False}},
            )
            tid = t["table_id"]
            tokens = {
                "alice": (await alice.call("join_table", {"table_id": tid}))["seat_token"],
                "bob": (await bob.call("join_table", {"table_id": tid}))["seat_token"],
            }
            views = {
                "alice": await alice.call("get_view", {"table_id": tid, "seat_token": tokens["alice"]}),
                "bob": await bob.call("get_view", {"table_id": tid, "seat_token": tokens["bob"]}),
            }
            # The victim is the seat that must decide now, so its move would be legal if it were let through.
            victim, thief = ("bob", alice) if views["bob"]["decision"]["yours"] else ("alice", bob)
            token = tokens[victim]
            legal = views[victim]["legal_moves"]
            before = app.store.tables.load_table(tid)
            assert before is not None and legal
            calls: list[tuple[str, dict[str, Any]]] = [
                ("get_view", {"table_id": tid, "seat_token": token}),
                ("get_view", {"table_id": tid, "seat_token": token, "since": -1, "full": True}),
                ("play_move", {"table_id": tid, "seat_token": token, "move": legal[0]["id"]}),
                ("play_move", {"table_id": tid, "seat_token": token, "move": legal[0]["move"], "wait_s": 1}),
                ("wait_for_turn", {"table_id": tid, "seat_token": token, "timeout_s": 1}),
                ("game_log", {"table_id": tid, "seat_token": token}),
            ]
            for name, args in calls:
                error = await thief.error(name, args)
                assert OTHERS in error, (name, error)
                # Nothing of the seat is shown: not its hand, its moves or its private events.
                assert legal[0]["text"] not in error and "hand" not in error.lower()
            after = app.store.tables.load_table(tid)
            assert after is not None
            assert (after.version, after.revision, after.event_count) == (
                before.version,
                before.revision,
                before.event_count,
            )
            assert app.store.tables.load_moves(tid) == []
            # The owner's own token still works, and the public log stays open to the other agent.
            own = await (bob if victim == "bob" else alice).call(
                "play_move", {"table_id": tid, "seat_token": token, "move": legal[0]["id"]}
            )
            assert own["accepted"]
            assert (await thief.call("game_log", {"table_id": tid}))["scope"] == "public"


async def test_revoking_an_agent_over_http_hands_its_seat_to_a_bot(tmp_path: Path) -> None:
    """``agents revoke`` (AgentRegistry.revoke): the server's own sweeper plays the revoked seat, no client call."""
    with http_club(tmp_path / "db") as (app, url):
        assert app.agents is not None
        _, alice_key = app.agents.add("Alice")
        _, bob_key = app.agents.add("Bob")
        async with keyed_client(url, alice_key) as alice, keyed_client(url, bob_key) as bob:
            t = await alice.call(
                "create_table",
                {"game": "market-fortune", "seats": ["agent", "agent"], "options": {"require_club_pass": False}},
            )
            tid = t["table_id"]
            a_tok = (await alice.call("join_table", {"table_id": tid}))["seat_token"]
            b_tok = (await bob.call("join_table", {"table_id": tid}))["seat_token"]
            a_view = await alice.call("get_view", {"table_id": tid, "seat_token": a_tok})
            if a_view["decision"]["yours"]:  # Alice plays until Bob must decide
                for _ in range(30):
                    v = await alice.call("get_view", {"table_id": tid, "seat_token": a_tok})
                    if not v["decision"]["yours"]:
                        break
                    await alice.call("play_move", {"table_id": tid, "seat_token": a_tok, "move": "m1"})
            assert (await bob.call("get_view", {"table_id": tid, "seat_token": b_tok}))["decision"]["yours"]
            version = app.store.tables.table_version(tid)
            app.agents.revoke("bob")
            woke = await alice.call("wait_for_turn", {"table_id": tid, "seat_token": a_tok, "timeout_s": 30})
            assert woke["ready"], woke
            moves = app.store.tables.load_moves(tid, after=version)
            assert moves and all(m.actor == "bot" for m in moves)
            seat = next(c for c in app.store.tables.seat_claims(tid) if c.agent == "bob")
            assert seat.bot == "heuristic"


async def test_the_service_refuses_another_agents_token_before_anything(db_location: DbLocation) -> None:
    async with worker(db_location) as a:
        t = await a.create("toy-race", ["agent", "agent"], {"require_club_pass": False, "goal": 50}, 4)
        tid = t.table.table_id
        ana = (await a.join(tid, "ana", None, None)).token
        await a.join(tid, "bob", None, None)
        head = a.store.tables.table_head(tid)
        for call in (
            a.view(tid, ana, agent="bob"),
            a.play(tid, ana, "add 1", None, agent="bob"),
            a.wait(tid, ana, 0, agent="bob"),
            a.log(tid, ana, agent="bob"),
        ):
            with pytest.raises(TableError, match=OTHERS):
                await call
        assert a.store.tables.table_head(tid) == head
        with pytest.raises(TableError, match="not valid"):
            await a.view(tid, ana + "x", agent="ana")
        assert (await a.play(tid, ana, "add 1", None, agent="ana")).accepted


async def test_a_revoked_agents_seat_is_played_by_a_bot_on_two_workers(db_location: DbLocation) -> None:
    """Worker A serves the table; the agent is revoked in the store; both sweepers race to hand the seat over."""
    async with worker(db_location) as a, worker(db_location) as b:
        AgentRegistry(a.store).add("ana")
        AgentRegistry(a.store).add("bob")
        t = await a.create("toy-race", ["agent", "agent"], {"require_club_pass": False, "goal": 50}, 4)
        tid = t.table.table_id
        ana = (await a.join(tid, "ana", None, None)).token
        bob = (await b.join(tid, "bob", None, None)).token
        first = await a.view(tid, ana, agent="ana")
        mover, other, other_agent = (ana, bob, "bob") if first.decision.yours else (bob, ana, "ana")
        revoked = "bob" if other_agent == "ana" else "ana"
        assert (await b.view(tid, mover, agent=revoked)).decision.yours
        await a.tick()  # nobody is revoked: nothing happens
        assert a.store.tables.table_version(tid) == 0
        AgentRegistry(b.store).revoke(revoked)
        await asyncio.gather(a.tick(), b.tick())
        woke = await a.wait(tid, other, 20, agent=other_agent)
        assert woke.ready and woke.reason == "your_decision"
        moves = a.store.tables.load_moves(tid)
        assert [(m.version, m.actor) for m in moves] == [(1, "bot")]
        notices = [e for e in a.store.tables.load_events(tid, everything=True) if (e.data or {}).get("revoked")]
        assert len(notices) == 1, notices  # one hand-over, whichever worker won it
        await asyncio.gather(a.tick(), b.tick())
        assert len(a.store.tables.load_moves(tid)) == 1
        # The other agent plays on; the bot answers for the revoked seat.
        out = await b.play(tid, other, "add 1", None, agent=other_agent, wait_s=5)
        assert out.accepted and out.state.table.version >= 3
