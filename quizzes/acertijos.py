"""Acertijos ("¿quién soy?" riddles) built from the rules' own properties, shared by every game.

A :class:`RiddleSet` is a family of riddles about *subjects* (the strategies of Market Fortune,
the phases of Se Vende, the influence cards of Yo soy el jefe, a number of the rules...). Each
:class:`Clue` is one Spanish sentence with the subjects it is true of, computed from the engine's
component data or written by hand beside the rulebook line that makes it true. A riddle draws a
subject, then clues true of it, in a random order, until only that subject fits all of them: the
answer is the one subject every clue holds for, and the sections the riddle cites are the lines
that make its clues true. The same subject is asked with different clues and openings from one
draw to the next, so a riddle cannot be looked up; it is worked out by knowing the rules.

A *flavour* clue (wordplay, an image) never counts towards singling the subject out: the
riddle is solvable from its rule clues alone.

Hand-written subjects and clues live in ``quizzes/data/<game>/acertijos.toml`` (its header documents
the format; :func:`load_riddle_sets` reads and checks it); a game's module adds the clues it computes
from the engine's data (a card's colour, its copies, what it attacks) with :func:`RiddleSet.with_clues`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from club_agentes.engine.core import Rng
from club_agentes.quizzes.model import AnswerType, Ask, Redraw, Template, register

MIN_CLUES = 2
MAX_CLUES = 4


@dataclass(frozen=True)
class Clue:
    """One sentence of a riddle and the subjects it is true of.

    Attributes:
        text: the sentence, in Spanish, ending with its punctuation.
        holds: the subjects the sentence is true of.
        sections: the sections whose words make it true.
        flavour: wordplay or an image; never needed to single the subject out.
    """

    text: str
    holds: frozenset[Hashable]
    sections: tuple[str, ...]
    flavour: bool = False


@dataclass(frozen=True)
class RiddleSet:
    """A family of acertijos about one kind of subject.

    Attributes:
        subjects: the possible answers (terms of ``vocabulary``, or whole numbers).
        clues: every clue about them.
        openings: how a riddle may start (``"Adivina, adivinanza."``); one is drawn.
        questions: how it may end (``"¿Qué carta soy?"``); one is drawn.
        home: subject -> the section that states what the subject is (always cited).
        type: the answer type: ``"term"`` (of ``vocabulary``) or ``"integer"``.
        vocabulary: for ``term`` answers.
        units: for ``integer`` answers, subject -> unit (``"M"`` for millions; default ``""``).
        universe: every thing the clues are checked against (e.g. every card of the deck), a superset of
            ``subjects``; empty means ``subjects``. :meth:`without` keeps the subjects it drops here, so a
            riddle never singles out its answer among fewer things than its clues are true of.
    """

    subjects: tuple[Hashable, ...]
    clues: tuple[Clue, ...]
    openings: tuple[str, ...]
    questions: tuple[str, ...]
    home: Mapping[Hashable, str] = field(default_factory=dict)
    type: AnswerType = "term"
    vocabulary: str = ""
    units: Mapping[Hashable, str] = field(default_factory=dict)
    universe: tuple[Hashable, ...] = ()

    @property
    def pool(self) -> tuple[Hashable, ...]:
        """Every thing a riddle's clues must rule out but its answer: :attr:`universe`, or the subjects."""
        return self.universe or self.subjects

    def with_universe(self, universe: Iterable[Hashable]) -> RiddleSet:
        """Return this set with its clues checked against ``universe`` (which must hold every subject).

        Raises:
            ValueError: a subject is not in ``universe``.
        """
        every = tuple(dict.fromkeys([*self.pool, *universe]))
        missing = [s for s in self.subjects if s not in every]
        if missing:
            raise ValueError(f"subjects {missing} are not in the universe")
        return replace(self, universe=every)

    def with_clues(self, clues: Iterable[Clue], subjects: Iterable[Hashable] = ()) -> RiddleSet:
        """Return this set with more clues (computed from data) and more subjects."""
        more = [s for s in subjects if s not in self.subjects]
        universe = (*self.universe, *(s for s in more if s not in self.universe)) if self.universe else ()
        return replace(self, subjects=(*self.subjects, *more), clues=(*self.clues, *clues), universe=universe)

    def without(self, subjects: Iterable[Hashable]) -> RiddleSet:
        """Return this set without ``subjects`` as answers (e.g. two cards whose rules are the same).

        They stay in :attr:`universe`: a riddle's clues must still rule them out.
        """
        drop = set(subjects)
        return replace(self, subjects=tuple(s for s in self.subjects if s not in drop), universe=self.pool)

    def only_clues(self, keep: Callable[[Clue], bool]) -> RiddleSet:
        """Return this set with only the clues ``keep`` accepts, without the subjects they no longer single out.

        Entry riddles keep the clues only this rulebook's data makes true (numbers, copies, which card
        stops which), and drop those a guess finds from a card's name or from another game.
        """
        kept = replace(self, clues=tuple(c for c in self.clues if keep(c)))
        return kept.without(kept.unsolved())

    def clues_of(self, subject: Hashable) -> list[Clue]:
        """Return the clues true of ``subject``, in data order."""
        return [c for c in self.clues if subject in c.holds]

    def unsolved(self) -> list[Hashable]:
        """Return the subjects that no choice of rule clues singles out of :attr:`pool`."""
        out = []
        for subject in self.subjects:
            left = set(self.pool)
            for clue in self.clues_of(subject):
                if not clue.flavour:
                    left &= clue.holds
            if left != {subject}:
                out.append(subject)
        return out


