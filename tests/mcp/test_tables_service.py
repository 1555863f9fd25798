"""Table mechanics with toy games: seats and tokens, move forms and refusals, per-seat versions, races and
two processes on one store, waiting, logs and listings a page at a time, bots in the background, the
decision clock, quotas, snapshots and the live-table cache. (Real games are played in test_play.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import Game, UnknownGame, get_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.tables import no_fault
from club_agentes.mcp_server.tables import TableError, TableService, TableSettings
from club_agentes.rules_corpus import load_corpus

from club_agentes.errors import Refused
from tests.engine.toys import ReactionToy
from tests.mcp.table_toys import Counting, Race, Sealed

pytestmark = pytest.mark.anyio

TOYS: dict[str, Game] = {"toy-sealed": Sealed(), "toy-reaction": ReactionToy(), "toy-race": Race()}
CORPUS = load_corpus()
QUIET = TableSettings(bot_workers=0, decision_timeout_s=None, reply_wait_s=2.0, sweep_s=3600)


def resolver(games: dict[str, Game]) -> Callable[[str], Game]:
    def get(game_id: str) -> Game:
        if game_id not in games:
            raise UnknownGame(f"unknown game {game_id!r}; valid game ids are: {', '.join(games)}")
        return games[game_id]

    return get


toy = resolver(TOYS)


class Passes:
    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return None if club_pass == f"pass-for-{agent}" else "the club pass is missing or not valid for this agent"


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@contextlib.asynccontextmanager
async def service(path: Path, *, games: Callable[[str], Game] = toy, **kw: Any) -> AsyncIterator[TableService]:
    settings = kw.pop("settings", QUIET)
    svc = TableService(Store(path), CORPUS, Passes(), games=games, settings=settings, **kw)
    try:
        yield svc
    finally:
        await svc.aclose()
        svc.store.close()


async def seated(svc: TableService, game: str, seats: list[str], seed: int = 7, **opts: Any) -> tuple[str, list[str]]:
    t = await svc.create(game, seats, {"require_club_pass": False, **opts}, seed, creator="host")
    tokens = []
    for i, spec in enumerate(seats):
        if spec == "agent":
            tokens.append((await svc.join(t.table.table_id, f"agent{i}", None, None)).token)
    return t.table.table_id, tokens


async def test_create_validates_input(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        for args, words in [
            (("chess", ["agent", "agent"]), "valid game ids"),
            (("toy-reaction", []), "seats is empty"),
            (("toy-reaction", ["agent", "robot"]), "'agent' or one of"),
            (("toy-reaction", ["agent"]), "2 to 5 seats"),
        ]:
            with pytest.raises(TableError, match=words):
                await svc.create(*args, None, None)
        with pytest.raises(TableError, match="no options"):
            await svc.create("toy-reaction", ["agent", "agent"], {"speed": 3}, None)
        with pytest.raises(TableError, match="seed must be"):
            await svc.create("toy-reaction", ["agent", "agent"], None, -1)
        with pytest.raises(TableError, match="decision_timeout_s must be"):
            await svc.create("toy-reaction", ["agent", "agent"], {"decision_timeout_s": 0}, None)
        with pytest.raises(TableError, match="max_timeouts must be"):
            await svc.create("toy-reaction", ["agent", "agent"], {"max_timeouts": 1000}, None)
        with pytest.raises(TableError, match="goal must be"):
            await svc.create("toy-race", ["agent", "agent"], {"goal": 10**9}, None)
        assert issubclass(TableError, Refused)


async def test_join_needs_a_pass_names_the_agent_and_tokens_are_per_seat(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        t = await svc.create("toy-reaction", ["agent", "agent"], None, None, creator="ana")
        tid = t.table.table_id
        assert t.table.require_club_pass and t.table.status == "waiting" and not t.table.seeded
        assert t.table.creator == "ana"
        with pytest.raises(TableError, match="club pass"):
            await svc.join(tid, "ana", None, None)
        with pytest.raises(TableError, match="club pass"):
            await svc.join(tid, "ana", "pass-for-bob", None)  # a pass admits only the agent it names
        a = await svc.join(tid, "ana", "pass-for-ana", None)
        with pytest.raises(TableError, match="not open"):
            await svc.join(tid, "bob", "pass-for-bob", 0)
        with pytest.raises(TableError, match="already holds seat 0"):
            await svc.join(tid, "ana", "pass-for-ana", None)
        b = await svc.join(tid, "bob", "pass-for-bob", None)
        assert (a.seat, b.seat, b.table.status) == (0, 1, "playing") and a.token != b.token
        with pytest.raises(TableError, match="no open agent seat"):
            await svc.join(tid, "cy", "pass-for-cy", None)
        assert (await svc.view(tid, b.token)).seat == 1
        with pytest.raises(TableError, match="seat token is not valid"):
            await svc.view(tid, a.token + "x")
        other = await svc.create("toy-reaction", ["agent", "agent"], {"require_club_pass": False}, None)
        with pytest.raises(TableError, match="seat token is not valid"):
            await svc.view(other.table.table_id, a.token)
        with pytest.raises(TableError, match="unknown table"):
            await svc.view("t-000000000000", a.token)
        with pytest.raises(TableError, match="unknown table"):
            await svc.view("x" * 10_000, a.token)


async def test_one_agent_holds_several_seats_only_when_the_creator_allows(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        t = await svc.create(
            "toy-race", ["agent", "agent", "agent"], {"require_club_pass": False, "seats_per_agent": 2}, 1
        )
        tid = t.table.table_id
        await svc.join(tid, "solo", None, None)
        await svc.join(tid, "solo", None, None)
        with pytest.raises(TableError, match="allows 2 seat"):
            await svc.join(tid, "solo", None, None)
        assert (await svc.join(tid, "other", None, None)).table.status == "playing"


async def test_moves_by_id_text_and_json_with_plain_words(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, t1, t2) = await seated(svc, "toy-reaction", ["agent", "agent", "agent"])
        v = await svc.view(tid, t0)
        assert v.decision.yours and [m.text for m in v.moves] == ["attack 1", "attack 2"]
        assert all(m.says for m in v.moves)
        out = await svc.play(tid, t0, "m2", None)
        assert out.accepted and out.state.table.version == 1
        assert [e.text for e in out.state.events] == ["seat 0 attacks seat 2"]
        assert out.played is not None and out.played.id == "m2"
        assert (await svc.play(tid, t1, "pass", None)).accepted  # text form
        out = await svc.play(tid, t2, {"type": "pass"}, None)  # JSON form
        assert out.accepted and out.state.table.version == 3
        await svc.play(tid, t0, "attack 1", None)
        await svc.view(tid, t1)  # lists block and pass as m1, m2
        out = await svc.play(tid, t1, "m9", None)
        assert not out.accepted and out.refusal and out.refusal.kind == "unparsed" and "m1 to m2" in out.refusal.reason


async def test_explain_and_notes_name_seats_by_number_and_agent(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, _t1) = await seated(svc, "toy-race", ["agent", "agent"])
        v = await svc.view(tid, t0)
        assert [m.says for m in v.moves] == [
            "seat 0 (agent0) adds 1, bringing the counter to 1",
            "seat 0 (agent0) adds 2, bringing the counter to 2",
            "seat 0 (agent0) adds nothing",
        ]
        assert v.moves[2].note == "passing never helps you reach the goal" and v.moves[0].note is None


async def test_unreadable_moves_are_answers_with_the_closest_moves_never_errors(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, _t1) = await seated(svc, "toy-race", ["agent", "agent"])
        for move in ("I would like to add two please", "ad 2", {"type": "jump"}, 42, ["add", 2], "x" * 100_000):
            out = await svc.play(tid, t0, move, None)  # type: ignore[arg-type]
            assert not out.accepted and out.refusal is not None and out.refusal.kind == "unparsed", move
            assert len(out.refusal.closest) == 3 and out.state.moves, move
            assert len(out.refusal.reason) < 400
        out = await svc.play(tid, t0, "ad 2", None)
        assert out.refusal is not None and out.refusal.closest[0].text == "add 2"
        assert out.state.table.version == 0


async def test_rule_breaking_move_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
        out = await svc.play(tid, t1, {"type": "attack", "target": 0}, None)
        assert not out.accepted and out.refusal is not None
        assert out.refusal.kind == "rule" and out.refusal.rule_id == "toy/not-your-decision"
        assert out.state.table.version == 0 and out.state.moves == []
        assert (await svc.view(tid, t0)).table.version == 0
        out = await svc.play(tid, t1, "m1", None)
        assert out.refusal is not None and out.refusal.kind == "not_your_decision"


async def test_stale_versions_and_move_ids(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
        await svc.view(tid, t0)
        await svc.view(tid, t1)
        assert (await svc.play(tid, t0, "m1", 0)).accepted
        # t1 saw no moves at its last look; now it is polled and its situation changed.
        out = await svc.play(tid, t1, "m1", 0)
        assert not out.accepted and out.refusal is not None and out.refusal.kind == "stale_version"
        assert [m.text for m in out.state.moves] == ["block", "pass"]
        assert (await svc.play(tid, t1, "m2", out.state.seat_version)).accepted
        out = await svc.play(tid, t0, "m1", 99)
        assert (
            out.refusal is not None and out.refusal.kind == "stale_version" and "only at version" in out.refusal.reason
        )


async def test_move_id_listed_before_a_change_is_refused_without_expected_version(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, t1, t2) = await seated(svc, "toy-reaction", ["agent", "agent", "agent"])
        await svc.play(tid, t0, "attack 2", None)
        await svc.view(tid, t1)  # t1 is polled: block or pass, listed at this seat version
        assert (await svc.play(tid, t1, "pass", None)).accepted
        await svc.play(tid, t2, "pass", None)
        await svc.play(tid, t1, "attack 0", None)
        await svc.view(tid, t2)  # listed block, pass
        await svc.play(tid, t2, "pass", None)
        await svc.play(tid, t0, "pass", None)
        # t2 last saw ids while polled; its situation changed since (its turn now): a bare id is refused.
        out = await svc.play(tid, t2, "m1", None)
        assert out.refusal is not None and out.refusal.kind == "stale_move_id"
        assert (await svc.play(tid, t2, "m1", None)).accepted  # the refusal listed the moves anew


async def test_other_seats_sealed_choices_leave_my_version_and_ids_valid(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, t1, t2) = await seated(svc, "toy-sealed", ["agent", "agent", "agent"])
        v0 = await svc.view(tid, t0)
        assert v0.decision.kind == "simultaneous" and v0.decision.yours and v0.seat_version == 0
        assert (await svc.play(tid, t1, {"type": "pick", "value": 2}, 0)).accepted
        assert (await svc.play(tid, t2, {"type": "pick", "value": 1}, 0)).accepted  # t2 decided at version 0 too
        after = await svc.view(tid, t0)
        assert after.table.version == 2 and after.seat_version == 0 and after.decision.done == [1, 2]
        assert after.view["my_choice"] is None
        out = await svc.play(tid, t0, "m3", v0.table.version)
        assert out.accepted and out.state.table.version == 3
        assert (await svc.view(tid, t1)).decision.yours  # the round was revealed: a new choice


async def test_racing_submissions_never_both_apply(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, _t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
        results = await asyncio.gather(
            svc.play(tid, t0, {"type": "attack", "target": 1}, 0),
            svc.play(tid, t0, {"type": "attack", "target": 1}, 0),
        )
        assert sorted(r.accepted for r in results) == [False, True]
        loser = next(r for r in results if not r.accepted)
        assert loser.refusal is not None and loser.refusal.kind == "stale_version"
        assert svc.store.tables.table_version(tid) == 1


async def test_two_services_on_one_store_join_play_and_catch_up_only_what_they_miss(tmp_path: Path) -> None:
    ga, gb = Counting(), Counting()
    async with (
        service(tmp_path / "db", games=resolver({"toy-race": ga})) as a,
        service(tmp_path / "db", games=resolver({"toy-race": gb})) as b,
    ):
        t = await a.create("toy-race", ["agent", "agent"], {"require_club_pass": False, "goal": 40}, 3)
        tid = t.table.table_id
        j0 = await a.join(tid, "ana", None, None)
        assert (await b.view(tid, j0.token)).table.status == "waiting"  # b loads the table
        j1 = await b.join(tid, "bob", None, None)  # the join through b ...
        seen = await a.view(tid, j0.token)  # ... is seen through a at once
        assert seen.table.status == "playing" and seen.decision.yours
        applied_by_b = gb.applied
        moves = 0
        for i in range(6):
            svc, tok = (a, j0.token) if i % 2 == 0 else (b, j1.token)
            out = await svc.play(tid, tok, "add 1", None)
            assert out.accepted, out.refusal
            moves += 1
        # b applied its own 3 moves plus the 3 it caught up on: never a replay from the start.
        assert gb.applied - applied_by_b == moves
        # The loser of a race across processes gets stale_version, not an error.
        await a.view(tid, j0.token)
        await b.view(tid, j0.token)
        assert (await a.play(tid, j0.token, "add 1", 6)).accepted
        late = await b.play(tid, j0.token, "add 2", 6)
        assert not late.accepted and late.refusal is not None and late.refusal.kind == "stale_version"
        assert a.store.tables.table_version(tid) == 7


async def test_wait_for_turn_wakes_on_the_other_seats_move_and_its_ids_work_at_once(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
        quick = await svc.wait(tid, t1, 0)
        assert not quick.ready and quick.reason == "timeout"
        waiter = asyncio.create_task(svc.wait(tid, t1, 10))
        await asyncio.sleep(0.05)
        assert not waiter.done()
        await svc.play(tid, t0, {"type": "attack", "target": 1}, None)
        res = await asyncio.wait_for(waiter, 5)
        assert res.ready and res.reason == "your_decision" and res.waited_s < 5
        assert [m.id for m in res.state.moves] == ["m1", "m2"]
        assert (await svc.play(tid, t1, "m1", None)).accepted  # no get_view in between
        with pytest.raises(TableError, match="timeout_s"):
            await svc.wait(tid, t1, 61)


async def test_play_move_with_wait_s_answers_at_the_next_decision_with_what_happened_since(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, t1) = await seated(svc, "toy-race", ["agent", "agent"])
        for bad in (61, -1, True, "5"):
            with pytest.raises(TableError, match="wait_s must be from 0 to 60"):
                await svc.play(tid, t0, "add 2", None, bad)  # type: ignore[arg-type]
        assert svc.store.tables.load_table(tid).version == 0  # a bad wait_s changes nothing
        mover = asyncio.create_task(svc.play(tid, t0, "add 2", None, 10))
        await asyncio.sleep(0.05)
        assert not mover.done()  # seat 1 decides now: the answer to seat 0's move waits
        assert (await svc.play(tid, t1, "add 1", None)).accepted
        res = await asyncio.wait_for(mover, 5)
        assert res.accepted and res.played_version == 1 and res.state.decision.yours
        assert res.state.since == 0 and "seat 1 adds 1: 3" in [e.text for e in res.state.events]
        assert [m.id for m in res.state.moves] and (await svc.play(tid, t0, res.state.moves[0].id, None)).accepted
        # The timeout: the answer comes with the other seat still deciding.
        again = await svc.play(tid, t1, "add 1", None, 0.2)
        assert again.accepted and not again.state.decision.yours
        # A move that is not applied answers at once, whatever wait_s says.
        refused = await asyncio.wait_for(svc.play(tid, t1, "add 1", None, 30), 2)
        assert not refused.accepted


async def test_reads_never_write_and_two_clients_on_one_seat_see_the_same(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, t1) = await seated(svc, "toy-race", ["agent", "agent"])
        await svc.play(tid, t0, "add 2", None)
        await svc.play(tid, t1, "add 1", None)
        before = svc.store.tables.load_table(tid)
        first = await svc.view(tid, t0)
        second = await svc.view(tid, t0)
        assert [e.text for e in first.events] == [e.text for e in second.events] == ["seat 1 adds 1: 3"]
        assert first.since == 1  # by default: since this seat's own last move
        full = await svc.view(tid, t0, since=-1)
        assert [e.text for e in full.events][:2] == [
            "the race to 12 begins",
            "your secret number is " + str(full.view["my_secret"]),
        ]
        await svc.wait(tid, t0, 0)
        await svc.log(tid, t0)
        assert svc.store.tables.load_table(tid) == before


async def test_bots_only_table_plays_in_the_background(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        t = await svc.create("toy-race", ["bot:random", "bot:random"], {"goal": 200}, 5)
        assert t.table.status == "playing" and t.table.version == 0  # create returned before the bots played
        for _ in range(200):
            row = svc.store.tables.load_table(t.table.table_id)
            assert row is not None
            if row.status == "finished":
                break
            await asyncio.sleep(0.02)
        assert row.status == "finished" and row.result is not None and row.result["breakdown"]
        assert svc.live(t.table.table_id) is None  # never held in memory here
        log = await svc.log(t.table.table_id, None, limit=500)
        assert log.scope == "full" and log.moves is not None and len(log.moves) == row.version


async def test_bots_fill_seats_and_the_full_log_replays_the_game(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0,) = await seated(svc, "toy-race", ["agent", "bot:random", "bot:random"], goal=30)
        for _ in range(200):
            v = await svc.view(tid, t0)
            if v.table.status == "finished":
                break
            assert v.decision.yours, "bots should have played until the agent must decide"
            await svc.play(tid, t0, "m2", None)
        assert v.table.result is not None and v.table.result["breakdown"][0]["lines"]
        events, moves, cursor = [], [], None
        while True:
            page = await svc.log(tid, None, cursor, limit=4)
            events += page.events
            moves += page.moves or []
            cursor = page.next_cursor
            if cursor is None:
                break
        assert (
            page.scope == "full"
            and page.seed == 7
            and [m.version for m in moves] == list(range(1, v.table.version + 1))
        )
        assert [e.idx for e in events] == list(range(len(events)))
        assert any(e.audience == (1,) and "secret" in e.text for e in events)  # the deal, each seat's part
        game = Race()
        state, _ = game.start(game.make_config(3, {"goal": 30}), page.seed)
        for m in moves:
            game.apply(state, m.seat, game.parse_move(m.move))
        assert json.dumps(game.snapshot(state)) == json.dumps(game.snapshot(svc.live(tid).state))  # type: ignore[union-attr]


async def test_a_log_page_ends_early_at_whole_moves_once_it_holds_enough_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page covers at most ``limit`` versions and ends, at the end of a read chunk, once it holds
    LOG_PAGE_EVENTS events; its ``upto`` and ``next_cursor`` say where, and the pages together are the whole log."""
    from club_agentes.mcp_server.tables import gamelog

    monkeypatch.setattr(gamelog, "LOG_PAGE_EVENTS", 6)
    monkeypatch.setattr(gamelog, "LOG_READ_CHUNK", 3)
    async with service(tmp_path / "db") as svc:
        tid, (t0,) = await seated(svc, "toy-race", ["agent", "bot:random", "bot:random"], goal=30)
        for _ in range(200):
            v = await svc.view(tid, t0)
            if v.table.status == "finished":
                break
            await svc.play(tid, t0, "m2", None)
        whole = await svc.store.run(svc.store.tables.load_events, tid, everything=True)
        assert len(whole) > 12 and v.table.version > 6
        events, cursor, pages = [], None, 0
        while True:
            page = await svc.log(tid, None, cursor, limit=100)
            pages += 1
            assert len([e for e in page.events if e.version <= page.upto - 3]) < 6  # it ended at the first full chunk
            assert all(page.after < e.version <= page.upto for e in page.events)
            events += page.events
            cursor = page.next_cursor
            if cursor is None:
                assert page.upto == v.table.version
                break
            assert cursor == f"v{page.upto}" and page.upto < min(v.table.version, page.after + 100)
        assert pages > 1 and [e.idx for e in events] == [e.idx for e in whole]


