"""The entry quiz and practice over a memory store and a fake clock: the entry pool, shuffled options,
no repeated prompts, agent names and ownership, limits, grading once, passes across games."""

from __future__ import annotations

import dataclasses
import json
import threading
from typing import Any

import jsonschema
import pytest
from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.bank import Bank, GameBank, PrivateBank
from club_agentes.quizzes.grading import display_answer
from club_agentes.quizzes.harness import (
    ENTRY_QUIZ,
    PRACTICE,
    RECENT_PAPERS,
    AttemptLimiter,
    EntryPoolTooSmall,
    InvalidAgent,
    MalformedAnswers,
    NoItemForSection,
    NotYourQuiz,
    PaperItem,
    QuizAlreadyUsed,
    QuizExpired,
    QuizPaper,
    QuizService,
    RateLimited,
    UnknownQuiz,
    UnknownQuizGame,
    UnknownQuizSection,
    normalize_agent_name,
    presented,
    prompt_key,
)
from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from club_agentes.quizzes.store import MemoryQuizStore
from club_agentes.rules_corpus import load_corpus

from tests.quizzes.conftest import SECRET, FakeClock, market_fortune_bank

GAME = "market-fortune"


def items_of(service: QuizService, paper: QuizPaper) -> list[Item]:
    """The items as the paper showed them (options in the shown order, answers re-lettered)."""
    attempt = service.store.load_attempt(paper.quiz_id)
    assert attempt is not None
    return service.presented_items(attempt)


def right_answers(service: QuizService, paper: QuizPaper) -> dict[str, str]:
    return {p.key: it.answer for p, it in zip(paper.items, items_of(service, paper), strict=True)}


def wrong_answer(service: QuizService, item: Item) -> str:
    if item.type == "integer":
        return str(int(item.answer) + 1)
    if item.type == "choice":
        return CHOICE_LETTERS[(CHOICE_LETTERS.index(item.answer) + 1) % 4]
    vocab = service.bank.vocabulary(item)
    assert vocab is not None
    return next(t for t in vocab.term_names if t != item.answer)


# --------------------------------------------------------------------------- the paper


def test_a_paper_has_three_questions_and_a_riddle_all_from_the_entry_pool(service: QuizService) -> None:
    gb = service.bank.game(GAME)
    public = {it.id for it in gb.items}
    entry_gens = {g.name for g in gb.generators() if g.entry}
    for n in range(20):
        paper = service.start_quiz(GAME, f"agent-{n}")
        assert [p.key for p in paper.items] == ["q1", "q2", "q3", "r1"]
        assert [p.kind for p in paper.items] == ["question", "question", "question", "riddle"]
        attempt = service.store.load_attempt(paper.quiz_id)
        assert attempt is not None
        for item_id in attempt.item_ids:
            assert item_id not in public, "a public hand-written item reached an entry paper"
            assert item_id.split("/")[2] in entry_gens
        assert len({i.split("/")[2] for i in attempt.item_ids}) == 4, "two items came from one generator"
        assert len(set(attempt.prompt_keys)) == 4
        assert paper.expires_at == service.clock() + 900


def test_the_paper_shows_what_is_needed_to_answer(service: QuizService) -> None:
    for n in range(10):
        paper = service.start_quiz(GAME, f"reader-{n}")
        attempt = service.store.load_attempt(paper.quiz_id)
        assert attempt is not None
        originals = [service.item(i) for i in attempt.item_ids]
        for p, it, orig in zip(paper.items, items_of(service, paper), originals, strict=True):
            assert p.prompt == it.prompt == orig.prompt and p.type == it.type and p.unit == it.unit
            assert p.options == it.options and sorted(p.options) == sorted(orig.options)
            if it.type == "choice":
                assert it.options[CHOICE_LETTERS.index(it.answer)] == orig.options[CHOICE_LETTERS.index(orig.answer)]
            jsonschema.Draft202012Validator.check_schema(p.answer_schema)
            if it.type == "term":
                vocab = service.bank.vocabulary(it)
                assert vocab is not None and p.terms == vocab.term_names
        jsonschema.validate(right_answers(service, paper), paper.answers_schema)
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
                assert it.id.rsplit("/", 1)[1] not in text
            if it.explanation:
                assert it.explanation not in text
            if it.computed:
                assert it.computed not in text
        practice = service.practice_question(GAME, agent=f"leak-{n}")
        ptext = json.dumps(practice.to_dict(), ensure_ascii=False)
        (pit,) = items_of(service, practice)
        assert pit.id not in ptext and (not pit.explanation or pit.explanation not in ptext)


