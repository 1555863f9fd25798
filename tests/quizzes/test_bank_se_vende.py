"""What is specific to the Se Vende bank: its rule functions, its vocabularies and its generators.

The common checks (counts, coverage, support, grading, generator properties) are in
``test_bank_common.py`` and ``test_generators.py``; here the rule functions are held to
hand-computed cases from the rulebook, and generated items are re-derived from their
own prompts, independently of the functions that made them.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from club_agentes.engine.se_vende.cards import GOOD_NAMES, TRADE_PRICE
from club_agentes.quizzes.bank import Bank, load_bank
from club_agentes.quizzes.generators import se_vende as sv
from club_agentes.quizzes.grading import find_terms
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Item
from club_agentes.rules_corpus import load_corpus

GAME = "se-vende"
SEEDS = range(150)


@cache
def bank() -> Bank:
    return load_bank([GAME])


def item(item_id: str) -> Item:
    return bank().item(item_id)


def generated(name: str, seed: int) -> Item:
    return GENERATORS[f"{GAME}/{name}"].make(seed)


# --------------------------------------------------------------------------- rule functions


def test_trade_draw_follows_the_comercio_answer() -> None:
    # se-vende/preguntas/comercio: "5 por tecnología alienígena, 4 por genes, 3 por elementos raros o 2 por novedad"
    assert [sv.trade_draw(k) for k in ("tecnología alienígena", "genes", "elementos raros", "novedad")] == [5, 4, 3, 2]
    with pytest.raises(ValueError):
        sv.trade_draw("especias")


def test_trade_draw_agrees_with_the_engine_card_set() -> None:
    assert {GOOD_NAMES[k]: n for k, n in TRADE_PRICE.items()} == sv.TRADE_DRAW


def test_phases_run_once_each_in_order_one_to_five() -> None:
    assert sv.phases_run(["Producir", "Explorar", "Producir"]) == ("Explorar", "Producir")
    assert sv.phases_run([sv.COMERCIO, sv.DOUBLE_VP]) == ("Consumir",)
    assert sv.phases_run(["Producir", "Asentar", "Desarrollar", "Consumir", "Explorar"]) == sv.PHASES
    assert sv.first_phase_run([sv.COMERCIO, "Producir", "Asentar"]) == "Asentar"
    assert sv.phases_after_count(["Asentar", sv.COMERCIO, "Producir"], "Asentar") == 2
    assert sv.phases_after_count(["Desarrollar", "Explorar"], "Desarrollar") == 0
    with pytest.raises(ValueError):
        sv.phases_run(["Comerciar"])
    with pytest.raises(ValueError):
        sv.first_phase_run([])


def test_hand_limit_is_ten() -> None:
    assert [sv.hand_discard(n) for n in (0, 9, 10, 11, 13, 20)] == [0, 0, 0, 1, 3, 10]
    assert sv.hand_discard_after_trade(8, "tecnología alienígena") == 3
    assert sv.first_round_discard(7) == 1  # 6 dealt - 2 discarded + 7 drawn = 11
    with pytest.raises(ValueError):
        sv.hand_discard(-1)


def test_develop_choosers_discard_one_card_less_never_below_zero() -> None:
    assert sv.develop_payment(4, chose_develop=True) == 3
    assert sv.develop_payment(4, chose_develop=False) == 4
    assert sv.develop_payment(1, chose_develop=True) == 0
    assert sv.develop_payment(0, chose_develop=True) == 0


def test_military_needs_at_least_the_defence() -> None:
    assert sv.can_place_military(3, 3)
    assert sv.can_place_military(5, 3)
    assert not sv.can_place_military(2, 3)
    assert sv.military_shortfall(2, 5) == 3
    assert sv.military_shortfall(6, 5) == 0


def test_consume_powers_take_every_good_they_can_and_2x_pv_doubles_only_goods() -> None:
    assert sv.consume_power_use(3, 3) == 3  # "debes usar el poder para los tres"
    assert sv.consume_power_use(5, 3) == 3
    assert sv.consume_power_use(2, 3) == 2
    assert sv.consume_power_vp(3, 3, 1, double=False) == 3
    assert sv.consume_power_vp(3, 3, 1, double=True) == 6
    assert sv.consume_total_vp(4, 2, double=True) == 10  # hand-card points are not doubled
    assert sv.consume_total_vp(4, 2, double=False) == 6


def test_producir_fills_empty_production_worlds_and_the_chooser_one_windfall_world() -> None:
    assert sv.goods_produced(2, 2, chose_produce=True) == 3
    assert sv.goods_produced(2, 2, chose_produce=False) == 2
    assert sv.goods_produced(2, 0, chose_produce=True) == 2
    assert sv.goods_produced(0, 1, chose_produce=True) == 1


def test_setup_counts() -> None:
    assert sv.phase_count() == 5
    assert sv.start_hand_size() == 4
    assert [sv.start_worlds_shuffled_in(n) for n in (2, 3, 4)] == [3, 2, 1]
    with pytest.raises(ValueError):
        sv.start_worlds_shuffled_in(6)


def test_game_end_at_twelve_tableau_cards_or_the_last_chip() -> None:
    assert sv.game_ends([11, 12], last_chip_handed_out=False)
    assert not sv.game_ends([11, 11, 3], last_chip_handed_out=False)
    assert sv.game_ends([2, 3], last_chip_handed_out=True)


def test_explore_counts_follow_the_written_rulings() -> None:
    assert sv.explore_counts(None) == (2, 1)
    assert sv.explore_counts("Desarrollar") == (2, 1)
    assert sv.explore_counts("Explorar +5") == (7, 1)
    assert sv.explore_counts("Explorar +1/+1") == (3, 2)


# --------------------------------------------------------------------------- bank data


def test_the_riddle_of_four_cards_names_the_only_good_worth_four() -> None:
    riddle = item("se-vende/r/cuatro-cartas-exactas")
    worth_four = [k for k, n in sv.TRADE_DRAW.items() if n == 4]
    vocab = bank().vocabulary(riddle)
    assert vocab is not None
    assert find_terms(worth_four[0], vocab) == [riddle.answer]


def test_vocabularies_name_the_rulebook_phases_goods_and_the_published_action_cards() -> None:
    vocabularies = bank().game(GAME).vocabularies
    assert vocabularies["fases"].term_names == sv.PHASES
    goods = vocabularies["bienes"]
    assert sorted(find_terms(k, goods)[0] for k in sv.TRADE_DRAW) == sorted(goods.term_names)
    actions = vocabularies["cartas-de-accion"]
    named = [find_terms(card, actions) for card in sv.ACTION_CARDS]
    assert all(len(n) == 1 for n in named), named
    assert len({n[0] for n in named}) == 7
    published = load_corpus().get("se-vende/cartas/cartas-de-accion").text
    for card in sv.ACTION_CARDS:
        assert card in published, card


def test_term_synonyms_are_accepted() -> None:
    vocabularies = bank().game(GAME).vocabularies
    assert find_terms("Consumir: Comercio", vocabularies["cartas-de-accion"]) == ["Comercio"]
    assert find_terms("la fase de asentamiento", vocabularies["fases"]) == ["Asentar"]
    assert find_terms("elementos raros", vocabularies["bienes"]) == ["Elementos raros"]


# --------------------------------------------------------------------------- generators, re-derived from prompts


def test_trade_questions_on_named_cards_match_the_published_card() -> None:
    corpus = load_corpus()
    seen = set()
    for seed in SEEDS:
        it = generated("comercio-carta", seed)
        card_sections = [s for s in it.sections if s.startswith("se-vende/cartas/")]
        assert len(card_sections) == 1, it.sections
        text = corpus.get(card_sections[0]).text
        assert f"se vende por {it.answer} cartas" in text
        seen.add(card_sections[0])
    assert len(seen) > 5


def test_named_cards_never_carry_an_extra_draw_when_selling() -> None:
    corpus = load_corpus()
    for card in sv.engine_trade_cards():
        assert "al vender un bien" not in corpus.get(card.section).text, card.name


def test_hand_limit_items_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("limite-de-mano", seed)
        hand = int(re.search(r"tienes (\d+) cartas", it.prompt).group(1))
        expected = max(0, hand - 10) if "descartar" in it.prompt else min(hand, 10)
        assert it.answer == str(expected), it.prompt


def test_phase_counts_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("fases-ejecutadas", seed)
        choices = re.findall(r"elige ([^;.]+)", it.prompt)
        phases = {"Consumir" if c.startswith("Consumir") else c for c in choices}
        assert it.answer == str(len(phases)), it.prompt


def test_phase_order_rederived_from_their_prompts() -> None:
    order = ["Explorar", "Desarrollar", "Asentar", "Consumir", "Producir"]
    for seed in SEEDS:
        it = generated("orden-de-fases", seed)
        chosen = sorted(
            {"Consumir" if c.startswith("Consumir") else c for c in re.findall(r"elige ([^;.]+)", it.prompt)},
            key=order.index,
        )
        assert it.answer == (chosen[0] if "primero" in it.prompt else chosen[-1]), it.prompt


def test_development_payments_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("coste-de-desarrollo", seed)
        cost = int(re.search(r"costo (\d+)", it.prompt).group(1))
        chose = it.prompt.startswith("Tú elegiste Desarrollar")
        assert it.answer == str(max(0, cost - 1) if chose else cost), it.prompt


def test_military_choices_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("mundo-militar", seed)
        military = int(re.search(r"Militar total es (\d+)", it.prompt).group(1))
        defence = int(re.search(r"defensa (\d+)", it.prompt).group(1))
        chosen = it.options[CHOICE_LETTERS.index(it.answer)]
        assert chosen.startswith("Sí, y lo colocas gratis") == (military >= defence), it.prompt
        assert chosen.startswith("No, tu Militar") == (military < defence), it.prompt


def test_explore_items_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("explorar", seed)
        mine = re.search(r"(?:Elegiste|tú elegiste) ([^.;]+)\.", it.prompt).group(1)
        draw = 2 + {"Explorar +5": 5, "Explorar +1/+1": 1}.get(mine, 0)
        keep = 1 + (1 if mine == "Explorar +1/+1" else 0)
        assert it.answer == str(keep if "conservas" in it.prompt else draw), it.prompt


# --------------------------------------------------------------------------- unambiguous with this card set
# The engine's cards have develop-discount, windfall-production and consume powers; an item
# whose answer assumes none of them must say so, or a reader who knows the cards can doubt it.


def test_se_vende_preguntas_fase_elegida_por_varios_payments_rule_out_discount_powers() -> None:
    prompts = [item("se-vende/r/desarrollo-de-coste-4").prompt]
    prompts += [generated("coste-de-desarrollo", seed).prompt for seed in SEEDS]
    for prompt in prompts:
        assert "ninguna carta de tu tableau abarata los desarrollos" in prompt, prompt


def test_se_vende_preguntas_producir_counts_rule_out_produce_powers() -> None:
    prompts = [item("se-vende/r/producir-con-caida").prompt]
    prompts += [generated("producir", seed).prompt for seed in SEEDS]
    for prompt in prompts:
        assert "ninguna carta de tu tableau tiene poderes de Producir" in prompt, prompt


def test_se_vende_preguntas_bonus_2x_pv_points_are_given_before_doubling() -> None:
    prompts = [item("se-vende/r/2x-pv-y-mano").prompt]
    prompts += [generated("bonus-2x-pv", seed).prompt for seed in SEEDS]
    for prompt in prompts:
        assert "Sin contar ese bonus, tus poderes de consumir te dan" in prompt, prompt
