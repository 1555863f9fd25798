"""Deterministic, Spanish-aware grading of one answer against one :class:`~quizzes.model.Item`.

What the grader reads: the answer stated in a sentence, not only a bare answer. It finds the
candidates an answer names (numbers, option letters or option texts, vocabulary terms),
then decides which one the answer gives:

* **Stated answers.** What follows the last explicit marker ("Respuesta final:", "la respuesta
  es", "Answer:") or conclusion ("creo que es", "entonces", "=") is the answer; an explanation
  after "porque", "ya que", "según"... is set aside once an answer was named ("4, porque...").
* **Forms.** Case, accents, punctuation, Markdown emphasis, articles; numbers as Spanish words
  ("veinticinco", "veintiún", via ``text2num``); millions for ``unit == "M"`` ("25M",
  "25 millones", "25.000.000", "$25M" and a bare "25" all mean 25); percentages ("66 %",
  "sesenta y seis por ciento"); approximations ("unos 25", "alrededor de 25", "cerca de 25"
  mean 25); a choice by its letter ("B", "b)", "(B)", "la B", "opción b", "**B**") or by its
  option's text; a term by any of its synonyms (and a plural "s"/"es").
* **Restatements.** Numbers, option texts or terms that the prompt itself states may appear
  beside the answer ("Con 2 inversiones, tienes 4 en mano" when the prompt says 2): the answer
  is the one candidate named more often than the prompt names it. An answer equal to a number
  of the prompt is read as usual when it is the only candidate.

What it refuses, as a wrong answer with a one-sentence English reason that never reveals the
right answer: two different candidates ("25 o 26", "entre 4 y 5", "B o C", "no sé, quizá A o
B"), an answer that only denies ("no es 25M", "cualquiera menos la A"), a bound instead of a
number ("más de 4", unless the prompt asks for a minimum or maximum), a hedge in the
explanation ("4, porque... aunque quizá 5"), a number of more than 15 digits, an answer longer
than :data:`MAX_ANSWER_CHARS`, and anything that is not a string or a whole number. Grading
never raises on any answer.
"""

from __future__ import annotations

import itertools
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from club_agentes.engine.core.text import fold
from club_agentes.quizzes import spanish
from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from club_agentes.quizzes.spanish import Phrase
from text_to_num import alpha2digit

MAX_ANSWER_CHARS = 500
MAX_DIGITS = 15
"""A number written with more digits than this is not a plausible answer to any item."""

_log = logging.getLogger(__name__)


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
        normalized: the grader's reading of the answer, or ``None`` when it could not
            settle on one: for ``integer`` the number in the item's unit as digits
            (``"25"`` for 25M, ``"66"`` for 66 %, ``"6.25"`` for a fraction), for ``choice``
            the letter (``"C"``), for ``term`` the vocabulary's own term (``"Dominar"``).
    """

    correct: bool
    reason: str = ""
    normalized: str | None = None


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


_EN_NUMBER_WORD_RE = re.compile(
    r"(?<![\w-])(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)(?!\w)"
)
# "ten" is also the Spanish imperative of "tener" ("ten en cuenta que son 4"): no number there.
_SPANISH_TEN_RE = re.compile(r"(?<!\w)ten(?=\s+(?:en|que|cuidado|presente|paciencia)(?!\w))")
_TEN_MARK = "xspanishtenx"


def _to_digits(text: str) -> str:
    """Rewrite number words as digits with ``text2num``: Spanish, then English ("five", "twenty-one").

    The text is returned unchanged where the library fails.
    """
    try:
        t = alpha2digit(text, "es", threshold=0)
        if _EN_NUMBER_WORD_RE.search(t):
            t = _SPANISH_TEN_RE.sub(_TEN_MARK, t)
            t = alpha2digit(t, "en", threshold=0).replace(_TEN_MARK, "ten")
        return t
    except Exception:  # a third-party parser on arbitrary text: a failure leaves the words as words
        _log.warning("text2num could not read %r", text[:80], exc_info=True)
        return text


def _number_value(m: re.Match[str], text: str) -> Fraction | None:
    """The value of one ``_NUMBER_RE`` match (sign and magnitude applied), or ``None`` past MAX_DIGITS."""
    digits = re.sub(r"[^\d]", "", m.group("int"))
    frac = m.group("frac") or ""
    if len(digits.lstrip("0")) > MAX_DIGITS or len(frac) > MAX_DIGITS:
        return None
    value = Fraction(int(digits))
    if frac:
        value += Fraction(int(frac), 10 ** len(frac))
    start = m.start()
    if start > 0 and text[start - 1] == "-" and (start == 1 or not text[start - 2].isalnum()):
        value = -value
    mag = m.group("mag")
    if mag == "m":
        value *= 10**6
    elif mag == "mil":
        value *= 1000
    return value


def scan_numbers(text: str) -> NumberScan:
    """Return the numbers that ``text`` names, as digits or as Spanish words.

    "25M", "25 millones" and "veinticinco millones" are 25,000,000; "25.000.000",
    "25,000,000" and "25 000 000" too; "6,25" is 6.25; "4.ª" and "cuarta" are 4. A number of
    more than :data:`MAX_DIGITS` digits is not read. Never raises.
    """
    t = _weak_ones(_prepare(text), lambda m: f" {_WEAK_MARK} ")
    weak = t.count(_WEAK_MARK)
    t = _to_digits(t)
    strong = [v for m in _NUMBER_RE.finditer(t) if (v := _number_value(m, t)) is not None]
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
    """Return the distinct numbers ``text`` names, in the item's unit, in order of appearance.

    Standalone "un"/"una" (articles) count as 1 only when no other number is named. This reads
    every number of the text; :func:`grade` reads the stated answer. Never raises.
    """
    scan = scan_numbers(text)
    values = scan.strong if scan.strong else (Fraction(1),) * min(scan.weak, 1)
    out: list[Fraction] = []
    for v in values:
        u = in_unit(v, unit)
        if u not in out:
            out.append(u)
    return out


def _plain_number(value: Fraction) -> str:
    """Digits for a whole number, a short decimal otherwise (``6.25``)."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.6g}"


