"""The Spanish-aware grader: numbers, magnitudes, percentages, choices, terms, hedged answers."""

from __future__ import annotations

import pytest
from club_agentes.quizzes.grading import (
    Vocabulary,
    VocabularyTerm,
    answer_numbers,
    display_answer,
    find_terms,
    grade,
    normalize,
    text_contains,
)
from club_agentes.quizzes.model import Item
from club_agentes.quizzes.spanish import fold, number_to_words
from hypothesis import given, settings
from hypothesis import strategies as st


def integer_item(answer: int, unit: str = "") -> Item:
    return Item("t/q/n", "t", "question", "integer", "¿Cuánto?", str(answer), ("t/s",), unit=unit)


CHOICE = Item(
    "t/q/c",
    "t",
    "question",
    "choice",
    "¿Qué pasa?",
    "B",
    ("t/s",),
    options=(
        "La inversión queda boca abajo",
        "La inversión falla y las cartas regresan a tu mano",
        "Las dos cartas van al descarte",
        "Vuelves a lanzar el dado",
    ),
)
ACCIONES = Vocabulary(
    "acciones",
    "Las tres acciones",
    (
        VocabularyTerm("Construir", ("tomar capital",)),
        VocabularyTerm("Arriesgar", ("formar inversión", "formar una inversión")),
        VocabularyTerm("Dominar", ("tomar estrategia",)),
    ),
)
TERM = Item("t/q/t", "t", "question", "term", "¿Qué acción?", "Dominar", ("t/s",), vocabulary="acciones")


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "answer",
    [
        "25M",
        "25 M",
        "25 millones",
        "25.000.000",
        "25,000,000",
        "25 000 000",
        "$25M",
        "veinticinco millones",
        "25",
        "veinticinco",
        "Veinticinco",
        "25, es decir 25M",
        "la respuesta es 25 millones de dólares",
        "un total de 25M",
        "Son 25M.",
        25,
        25_000_000,
    ],
)
def test_millions_in_every_form(answer: str | int) -> None:
    assert grade(integer_item(25, "M"), answer).correct


@pytest.mark.parametrize(
    "answer", ["25 o 26", "entre 25 y 30", "24 o 25 millones", "25M, quizá 26M", "dos o una", "una o dos", "cero o uno"]
)
def test_two_different_numbers_are_wrong(answer: str) -> None:
    g = grade(integer_item(25, "M"), answer)
    assert not g.correct
    assert "different numbers" in g.reason


@pytest.mark.parametrize("answer", ["66 %", "66%", "sesenta y seis por ciento", "66 por ciento", "sesenta y seis"])
def test_percent_forms(answer: str) -> None:
    assert grade(integer_item(66, "%"), answer).correct


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("veinticinco", 25),
        ("veintiún", 21),
        ("veintiun", 21),
        ("veintiuno", 21),
        ("veintiuna cartas", 21),
        ("sesenta y seis", 66),
        ("veintidos", 22),
        ("veintitrés", 23),
        ("dos", 2),
        ("una", 1),
        ("una Estrategia", 1),
        ("ninguna", 0),
        ("cero", 0),
        ("la cuarta", 4),
        ("la 4.ª", 4),
        ("ciento ochenta", 180),
    ],
)
def test_number_words(answer: str, value: int) -> None:
    assert grade(integer_item(value), answer).correct, answer


def test_veintiun_millones_is_21_millions() -> None:
    assert grade(integer_item(21, "M"), "veintiún millones").correct


def test_wrong_number_reason_does_not_reveal_the_answer() -> None:
    g = grade(integer_item(25, "M"), "26")
    assert not g.correct
    assert "26M" in g.reason
    assert "25" not in g.reason


def test_no_number() -> None:
    g = grade(integer_item(4), "muchas")
    assert not g.correct
    assert "no number" in g.reason


def test_booleans_are_not_numbers() -> None:
    assert not grade(integer_item(1), True).correct


def test_a_count_is_not_read_as_millions() -> None:
    assert not grade(integer_item(8), "8 millones").correct


def test_decimal_comma() -> None:
    assert answer_numbers("6,25M", "M") == [pytest.approx(6.25)]
    assert not grade(integer_item(6, "M"), "6,25M").correct


def test_too_long_answer_is_wrong() -> None:
    assert not grade(integer_item(1), "1 " * 400).correct


# --------------------------------------------------------------------------- property tests


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=999_999))
def test_any_number_in_digits_and_words(n: int) -> None:
    item = integer_item(n)
    assert grade(item, str(n)).correct
    assert grade(item, n).correct
    assert grade(item, number_to_words(n)).correct, number_to_words(n)
    assert grade(item, fold(number_to_words(n))).correct, fold(number_to_words(n))


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_any_number_of_millions(n: int) -> None:
    item = integer_item(n, "M")
    for form in (f"{n}M", f"{n} M", f"${n}M", f"{n} millones", f"{n:,}".replace(",", ".") + ".000.000"):
        assert grade(item, form).correct, form
    assert grade(item, f"{n * 1_000_000:,}").correct
    assert grade(item, number_to_words(n * 1_000_000)).correct, number_to_words(n * 1_000_000)
    assert grade(item, number_to_words(n, apocope=True) + " millones").correct


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=10_000))
def test_a_second_different_number_is_wrong(n: int, m: int) -> None:
    item = integer_item(n)
    hedged = f"{n} o {m}"
    assert grade(item, hedged).correct == (n == m)
    assert grade(item, f"{number_to_words(n)} o {number_to_words(m)}").correct == (n == m)


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_a_different_number_is_wrong(n: int) -> None:
    assert not grade(integer_item(n), str(n + 1)).correct
    assert not grade(integer_item(n + 1), number_to_words(n)).correct


