"""What every Yo soy el jefe generator shares: the item maker and shuffled choice options."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any, TypeVar

from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.grading import normalize
from club_agentes.quizzes.model import CHOICE_LETTERS, AnswerType, Item, ItemKind, computed_item, generator
from club_agentes.rules_corpus import load_corpus

GAME = "yo-soy-el-jefe"
MODULE = "club_agentes.quizzes.generators.yo_soy_el_jefe"
# A seed for the engine's own table, drawn from the item's stream (tables are seeded 0 to 2**31 - 1).
TABLE_SEEDS = 1 << 31


def item(
    kind: ItemKind,
    type_: AnswerType,
    prompt: str,
    answer: str | int,
    sections: Sequence[str],
    computed: str,
    explanation: str,
    **extra: Any,
) -> Item:
    """Return a generator's item; ``computed`` names the rule function of this package that states the rule.

    Raises:
        ValueError: an integer answer that is negative.
    """
    text = str(answer)
    if type_ == "integer" and not text.isdigit():
        raise ValueError(f"an integer answer must be a whole number of zero or more, not {answer!r}")
    return computed_item(GAME, MODULE, kind, type_, prompt, text, tuple(sections), computed, explanation, **extra)


def choice(rng: Rng, right: str, wrong: Sequence[str]) -> tuple[tuple[str, ...], str]:
    """Return four options (the right one and three wrong ones) in a random order, and the right letter.

    Raises:
        ValueError: not exactly three wrong options, or two options alike.
    """
    options = [right, *wrong]
    if len(options) != len(CHOICE_LETTERS) or len({o.casefold() for o in options}) != len(options):
        raise ValueError(f"a choice needs four distinct options, not {options}")
    rng.shuffle(options)
    return tuple(options), CHOICE_LETTERS[options.index(right)]


def choice_item(
    rng: Rng,
    kind: ItemKind,
    prompt: str,
    right: str,
    wrong: Sequence[str],
    sections: Sequence[str],
    computed: str,
    explanation: str,
) -> Item:
    """Return a choice item with the options shuffled.

    Raises:
        ValueError: as :func:`choice`.
    """
    options, letter = choice(rng, right, wrong)
    return item(kind, "choice", prompt, letter, sections, computed, explanation, options=options)


# Every generator's situation maker, by generator name: ``SITUATIONS[name](Rng(seed))`` is
# the situation behind the item that seed makes (the maker draws first, from the same
# stream), so the tests can rebuild it on a real table and compare the engine's answer.
SITUATIONS: dict[str, Callable[[Rng], Any]] = {}

S = TypeVar("S")


def register(
    kind: ItemKind, name: str, sections: tuple[str, ...], draw: Callable[[Rng], S]
) -> Callable[[Callable[[S, Rng], Item]], Callable[[S, Rng], Item]]:
    """Register ``build(draw(rng), rng)`` as the entry generator ``name`` and keep ``draw`` in :data:`SITUATIONS`.

    Raises:
        ValueError: a generator is already registered under that name.
    """

    def wrap(build: Callable[[S, Rng], Item]) -> Callable[[S, Rng], Item]:
        def make(rng: Rng) -> Item:
            return build(draw(rng), rng)

        make.__name__ = make.__qualname__ = f"gen_{name.replace('-', '_')}"
        make.__module__ = build.__module__
        generator(GAME, kind, name, sections)(make)
        SITUATIONS[name] = draw
        return build

    return wrap


def name_options(rng: Rng, answer: str, mentioned: Sequence[str], others: Sequence[str], k: int = 3) -> list[str]:
    """Return ``k`` wrong names for a choice among players: first those the prompt mentions, then ``others``.

    A prompt that names the right player and no other option would answer itself; taking the
    wrong options from the players it mentions keeps at least two options named in it.

    Raises:
        ValueError: fewer than ``k`` wrong names are available.
    """
    named = [n for n in dict.fromkeys(mentioned) if n != answer]
    rest = [n for n in dict.fromkeys(others) if n != answer and n not in named]
    rng.shuffle(named)
    rng.shuffle(rest)
    picked = (named + rest)[:k]
    if len(picked) < k:
        raise ValueError(f"{k} wrong names are needed, only {picked} are available")
    return picked


@cache
def _rulebook_tokens() -> str:
    """The whole verbatim rulebook, normalised as the grader normalises (tokens, space-separated, padded)."""
    corpus = load_corpus()
    text = "\n".join(s.text for s in corpus.toc(GAME) if s.kind == "rulebook")
    return f" {normalize(text)} "


@lru_cache(maxsize=4096)
def in_rulebook(phrase: str) -> bool:
    """Whether ``phrase`` appears word for word in the rulebook (case, accents and articles folded).

    Generators keep such phrases out of their options, so that grepping the rulebook never
    singles out the right one.
    """
    words = normalize(phrase)
    return bool(words) and f" {words} " in _rulebook_tokens()
