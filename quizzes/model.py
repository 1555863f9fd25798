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

Parametric items are made by *templates* (:class:`Template`), one record shape for every game:
its kind, the sections whose words decide it, ``draw`` (a situation from a seeded
:class:`~engine.core.rng.Rng`), ``ask`` (the Spanish prompt and the form of the answer),
``answer`` (what the engine makes of the situation) and ``explain`` (one Spanish sentence for
practice). :func:`register` turns a template into a :class:`Generator` under
``"<game>/<name>"``; an item's answer is computed by the engine, never written by hand. A
template that only a written ruling decides names it in ``ruling``: its items serve practice
and the tutor, never an entry paper.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Literal, TypeVar

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
            ``"club_agentes.quizzes.generators.market_fortune.answers:portfolio_total"``.
        explanation: one Spanish sentence shown after grading in practice mode.
        support: for a hand-written ``choice`` (or ``term``) item whose right option is not
            written word for word in the rulebook, a phrase quoted verbatim from the cited
            sections that settles the answer. Options are written in the rulebook's register,
            so the right one need not be (and, when it alone would be, must not be) a
            verbatim quote: see :func:`club_agentes.quizzes.bank.form_problems`.
        ruling: the id of the written ruling (``"<game>/rulings/<slug>"``) that decides the
            answer where the rulebook is silent, or ``""`` when the rulebook's (or a printed
            card's) own words decide it. An item with a ruling is practice only.
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
    ruling: str = ""

    @property
    def parametric(self) -> bool:
        """Whether the item was made by a generator."""
        return "/gen/" in self.id


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
    ruling: str = ""

    def make(self, seed: int) -> Item:
        """Return the item this generator makes for ``seed`` (same seed, same item)."""
        return replace(self.fn(Rng(seed)), id=f"{self.game}/gen/{self.name}/{seed}")


GENERATORS: dict[str, Generator] = {}


# --------------------------------------------------------------------------- templates

S = TypeVar("S")


class Redraw(Exception):
    """The drawn situation does not suit the template (the engine refuses it, or a ruling would decide it).

    A template's ``draw``, ``ask`` or ``answer`` raises it; :meth:`Template.make` then draws again
    from the same stream.
    """


@dataclass(frozen=True)
class Ask:
    """What a template asks about a situation: the prompt and the form of the answer, never the answer.

    Attributes:
        prompt: the question in Spanish.
        type: ``"integer"``, ``"choice"`` or ``"term"``.
        options: for ``choice``, four ``(outcome, text)`` pairs: every outcome the question
            offers, whatever the situation; the engine's answer is one of the outcomes.
        unit: for ``integer``, as :attr:`Item.unit`.
        vocabulary: for ``term``, the closed vocabulary of the game.
        sections: the sections this situation cites (e.g. the printed card it names); empty:
            the template's.
    """

    prompt: str
    type: AnswerType
    options: tuple[tuple[Hashable, str], ...] = ()
    unit: str = ""
    vocabulary: str = ""
    sections: tuple[str, ...] = ()


