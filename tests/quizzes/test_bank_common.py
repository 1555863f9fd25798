"""Checks every game's hand-written bank: loads, counts, coverage of the rulebook, support of each answer."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from club_agentes.quizzes.bank import (
    Bank,
    GameBank,
    computed_agrees,
    computed_value,
    item_problems,
    load_bank,
    support_problem,
)
from club_agentes.quizzes.grading import display_answer, grade
from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from club_agentes.rules_corpus import GAME_IDS, load_corpus

MIN_QUESTIONS = 60
MIN_RIDDLES = 10


@cache
def bank_of(game: str) -> Bank:
    """Load one game's bank on its own, so that one game's faulty data does not hide another's results."""
    return load_bank([game])


@pytest.fixture
def bank(game: str) -> Bank:
    return bank_of(game)


def game_bank(bank: Bank, game: str) -> GameBank:
    return bank.game(game)


@pytest.mark.parametrize("game", GAME_IDS)
def test_counts(bank: Bank, game: str) -> None:
    gb = game_bank(bank, game)
    assert len(gb.questions) >= MIN_QUESTIONS, f"{game} has {len(gb.questions)} hand-written questions"
    assert len(gb.riddles) >= MIN_RIDDLES, f"{game} has {len(gb.riddles)} hand-written riddles"


@pytest.mark.parametrize("game", GAME_IDS)
def test_answer_types_are_mixed(bank: Bank, game: str) -> None:
    types = {it.type for it in game_bank(bank, game).questions}
    assert types == {"integer", "choice", "term"}


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_rule_section_is_cited_by_a_question(bank: Bank, game: str) -> None:
    gb = game_bank(bank, game)
    corpus = load_corpus()
    cited = {s for it in gb.questions for s in it.sections}
    missing = [
        s.id
        for s in corpus.toc(game)
        if s.kind == "rulebook" and s.text.strip() and s.id not in gb.uncovered and s.id not in cited
    ]
    assert not missing, f"rulebook sections of {game} with rule content and no question: {missing}"


@pytest.mark.parametrize("game", GAME_IDS)
def test_coverage_exemptions_are_not_quizzed_sections(bank: Bank, game: str) -> None:
    """A section listed as having no rule content should not be the only citation of a question."""
    gb = game_bank(bank, game)
    only_exempt = [it.id for it in gb.items if set(it.sections) <= set(gb.uncovered)]
    assert not only_exempt, f"items citing only sections listed in coverage.toml: {only_exempt}"


@pytest.mark.parametrize("game", GAME_IDS)
def test_items_are_well_formed(bank: Bank, game: str) -> None:
    gb = game_bank(bank, game)
    corpus = load_corpus()
    problems = {it.id: item_problems(it, corpus, gb.vocabularies) for it in gb.items}
    assert not {k: v for k, v in problems.items() if v}


@pytest.mark.parametrize("game", GAME_IDS)
def test_each_answer_is_supported_by_its_cited_sections(bank: Bank, game: str) -> None:
    gb = game_bank(bank, game)
    corpus = load_corpus()
    unsupported = {it.id: support_problem(it, corpus, gb.vocabularies) for it in gb.items}
    assert not {k: v for k, v in unsupported.items() if v}


@pytest.mark.parametrize("game", GAME_IDS)
def test_computed_answers_come_from_their_functions(bank: Bank, game: str) -> None:
    wrong = []
    for it in game_bank(bank, game).items:
        if it.computed:
            value = computed_value(it.computed)
            if not computed_agrees(it, value):
                wrong.append((it.id, it.computed, value, it.answer))
    assert not wrong


def other_answers(item: Item, bank: Bank) -> list[str]:
    """Answers that must grade wrong: the other letters, the other terms, a different number."""
    if item.type == "choice":
        return [c for c in CHOICE_LETTERS if c != item.answer]
    if item.type == "term":
        vocab = bank.vocabulary(item)
        assert vocab is not None
        return [t for t in vocab.term_names if t != item.answer]
    return [str(int(item.answer) + 1)]


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_grader_accepts_each_canonical_answer_and_refuses_the_others(bank: Bank, game: str) -> None:
    for it in game_bank(bank, game).items:
        vocab = bank.vocabulary(it)
        assert grade(it, it.answer, vocab).correct, it.id
        assert grade(it, display_answer(it), vocab).correct, it.id
        if it.type == "choice":
            assert grade(it, it.options[CHOICE_LETTERS.index(it.answer)], vocab).correct, it.id
        for other in other_answers(it, bank):
            assert not grade(it, other, vocab).correct, (it.id, other)


@pytest.mark.parametrize("game", GAME_IDS)
def test_choice_options_are_distinct_from_one_another_once_normalised(bank: Bank, game: str) -> None:
    for it in game_bank(bank, game).items:
        if it.type == "choice":
            for i, opt in enumerate(it.options):
                assert not grade(it, opt).correct or CHOICE_LETTERS[i] == it.answer, (it.id, opt)


def test_item_ids_are_unique_across_games() -> None:
    ids = [it.id for game in GAME_IDS for it in bank_of(game).game(game).items]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("game", GAME_IDS)
def test_item_ids_name_their_game(bank: Bank, game: str) -> None:
    for it in game_bank(bank, game).items:
        assert it.game == game
        assert it.id.startswith(f"{game}/{'q' if it.kind == 'question' else 'r'}/")


@pytest.mark.parametrize("game", GAME_IDS)
def test_integer_answers_are_whole_numbers(bank: Bank, game: str) -> None:
    for it in game_bank(bank, game).items:
        if it.type == "integer":
            assert Fraction(it.answer).denominator == 1
            assert it.answer == str(int(it.answer))