def format_number(value: Fraction, unit: str = "") -> str:
    """Write a number for a message: ``25``, ``6.25``, ``25M``, ``66 %``. Never raises for values of up to 15 digits."""
    text = _plain_number(value)
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
    t = _to_digits(t)
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


@lru_cache(maxsize=8192)
def _phrase_tokens(text: str) -> tuple[str, ...]:
    """The normalised tokens of an option text or a vocabulary form (cached: the bank's texts repeat)."""
    return tuple(normalize(text).split())


def _match_phrases(
    tokens: Sequence[str], phrases: Iterable[tuple[Sequence[str], str]], same: Callable[[str, str], bool]
) -> list[tuple[int, int, str]]:
    """Find each phrase in ``tokens``; longer phrases first, no token used twice.

    Returns ``(start, end, key)`` triples sorted by ``start``.
    """
    ordered = sorted(((list(p), key) for p, key in phrases if p), key=lambda f: -len(f[0]))
    used = [False] * len(tokens)
    found: list[tuple[int, int, str]] = []
    for norm, key in ordered:
        n = len(norm)
        for i in range(len(tokens) - n + 1):
            if any(used[i : i + n]):
                continue
            if all(same(tokens[i + k], norm[k]) for k in range(n)):
                for k in range(i, i + n):
                    used[k] = True
                found.append((i, i + n, key))
    return sorted(found)


def _vocabulary_forms(vocabulary: Vocabulary) -> list[tuple[Sequence[str], str]]:
    return [(_phrase_tokens(form), entry.term) for entry in vocabulary.terms for form in entry.forms]


def find_terms(text: str, vocabulary: Vocabulary) -> list[str]:
    """Return the distinct canonical terms of ``vocabulary`` that ``text`` names, in order.

    Longer forms win over shorter ones that overlap them ("Estrategia roja" before
    "Estrategia"). Never raises.
    """
    out: list[str] = []
    for _, _, term in _match_phrases(normalize(text).split(), _vocabulary_forms(vocabulary), _same_word):
        if term not in out:
            out.append(term)
    return out


# --------------------------------------------------------------------------- reading an answer

TokenKind = Literal["word", "num", "weak", "sym", "punct"]


@dataclass(frozen=True)
class _Tok:
    """One token of an answer.

    ``raw`` is the folded token (``"la"``, ``","``, ``"25"``); ``norm`` is the token as
    :func:`normalize` writes it (``None`` where normalize drops it: punctuation, articles,
    article "un"/"una"); ``value`` is a number's value (``None`` past MAX_DIGITS, then
    ``huge``); ``upper`` marks a capital letter A-D standing alone.
    """

    raw: str
    norm: str | None
    kind: TokenKind
    value: Fraction | None = None
    huge: bool = False
    upper: bool = False


_UPPER_MARK = "xupperletter"
_UPPER_LETTER_RE = re.compile(r"(?<![^\W_])([A-D])(?![^\W_])")
_NEXT_WORD_RE = re.compile(r"\s+([^\W\d_]+)")
_LEX_RE = re.compile(
    rf"(?P<num>{_NUMBER_RE.pattern})"
    r"|(?P<word>\+?[^\W\d_]+)"
    r"|(?P<digits>\d+)"
    r"|(?P<punct>[^\w\s])"
)
_MARKUP_RE = re.compile(r"[*_`#\"“”„«»‘’'\[\]{}]|^\s*>\s", re.MULTILINE)
_APPROX_RE = re.compile(rf"(?<!\w)(?:{spanish.APPROXIMATORS})(?!\w)|[~≈]|{spanish.NOT_NUMBERS}")


def clean_text(text: str) -> str:
    """Return ``text`` in Unicode NFC with control, format, private-use and unassigned characters,
    line breaks and Markdown marks (``*``, ``_``, backticks, ``#``, quotes) replaced by spaces. Never raises.
    """
    out = []
    for c in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(c)
        out.append(" " if cat[0] in "CZ" else c)
    return _MARKUP_RE.sub(" ", "".join(out))


