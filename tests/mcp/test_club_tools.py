"""The club ritual over MCP (in process, as the local agent): practice, fail with feedback, retry, pass,
and a pass that admits only its agent; compact texts that never hold an answer; passes and used quizzes
survive a restart; the signing key moves out of an old database into its private file."""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
from pathlib import Path

import pytest
from club_agentes.mcp_server.app import build_app
from club_agentes.mcp_server.club import ClubPassVerifier
from club_agentes.mcp_server.settings import ServerSettings, load_settings
from club_agentes.mcp_server.store import Store
from club_agentes.quizzes.clubpass import ClubPasses, SecretTooShort, load_key_file
from club_agentes.quizzes.grading import display_answer
from mcp import Client

from tests.conftest import DbLocation
from tests.mcp.helpers import CLI, Checked

pytestmark = pytest.mark.anyio

GAMES = ["market-fortune", "se-vende", "yo-soy-el-jefe"]


def answers(app, quiz_id: str, *, right: bool = True) -> dict[str, str]:
    """What a perfect (or a perfectly wrong) agent would answer, read from the server's own store."""
    attempt = app.store.quizzes.load_attempt(quiz_id)
    keys = ["p1"] if attempt.practice else ["q1", "q2", "q3", "r1"]
    out = {}
    for n, (key, item) in enumerate(zip(keys, app.quizzes.presented_items(attempt), strict=True)):
        if right:
            out[key] = display_answer(item) if n % 2 else item.answer
        elif item.type == "integer":
            out[key] = str(int(item.answer) + 1)
        elif item.type == "choice":
            out[key] = next(x for x in "ABCD" if x != item.answer)
        else:
            out[key] = "ninguna"
    return out


def assert_no_answer_in(paper: dict, text: str, app) -> None:
    attempt = app.store.quizzes.load_attempt(paper["quiz_id"])
    blob = json.dumps(paper, ensure_ascii=False) + text
    for item_id in attempt.item_ids:
        assert item_id not in blob, "an internal item id (with its seed) leaked"
    for item in app.quizzes.presented_items(attempt):
        if item.explanation:
            assert item.explanation not in blob
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


@pytest.mark.parametrize("game", GAMES)
async def test_fail_retry_pass_and_hold_a_pass_for_yourself(tmp_path: Path, game: str) -> None:
    app = build_app(Store(tmp_path / "db"))
    async with Client(app.server) as client:
        c = await Checked(client).load()
        paper = await c.call("start_quiz", {"game": game})
        text = c.responses[-1]
        assert [i["key"] for i in paper["items"]] == ["q1", "q2", "q3", "r1"] and paper["agent"] == "local"
        assert paper["items"][3]["kind"] == "riddle" and not paper["practice"]
        for it in paper["items"]:
            assert f"{it['key']} ({it['kind']}" in text and it["prompt"] in text
            for option in it["options"]:
                assert option in text
        assert_no_answer_in(paper, text, app)
        failed = await c.call(
            "submit_quiz", {"quiz_id": paper["quiz_id"], "answers": answers(app, paper["quiz_id"], right=False)}
        )
        assert failed["passed"] is False and failed["correct"] is False and failed["club_pass"] is None
        for item in failed["items"]:
            assert not item["correct"] and item["sections"] and item["answer"] is None
        assert "re-read:" in c.responses[-1]
        assert "already graded" in await c.error("submit_quiz", {"quiz_id": paper["quiz_id"], "answers": {}})
        retry = await c.call("start_quiz", {"game": game, "agent": "Local"})
        assert retry["quiz_id"] != paper["quiz_id"]
        passed = await c.call("submit_quiz", {"quiz_id": retry["quiz_id"], "answers": answers(app, retry["quiz_id"])})
        assert passed["passed"] and passed["correct"] and passed["right"] == 4 and game in passed["pass_games"]
        token = passed["club_pass"]
        assert token in c.responses[-1]
        check = await c.call("verify_club_pass", {"token": token, "game": game})
        assert check["valid"] and check["agent"] == "local" and check["pass_id"]
        verifier = ClubPassVerifier(app.quizzes)
        assert verifier.admit(token, "local", game) is None
        assert "issued to 'local'" in (verifier.admit(token, "bea", game) or "")
        assert "refused" in (verifier.admit(token[:-4] + "AAAA", "local", game) or "")
        assert "requires a club pass" in (verifier.admit(None, "local", game) or "")
    app.store.close()


async def test_practice_says_correct_and_never_passed(club: Checked) -> None:
    p = await club.call("practice_question", {"game": "market-fortune", "section": "cap-2/regla-8-cartas"})
    assert p["practice"] and [i["key"] for i in p["items"]] == ["p1"] and p["agent"] == "local"
    r = await club.call("submit_quiz", {"quiz_id": p["quiz_id"], "answers": {"p1": "no sé"}})
    assert "passed" not in r and r["correct"] is False and r["club_pass"] is None
    item = r["items"][0]
    assert item["answer"] and item["citation"] and "market-fortune/cap-2/regla-8-cartas" in item["sections"]
    assert f"answer: {item['answer']}" in club.responses[-1]


async def test_quiz_errors_are_one_sentence(club: Checked) -> None:
    assert "market-fortune" in await club.error("start_quiz", {"game": "go"})
    assert "cannot act as" in await club.error("start_quiz", {"game": "se-vende", "agent": "someone"})
    assert "no letter or digit" in await club.error("start_quiz", {"game": "se-vende", "agent": "  ...  "})
    assert "unknown argument 'agnet'" in await club.error("start_quiz", {"game": "se-vende", "agnet": "x"})
    assert "no quiz has this id" in await club.error("submit_quiz", {"quiz_id": "nope", "answers": {"q1": "1"}})
    p = await club.call("start_quiz", {"game": "se-vende"})
    text = await club.error("submit_quiz", {"quiz_id": p["quiz_id"], "answers": {"q1": "1"}})
    assert "r1" in text or "q2" in text
    bad = await club.call("verify_club_pass", {"token": "not.a.jwt"})
    assert not bad["valid"] and bad["reason"] and club.responses[-1].endswith(f"Refused: {bad['reason']}.")


