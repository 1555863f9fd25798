"""``bot:mcts`` seats at MCP tables: list_games describes each bot kind, an mcts seat plays (in a worker
process, off the event loop) against an agent, the table option ``mcts_budget_ms`` is checked, and a lane
gives the table's budget to the bots it builds."""

from __future__ import annotations

import random

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.tables.config import MCTS_BUDGET_RANGE, TableOptions
from club_agentes.mcp_server.tables.lanes import LaneTask, LaneWorker, Sync

from tests.mcp.helpers import Checked

pytestmark = pytest.mark.anyio

GAMES = ("market-fortune", "se-vende", "yo-soy-el-jefe")


async def test_list_games_gives_every_bot_kind_a_strength_line(club: Checked) -> None:
    games = {g["id"]: g for g in (await club.call("list_games", {}))["games"]}
    for gid in GAMES:
        bots = games[gid]["bots"]
        assert [b["seat_kind"] for b in bots] == ["bot:random", "bot:heuristic", "bot:mcts"]
        assert all(b["strength"] for b in bots)
        assert bots[2]["strength"] == get_game(gid).make_bot("mcts").strength
    r = await club.client.call_tool("list_games", {})
    text = " ".join(getattr(c, "text", "") for c in r.content)
    assert "bot:mcts: information-set MCTS" in text


@pytest.mark.slow
@pytest.mark.parametrize("game", ["yo-soy-el-jefe", "market-fortune"])
async def test_an_mcts_seat_plays_against_an_agent(club: Checked, game: str) -> None:
    """Its decisions take the game's default budget (half a second of CPU each) in a low-priority worker."""
    t = await club.call(
        "create_table",
        {"game": game, "seats": ["agent", "bot:mcts"], "options": {"require_club_pass": False}, "seed": 3},
    )
    tid = t["table_id"]
    tok = (await club.call("join_table", {"table_id": tid}))["seat_token"]
    rng = random.Random(3)
    mine = bot_moves = 0  # the moves played by the agent, and by the bot
    for _ in range(200):
        w = await club.call("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 30})
        bot_moves = w["version"] - mine
        if w["status"] == "finished" or bot_moves >= 4:
            break
        assert w["ready"], "the mcts seat did not answer within 30 s"
        pick = rng.choice(w["legal_moves"])
        out = await club.call(
            "play_move", {"table_id": tid, "seat_token": tok, "move": pick["id"], "expected_version": w["seat_version"]}
        )
        if out["accepted"]:
            mine += 1
        else:  # the bot acted meanwhile (in a negotiation both seats may act): look again
            assert out["refusal"]["kind"] == "stale_version", out["refusal"]
    assert bot_moves >= 4
    log = await club.call("game_log", {"table_id": tid, "seat_token": tok})
    assert log["seats"][1]["kind"] == "bot:mcts"


async def test_the_mcts_budget_option_is_checked(club: Checked) -> None:
    lo, hi = MCTS_BUDGET_RANGE
    for bad in (lo - 1, hi + 1, 2.5, "fast", True):
        text = await club.error(
            "create_table",
            {"game": "se-vende", "seats": ["agent", "bot:mcts"], "options": {"mcts_budget_ms": bad}},
        )
        assert "mcts_budget_ms" in text and str(lo) in text and str(hi) in text
    t = await club.call(
        "create_table",
        {"game": "se-vende", "seats": ["agent", "bot:mcts"], "options": {"mcts_budget_ms": 50}},
    )
    assert t["table_id"]
    assert TableOptions.from_json(TableOptions(mcts_budget_ms=50).to_json()).bot_options() == {
        "mcts": {"budget_ms": 50.0}
    }
    assert TableOptions().bot_options() == {} and "mcts_budget_ms" not in TableOptions().to_json()


def test_a_lane_builds_mcts_bots_with_the_tables_budget() -> None:
    game = get_game("market-fortune")
    worker = LaneWorker()
    task = LaneTask(
        table_id="t-lane",
        game_id=game.id,
        options={},
        seats=2,
        seed=5,
        base_version=0,
        bots={0: "mcts", 1: "heuristic"},
        sync=Sync(0, full=True),
        bot_options={"mcts": {"budget_ms": 20.0}},
        max_moves=6,
        max_cpu_s=60.0,
    )
    out = worker.run(task)
    assert out.error is None and len(out.moves) == 6
    bot = worker.cache["t-lane"].bots["0:mcts"]
    assert bot.options.budget_ms == 20.0 and bot.options.iterations is None
    state = game.new_game(game.make_config(2, {}), 5)
    for m in out.moves:  # every move the lane played is legal when replayed
        game.apply(state, m.seat, game.parse_move(m.move))
