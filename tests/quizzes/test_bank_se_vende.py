"""Se Vende's bank: rule functions, vocabularies, hand-written items and acertijos, and the entry generators.

Every generator draws its situation from a real game and takes its answer from the engine; here
each one is held to the same answer computed from the prompt's facts by the rule functions of
``quizzes/generators/se_vende/rules.py`` and to well-formed items that do not give their answer
away by form: on a few seeds in the default run, and over 40 seeds, with at least 30 different
prompts among them, in the slow set. A slow test also requires 198 distinct entry papers in 200
draws. The full-size figures (1,000 seeds per generator, 10,000 paper draws) are printed by
``benchmarks/quiz_variety.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from pathlib import Path

import pytest
from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.actions import ACTION_NAMES
from club_agentes.engine.se_vende.cards import GOOD_NAMES, TRADE_PRICE, load_designs
from club_agentes.quizzes import bank as bank_module
from club_agentes.quizzes import grading
from club_agentes.quizzes.bank import Bank, form_problems, item_problems, load_bank, support_problem
from club_agentes.quizzes.generators import se_vende as sv
from club_agentes.quizzes.generators.se_vende import cases as cases_module
from club_agentes.quizzes.generators.se_vende import rules
from club_agentes.quizzes.generators.se_vende.cases import Case
from club_agentes.quizzes.generators.se_vende.table import Table, at_choice, choose_all
from club_agentes.quizzes.grading import find_terms
from club_agentes.quizzes.model import GENERATORS, Generator
from club_agentes.rules_corpus import load_corpus

from tests.quizzes.conftest import QUICK_SEEDS, made

GAME = "se-vende"
RULEBOOK = (Path(__file__).resolve().parents[2] / "rules_corpus/data/se-vende/rulebook.txt").read_text(encoding="utf-8")
SEEDS = 40  # per generator in the slow set; the default run checks QUICK_SEEDS
MIN_VARIANTS = 30  # distinct prompts in 40 seeds: a generator of 50 equally likely prompts shows ~27.5, of 150 ~35
PAPER_DRAWS = 200  # entry papers drawn by the slow test (~10 ms an item); 99 % must differ (10,000 in the benchmark)


@pytest.fixture(autouse=True)
def _cached_grading(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # form_problems grades each prompt as an answer, which the generators' own screen (cases.gives_away) has
    # often graded already: caches keep the 40-seed tests fast.
    monkeypatch.setattr(grading, "normalize", lru_cache(maxsize=8192)(grading.normalize))
    graded = lru_cache(maxsize=4096)(grading.grade)
    monkeypatch.setattr(bank_module, "grade", graded)
    monkeypatch.setattr(cases_module, "grade", graded)
    yield


@cache
def bank() -> Bank:
    return load_bank([GAME])


@cache
def case(name: str, seed: int) -> Case:
    """The case the generator ``name`` draws from ``seed`` (a real game replayed: drawn once per process)."""
    return sv.draw(Rng(seed), sv.CASES[name])


def _entry(kind: str) -> list[Generator]:
    gens = (g for g in GENERATORS.values() if g.game == GAME and g.kind == kind and g.entry)
    return sorted(gens, key=lambda g: g.name)


# --------------------------------------------------------------------------- rule functions


def test_trade_draw_follows_the_comercio_answer() -> None:
    # se-vende/preguntas/comercio: "5 por tecnología alienígena, 4 por genes, 3 por elementos raros o 2 por novedad"
    assert [rules.trade_draw(k) for k in ("tecnología alienígena", "genes", "elementos raros", "novedad")] == [
        5,
        4,
        3,
        2,
    ]
    assert {GOOD_NAMES[k]: rules.trade_draw(k) for k in TRADE_PRICE} == {
        GOOD_NAMES[k]: v for k, v in TRADE_PRICE.items()
    }
    archivo = next(d for d in load_designs() if d.key == "archivo-kepler")  # "al vender un bien, roba 1 carta más"
    assert rules.trade_draw("genes", [archivo]) == 5
    assert rules.kinds_for_draw(5, [archivo]) == ["genes"]


def test_phases_run_once_each_in_order_one_to_five() -> None:
    assert rules.phases_run(["Producir", "Explorar", "Producir"]) == ("Explorar", "Producir")
    assert rules.phases_run(["Consumir: Comercio", "Consumir: 2x PV"]) == ("Consumir",)
    assert rules.phases_run(["producir", "asentar", "desarrollar", "comercio", "explorar-5"]) == rules.PHASES
    assert rules.first_phase_run(["Consumir: Comercio", "Producir", "Asentar"]) == "Asentar"
    assert rules.phases_after_count(["Asentar", "Consumir: Comercio", "Producir"], "Asentar") == 2
    assert rules.phases_after_count(["Desarrollar", "Explorar"], "Desarrollar") == 0
    assert rules.phase_count() == 5


def test_hand_limit_is_ten_and_setup_leaves_four() -> None:
    assert [rules.hand_discard(n) for n in (0, 9, 10, 11, 13, 20)] == [0, 0, 0, 1, 3, 10]
    assert rules.hand_discard_after_trade(8, "tecnología alienígena") == 3
    assert rules.start_hand_size() == 4
    assert rules.first_round_discard(7) == 1  # 6 dealt - 2 discarded + 7 drawn = 11


def test_placing_rules() -> None:
    assert rules.develop_payment(4, chose_develop=True) == 3
    assert rules.develop_payment(4, chose_develop=False) == 4
    assert rules.develop_payment(1, chose_develop=True) == 0
    assert rules.can_place_military(3, 3) and not rules.can_place_military(2, 3)
    assert rules.military_shortfall(2, 5) == 3 and rules.military_shortfall(6, 5) == 0
    designs = {d.key: d for d in load_designs()}
    military = next(d for d in designs.values() if d.military)
    assert rules.settle_payment(military) == 0  # "No se pagan con cartas"
    assert rules.goods_after_settling(1, next(d for d in designs.values() if d.world == "windfall")) == 2
    assert rules.goods_after_settling(1, next(d for d in designs.values() if d.world == "production")) == 1


def test_consume_powers_take_every_good_they_can_and_2x_pv_doubles_only_goods() -> None:
    assert rules.consume_power_use(3, 3) == 3  # "debes usar el poder para los tres"
    assert rules.consume_power_use(5, 3) == 3
    assert rules.consume_power_vp(3, 3, 1, double=True) == 6
    assert rules.consume_total_vp(4, 2, double=True) == 10  # hand-card points are not doubled
    assert rules.consume_hand_vp(2, 1) == 1


def test_producir_fills_empty_production_worlds_and_the_chooser_one_windfall_world() -> None:
    assert rules.goods_produced(2, 2, chose_produce=True) == 3
    assert rules.goods_produced(2, 2, chose_produce=False) == 2
    assert rules.goods_produced(0, 1, chose_produce=True) == 1
    assert rules.windfall_goods(["any", "genes"], ["genes", "novedad"]) == 2
    assert rules.windfall_goods(["genes"], ["novedad"]) == 0


def test_the_end_the_chips_and_the_score() -> None:
    assert rules.game_ends([11, 12], last_chip_handed_out=False)
    assert not rules.game_ends([11, 11, 3], last_chip_handed_out=False)
    assert rules.game_ends([2, 3], last_chip_handed_out=True)
    assert rules.chips_in_pool(3, [4, 0, 7]) == 25
    assert rules.pool_after_award(5, 3, tens_added=False) == (2, False)
    assert rules.pool_after_award(5, 8, tens_added=False) == (37, True)  # the four 10s join, change is made
    assert rules.winners([7, 9, 9]) == (1, 2)
    assert rules.supply_after_setup(2, alfa_dealt=True, total=101) == 101 - 2 - 12 - 1


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (rules.trade_draw, ("especias",)),
        (rules.phases_run, (["Comerciar"],)),
        (rules.first_phase_run, ([],)),
        (rules.hand_discard, (-1,)),
        (rules.start_worlds_shuffled_in, (6,)),
        (rules.develop_payment, (-1, True)),
        (rules.military_shortfall, (-1, 2)),
        (rules.consume_power_use, (2, 0)),
        (rules.chips_in_pool, (2, [30])),
        (rules.game_ends, ([-1], False)),
    ],
)
def test_situations_the_rules_do_not_allow_are_refused(fn: object, args: tuple[object, ...]) -> None:
    with pytest.raises(ValueError):
        fn(*args)  # type: ignore[operator]


def test_explore_numbers_are_the_engines() -> None:
    """The draws and keeps of Explorar, and each Explorar card's bonus, played in a real first round."""
    checked = set()
    for seed in range(12):
        table = Table.deal(3, Rng(seed))
        table.advance(at_choice)
        actions = {0: "explorar-5", 1: "explorar-1-1", 2: ("desarrollar", "producir", "2x-pv")[seed % 3]}
        starts = {s: table.tableau_cards(s) for s in range(3)}
        choose_all(table, actions)
        for seat in range(3):
            mine = table.mine(seat)
            if "drawn" in mine:
                got = (len(mine["drawn"]), int(mine["keep_left"]))
                assert got == rules.explore_counts(actions[seat], starts[seat]), (seed, seat, actions[seat])
                checked.add(actions[seat])
    assert {"explorar-5", "explorar-1-1"} <= checked


