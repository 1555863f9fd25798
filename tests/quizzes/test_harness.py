"""The entry quiz and practice over a memory store and a fake clock."""

from __future__ import annotations

import dataclasses
import json
import threading
from typing import Any

import jsonschema
import pytest
from club_agentes.quizzes.bank import Bank, GameBank
from club_agentes.quizzes.grading import display_answer
from club_agentes.quizzes.harness import (
    InvalidAgent,
    MalformedAnswers,
    NoItemForSection,
    PaperItem,
    QuizAlreadyUsed,
    QuizExpired,
    QuizPaper,
    QuizService,
    RateLimited,
    UnknownQuiz,
    UnknownQuizGame,
    UnknownQuizSection,
)
from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from club_agentes.quizzes.store import MemoryQuizStore
from club_agentes.rules_corpus import load_corpus

from tests.quizzes.conftest import SECRET, FakeClock, market_fortune_bank

GAME = "market-fortune"


def items_of(service: QuizService, paper: QuizPaper) -> list[Item]:
    attempt = service.store.load_attempt(paper.quiz_id)
    assert attempt is not None
    return [service.bank.item(i) for i in attempt.item_ids]


def right_answers(service: QuizService, paper: QuizPaper) -> dict[str, str]:
    return {p.key: it.answer for p, it in zip(paper.items, items_of(service, paper), strict=True)}


def wrong_answer(item: Item) -> str:
    if item.type == "integer":
        return str(int(item.answer) + 1)
    if item.type == "choice":
        return CHOICE_LETTERS[(CHOICE_LETTERS.index(item.answer) + 1) % 4]
    vocab = market_fortune_bank().vocabulary(item)
    assert vocab is not None
    return next(t for t in vocab.term_names if t != item.answer)


# --------------------------------------------------------------------------- the paper


def test_a_paper_has_three_questions_and_a_riddle_at_least_one_parametric(service: QuizService) -> None:
    for n in range(20):
        paper = service.start_quiz(GAME, f"agent-{n}")
        assert [p.key for p in paper.items] == ["q1", "q2", "q3", "r1"]
        assert [p.kind for p in paper.items] == ["question", "question", "question", "riddle"]
        items = items_of(service, paper)
        assert any(it.parametric for it in items)
        assert len({it.id for it in items}) == 4
        assert paper.expires_at == service.clock() + 900


def test_the_paper_shows_what_is_needed_to_answer(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent")
    for p, it in zip(paper.items, items_of(service, paper), strict=True):
        assert p.prompt == it.prompt and p.type == it.type and p.unit == it.unit
        assert p.options == it.options
        jsonschema.Draft202012Validator.check_schema(p.answer_schema)
        if it.type == "term":
            vocab = service.bank.vocabulary(it)
            assert vocab is not None and p.terms == vocab.term_names
    jsonschema.validate(right_answers(service, paper), paper.answers_schema)
    jsonschema.validate({"q1": "A", "q2": "x", "q3": "x", "r1": "25M"}, paper.answers_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"q1": "A"}, paper.answers_schema)


def test_no_answer_item_id_or_seed_is_in_a_paper(service: QuizService) -> None:
    field_names = {f.name for f in dataclasses.fields(PaperItem)} | {f.name for f in dataclasses.fields(QuizPaper)}
    assert not field_names & {"answer", "id", "item_id", "seed", "explanation", "computed", "sections"}
    for n in range(30):
        paper = service.start_quiz(GAME, f"leak-{n}")
        text = json.dumps(paper.to_dict(), ensure_ascii=False)
        for it in items_of(service, paper):
            assert it.id not in text
            assert "/gen/" not in text and "/q/" not in text and "/r/" not in text
            if it.parametric:
                seed = it.id.rsplit("/", 1)[1]
                assert seed not in text
            if it.explanation:
                assert it.explanation not in text
            if it.computed:
                assert it.computed not in text
        practice = service.practice_question(GAME)
        ptext = json.dumps(practice.to_dict(), ensure_ascii=False)
        (pit,) = items_of(service, practice)
        assert pit.id not in ptext and (not pit.explanation or pit.explanation not in ptext)


def test_unknown_game_and_bad_agent_names(service: QuizService) -> None:
    with pytest.raises(UnknownQuizGame, match="market-fortune"):
        service.start_quiz("parchis", "agent")
    for bad in ["", "   ", "a" * 65, "bad\nname", "<script>"]:
        with pytest.raises(InvalidAgent):
            service.start_quiz(GAME, bad)


# --------------------------------------------------------------------------- submitting