def _mark_upper_letters(text: str) -> str:
    """Replace each standalone capital A-D that reads as an option letter with a marker word.

    A capital "A" followed by a lowercase word is the preposition ("A mi juicio") unless the
    word is one that follows a letter ("A porque...", "A y B").
    """

    def sub(m: re.Match[str]) -> str:
        letter = m.group(1)
        if letter == "A":
            nxt = _NEXT_WORD_RE.match(text, m.end())
            if nxt and nxt.group(1).islower() and fold(nxt.group(1)) not in spanish.LETTER_A_FOLLOWERS:
                return letter
        return f" {_UPPER_MARK}{letter.lower()} "

    return _UPPER_LETTER_RE.sub(sub, text)


@lru_cache(maxsize=4096)
def _lex(text: str, *, letters: bool = False, approx: bool = False) -> tuple[_Tok, ...]:
    """Split ``text`` into tokens: numbers (words read as digits), words, symbols and punctuation.

    ``letters`` marks capital option letters; ``approx`` drops "unos", "alrededor de" and the
    like (they mean the number they precede). The ``norm`` of the tokens, joined, is what
    :func:`normalize` returns for ``text`` (without ``approx``).
    """
    t = clean_text(text)
    if letters:
        t = _mark_upper_letters(t)
    t = _prepare(t)
    if approx:
        t = _APPROX_RE.sub(" ", t)
    t = _to_digits(_weak_ones(t, lambda m: f" {_WEAK_MARK} "))
    out: list[_Tok] = []
    for m in _LEX_RE.finditer(t):
        kind = next(k for k in ("num", "word", "digits", "punct") if m.group(k) is not None)
        if kind == "num":
            value = _number_value(m, t)
            if value is None:
                digits = re.sub(r"[^\d]", "", m.group("int")).lstrip("0") or "0"
                out.append(_Tok(m.group(0).strip(), digits, "num", None, huge=True))
            else:
                body = str(value.numerator) if value.denominator == 1 else f"{value.numerator}d{value.denominator}"
                out.append(_Tok(m.group(0).strip(), body.lstrip("-"), "num", value))
            if m.group("mag") == "%":
                out.append(_Tok("%", "%", "sym"))
        elif kind == "word":
            word = fold(m.group(0))
            if word == _WEAK_MARK:
                out.append(_Tok("un", None, "weak"))
            elif word.startswith(_UPPER_MARK) and len(word) == len(_UPPER_MARK) + 1:
                out.append(_Tok(word[-1], word[-1], "word", upper=True))
            else:
                parts = _TOKEN_RE.findall(word)
                out.extend(_Tok(p, None if p in _ARTICLES else p, "word") for p in parts)
                if not parts:
                    out.append(_Tok(word, None, "word"))
        elif kind == "digits":
            out.extend(_Tok(p, p, "word") for p in _TOKEN_RE.findall(fold(m.group(0))))
        else:
            mark = m.group(0)
            out.append(_Tok(mark, mark if mark in "$%" else None, "sym" if mark in "$%" else "punct"))
    return tuple(out)


@dataclass(frozen=True)
class _Mention:
    """A candidate answer named in the text: tokens ``start:end`` name ``value``."""

    start: int
    end: int
    value: Hashable
    weak: bool = False


def _find(
    raws: Sequence[str], phrases: Iterable[Phrase], start: int = 0, end: int | None = None
) -> list[tuple[int, int]]:
    """Every ``(start, end)`` where one of ``phrases`` occurs in ``raws[start:end]``."""
    stop = len(raws) if end is None else end
    out = []
    for phrase in phrases:
        n = len(phrase)
        for i in range(start, stop - n + 1):
            if tuple(raws[i : i + n]) == phrase:
                out.append((i, i + n))
    return sorted(out)


def _number_mentions(toks: Sequence[_Tok], unit: str) -> list[_Mention]:
    out = [
        _Mention(i, i + 1, in_unit(t.value, unit))
        for i, t in enumerate(toks)
        if t.kind == "num" and t.value is not None
    ]
    out += [_Mention(i, i + 1, Fraction(1), weak=True) for i, t in enumerate(toks) if t.kind == "weak"]
    return sorted(out, key=lambda m: m.start)


def _norm_view(toks: Sequence[_Tok]) -> tuple[list[str], list[int]]:
    """The tokens :func:`normalize` keeps, with their indices in ``toks``."""
    index = [i for i, t in enumerate(toks) if t.norm is not None]
    return [toks[i].norm or "" for i in index], index


def _phrase_mentions(
    toks: Sequence[_Tok], phrases: Iterable[tuple[Sequence[str], str]], same: Callable[[str, str], bool]
) -> list[_Mention]:
    norms, index = _norm_view(toks)
    return [_Mention(index[s], index[e - 1] + 1, key) for s, e, key in _match_phrases(norms, phrases, same)]


