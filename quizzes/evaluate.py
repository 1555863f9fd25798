"""Tools for evaluators: export the practice pool as JSONL, grade a JSONL of answers, summarise attempts.

The ``club-agentes quiz export|grade|stats`` commands call :func:`export_bank`,
:func:`grade_records` (with :func:`format_grade_report` or :func:`grade_json_lines`) and
:func:`stats_report`; the ``*_records`` / :func:`attempt_stats` functions return the same
facts as data. ``docs/evaluators.md`` documents the record formats field by field.

What is exported and graded is the **public practice pool**: the hand-written items, and
parametric items of the generators registered with ``entry=False``. Entry-pool generators
(``entry=True``) and an operator's private bank are never exported, and their item ids are
refused by the offline grader, so that nobody can rehearse or probe an entry paper.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.bank import Bank, UnknownItem, default_bank
from club_agentes.quizzes.grading import display_answer, grade
from club_agentes.quizzes.harness import answer_format
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Generator, Item
from club_agentes.quizzes.store import QuizStore
from club_agentes.rules_corpus import Corpus, load_corpus

MAX_SAMPLES = 10_000
MAX_ID_CHARS = 200
RECORD_FORMAT = "club-agentes.quiz/1"
"""The ``format`` field of every exported record; it changes when a field changes meaning."""

Verdict = Literal["right", "wrong", "error"]


def rule_area(section_id: str, corpus: Corpus | None = None) -> tuple[str, str]:
    """Return the top-level section holding ``section_id`` and its title, e.g. ``("market-fortune/cap-2", "...")``.

    The rule area groups results by part of the rulebook (a chapter, the FAQ, the quick
    reference). A section the corpus does not hold is its own area, titled ``""``. Never raises.
    """
    corpus = corpus or load_corpus()
    section = corpus.sections.get(section_id)
    if section is None:
        return section_id, ""
    seen = {section.id}
    while section.parent and section.parent in corpus.sections and section.parent not in seen:
        section = corpus.sections[section.parent]
        seen.add(section.id)
    return section.id, section.title


def item_record(item: Item, bank: Bank, *, with_answers: bool = False, corpus: Corpus | None = None) -> dict[str, Any]:
    """Return one item as a JSON-ready record (see ``docs/evaluators.md``); the answer only when ``with_answers``.

    Raises:
        quizzes.bank.UnknownBankGame: the item's game is not in the bank.
        quizzes.bank.UnknownItem: a term item names an undeclared vocabulary.
    """
    vocab = bank.vocabulary(item)
    terms = list(vocab.term_names) if vocab else []
    area, area_title = rule_area(item.sections[0], corpus) if item.sections else ("", "")
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "id": item.id,
        "game": item.game,
        "kind": item.kind,
        "type": item.type,
        "prompt": item.prompt,
        "options": dict(zip(CHOICE_LETTERS, item.options, strict=False)),
        "unit": item.unit,
        "vocabulary": item.vocabulary,
        "terms": terms,
        "sections": list(item.sections),
        "rule_area": area,
        "rule_area_title": area_title,
        "parametric": item.parametric,
        "generator": item.id.split("/")[2] if item.parametric else None,
        "answer_format": answer_format(item, tuple(terms)),
    }
    if with_answers:
        record["answer"] = item.answer
        record["answer_display"] = display_answer(item)
        record["explanation"] = item.explanation
        record["computed"] = item.computed
    return record


def practice_generators(bank: Bank, game: str) -> list[Generator]:
    """Return the game's practice generators (registered with ``entry=False``), sorted by name.

    Raises:
        quizzes.bank.UnknownBankGame: no bank for ``game``.
    """
    return [g for g in bank.game(game).generators() if not g.entry]


def practice_item(bank: Bank, item_id: str) -> Item:
    """Return an item of the public practice pool by id: hand-written, or rebuilt from a practice generator.

    Raises:
        quizzes.bank.UnknownItem: no such item, or the id names an entry-pool item (an entry
            generator), which is never graded offline.
    """
    if len(item_id) > MAX_ID_CHARS:
        raise UnknownItem(f"no item has an id of {len(item_id)} characters; ids are at most {MAX_ID_CHARS}")
    try:
        item = bank.item(item_id)
    except ValueError:  # an absurd seed (thousands of digits) is no item
        raise UnknownItem(f"no item has the id {item_id!r}") from None
    if item.parametric:
        gen = GENERATORS.get(f"{item.game}/{item_id.split('/')[2]}")
        if gen is None or gen.entry:
            raise UnknownItem(
                f"{item_id!r} belongs to the entry pool, which is never exported nor graded offline; "
                "grade ids from 'club-agentes quiz export'"
            )
    return item


def export_records(
    game: str,
    *,
    with_answers: bool = False,
    samples: int = 0,
    seed: int | None = None,
    bank: Bank | None = None,
) -> list[dict[str, Any]]:
    """Return a game's practice pool as records: hand-written items, plus ``samples`` items per practice generator.

    Parametric ids encode the generator and seed (``"<game>/gen/<name>/<seed>"``) so that
    :func:`grade_records` can rebuild them; ``seed`` makes the samples reproducible (default:
    drawn from ``secrets``). Only generators registered with ``entry=False`` are sampled.

    Raises:
        quizzes.bank.UnknownBankGame: no bank for ``game``.
        ValueError: ``samples`` is negative or above 10,000, or ``seed`` is negative.
    """
    bank = bank or default_bank()
    gb = bank.game(game)
    if not 0 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 0 to {MAX_SAMPLES} per generator, not {samples}")
    if seed is not None and seed < 0:
        raise ValueError(f"the seed must be a whole number of 0 or more, not {seed}")
    corpus = load_corpus()
    out = [item_record(it, bank, with_answers=with_answers, corpus=corpus) for it in gb.items]
    rng = Rng(secrets.randbits(64) if seed is None else seed)
    for gen in practice_generators(bank, game):
        for _ in range(samples):
            out.append(item_record(gen.make(rng.next64() >> 1), bank, with_answers=with_answers, corpus=corpus))
    return out


def export_bank(
    game: str,
    *,
    with_answers: bool = False,
    samples: int = 0,
    seed: int | None = None,
    bank: Bank | None = None,
) -> Iterator[str]:
    """Yield a game's practice pool as JSONL lines (one JSON object per item, no trailing newline).

    Raises:
        quizzes.bank.UnknownBankGame: no bank for ``game``.
        ValueError: ``samples`` is negative or above 10,000, or ``seed`` is negative.
    """
    for record in export_records(game, with_answers=with_answers, samples=samples, seed=seed, bank=bank):
        yield json.dumps(record, ensure_ascii=False)


@dataclass(frozen=True)
class GradedLine:
    """The grading of one line of an answers file.

    Attributes:
        line: the 1-based line number.
        id: the item id, or ``None`` when the line holds none.
        correct: whether the answer was right (``False`` on an error).
        reason: why the answer was wrong, or what was wrong with the line.
        error: whether the line itself was faulty (not JSON, no id, unknown id, answer not a
            string or a whole number).
        game: the item's game (``None`` on an error).
        type: the item's answer type (``None`` on an error).
        normalized: the grader's reading of the answer (``"25"``, ``"C"``, ``"Dominar"``), or ``None``.
    """

    line: int
    id: str | None
    correct: bool
    reason: str
    error: bool = False
    game: str | None = None
    type: str | None = None
    normalized: str | None = None

    @property
    def verdict(self) -> Verdict:
        """``"right"``, ``"wrong"`` or ``"error"`` (a faulty line)."""
        if self.error:
            return "error"
        return "right" if self.correct else "wrong"


@dataclass
class GradeReport:
    """Every graded line and the totals."""

    lines: list[GradedLine] = field(default_factory=list)

    @property
    def graded(self) -> int:
        """Lines graded (errors excluded)."""
        return sum(1 for g in self.lines if not g.error)

    @property
    def right(self) -> int:
        """Lines answered right."""
        return sum(1 for g in self.lines if g.correct)

    @property
    def errors(self) -> int:
        """Faulty lines."""
        return sum(1 for g in self.lines if g.error)

    def breakdown(self) -> dict[str, tuple[int, int]]:
        """Return ``{"<game> <type>": (right, graded)}`` over graded lines."""
        out: dict[str, tuple[int, int]] = {}
        for g in self.lines:
            if g.error:
                continue
            key = f"{g.game} {g.type}"
            right, total = out.get(key, (0, 0))
            out[key] = (right + int(g.correct), total + 1)
        return dict(sorted(out.items()))


def _describe(value: object) -> str:
    """Name a JSON value's type for an error message."""
    names = {
        type(None): "null",
        bool: "a true/false value",
        float: "a decimal number",
        list: "a list",
        dict: "an object",
    }
    return names.get(type(value), type(value).__name__)