def test_unknown_game(service: QuizService) -> None:
    with pytest.raises(UnknownQuizGame, match="market-fortune"):
        service.start_quiz("parchis", "agent")


@pytest.mark.parametrize(
    ("given", "normal"),
    [
        ("Same-Name", "same-name"),
        ("same_name", "same-name"),
        ("same-name.", "same-name"),
        ("  SAME name  ", "same-name"),
        ("Íñigo López", "inigo-lopez"),
        ("claude-7", "claude-7"),
        ("bot:random", "bot-random"),
        ("Straße", "strasse"),
    ],
)
def test_agent_names_are_normalised(given: str, normal: str) -> None:
    assert normalize_agent_name(given) == normal


@pytest.mark.parametrize("bad", ["", "   ", "---", "…", "a" * 65, "x" * 201, None, 7])
def test_bad_agent_names(service: QuizService, bad: Any) -> None:
    with pytest.raises(InvalidAgent):
        service.start_quiz(GAME, bad)


def test_look_alike_names_are_one_agent(service: QuizService) -> None:
    for name in ("Same-Name", "same_name", "same-name.", "SAME NAME", "same-name"):
        service.start_quiz(GAME, name)
    with pytest.raises(RateLimited):
        service.start_quiz(GAME, "Same Name!")
    assert {a.agent for a in service.store.attempts.values()} == {"same-name"}  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- shuffled options


def test_presented_reletters_the_answer() -> None:
    item = Item("x/q/c", "x", "question", "choice", "¿?", "B", ("x",), options=("a", "b", "c", "d"))
    shown = presented(item, (2, 0, 3, 1))
    assert shown.options == ("c", "a", "d", "b") and shown.answer == "D"
    assert presented(item, ()) == item
    with pytest.raises(ValueError):
        presented(item, (0, 0, 1, 2))


def test_options_are_shuffled_per_paper_and_graded_as_shown(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET, attempts_per_hour=10_000)
    orders: set[tuple[int, ...]] = set()
    moved = 0
    for n in range(120):
        paper = svc.start_quiz(GAME, f"shuffle-{n % 7}")
        attempt = store.load_attempt(paper.quiz_id)
        assert attempt is not None
        submitted = False
        for key, item_id, order in zip(("q1", "q2", "q3", "r1"), attempt.item_ids, attempt.orders, strict=True):
            original = svc.item(item_id)
            if original.type != "choice":
                assert order == ()
                continue
            orders.add(order)
            shown = presented(original, order)
            if shown.answer != original.answer and moved < 5 and not submitted:
                moved += 1
                submitted = True
                answers = {k: "0" for k in ("q1", "q2", "q3", "r1")}
                answers[key] = original.answer  # the letter of the unshuffled item: wrong as shown
                result = svc.submit_quiz(paper.quiz_id, answers)
                assert not next(r for r in result.items if r.key == key).correct
    assert len(orders) >= 12, f"option orders barely vary: {orders}"
    assert moved >= 1


# --------------------------------------------------------------------------- no repeated prompts


def test_no_prompt_repeats_within_an_agents_last_papers(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET, attempts_per_hour=10_000)
    history: list[set[str]] = []
    for _ in range(30):
        paper = svc.start_quiz(GAME, "regular")
        keys = {prompt_key(p.prompt) for p in paper.items}
        assert len(keys) == 4
        for earlier in history[-RECENT_PAPERS:]:
            assert not keys & earlier, "a prompt repeated within the last papers"
        history.append(keys)
        clock.advance(1)


def test_papers_started_at_the_same_instant_count_in_order(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET, attempts_per_hour=10_000)
    history = [{prompt_key(p.prompt) for p in svc.start_quiz(GAME, "hasty").items} for _ in range(25)]
    assert store.recent_prompt_keys("hasty", GAME, RECENT_PAPERS) == [
        tuple(a.prompt_keys) for a in list(store.attempts.values())[::-1][:RECENT_PAPERS]
    ]
    for n, keys in enumerate(history):
        for earlier in history[max(0, n - RECENT_PAPERS) : n]:
            assert not keys & earlier