@dataclass(frozen=True)
class Riddle:
    """One drawn acertijo: its subject, clues in order, opening and question."""

    subject: Hashable
    clues: tuple[Clue, ...]
    opening: str
    question: str
    candidates: tuple[Hashable, ...]


def draw_riddle(riddles: RiddleSet, rng: Rng) -> Riddle:
    """Draw a subject and the clues that single it out, in a random order.

    Raises:
        Redraw: the clues drawn did not single the subject out within :data:`MAX_CLUES`.
    """
    subject = rng.choice(list(riddles.subjects))
    own = riddles.clues_of(subject)
    rules = [c for c in own if not c.flavour]
    rng.shuffle(rules)
    left = set(riddles.pool)
    chosen: list[Clue] = []
    for clue in rules:
        if left == {subject} and len(chosen) >= MIN_CLUES:
            break
        narrows = left & clue.holds != left
        if narrows or len(chosen) < MIN_CLUES:
            chosen.append(clue)
            left &= clue.holds
    if left != {subject} or len(chosen) > MAX_CLUES:
        raise Redraw
    flavours = [c for c in own if c.flavour]
    if flavours and rng.below(2) == 0:
        chosen.insert(rng.below(len(chosen) + 1), rng.choice(flavours))
    else:
        rng.shuffle(chosen)
    return Riddle(
        subject,
        tuple(chosen),
        rng.choice(list(riddles.openings)),
        rng.choice(list(riddles.questions)),
        riddles.pool,
    )


def solve(riddle: Riddle) -> Hashable:
    """Return the one subject every clue of ``riddle`` holds for.

    Raises:
        ValueError: none or several subjects fit (the clue data is wrong).
    """
    fits = [s for s in riddle.candidates if all(s in c.holds for c in riddle.clues)]
    if len(fits) != 1:
        raise ValueError(f"the clues of a riddle fit {fits}, not one subject")
    return fits[0]


RIDDLE_SETS: dict[str, RiddleSet] = {}
"""Every registered riddle template's set, by ``"<game>/<name>"`` (the tests count and check the subjects)."""


