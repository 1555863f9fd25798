"""Evaluator tools: JSONL export of the practice pool, offline grading of an answers file (text and --json),
the ``club-agentes quiz`` commands' exit statuses, and statistics of recorded attempts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from club_agentes.engine.core.rng import Rng
from club_agentes.mcp_server.cli import main
from club_agentes.quizzes.evaluate import (
    RECORD_FORMAT,
    attempt_stats,
    export_bank,
    export_records,
    grade_json_lines,
    grade_jsonl,
    grade_records,
    practice_item,
    rule_area,
    stats_report,
)
from club_agentes.quizzes.harness import QuizService
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Generator, Item
from club_agentes.quizzes.store import MemoryQuizStore
from club_agentes.rules_corpus import load_corpus

from tests.quizzes.conftest import FakeClock, market_fortune_bank

GAME = "market-fortune"
PRACTICE = "prueba-de-practica"
SECTION = "market-fortune/cap-2/regla-8-cartas"
ANSWER_FIELDS = {"answer", "answer_display", "explanation", "computed"}


def _practice_item(rng: Rng) -> Item:
    """A practice item whose answer depends on the seed (for the export's sampling)."""
    k = rng.below(4)
    return Item(
        f"{GAME}/gen",
        GAME,
        "question",
        "integer",
        f"Tienes {k} inversiones. ¿Cuántas cartas de construcción tienes en la mano?",
        str(8 - 2 * k),
        (SECTION,),
        explanation="Entre mano e inversiones siempre hay 8 cartas.",
    )


@pytest.fixture
def practice_generator() -> Iterator[Generator]:
    """A generator registered with entry=False for the test's duration."""
    key = f"{GAME}/{PRACTICE}"
    GENERATORS[key] = Generator(PRACTICE, GAME, "question", (SECTION,), _practice_item, entry=False)
    try:
        yield GENERATORS[key]
    finally:
        del GENERATORS[key]


def entry_generators() -> list[Generator]:
    return [g for g in market_fortune_bank().game(GAME).generators() if g.entry]


# --------------------------------------------------------------------------- export


def test_export_without_answers() -> None:
    bank = market_fortune_bank()
    lines = list(export_bank(GAME, bank=bank))
    gb = bank.game(GAME)
    assert len(lines) == len(gb.items)
    corpus = load_corpus()
    for line, item in zip(lines, gb.items, strict=True):
        record = json.loads(line)
        assert record["format"] == RECORD_FORMAT
        assert record["id"] == item.id and record["prompt"] == item.prompt
        assert not ANSWER_FIELDS & set(record)
        assert record["sections"] == list(item.sections)
        assert record["type"] in ("integer", "choice", "term")
        area = corpus.sections[record["rule_area"]]
        assert area.parent is None and area.title == record["rule_area_title"]
        assert record["sections"][0].startswith(record["rule_area"]) or record["rule_area"] in _ancestors(
            record["sections"][0]
        )
        if record["type"] == "choice":
            assert record["options"] == dict(zip(CHOICE_LETTERS, item.options, strict=True))
        else:
            assert record["options"] == {}
        if record["type"] == "term":
            assert record["terms"]
        assert record["parametric"] is False and record["generator"] is None


def _ancestors(section_id: str) -> list[str]:
    corpus = load_corpus()
    out, parent = [], corpus.sections[section_id].parent
    while parent:
        out.append(parent)
        parent = corpus.sections[parent].parent
    return out


def test_rule_area_is_the_top_level_section() -> None:
    assert rule_area("market-fortune/cap-6/campeonato")[0] == "market-fortune/cap-6"
    assert rule_area("market-fortune/cap-6")[0] == "market-fortune/cap-6"
    assert rule_area("market-fortune/no-such-section") == ("market-fortune/no-such-section", "")


def test_export_never_holds_the_entry_pool(practice_generator: Generator) -> None:
    bank = market_fortune_bank()
    assert entry_generators(), "the test needs entry generators to prove they are left out"
    records = export_records(GAME, with_answers=True, samples=5, seed=7, bank=bank)
    sampled = [r for r in records if r["parametric"]]
    practice = {g.name for g in bank.game(GAME).generators() if not g.entry}
    assert PRACTICE in practice and len(practice) >= 3, "every game has practice generators of its own"
    assert {r["generator"] for r in sampled} == practice
    assert len(sampled) == 5 * len(practice), "N fresh items per practice generator"
    entry_names = {g.name for g in entry_generators()}
    assert not any(r["id"].split("/")[2] in entry_names for r in sampled)
    for r in sampled:
        assert bank.item(r["id"]).answer == r["answer"]
    assert {r["rule_area"] for r in sampled if r["generator"] == PRACTICE} == {"market-fortune/cap-2"}


def test_export_is_reproducible_with_a_seed(practice_generator: Generator) -> None:
    bank = market_fortune_bank()
    first = export_records(GAME, with_answers=True, samples=20, seed=11, bank=bank)
    assert first == export_records(GAME, with_answers=True, samples=20, seed=11, bank=bank)
    other = export_records(GAME, with_answers=True, samples=20, seed=12, bank=bank)
    assert [r["id"] for r in first if r["parametric"]] != [r["id"] for r in other if r["parametric"]]
    assert export_records(GAME, samples=20, seed=11, bank=bank) == [
        {k: v for k, v in r.items() if k not in ANSWER_FIELDS} for r in first
    ]


@pytest.mark.parametrize(("samples", "seed"), [(-1, 1), (10_001, 1), (1, -5)])
def test_export_refuses_bad_numbers(samples: int, seed: int) -> None:
    with pytest.raises(ValueError):
        export_records(GAME, samples=samples, seed=seed, bank=market_fortune_bank())


# --------------------------------------------------------------------------- grading


def test_grade_a_file_of_answers(practice_generator: Generator) -> None:
    bank = market_fortune_bank()
    records = export_records(GAME, with_answers=True, samples=2, seed=3, bank=bank)
    lines = [json.dumps({"id": r["id"], "answer": r["answer_display"]}) for r in records]
    wrong_id = records[0]["id"]
    lines += [
        json.dumps({"id": wrong_id, "answer": "no lo sé"}),
        "not json",
        json.dumps({"id": "market-fortune/q/no-such-item", "answer": "3"}),
        json.dumps({"answer": "3"}),
        json.dumps({"id": wrong_id, "answer": None}),
        "",
    ]
    report = grade_records(lines, bank=bank)
    assert report.graded == len(records) + 1
    assert report.right == len(records)
    assert report.errors == 4
    text = grade_jsonl("\n".join(lines), bank=bank)
    assert f"graded {len(records) + 1}: {len(records)} right" in text
    assert "WRONG  " + wrong_id in text
    assert "ERROR  line" in text and "no item has the id" in text
    assert "market-fortune choice:" in text


def test_entry_pool_ids_are_refused() -> None:
    bank = market_fortune_bank()
    gen = entry_generators()[0]
    item = gen.make(42)
    report = grade_records([json.dumps({"id": item.id, "answer": item.answer})], bank=bank)
    (line,) = report.lines
    assert line.verdict == "error"
    assert "entry pool" in line.reason
    assert item.answer not in line.reason


def test_practice_ids_are_graded(practice_generator: Generator) -> None:
    item = practice_generator.make(5)
    assert practice_item(market_fortune_bank(), item.id) == item
    (line,) = grade_records(
        [json.dumps({"id": item.id, "answer": f"Tengo {item.answer}"})], bank=market_fortune_bank()
    ).lines
    assert line.verdict == "right" and line.normalized == item.answer


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "must be an object"),
        ('"market-fortune/q/x"', "must be an object"),
        ('{"answer": "3"}', "no id"),
        ('{"id": 7, "answer": "3"}', "id that is int"),
        ('{"id": "", "answer": "3"}', "id"),
        ('{"id": "market-fortune/q/no-such-item", "answer": "3"}', "no item has the id"),
        ('{"id": "market-fortune/gen/x/' + "9" * 5000 + '", "answer": "3"}', "ids are at most"),
        ('{"id": "market-fortune/gen/no-such-generator/12", "answer": "3"}', "no item has the id"),
        ('{"id": "' + "a" * 50 + '", "answer": 1' + "0" * 5000 + "}", "not JSON this grader can read"),
        ("[" * 100_000, "not JSON"),
        ('{"id": "%(ID)s", "answer": 2.5}', "decimal number"),
        ('{"id": "%(ID)s", "answer": true}', "true/false"),
        ('{"id": "%(ID)s", "answer": ["A"]}', "a list"),
        ('{"id": "%(ID)s", "answer": {"x": 1}}', "an object"),
        ('{"id": "%(ID)s", "answer": null}', "null"),
        ('{"id": "%(ID)s"}', 'no "answer"'),
    ],
)
def test_malformed_lines_are_errors(raw: str, reason: str) -> None:
    bank = market_fortune_bank()
    raw = raw.replace("%(ID)s", bank.game(GAME).items[0].id)
    (line,) = grade_records([raw], bank=bank).lines
    assert line.verdict == "error", line
    assert reason in line.reason, line.reason
    assert "\n" not in line.reason