def test_a_pool_too_small_to_avoid_repeats_is_refused(store: MemoryQuizStore, clock: FakeClock) -> None:
    bank = market_fortune_bank()
    gb = bank.game(GAME)
    private = PrivateBank({"toy-game": (*toy_questions(3), *toy_riddles(1))})
    svc = QuizService(toy_bank(), store, clock=clock, secret=SECRET, private=private, attempts_per_hour=100)
    assert gb.generators()  # Market Fortune still has its own generators
    svc.start_quiz("toy-game", "agent")
    with pytest.raises(EntryPoolTooSmall, match="last 10 papers"):
        svc.start_quiz("toy-game", "agent")
    svc.start_quiz("toy-game", "another-agent")  # the rule is per agent


# --------------------------------------------------------------------------- submitting


def test_pass_with_right_answers_in_several_forms(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent-pass")
    answers: dict[str, Any] = {}
    for p, it in zip(paper.items, items_of(service, paper), strict=True):
        answers[p.key] = display_answer(it) if it.type != "term" else it.answer.lower()
    result = service.submit_quiz(paper.quiz_id, answers, agent="agent-pass")
    assert result.passed and result.correct and result.right == 4 and result.total == 4
    assert result.club_pass and result.pass_games == (GAME,)
    assert all(r.answer is None for r in result.items), "an entry quiz never shows the answers"
    assert result.to_dict()["passed"] is True
    check = service.verify_club_pass(result.club_pass, GAME)
    assert check.valid and check.agent == "agent-pass" and check.games == (GAME,)


def test_fail_with_feedback_that_does_not_reveal_answers(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent-fail")
    items = items_of(service, paper)
    answers = right_answers(service, paper)
    answers["q2"] = wrong_answer(service, items[1])
    result = service.submit_quiz(paper.quiz_id, answers)
    assert not result.passed and not result.correct and result.right == 3 and result.club_pass is None
    wrong = result.items[1]
    assert not wrong.correct and wrong.reason
    assert wrong.sections == items[1].sections
    assert wrong.answer is None and wrong.citation == () and wrong.explanation is None
    assert "Not passed" in result.summary


def test_retry_gives_fresh_questions(service: QuizService) -> None:
    first = service.start_quiz(GAME, "agent-retry")
    second = service.start_quiz(GAME, "agent-retry")
    assert first.quiz_id != second.quiz_id
    assert not {p.prompt for p in first.items} & {p.prompt for p in second.items}


def test_only_the_agent_that_started_a_quiz_can_submit_it(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "owner")
    with pytest.raises(NotYourQuiz, match="another agent"):
        service.submit_quiz(paper.quiz_id, right_answers(service, paper), agent="thief")
    result = service.submit_quiz(paper.quiz_id, right_answers(service, paper), agent="OWNER")
    assert result.passed and service.verify_club_pass(result.club_pass or "").agent == "owner"


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
    for bad in ("no-such-quiz", "", "x" * 500, 42):
        with pytest.raises(UnknownQuiz):
            service.submit_quiz(bad, {"q1": "A"})  # type: ignore[arg-type]


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


# --------------------------------------------------------------------------- limits


def test_rate_limit_with_retry_after(service: QuizService, clock: FakeClock) -> None:
    for _ in range(5):
        service.start_quiz(GAME, "agent-busy")
        clock.advance(60)
    with pytest.raises(RateLimited) as info:
        service.start_quiz(GAME, "agent-busy")
    assert info.value.retry_after == 3600 - 300
    assert "retry after 3300 seconds" in str(info.value)
    service.start_quiz(GAME, "another-agent")
    service.practice_question(GAME, agent="agent-busy")  # practice is counted apart
    clock.advance(info.value.retry_after)
    service.start_quiz(GAME, "agent-busy")


def test_practice_has_its_own_limit(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET, practice_per_hour=3)
    for _ in range(3):
        svc.practice_question(GAME, agent="student")
    with pytest.raises(RateLimited, match="practice questions"):
        svc.practice_question(GAME, agent="Student")
    svc.start_quiz(GAME, "student")


def test_the_limiter_is_pluggable(store: MemoryQuizStore, clock: FakeClock) -> None:
    calls: list[tuple[str, str]] = []

    class Recorder:
        def take(self, kind: str, subject: str) -> None:
            calls.append((kind, subject))
            if len(calls) > 2:
                raise RateLimited("enough for now; retry after 9 seconds", 9)

    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET, limiter=Recorder())
    svc.start_quiz(GAME, "Ana")
    svc.practice_question(GAME, agent="ana")
    with pytest.raises(RateLimited):
        svc.start_quiz(GAME, "ana")
    assert calls == [(ENTRY_QUIZ, "ana"), (PRACTICE, "ana"), (ENTRY_QUIZ, "ana")]
    assert len(store.attempts) == 2, "a refused attempt is not stored"


def test_attempt_limiter_checks_its_limits(store: MemoryQuizStore) -> None:
    with pytest.raises(ValueError):
        AttemptLimiter(store, entry_per_hour=0)


# --------------------------------------------------------------------------- practice


def test_practice_shows_the_answer_and_never_passes(service: QuizService) -> None:
    for _ in range(10):
        paper = service.practice_question(GAME, agent="student")
        assert paper.practice and [p.key for p in paper.items] == ["p1"] and paper.agent == "student"
        (item,) = items_of(service, paper)
        result = service.submit_quiz(paper.quiz_id, {"p1": item.answer}, agent="student")
        assert result.correct and result.items[0].correct
        assert not result.passed and result.club_pass is None
        data = result.to_dict()
        assert data["correct"] is True and "passed" not in data
        assert result.items[0].answer == display_answer(item)
        assert result.items[0].citation and result.items[0].citation[0].startswith(item.sections[0])
        with pytest.raises(QuizAlreadyUsed):
            service.submit_quiz(paper.quiz_id, {"p1": item.answer})


def test_practice_wrong_answer_shows_the_right_one(service: QuizService) -> None:
    paper = service.practice_question(GAME, "market-fortune/cap-2/regla-8-cartas", agent="student")
    (item,) = items_of(service, paper)
    result = service.submit_quiz(paper.quiz_id, {"p1": wrong_answer(service, item)})
    r = result.items[0]
    assert not r.correct and not result.correct and r.reason and r.answer == display_answer(item)
    assert result.to_dict()["correct"] is False


def test_practice_never_serves_the_entry_pool(store: MemoryQuizStore, clock: FakeClock) -> None:
    private = PrivateBank({GAME: toy_private_mf()})
    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET, private=private)
    entry_gens = {g.name for g in svc.bank.game(GAME).generators() if g.entry}
    rng = Rng(5)
    for _ in range(300):
        item = svc.draw_practice(GAME, rng=rng)
        assert svc.private.get(item.id) is None, "a private item was shown in practice"
        if item.parametric:
            assert item.id.split("/")[2] not in entry_gens, "an entry generator served practice"


