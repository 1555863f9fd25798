"""What is specific to the Yo soy el jefe bank: its rule functions, the worked example, its generators.

The common checks (counts, coverage, support, grading, generator properties) are in
``test_bank_common.py`` and ``test_generators.py``; here the rule functions are held to
the numbers the rulebook states (the payment example of 3-3, the worked example of
section 6, the end-die example of section 4), the engine's deal cards are held to the
same facts, and generated items are re-derived from their own prompts.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from club_agentes.quizzes.bank import Bank, load_bank
from club_agentes.quizzes.generators import yo_soy_el_jefe as ys
from club_agentes.quizzes.grading import find_terms
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Item
from club_agentes.rules_corpus import load_corpus

GAME = "yo-soy-el-jefe"
SEEDS = range(150)


@cache
def bank() -> Bank:
    return load_bank([GAME])


def item(item_id: str) -> Item:
    return bank().item(item_id)


def generated(name: str, seed: int) -> Item:
    return GENERATORS[f"{GAME}/{name}"].make(seed)


# --------------------------------------------------------------------------- the rulebook's numbers


def test_dividend_values_stated_by_the_rulebook() -> None:
    assert ys.dividend_value(6) == 3  # 3-3-cierre/pago/ejemplo
    assert ys.dividend_value(13) == 5  # 6-ejemplos
    with pytest.raises(ValueError):
        ys.dividend_value(16)


def test_payment_example_of_section_3_3() -> None:
    assert ys.banker_payout(6, 4) == 12
    assert item("yo-soy-el-jefe/q/ejemplo-de-pago").answer == "12"


def test_worked_example_of_section_6() -> None:
    assert ys.banker_payout(13, 6) == 30  # "hay un total de $30M en dividendos"
    assert ys.boss_keeps(13, 6, [8]) == 22  # "tú ganarías $22M"
    assert ys.boss_keeps(13, 6, [10, 10]) == 10  # "Los 10 millones de dólares restantes pertenecen a Jaeyoung"
    assert item("yo-soy-el-jefe/q/ejemplo-lo-que-se-queda-jaeyoung").answer == "10"
    assert item("yo-soy-el-jefe/r/trece-seis-dividendos").answer == "10"
    assert item("yo-soy-el-jefe/r/si-hubiera-sido-shinyoung").answer == "12"
    # Jeonghoon, Jaeyoung, Shinyoung, Seonju in seat order: Jeonghoon's turn, Jaeyoung the last boss;
    # "Shinyoung, a la izquierda de Jaeyoung, tomará el siguiente giro".
    assert ys.next_turn_seat(4, 1, 2) == 3


def test_promises_cannot_exceed_the_dividends() -> None:
    with pytest.raises(ValueError):
        ys.boss_keeps(13, 6, [20, 11])
    with pytest.raises(ValueError):
        ys.boss_keeps(13, 6, [-1])


def test_end_die_facts_of_the_rulebook() -> None:
    for deal in range(1, 10):
        assert not ys.die_rolled_after(deal)
        assert ys.end_outcome(deal, 1) == ys.NO_ROLL_CONTINUES
    assert ys.die_rolled_after(10)
    assert [ys.roll_ends_game(11, r) for r in range(1, 7)] == [True, True, False, False, False, False]
    assert not ys.roll_ends_game(13, 5)  # 6-ejemplos/fin-del-ejemplo: a 5 does not end it
    assert ys.end_outcome(13, 5) == ys.ROLL_CONTINUES
    assert ys.end_outcome(11, 2) == ys.ROLL_ENDS
    assert ys.end_outcome(15) == ys.ENDS_WITHOUT_ROLL
    with pytest.raises(ValueError):
        ys.end_outcome(12)  # a roll is needed after the 12th deal
    with pytest.raises(ValueError):
        ys.roll_ends_game(7, 1)


def test_deal_cards_in_use_agree_with_the_rulebook() -> None:
    """With the engine's deal cards, all 15 are known and keep the stated facts; without, only the stated ones."""
    deals = ys.known_dividend_deals()
    if ys.uses_engine_deal_cards():
        assert deals == tuple(range(1, ys.DEALS + 1))
        values = [ys.dividend_value(d) for d in deals]
        assert values == sorted(values)  # "El monto del dividendo aumenta a medida que avanza el juego"
        assert {ys.engine_ending_rolls(d) for d in range(1, ys.FIRST_DIE_DEAL)} == {frozenset()}
        assert ys.engine_ending_rolls(11) == frozenset({1, 2})
        assert 5 not in (ys.engine_ending_rolls(13) or frozenset())
    else:
        assert deals == (6, 13)
        with pytest.raises(LookupError):
            ys.dividend_value(7)
        with pytest.raises(LookupError):
            ys.roll_ends_game(12, 3)
    cases = ys.known_end_cases()
    assert (11, 1) in cases and (13, 5) in cases and (15, None) in cases
    assert all(ys.end_outcome(d, r if r is not None else 1) in ys.END_OUTCOMES for d, r in cases)