async def test_public_and_seat_logs_show_private_parts_only_to_their_seat(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        tid, (t0, _t1) = await seated(svc, "toy-race", ["agent", "agent"])
        public = await svc.log(tid, None)
        assert public.scope == "public" and public.moves is None and public.seed is None
        assert not any(e.audience for e in public.events)
        mine = await svc.log(tid, t0)
        assert mine.scope == "seat" and mine.seat == 0
        assert [e.audience for e in mine.events if e.audience] == [(0,)]
        with pytest.raises(TableError, match="cursor"):
            await svc.log(tid, None, "nope")


async def test_list_tables_pages_and_filters(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        ids = []
        for i in range(7):
            t = await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, i, creator=f"c{i % 2}")
            ids.append(t.table.table_id)
        await svc.join(ids[0], "joiner", None, None)
        await svc.join(ids[0], "joiner2", None, None)
        seen, cursor = [], None
        while True:
            page = await svc.list(limit=3, cursor=cursor)
            seen += [t.table_id for t in page.tables]
            cursor = page.next_cursor
            if cursor is None:
                break
        assert seen == ids[::-1]
        open_ = await svc.list(open_seats=True, limit=100)
        assert ids[0] not in [t.table_id for t in open_.tables] and len(open_.tables) == 6
        mine = await svc.list(agent="joiner", limit=100)
        assert [t.table_id for t in mine.tables] == [ids[0]]
        assert len((await svc.list(agent="c1", limit=100)).tables) == 3
        with pytest.raises(TableError, match="status must be"):
            await svc.list(status="closed")
        with pytest.raises(TableError, match="cursor"):
            await svc.list(cursor="zzz")


async def test_restart_rebuilds_tables_from_snapshot_and_later_moves(tmp_path: Path) -> None:
    settings = TableSettings(bot_workers=0, decision_timeout_s=None, snapshot_every=3, sweep_s=3600)
    async with service(tmp_path / "db", settings=settings) as svc:
        tid, (t0, t1) = await seated(svc, "toy-race", ["agent", "agent"], goal=40)
        for i in range(7):
            await svc.play(tid, (t0, t1)[i % 2], "add 1", None)
        before = json.dumps(Race().snapshot(svc.live(tid).state))  # type: ignore[union-attr]
    counting = Counting()
    async with service(tmp_path / "db", games=resolver({"toy-race": counting}), settings=settings) as again:
        v = await again.view(tid, t1)
        assert v.table.version == 7 and counting.applied == 1  # snapshot at 6, then one move
        assert json.dumps(Race().snapshot(again.live(tid).state)) == before  # type: ignore[union-attr]
        assert [e.text for e in v.events] == ["seat 0 adds 1: 7"]
        assert (await again.play(tid, t1, "add 2", None)).accepted


async def test_live_tables_are_a_bounded_cache(tmp_path: Path) -> None:
    settings = TableSettings(bot_workers=0, decision_timeout_s=None, max_live_tables=3, sweep_s=3600)
    async with service(tmp_path / "db", settings=settings) as svc:
        tables = [await seated(svc, "toy-race", ["agent", "agent"], seed=i) for i in range(6)]
        for tid, (t0, _t1) in tables:
            await svc.play(tid, t0, "add 1", None)
            assert svc.live_tables <= 3
        tid, (t0, _t1) = tables[0]
        assert svc.live(tid) is None
        assert (await svc.view(tid, t0)).table.version == 1  # reloaded on demand


async def test_the_decision_clock_plays_a_silent_seat_and_hands_it_to_a_bot(tmp_path: Path) -> None:
    clock = Clock()
    async with service(tmp_path / "db", clock=clock) as svc:
        tid, (t0, t1) = await seated(svc, "toy-race", ["agent", "agent"], goal=9, decision_timeout_s=30, max_timeouts=2)
        v = await svc.view(tid, t0)
        assert v.decision.deadline_at == clock.now + 30
        await svc.tick()
        assert svc.store.tables.table_version(tid) == 0  # not yet
        clock.now += 31
        await svc.tick()
        v = await svc.view(tid, t1)
        assert v.table.version == 1 and v.decision.yours and v.table.seats[0].timeouts == 1
        notice = [e for e in (await svc.log(tid, None)).events if e.data and e.data.get("timeout")]
        assert notice and "ran out of time" in notice[0].text and notice[0].data["rule_id"] == "toy/pass-by-default"
        await svc.play(tid, t1, "add 2", None)
        clock.now += 31
        await svc.tick()  # second timeout in a row: a bot takes seat 0 over
        v = await svc.view(tid, t0)
        assert v.table.seats[0].played_by == "heuristic" and not v.decision.yours
        refused = await svc.play(tid, t0, "add 1", None)
        assert refused.refusal is not None and refused.refusal.kind == "not_your_decision"
        for _ in range(20):  # seat 1 plays on; the bot answers for seat 0 until the game ends
            v = await svc.view(tid, t1)
            if v.table.status == "finished":
                break
            if v.decision.yours:
                await svc.play(tid, t1, "add 1", None)
            else:
                await asyncio.sleep(0.02)
        assert v.table.status == "finished"


async def test_a_seat_that_moves_itself_resets_its_timeouts(tmp_path: Path) -> None:
    clock = Clock()
    async with service(tmp_path / "db", clock=clock) as svc:
        tid, (t0, t1) = await seated(
            svc, "toy-race", ["agent", "agent"], goal=50, decision_timeout_s=30, max_timeouts=2
        )
        clock.now += 31
        await svc.tick()
        await svc.play(tid, t1, "add 1", None)
        assert (await svc.play(tid, t0, "add 1", None)).accepted
        assert (await svc.view(tid, t0)).table.seats[0].timeouts == 0


class Quotas:
    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []

    def take(self, kind: str, subject: str) -> None:
        self.calls.append(("take", kind, subject))
        if subject == "greedy":
            err = Refused("greedy has created 30 tables in the last hour (the limit is 30); retry after 60 seconds")
            err.retry_after = 60
            raise err

    def check_open_tables(self, agent: str, mine: int, everyone: int) -> None:
        self.calls.append(("open", agent, str(mine), str(everyone)))

    @contextlib.asynccontextmanager
    async def ahold(self, kind: str, subject: str, seconds: float) -> AsyncIterator[None]:
        self.calls.append(("hold", kind, subject))
        if subject == "poller":
            raise Refused("poller already holds 4 long-polls (the limit is 4); retry after 1 seconds")
        yield


async def test_quotas_are_asked_for_tables_open_tables_and_long_polls(tmp_path: Path) -> None:
    quotas = Quotas()
    async with service(tmp_path / "db", limits=quotas) as svc:
        t = await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, 1, creator="ana")
        await svc.create("toy-race", ["agent", "agent"], None, 2, creator="ana")
        with pytest.raises(Refused, match="retry after") as err:
            await svc.create("toy-race", ["agent", "agent"], None, 3, creator="greedy")
        assert err.value.retry_after == 60
        j = await svc.join(t.table.table_id, "ana", None, None)
        await svc.wait(t.table.table_id, j.token, 0.01, agent="ana")
        assert ("open", "ana", "1", "1") in quotas.calls and ("take", "table", "ana") in quotas.calls
        assert ("hold", "long_poll", "ana") in quotas.calls
        await svc.join(t.table.table_id, "bea", None, None)
        quotas.calls.clear()
        ready = await svc.wait(t.table.table_id, j.token, 30, agent="ana")
        assert ready.ready and ready.waited_s < 5, "seat 0 moves first in the race"
        assert not [c for c in quotas.calls if c[0] == "hold"], "an answer due at once holds no long-poll"


