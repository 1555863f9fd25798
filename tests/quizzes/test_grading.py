"""The Spanish-aware grader: numbers, magnitudes, percentages, choices, terms, hedged answers.

Each property test draws a few examples in the default run; the same property over its full number of
examples is a slow test (``..._over_N_examples``).
"""

from __future__ import annotations

import pytest
from club_agentes.engine.core.text import fold
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
from club_agentes.quizzes.spanish import number_to_words
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


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=999_999))
def test_any_number_in_digits_and_words(n: int) -> None:
    check_any_number_in_digits_and_words(n)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=999_999))
def test_any_number_in_digits_and_words_over_100_examples(n: int) -> None:
    check_any_number_in_digits_and_words(n)


def check_any_number_in_digits_and_words(n: int) -> None:
    item = integer_item(n)
    assert grade(item, str(n)).correct
    assert grade(item, n).correct
    assert grade(item, number_to_words(n)).correct, number_to_words(n)
    assert grade(item, fold(number_to_words(n))).correct, fold(number_to_words(n))


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_any_number_of_millions(n: int) -> None:
    check_any_number_of_millions(n)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_any_number_of_millions_over_100_examples(n: int) -> None:
    check_any_number_of_millions(n)


def check_any_number_of_millions(n: int) -> None:
    item = integer_item(n, "M")
    for form in (f"{n}M", f"{n} M", f"${n}M", f"{n} millones", f"{n:,}".replace(",", ".") + ".000.000"):
        assert grade(item, form).correct, form
    assert grade(item, f"{n * 1_000_000:,}").correct
    assert grade(item, number_to_words(n * 1_000_000)).correct, number_to_words(n * 1_000_000)
    assert grade(item, number_to_words(n, apocope=True) + " millones").correct


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=10_000))
def test_a_second_different_number_is_wrong(n: int, m: int) -> None:
    check_a_second_different_number_is_wrong(n, m)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=10_000))
def test_a_second_different_number_is_wrong_over_100_examples(n: int, m: int) -> None:
    check_a_second_different_number_is_wrong(n, m)


def check_a_second_different_number_is_wrong(n: int, m: int) -> None:
    item = integer_item(n)
    hedged = f"{n} o {m}"
    assert grade(item, hedged).correct == (n == m)
    assert grade(item, f"{number_to_words(n)} o {number_to_words(m)}").correct == (n == m)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_a_different_number_is_wrong(n: int) -> None:
    check_a_different_number_is_wrong(n)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_a_different_number_is_wrong_over_100_examples(n: int) -> None:
    check_a_different_number_is_wrong(n)


def check_a_different_number_is_wrong(n: int) -> None:
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


# --------------------------------------------------------------------------- robustness: any input is a Grade

UNREADABLE = "could not be read"
ROBUST_ITEMS = (integer_item(25, "M"), integer_item(4), integer_item(66, "%"), CHOICE)


def assert_graded(item: Item, answer: object, vocabulary: Vocabulary | None = None) -> None:
    g = grade(item, answer, vocabulary)
    assert isinstance(g.correct, bool)
    assert UNREADABLE not in g.reason, (answer, g.reason)
    assert g.correct or g.reason
    assert g.normalized is None or isinstance(g.normalized, str)


@settings(max_examples=30, deadline=None)
@given(st.text())
def test_any_text_is_graded(answer: str) -> None:
    check_any_text_is_graded(answer)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_is_graded_over_300_examples(answer: str) -> None:
    check_any_text_is_graded(answer)


def check_any_text_is_graded(answer: str) -> None:
    for item in ROBUST_ITEMS:
        assert_graded(item, answer)
    assert_graded(TERM, answer, ACCIONES)