async def test_attempts_are_limited_per_hour_and_game(club: Checked) -> None:
    for _ in range(5):
        await club.call("start_quiz", {"game": "market-fortune"})
    text = await club.error("start_quiz", {"game": "market-fortune"})
    assert "local has 5 entry quizzes of market-fortune in the last hour (the limit is 5); retry after" in text
    # A new game does not use another game's attempts.
    for _ in range(5):
        await club.call("start_quiz", {"game": "se-vende"})
    assert "of se-vende in the last hour" in await club.error("start_quiz", {"game": "se-vende"})


async def test_passes_and_used_quizzes_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "db"
    app = build_app(Store(db))
    async with Client(app.server) as client:
        c = await Checked(client).load()
        paper = await c.call("start_quiz", {"game": "market-fortune"})
        result = await c.call("submit_quiz", {"quiz_id": paper["quiz_id"], "answers": answers(app, paper["quiz_id"])})
        token = result["club_pass"]
    app.store.close()
    key_file = tmp_path / "keys" / "club-pass.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and stat.S_IMODE(key_file.parent.stat().st_mode) == 0o700
    again = build_app(Store(db))
    async with Client(again.server) as client:
        c = await Checked(client).load()
        assert (await c.call("verify_club_pass", {"token": token, "game": "market-fortune"}))["valid"]
        assert "already graded" in await c.error("submit_quiz", {"quiz_id": paper["quiz_id"], "answers": {}})
    again.store.close()


def test_an_old_databases_key_moves_into_the_key_file(db_location: DbLocation, tmp_path: Path) -> None:
    old_key = bytes(range(32))
    store = db_location.open()
    with store.db.tx() as tx:  # what an older version wrote
        tx.execute("INSERT INTO meta (key, value) VALUES ('club_pass_key', ?)", (old_key.hex(),))
    token, _ = ClubPasses(store.quizzes, secret=old_key).issue("veterana", ["se-vende"])
    key_file = tmp_path / "keys" / "club-pass.key"
    app = build_app(store, settings=load_settings({}, env={}, key_file=str(key_file)))
    assert load_key_file(key_file) == old_key
    assert store.db.one("SELECT value FROM meta WHERE key = 'club_pass_key'") is None, "the key left the database"
    assert app.quizzes.verify_club_pass(token, "se-vende").valid
    store.close()


def test_a_configured_secret_wins_and_a_short_one_stops_the_server(tmp_path: Path) -> None:
    store = Store(tmp_path / "db")
    app = build_app(store, settings=load_settings({}, env={"CLUB_AGENTES_SECRET": "s" * 40}))
    assert app.quizzes.passes._key == b"s" * 40 and not (tmp_path / "keys").exists()
    with pytest.raises(SecretTooShort, match="CLUB_AGENTES_SECRET holds 5 bytes"):
        load_settings({}, env={"CLUB_AGENTES_SECRET": "short"})
    with pytest.raises(SecretTooShort, match="holds 5 bytes"):
        build_app(store, settings=ServerSettings(secret="short"))
    store.close()


@pytest.mark.parametrize(("value", "words"), [("", "is set but empty"), ("tiny", "holds 4 bytes")])
def test_the_cli_refuses_an_empty_or_short_secret_in_one_sentence(tmp_path: Path, value: str, words: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CLUB_SECRET", "CLUB_AGENTES_SECRET")}
    out = subprocess.run(
        [str(CLI), "serve", "--db", str(tmp_path / "db")],
        env={**env, "CLUB_AGENTES_SECRET": value},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert out.returncode == 2 and words in out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    legacy = subprocess.run(
        [str(CLI), "serve", "--db", str(tmp_path / "db")],
        env={**env, "CLUB_SECRET": value},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert legacy.returncode == 2 and "CLUB_SECRET is deprecated" in legacy.stderr
    assert f"CLUB_SECRET {words}" in legacy.stderr


async def test_a_refused_call_is_logged_once(club: Checked, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 14.8: one log line per tool error (the SDK's, naming the tool and the sentence sent)."""
    with caplog.at_level(logging.INFO):
        await club.error("start_quiz", {"game": "se-vende", "agnet": "x"})
        await club.error("read_rules", {"game": "se-vende", "section": "no-such-section"})
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert len(lines) == 2, lines
    assert "start_quiz" in lines[0] and "agnet" in lines[0] and "read_rules" in lines[1]


async def test_every_tool_refuses_an_unknown_argument_and_changes_nothing(club: Checked) -> None:
    """Issue 11.4: strict arguments on every tool of tools/list, with the closest accepted name when one is close."""
    tools = (await club.client.list_tools()).tools
    assert len(tools) >= 15
    before = await club.call("list_tables", {})
    for tool in tools:
        text = await club.error(tool.name, {"bogus_argument": 1})
        assert "unknown argument 'bogus_argument'" in text, (tool.name, text)
        accepted = list((tool.input_schema or {}).get("properties", {}))
        if accepted:
            misspelt = accepted[0][:-1] + ("x" if accepted[0][-1] != "x" else "y")
            text = await club.error(tool.name, {misspelt: 1})
            assert f"unknown argument '{misspelt}'" in text and accepted[0] in text, (tool.name, text)
    assert await club.call("list_tables", {}) == before
