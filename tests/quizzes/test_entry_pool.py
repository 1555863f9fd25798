"""The entry quiz cannot be rehearsed: an agent that harvests practice answers, or greps the rulebook for
the one verbatim option, passes at most 1% of entry papers; papers rarely repeat.

Both attacks guess what they do not know the way a shrewd agent would: a letter at random, a term of the
item's list at random, a number named in the prompt (or a small one). The draws are seeded, so the
figures are the same on every run; the tests print them. The default run takes a few papers of each
game; the slow set harvests 500 practice answers and takes 50 papers (none may pass: at most 1 % of 50),
and requires 99 % distinct papers in 500 draws (200 for Se Vende, whose every item replays a real game).
The full-size measures (2,000 practice answers harvested
and 200 papers; 10,000 paper draws) are printed by ``benchmarks/quiz_variety.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

import pytest
from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.bank import Bank, default_bank, verbatim_options
from club_agentes.quizzes.grading import display_answer, normalize
from club_agentes.quizzes.harness import QuizService, prompt_key
from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from club_agentes.quizzes.store import MemoryQuizStore
from club_agentes.rules_corpus import load_corpus

GAMES = ["market-fortune", "se-vende", "yo-soy-el-jefe"]
SIZES = [
    pytest.param(100, 10, id="100-harvested-10-papers"),
    pytest.param(500, 50, id="500-harvested-50-papers", marks=pytest.mark.slow),
]
"""(practice items harvested, entry papers taken); benchmarks/quiz_variety.py measures 2,000 and 200."""
SLOW_DRAWS = {"market-fortune": 500, "se-vende": 200, "yo-soy-el-jefe": 500}
"""Entry papers the slow test draws per game (99 % must differ); benchmarks/quiz_variety.py draws 10,000.

