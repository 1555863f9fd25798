"""The one write path of live tables (``turn.commit`` -> ``LiveTable.apply``), on the three real games.

* Every version a live table reaches is reached inside :meth:`LiveTable.apply`, and a second service on the
  same store (another worker) that catches up through the same method holds the same table: state, version,
  revision, seat versions, events.
* The per-seat versions the writes give equal those of the fingerprint method (each seat's view, decision
  prompt and legal moves compared before and after every move, recomputed here independently from the stored
  moves) when every seat reads after every write.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import TableService, TableSettings
from club_agentes.mcp_server.tables.live import LiveTable, seat_fingerprint
from club_agentes.rules_corpus import load_corpus

pytestmark = pytest.mark.anyio

CORPUS = load_corpus()
SETTINGS = TableSettings(bot_workers=0, decision_timeout_s=None, reply_wait_s=2.0, sweep_s=3600)
CASES = [
    ("market-fortune", 2, 1),
    ("market-fortune", 3, 2),
    ("se-vende", 2, 3),
    ("se-vende", 3, 4),
    ("yo-soy-el-jefe", 3, 5),
    ("yo-soy-el-jefe", 4, 6),
]
MOVES = 80


class Anyone:
    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return None


def same_table(a: LiveTable, b: LiveTable) -> None:
    """Assert that two live tables of one table hold the same game and facts."""
    assert (a.version, a.revision, a.status, a.result) == (b.version, b.revision, b.status, b.result)
    assert a.seat_versions == b.seat_versions
    assert a.last_moved == b.last_moved
    assert a.event_count == b.event_count
    assert [(e.idx, e.version, e.audience, e.text) for e in a.tail] == [
        (e.idx, e.version, e.audience, e.text) for e in b.tail
    ]
    game = a.game
    for seat in range(len(a.row.seats)):
        assert game.view(a.state, seat) == game.view(b.state, seat)
    assert game.pending(a.state) == game.pending(b.state)


@pytest.mark.parametrize(("game_id", "seats", "seed"), CASES)
async def test_versions_from_the_write_equal_the_fingerprint_method_and_catch_up_equals_the_live_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_id: str, seats: int, seed: int
) -> None:
    reached: list[tuple[int, int]] = []
    apply = LiveTable.apply

    def counted_apply(self: LiveTable, *args: Any, **kwargs: Any) -> None:
        before = self.version
        apply(self, *args, **kwargs)
        reached.append((before, self.version))

    monkeypatch.setattr(LiveTable, "apply", counted_apply)
    path = tmp_path / "club.sqlite3"
    svc = TableService(Store(path), CORPUS, Anyone(), settings=SETTINGS)
    other = TableService(Store(path), CORPUS, Anyone(), settings=SETTINGS)  # a second worker on the same store
    try:
        created = await svc.create(game_id, ["agent"] * seats, {"require_club_pass": False}, seed, creator="host")
        tid = created.table.table_id
        tokens = [(await svc.join(tid, f"agent{s}", None, None)).token for s in range(seats)]
        await other.view(tid, tokens[0])  # the other worker holds the table from the start
        rng = random.Random(seed)
        seen: list[dict[int, int]] = []  # after each move: seat -> the seat_version its answer gave
        for step in range(MOVES):
            states = [await svc.view(tid, tok) for tok in tokens]
            if states[0].table.status != "playing":
                break
            deciding = [s for s, st in enumerate(states) if st.decision.yours and st.moves]
            assert deciding, "a playing table with agents only has a seat to decide"
            seat = rng.choice(deciding)
            pick = rng.choice(states[seat].moves)
            played = await svc.play(tid, tokens[seat], pick.id, expected_version=states[seat].seat_version)
            assert played.accepted, played.refusal
            seen.append({s: (await svc.view(tid, tok)).seat_version for s, tok in enumerate(tokens)})
            if step % 7 == 0:  # the other worker catches up now and then (several moves at once)
                await other.view(tid, tokens[1])
                first, second = svc.live(tid), other.live(tid)
                assert first is not None and second is not None
                same_table(first, second)
        await other.view(tid, tokens[1])
        first, second = svc.live(tid), other.live(tid)
        assert first is not None and second is not None
        same_table(first, second)
        final = first.version
        assert final == len(seen) > 10

        # Every version the live table reached, it reached inside LiveTable.apply, one move at a time.
        assert {(v - 1, v) for v in range(1, final + 1)} <= set(reached)

        # The fingerprint method, recomputed from the stored moves.
        game = get_game(game_id)
        state, _setup = game.start(game.make_config(seats, created.table.options), first.row.seed)
        pending = game.pending(state)
        before = {s: seat_fingerprint(game, state, s, pending) for s in range(seats)}
        expected = {s: 0 for s in range(seats)}
        for m in svc.store.tables.load_moves(tid):
            game.apply(state, m.seat, game.parse_move(m.move))
            pending = game.pending(state)
            for s in range(seats):
                now = seat_fingerprint(game, state, s, pending)
                if s == m.seat or not now.same_as(before[s]):
                    expected[s] = m.version
                before[s] = now
            assert seen[m.version - 1] == expected, f"seat versions after move {m.version}"
    finally:
        await svc.aclose()
        await other.aclose()
        svc.store.close()
        other.store.close()