def grade_line(n: int, raw: str, bank: Bank) -> GradedLine:
    """Grade one line ``{"id": <item id>, "answer": <string or whole number>}``.

    A faulty line is a :class:`GradedLine` with ``error`` set, never an exception.
    """
    try:
        entry = json.loads(raw)
    except json.JSONDecodeError as exc:
        return GradedLine(n, None, False, f"the line is not JSON ({exc.msg} at column {exc.colno})", error=True)
    except (ValueError, RecursionError):  # an integer of thousands of digits, or nesting thousands deep
        return GradedLine(
            n, None, False, "the line is not JSON this grader can read (too large or too deep)", error=True
        )
    if not isinstance(entry, dict):
        return GradedLine(
            n,
            None,
            False,
            f'the line must be an object {{"id": ..., "answer": ...}}, not {_describe(entry)}',
            error=True,
        )
    iid = entry.get("id")
    if not isinstance(iid, str) or not iid:
        got = "no id" if iid is None else f"an id that is {_describe(iid)}"
        return GradedLine(n, None, False, f"the line has {got}; the id is a string from the export", error=True)
    try:
        item = practice_item(bank, iid)
        vocabulary = bank.vocabulary(item)
    except (UnknownItem, LookupError) as exc:
        return GradedLine(n, iid, False, str(exc), error=True)
    if "answer" not in entry:
        return GradedLine(n, iid, False, 'the line has no "answer"; give a string or a whole number', error=True)
    answer = entry["answer"]
    if isinstance(answer, bool) or not isinstance(answer, str | int):
        return GradedLine(
            n, iid, False, f"the answer must be a string or a whole number, not {_describe(answer)}", error=True
        )
    g = grade(item, answer, vocabulary)
    return GradedLine(n, iid, g.correct, g.reason, game=item.game, type=item.type, normalized=g.normalized)