def _is_letter(toks: Sequence[_Tok], i: int) -> bool:
    """Whether token ``i`` reads as an option letter (see :func:`_mark_upper_letters` for capitals)."""
    t = toks[i]
    if t.kind != "word" or t.raw not in ("a", "b", "c", "d"):
        return False
    if t.upper or t.raw != "a":
        return True
    prev = toks[i - 1].raw if i > 0 else ""
    nxt = toks[i + 1].raw if i + 1 < len(toks) else ""
    if prev in spanish.LETTER_INTRODUCERS or nxt == ")":
        return True
    if prev == ":" and i >= 2 and toks[i - 2].raw in ("respuesta", "answer", "opcion", "final", "letra"):
        return True
    return sum(1 for u in toks if u.kind in ("word", "num")) == 1


def _choice_mentions(toks: Sequence[_Tok], options: Sequence[str]) -> list[_Mention]:
    phrases = [(_phrase_tokens(o), CHOICE_LETTERS[i]) for i, o in enumerate(options)]
    out = _phrase_mentions(toks, phrases, str.__eq__)
    used = {k for m in out for k in range(m.start, m.end)}
    out += [_Mention(i, i + 1, toks[i].raw.upper()) for i in range(len(toks)) if i not in used and _is_letter(toks, i)]
    return sorted(out, key=lambda m: m.start)


def _term_mentions(toks: Sequence[_Tok], vocabulary: Vocabulary) -> list[_Mention]:
    return _phrase_mentions(toks, _vocabulary_forms(vocabulary), _same_word)


def _mentions(toks: Sequence[_Tok], item: Item, vocabulary: Vocabulary | None) -> list[_Mention]:
    if item.type == "integer":
        return _number_mentions(toks, item.unit)
    if item.type == "choice":
        return _choice_mentions(toks, item.options)
    return _term_mentions(toks, vocabulary) if vocabulary else []


def _lex_for(item: Item, text: str) -> tuple[_Tok, ...]:
    return _lex(text, letters=item.type == "choice", approx=item.type == "integer")


@lru_cache(maxsize=4096)
def _prompt_facts(item: Item, vocabulary: Vocabulary | None) -> tuple[Counter[Hashable], frozenset[str]]:
    """What the prompt states: how often it names each candidate, and which bound families it asks about."""
    toks = _lex_for(item, item.prompt)
    counts = Counter(m.value for m in _mentions(toks, item, vocabulary) if not m.weak)
    raws = [t.raw for t in toks]
    families = set()
    if _find(raws, spanish.PROMPT_LOWER_WORDS):
        families.add("lower")
    if _find(raws, spanish.PROMPT_UPPER_WORDS):
        families.add("upper")
    return counts, frozenset(families)


@dataclass(frozen=True)
class _Reading:
    """What an answer gives: one value, or why it gives none."""

    value: Hashable | None
    problem: str = ""
    named: tuple[Hashable, ...] = ()
    denied: tuple[Hashable, ...] = ()
    bound: str = ""


def _denied_after(toks: Sequence[_Tok], i: int, mention_at: dict[int, _Mention]) -> int | None:
    """The start of the mention a pre-negator at ``i`` denies ("no es la A"), or ``None``."""
    for j in range(i + 1, min(len(toks), i + 8)):
        if j in mention_at:
            return mention_at[j].start
        u = toks[j]
        if not (u.kind == "weak" or (u.kind == "word" and u.raw in spanish.NEGATION_FILLERS)):
            return None
    return None


def _denied_before(toks: Sequence[_Tok], i: int, mention_at: dict[int, _Mention]) -> int | None:
    """The start of the mention a post-negator at ``i`` denies ("la A es incorrecta", "4 no"), or ``None``."""
    for j in range(i - 1, max(-1, i - 5), -1):
        owner = next((m for m in mention_at.values() if m.end - 1 == j), None)
        if owner is not None:
            return owner.start
        u = toks[j]
        if not (u.kind == "weak" or (u.kind == "word" and u.raw in ("es", "son", "seria", "sera", "is", "la", "el"))):
            return None
    return None


def _post_negates(toks: Sequence[_Tok], i: int) -> bool:
    """Whether the word at ``i`` denies what comes before it ("no" only at a clause's end or before "es")."""
    t = toks[i]
    if t.raw not in spanish.POST_NEGATORS:
        return False
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    return t.raw != "no" or nxt is None or nxt.kind == "punct" or nxt.raw in spanish.POST_NEGATION_VERBS


def _scope_words(toks: Sequence[_Tok], covered: set[int], mention_at: dict[int, _Mention]) -> set[int]:
    """Indices of the mentions a negator denies: after a pre-negator, before a post-negator.

    Between them only fillers ("es", "la", "creo que"...) may stand; punctuation ends the scope.
    Negators inside a mention (an option reading "No, nunca") do not count.
    """
    raws = [t.raw for t in toks]
    in_bounds = {k for _, phrases, _ in _BOUND_FAMILIES for s, e in _find(raws, phrases) for k in range(s, e)}
    denied: set[int] = set()
    for i, t in enumerate(toks):
        if i in covered or i in in_bounds or t.kind != "word":
            continue
        found = [_denied_after(toks, i, mention_at)] if t.raw in spanish.NEGATORS else []
        if _post_negates(toks, i):
            found.append(_denied_before(toks, i, mention_at))
        denied.update(d for d in found if d is not None)
    return denied