async def test_play_move_with_wait_s_over_the_long_poll_limit_still_answers_the_move(tmp_path: Path) -> None:
    async with service(tmp_path / "db", limits=Quotas()) as svc:
        t = await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, 1, creator="poller")
        t0 = (await svc.join(t.table.table_id, "poller", None, None)).token
        await svc.join(t.table.table_id, "bea", None, None)
        res = await asyncio.wait_for(svc.play(t.table.table_id, t0, "add 1", None, 30, agent="poller"), 5)
        assert res.accepted and res.played_version == 1 and not res.state.decision.yours


POINTS = {
    "create": ["create:table", "create:events"],
    "join": ["claim:seat", "claim:table"],
    "move": ["append:moves", "append:events", "append:snapshot", "append:table"],
    "finish": ["append:moves", "append:events", "append:snapshot", "append:table"],
}


class Boom(Exception):
    pass


@pytest.mark.parametrize(("write", "point"), [(w, p) for w, ps in POINTS.items() for p in ps])
async def test_a_fault_at_any_commit_point_loses_nothing_acknowledged(tmp_path: Path, write: str, point: str) -> None:
    """A write that fails between two of its statements leaves nothing of itself behind; everything
    acknowledged before it stays; every table can still be joined, played and read, before and after a
    restart. ``finish`` is the move that ends the game (the result is written with it)."""
    db = tmp_path / "db"
    settings = TableSettings(bot_workers=0, decision_timeout_s=None, snapshot_every=1, sweep_s=3600)
    async with service(db, settings=settings) as svc:
        tid, (t0, t1, t2) = await seated(
            svc, "toy-race", ["agent", "agent", "agent"], goal=4 if write == "finish" else 99
        )
        await svc.play(tid, t0, "add 1", None)
        await svc.play(tid, t1, "add 2", None)

        def hook(where: str) -> None:
            if where == point:
                raise Boom(where)

        with pytest.raises(Boom):
            if write == "create":
                svc.store.tables.fault_hook = hook
                await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, 1)
            elif write == "join":
                t = await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False}, 1)
                await svc.join(t.table.table_id, "x", None, None)
                svc.store.tables.fault_hook = hook
                await svc.join(t.table.table_id, "y", None, None)
            else:
                svc.store.tables.fault_hook = hook
                await svc.play(tid, t2, "add 1", None)
        svc.store.tables.fault_hook = no_fault
        # The same process goes on: nothing half-written shows.
        v = await svc.view(tid, t0)
        assert (v.table.version, v.table.status, v.table.result) == (2, "playing", None)
    async with service(db, settings=settings) as again:  # and after a restart
        v = await again.view(tid, t0)
        assert v.table.version == 2 and [m.move for m in again.store.tables.load_moves(tid)] == [
            {"type": "add", "n": 1},
            {"type": "add", "n": 2},
        ]
        for row in again.store.tables.list_tables(limit=100):
            claims = again.store.tables.seat_claims(row.id)
            assert row.open_seats == sum(1 for s in row.seats if s == "agent") - len(claims)
            assert (row.status == "waiting") == (row.open_seats > 0)
            assert row.event_count == len(again.store.tables.load_events(row.id, everything=True))
            if row.status == "waiting":  # every waiting table can still be joined to the end
                for i in range(row.open_seats):
                    await again.join(row.id, f"late{i}", None, None)
                assert again.store.tables.load_table(row.id).status == "playing"  # type: ignore[union-attr]
        out = await again.play(tid, t2, "add 1", None)
        assert out.accepted and out.state.table.version == 3
        if write == "finish":
            assert out.state.table.status == "finished" and out.state.table.result is not None