def test_answers_that_are_not_plausible_are_wrong_not_errors() -> None:
    bank = market_fortune_bank()
    item = next(it for it in bank.game(GAME).items if it.type == "integer")
    lines = [
        json.dumps({"id": item.id, "answer": "9" * 400}),
        json.dumps({"id": item.id, "answer": int("9" * 400)}),
        json.dumps({"id": item.id, "answer": "\u0000\u202e😀"}),
        json.dumps({"id": item.id, "answer": "x" * 5000}),
    ]
    report = grade_records(lines, bank=bank)
    assert [g.verdict for g in report.lines] == ["wrong"] * 4
    assert all(g.reason for g in report.lines)


def test_json_lines_carry_the_reading() -> None:
    bank = market_fortune_bank()
    items = bank.game(GAME).items
    choice = next(it for it in items if it.type == "choice")
    integer = next(it for it in items if it.type == "integer")
    wrong_letter = next(letter for letter in CHOICE_LETTERS if letter != choice.answer)
    lines = [
        json.dumps({"id": choice.id, "answer": f"Creo que es la {choice.answer}"}),
        json.dumps({"id": choice.id, "answer": f"la {wrong_letter}"}),
        json.dumps({"id": integer.id, "answer": f"{integer.answer} o {int(integer.answer) + 1}"}),
        "",
        "{",
    ]
    out = [json.loads(line) for line in grade_json_lines(grade_records(lines, bank=bank))]
    assert [set(o) for o in out] == [{"id", "verdict", "normalized", "reason", "line"}] * 4
    assert [o["verdict"] for o in out] == ["right", "wrong", "wrong", "error"]
    assert [o["normalized"] for o in out] == [choice.answer, wrong_letter, None, None]
    assert [o["line"] for o in out] == [1, 2, 3, 5]
    assert out[0]["reason"] == "" and out[1]["reason"] and out[3]["id"] is None


