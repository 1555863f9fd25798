"""The parametric items of every game: one template shape, entry items decided by the rulebook's own words
(or a printed card's), never by a ruling, prompts that never quote the rule that decides them, at least 40
acertijos per game, practice generators for every game, and a code layout with no file over 700 lines (no
function above cyclomatic complexity 25: ``tests/engine/test_complexity.py``, for engine/ and quizzes/).

The default run checks every template on a few seeds; the slow set checks 60 seeds per template.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import club_agentes.quizzes.generators  # noqa: F401  (registers every game's templates)
import pytest
from club_agentes.engine.core import Rng
from club_agentes.quizzes.acertijos import RIDDLE_SETS, Riddle, draw_riddle, solve
from club_agentes.quizzes.bank import MAX_QUOTED_RUN, Bank, form_problems, load_bank, longest_shared_run
from club_agentes.quizzes.model import GENERATORS, TEMPLATES, Item, Redraw, Template
from club_agentes.rules_corpus import GAME_IDS, load_corpus

from tests.quizzes.conftest import QUICK_SEEDS, made

QUIZZES = Path(__file__).resolve().parents[2] / "quizzes"
MAX_FILE_LINES = 700
MIN_ACERTIJOS = 40
MIN_ENTRY_QUESTIONS = 3
"""Enough to fill a paper's three question slots: templates a closed-book answerer got right went to practice."""
SLOW_SEEDS = range(60)
ENTRY = sorted(k for k, t in TEMPLATES.items() if t.on_entry)
PRACTICE = sorted(k for k, t in TEMPLATES.items() if not t.on_entry)
DECIDING_KINDS = frozenset({"rulebook", "component"})
"""Section kinds whose words may decide an entry item: the rulebook, and the printed cards (component data)."""


@cache
def bank() -> Bank:
    return load_bank()


@cache
def rulebook(game: str) -> str:
    return "\n".join(s.text for s in load_corpus().toc(game) if s.kind == "rulebook")


def test_every_generator_is_a_template_of_the_one_shape() -> None:
    assert set(GENERATORS) == set(TEMPLATES)
    for key, template in TEMPLATES.items():
        assert isinstance(template, Template) and key == f"{template.game}/{template.name}"
        gen = GENERATORS[key]
        assert (gen.entry, gen.ruling) == (template.on_entry, template.ruling)
        assert template.sections and template.kind in ("question", "riddle")


@pytest.mark.parametrize("game", GAME_IDS)
def test_each_game_has_entry_questions_riddles_and_practice_generators(game: str) -> None:
    kinds = Counter(t.kind for t in TEMPLATES.values() if t.game == game and t.on_entry)
    assert kinds["question"] >= MIN_ENTRY_QUESTIONS and kinds["riddle"] >= 1, kinds
    practice = [t for t in TEMPLATES.values() if t.game == game and not t.on_entry]
    assert len(practice) >= 3 and any(t.ruling for t in practice)


def test_ruling_templates_never_reach_an_entry_paper_and_say_which_ruling_decides() -> None:
    corpus = load_corpus()
    for key in PRACTICE:
        template = TEMPLATES[key]
        assert not GENERATORS[key].entry
        if not template.ruling:
            continue
        assert corpus.sections[template.ruling].kind == "ruling", key
        item = made(key, 0)
        assert item.ruling == template.ruling and template.ruling in item.sections
        assert template.ruling in item.explanation


def _check_entry_item(item: Item) -> None:
    corpus = load_corpus()
    kinds = {corpus.sections[s].kind for s in item.sections}
    assert not item.ruling and kinds <= DECIDING_KINDS, f"{item.id} cites {kinds}"
    for sid in item.sections:
        run = longest_shared_run(item.prompt, corpus.sections[sid].text)
        assert run <= MAX_QUOTED_RUN, f"{item.id} quotes {run} words of {sid}: {item.prompt}"
    vocabularies = bank().game(item.game).vocabularies
    assert form_problems(item, rulebook(item.game), vocabularies) == [], item.id


@pytest.mark.parametrize("key", ENTRY)
@pytest.mark.parametrize("seed", QUICK_SEEDS)
def test_entry_items_are_decided_by_the_rulebook_and_never_quote_it(key: str, seed: int) -> None:
    _check_entry_item(made(key, seed))


@pytest.mark.slow
@pytest.mark.parametrize("key", ENTRY)
def test_entry_items_are_decided_by_the_rulebook_and_never_quote_it_over_60_seeds(key: str) -> None:
    for seed in SLOW_SEEDS:
        _check_entry_item(made(key, seed))


@pytest.mark.parametrize("game", GAME_IDS)
def test_at_least_forty_acertijos_each_resolved_by_the_lines_it_cites(game: str) -> None:
    corpus = load_corpus()
    sets = {k: rs for k, rs in RIDDLE_SETS.items() if k.startswith(f"{game}/")}
    subjects = sum(len(rs.subjects) for rs in sets.values())
    assert subjects >= MIN_ACERTIJOS, f"{game} has {subjects} acertijos"
    for key, rs in sets.items():
        assert rs.unsolved() == [], key
        for subject in rs.subjects:
            assert corpus.has(rs.home[subject]), (key, subject)
        for clue in rs.clues:
            assert clue.text.endswith((".", "?", "!")) and clue.text[0].isupper(), clue.text
            assert all(corpus.has(s) for s in clue.sections), clue.text
            assert clue.flavour or clue.sections, clue.text


@pytest.mark.parametrize("key", sorted(RIDDLE_SETS))
def test_every_acertijo_is_solved_by_its_clues_alone(key: str) -> None:
    """Each drawn riddle fits its subject and no other; flavour lines are never what tells them apart."""
    rs = RIDDLE_SETS[key]
    seen = set()
    rng = Rng(5)
    for _ in range(300):
        try:
            riddle: Riddle = draw_riddle(rs, rng)
        except Redraw:
            continue
        assert solve(riddle) == riddle.subject
        rules = [c for c in riddle.clues if not c.flavour]
        fits = [s for s in rs.subjects if all(s in c.holds for c in rules)]
        assert fits == [riddle.subject], (key, riddle)
        seen.add(riddle.subject)
    assert len(seen) >= min(len(rs.subjects), 5)


def test_no_generator_file_is_over_700_lines() -> None:
    long = {
        str(p.relative_to(QUIZZES)): n
        for p in (QUIZZES / "generators").rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_FILE_LINES
    }
    assert long == {}