async def test_tables_stored_before_this_version_are_migrated_and_go_on(tmp_path: Path) -> None:
    """A database of the first schema (no revision, events, snapshots): open seats are counted by the
    migration, events are regenerated by replay once when the service starts (before any read), and the table
    plays on."""
    from club_agentes.mcp_server.store.db import Database
    from club_agentes.mcp_server.store.tables import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    db = Database.sqlite(path)
    db.migrate(MIGRATIONS[:1])
    token = "old-token"
    with db.tx() as tx:
        tx.execute(
            "INSERT INTO game_tables (id, game, config, seed, seeded, seats, require_club_pass, created_at, status,"
            " version, result) VALUES ('t-0000000000aa', 'toy-race', '{\"goal\": 30}', 3, 1,"
            ' \'["agent", "agent", "agent"]\', 0, 1.0, \'waiting\', 2, NULL)'
        )
        tx.execute(
            "INSERT INTO seat_claims (table_id, seat, agent, token_hash, joined_at, seen_events) VALUES"
            " ('t-0000000000aa', 0, 'ana', ?, 1.0, 0), ('t-0000000000aa', 1, 'bob', 'x', 1.0, 0)",
            (hashlib.sha256(token.encode()).hexdigest(),),
        )
        for v, n in ((1, 2), (2, 1)):
            tx.execute(
                "INSERT INTO moves (table_id, version, seat, move, actor, at)"
                " VALUES ('t-0000000000aa', ?, ?, ?, 'agent', 2.0)",
                (v, v - 1, json.dumps({"type": "add", "n": n})),
            )
    db.close()
    async with service(path) as svc:
        row = svc.store.tables.load_table("t-0000000000aa")
        assert row is not None and row.open_seats == 1 and row.event_count == 6
        assert svc.store.tables.tables_without_events() == []
        page = await svc.log("t-0000000000aa", None)
        assert [e.text for e in page.events] == ["the race to 30 begins", "seat 0 adds 2: 2", "seat 1 adds 1: 3"]
        j = await svc.join("t-0000000000aa", "cy", None, None)
        assert j.table.status == "playing"
        out = await svc.play("t-0000000000aa", j.token, "add 2", None)
        assert (
            out.accepted and out.state.table.version == 3 and [e.text for e in out.state.events] == ["seat 2 adds 2: 5"]
        )
        assert (await svc.view("t-0000000000aa", token)).decision.yours