@settings(max_examples=20, deadline=None)
@given(st.text(alphabet=st.characters(categories=["Cc", "Cf", "Co", "Cs", "So", "Sk", "Zl", "Zp", "Mn", "Nd", "No"])))
def test_control_characters_emoji_and_odd_digits_are_graded(answer: str) -> None:
    check_control_characters_emoji_and_odd_digits_are_graded(answer)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(categories=["Cc", "Cf", "Co", "Cs", "So", "Sk", "Zl", "Zp", "Mn", "Nd", "No"])))
def test_control_characters_emoji_and_odd_digits_are_graded_over_200_examples(answer: str) -> None:
    check_control_characters_emoji_and_odd_digits_are_graded(answer)


def check_control_characters_emoji_and_odd_digits_are_graded(answer: str) -> None:
    for item in ROBUST_ITEMS:
        assert_graded(item, answer)
    assert_graded(TERM, answer, ACCIONES)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=-(10**400), max_value=10**400))
def test_any_integer_is_graded(answer: int) -> None:
    check_any_integer_is_graded(answer)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=-(10**400), max_value=10**400))
def test_any_integer_is_graded_over_100_examples(answer: int) -> None:
    check_any_integer_is_graded(answer)


def check_any_integer_is_graded(answer: int) -> None:
    for item in ROBUST_ITEMS:
        assert_graded(item, answer)
    assert_graded(TERM, answer, ACCIONES)
    if abs(answer) >= 10**15:
        assert "digits" in grade(integer_item(25, "M"), answer).reason


@settings(max_examples=6, deadline=None)
@given(st.text(min_size=400, max_size=3000))
def test_long_text_is_graded(answer: str) -> None:
    check_long_text_is_graded(answer)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.text(min_size=400, max_size=3000))
def test_long_text_is_graded_over_60_examples(answer: str) -> None:
    check_long_text_is_graded(answer)


def test_letters_after_an_opener_are_not_worked_out_as_numbers() -> None:
    # Found by test_long_text_is_graded: "B (A ... x A" read the letters as the operands of a working.
    check_long_text_is_graded("0" * 300 + "B(A" + "0" * 90 + "×A")


def check_long_text_is_graded(answer: str) -> None:
    for item in ROBUST_ITEMS:
        assert_graded(item, answer)


@pytest.mark.parametrize(
    "answer",
    [
        "9" * 400,
        "9" * 16,
        "1" + "0" * 15,
        "la respuesta es " + "9" * 100,
        "25 o " + "9" * 300,
        "9" * 20 + ",5M",
        "0," + "9" * 40,
        "millones " * 60,
        "mil " * 120,
        "\x00\x01\ud800\u200b\ufeff25M",
        "25M 😀",
        "４",  # a fullwidth digit
        "٢٥",  # Arabic-Indic digits
        "𝟐𝟓",  # mathematical digits
        "(" * 200,
        "-" * 500,
        "ª" * 50,
        None,
        1.5,
        ["25"],
        {"answer": 25},
        b"25",
    ],
)
def test_odd_answers_are_wrong_with_a_reason(answer: object) -> None:
    for item in ROBUST_ITEMS:
        assert_graded(item, answer)
    assert_graded(TERM, answer, ACCIONES)


def test_a_huge_number_is_not_plausible() -> None:
    g = grade(integer_item(25, "M"), "9" * 400)
    assert not g.correct and "more than 15 digits" in g.reason
    g = grade(integer_item(25, "M"), int("9" * 400))
    assert not g.correct and "more than 15 digits" in g.reason
    assert grade(integer_item(10**14), str(10**14)).correct


def test_unicode_digits_are_numbers() -> None:
    assert grade(integer_item(4), "４").correct
    assert grade(integer_item(25), "٢٥").correct


def test_control_characters_and_markdown_are_ignored() -> None:
    assert grade(integer_item(25, "M"), "\u200b**25M**\x00").correct
    assert grade(CHOICE, "`B`").correct
    assert grade(TERM, "# Dominar", ACCIONES).correct


# --------------------------------------------------------------------------- a stated answer in a sentence