def grade_records(lines: Iterable[str], *, bank: Bank | None = None) -> GradeReport:
    """Grade JSONL lines of ``{"id": <item id>, "answer": <string or integer>}`` against the practice pool.

    Blank lines are skipped; a faulty line is reported as an error, never raised.
    """
    bank = bank or default_bank()
    report = GradeReport()
    for n, raw in enumerate(lines, start=1):
        if raw.strip():
            report.lines.append(grade_line(n, raw, bank))
    return report


def graded_json(g: GradedLine) -> dict[str, Any]:
    """The ``--json`` output object of one graded line: ``id``, ``verdict``, ``normalized``, ``reason``, ``line``."""
    return {"id": g.id, "verdict": g.verdict, "normalized": g.normalized, "reason": g.reason, "line": g.line}


def grade_json_lines(report: GradeReport) -> Iterator[str]:
    """Yield one JSON line per graded input line (``quiz grade --json``), in input order."""
    for g in report.lines:
        yield json.dumps(graded_json(g), ensure_ascii=False)


def _pct(right: int, total: int) -> str:
    return f"{100 * right / total:.1f}%" if total else "n/a"


def format_grade_report(report: GradeReport) -> str:
    """Render a :class:`GradeReport` as text: one line per item, then the summary. Never raises."""
    out = []
    for g in report.lines:
        if g.error:
            out.append(f"ERROR  line {g.line}: {g.id or '-'}: {g.reason}")
        elif g.correct:
            out.append(f"RIGHT  {g.id}")
        else:
            read = f" (read as {g.normalized})" if g.normalized is not None else ""
            out.append(f"WRONG  {g.id}{read}: {g.reason}")
    out.append("")
    out.append(
        f"graded {report.graded}: {report.right} right ({_pct(report.right, report.graded)}), "
        f"{report.graded - report.right} wrong, {report.errors} faulty lines"
    )
    for key, (right, total) in report.breakdown().items():
        out.append(f"  {key}: {right}/{total} ({_pct(right, total)})")
    return "\n".join(out) + "\n"


