"""Market Fortune's rules arithmetic and the legality of its generated items."""

from __future__ import annotations

import pytest
from club_agentes.quizzes.generators import market_fortune as mf
from club_agentes.quizzes.model import GENERATORS
from hypothesis import given, settings
from hypothesis import strategies as st

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PAIRS = st.tuples(st.integers(1, 5), st.integers(1, 5))


def test_rulebook_examples() -> None:
    # Chapter III: 3M + 2M = 5M; chapter V's table: 8M + 8M + 5M + 4M = 25M, a victory.
    assert mf.investment_value(3, 2) == 5
    assert mf.portfolio_total((5, 3), (4, 4), (3, 2), (2, 2)) == 25
    assert mf.wins_fortuna(8, 8, 5, 4)
    # Quick reference: an investment is worth 2M to 10M; the rule of 8 cards: 2 investments, 4 in hand.
    assert mf.investment_value(1, 1) == mf.INVESTMENT_MIN
    assert mf.investment_value(5, 5) == mf.INVESTMENT_MAX
    assert mf.building_cards_in_hand(2) == 4


def test_hand_computed_cases() -> None:
    assert mf.least_fourth_value(8, 6, 5) == 6
    assert mf.least_fourth_value(10, 10, 10) == 2
    assert mf.least_fourth_value(5, 5, 5) == 10
    assert not mf.wins_fortuna(9, 8, 5, 2)
    assert not mf.wins_fortuna(10, 10, 10)  # three investments never win, whatever their value
    assert mf.investments_after_declaring(9, 8, 5, 2) == 3
    assert mf.investments_after_declaring(10, 5, 5, 5) == 4
    assert mf.hand_after_risk(2, "+") == 2
    assert mf.hand_after_risk(2, "−") == 4
    assert mf.championship_missing(27, 31, 26) == 16
    assert mf.championship_missing(40, 40, 30) == 0
    assert mf.who_goes_last({"Ana": 3, "Beto": 1, "Carla": 2}) == "Beto"
    assert mf.who_goes_last({"Ana": 2, "Beto": 2}) == mf.NOBODY
    assert mf.who_leads({"Ana": 3, "Beto": 1}) == "Ana"
    assert mf.equal_or_more_advanced(2, [1, 2, 3, 0]) == 2
    assert mf.defence_order(["Ana", "Beto", "Carla", "Darío"], "Carla") == ["Darío", "Ana", "Beto"]
    assert mf.first_player({"Ana": "+", "Beto": "−"}) == "Beto"
    assert mf.optimized_value(2, 3, "$", 5) == 8
    assert mf.optimized_value(2, 3, "+R", 1) == 3
    assert mf.strategy_colour("Moneda Estable") == "Azul"
    assert mf.combined_extremes() == 12


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (mf.investment_value, (0, 3)),
        (mf.investment_value, (3, 6)),
        (mf.least_fourth_value, (5, 5, 4)),  # 14M: the fourth would need 11M
        (mf.least_fourth_value, (5, 5)),
        (mf.building_cards_in_hand, (5,)),
        (mf.hand_after_risk, (4, "+")),
        (mf.hand_after_risk, (1, "x")),
        (mf.championship_missing, (24,)),
        (mf.who_leads, ({"Ana": 2, "Beto": 2, "Carla": 0},)),
        (mf.who_goes_last, ({"Ana": 0, "Beto": 0, "Carla": 2},)),
        (mf.first_player, ({"Ana": "−", "Beto": "−"},)),
        (mf.first_player, ({"Ana": "+"},)),
        (mf.defence_order, (["Ana"], "Beto")),
        (mf.investments_after_declaring, (9, 8, 5)),
        (mf.optimized_value, (2, 3, "E", 4)),
        (mf.strategy_colour, ("Dado",)),
        (mf.portfolio_total, ((1, 1),) * 5),
    ],
)
def test_situations_the_rules_do_not_allow_are_refused(fn: object, args: tuple[object, ...]) -> None:
    with pytest.raises(ValueError):
        fn(*args)  # type: ignore[operator]


@settings(deadline=None)
@given(st.lists(PAIRS, min_size=4, max_size=4))
def test_portfolio_total_is_between_8_and_40(pairs: list[tuple[int, int]]) -> None:
    total = mf.portfolio_total(*pairs)
    assert 8 <= total <= 40
    assert mf.wins_fortuna(*(a + r for a, r in pairs)) == (total >= 25)