def item_with_prompt(prompt: str, answer: int, unit: str = "") -> Item:
    return Item("t/q/p", "t", "question", "integer", prompt, str(answer), ("t/s",), unit=unit)


HAND = item_with_prompt("Tienes 2 inversiones. Según la regla de las 8 cartas, ¿cuántas cartas tienes en la mano?", 4)
MAXIMUM = item_with_prompt("¿A cuántas cartas como máximo debes reducir tu mano?", 10)
MINIMUM = item_with_prompt("¿Qué valor total mínimo, en millones, debe alcanzar tu portafolio?", 25, "M")


@pytest.mark.parametrize(
    ("item", "answer", "reading"),
    [
        (HAND, "La respuesta es 4", "4"),
        (HAND, "4, porque dos inversiones tienen cuatro cartas y la regla dice 8", "4"),
        (HAND, "Con 2 inversiones, tienes 4 en mano", "4"),
        (HAND, "8 - 2×2 = 4", "4"),
        (HAND, "Tengo 2 inversiones y 8 cartas en total, así que 4.", "4"),
        (HAND, "4", "4"),
        (HAND, "Creo que cuatro.", "4"),
        (integer_item(25, "M"), "Mi respuesta final: veinticinco millones", "25"),
        (integer_item(25, "M"), "unos 25 millones", "25"),
        (integer_item(25, "M"), "alrededor de 25M", "25"),
        (integer_item(25, "M"), "aproximadamente 25.000.000", "25"),
        (integer_item(25, "M"), "cerca de veinticinco millones", "25"),
        (integer_item(66, "%"), "unas sesenta y seis por ciento", "66"),
        (integer_item(4), "más o menos 4", "4"),
        (MAXIMUM, "Hasta 10 cartas.", "10"),
        (MAXIMUM, "Como máximo 10.", "10"),
        (MINIMUM, "Al menos 25M.", "25"),
        (MINIMUM, "25M o más", "25"),
        (
            item_with_prompt(
                "Un dividendo vale $3M y la casilla tiene 4 dividendos. ¿Cuánto paga el banquero?", 12, "M"
            ),
            "El banquero paga 12M (3M por cada uno de los 4 dividendos).",
            "12",
        ),
    ],
)
def test_stated_answers_are_read(item: Item, answer: str, reading: str) -> None:
    g = grade(item, answer)
    assert g.correct, g.reason
    assert g.normalized == reading


@pytest.mark.parametrize(
    ("item", "answer", "reason"),
    [
        (integer_item(25, "M"), "no es 25M", "only says what the answer is not"),
        (integer_item(25, "M"), "No creo que sean 25M", "only says what the answer is not"),
        (integer_item(4), "entre 4 y 5", "2 different numbers"),
        (integer_item(4), "4-5", "2 different numbers"),
        (integer_item(4), "de 4 a 5", "2 different numbers"),
        (integer_item(4), "4, aunque quizá 5", "2 different numbers"),
        (integer_item(4), "4, porque lo dice la regla, aunque podría ser 5", "hedges"),
        (integer_item(4), "más de 4", "bound"),
        (integer_item(4), "menos de 4", "bound"),
        (integer_item(4), "al menos 4", "bound"),
        (integer_item(4), "4 o más", "bound"),
        (integer_item(4), "hasta 4", "bound"),
        (integer_item(4), "4 y 4 no", "both gives and denies"),
        (HAND, "2 o 4", "2 different numbers"),
        (HAND, "Con 2 inversiones, tienes 5 en mano", "not the right number"),
        (HAND, "Con 4 inversiones tienes 2 en mano", "2 different numbers"),
        (integer_item(4), "Pensé 4, pero mi respuesta final es 5.", "not the right number"),
    ],
)
def test_hedges_negations_and_bounds_are_wrong(item: Item, answer: str, reason: str) -> None:
    g = grade(item, answer)
    assert not g.correct
    assert reason in g.reason, g.reason
    assert "4" not in g.reason.replace(answer, "") or "4" in answer


