"""A seat's answer read once: the played move's facts are the ones its listing gave, and a write without bot time
leaves the table's row as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import TableService, reading
from club_agentes.mcp_server.tables.facts import MoveFacts
from club_agentes.rules_corpus import load_corpus

from tests.mcp.test_tables_service import QUIET, Clock, Passes

pytestmark = pytest.mark.anyio


async def test_played_facts_are_the_listed_ones_and_the_row_stays(tmp_path: Path) -> None:
    svc = TableService(Store(tmp_path / "t.db"), load_corpus(), Passes(), settings=QUIET, clock=Clock())
    try:
        t = await svc.create("market-fortune", ["agent", "agent"], {"require_club_pass": False}, 3, creator="h")
        tid = t.table.table_id
        tokens = [(await svc.join(tid, f"a{i}", None, i)).token for i in range(2)]
        states = [await svc.view(tid, tok) for tok in tokens]
        seat = next(i for i, s in enumerate(states) if s.decision.yours)
        listed = states[seat].moves
        live = await svc._fresh(tid)
        cache = live.cache(seat)
        for i, m in enumerate(cache.moves):
            played = reading.played_facts(svc, live, seat, m)
            assert played is listed[i]  # the listing's own facts, not built again
            notes = live.notes(seat)
            assert played == MoveFacts(f"m{i + 1}", m.text(), m.to_json(), notes[i].says, notes[i].note)
        cache.facts = None  # not listed: built as before
        assert reading.played_facts(svc, live, seat, cache.moves[0]) == listed[0]
        row = live.row
        await svc.play(tid, tokens[seat], listed[0].id)
        assert live.row is row and live.row.bot_cpu_ms == 0
    finally:
        await svc.aclose()
        svc.store.close()