@dataclass(frozen=True)
class Template(Generic[S]):
    """One kind of parametric item: the record every game's generators share.

    Attributes:
        game, name: the generator is registered as ``"<game>/<name>"``.
        kind: ``"question"`` or ``"riddle"``.
        sections: the sections whose words decide the items (the rulebook's, or a printed
            card's); an item may cite a subset or add the card it names (:attr:`Ask.sections`).
        draw: the situation, from a seeded stream (raises :class:`Redraw` to draw again).
        ask: the prompt and the form of the answer for a situation.
        answer: what the engine makes of the situation: a whole number, an outcome of
            :attr:`Ask.options`, or a term of the vocabulary.
        explain: one Spanish sentence for practice, given the situation and the answer.
        ruling: the ruling that decides the items where the rulebook is silent (``""``: none).
            A template with a ruling is practice only.
        entry: whether the items may be drawn for entry papers (never with a ruling).
    """

    game: str
    name: str
    kind: ItemKind
    sections: tuple[str, ...]
    draw: Callable[[Rng], S] = field(compare=False)
    ask: Callable[[S], Ask] = field(compare=False)
    answer: Callable[[S], Hashable] = field(compare=False)
    explain: Callable[[S, Hashable], str] = field(compare=False)
    ruling: str = ""
    entry: bool = True
    tries: int = 400

    @property
    def on_entry(self) -> bool:
        """Whether entry papers may hold this template's items (``entry`` and no ruling)."""
        return self.entry and not self.ruling

    def draw_situation(self, rng: Rng) -> tuple[S, Ask, Hashable]:
        """Return a situation that suits the template, what is asked about it and the engine's answer.

        Raises:
            RuntimeError: no situation suited the template in :attr:`tries` draws (a defect).
        """
        for _ in range(self.tries):
            try:
                situation = self.draw(rng)
                asked = self.ask(situation)
                value = self.answer(situation)
            except Redraw:
                continue
            return situation, asked, value
        raise RuntimeError(f"template {self.game}/{self.name} found no situation in {self.tries} draws")

    def make(self, rng: Rng) -> Item:
        """Return a fresh item (its ``id`` is set by :meth:`Generator.make`).

        A situation whose prompt, read back as an answer, would be graded right (its one number is
        the answer, it names only the right option) is drawn again: echoing the prompt never passes.

        Raises:
            RuntimeError: no situation suited the template in :attr:`tries` draws (a defect).
            ValueError: the answer does not fit the asked form (a defect of the template).
        """
        from club_agentes.quizzes.bank import echoes  # the bank reads this module: imported when first used

        for _ in range(self.tries):
            item = self._item(rng)
            if not echoes(item):
                return item
        raise RuntimeError(f"template {self.game}/{self.name} made only items that echo their answer")

    def _item(self, rng: Rng) -> Item:
        situation, asked, value = self.draw_situation(rng)
        extra: dict[str, Any] = {}
        if asked.type == "choice":
            keys = [k for k, _ in asked.options]
            if len(keys) != len(CHOICE_LETTERS) or keys.count(value) != 1:
                raise ValueError(f"{self.name}: the answer {value!r} is not one of the four outcomes {keys}")
            order = list(range(len(keys)))
            rng.shuffle(order)
            extra["options"] = tuple(asked.options[i][1] for i in order)
            answer = CHOICE_LETTERS[[keys[i] for i in order].index(value)]
        elif asked.type == "integer":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{self.name}: an integer answer must be a whole number of 0 or more, not {value!r}")
            answer = str(value)
            extra["unit"] = asked.unit
        else:
            answer = str(value)
            extra["vocabulary"] = asked.vocabulary
        sections = tuple(dict.fromkeys((*(asked.sections or self.sections), *((self.ruling,) if self.ruling else ()))))
        explanation = self.explain(situation, value)
        if self.ruling:
            explanation += f" Lo decide la resolución {self.ruling}, no el texto del reglamento."
        return Item(
            id=f"{self.game}/gen",
            game=self.game,
            kind=self.kind,
            type=asked.type,
            prompt=asked.prompt,
            answer=answer,
            sections=sections,
            computed=f"{self.answer.__module__}:{self.answer.__qualname__}",
            explanation=explanation,
            ruling=self.ruling,
            **extra,
        )


TEMPLATES: dict[str, Template[Any]] = {}
"""Every registered template, by ``"<game>/<name>"``."""


def register(template: Template[S]) -> Template[S]:
    """Register ``template`` as the generator ``"<game>/<name>"`` (entry unless it has a ruling) and return it.

    Raises:
        ValueError: another template or generator is registered under that name.
    """
    key = f"{template.game}/{template.name}"
    old = TEMPLATES.get(key)
    if (
        old is not None
        and old is not template
        and (old.answer.__module__, old.answer.__qualname__)
        != (
            template.answer.__module__,
            template.answer.__qualname__,
        )
    ):
        raise ValueError(f"template {key} is registered twice")
    if old is None and key in GENERATORS:
        raise ValueError(f"generator {key} is registered twice")
    TEMPLATES[key] = template
    GENERATORS[key] = Generator(
        template.name,
        template.game,
        template.kind,
        template.sections,
        template.make,
        template.on_entry,
        template.ruling,
    )
    return template