def test_private_items_serve_entry_papers(store: MemoryQuizStore, clock: FakeClock) -> None:
    private = PrivateBank({GAME: toy_private_mf()})
    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET, private=private, rng=Rng(3))
    seen = set()
    for n in range(200):
        for _, item in svc.draw_entry(GAME, f"p-{n}"):
            if svc.private.get(item.id) is not None:
                seen.add(item.id)
    assert seen == {it.id for it in toy_private_mf()}


def test_practice_by_section_cites_that_section(service: QuizService) -> None:
    corpus = load_corpus()
    gb = service.bank.game(GAME)
    cited = sorted({s for it in gb.items for s in it.sections})
    for sid in cited:
        (item,) = items_of(service, service.practice_question(GAME, sid, agent="student"))
        assert sid in item.sections
    short = "cap-2/regla-8-cartas"
    (item,) = items_of(service, service.practice_question(GAME, short, agent="student"))
    assert corpus.resolve(GAME, short).id in item.sections


def test_practice_section_errors(service: QuizService) -> None:
    with pytest.raises(UnknownQuizSection) as info:
        service.practice_question(GAME, "market-fortune/cap-9")
    assert info.value.suggestions
    # a section no practice item cites (the credits now have one: the acertijo-numero riddle of the 180 cards)
    with pytest.raises(NoItemForSection, match="market-fortune/introduccion"):
        service.practice_question(GAME, "market-fortune/introduccion")


# --------------------------------------------------------------------------- passes across games and restarts


def toy_questions(n: int) -> tuple[Item, ...]:
    sections = ("toy-game/rules",)
    return tuple(
        Item(f"toy-game/q/p{k}", "toy-game", "question", "integer", f"¿{k} + 1?", str(k + 1), sections)
        for k in range(n)
    )


def toy_riddles(n: int) -> tuple[Item, ...]:
    sections = ("toy-game/rules",)
    return tuple(
        Item(f"toy-game/r/p{k}", "toy-game", "riddle", "integer", f"¿{k} + {k}?", str(2 * k), sections)
        for k in range(n)
    )


