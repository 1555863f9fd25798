"""Properties of every registered generator of every game, over random seeds.

For each seed the item is well formed, deterministic, rebuilt from its id, cites only the
sections its generator declares, and has exactly one right answer that the grader accepts
(every other option, term or number is refused). The default run draws a few seeds per
generator; the slow set draws 60 (20 for Se Vende's, whose every item replays a real game: ~10 ms,
made three times per seed).
"""

from __future__ import annotations

from functools import cache

import club_agentes.quizzes.generators  # noqa: F401  (registers every game's generators)
import pytest
from club_agentes.quizzes.bank import Bank, item_problems, load_bank
from club_agentes.quizzes.grading import Vocabulary, display_answer, grade
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Generator
from club_agentes.rules_corpus import GAME_IDS, load_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
GENERATOR_KEYS = sorted(GENERATORS)
REPLAYING_KEYS = [k for k in GENERATOR_KEYS if GENERATORS[k].game == "se-vende"]
OTHER_KEYS = [k for k in GENERATOR_KEYS if k not in REPLAYING_KEYS]
QUICK_EXAMPLES = 3  # random seeds per generator in the default run (each made three times: ~20 ms each in Se Vende)
FULL_EXAMPLES = 60
REPLAYING_EXAMPLES = 20  # random seeds per Se Vende generator in the slow set


@cache
def bank_of(game: str) -> Bank:
    return load_bank([game])


def test_every_game_has_question_and_riddle_generators() -> None:
    for game in GAME_IDS:
        kinds = {g.kind for g in GENERATORS.values() if g.game == game}
        assert kinds == {"question", "riddle"}, f"{game} has generators of kinds {sorted(kinds)}"


def test_generators_declare_existing_sections() -> None:
    corpus = load_corpus()
    for key, gen in GENERATORS.items():
        assert gen.sections, key
        for sid in gen.sections:
            assert corpus.has(sid) and corpus.sections[sid].game == gen.game, (key, sid)


@pytest.mark.parametrize("key", GENERATOR_KEYS)
@settings(max_examples=QUICK_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_generated_items_are_well_formed_and_have_one_right_answer(key: str, seed: int) -> None:
    check_item(key, seed)


@pytest.mark.slow
@pytest.mark.parametrize("key", OTHER_KEYS)
@settings(max_examples=FULL_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_generated_items_are_well_formed_and_have_one_right_answer_over_many_seeds(key: str, seed: int) -> None:
    """Over 60 random seeds per generator (Se Vende's in the test below)."""
    check_item(key, seed)


@pytest.mark.slow
@pytest.mark.parametrize("key", REPLAYING_KEYS)
@settings(max_examples=REPLAYING_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_replaying_generators_are_well_formed_and_have_one_right_answer_over_20_seeds(key: str, seed: int) -> None:
    """Over 20 random seeds per Se Vende generator (each item replays a real game)."""
    check_item(key, seed)


def check_item(key: str, seed: int) -> None:
    """Assert that the item generator ``key`` makes from ``seed`` is well formed and has one right answer."""
    gen: Generator = GENERATORS[key]
    bank = bank_of(gen.game)
    vocabularies = bank.game(gen.game).vocabularies
    item = gen.make(seed)

    assert item.id == f"{gen.game}/gen/{gen.name}/{seed}"
    assert item.parametric
    assert (item.game, item.kind) == (gen.game, gen.kind)
    assert item_problems(item, load_corpus(), vocabularies) == []
    assert set(item.sections) & set(gen.sections), f"{key} cites {item.sections}, declares {gen.sections}"
    assert gen.make(seed) == item, "the same seed must make the same item"
    assert bank.item(item.id) == item, "a parametric item must be rebuilt from its id"

    vocab: Vocabulary | None = bank.vocabulary(item)
    assert grade(item, item.answer, vocab).correct
    assert grade(item, display_answer(item), vocab).correct
    if item.type == "choice":
        right = [letter for letter in CHOICE_LETTERS if grade(item, letter, vocab).correct]
        assert right == [item.answer]
        by_text = [i for i, text in enumerate(item.options) if grade(item, text, vocab).correct]
        assert by_text == [CHOICE_LETTERS.index(item.answer)]
    elif item.type == "term":
        assert vocab is not None
        right_terms = [t for t in vocab.term_names if grade(item, t, vocab).correct]
        assert right_terms == [item.answer]
    else:
        n = int(item.answer)
        assert not grade(item, str(n + 1), vocab).correct
        if n > 0:
            assert not grade(item, str(n - 1), vocab).correct
        assert not grade(item, f"{n} o {n + 1}", vocab).correct