async def test_old_tables_that_do_not_replay_are_left_as_they_were(tmp_path: Path) -> None:
    """The one-time event backfill skips a table of a game not installed and one whose moves no longer replay,
    converts the others, and a second start has nothing left to convert."""
    from club_agentes.mcp_server.store.db import Database
    from club_agentes.mcp_server.store.tables import MIGRATIONS
    from club_agentes.mcp_server.tables.live import backfill_old_tables

    path = tmp_path / "old.sqlite3"
    db = Database.sqlite(path)
    db.migrate(MIGRATIONS[:1])
    tables = {
        "t-0000000000b1": ("toy-race", 2),
        "t-0000000000b2": ("no-such-game", 2),
        "t-0000000000b3": ("toy-race", 9),
    }
    with db.tx() as tx:
        for tid, (game, n) in tables.items():
            tx.execute(
                "INSERT INTO game_tables (id, game, config, seed, seeded, seats, require_club_pass, created_at,"
                ' status, version, result) VALUES (?, ?, \'{"goal": 30}\', 3, 1, \'["agent", "agent"]\', 0, 1.0,'
                " 'playing', 1, NULL)",
                (tid, game),
            )
            tx.execute(
                "INSERT INTO moves (table_id, version, seat, move, actor, at) VALUES (?, 1, 0, ?, 'agent', 2.0)",
                (tid, json.dumps({"type": "add", "n": n})),  # 9 is not a legal amount
            )
    db.close()
    async with service(path) as svc:
        counts = {tid: svc.store.tables.load_table(tid).event_count for tid in tables}  # type: ignore[union-attr]
        stored = len(svc.store.tables.load_events("t-0000000000b1", everything=True))
        assert stored > 0 and counts == {"t-0000000000b1": stored, "t-0000000000b2": -1, "t-0000000000b3": -1}
        assert svc.store.tables.tables_without_events() == ["t-0000000000b2", "t-0000000000b3"]
        assert backfill_old_tables(svc.store, toy) == 0