_BOUND_FAMILIES: tuple[tuple[str, tuple[Phrase, ...], bool], ...] = (
    ("lower", spanish.LOWER_BOUNDS_BEFORE, True),
    ("upper", spanish.UPPER_BOUNDS_BEFORE, True),
    ("strict", spanish.STRICT_BOUNDS_BEFORE, True),
    ("lower", spanish.LOWER_BOUNDS_AFTER, False),
    ("upper", spanish.UPPER_BOUNDS_AFTER, False),
)


def _bound_of(toks: Sequence[_Tok], m: _Mention, allowed: frozenset[str]) -> str:
    """The bound phrase framing a number mention ("más de", "o más"), or ``""``.

    A lower or upper bound is allowed (``""``) when the prompt asks for a minimum or a maximum.
    """
    raws = [t.raw for t in toks]
    after = m.end
    while after < len(toks) and toks[after].raw == "%":
        after += 1
    for family, phrases, before in _BOUND_FAMILIES:
        for phrase in phrases:
            n = len(phrase)
            span = raws[m.start - n : m.start] if before else raws[after : after + n]
            if len(span) == n and tuple(span) == phrase:
                if family in allowed:
                    return ""
                if phrase == ("+",) and after + 1 < len(toks) and toks[after + 1].kind == "num":
                    continue  # "4 + 2" is a sum, not "4 or more"
                return " ".join(phrase)
    return ""


def _hedged(raws: Sequence[str], covered: set[int], start: int, end: int) -> bool:
    """Whether ``raws[start:end]`` holds a hedge word ("o", "quizá", "entre"...) outside the mentions.

    A hedge word that is part of a conclusion marker ("o sea") does not count.
    """
    marked = {k for s, e in _find(raws, spanish.CONCLUSION_MARKERS, start, end) for k in range(s, e)}
    skip = covered | marked
    return any(not any(k in skip for k in range(s, e)) for s, e in _find(raws, spanish.HEDGES, start, end))


def _listed(toks: Sequence[_Tok], ms: Sequence[_Mention]) -> bool:
    """Whether two different candidates stand with only joiners between them ("4 y 5", "B/C", "B) <text of C>")."""
    for a, b in itertools.pairwise(ms):
        if a.value == b.value:
            continue
        between = toks[a.end : b.start]
        if not all(t.kind in ("punct", "weak", "sym") or t.raw in spanish.LIST_JOINERS for t in between):
            continue
        return True
    return False


def _aside(toks: Sequence[_Tok], start: int) -> bool:
    """Whether a parenthesis open before ``start`` holds words of its own ("(3M por cada dividendo)"), not
    only a candidate and joiners ("(o 5)")."""
    for t in toks[start:]:
        if t.raw == ")":
            return False
        if t.kind == "word" and t.raw not in spanish.LIST_JOINERS:
            return True
    return False


_OPERATORS = {
    "+": "add", "mas": "add", "y": "add", "e": "add", ",": "add", "plus": "add", "and": "add",
    "-": "sub", "menos": "sub", "minus": "sub",
    "x": "mul", "×": "mul", "por": "mul", "times": "mul", "de": "mul",
}  # fmt: skip
_BREAKDOWN_OPENERS = frozenset({"(", ":", "=", "—", "–"})
_BREAKDOWN_PHRASES: tuple[Phrase, ...] = (("es", "decir"), ("o", "sea"))


def _worked_value(span: Sequence[_Tok], value_at: dict[int, Fraction], offset: int) -> tuple[Fraction, ...]:
    """Combine the numbers of ``span`` by the operators between them, left to right (a sum by default).

    Returns ``(result,)``, or ``(result, stated)`` when an "=" states the result; ``()`` without a number.
    """
    total: Fraction | None = None
    op = "add"
    for k, t in enumerate(span):
        v = value_at.get(offset + k)
        if t.raw == "=" and total is not None:
            rest = [value_at[offset + j] for j in range(k + 1, len(span)) if offset + j in value_at]
            return (total, rest[0]) if len(rest) == 1 else ()
        if v is None:
            op = _OPERATORS.get(t.raw, op)
            continue
        if total is None:
            total = v
        elif op == "sub":
            total -= v
        elif op == "mul":
            total *= v
        else:
            total += v
        op = "add"
    return () if total is None else (total,)


def _numbers_between(mentions: Sequence[_Mention], start: int, end: int) -> dict[int, Fraction]:
    """The numbers named (not weakly) from token ``start`` to ``end``, by the token they start at."""
    return {
        m.start: m.value for m in mentions if not m.weak and start <= m.start < end and isinstance(m.value, Fraction)
    }