def toy_private_mf() -> tuple[Item, ...]:
    """Two private Market Fortune items (their answers are not checked here: the loader checks real files)."""
    sections = ("market-fortune/cap-2/regla-8-cartas",)
    return (
        Item("market-fortune/q/privada-uno", GAME, "question", "integer", "¿Pregunta privada uno?", "8", sections),
        Item("market-fortune/r/privada-dos", GAME, "riddle", "integer", "¿Acertijo privado dos?", "4", sections),
    )


def toy_bank() -> Bank:
    """The Market Fortune bank plus a second game with hand-written items only (entry comes from a private bank)."""
    mf = market_fortune_bank().game(GAME)
    toy = GameBank("toy-game", toy_questions(5), toy_riddles(1), {}, {})
    return Bank({GAME: mf, "toy-game": toy})


def toy_service(store: MemoryQuizStore, clock: FakeClock) -> QuizService:
    private = PrivateBank({"toy-game": (*toy_questions(12), *toy_riddles(4))})
    return QuizService(toy_bank(), store, clock=clock, secret=SECRET, private=private)


def pass_quiz(service: QuizService, game: str, agent: str) -> str:
    paper = service.start_quiz(game, agent)
    result = service.submit_quiz(paper.quiz_id, right_answers(service, paper))
    assert result.passed and result.club_pass
    return result.club_pass


def test_a_new_pass_covers_every_game_the_agent_holds(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = toy_service(store, clock)
    first = pass_quiz(svc, GAME, "agent")
    second = pass_quiz(svc, "toy-game", "agent")
    check = svc.verify_club_pass(second)
    assert check.valid and check.games == ("market-fortune", "toy-game")
    assert svc.verify_club_pass(second, "toy-game").valid
    assert not svc.verify_club_pass(first, "toy-game").valid
    other = pass_quiz(svc, "toy-game", "someone-else")
    assert svc.verify_club_pass(other).games == ("toy-game",)


def test_a_revoked_pass_is_not_carried_into_a_new_one(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = toy_service(store, clock)
    first = pass_quiz(svc, GAME, "agent")
    jti = svc.verify_club_pass(first).jti
    assert jti and svc.revoke_pass(jti)
    check = svc.verify_club_pass(first)
    assert not check.valid and check.reason == "the pass was revoked"
    second = pass_quiz(svc, "toy-game", "agent")
    assert svc.verify_club_pass(second).games == ("toy-game",)


def test_a_pass_admits_only_the_agent_it_names(service: QuizService) -> None:
    token = pass_quiz(service, GAME, "ana")
    assert service.admit(token, "ana", GAME) is None
    refusal = service.admit(token, "bea", GAME)
    assert refusal is not None and "issued to 'ana'" in refusal and "'bea'" in refusal
    assert "requires a club pass" in (service.admit(None, "ana", GAME) or "")
    assert "does not cover se-vende" in (service.admit(token, "ana", "se-vende") or "")


def test_passes_and_used_quizzes_survive_a_restart(store: MemoryQuizStore, clock: FakeClock) -> None:
    svc = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET)
    paper = svc.start_quiz(GAME, "agent")
    answers = right_answers(svc, paper)
    result = svc.submit_quiz(paper.quiz_id, answers)
    assert result.club_pass
    restarted = QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET)
    assert restarted.verify_club_pass(result.club_pass, GAME).valid
    with pytest.raises(QuizAlreadyUsed):
        restarted.submit_quiz(paper.quiz_id, answers)
    elsewhere = QuizService(market_fortune_bank(), MemoryQuizStore(), clock=clock, secret=b"z" * 32)
    assert "signature does not match" in elsewhere.verify_club_pass(result.club_pass).reason


def test_graded_attempts_record_items_for_statistics(service: QuizService) -> None:
    paper = service.start_quiz(GAME, "agent-stats")
    service.submit_quiz(paper.quiz_id, right_answers(service, paper))
    (attempt,) = service.store.graded_attempts(GAME)
    assert attempt.result is not None and attempt.result["passed"]
    assert [i["key"] for i in attempt.result["items"]] == ["q1", "q2", "q3", "r1"]
    assert all(i["sections"] for i in attempt.result["items"])
    assert not any(i["private"] for i in attempt.result["items"])
    json.dumps(attempt.result)