async def wait_status(svc: TableService, table_id: str, statuses: set[str]) -> Any:
    for _ in range(500):
        row = svc.store.tables.load_table(table_id)
        assert row is not None
        if row.status in statuses:
            return row
        await asyncio.sleep(0.02)
    raise AssertionError(f"table {table_id} never reached {statuses}")


async def test_a_table_whose_bots_use_their_whole_cpu_budget_is_stopped_with_the_reason(tmp_path: Path) -> None:
    """Issue 11.1: a per-table CPU budget for bots; the server stops the table and says why."""
    none_left = replace(QUIET, bot_cpu_total_s=0.0)
    async with service(tmp_path / "a", settings=none_left) as svc:
        t = await svc.create("toy-race", ["bot:random", "bot:random"], {"goal": 200}, 5)
        row = await wait_status(svc, t.table.table_id, {"aborted", "finished"})
        assert row.status == "aborted" and row.version == 0 and row.result is None
        assert "bots used their whole CPU budget (0 s)" in row.note
    # A real game's bots spend their budget chunk by chunk: stopped part-way, with the moves played kept. Each
    # chunk is charged at least 1 ms, so a 4 ms budget stops the table within 4 chunks of 2 moves, long before
    # a game's end however fast the machine.
    small = replace(QUIET, bot_cpu_total_s=0.004, chunk_moves=2)
    async with service(tmp_path / "b", games=get_game, settings=small) as svc:
        t = await svc.create("market-fortune", ["bot:heuristic"] * 4, {}, 3)
        row = await wait_status(svc, t.table.table_id, {"aborted", "finished"})
        assert row.status == "aborted" and 0 < row.version <= 8 and row.bot_cpu_ms >= 4
        assert "bots used their whole CPU budget (0.004 s)" in row.note
        log = await svc.log(t.table.table_id, None, limit=500)
        assert log.moves is not None and len(log.moves) == min(row.version, 500)