def _breakdown_at(toks: Sequence[_Tok], i: int, mentions: Sequence[_Mention], raws: Sequence[str]) -> bool:
    """Whether ``toks[i]`` ("(", ":", "=", "es decir") opens the working of the number named just before it.

    "6M (5M + 1M)", "9 cartas: 6 de construcción y 3 Estrategias", "8M = 5M + 3M", "12M: 4 dividendos de
    3M": the numbers after the opener, combined by the operators between them, give the number before
    it; no hedge or negation stands in the working ("menos" between numbers is a minus).
    """
    width = next((len(p) for p in _BREAKDOWN_PHRASES if tuple(raws[i : i + len(p)]) == p), 0)
    if not width and toks[i].raw not in _BREAKDOWN_OPENERS:
        return False
    width = width or 1
    before = [m for m in mentions if m.end <= i and not m.weak]
    if not before:
        return False
    head = before[-1]
    between = toks[head.end : i]
    if len(between) > 3 or any(t.kind in ("num", "weak") for t in between):
        return False
    end = len(toks)
    if toks[i].raw == "(":
        end = next((k for k in range(i + 1, len(toks)) if toks[k].raw == ")"), len(toks))
    start = i + width
    if _find(raws, spanish.HEDGES, start, end) or any(r in spanish.NEGATORS - {"menos"} for r in raws[start:end]):
        return False
    if not isinstance(head.value, Fraction):
        return False  # a letter or a term is not worked out from numbers ("B (A ... x A")
    worked = _worked_value(toks[start:end], _numbers_between(mentions, start, end), start)
    return bool(worked) and all(w == head.value for w in worked)


def _explanation_start(toks: Sequence[_Tok], mentions: Sequence[_Mention], covered: set[int]) -> int:
    """Where the explanation begins: a reason connector, a parenthesis with words, or the working of the answer."""
    raws = [t.raw for t in toks]
    starts = [s for s, _ in _find(raws, spanish.REASON_CONNECTORS)]
    starts += [i for i, t in enumerate(toks) if t.raw == "(" and _aside(toks, i + 1)]
    starts += [i for i in range(len(toks)) if _breakdown_at(toks, i, mentions, raws)]
    for s in sorted(starts):
        if s not in covered and any(m.end <= s for m in mentions):
            return s
    return len(toks)


def _statement_start(raws: Sequence[str], covered: set[int], mentions: Sequence[_Mention], cut: int) -> int:
    """Where the stated answer begins: after the last answer marker, then the last conclusion, a candidate follows."""

    def last(phrases: Iterable[Phrase], start: int) -> int:
        for _, e in reversed([se for se in _find(raws, phrases, start, cut) if se[0] not in covered]):
            if any(m.start >= e and m.end <= cut for m in mentions):
                return e
        return start

    region = last(spanish.ANSWER_MARKERS, 0)
    segment = last(spanish.CONCLUSION_MARKERS, region)
    if segment > region and _hedged(raws, covered, region, cut):
        return region  # "B, aunque creo que C": the conclusion does not settle a hedge
    return segment


def _several_or_one(
    toks: Sequence[_Tok],
    raws: Sequence[str],
    covered: set[int],
    positive: Sequence[_Mention],
    segment: int,
    cut: int,
    prompt_counts: Counter[Hashable],
) -> Hashable | None:
    """The one candidate among several named ones that the answer gives, or ``None`` (a hedge or a list)."""
    named = list(dict.fromkeys(m.value for m in positive))
    if len(named) == 1:
        return named[0]
    if _hedged(raws, covered, segment, cut) or _listed(toks, positive):
        return None
    # Restatements of the prompt come first ("Con 2 inversiones, tienes 4"): the answer is the one
    # candidate named more often than the prompt names it, and it must come last.
    counts = Counter(m.value for m in positive)
    excess = [v for v in named if counts[v] > prompt_counts.get(v, 0)]
    if len(excess) != 1 or positive[-1].value != excess[0]:
        return None
    return excess[0]


_PARAPHRASE_STOPWORDS = frozenset(
    {"de", "del", "a", "al", "en", "y", "e", "que", "se", "su", "sus", "con", "para", "por", "es", "son", "un", "una"}
)


def _paraphrase(item: Item, text: str) -> str | None:
    """The option an answer names by its distinctive words ("Va al descarte" for "Va al montón de descarte").

    Every content word of the answer's first clause must be a word of that option, and they must
    name at least half the words that no other option has; a negation or a hedge in the clause
    reads as no option. ``None`` when no single option fits.
    """
    words = normalize(re.split(r"[.;\n(]", text, maxsplit=1)[0]).split()
    for s, _ in _find(words, spanish.REASON_CONNECTORS):
        words = words[:s]
        break
    if not words or _find(words, spanish.HEDGES) or any(w in spanish.NEGATORS for w in words):
        return None
    content = [w for w in words if w not in _PARAPHRASE_STOPWORDS]
    options = [set(_phrase_tokens(o)) for o in item.options]
    fits = [k for k, own in enumerate(options) if content and _names_option(content, own, options)]
    return CHOICE_LETTERS[fits[0]] if len(fits) == 1 else None