def riddle_template(game: str, name: str, riddles: RiddleSet, *, explain: str, entry: bool = True) -> Template[Riddle]:
    """Register and return the riddle template ``"<game>/<name>"`` over ``riddles``.

    ``explain`` is a format string for the practice explanation, with ``{answer}``; ``entry=False``
    keeps the riddles for practice (their clues can be guessed without the rulebook).

    Raises:
        ValueError: the template name is taken, or a subject cannot be singled out.
    """
    unsolved = riddles.unsolved()
    if unsolved:
        raise ValueError(f"{game}/{name}: no clues single out {unsolved}")
    sections = tuple(dict.fromkeys(s for c in riddles.clues for s in c.sections))

    def ask(r: Riddle) -> Ask:
        cited = [riddles.home[r.subject]] if r.subject in riddles.home else []
        cited += [s for c in r.clues if not c.flavour for s in c.sections]
        prompt = " ".join([r.opening, *(c.text for c in r.clues), r.question])
        unit = riddles.units.get(r.subject, "") if riddles.type == "integer" else ""
        return Ask(prompt, riddles.type, unit=unit, vocabulary=riddles.vocabulary, sections=tuple(dict.fromkeys(cited)))

    def explanation(r: Riddle, answer: Hashable) -> str:
        return explain.format(answer=answer)

    RIDDLE_SETS[f"{game}/{name}"] = riddles
    return register(
        Template(
            game, name, "riddle", sections, lambda rng: draw_riddle(riddles, rng), ask, solve, explanation, entry=entry
        )
    )


class RiddleDataError(ValueError):
    """The acertijos data file is inconsistent; the message names the file, the subject and the field."""


def _fail(where: str, problem: str) -> RiddleDataError:
    return RiddleDataError(f"{where}: {problem}")


def _texts(entry: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise _fail(where, f"field {key!r} must be a non-empty list of texts")
    return tuple(value)


def _clue(subject: Hashable, raw: Any, where: str) -> Clue:
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str) or not raw["text"].strip():
        raise _fail(where, "each clue is a table with a non-empty 'text'")
    unknown = set(raw) - {"text", "sections", "also", "flavour"}
    if unknown:
        raise _fail(where, f"a clue has unknown fields {sorted(unknown)}")
    flavour = bool(raw.get("flavour", False))
    sections = raw.get("sections", [])
    if not flavour and (not isinstance(sections, list) or not sections):
        raise _fail(where, f"the clue {raw['text'][:40]!r} needs the 'sections' that make it true")
    also = raw.get("also", [])
    return Clue(raw["text"].strip(), frozenset([subject, *also]), tuple(sections), flavour)


def _riddle_set(raw: Mapping[str, Any], where: str) -> tuple[str, RiddleSet]:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(where, "each [[set]] needs a 'name'")
    type_ = raw.get("type", "term")
    if type_ not in ("term", "integer"):
        raise _fail(f"{where} {name!r}", f"field 'type' must be 'term' or 'integer', not {type_!r}")
    vocabulary = raw.get("vocabulary", "")
    if type_ == "term" and not vocabulary:
        raise _fail(f"{where} {name!r}", "a 'term' set needs its 'vocabulary'")
    return name, RiddleSet(
        (),
        (),
        _texts(raw, "openings", f"{where} {name!r}"),
        _texts(raw, "questions", f"{where} {name!r}"),
        {},
        type_,
        vocabulary,
        {},
    )


def load_riddle_sets(game: str, text: str | None = None) -> dict[str, RiddleSet]:
    """Read ``quizzes/data/<game>/acertijos.toml`` (or ``text``) into its riddle sets, by name.

    Raises:
        RiddleDataError: the file is not valid TOML, or a set, subject or clue is malformed
            (the message names the file, the subject and the field).
    """
    where = f"quizzes/data/{game}/acertijos.toml"
    if text is None:
        text = resources.files("club_agentes.quizzes").joinpath("data", game, "acertijos.toml").read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(where, str(exc)) from None
    sets = dict(_riddle_set(raw, where) for raw in data.get("set", []))
    for raw in data.get("subject", []):
        answer = raw.get("answer")
        at = f"{where}: subject {answer!r}"
        if raw.get("set") not in sets:
            raise _fail(at, f"field 'set' must name a [[set]] of the file ({', '.join(sets)})")
        if not isinstance(answer, str | int) or isinstance(answer, bool):
            raise _fail(at, "field 'answer' must be a term or a whole number")
        home = raw.get("home")
        if not isinstance(home, str) or not home.startswith(f"{game}/"):
            raise _fail(at, f"field 'home' must be a section id of {game}")
        clues = [_clue(answer, c, at) for c in raw.get("clues", [])]
        rs = sets[raw["set"]]
        units = dict(rs.units)
        if raw.get("unit"):
            units[answer] = str(raw["unit"])
        sets[raw["set"]] = replace(rs.with_clues(clues, [answer]), home={**rs.home, answer: home}, units=units)
    return sets