def test_action_card_bonuses_are_the_engines() -> None:
    """Desarrollar's card less, Asentar's card drawn and 2x PV's doubling, each met in real play and agreed on."""
    check_action_card_bonuses(QUICK_SEEDS)


@pytest.mark.slow
def test_action_card_bonuses_are_the_engines_over_forty_seeds() -> None:
    check_action_card_bonuses(range(40))


def check_action_card_bonuses(seeds: range) -> None:
    """Assert that over ``seeds`` the engine and the rules agree on three bonus cases, each bonus met at least once."""
    met = set()
    for name, mark in (
        ("coste-de-desarrollo", "eligió Desarrollar y descarta una carta menos"),
        ("robo-tras-asentar", "eligió Asentar y roba 1 carta como bonus"),
        ("consumir-con-2x", "eligió 2x PV, que duplica"),
    ):
        for seed in seeds:
            drawn = case(name, seed)
            assert drawn.engine == drawn.rule, (name, seed, drawn.item.prompt)
            if mark in drawn.item.explanation:
                met.add(name)
    assert met == {"coste-de-desarrollo", "robo-tras-asentar", "consumir-con-2x"}
    assert (rules.DEVELOP_BONUS, rules.SETTLE_BONUS, rules.DOUBLE) == (1, 1, 2)


