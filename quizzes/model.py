"""What a quiz item is, shared by the question bank, the generators and the grader.

Hand-written items live in ``quizzes/data/<game>/questions.toml`` (questions) and
``quizzes/data/<game>/riddles.toml`` (riddles, "acertijos"), one ``[[item]]`` per
item, with the fields of :class:`Item` (``options`` and ``vocabulary`` only where
the answer type needs them). Closed vocabularies for ``term`` answers live in
``quizzes/data/<game>/vocabularies.toml``::

    [vocabulary.fases]
    description = "Las cinco fases de Se Vende"
    [[vocabulary.fases.term]]
    term = "Explorar"
    synonyms = ["exploración", "fase I"]

Parametric items are made by generator functions registered with
:func:`generator`; each takes a seeded :class:`~engine.core.rng.Rng` and returns
an :class:`Item` whose answer is computed from the rules, never written by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from club_agentes.engine.core.rng import Rng

ItemKind = Literal["question", "riddle"]
AnswerType = Literal["integer", "choice", "term"]
CHOICE_LETTERS = ("A", "B", "C", "D")


@dataclass(frozen=True)
class Item:
    """One quiz item (a question or a riddle) with its answer.

    Attributes:
        id: stable id; hand-written: ``"<game>/q/<slug>"`` or ``"<game>/r/<slug>"``;
            parametric: ``"<game>/gen/<generator>/<seed>"``.
        game: the game id.
        kind: ``"question"`` or ``"riddle"``.
        type: ``"integer"`` (one whole number; see ``unit``), ``"choice"`` (one of
            the letters A-D, see ``options``) or ``"term"`` (a word from the closed
            vocabulary named by ``vocabulary``).
        prompt: the question in Spanish.
        answer: the canonical answer: digits for ``integer`` (``"25"``), a letter
            for ``choice`` (``"B"``), the vocabulary's own term for ``term``.
        sections: the corpus section ids the answer rests on (at least one).
        options: for ``choice``, exactly four option texts, in A-D order.
        unit: for ``integer``, ``"M"`` when the number counts millions (then "25M",
            "25 millones" and "25.000.000" all mean 25), ``"%"`` for a percentage,
            or ``""`` for a plain count.
        vocabulary: for ``term``, the name of the closed vocabulary of the game.
        computed: for an answer that does not appear in the cited text, the dotted
            path of the function that computes it, e.g.
            ``"club_agentes.quizzes.generators.market_fortune:portfolio_total"``.
        explanation: one Spanish sentence shown after grading in practice mode.
        support: for a hand-written ``choice`` (or ``term``) item whose right option is not
            written word for word in the rulebook, a phrase quoted verbatim from the cited
            sections that settles the answer. Options are written in the rulebook's register,
            so the right one need not be (and, when it alone would be, must not be) a
            verbatim quote: see :func:`club_agentes.quizzes.bank.form_problems`.
    """

    id: str
    game: str
    kind: ItemKind
    type: AnswerType
    prompt: str
    answer: str
    sections: tuple[str, ...]
    options: tuple[str, ...] = ()
    unit: str = ""
    vocabulary: str = ""
    computed: str = ""
    explanation: str = ""
    support: str = ""

    @property
    def parametric(self) -> bool:
        """Whether the item was made by a generator."""
        return "/gen/" in self.id


def computed_item(
    game: str,
    module: str,
    kind: ItemKind,
    type_: AnswerType,
    prompt: str,
    answer: str,
    sections: tuple[str, ...],
    computed: str,
    explanation: str,
    **extra: Any,
) -> Item:
    """Return a generator's item whose answer ``module:computed`` computes (the id is set by the registry).

    Duplicate section ids are dropped, keeping the first of each.
    """
    return Item(
        id=f"{game}/gen",
        game=game,
        kind=kind,
        type=type_,
        prompt=prompt,
        answer=answer,
        sections=tuple(dict.fromkeys(sections)),
        computed=f"{module}:{computed}",
        explanation=explanation,
        **extra,
    )


GeneratorFn = Callable[[Rng], Item]


@dataclass(frozen=True)
class Generator:
    """A registered maker of fresh parametric items."""

    name: str
    game: str
    kind: ItemKind
    sections: tuple[str, ...]
    fn: GeneratorFn = field(compare=False)
    entry: bool = True

    def make(self, seed: int) -> Item:
        """Return the item this generator makes for ``seed`` (same seed, same item)."""
        return replace(self.fn(Rng(seed)), id=f"{self.game}/gen/{self.name}/{seed}")


GENERATORS: dict[str, Generator] = {}


def generator(
    game: str, kind: ItemKind, name: str, sections: tuple[str, ...], *, entry: bool = True
) -> Callable[[GeneratorFn], GeneratorFn]:
    """Register a generator function under ``"<game>/<name>"``.

    The function builds an :class:`Item` from the ``Rng`` it is given; its ``id``
    may be anything, since :meth:`Generator.make` sets it to
    ``"<game>/gen/<name>/<seed>"``. ``entry=False`` keeps the generator out of entry
    papers (practice and export only). An entry riddle generator (``kind="riddle"``,
    ``entry=True``) must need two rules at once and cite both.

    Raises:
        ValueError: a generator is already registered under that name.
    """

    def register(fn: GeneratorFn) -> GeneratorFn:
        key = f"{game}/{name}"
        old = GENERATORS.get(key)
        # A module re-imported after a failed first import registers the same function again: allowed.
        if old is not None and (old.fn.__module__, old.fn.__qualname__) != (fn.__module__, fn.__qualname__):
            raise ValueError(f"generator {key} is registered twice")
        GENERATORS[key] = Generator(name, game, kind, sections, fn, entry)
        return fn

    return register