def _names_option(content: Sequence[str], own: set[str], options: Sequence[set[str]]) -> bool:
    """Whether every word of ``content`` is a word of the option ``own`` and names half its distinctive words."""
    others = set().union(*(o for o in options if o is not own))
    distinctive = own - others - _PARAPHRASE_STOPWORDS
    if not distinctive or not all(any(_same_word(w, u) for u in own) for w in content):
        return False
    named = {u for u in distinctive if any(_same_word(w, u) for w in content)}
    return 2 * len(named) >= len(distinctive)


@dataclass(frozen=True)
class _Statement:
    """The candidates an answer states: after its markers, before its explanation (``cut``), not denied."""

    toks: tuple[_Tok, ...]
    raws: tuple[str, ...]
    covered: frozenset[int]
    mentions: tuple[_Mention, ...]
    positive: tuple[_Mention, ...]
    denied: tuple[Hashable, ...]
    segment: int
    cut: int

    @property
    def named(self) -> tuple[Hashable, ...]:
        return tuple(dict.fromkeys(m.value for m in self.positive))


def _statement(toks: tuple[_Tok, ...], mentions: list[_Mention]) -> _Statement:
    """Find what ``toks`` states among ``mentions``: the segment, the explanation's start, denials."""
    raws = tuple(t.raw for t in toks)
    covered = {k for m in mentions for k in range(m.start, m.end)}
    mention_at = {k: m for m in mentions for k in range(m.start, m.end)}
    denied_starts = _scope_words(toks, covered, mention_at)
    cut = _explanation_start(toks, mentions, covered)
    segment = _statement_start(raws, covered, mentions, cut)
    seg = [m for m in mentions if m.start >= segment and m.end <= cut]
    if any(not m.weak for m in seg):
        seg = [m for m in seg if not m.weak]
    denied = tuple(dict.fromkeys(m.value for m in seg if m.start in denied_starts))
    positive = tuple(m for m in seg if m.start not in denied_starts)
    return _Statement(toks, raws, frozenset(covered), tuple(mentions), positive, denied, segment, cut)


def _settle(item: Item, st: _Statement, vocabulary: Vocabulary | None) -> _Reading:
    """The one value a statement gives, or why it gives none (several, a bound, a hedge after it)."""
    prompt_counts, allowed_bounds = _prompt_facts(item, vocabulary)
    covered = set(st.covered)
    value = _several_or_one(st.toks, st.raws, covered, st.positive, st.segment, st.cut, prompt_counts)
    if value is None:
        return _Reading(None, "several", st.named, st.denied)
    if item.type == "integer":
        bounds = (_bound_of(st.toks, m, allowed_bounds) for m in st.positive if m.value == value)
        bound = next((b for b in bounds if b), "")
        if bound:
            return _Reading(None, "bound", (value,), st.denied, bound)
    tail = [m for m in st.mentions if m.start >= st.cut and not m.weak]
    if tail and _hedged(st.raws, covered, st.cut, len(st.toks)) and any(m.value != value for m in tail):
        others = tuple(dict.fromkeys(m.value for m in tail if m.value != value))
        return _Reading(None, "hedged-tail", (value, *others), st.denied)
    return _Reading(value, named=(value,), denied=st.denied)


def _read(item: Item, text: str, vocabulary: Vocabulary | None) -> _Reading:
    """Read the answer that ``text`` states for ``item``. Never raises on any text."""
    toks = _lex_for(item, text)
    if item.type == "integer" and any(t.huge for t in toks):
        return _Reading(None, "huge")
    mentions = _mentions(toks, item, vocabulary)
    if not mentions:
        letter = _paraphrase(item, text) if item.type == "choice" else None
        return _Reading(letter, named=(letter,)) if letter else _Reading(None, "none")
    st = _statement(toks, mentions)
    if set(st.named) & set(st.denied):
        return _Reading(None, "contradiction", st.named, st.denied)
    if not st.named:
        return _Reading(None, "denied", st.named, st.denied)
    return _settle(item, st, vocabulary)


# --------------------------------------------------------------------------- grading

_UNREADABLE = "The answer could not be read; give one short answer (a number, a letter A-D or a term)."


def _show(item: Item, value: Hashable) -> str:
    """A candidate as a message shows it: ``25M``, ``66 %``, ``C``, ``Dominar``."""
    if item.type == "integer" and isinstance(value, Fraction):
        return format_number(value, item.unit)
    return str(value)


def _normalized(value: Hashable) -> str:
    """A candidate as :attr:`Grade.normalized` gives it: digits in the item's unit, a letter, a term."""
    if isinstance(value, Fraction):
        return _plain_number(value)
    return str(value)