@pytest.mark.parametrize(
    "answer",
    [
        "Creo que es la B",
        "Answer: B",
        "The answer is B.",
        "B, porque la inversión falla",
        "**B**",
        "(B)",
        "opción b",
        "Mi respuesta final: B",
        "Me quedo con la B.",
        "No es la A, es la B.",
        "A mi juicio, la B.",
        "Respuesta: b",
        "B: La inversión falla y las cartas regresan a tu mano",
        "La inversión falla y las cartas regresan a tu mano (B).",
    ],
)
def test_choice_stated_in_a_sentence(answer: str) -> None:
    g = grade(CHOICE, answer)
    assert g.correct, g.reason
    assert g.normalized == "B"


@pytest.mark.parametrize(
    "answer",
    [
        "no sé, quizá A o B",
        "cualquiera menos la A",
        "todas menos la A",
        "no es la B",
        "la B es incorrecta",
        "entre la B y la C",
        "B/C",
        "Creo que es la B, aunque quizá la C.",
        "Ninguna",
        "la a",
    ],
)
def test_choice_hedges_and_negations_are_wrong(answer: str) -> None:
    assert not grade(CHOICE, answer).correct


def test_normalized_reading_of_wrong_answers() -> None:
    assert grade(integer_item(25, "M"), "26 millones").normalized == "26"
    assert grade(CHOICE, "la C").normalized == "C"
    assert grade(TERM, "Arriesgar", ACCIONES).normalized == "Arriesgar"
    assert grade(integer_item(25, "M"), "25 o 26").normalized is None
    assert grade(integer_item(6, "M"), "6,25M").normalized == "6.25"


@pytest.mark.parametrize(
    ("answer", "right"),
    [
        ("Es Dominar.", True),
        ("Creo que la acción es Dominar, porque no descartas nada.", True),
        ("Dominar, no Construir", True),
        ("no es Dominar", False),
        ("Construir, no Dominar", False),
        ("cualquiera menos Dominar", False),
        ("Dominar y Arriesgar", False),
        ("entre Dominar y Arriesgar", False),
    ],
)
def test_term_in_a_sentence(answer: str, right: bool) -> None:
    assert grade(TERM, answer, ACCIONES).correct == right


def test_option_text_with_a_negation_word_is_the_option() -> None:
    item = Item(
        "t/q/n",
        "t",
        "question",
        "choice",
        "¿Puedes optimizar antes de revelar?",
        "B",
        ("t/s",),
        options=("Sí, siempre", "No, nunca", "Solo en modo Familia", "Solo con una Estrategia verde"),
    )
    assert grade(item, "No, nunca").correct
    assert grade(item, "B) No, nunca").correct
    assert not grade(item, "Sí, siempre").correct


def test_restated_prompt_numbers_and_words() -> None:
    two_words = item_with_prompt("Recibes seis cartas y descartas dos. ¿Con cuántas te quedas?", 4)
    assert grade(two_words, "Si recibes 6 y descartas 2, te quedas con 4.").correct
    assert not grade(two_words, "Si recibes 6 y descartas 2, te quedas con 6.").correct
    assert not grade(two_words, "6 o 4").correct
    assert grade(two_words, "6").normalized == "6"


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=99), st.integers(min_value=0, max_value=99), st.integers(0, 99))
def test_restatement_is_never_a_way_to_hedge(p: int, n: int, answer: int) -> None:
    check_restatement_is_never_a_way_to_hedge(p, n, answer)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=99), st.integers(min_value=0, max_value=99), st.integers(0, 99))
def test_restatement_is_never_a_way_to_hedge_over_200_examples(p: int, n: int, answer: int) -> None:
    check_restatement_is_never_a_way_to_hedge(p, n, answer)


