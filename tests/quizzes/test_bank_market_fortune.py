"""Market Fortune's bank: hand-written items, acertijos, vocabularies, and the entry generators' form and variety.

The generators' items are checked on a few seeds in the default run; over 80 seeds in the slow set, which also
holds each generator to 50 distinct prompts over 200 seeds.
``benchmarks/quiz_variety.py`` prints the 1,000-seed figures.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from club_agentes.engine.core import Rng
from club_agentes.quizzes.bank import form_problems, item_problems, support_problem
from club_agentes.quizzes.generators import market_fortune as mf
from club_agentes.quizzes.model import GENERATORS, Generator, Item
from club_agentes.rules_corpus import load_corpus

from tests.quizzes.conftest import QUICK_SEEDS, made, market_fortune_bank

GAME = "market-fortune"
RULEBOOK = (Path(__file__).resolve().parents[2] / "rules_corpus/data/market-fortune/rulebook.txt").read_text(
    encoding="utf-8"
)
MIN_VARIANTS = 50
SEEDS = 80  # per generator for the (costly) form checks in the slow set; the default run checks QUICK_SEEDS
VARIANT_SEEDS = 200  # per generator for the variety floor in the slow set (items are cheap: ~1 ms)
PAPER_DRAWS = 1000  # entry papers drawn by the slow variety test; 99 % must differ (10,000 in the benchmark)


def _bank():
    return market_fortune_bank().game(GAME)


def _generators(kind: str) -> list[Generator]:
    return sorted(
        (g for g in GENERATORS.values() if g.game == GAME and g.kind == kind and g.entry), key=lambda g: g.name
    )


# --------------------------------------------------------------------------- hand-written items


def test_hand_written_items_are_well_formed_supported_and_do_not_leak() -> None:
    bank = _bank()
    corpus = load_corpus()
    bad = []
    for item in bank.items:
        problems = item_problems(item, corpus, bank.vocabularies) + form_problems(item, RULEBOOK, bank.vocabularies)
        support = support_problem(item, corpus, bank.vocabularies)
        if problems or support:
            bad.append((item.id, problems, support))
    assert bad == []


def test_at_least_twenty_acertijos_each_citing_what_resolves_it() -> None:
    riddles = _bank().riddles
    assert len(riddles) >= 20
    for item in riddles:
        assert item.sections
        assert item.support or item.computed or item.type == "term" or item.type == "integer", item.id


def test_every_vocabulary_has_at_least_four_terms() -> None:
    for name, vocab in _bank().vocabularies.items():
        assert len(vocab.terms) >= 4, name


def test_rulebook_examples() -> None:
    # Chapter III: 3M + 2M = 5M; chapter V's table: 8M + 8M + 5M + 4M = 25M, a victory.
    assert mf.investment_value(3, 2) == 5
    assert mf.portfolio_total((5, 3), (4, 4), (3, 2), (2, 2)) == 25
    assert mf.wins_fortuna(8, 8, 5, 4)
    assert mf.least_fourth_value(8, 8, 5) == 4
    assert mf.building_cards_in_hand(2) == 4
    assert mf.least_games_to_match() == 3
    assert mf.strategy_names_count() == 27
    assert mf.die_faces() == 6


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (mf.investment_value, (0, 3)),
        (mf.least_fourth_value, (5, 5, 4)),
        (mf.building_cards_in_hand, (5,)),
        (mf.hand_after_risk, (4, "+")),
        (mf.who_leads, ({"Ana": 2, "Beto": 2},)),
        (mf.who_goes_last, ({"Ana": 0, "Beto": 0, "Carla": 2},)),
        (mf.first_player_after_rounds, ([{"Ana": "+", "Beto": "+"}],)),
        (mf.fourth_outcome, ("torneo", (5, 5, 5, 5))),
        (mf.hand_after_build, (3, 4)),
        (mf.pile_after_turns, (7, (), "$")),
        (mf.championship_after, (10, [mf.Inv(mf.Card("$", 0, 1), mf.Card("+R", 0, 1))])),
    ],
)
def test_situations_the_rules_do_not_allow_are_refused(fn: object, args: tuple[object, ...]) -> None:
    with pytest.raises(ValueError):
        fn(*args)  # type: ignore[operator]


# --------------------------------------------------------------------------- entry generators


def test_enough_entry_generators() -> None:
    assert len(_generators("question")) >= 25
    assert len(_generators("riddle")) >= 6
    for gen in _generators("riddle"):
        assert len(gen.sections) >= 2, f"{gen.name}: an entry riddle needs two rules at once"


def _items(name: str, seeds: range) -> list[Item]:
    return [made(f"{GAME}/{name}", seed) for seed in seeds]


@pytest.mark.parametrize("name", sorted(mf.SITUATIONS))
def test_generated_items_are_well_formed_and_do_not_leak(name: str) -> None:
    check_items(_items(name, QUICK_SEEDS))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(mf.SITUATIONS))
def test_generated_items_are_well_formed_and_do_not_leak_over_80_seeds(name: str) -> None:
    check_items(_items(name, range(SEEDS)))


def check_items(items: list[Item]) -> None:
    """Assert that each item is well formed and does not give its answer away by its form."""
    bank = _bank()
    corpus = load_corpus()
    for item in items:
        assert item_problems(item, corpus, bank.vocabularies) == [], item.prompt
        assert form_problems(item, RULEBOOK, bank.vocabularies) == [], item.prompt
        if item.type == "integer":
            assert "1 inversiones" not in item.prompt and "1 cartas" not in item.prompt, item.prompt


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(mf.SITUATIONS))
def test_each_generator_has_many_variants(name: str) -> None:
    prompts = {item.prompt for item in _items(name, range(VARIANT_SEEDS))}
    assert len(prompts) >= MIN_VARIANTS, f"{name}: {len(prompts)} distinct prompts in {VARIANT_SEEDS} seeds"


def test_situations_are_the_items_situations() -> None:
    # The tests rebuild a generator's situation from the same seed: drawing must consume the Rng first.
    for name, draw in mf.SITUATIONS.items():
        assert draw(Rng(7)) == draw(Rng(7)), name


@pytest.mark.slow
def test_distinct_entry_papers() -> None:
    """At least 990 distinct entry papers (three questions, one riddle) in 1,000 draws.

    The per-generator variety is held by ``test_each_generator_has_many_variants``;
    ``benchmarks/quiz_variety.py`` prints both figures at full size (1,000 seeds per generator; 10,000 draws).
    """
    questions, riddles = _generators("question"), _generators("riddle")
    rng = Rng(2024)
    papers = set()
    for _ in range(PAPER_DRAWS):
        picked = rng.sample_below(len(questions), 3)
        q = tuple(sorted(questions[i].make(rng.below(1 << 62)).prompt for i in picked))
        r = riddles[rng.below(len(riddles))].make(rng.below(1 << 62)).prompt
        papers.add((q, r))
    print(f"distinct entry papers in {PAPER_DRAWS} draws: {len(papers)}")
    assert len(papers) >= PAPER_DRAWS * 99 // 100