def test_pass_with_right_answers_in_several_forms(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent-pass")
    answers: dict[str, Any] = {}
    for p, it in zip(paper.items, items_of(service, paper), strict=True):
        answers[p.key] = display_answer(it) if it.type != "term" else it.answer.lower()
    result = service.submit_quiz(paper.quiz_id, answers)
    assert result.passed and result.correct == 4 and result.total == 4
    assert result.club_pass
    assert result.pass_games == (GAME,)
    assert all(r.answer is None for r in result.items), "an entry quiz never shows the answers"
    check = service.verify_club_pass(result.club_pass, GAME)
    assert check.valid and check.agent == "agent-pass" and check.games == (GAME,)


def test_fail_with_feedback_that_does_not_reveal_answers(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent-fail")
    items = items_of(service, paper)
    answers = right_answers(service, paper)
    answers["q2"] = wrong_answer(items[1])
    result = service.submit_quiz(paper.quiz_id, answers)
    assert not result.passed and result.correct == 3 and result.club_pass is None
    wrong = result.items[1]
    assert not wrong.correct and wrong.reason
    assert wrong.sections == items[1].sections
    assert wrong.answer is None and wrong.citation == () and wrong.explanation is None
    if items[1].type == "choice":
        assert items[1].answer not in wrong.reason.replace("Option", "")
    assert "Not passed" in result.summary


def test_retry_gives_fresh_questions(service: QuizService) -> None:
    first = service.start_quiz(GAME, "agent-retry")
    second = service.start_quiz(GAME, "agent-retry")
    assert first.quiz_id != second.quiz_id
    assert [it.id for it in items_of(service, first)] != [it.id for it in items_of(service, second)]


def test_a_quiz_is_graded_once(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent-once")
    service.submit_quiz(paper.quiz_id, right_answers(service, paper))
    with pytest.raises(QuizAlreadyUsed, match="already graded"):
        service.submit_quiz(paper.quiz_id, right_answers(service, paper))


def test_racing_submissions_grade_once(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent-race")
    answers = right_answers(service, paper)
    outcomes: list[str] = []
    lock = threading.Lock()

    def submit() -> None:
        try:
            service.submit_quiz(paper.quiz_id, answers)
            outcome = "graded"
        except QuizAlreadyUsed:
            outcome = "refused"
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["graded"] + ["refused"] * 7
    assert len(service.store.passes) == 1  # type: ignore[attr-defined]


def test_expired_quiz(service: QuizService, clock: FakeClock) -> None:
    paper = service.start_quiz(GAME, "agent-late")
    clock.advance(901)
    with pytest.raises(QuizExpired, match="expired at 2027-01-15T08:15:00Z"):
        service.submit_quiz(paper.quiz_id, right_answers(service, paper))


def test_unknown_quiz_ids(service: QuizService) -> None:
    with pytest.raises(UnknownQuiz):
        service.submit_quiz("no-such-quiz", {"q1": "A"})
    with pytest.raises(UnknownQuiz):
        service.submit_quiz("", {"q1": "A"})
    with pytest.raises(UnknownQuiz):
        service.submit_quiz("x" * 500, {"q1": "A"})
    with pytest.raises(UnknownQuiz):
        service.submit_quiz(42, {"q1": "A"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: {k: v for k, v in a.items() if k != "r1"}, "lack r1"),
        (lambda a: {**a, "q4": "B"}, "unknown keys q4"),
        (lambda a: {**a, "q1": True}, "strings or integers"),
        (lambda a: {**a, "q1": ["A"]}, "strings or integers"),
        (lambda a: {**a, "q1": "  "}, "empty"),
        (lambda a: {**a, "q1": "x" * 501}, "longer than"),
        (lambda a: ["A", "B"], "object mapping"),
    ],
)
def test_malformed_answers_leave_the_quiz_open(service: QuizService, change: Any, message: str) -> None:
    paper = service.start_quiz(GAME, "agent-malformed")
    answers = right_answers(service, paper)
    with pytest.raises(MalformedAnswers, match=message):
        service.submit_quiz(paper.quiz_id, change(answers))
    assert service.submit_quiz(paper.quiz_id, answers).passed


def test_rate_limit_with_retry_after(service: QuizService, clock: FakeClock) -> None:
    for _ in range(5):
        service.start_quiz(GAME, "agent-busy")
        clock.advance(60)
    with pytest.raises(RateLimited) as info:
        service.start_quiz(GAME, "agent-busy")
    assert info.value.retry_after == 3600 - 300
    assert "retry after 3300 seconds" in str(info.value)
    service.start_quiz(GAME, "another-agent")
    service.practice_question(GAME, agent="agent-busy")  # practice does not count
    clock.advance(info.value.retry_after)
    service.start_quiz(GAME, "agent-busy")


def test_the_limit_is_configurable(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET, attempts_per_hour=1)
    svc.start_quiz(GAME, "agent")
    with pytest.raises(RateLimited):
        svc.start_quiz(GAME, "agent")


# --------------------------------------------------------------------------- practice


def test_practice_shows_the_answer_and_never_passes(service: QuizService) -> None:
    for _ in range(10):
        paper = service.practice_question(GAME)
        assert paper.practice and [p.key for p in paper.items] == ["p1"]
        (item,) = items_of(service, paper)
        result = service.submit_quiz(paper.quiz_id, {"p1": item.answer})
        assert result.items[0].correct
        assert not result.passed and result.club_pass is None
        assert result.items[0].answer == display_answer(item)
        assert result.items[0].citation and result.items[0].citation[0].startswith(item.sections[0])
        with pytest.raises(QuizAlreadyUsed):
            service.submit_quiz(paper.quiz_id, {"p1": item.answer})


def test_practice_wrong_answer_shows_the_right_one(service: QuizService) -> None:
    paper = service.practice_question(GAME, "market-fortune/cap-2/regla-8-cartas")
    (item,) = items_of(service, paper)
    result = service.submit_quiz(paper.quiz_id, {"p1": wrong_answer(item)})
    r = result.items[0]
    assert not r.correct and r.reason and r.answer == display_answer(item)


def test_practice_by_section_cites_that_section(service: QuizService) -> None:
    corpus = load_corpus()
    gb = service.bank.game(GAME)
    cited = sorted({s for it in gb.items for s in it.sections})
    for sid in cited:
        paper = service.practice_question(GAME, sid)
        (item,) = items_of(service, paper)
        assert sid in item.sections
    short = "cap-2/regla-8-cartas"
    (item,) = items_of(service, service.practice_question(GAME, short))
    assert corpus.resolve(GAME, short).id in item.sections


def test_practice_section_errors(service: QuizService) -> None:
    with pytest.raises(UnknownQuizSection) as info:
        service.practice_question(GAME, "market-fortune/cap-9")
    assert info.value.suggestions
    with pytest.raises(NoItemForSection, match="market-fortune/creditos"):
        service.practice_question(GAME, "market-fortune/creditos")


def test_practice_reaches_parametric_items(service: QuizService) -> None:
    kinds = set()
    for _ in range(40):
        (item,) = items_of(service, service.practice_question(GAME))
        kinds.add(item.parametric)
    assert kinds == {True, False}


# --------------------------------------------------------------------------- passes across games and restarts


def toy_bank() -> Bank:
    """The Market Fortune bank plus a tiny hand-written bank of a second game (no generators)."""
    mf = market_fortune_bank().game(GAME)
    sections = ("toy-game/rules",)
    questions = tuple(
        Item(f"toy-game/q/{n}", "toy-game", "question", "integer", f"¿{n} + 1?", str(n + 1), sections) for n in range(5)
    )
    riddles = (Item("toy-game/r/uno", "toy-game", "riddle", "integer", "¿1 + 1?", "2", sections),)
    toy = GameBank("toy-game", questions, riddles, {}, {})
    return Bank({GAME: mf, "toy-game": toy})


def pass_quiz(service: QuizService, game: str, agent: str) -> str:
    paper = service.start_quiz(game, agent)
    result = service.submit_quiz(paper.quiz_id, right_answers(service, paper))
    assert result.passed and result.club_pass
    return result.club_pass


def test_a_new_pass_covers_every_game_the_agent_holds(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(toy_bank(), store, clock=clock, secret=SECRET)
    first = pass_quiz(svc, GAME, "agent")
    second = pass_quiz(svc, "toy-game", "agent")
    check = svc.verify_club_pass(second)
    assert check.valid and check.games == ("market-fortune", "toy-game")
    assert svc.verify_club_pass(second, "toy-game").valid
    assert not svc.verify_club_pass(first, "toy-game").valid
    other = pass_quiz(svc, "toy-game", "someone-else")
    assert svc.verify_club_pass(other).games == ("toy-game",)


def test_a_revoked_pass_is_not_carried_into_a_new_one(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(toy_bank(), store, clock=clock, secret=SECRET)
    first = pass_quiz(svc, GAME, "agent")
    jti = svc.verify_club_pass(first).jti
    assert jti and svc.revoke_pass(jti)
    check = svc.verify_club_pass(first)
    assert not check.valid and check.reason == "the pass was revoked"
    second = pass_quiz(svc, "toy-game", "agent")
    assert svc.verify_club_pass(second).games == ("toy-game",)


def test_passes_and_used_quizzes_survive_a_restart(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(market_fortune_bank(), store, clock=clock)  # key generated once, kept in the store
    paper = svc.start_quiz(GAME, "agent")
    answers = right_answers(svc, paper)
    result = svc.submit_quiz(paper.quiz_id, answers)
    assert result.club_pass
    restarted = QuizService(market_fortune_bank(), store, clock=clock)
    assert restarted.verify_club_pass(result.club_pass, GAME).valid
    with pytest.raises(QuizAlreadyUsed):
        restarted.submit_quiz(paper.quiz_id, answers)
    elsewhere = QuizService(market_fortune_bank(), MemoryQuizStore(), clock=clock)
    assert "signature does not match" in elsewhere.verify_club_pass(result.club_pass).reason


def test_graded_attempts_record_items_for_statistics(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent-stats")
    service.submit_quiz(paper.quiz_id, right_answers(service, paper))
    (attempt,) = service.store.graded_attempts(GAME)
    assert attempt.result is not None and attempt.result["passed"]
    assert [i["key"] for i in attempt.result["items"]] == ["q1", "q2", "q3", "r1"]
    assert all(i["sections"] for i in attempt.result["items"])
    json.dumps(attempt.result)