def test_investor_cards_follow_the_ruling() -> None:
    assert [ys.investor_cards_each(n) for n in (2, 3, 4, 5, 6)] == [3, 2, 1, 1, 1]
    assert [ys.investor_cards_beside_board(n) for n in (2, 3, 4, 5, 6)] == [0, 0, 2, 1, 0]
    with pytest.raises(ValueError):
        ys.investor_cards_each(7)


def test_variant_draws_and_hand_limits() -> None:
    assert [ys.variant_draw(n) for n in range(6)] == [4, 3, 2, 1, 1, 1]
    assert ys.hand_discard(11) == 2
    assert ys.hand_discard(12) == 3
    assert ys.hand_discard(11, 3, 1) == 0  # three hire cards played before discarding
    assert ys.hand_discard(9, 3, 0, limit=10) == 2  # variant: 10 from the tenth deal
    assert ys.variant_draw_discard(10, 0) == 2
    with pytest.raises(ValueError):
        ys.hand_discard(1, 0, 1)


def test_two_player_payment() -> None:
    assert ys.two_player_payment(30, 5, 2) == 12
    assert ys.two_player_payment_for_deal(13, 6, 5, 2) == 12
    with pytest.raises(ValueError):
        ys.two_player_payment(12, 5, 1)


def test_marker_moves_clockwise_skipping_covered_spaces() -> None:
    assert ys.marker_destination(14, 4, [15, 2]) == 4
    assert ys.marker_destination(16, 1, []) == 1
    assert ys.marker_destination(3, 6, []) == 9
    for position in range(1, 17):
        for roll in range(1, 7):
            covered = [s for s in (position + 1, position + 3) if s <= 16]
            assert ys.marker_destination(position, roll, covered) not in covered
    assert ys.next_empty_space(16, [16, 1, 2]) == 3
    with pytest.raises(ValueError):
        ys.marker_destination(1, 7, [])


def test_turn_after_boss_cards() -> None:
    assert ys.next_turn_seat(5, 2, 4) == 5
    assert ys.next_turn_seat(5, 2, 4, same_turn_variant=True) == 3
    assert ys.next_turn_seat(5, 5, 5) == 1
    assert ys.turns_skipped(5, 2, 4) == 2
    assert ys.turns_skipped(5, 2, 2) == 0


# --------------------------------------------------------------------------- vocabularies


def test_the_translations_names_all_count() -> None:
    cards = bank().game(GAME).vocabularies["cartas-de-influencia"]
    assert find_terms("tribu", cards) == ["Familia"]
    assert find_terms("tarjeta de clan", cards) == ["Familia"]
    assert find_terms("contratación", cards) == ["Empleo"]
    assert find_terms("carta de bloqueo", cards) == ["Parada"]


def test_colours_are_the_six_families_of_the_rulebook() -> None:
    colours = bank().game(GAME).vocabularies["colores"]
    assert colours.term_names == ys.COLOURS
    example = load_corpus().get("yo-soy-el-jefe/1-componentes/tablero/ejemplo").text
    assert all(c in example for c in ys.COLOURS)


# --------------------------------------------------------------------------- generators, re-derived from prompts


def test_payouts_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("pago-del-banquero", seed)
        deal = int(re.search(r"la (\d+)\.ª transacción", it.prompt).group(1))
        dividends = int(re.search(r"muestra (\d+) dividendos", it.prompt).group(1))
        stated = re.search(r"vale \$(\d+)M", it.prompt)
        value = int(stated.group(1)) if stated else {6: 3, 13: 5}[deal]
        assert it.answer == str(value * dividends), it.prompt