# --------------------------------------------------------------------------- the commands


def test_cli_export_with_seed_is_reproducible(
    capsys: pytest.CaptureFixture[str], practice_generator: Generator
) -> None:
    args = ["quiz", "export", "--game", GAME, "--samples", "3", "--seed", "9", "--with-answers"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    records = [json.loads(line) for line in first.splitlines()]
    practice = [g for g in market_fortune_bank().game(GAME).generators() if not g.entry]
    assert sum(r["parametric"] for r in records) == 3 * len(practice)
    assert all("answer" in r for r in records)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["quiz", "export", "--game", "ajedrez"], "unknown game 'ajedrez'"),
        (["quiz", "export", "--game", GAME, "--samples", "-3"], "samples must be"),
        (["quiz", "export", "--game", GAME, "--seed", "-1"], "seed must be"),
        (["quiz", "grade", "/no/such/answers.jsonl"], "no file at"),
        (["quiz", "grade", "/"], "is a folder"),
    ],
)
def test_cli_errors_are_one_sentence_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err


def test_cli_grade_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    path.write_bytes(b'{"id": "x", "answer": "\xff"}\n')
    assert main(["quiz", "grade", str(path)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_cli_grade_exit_status_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bank = market_fortune_bank()
    item = bank.game(GAME).items[0]
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({"id": item.id, "answer": "no lo sé"}) + "\n", encoding="utf-8")
    assert main(["quiz", "grade", str(good)]) == 0
    assert "WRONG  " + item.id in capsys.readouterr().out
    faulty = tmp_path / "faulty.jsonl"
    faulty.write_text(good.read_text(encoding="utf-8") + "not json\n", encoding="utf-8")
    assert main(["quiz", "grade", "--json", str(faulty)]) == 1
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["verdict"] for o in out] == ["wrong", "error"]
    assert main(["quiz", "grade", str(faulty)]) == 1
    assert "1 faulty lines" in capsys.readouterr().out


