"""Table notifications carry the revision a write created, so a worker that holds it already does not wake.

On PostgreSQL every worker hears every write's ``NOTIFY``, its own included: the payload ``"<table id>
<revision>"`` lets :meth:`TableService._on_notify` leave the waiters of a table that is already at that revision
asleep (the write that brought it there woke them), and wake them for any newer one or a payload without one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import TableService, TableSettings
from club_agentes.mcp_server.tables.notify import table_payload
from club_agentes.rules_corpus import load_corpus

pytestmark = pytest.mark.anyio

SETTINGS = TableSettings(bot_workers=0, decision_timeout_s=None, reply_wait_s=2.0, sweep_s=3600)


class Anyone:
    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return None


def test_a_payload_reads_as_table_id_and_revision() -> None:
    assert table_payload("t-00000000abcd 17") == ("t-00000000abcd", 17)
    assert table_payload("t-00000000abcd") == ("t-00000000abcd", None)
    assert table_payload("t-00000000abcd x") == ("t-00000000abcd", None)


async def test_a_notification_wakes_only_a_table_behind_it(tmp_path: Path) -> None:
    svc = TableService(Store(tmp_path / "club.sqlite3"), load_corpus(), Anyone(), settings=SETTINGS)
    try:
        created = await svc.create("market-fortune", ["agent", "agent"], {"require_club_pass": False}, 1, creator="h")
        tid = created.table.table_id
        live = await svc._fresh(tid)
        for payload, wakes in (
            (f"{tid} {live.revision}", False),  # this worker's own write, heard back
            (f"{tid} {live.revision - 1}", False),
            (f"{tid} {live.revision + 1}", True),  # another worker's write
            (tid, True),  # a payload that does not say
        ):
            changed = live.changed
            svc._on_notify(payload)
            assert changed.is_set() is wakes, payload
    finally:
        await svc.aclose()
        svc.store.close()
