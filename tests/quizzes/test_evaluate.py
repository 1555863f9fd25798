"""Evaluator tools: JSONL export, grading of an answers file, statistics of recorded attempts."""

from __future__ import annotations

import json

from club_agentes.quizzes.evaluate import (
    attempt_stats,
    export_bank,
    export_records,
    grade_jsonl,
    grade_records,
    stats_report,
)
from club_agentes.quizzes.harness import QuizService
from club_agentes.quizzes.store import MemoryQuizStore

from tests.quizzes.conftest import FakeClock, market_fortune_bank

GAME = "market-fortune"


def test_export_without_answers() -> None:
    bank = market_fortune_bank()
    lines = list(export_bank(GAME, bank=bank))
    gb = bank.game(GAME)
    assert len(lines) == len(gb.items)
    for line in lines:
        record = json.loads(line)
        assert not {"answer", "answer_display", "explanation", "computed"} & set(record)
        assert record["sections"] and record["type"] in ("integer", "choice", "term")
        if record["type"] == "choice":
            assert len(record["options"]) == 4
        if record["type"] == "term":
            assert record["terms"]


def test_export_with_answers_and_samples() -> None:
    bank = market_fortune_bank()
    gens = bank.game(GAME).generators()
    records = export_records(GAME, with_answers=True, samples=3, seed=7, bank=bank)
    hand = [r for r in records if not r["parametric"]]
    sampled = [r for r in records if r["parametric"]]
    assert len(sampled) == 3 * len(gens)
    assert all("answer" in r for r in records)
    assert {r["generator"] for r in sampled} == {g.name for g in gens}
    for r in sampled:
        assert bank.item(r["id"]).answer == r["answer"]
    assert len(hand) == len(bank.game(GAME).items)
    assert export_records(GAME, samples=3, seed=7, bank=bank) == [
        {k: v for k, v in r.items() if k not in ("answer", "answer_display", "explanation", "computed")}
        for r in records
    ]


def test_grade_a_file_of_answers() -> None:
    bank = market_fortune_bank()
    records = export_records(GAME, with_answers=True, samples=1, seed=3, bank=bank)
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


def test_stats_per_game_and_section() -> None:
    bank = market_fortune_bank()
    store = MemoryQuizStore()
    svc = QuizService(bank, store, clock=FakeClock(), secret=b"k" * 32)
    passed_paper = svc.start_quiz(GAME, "a")
    attempt = store.load_attempt(passed_paper.quiz_id)
    assert attempt is not None
    right = {p.key: bank.item(i).answer for p, i in zip(passed_paper.items, attempt.item_ids, strict=True)}
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
