"""The entry-quiz task: a ``mockllm`` model drives a real club server over stdio (one process and one
database per sample), and the scorer reads the outcome from the server's database.

The mock model plays three agents at once, one per game: on Market Fortune it studies a section and
answers the paper right (an oracle reads the answers from the server's database, as only a test may);
on Se Vende it answers every item wrong; on Yo soy el jefe it starts two papers (the server allows one)
and then claims to have passed without submitting anything.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import inspect_ai
import pytest
from club_agentes.mcp_server.store import Store
from club_agentes.quizzes.bank import default_bank
from club_agentes.quizzes.harness import QUESTION_KEYS, RIDDLE_KEY, presented
from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ChatMessageTool, ModelOutput, get_model
from inspect_ai.tool import ToolInfo

from club_agentes.evals import (
    ENTRY_TOOLS,
    OUTCOME_KEY,
    EvalSettingError,
    entry_games,
    entry_quiz,
    read_outcome,
    server_command,
)
from tests.evals.helpers import text_output, tool_output

KEYS = (*QUESTION_KEYS, RIDDLE_KEY)


def _paper(db_dir: Path, quiz_id: str) -> list[Item]:
    """The oracle: the items of an open paper as it was shown, read from whichever sample database holds it."""
    for path in sorted(db_dir.glob("*.sqlite3")):
        store = Store(path)
        try:
            attempt = store.quizzes.load_attempt(quiz_id)
        finally:
            store.close()
        if attempt is not None:
            orders = attempt.orders or tuple(() for _ in attempt.item_ids)
            return [presented(default_bank().item(i), o) for i, o in zip(attempt.item_ids, orders, strict=True)]
    raise AssertionError(f"no sample database holds the quiz {quiz_id}")


def _wrong(item: Item) -> str:
    if item.type == "integer":
        return str(int(float(item.answer)) + 1)
    if item.type == "choice":
        letters = CHOICE_LETTERS[: len(item.options)]
        return letters[(letters.index(item.answer) + 1) % len(letters)]
    vocabulary = default_bank().vocabulary(item)
    assert vocabulary is not None
    terms = vocabulary.term_names
    return terms[(terms.index(item.answer) + 1) % len(terms)]


class Player:
    """The mock model's policy (see the module docstring); it records the tools it was offered."""

    def __init__(self, db_dir: Path) -> None:
        self.db_dir = db_dir
        self.offered: set[str] = set()

    def __call__(self, messages: list[ChatMessage], tools: list[ToolInfo], *_: Any) -> ModelOutput:
        self.offered |= {t.name for t in tools}
        task = next(m.text for m in messages if m.role == "user")
        match = re.search(r"start_quiz\(game='([a-z-]+)'\)", task)
        assert match, task
        game = match.group(1)
        done = [m for m in messages if isinstance(m, ChatMessageTool)]
        if game == "market-fortune":
            if not done:
                return tool_output("read_rules", {"game": game, "section": "cap-2/regla-8-cartas"})
            if done[-1].function == "read_rules":
                return tool_output("start_quiz", {"game": game})
            if done[-1].function == "start_quiz":
                quiz_id = re.search(r"quiz_id (\S+)", done[-1].text)
                assert quiz_id, done[-1].text
                items = _paper(self.db_dir, quiz_id.group(1))
                answers = {k: it.answer for k, it in zip(KEYS, items, strict=True)}
                return tool_output("submit_quiz", {"quiz_id": quiz_id.group(1), "answers": answers})
            return text_output("I passed the entry quiz.")
        if game == "se-vende":
            if not done:
                return tool_output("start_quiz", {"game": game})
            if done[-1].function == "start_quiz":
                quiz_id = re.search(r"quiz_id (\S+)", done[-1].text)
                assert quiz_id, done[-1].text
                items = _paper(self.db_dir, quiz_id.group(1))
                answers = {k: _wrong(it) for k, it in zip(KEYS, items, strict=True)}
                return tool_output("submit_quiz", {"quiz_id": quiz_id.group(1), "answers": answers})
            return text_output("I did not pass.")
        if len(done) < 2:
            return tool_output("start_quiz", {"game": game})
        return text_output("I passed: passed: true.")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalLog, Player, Path]:
    """One evaluation of the three games (the servers take a few seconds to start, so the tests share it)."""
    root = tmp_path_factory.mktemp("entry")
    db_dir = root / "databases"
    player = Player(db_dir)
    (log,) = inspect_ai.eval(
        entry_quiz(games="all", agent="Evaluada", db_dir=str(db_dir)),
        model=get_model("mockllm/model", custom_outputs=player),
        log_dir=str(root / "logs"),
        display="none",
    )
    return log, player, db_dir


def _sample(log: EvalLog, game: str) -> Any:
    (sample,) = [s for s in log.samples or [] if s.id == game]
    return sample