@settings(deadline=None)
@given(st.lists(st.integers(2, 10), min_size=3, max_size=3))
def test_least_fourth_value_is_the_least_that_wins(three: list[int]) -> None:
    if sum(three) < 15:
        with pytest.raises(ValueError):
            mf.least_fourth_value(*three)
        return
    need = mf.least_fourth_value(*three)
    assert 2 <= need <= 10
    assert mf.wins_fortuna(*three, need)
    if need > 2:
        assert not mf.wins_fortuna(*three, need - 1)


# The range of each integer generator's answer, from the rules (values in millions or counts).
INTEGER_RANGES = {
    "valor-de-inversion": (2, 10),
    "total-del-portafolio": (8, 40),
    "cartas-en-mano": (0, 8),
    "mano-tras-arriesgar": (0, 8),
    "igual-o-mas-avanzados": (0, 5),
    "cuarta-inversion-minima": (2, 10),
    "campeonato-faltan": (1, 75),
    "optimizacion": (2, 10),
    "secuencia-de-turnos": (2, 8),
}


@pytest.mark.parametrize("name", sorted(INTEGER_RANGES))
@settings(max_examples=80, deadline=None)
@given(seed=SEEDS)
def test_integer_answers_are_legal(name: str, seed: int) -> None:
    item = GENERATORS[f"market-fortune/{name}"].make(seed)
    lo, hi = INTEGER_RANGES[name]
    assert lo <= int(item.answer) <= hi
    if name in ("cartas-en-mano", "mano-tras-arriesgar", "secuencia-de-turnos"):
        assert int(item.answer) % 2 == 0, "building cards in hand are 8 minus 2 per investment"


def test_every_integer_generator_has_a_range() -> None:
    integer_gens = {g.name for g in GENERATORS.values() if g.game == "market-fortune" and g.make(1).type == "integer"}
    assert integer_gens == set(INTEGER_RANGES)


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS)
def test_declare_outcome_matches_the_total(seed: int) -> None:
    item = GENERATORS["market-fortune/resultado-de-declarar"].make(seed)
    chosen = item.options["ABCD".index(item.answer)]
    total = int(item.explanation.split("suma ")[1].split("M")[0])
    assert (chosen == "Gana la partida") == (total >= 25)


# --------------------------------------------------------------- review fixes: wording and single answers


def _generated(kind: str | None = None) -> list:
    gens = [g for g in GENERATORS.values() if g.game == "market-fortune" and (kind is None or g.kind == kind)]
    return [g.make(seed) for g in gens for seed in range(40)]


def test_generated_spanish_agrees_in_number_and_ordinal() -> None:
    for item in _generated():
        assert "1 inversiones" not in item.prompt, item.prompt
        assert "tercero lugar" not in item.prompt and "primero lugar" not in item.prompt, item.prompt


def test_condicion_de_victoria_items_on_face_values_exclude_bonuses() -> None:
    # Green and yellow bonuses count toward 25M (ruling verdes-y-amarillas): an item that computes
    # a win from face values alone must say that there are no such strategies.
    from tests.quizzes.conftest import market_fortune_bank

    bank = market_fortune_bank().game("market-fortune")
    written = [i for i in (*bank.questions, *bank.riddles) if i.computed]
    face_value = [
        i for i in written if "least_fourth_value" in i.computed or "investments_after_declaring" in i.computed
    ]
    generated = [
        i for i in _generated() if "market-fortune/cap-2/condicion-de-victoria" in i.sections and "25M" in i.explanation
    ]
    assert face_value and generated
    for item in [*face_value, *generated]:
        assert mf.NO_BONUS.lower() in item.prompt.lower(), item.prompt


def test_optimizacion_choice_has_one_true_option() -> None:
    # Ruling optimizacion-en-tu-turno: out of your turn you do not optimise either, so that
    # option would be a second correct answer to "when can you not optimise?".
    from tests.quizzes.conftest import market_fortune_bank

    item = market_fortune_bank().item("market-fortune/q/cuando-no-optimizar")
    assert all("fuera de tu turno" not in o.lower() for o in item.options)
    assert item.options["ABCD".index(item.answer)] == "Bajo ataque activo"