def _reason(item: Item, r: _Reading, vocabulary: Vocabulary | None) -> str:
    """One English sentence for a reading that gives no answer; never the right answer."""
    listed = ", ".join(_show(item, v) for v in r.named[:4])
    denied = ", ".join(_show(item, v) for v in r.denied[:4])
    noun1 = {"integer": "number", "choice": "option", "term": "term"}[item.type]
    if r.problem == "huge":
        return (
            f"The answer names a number of more than {MAX_DIGITS} digits, which no question here has as its answer; "
            "write one whole number."
        )
    if r.problem == "none":
        if item.type == "integer":
            return "The answer contains no number; write one whole number, in digits or in Spanish words."
        if item.type == "choice":
            return "The answer is neither one of the letters A-D nor the full text of one option."
        if vocabulary is None:
            return "The answer names no term of the vocabulary."
        accepted = ", ".join(vocabulary.term_names)
        return f"The answer names no term of the vocabulary {vocabulary.name!r} (its terms: {accepted})."
    if r.problem == "denied":
        return f"The answer only says what the answer is not ({denied}); state the one {noun1} you give."
    if r.problem == "contradiction":
        return f"The answer both gives and denies {listed}; state one {noun1}."
    if r.problem == "bound":
        return f"The answer gives a bound ({r.bound!r} {listed}), not one number."
    if r.problem == "hedged-tail":
        return f"The answer hedges between {listed} in its explanation; exactly one {noun1} is accepted."
    noun = {"integer": "different numbers", "choice": "options", "term": "different terms"}[item.type]
    return f"The answer names {len(r.named)} {noun} ({listed}); exactly one is accepted."


def _grade_int_answer(item: Item, answer: int) -> Grade:
    if item.type != "integer":
        if item.type == "choice":
            return Grade(False, "A choice is answered with one letter A-D or the text of one option, not a number.")
        return Grade(False, f"This question is answered with one term of the vocabulary {item.vocabulary!r}.")
    if abs(answer) >= 10**MAX_DIGITS:
        return Grade(
            False,
            f"The answer has more than {MAX_DIGITS} digits, which no question here has as its answer; "
            "write one whole number.",
        )
    value = in_unit(Fraction(answer), item.unit)
    normalized = _plain_number(value)
    if value == Fraction(int(item.answer)):
        return Grade(True, normalized=normalized)
    return Grade(False, f"{format_number(value, item.unit)} is not the right number.", normalized)


def _grade_text(item: Item, answer: str, vocabulary: Vocabulary | None) -> Grade:
    if len(clean_text(answer)) > 2 * MAX_ANSWER_CHARS:
        return Grade(False, f"The answer is longer than {MAX_ANSWER_CHARS} characters; give one short answer.")
    r = _read(item, answer, vocabulary)
    if r.value is None:
        return Grade(False, _reason(item, r, vocabulary))
    normalized = _normalized(r.value)
    right = Fraction(int(item.answer)) if item.type == "integer" else item.answer
    if r.value == right:
        return Grade(True, normalized=normalized)
    what = {"integer": "number", "choice": "", "term": "term"}[item.type]
    if item.type == "choice":
        return Grade(False, f"Option {r.value} is not the right one.", normalized)
    return Grade(False, f"{_show(item, r.value)} is not the right {what}.", normalized)


def grade(item: Item, answer: object, vocabulary: Vocabulary | None = None) -> Grade:
    """Grade one answer against one item.

    ``answer`` is the agent's text (or a whole number for an ``integer`` item); anything else
    (``None``, a float, a list, ``True``) is a wrong answer with a reason. ``vocabulary`` is
    the item's vocabulary, required for ``term`` items. Every answer gets a :class:`Grade`:
    a faulty answer is a wrong one with a reason, never an exception.

    Raises:
        ValueError: a ``term`` item without its vocabulary (or with another one), or an
            item of an unknown answer type; these are defects of the caller, not of the answer.
    """
    if item.type not in ("integer", "choice", "term"):
        raise ValueError(f"item {item.id} has unknown answer type {item.type!r}")
    if item.type == "term" and (vocabulary is None or vocabulary.name != item.vocabulary):
        raise ValueError(f"item {item.id} needs the vocabulary {item.vocabulary!r} to be graded")
    if isinstance(answer, bool):
        return Grade(False, "A true/false value is not an answer; write one whole number, letter or term.")
    if isinstance(answer, int):
        return _grade_int_answer(item, answer)
    if not isinstance(answer, str):
        return Grade(False, "The answer must be a string (or a whole number for a numeric question).")
    if len(answer) > MAX_ANSWER_CHARS:
        return Grade(False, f"The answer is longer than {MAX_ANSWER_CHARS} characters; give one short answer.")
    try:
        return _grade_text(item, answer, vocabulary)
    except Exception:  # a defect of the grader must not become a crash of the quiz; the tests prove it unreached
        _log.exception("grader failed on item %s", item.id)
        return Grade(False, _UNREADABLE)


def chosen_letters(answer: str, options: Sequence[str]) -> list[str]:
    """Return the option letters an answer gives, by letter or by an option's text, in order.

    "B", "la B", "B) <text of B>" and "<text of B>" give ``["B"]``; "B o C" and "B) <text of C>"
    give two letters; a denied option ("no es la A") is not given. Never raises.
    """
    item = Item("x/q/choice", "x", "question", "choice", "", "A", ("x",), options=tuple(options))
    try:
        r = _read(item, answer, None)
    except Exception:  # same guarantee as grade()
        _log.exception("grader failed to read letters")
        return []
    if r.value is not None:
        return [str(r.value)]
    return [str(v) for v in r.named] if r.problem in ("several", "hedged-tail") else []


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