# --------------------------------------------------------------------------- vocabularies and hand-written items


def test_every_vocabulary_has_at_least_four_terms() -> None:
    for name, vocab in bank().game(GAME).vocabularies.items():
        assert len(vocab.terms) >= 4, name


def test_vocabularies_name_the_engines_phases_goods_and_action_cards() -> None:
    vocabularies = bank().game(GAME).vocabularies
    assert vocabularies["fases"].term_names == rules.PHASES
    goods = vocabularies["bienes"]
    assert sorted(find_terms(GOOD_NAMES[k], goods)[0] for k in TRADE_PRICE) == sorted(goods.term_names)
    actions = vocabularies["cartas-de-accion"]
    named = [find_terms(name, actions) for name in ACTION_NAMES.values()]
    assert all(len(n) == 1 for n in named), named
    assert len({n[0] for n in named}) == len(ACTION_NAMES) == 7
    assert find_terms("Consumir: Comercio", actions) == ["Comercio"]
    assert find_terms("la fase de asentamiento", vocabularies["fases"]) == ["Asentar"]


def test_hand_written_items_are_well_formed_supported_and_do_not_leak() -> None:
    gb = bank().game(GAME)
    corpus = load_corpus()
    bad = []
    for it in gb.items:
        problems = item_problems(it, corpus, gb.vocabularies) + form_problems(it, RULEBOOK, gb.vocabularies)
        support = support_problem(it, corpus, gb.vocabularies)
        if problems or support:
            bad.append((it.id, problems, support))
    assert bad == []