Se Vende draws fewer: each of its items replays a real game (~10 ms)."""


class NoLimit:
    """A limiter that never refuses (the attacks are measured, not throttled)."""

    def take(self, kind: str, subject: str) -> None:
        return None


@cache
def bank() -> Bank:
    return default_bank()


def service(seed: int) -> QuizService:
    return QuizService(
        bank(),
        MemoryQuizStore(),
        secret=b"k" * 32,
        limiter=NoLimit(),
        rng=Rng(seed),
    )


def guess(item: Item, terms: tuple[str, ...], rng: Rng) -> str:
    """A shrewd guess: a random letter or term, or a number the prompt names (else a small one)."""
    if item.type == "choice":
        return rng.choice(CHOICE_LETTERS[: len(item.options)])
    if item.type == "term":
        return rng.choice(terms)
    numbers = [int(n) for n in re.findall(r"\d+", item.prompt) if len(n) < 6]
    return str(rng.choice(numbers)) if numbers and rng.below(2) == 0 else str(1 + rng.below(10))


def take_papers(svc: QuizService, game: str, papers: int, answer: Callable[[Item, tuple[str, ...]], str]) -> int:
    """Take ``papers`` entry papers (one agent each, as a flood of fresh names would) and count passes."""
    passes = 0
    for n in range(papers):
        agent = f"attacker-{n}"
        paper = svc.start_quiz(game, agent)
        attempt = svc.store.load_attempt(paper.quiz_id)
        assert attempt is not None
        shown = svc.presented_items(attempt)
        answers = {p.key: answer(item, p.terms) for p, item in zip(paper.items, shown, strict=True)}
        if svc.submit_quiz(paper.quiz_id, answers, agent=agent).passed:
            passes += 1
    return passes


@pytest.mark.parametrize(("harvested", "papers"), SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_harvested_practice_answers_pass_at_most_one_percent(game: str, harvested: int, papers: int) -> None:
    svc = service(2026)
    rng = Rng(7)
    harvest: dict[str, tuple[Item, str]] = {}
    for _ in range(harvested):
        paper = svc.practice_question(game, agent="harvester")
        (p,) = paper.items
        result = svc.submit_quiz(paper.quiz_id, {"p1": "no lo sé"}, agent="harvester")
        shown = result.items[0].answer
        assert shown is not None, "practice shows the answer after grading"
        attempt = svc.store.load_attempt(paper.quiz_id)
        assert attempt is not None
        (item,) = svc.presented_items(attempt)
        assert shown == display_answer(item)
        harvest[prompt_key(p.prompt)] = (item, shown)

    reused = 0

    def answer(item: Item, terms: tuple[str, ...]) -> str:
        nonlocal reused
        seen = harvest.get(prompt_key(item.prompt))
        if seen is None:
            return guess(item, terms, rng)
        reused += 1
        old, shown = seen
        if old.type == "choice":  # the letters were shuffled again: answer with the harvested option's text
            return shown.split(") ", 1)[1]
        return shown

    passes = take_papers(svc, game, papers, answer)
    print(
        f"{game}: {len(harvest)} distinct practice prompts in {harvested} harvested; {reused} entry items were "
        f"among them; {passes} of {papers} entry papers passed"
    )
    assert passes <= papers // 100, f"{passes} of {papers} papers passed on harvested answers and guesses"


@pytest.mark.parametrize(("harvested", "papers"), SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_the_only_verbatim_option_passes_at_most_one_percent(game: str, harvested: int, papers: int) -> None:
    svc = service(99)
    rng = Rng(11)
    corpus = load_corpus()
    rulebook = "\n".join(s.text for s in corpus.toc(game) if s.kind == "rulebook")
    telling = 0

    def answer(item: Item, terms: tuple[str, ...]) -> str:
        nonlocal telling
        if item.type == "choice":
            found = verbatim_options(item, rulebook)
            if len(found) == 1:
                telling += 1
                return found[0]
        return guess(item, terms, rng)

    passes = take_papers(svc, game, papers, answer)
    print(f"{game}: {telling} choice items had exactly one verbatim option; {passes} of {papers} papers passed")
    assert passes <= papers // 100, f"{passes} of {papers} papers passed by grepping the rulebook"


@pytest.mark.parametrize("game", GAMES)
def test_entry_papers_rarely_repeat(game: str) -> None:
    svc = service(3)
    draws = 20  # hundreds in the slow test below
    papers = {frozenset(prompt_key(it.prompt) for _, it in svc.draw_entry(game)) for _ in range(draws)}
    assert len(papers) == draws, f"only {len(papers)} distinct papers in {draws} draws"  # once allowed in 60 draws


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_distinct_entry_papers_in_hundreds_of_draws(game: str) -> None:
    """At least 99 % distinct entry papers in :data:`SLOW_DRAWS` draws (495 of 500; 198 of 200 for Se Vende)."""
    draws = SLOW_DRAWS[game]
    svc = service(10_000)
    papers: set[frozenset[str]] = set()
    prompts: set[str] = set()
    for _ in range(draws):
        keys = frozenset(prompt_key(it.prompt) for _, it in svc.draw_entry(game))
        papers.add(keys)
        prompts |= keys
    print(f"{game}: {len(papers)} distinct entry papers and {len(prompts)} distinct prompts in {draws} draws")
    assert len(papers) >= draws * 99 // 100


def test_the_verbatim_scan_matches_the_banks_own_check() -> None:
    corpus = load_corpus()
    for game in GAMES[:2]:
        rulebook = "\n".join(s.text for s in corpus.toc(game) if s.kind == "rulebook")
        haystack = f" {normalize(rulebook)} "
        choices = [it for it in bank().game(game).items if it.type == "choice"][:40]
        assert choices
        for item in choices:
            fast = [CHOICE_LETTERS[i] for i, o in enumerate(item.options) if f" {normalize(o)} " in haystack]
            assert fast == verbatim_options(item, rulebook), item.id
