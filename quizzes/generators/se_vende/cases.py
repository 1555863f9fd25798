"""How a Se Vende generator is registered: a *case* is an item with the engine's answer and the rules' answer.

Each generator is a function from a seeded ``Rng`` to a :class:`Case` (or ``None`` when the
drawn game does not fit; then the next draw of the same stream is tried). The item's answer is
the engine's (``Case.engine``); ``Case.rule`` is the same answer computed from the facts the
prompt states by a function of :mod:`.rules`; the bank's tests hold the two equal. A case whose
item gives its answer away by its form (:func:`club_agentes.quizzes.bank.form_problems`) is
drawn again (:func:`gives_away`, a quick screen; the tests run the full check).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from club_agentes.engine.core import Rng
from club_agentes.quizzes.bank import load_vocabularies
from club_agentes.quizzes.generators.se_vende.table import GAME_ID, NoSituation
from club_agentes.quizzes.grading import Vocabulary, find_terms, grade, normalize, numbers_in_text
from club_agentes.quizzes.model import CHOICE_LETTERS, AnswerType, Item, ItemKind, computed_item, generator

from club_agentes.manifest import manifest

GAME = GAME_ID
PACKAGE = "club_agentes.quizzes.generators.se_vende"
ATTEMPTS = 80


@dataclass(frozen=True)
class Case:
    """One drawn item with both computations of its answer.

    Attributes:
        item: the item (its answer is the engine's).
        engine: what the engine did in the situation (a number, a phase, a yes/no...).
        rule: what the named rule function computes from the facts the prompt states.
    """

    item: Item
    engine: Any
    rule: Any


CaseFn = Callable[[Rng], Case | None]
CASES: dict[str, CaseFn] = {}
"""Every Se Vende generator's case function, by generator name."""


@cache
def rulebook() -> str:
    """Return the whole Se Vende rulebook text (what ``form_problems`` greps)."""
    m = manifest(GAME)
    if m is None:
        raise LookupError(f"no game manifest names {GAME!r}")
    return m.corpus_dir().joinpath("rulebook.txt").read_text(encoding="utf-8")


@cache
def normalized_rulebook() -> str:
    """Return the rulebook normalised as the grader normalises text, between spaces (for whole-token search)."""
    return f" {normalize(rulebook())} "


@cache
def vocabularies() -> dict[str, Vocabulary]:
    """Return the Se Vende vocabularies of the question bank."""
    return load_vocabularies(GAME)


def draw(rng: Rng, fn: CaseFn) -> Case:
    """Return the first case ``fn`` makes from ``rng`` that fits and does not give its answer away.

    Raises:
        RuntimeError: no such case in :data:`ATTEMPTS` tries (a defect of the generator).
    """
    for _ in range(ATTEMPTS):
        try:
            case = fn(rng)
        except NoSituation:
            continue
        if case is not None and not gives_away(case.item):
            return case
    raise RuntimeError(f"{fn.__name__} made no usable item in {ATTEMPTS} draws")


def gives_away(it: Item) -> bool:
    """Whether an item gives its answer away by its form, as :func:`club_agentes.quizzes.bank.form_problems` finds.

    The same three findings, computed faster for a screen run on every draw: a choice whose
    right option alone is found word for word in the rulebook (whole normalised tokens, the
    rulebook normalised once); a prompt the grader accepts as the answer (asked of the grader
    only when the prompt names the answer at all). Vocabulary sizes are checked by the bank's tests.
    """
    vocab = vocabularies()[it.vocabulary] if it.type == "term" else None
    if it.type == "choice":
        found = [CHOICE_LETTERS[i] for i, o in enumerate(it.options) if f" {normalize(o)} " in normalized_rulebook()]
        if found == [it.answer]:
            return True
    elif it.type == "integer":
        if Fraction(int(it.answer)) not in numbers_in_text(it.prompt, it.unit):
            return False
    elif vocab is None or it.answer not in find_terms(it.prompt, vocab):
        return False
    return grade(it, it.prompt, vocab).correct


def case_generator(kind: ItemKind, name: str, sections: tuple[str, ...]) -> Callable[[CaseFn], CaseFn]:
    """Register a case function as the generator ``se-vende/<name>`` (see :func:`quizzes.model.generator`).

    Raises:
        ValueError: another generator already has that name.
    """

    def register(fn: CaseFn) -> CaseFn:
        def make(rng: Rng) -> Item:
            return draw(rng, fn).item

        make.__name__ = fn.__name__
        make.__qualname__ = fn.__qualname__
        make.__module__ = fn.__module__
        make.__doc__ = fn.__doc__
        generator(GAME, kind, name, sections)(make)
        CASES[name] = fn
        return fn

    return register


def item(
    kind: ItemKind,
    type_: AnswerType,
    prompt: str,
    answer: str,
    sections: Sequence[str],
    computed: str,
    explanation: str,
    **extra: Any,
) -> Item:
    """Return a generated item; ``computed`` names a function of :mod:`.rules` (``"trade_draw"``)."""
    return computed_item(GAME, PACKAGE, kind, type_, prompt, answer, tuple(sections), computed, explanation, **extra)


def choice(rng: Rng, correct: str, wrong: Sequence[str]) -> tuple[tuple[str, ...], str]:
    """Shuffle one right and three wrong options; return the options and the right letter.

    Raises:
        ValueError: not exactly three distinct wrong options, or the right one among them.
    """
    if len(set(wrong)) != 3 or correct in wrong:
        raise ValueError("a choice needs one right option and three distinct wrong ones")
    options = [correct, *wrong]
    rng.shuffle(options)
    return tuple(options), CHOICE_LETTERS[options.index(correct)]