def test_at_least_twenty_acertijos_each_citing_the_line_that_resolves_it() -> None:
    riddles = bank().game(GAME).riddles
    assert len(riddles) >= 20
    for it in riddles:
        assert it.sections, it.id
        # A term or choice riddle quotes its line (support) or computes its answer; an integer's number is in the text.
        assert it.support or it.computed or it.type == "integer", it.id


# --------------------------------------------------------------------------- entry generators


def test_enough_entry_generators() -> None:
    questions, riddles = _entry("question"), _entry("riddle")
    assert len(questions) >= 25, [g.name for g in questions]
    assert len(riddles) >= 6, [g.name for g in riddles]
    for gen in riddles:
        assert len(gen.sections) >= 2, f"{gen.name}: an entry riddle needs two rules at once"
    assert {g.name for g in questions + riddles} == set(sv.CASES)


@pytest.mark.parametrize("name", sorted(sv.CASES))
def test_generated_items_agree_with_the_engine_are_well_formed_and_do_not_leak(name: str) -> None:
    """On a few seeds: the engine's answer is the rules' answer, and items are well formed."""
    check_generator(name, QUICK_SEEDS, remade=QUICK_SEEDS[:1])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(sv.CASES))
def test_generated_items_agree_with_the_engine_are_well_formed_do_not_leak_and_vary(name: str) -> None:
    """Over 40 seeds: the engine's answer is the rules' answer, items are well formed, and 30 prompts differ."""
    prompts = check_generator(name, range(SEEDS), remade=range(3))
    assert len(prompts) >= MIN_VARIANTS, f"{name}: {len(prompts)} distinct prompts in {SEEDS} seeds"


def check_generator(name: str, seeds: range, remade: range) -> set[str]:
    """Assert that each seed's case agrees with the rules and makes a well-formed item that does not leak.

    For the ``remade`` seeds the registered generator must make the case's item. Returns the distinct prompts.
    """
    gen = GENERATORS[f"{GAME}/{name}"]
    gb = bank().game(GAME)
    corpus = load_corpus()
    prompts = set()
    for seed in seeds:
        drawn = case(name, seed)
        it = drawn.item
        assert drawn.engine == drawn.rule, f"seed {seed}: the engine says {drawn.engine!r}, the rules {drawn.rule!r}"
        assert item_problems(it, corpus, gb.vocabularies) == [], it.prompt
        assert form_problems(it, RULEBOOK, gb.vocabularies) == [], it.prompt
        assert set(it.sections) <= set(gen.sections), it.sections
        assert " 1 cartas" not in it.prompt and " 1 bienes" not in it.prompt, it.prompt
        if seed in remade:
            again = made(f"{GAME}/{name}", seed)
            assert (again.prompt, again.answer) == (it.prompt, it.answer), "the generator must make the case's item"
        prompts.add(it.prompt)
    return prompts


@pytest.mark.slow
def test_distinct_entry_papers() -> None:
    """At least 198 distinct entry papers (three questions, one riddle) in 200 draws.

    The per-generator variety is held by the 40-seed test above; ``benchmarks/quiz_variety.py`` prints
    both figures at full size (1,000 seeds per generator, at least 150 prompts each; 10,000 draws).
    """
    questions, riddles = _entry("question"), _entry("riddle")
    rng = Rng(2024)
    papers = set()
    for _ in range(PAPER_DRAWS):
        picked: list[int] = []
        while len(picked) < 3:
            i = rng.below(len(questions))
            if i not in picked:
                picked.append(i)
        q = tuple(sorted(questions[i].make(rng.below(1 << 62)).prompt for i in picked))
        r = riddles[rng.below(len(riddles))].make(rng.below(1 << 62)).prompt
        papers.add((q, r))
    print(f"distinct entry papers in {PAPER_DRAWS} draws: {len(papers)}")
    assert len(papers) >= PAPER_DRAWS * 99 // 100