def test_a_right_paper_passes_and_scores_correct(run: tuple[EvalLog, Player, Path]) -> None:
    log, _, _ = run
    assert log.status == "success", log.error
    sample = _sample(log, "market-fortune")
    score = sample.scores["entry_quiz_passed"]
    assert score.value == "C" and score.answer == "passed"
    outcome = sample.store[OUTCOME_KEY]
    assert outcome["agent"] == "evaluada"  # the name as the club keeps it
    assert outcome["started"] == outcome["submitted"] == outcome["passes"] == 1
    assert outcome["best_right"] == outcome["total"] == 4
    (attempt,) = outcome["attempts"]
    assert [it["key"] for it in attempt["items"]] == list(KEYS)
    assert all(it["correct"] and it["sections"] for it in attempt["items"])
    tools = [m.function for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert tools == ["read_rules", "start_quiz", "submit_quiz"]
    assert all(not m.error for m in sample.messages if isinstance(m, ChatMessageTool))


def test_a_wrong_paper_fails_and_scores_incorrect(run: tuple[EvalLog, Player, Path]) -> None:
    log, _, _ = run
    sample = _sample(log, "se-vende")
    score = sample.scores["entry_quiz_passed"]
    assert score.value == "I" and score.answer == "failed (0/4)"
    outcome = sample.store[OUTCOME_KEY]
    assert outcome["submitted"] == 1 and outcome["passes"] == 0 and not outcome["passed"]


def test_a_claim_without_a_graded_paper_scores_incorrect_and_the_server_limits_attempts(
    run: tuple[EvalLog, Player, Path],
) -> None:
    log, _, _ = run
    sample = _sample(log, "yo-soy-el-jefe")
    score = sample.scores["entry_quiz_passed"]
    assert score.value == "I" and score.answer == "no quiz submitted"
    assert sample.store[OUTCOME_KEY]["started"] == 1
    calls = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert [m.function for m in calls] == ["start_quiz", "start_quiz"]
    assert calls[0].error is None
    assert calls[1].error is not None and "retry" in calls[1].error.message  # refused by the server's limit


def test_each_sample_has_its_own_database_and_only_the_club_tools(run: tuple[EvalLog, Player, Path]) -> None:
    log, player, db_dir = run
    assert player.offered == set(ENTRY_TOOLS)
    databases = {s.id: Path(s.store[OUTCOME_KEY]["database"]) for s in log.samples or []}
    assert len(set(databases.values())) == 3
    assert all(p.parent == db_dir and p.exists() for p in databases.values())
    assert all(s.store[OUTCOME_KEY]["kept"] for s in log.samples or [])
    assert read_outcome(databases["market-fortune"], "Evaluada", "market-fortune")["passed"] is True
    assert read_outcome(databases["market-fortune"], "Evaluada", "se-vende")["started"] == 0
    metrics = {name: m.value for name, m in (log.results.scores[0].metrics.items() if log.results else [])}
    assert metrics["accuracy"] == pytest.approx(1 / 3)


def test_without_db_dir_the_databases_are_removed(tmp_path: Path) -> None:
    def quits(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        return text_output("I will not take the quiz.")

    (log,) = inspect_ai.eval(
        entry_quiz(games="se-vende"),
        model=get_model("mockllm/model", custom_outputs=quits),
        log_dir=str(tmp_path),
        display="none",
    )
    (sample,) = log.samples or []
    outcome = sample.store[OUTCOME_KEY]
    assert outcome["started"] == 0 and outcome["kept"] is False
    assert sample.scores["entry_quiz_passed"].value == "I"
    database = Path(outcome["database"])
    assert database.name.startswith("se-vende-epoch1-") and database.suffix == ".sqlite3"
    assert not database.parent.exists()  # the sample's temporary folder is gone


def test_arguments_are_checked_with_one_sentence() -> None:
    assert entry_games("all") == ["market-fortune", "se-vende", "yo-soy-el-jefe"]
    assert entry_games("se-vende, market-fortune") == ["se-vende", "market-fortune"]
    assert entry_games(["yo-soy-el-jefe"]) == ["yo-soy-el-jefe"]
    with pytest.raises(EvalSettingError, match="games must be 'all' or game ids"):
        entry_games("poker")
    with pytest.raises(EvalSettingError, match="attempts must be a whole number of 1 or more"):
        entry_quiz(attempts=0)
    with pytest.raises(EvalSettingError, match="agent: "):
        entry_quiz(agent="")
    with pytest.raises(EvalSettingError, match="message_limit must be 2 or more"):
        entry_quiz(message_limit=1)


def test_the_server_command_serves_the_database_as_the_agent(tmp_path: Path) -> None:
    command = server_command(tmp_path / "club.sqlite3", "inspect", 3)
    assert command[1:4] == ["-m", "club_agentes", "serve"]
    assert command[command.index("--db") + 1] == str(tmp_path / "club.sqlite3")
    assert command[command.index("--agent") + 1] == "inspect"
    assert command[command.index("--limits") + 1] == "entry_quizzes_per_hour=3"