def check_restatement_is_never_a_way_to_hedge(p: int, n: int, answer: int) -> None:
    item = item_with_prompt(f"Tienes {p} inversiones. ¿Cuántas cartas tienes en la mano?", answer)
    assert grade(item, f"Con {p} inversiones, tienes {n} en mano").correct == (n == answer)
    if p != n:
        assert not grade(item, f"{p} o {n}").correct
        assert not grade(item, f"entre {p} y {n}").correct
        assert not grade(item, f"{n} o {p}").correct


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=10_000))
def test_a_stated_answer_followed_by_a_hedge_is_wrong(n: int, m: int) -> None:
    check_a_stated_answer_followed_by_a_hedge_is_wrong(n, m)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=10_000))
def test_a_stated_answer_followed_by_a_hedge_is_wrong_over_200_examples(n: int, m: int) -> None:
    check_a_stated_answer_followed_by_a_hedge_is_wrong(n, m)


def check_a_stated_answer_followed_by_a_hedge_is_wrong(n: int, m: int) -> None:
    item = integer_item(n)
    for template in (
        "La respuesta es {n}, aunque quizá {m}",
        "{n}, porque sí, o tal vez {m}",
        "Respuesta final: {n} o {m}",
    ):
        assert grade(item, template.format(n=n, m=m)).correct == (n == m)


def test_lexer_agrees_with_normalize() -> None:
    from club_agentes.quizzes.grading import _lex

    texts = [
        "La Acción ($) y el +R",
        "veinticinco millones",
        "un total de 25M",
        "La inversión falla y las cartas regresan a tu mano.",
        "Tienes 8 − 4 = 4 cartas; x2 y 2x PV, 6,25M, 4.ª, una Estrategia, veintiún",
        "Explorar +1/+1 y 2x PV; 66 % o sesenta y seis por ciento",
    ]
    for text in texts:
        assert " ".join(t.norm for t in _lex(text, letters=True) if t.norm) == normalize(text), text


SENTENCE_WORDS = (
    *("no", "es", "o", "y", "entre", "la", "A", "B", "C", "D", "b", "respuesta", ":", "porque", "más", "de"),
    *("menos", "al", "unos", "millones", "%", "(", ")", "quizá", "creo", "que", "entonces", "=", "4", "cuatro"),
    *("5", "2", "dos", "25M", "ni", "final", "Dominar", "Construir", "tomar", "estrategia", ",", ".", ";", "?"),
    *("hasta", "como", "máximo", "mínimo", "cualquiera", "excepto", "un", "una", "Answer", "is", "aunque"),
    *("no sé", "La inversión falla y las cartas regresan a tu mano", "Vuelves a lanzar el dado", "tienes", "mano"),
)


@settings(max_examples=20, deadline=None)
@given(
    st.sampled_from((integer_item(4), integer_item(25, "M"), CHOICE, TERM)),
    st.lists(st.sampled_from(SENTENCE_WORDS), min_size=1, max_size=12).map(" ".join),
)
def test_a_right_answer_with_another_candidate_after_o_is_wrong(item: Item, sentence: str) -> None:
    check_a_right_answer_with_another_candidate_after_o_is_wrong(item, sentence)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from((integer_item(4), integer_item(25, "M"), CHOICE, TERM)),
    st.lists(st.sampled_from(SENTENCE_WORDS), min_size=1, max_size=12).map(" ".join),
)
def test_a_right_answer_with_another_candidate_after_o_is_wrong_over_200_examples(item: Item, sentence: str) -> None:
    check_a_right_answer_with_another_candidate_after_o_is_wrong(item, sentence)


def check_a_right_answer_with_another_candidate_after_o_is_wrong(item: Item, sentence: str) -> None:
    vocabulary = ACCIONES if item.type == "term" else None
    if not grade(item, sentence, vocabulary).correct:
        return
    other = {"choice": "la C", "term": "Arriesgar"}.get(item.type) or str(int(item.answer) + 1)
    assert not grade(item, f"{sentence} o {other}", vocabulary).correct
