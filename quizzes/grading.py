"""Deterministic, Spanish-aware grading of one answer against one :class:`~quizzes.model.Item`.

What the grader forgives: case, accents, punctuation, articles ("el", "la", "los",
"un"...), numbers written as words ("veinticinco", "veintiún", "sesenta y seis",
via ``text2num``), magnitudes for money in millions (``unit == "M"``: "25M",
"25 M", "25 millones", "25.000.000", "25,000,000", "25 000 000", "$25M" and a
bare "25" all mean 25), percentages ("66 %", "66%", "sesenta y seis por ciento"), a choice by
its letter ("B", "b)", "la B", "opción B") or by its option's text, and a term by
any of its synonyms (and a plural "s"/"es").

What it refuses: a numeric answer naming two different numbers ("25 o 26"; "25,
es decir 25M" is one number), a choice naming two options, a term answer naming
two different terms of the vocabulary. A wrong answer gets a one-sentence English
reason that never reveals the right answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from club_agentes.quizzes.spanish import fold
from text_to_num import alpha2digit

MAX_ANSWER_CHARS = 500


@dataclass(frozen=True)
class VocabularyTerm:
    """One term of a closed vocabulary, with the other words that name it."""

    term: str
    synonyms: tuple[str, ...] = ()

    @property
    def forms(self) -> tuple[str, ...]:
        """The term and all its synonyms."""
        return (self.term, *self.synonyms)


@dataclass(frozen=True)
class Vocabulary:
    """A closed vocabulary of a game (phases, actions, colours...) for ``term`` answers."""

    name: str
    description: str
    terms: tuple[VocabularyTerm, ...]

    @property
    def term_names(self) -> tuple[str, ...]:
        """The canonical terms, in their declared order."""
        return tuple(t.term for t in self.terms)

    def find(self, term: str) -> VocabularyTerm | None:
        """Return the entry whose canonical term is ``term`` (exact match), or ``None``."""
        for t in self.terms:
            if t.term == term:
                return t
        return None


@dataclass(frozen=True)
class Grade:
    """The outcome of grading one answer.

    Attributes:
        correct: whether the answer is right.
        reason: for a wrong answer, one English sentence saying why, without the
            right answer; empty for a right one.
    """

    correct: bool
    reason: str = ""


# --------------------------------------------------------------------------- numbers

# Words text2num does not read, rewritten to forms it does read (whole words only).
_WORD_FIXES = {
    "veintiún": "veintiuno",
    "veintiun": "veintiuno",
    "veintidos": "veintidós",
    "veintitres": "veintitrés",
    "ningún": "cero",
    "ningun": "cero",
    "ninguno": "cero",
    "ninguna": "cero",
}
_WORD_FIX_RE = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, _WORD_FIXES)) + r")(?!\w)")
_PERCENT_RE = re.compile(r"(?<!\w)por\s*ciento(?!\w)")
_MILLION_RE = re.compile(r"(?<!\w)(?:millones|millón|millon)(?!\w)")
# "un"/"una" standing alone are often articles ("un total de 25M"): they count as the
# number 1 only when the answer names no other number, or when they are one side of an
# "o" ("dos o una", a hedge). They are part of a number when they follow a number word
# ("treinta y un", "trescientos una", "mil un") or come before a magnitude ("un millón").
# "uno" is always the number 1.
_ONE_RE = re.compile(r"(?<!\w)(un|una)(?!\w)")
_DISJUNCTION_BEFORE_RE = re.compile(r"(?<!\w)[ou]\s+$")
_DISJUNCTION_AFTER_RE = re.compile(r"\s+[ou](?!\w)")
_AFTER_NUMBER_RE = re.compile(
    r"(?:(?:treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa)\s+y|\w*cient[oa]s?|cien|mil|m)\s+$"
)
_BEFORE_MAGNITUDE_RE = re.compile(r"\s+(?:m|mil)(?!\w)")


def _weak_ones(text: str, replace: Callable[[re.Match[str]], str]) -> str:
    """Rewrite each standalone "un"/"una" that is not part of a number or a hedge with ``replace``."""

    def sub(m: re.Match[str]) -> str:
        before = text[max(0, m.start() - 40) : m.start()]
        if (
            _AFTER_NUMBER_RE.search(before)
            or _DISJUNCTION_BEFORE_RE.search(before)
            or _BEFORE_MAGNITUDE_RE.match(text, m.end())
            or _DISJUNCTION_AFTER_RE.match(text, m.end())
        ):
            return m.group(0)
        return replace(m)

    return _ONE_RE.sub(sub, text)


_WEAK_MARK = "xweakonex"
_NUMBER_RE = re.compile(
    r"(?<![\d.,])"
    r"(?P<int>\d{1,3}(?:\.\d{3})+(?![\d])|\d{1,3}(?:,\d{3})+(?![\d])|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d])|\d+)"
    r"(?:[.,](?P<frac>\d+))?"
    r"(?:\.?[ªº])?"
    r"(?:\s*(?P<mag>m|mil|%)(?!\w))?"
)


@dataclass(frozen=True)
class NumberScan:
    """The numbers found in a text.

    Attributes:
        strong: every number written as digits or words, in order of appearance
            (magnitudes applied: "25M" is 25,000,000).
        weak: how many standalone "un"/"una" the text holds (the number 1
            only if the text names no other number).
    """

    strong: tuple[Fraction, ...]
    weak: int


def _prepare(text: str) -> str:
    """Lower-case and rewrite words so that ``alpha2digit`` reads every number."""
    t = text.lower().replace("\u2212", "-")
    t = _WORD_FIX_RE.sub(lambda m: _WORD_FIXES[m.group(1)], t)
    t = _PERCENT_RE.sub(" % ", t)
    return _MILLION_RE.sub(" m ", t)


def scan_numbers(text: str) -> NumberScan:
    """Return the numbers that ``text`` names, as digits or as Spanish words.

    "25M", "25 millones" and "veinticinco millones" are 25,000,000; "25.000.000",
    "25,000,000" and "25 000 000" too; "6,25" is 6.25; "4.ª" and "cuarta" are 4. Never raises.
    """
    t = _weak_ones(_prepare(text), lambda m: f" {_WEAK_MARK} ")
    weak = t.count(_WEAK_MARK)
    t = alpha2digit(t, "es", threshold=0)
    strong: list[Fraction] = []
    for m in _NUMBER_RE.finditer(t):
        whole = int(re.sub(r"[^\d]", "", m.group("int")))
        value = Fraction(whole)
        if m.group("frac"):
            value += Fraction(int(m.group("frac")), 10 ** len(m.group("frac")))
        start = m.start()
        if start > 0 and t[start - 1] == "-" and (start == 1 or not t[start - 2].isalnum()):
            value = -value
        mag = m.group("mag")
        if mag == "m":
            value *= 10**6
        elif mag == "mil":
            value *= 1000
        strong.append(value)
    return NumberScan(tuple(strong), weak)


def in_unit(value: Fraction, unit: str) -> Fraction:
    """Express a scanned number in an item's unit: for ``"M"``, 25,000,000 becomes 25.

    A value below a million stays as written for ``"M"`` (a bare "25" means 25M).
    Other units keep the value. Never raises.
    """
    if unit == "M" and abs(value) >= 10**6:
        return value / 10**6
    return value


def answer_numbers(text: str, unit: str = "") -> list[Fraction]:
    """Return the distinct numbers an answer names, in the item's unit, in order of appearance.

    Standalone "un"/"una" (articles) count as 1 only when no other number is named. Never raises.
    """
    scan = scan_numbers(text)
    values = scan.strong if scan.strong else (Fraction(1),) * min(scan.weak, 1)
    out: list[Fraction] = []
    for v in values:
        u = in_unit(v, unit)
        if u not in out:
            out.append(u)
    return out


def format_number(value: Fraction, unit: str = "") -> str:
    """Write a number for a message: ``25``, ``6.25``, ``25M``, ``66 %``. Never raises."""
    text = str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    if unit == "M":
        return text + "M"
    if unit == "%":
        return text + " %"
    return text


# --------------------------------------------------------------------------- text

_ARTICLES = frozenset({"el", "la", "los", "las", "lo", "unos", "unas"})
_TOKEN_RE = re.compile(r"\$|%|\+[a-z][a-z0-9]*|[a-z0-9]+")


def _canonical_number(m: re.Match[str]) -> str:
    """Rewrite one number match as its value (``"25 m"`` -> ``"25000000"``) for text comparison."""
    scan = scan_numbers(m.group(0))
    if not scan.strong:
        return m.group(0)
    v = scan.strong[0]
    body = str(v.numerator) if v.denominator == 1 else f"{v.numerator}d{v.denominator}"
    return f" {body} {'%' if m.group('mag') == '%' else ''} "


def normalize(text: str) -> str:
    """Normalise Spanish text for comparison: the space-joined tokens of ``text``.

    Lower case, no accents, no punctuation (except ``$``, ``%`` and a ``+`` glued to a
    letter, as in "+R"), no articles ("el", "la", "los", "las", "lo", "unos", "unas",
    and "un"/"una" used as articles), numbers written as digits ("veinticinco
    millones", "25M" and "25.000.000" all become ``25000000``). Never raises.
    """
    t = _weak_ones(_prepare(text), lambda m: " ")
    t = alpha2digit(t, "es", threshold=0)
    t = _NUMBER_RE.sub(_canonical_number, t)
    tokens = [tok for tok in _TOKEN_RE.findall(fold(t)) if tok not in _ARTICLES]
    return " ".join(tokens)


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """Whether ``needle`` occurs as a contiguous run of tokens in ``haystack``."""
    n = len(needle)
    if n == 0:
        return False
    return any(list(haystack[i : i + n]) == list(needle) for i in range(len(haystack) - n + 1))


def text_contains(text: str, phrase: str) -> bool:
    """Whether ``phrase`` appears in ``text`` once both are normalised (whole tokens). Never raises."""
    return _contains(normalize(text).split(), normalize(phrase).split())


def _same_word(a: str, b: str) -> bool:
    """Whether two normalised tokens are the same word, forgiving a plural "s"/"es"."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return len(short) >= 3 and long_ in (short + "s", short + "es")


def find_terms(text: str, vocabulary: Vocabulary) -> list[str]:
    """Return the distinct canonical terms of ``vocabulary`` that ``text`` names, in order.

    Longer forms win over shorter ones that overlap them ("Estrategia roja" before
    "Estrategia"). Never raises.
    """
    tokens = normalize(text).split()
    forms: list[tuple[list[str], str]] = []
    for entry in vocabulary.terms:
        for form in entry.forms:
            norm = normalize(form).split()
            if norm:
                forms.append((norm, entry.term))
    forms.sort(key=lambda f: -len(f[0]))
    used = [False] * len(tokens)
    found: list[tuple[int, str]] = []
    for norm, term in forms:
        n = len(norm)
        for i in range(len(tokens) - n + 1):
            if any(used[i : i + n]):
                continue
            if all(_same_word(tokens[i + k], norm[k]) for k in range(n)):
                for k in range(i, i + n):
                    used[k] = True
                found.append((i, term))
    out: list[str] = []
    for _, term in sorted(found):
        if term not in out:
            out.append(term)
    return out


# --------------------------------------------------------------------------- grading

_CHOICE_FILLERS = frozenset({"opcion", "respuesta", "letra", "alternativa", "inciso", "es", "correcta", "mi"})
_LETTERS = tuple(letter.lower() for letter in CHOICE_LETTERS)


def _grade_integer(item: Item, answer: str | int) -> Grade:
    if isinstance(answer, bool):
        return Grade(False, "A true/false value is not a number; write one whole number in digits or in words.")
    values = [in_unit(Fraction(answer), item.unit)] if isinstance(answer, int) else answer_numbers(answer, item.unit)
    if not values:
        return Grade(False, "The answer contains no number; write one whole number, in digits or in Spanish words.")
    if len(values) > 1:
        named = ", ".join(format_number(v, item.unit) for v in values[:4])
        return Grade(False, f"The answer names {len(values)} different numbers ({named}); exactly one is accepted.")
    if values[0] == Fraction(int(item.answer)):
        return Grade(True)
    return Grade(False, f"{format_number(values[0], item.unit)} is not the right number.")


def chosen_letters(answer: str, options: Sequence[str]) -> list[str]:
    """Return the option letters an answer names (by letter or by the option's full text).

    An answer such as "B) <text of B>" names one letter; "B o C" and "B) <text of C>"
    name two. Never raises.
    """
    tokens = normalize(answer).split()
    opts = [normalize(o).split() for o in options]
    by_text = [CHOICE_LETTERS[i] for i, o in enumerate(opts) if o and o == tokens]
    if by_text:
        return by_text
    start = 0
    while start < len(tokens) and tokens[start] in _CHOICE_FILLERS:
        start += 1
    rest = tokens[start:]
    if not rest:
        return []
    letters: list[str] = []
    if all(t in _LETTERS or t in ("o", "y") for t in rest):
        for t in rest:
            if t in _LETTERS and t.upper() not in letters:
                letters.append(t.upper())
        return letters
    if rest[0] in _LETTERS:
        letter = rest[0].upper()
        tail = rest[1:]
        matches = [CHOICE_LETTERS[i] for i, o in enumerate(opts) if o and o == tail]
        if not matches:
            return []
        return [letter] + [m for m in matches if m != letter]
    return []


def _grade_choice(item: Item, answer: str | int) -> Grade:
    if not isinstance(answer, str):
        return Grade(False, "A choice is answered with one letter A-D or the text of one option, not a number.")
    letters = chosen_letters(answer, item.options)
    if not letters:
        return Grade(False, "The answer is neither one of the letters A-D nor the full text of one option.")
    if len(letters) > 1:
        return Grade(False, f"The answer names {len(letters)} options ({', '.join(letters)}); exactly one is accepted.")
    if letters[0] == item.answer:
        return Grade(True)
    return Grade(False, f"Option {letters[0]} is not the right one.")


def _grade_term(item: Item, answer: str | int, vocabulary: Vocabulary) -> Grade:
    if not isinstance(answer, str):
        return Grade(False, f"This question is answered with one term of the vocabulary {vocabulary.name!r}.")
    terms = find_terms(answer, vocabulary)
    if not terms:
        accepted = ", ".join(vocabulary.term_names)
        return Grade(False, f"The answer names no term of the vocabulary {vocabulary.name!r} (its terms: {accepted}).")
    if len(terms) > 1:
        named = ", ".join(terms)
        return Grade(False, f"The answer names {len(terms)} different terms ({named}); exactly one is accepted.")
    if terms[0] == item.answer:
        return Grade(True)
    return Grade(False, f"{terms[0]} is not the right term.")


def grade(item: Item, answer: str | int, vocabulary: Vocabulary | None = None) -> Grade:
    """Grade one answer against one item.

    ``answer`` is the agent's text (or a whole number for an ``integer`` item);
    ``vocabulary`` is the item's vocabulary, required for ``term`` items.

    Raises:
        ValueError: a ``term`` item without its vocabulary (or with another one), or an
            item of an unknown answer type; these are defects of the caller, not of the answer.
    """
    if isinstance(answer, str) and len(answer) > MAX_ANSWER_CHARS:
        return Grade(False, f"The answer is longer than {MAX_ANSWER_CHARS} characters; give one short answer.")
    if item.type == "integer":
        return _grade_integer(item, answer)
    if item.type == "choice":
        return _grade_choice(item, answer)
    if item.type == "term":
        if vocabulary is None or vocabulary.name != item.vocabulary:
            raise ValueError(f"item {item.id} needs the vocabulary {item.vocabulary!r} to be graded")
        return _grade_term(item, answer, vocabulary)
    raise ValueError(f"item {item.id} has unknown answer type {item.type!r}")


def display_answer(item: Item) -> str:
    """Return the right answer as shown after grading: ``"25M"``, ``"B) <option text>"``, the term.

    Never raises.
    """
    if item.type == "integer":
        return format_number(Fraction(int(item.answer)), item.unit)
    if item.type == "choice":
        return f"{item.answer}) {item.options[CHOICE_LETTERS.index(item.answer)]}"
    return item.answer


def numbers_in_text(text: str, unit: str = "") -> set[Fraction]:
    """Return every number ``text`` names (digits or words, and 1 for "un"/"una"), in ``unit``.

    Used to check that a hand-written integer answer is supported by its cited text.
    Never raises.
    """
    scan = scan_numbers(text)
    values: Iterable[Fraction] = scan.strong + ((Fraction(1),) if scan.weak else ())
    return {in_unit(v, unit) for v in values}
