"""Seat versions from what a write knows (``Game.touched``): no view is computed by a write, only by a reader.

At Market Fortune (whose ``touched`` answers every seat) a move by one seat computes no view at all, even when
the other seat has read since its version last moved; the other seat's version still moves with the move, and
its view is computed once, when it reads. At Se Vende (``touched`` answers ``None``) the table compares views,
so another seat's sealed choice leaves a seat's version where it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import TableService, TableSettings
from club_agentes.rules_corpus import load_corpus

pytestmark = pytest.mark.anyio

CORPUS = load_corpus()
SETTINGS = TableSettings(bot_workers=0, decision_timeout_s=None, reply_wait_s=2.0, sweep_s=3600)


class Anyone:
    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return None


async def test_a_write_at_a_game_that_says_touched_computes_no_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get_game("market-fortune")
    views: list[int | None] = []
    view = type(game).view

    def counted(self: Any, state: Any, seat: int | None) -> Any:
        views.append(seat)
        return view(self, state, seat)

    monkeypatch.setattr(type(game), "view", counted)
    svc = TableService(Store(tmp_path / "club.sqlite3"), CORPUS, Anyone(), settings=SETTINGS)
    try:
        created = await svc.create("market-fortune", ["agent", "agent"], {"require_club_pass": False}, 5, creator="h")
        tid = created.table.table_id
        tokens = [(await svc.join(tid, f"agent{s}", None, None)).token for s in range(2)]
        for _ in range(12):
            states = [await svc.view(tid, tok) for tok in tokens]  # both seats read: neither is "unseen"
            seat = next(s for s, st in enumerate(states) if st.decision.yours and st.moves)
            other = 1 - seat
            views.clear()
            played = await svc.play(tid, tokens[seat], "m1", expected_version=states[seat].seat_version)
            assert played.accepted, played.refusal
            assert views == [seat], "the write computed a view; only the mover's answer may"
            views.clear()
            after = await svc.view(tid, tokens[other])
            assert after.seat_version == played.played_version, "the other seat's version stayed over a move"
            assert views == [other]
            views.clear()
            await svc.view(tid, tokens[other])
            assert views == [], "a view computed twice at one (version, seat)"
    finally:
        await svc.aclose()
        svc.store.close()


async def test_at_a_game_that_does_not_say_a_sealed_choice_keeps_the_other_seat_version(tmp_path: Path) -> None:
    svc = TableService(Store(tmp_path / "club.sqlite3"), CORPUS, Anyone(), settings=SETTINGS)
    try:
        created = await svc.create("se-vende", ["agent", "agent"], {"require_club_pass": False}, 3, creator="h")
        tid = created.table.table_id
        tokens = [(await svc.join(tid, f"agent{s}", None, None)).token for s in range(2)]
        for _ in range(40):
            states = [await svc.view(tid, tok) for tok in tokens]
            if states[0].decision.kind == "simultaneous" and all(st.decision.yours for st in states):
                break
            seat = next(s for s, st in enumerate(states) if st.decision.yours and st.moves)
            await svc.play(tid, tokens[seat], "m1", expected_version=states[seat].seat_version)
        else:
            pytest.fail("no sealed choice of both seats in 40 moves")
        played = await svc.play(tid, tokens[0], "m1", expected_version=states[0].seat_version)
        assert played.accepted, played.refusal
        after = await svc.view(tid, tokens[1])
        assert after.seat_version == states[1].seat_version
    finally:
        await svc.aclose()
        svc.store.close()