def test_what_the_boss_keeps_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("lo-que-queda-al-jefe", seed)
        deal = int(re.search(r"la (\d+)\.ª transacción", it.prompt).group(1))
        dividends = int(re.search(r"casilla de (\d+) dividendos", it.prompt).group(1))
        stated = re.search(r"vale \$(\d+)M", it.prompt)
        value = int(stated.group(1)) if stated else {6: 3, 13: 5}[deal]
        promised = sum(int(p) for p in re.findall(r"prometió \$(\d+)M", it.prompt))
        assert 0 <= int(it.answer) == value * dividends - promised, it.prompt


def test_end_die_items_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("dado-de-fin", seed)
        deal = int(re.search(r"la (\d+)\.ª transacción", it.prompt).group(1))
        roll = int(re.search(r"sale un (\d)", it.prompt).group(1))
        back = re.search(r"aparecen los números: ([\d, ]+)\.", it.prompt)
        # Without the engine's deal cards the prompt shows no back; the rulebook gives the 11th's (1 or 2).
        numbers = {int(n) for n in back.group(1).split(",")} if back else {11: {1, 2}}.get(deal, set())
        if deal < 10:
            expected = ys.NO_ROLL_CONTINUES
        elif deal == 15:
            expected = ys.ENDS_WITHOUT_ROLL
        else:
            expected = ys.ROLL_ENDS if roll in numbers else ys.ROLL_CONTINUES
        assert it.options[CHOICE_LETTERS.index(it.answer)] == expected, it.prompt


def test_two_player_payments_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("pago-a-dos-jugadores", seed)
        deal = int(re.search(r"la (\d+)\.ª transacción", it.prompt).group(1))
        dividends = int(re.search(r"casilla de (\d+) dividendos", it.prompt).group(1))
        required = int(re.search(r"requiere (\d+) inversores", it.prompt).group(1))
        used = int(re.search(r"Usa (\d+) cartas? de inversor", it.prompt).group(1))
        stated = re.search(r"vale \$(\d+)M", it.prompt)
        value = int(stated.group(1)) if stated else {6: 3, 13: 5}[deal]
        assert int(it.answer) * required == value * dividends * used, it.prompt


def test_marker_moves_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("movimiento-del-marcador", seed)
        here = int(re.search(r"está en la casilla (\d+)", it.prompt).group(1))
        listing = re.search(r"(?:las casillas|la casilla) ([\d, y]+?) (?:están|está) cubierta", it.prompt).group(1)
        covered = {int(n) for n in re.findall(r"\d+", listing)}
        roll = int(re.search(r"sale un (\d)", it.prompt).group(1))
        steps = 0
        while steps < roll:
            here = here % 16 + 1
            steps += here not in covered
        assert it.answer == str(here), it.prompt


def test_next_turns_rederived_from_their_prompts() -> None:
    for seed in SEEDS:
        it = generated("siguiente-turno", seed)
        players = int(re.search(r"partida de (\d) jugadores", it.prompt).group(1))
        turn = int(re.search(r"es el turno del jugador (\d)", it.prompt).group(1))
        named = re.search(r"el jugador (\d) juega la última carta de jefe", it.prompt)
        last = int(named.group(1)) if named else turn
        base = turn if "el turno no cambia" in it.prompt else last
        assert it.answer == str(base % players + 1), it.prompt


def test_generated_prompts_agree_in_number() -> None:
    """Spanish grammar of the generated riddles (dos-jugadores, tirar-el-dado, tras-el-pago): no "1 cartas"."""
    for seed in SEEDS:
        two = generated("pago-a-dos-jugadores", seed).prompt
        used = int(re.search(r"Usa (\d+) cartas? de inversor", two).group(1))
        assert ("Usa 1 carta de inversor" in two) == (used == 1), two
        for name in ("movimiento-del-marcador", "siguiente-espacio-vacio"):
            prompt = generated(name, seed).prompt
            one = re.search(r"[Ll]a casilla (\d+) (?:ya )?está cubierta por una carta de negociación", prompt)
            many = re.search(r"[Ll]as casillas ((?:\d+, )*\d+ y \d+) (?:ya )?están cubiertas por cartas", prompt)
            assert bool(one) != bool(many), prompt