def test_number_to_words_samples() -> None:
    assert number_to_words(21) == "veintiuno"
    assert number_to_words(21, apocope=True) == "veintiún"
    assert number_to_words(66) == "sesenta y seis"
    assert number_to_words(100) == "cien"
    assert number_to_words(25_000_000) == "veinticinco millones"
    assert number_to_words(1_000_000) == "un millón"
    assert number_to_words(2026) == "dos mil veintiséis"
    with pytest.raises(ValueError):
        number_to_words(10**12)


# --------------------------------------------------------------------------- choices


@pytest.mark.parametrize(
    "answer",
    [
        "B",
        "b",
        "B)",
        "b.",
        "(B)",
        "la B",
        "opción B",
        "La opción b",
        "respuesta: B",
        "la inversión falla y las cartas regresan a tu mano",
        "La inversion falla y las cartas regresan a tu mano.",
        "B) La inversión falla y las cartas regresan a tu mano",
    ],
)
def test_choice_by_letter_or_text(answer: str) -> None:
    assert grade(CHOICE, answer).correct, answer


@pytest.mark.parametrize("answer", ["A", "c", "opción D", "Las dos cartas van al descarte"])
def test_other_options_are_wrong(answer: str) -> None:
    g = grade(CHOICE, answer)
    assert not g.correct
    assert "B" not in g.reason.replace("Option", "")


@pytest.mark.parametrize("answer", ["B o C", "B y C", "B) Las dos cartas van al descarte"])
def test_two_options_are_wrong(answer: str) -> None:
    g = grade(CHOICE, answer)
    assert not g.correct
    assert "options" in g.reason


@pytest.mark.parametrize("answer", ["E", "la falla", "", 2])
def test_unrecognised_choice(answer: str | int) -> None:
    assert not grade(CHOICE, answer).correct


# --------------------------------------------------------------------------- terms


@pytest.mark.parametrize(
    "answer", ["Dominar", "dominar", "DOMINAR.", "tomar estrategia", "Tomar Estrategia", "Dominar (tomar estrategia)"]
)
def test_term_and_synonyms(answer: str) -> None:
    assert grade(TERM, answer, ACCIONES).correct


def test_two_terms_are_wrong() -> None:
    g = grade(TERM, "Construir o Dominar", ACCIONES)
    assert not g.correct
    assert "2 different terms" in g.reason


def test_wrong_term() -> None:
    g = grade(TERM, "Arriesgar", ACCIONES)
    assert not g.correct
    assert "Dominar" not in g.reason


def test_unknown_term_lists_the_vocabulary_but_does_not_single_out_the_answer() -> None:
    g = grade(TERM, "Pasar", ACCIONES)
    assert not g.correct
    assert "Construir, Arriesgar, Dominar" in g.reason


def test_term_needs_its_vocabulary() -> None:
    with pytest.raises(ValueError):
        grade(TERM, "Dominar")


def test_plural_is_forgiven() -> None:
    colours = Vocabulary("colores", "", (VocabularyTerm("Azul"), VocabularyTerm("Roja")))
    assert find_terms("las azules", colours) == ["Azul"]
    assert find_terms("rojas y azules", colours) == ["Roja", "Azul"]


def test_longest_form_wins() -> None:
    vocab = Vocabulary("x", "", (VocabularyTerm("Estrategia"), VocabularyTerm("Estrategia roja")))
    assert find_terms("una estrategia roja", vocab) == ["Estrategia roja"]


# --------------------------------------------------------------------------- normalisation


def test_normalize() -> None:
    assert normalize("La Acción ($) y el +R") == "accion $ y +r"
    assert normalize("veinticinco millones") == normalize("25M") == normalize("25.000.000")
    assert normalize("66 %") == normalize("sesenta y seis por ciento")


def test_text_contains_is_token_based() -> None:
    assert text_contains("Nunca tomes del descarte de Estrategias.", "del descarte de estrategias")
    assert not text_contains("Nunca tomes del descarte de Estrategias.", "descarte de estrategia roja")
    assert not text_contains("mazos", "mazo")


def test_display_answer() -> None:
    assert display_answer(integer_item(25, "M")) == "25M"
    assert display_answer(integer_item(66, "%")) == "66 %"
    assert display_answer(CHOICE) == "B) La inversión falla y las cartas regresan a tu mano"
    assert display_answer(TERM) == "Dominar"


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["A", "B", "C", "D"]))
def test_exactly_one_letter_is_right(letter: str) -> None:
    assert grade(CHOICE, letter).correct == (letter == "B")