def grade_jsonl(text: str, *, bank: Bank | None = None) -> str:
    """Grade a JSONL text of ``{"id": ..., "answer": ...}`` lines and return the printed report.

    Never raises for faulty lines (they are reported).
    """
    return format_grade_report(grade_records(text.splitlines(), bank=bank))


@dataclass
class Rate:
    """A count of successes out of a total."""

    right: int = 0
    total: int = 0

    @property
    def rate(self) -> float | None:
        """Successes over total, or ``None`` when nothing was counted."""
        return self.right / self.total if self.total else None

    def add(self, ok: bool) -> None:
        """Count one more case."""
        self.total += 1
        self.right += int(ok)


@dataclass
class AttemptStats:
    """Pass rates per game (entry quizzes) and right-answer rates per game and section."""

    passes: dict[str, Rate] = field(default_factory=dict)
    practice: dict[str, Rate] = field(default_factory=dict)
    sections: dict[str, Rate] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the statistics as JSON-ready data."""

        def rates(d: dict[str, Rate]) -> dict[str, dict[str, Any]]:
            return {k: {"right": r.right, "total": r.total, "rate": r.rate} for k, r in sorted(d.items())}

        return {"passes": rates(self.passes), "practice": rates(self.practice), "sections": rates(self.sections)}


def attempt_stats(store: QuizStore, game: str | None = None, *, include_practice: bool = True) -> AttemptStats:
    """Summarise graded attempts: entry-quiz pass rate per game, practice accuracy per game, and
    the right-answer rate per cited section (entry items, plus practice items when asked).

    Never raises for attempts whose stored result lacks fields (they are skipped).
    """
    stats = AttemptStats()
    for a in store.graded_attempts(game):
        result = a.result or {}
        items = result.get("items")
        if not isinstance(items, list):
            continue
        if a.practice:
            for it in items:
                stats.practice.setdefault(a.game, Rate()).add(bool(it.get("correct")))
            if not include_practice:
                continue
        else:
            stats.passes.setdefault(a.game, Rate()).add(bool(result.get("passed")))
        for it in items:
            for sid in it.get("sections", []):
                stats.sections.setdefault(sid, Rate()).add(bool(it.get("correct")))
    return stats


def stats_report(store: QuizStore, game: str | None = None, *, include_practice: bool = True) -> str:
    """Return the statistics of :func:`attempt_stats` as printable text. Never raises."""
    stats = attempt_stats(store, game, include_practice=include_practice)
    out = ["Entry quizzes (pass rate per game):"]
    if not stats.passes:
        out.append("  no graded entry quiz yet")
    for g, r in sorted(stats.passes.items()):
        out.append(f"  {g}: {r.right}/{r.total} passed ({_pct(r.right, r.total)})")
    out.append("Practice (right answers per game):")
    if not stats.practice:
        out.append("  no graded practice question yet")
    for g, r in sorted(stats.practice.items()):
        out.append(f"  {g}: {r.right}/{r.total} right ({_pct(r.right, r.total)})")
    scope = "entry and practice items" if include_practice else "entry items"
    out.append(f"Sections (right answers among {scope} citing them, weakest first):")
    if not stats.sections:
        out.append("  no graded item yet")
    ranked = sorted(stats.sections.items(), key=lambda kv: (kv[1].rate if kv[1].rate is not None else 1.0, kv[0]))
    for sid, r in ranked:
        out.append(f"  {sid}: {r.right}/{r.total} ({_pct(r.right, r.total)})")
    return "\n".join(out) + "\n"
