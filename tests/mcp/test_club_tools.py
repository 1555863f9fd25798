"""The club ritual over MCP: practice, fail with feedback, retry, pass, present the pass at a table;
passes and used quizzes survive a restart; no response carries an answer before grading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from club_agentes.mcp_server.app import build_app
from club_agentes.mcp_server.store import Store
from club_agentes.quizzes.grading import display_answer
from mcp import Client

from tests.mcp.helpers import Checked

pytestmark = pytest.mark.anyio


def right_answers(app, quiz_id: str) -> dict[str, str]:
    """What a perfect agent would answer (read from the server's own store, test-only)."""
    attempt = app.store.load_attempt(quiz_id)
    keys = ["p1"] if attempt.practice else ["q1", "q2", "q3", "r1"]
    out = {}
    for key, item_id in zip(keys, attempt.item_ids, strict=True):
        item = app.quizzes.bank.item(item_id)
        # Some answers in their display form ("25M", "B) <option text>"), some canonical ("25", "B").
        out[key] = display_answer(item) if key in ("q2", "r1") else item.answer
    return out


def wrong_answers(app, quiz_id: str) -> dict[str, str]:
    attempt = app.store.load_attempt(quiz_id)
    out = {}
    for key, item_id in zip(["q1", "q2", "q3", "r1"], attempt.item_ids, strict=True):
        item = app.quizzes.bank.item(item_id)
        if item.type == "integer":
            out[key] = str(int(item.answer) + 1)
        elif item.type == "choice":
            out[key] = next(x for x in "ABCD" if x != item.answer)
        else:
            out[key] = "ninguna"
    return out


def assert_no_answer_in(paper: dict, app) -> None:
    attempt = app.store.load_attempt(paper["quiz_id"])
    text = json.dumps(paper, ensure_ascii=False)
    for item_id in attempt.item_ids:
        assert item_id not in text, "an internal item id (with its seed) leaked"
    for it in paper["items"]:
        assert set(it) == {
            "key",
            "kind",
            "type",
            "prompt",
            "options",
            "terms",
            "unit",
            "answer_format",
            "answer_schema",
        }


@pytest.mark.parametrize("game", ["market-fortune", "se-vende", "yo-soy-el-jefe"])
async def test_fail_retry_pass_and_sit_down(tmp_path: Path, game: str) -> None:
    app = build_app(Store(tmp_path / "db"))
    async with Client(app.server) as client:
        c = await Checked(client).load()
        paper = await c.call("start_quiz", {"game": game, "agent": "ana"})
        assert [i["key"] for i in paper["items"]] == ["q1", "q2", "q3", "r1"]
        assert paper["items"][3]["kind"] == "riddle" and not paper["practice"]
        assert_no_answer_in(paper, app)
        failed = await c.call(
            "submit_quiz", {"quiz_id": paper["quiz_id"], "answers": wrong_answers(app, paper["quiz_id"])}
        )
        assert not failed["passed"] and failed["club_pass"] is None
        for item in failed["items"]:
            assert not item["correct"] and item["sections"] and item["answer"] is None
        assert "already graded" in await c.error("submit_quiz", {"quiz_id": paper["quiz_id"], "answers": {}})
        retry = await c.call("start_quiz", {"game": game, "agent": "ana"})
        assert retry["quiz_id"] != paper["quiz_id"]
        passed = await c.call(
            "submit_quiz", {"quiz_id": retry["quiz_id"], "answers": right_answers(app, retry["quiz_id"])}
        )
        assert passed["passed"] and game in passed["pass_games"]
        token = passed["club_pass"]
        check = await c.call("verify_club_pass", {"token": token, "game": game})
        assert check["valid"] and check["agent"] == "ana"
        # The pass admits ana, and only ana, to a table of that game.
        t = await c.call("create_table", {"game": game, "seats": ["agent"] * 3})
        assert t["require_club_pass"]
        assert "club pass" in await c.error("join_table", {"table_id": t["table_id"], "agent": "ana"})
        assert "issued to 'ana'" in await c.error(
            "join_table", {"table_id": t["table_id"], "agent": "bea", "club_pass": token}
        )
        assert "refused" in await c.error(
            "join_table", {"table_id": t["table_id"], "agent": "ana", "club_pass": token[:-4] + "AAAA"}
        )
        seat = await c.call("join_table", {"table_id": t["table_id"], "agent": "ana", "club_pass": token})
        assert seat["seat"] == 0
    app.store.close()


async def test_practice_shows_the_answer_and_never_passes(club: Checked) -> None:
    p = await club.call("practice_question", {"game": "market-fortune", "section": "cap-2/regla-8-cartas"})
    assert p["practice"] and [i["key"] for i in p["items"]] == ["p1"]
    r = await club.call("submit_quiz", {"quiz_id": p["quiz_id"], "answers": {"p1": "no sé"}})
    assert not r["passed"] and r["club_pass"] is None
    item = r["items"][0]
    assert item["answer"] and item["citation"] and "market-fortune/cap-2/regla-8-cartas" in item["sections"]


async def test_quiz_errors_are_one_sentence(club: Checked) -> None:
    assert "market-fortune" in await club.error("start_quiz", {"game": "go", "agent": "ana"})
    assert "agent" in await club.error("start_quiz", {"game": "se-vende", "agent": "  "})
    assert "no quiz has this id" in await club.error("submit_quiz", {"quiz_id": "nope", "answers": {"q1": "1"}})
    p = await club.call("start_quiz", {"game": "se-vende", "agent": "cy"})
    text = await club.error("submit_quiz", {"quiz_id": p["quiz_id"], "answers": {"q1": "1"}})
    assert "r1" in text or "q2" in text
    bad = await club.call("verify_club_pass", {"token": "not.a.jwt"})
    assert not bad["valid"] and bad["reason"]


async def test_attempts_are_limited_per_hour(club: Checked) -> None:
    for _ in range(5):
        await club.call("start_quiz", {"game": "market-fortune", "agent": "eve"})
    text = await club.error("start_quiz", {"game": "market-fortune", "agent": "eve"})
    assert "retry after" in text


async def test_passes_and_used_quizzes_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "db"
    app = build_app(Store(db))
    async with Client(app.server) as client:
        c = await Checked(client).load()
        paper = await c.call("start_quiz", {"game": "yo-soy-el-jefe", "agent": "ana"})
        result = await c.call(
            "submit_quiz", {"quiz_id": paper["quiz_id"], "answers": right_answers(app, paper["quiz_id"])}
        )
        token = result["club_pass"]
    app.store.close()
    again = build_app(Store(db))
    async with Client(again.server) as client:
        c = await Checked(client).load()
        assert (await c.call("verify_club_pass", {"token": token, "game": "yo-soy-el-jefe"}))["valid"]
        assert "already graded" in await c.error("submit_quiz", {"quiz_id": paper["quiz_id"], "answers": {}})
    again.store.close()