# --------------------------------------------------------------------------- statistics


def _right_text(item: Item) -> str:
    """The right answer in a form that survives the paper's shuffling of options (the option's text)."""
    return item.options[CHOICE_LETTERS.index(item.answer)] if item.type == "choice" else item.answer


def test_stats_per_game_and_section() -> None:
    bank = market_fortune_bank()
    store = MemoryQuizStore()
    svc = QuizService(bank, store, clock=FakeClock(), secret=b"k" * 32)
    passed_paper = svc.start_quiz(GAME, "a")
    attempt = store.load_attempt(passed_paper.quiz_id)
    assert attempt is not None
    right = {p.key: _right_text(bank.item(i)) for p, i in zip(passed_paper.items, attempt.item_ids, strict=True)}
    svc.submit_quiz(passed_paper.quiz_id, right)
    failed_paper = svc.start_quiz(GAME, "b")
    svc.submit_quiz(failed_paper.quiz_id, {"q1": "zzz", "q2": "zzz", "q3": "zzz", "r1": "zzz"})
    practice = svc.practice_question(GAME, "market-fortune/cap-6/campeonato")
    svc.submit_quiz(practice.quiz_id, {"p1": "zzz"})
    svc.start_quiz(GAME, "c")  # never submitted: not counted

    stats = attempt_stats(store)
    assert (stats.passes[GAME].right, stats.passes[GAME].total) == (1, 2)
    assert (stats.practice[GAME].right, stats.practice[GAME].total) == (0, 1)
    assert stats.sections["market-fortune/cap-6/campeonato"].total >= 1
    total_items = sum(r.total for r in stats.sections.values())
    assert total_items >= 9
    entry_only = attempt_stats(store, include_practice=False)
    assert sum(r.total for r in entry_only.sections.values()) < total_items
    text = stats_report(store)
    assert "market-fortune: 1/2 passed (50.0%)" in text
    assert "market-fortune/cap-6/campeonato" in text
    assert json.dumps(stats.to_dict())
    assert "no graded entry quiz yet" in stats_report(MemoryQuizStore())


# --------------------------------------------------------------------------- the documentation


def _json_blocks(text: str) -> list[list[dict[str, object]]]:
    blocks = text.split("```json\n")[1:]
    return [[json.loads(line) for line in block.split("```")[0].splitlines() if line.strip()] for block in blocks]


def test_docs_examples_match_the_tools() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "evaluators.md").read_text(encoding="utf-8")
    (record,), answers, verdicts = _json_blocks(doc)
    exported = export_records(str(record["game"]), with_answers=True)
    assert set(record) == set(exported[0])
    report = grade_records([json.dumps(a, ensure_ascii=False) for a in answers])
    assert [json.loads(line) for line in grade_json_lines(report)] == verdicts
