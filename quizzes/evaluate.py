"""Tools for evaluators: export the bank as JSONL, grade a JSONL of answers, summarise recorded attempts.

The ``club-agentes quiz export|grade|stats`` commands call :func:`export_bank`,
:func:`grade_jsonl` and :func:`stats_report`; the ``*_records`` / :func:`attempt_stats`
functions return the same facts as data.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.bank import Bank, UnknownItem, default_bank
from club_agentes.quizzes.grading import display_answer, grade
from club_agentes.quizzes.harness import answer_format
from club_agentes.quizzes.model import Item
from club_agentes.quizzes.store import QuizStore

MAX_SAMPLES = 10_000


def item_record(item: Item, bank: Bank, *, with_answers: bool = False) -> dict[str, Any]:
    """Return one item as a JSON-ready record; the answer only when ``with_answers``.

    Raises:
        quizzes.bank.UnknownBankGame: the item's game is not in the bank.
        quizzes.bank.UnknownItem: a term item names an undeclared vocabulary.
    """
    vocab = bank.vocabulary(item)
    terms = list(vocab.term_names) if vocab else []
    record: dict[str, Any] = {
        "id": item.id,
        "game": item.game,
        "kind": item.kind,
        "type": item.type,
        "prompt": item.prompt,
        "options": list(item.options),
        "unit": item.unit,
        "vocabulary": item.vocabulary,
        "terms": terms,
        "sections": list(item.sections),
        "parametric": item.parametric,
        "answer_format": answer_format(item, tuple(terms)),
    }
    if item.parametric:
        record["generator"] = item.id.split("/")[2]
    if with_answers:
        record["answer"] = item.answer
        record["answer_display"] = display_answer(item)
        record["explanation"] = item.explanation
        record["computed"] = item.computed
    return record


def export_records(
    game: str,
    *,
    with_answers: bool = False,
    samples: int = 0,
    seed: int | None = None,
    bank: Bank | None = None,
) -> list[dict[str, Any]]:
    """Return a game's hand-written items, plus ``samples`` parametric items per generator, as records.

    Parametric ids encode the generator and seed (``"<game>/gen/<name>/<seed>"``) so that
    :func:`grade_jsonl` can rebuild them; ``seed`` makes the samples reproducible (default:
    drawn from ``secrets``).

    Raises:
        quizzes.bank.UnknownBankGame: no bank for ``game``.
        ValueError: ``samples`` is negative or above 10,000.
    """
    bank = bank or default_bank()
    gb = bank.game(game)
    if not 0 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 0 to {MAX_SAMPLES} per generator, not {samples}")
    out = [item_record(it, bank, with_answers=with_answers) for it in gb.items]
    rng = Rng(secrets.randbits(64) if seed is None else seed)
    for gen in gb.generators():
        for _ in range(samples):
            out.append(item_record(gen.make(rng.next64() >> 1), bank, with_answers=with_answers))
    return out


def export_bank(
    game: str,
    *,
    with_answers: bool = False,
    samples: int = 0,
    seed: int | None = None,
    bank: Bank | None = None,
) -> Iterator[str]:
    """Yield a game's bank as JSONL lines (one JSON object per item, no trailing newline).

    Raises:
        quizzes.bank.UnknownBankGame: no bank for ``game``.
        ValueError: ``samples`` is negative or above 10,000.
    """
    for record in export_records(game, with_answers=with_answers, samples=samples, seed=seed, bank=bank):
        yield json.dumps(record, ensure_ascii=False)


@dataclass(frozen=True)
class GradedLine:
    """The grading of one line of an answers file.

    Attributes:
        line: the 1-based line number.
        id: the item id, or ``None`` when the line could not be read.
        correct: whether the answer was right (``False`` on an error).
        reason: why the answer was wrong, or what was wrong with the line.
        error: whether the line itself was faulty (unreadable, unknown id, no answer).
        game: the item's game (``None`` on an error).
        type: the item's answer type (``None`` on an error).
    """

    line: int
    id: str | None
    correct: bool
    reason: str
    error: bool = False
    game: str | None = None
    type: str | None = None


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


def grade_records(lines: Iterable[str], *, bank: Bank | None = None) -> GradeReport:
    """Grade JSONL lines of ``{"id": <item id>, "answer": <string or integer>}`` against the bank.

    Blank lines are skipped; a faulty line is reported as an error, never raised.
    """
    bank = bank or default_bank()
    report = GradeReport()
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
        except json.JSONDecodeError as exc:
            report.lines.append(GradedLine(n, None, False, f"the line is not JSON ({exc.msg})", error=True))
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or "answer" not in entry:
            report.lines.append(
                GradedLine(n, None, False, 'the line must be an object {"id": ..., "answer": ...}', error=True)
            )
            continue
        iid, answer = entry["id"], entry["answer"]
        try:
            item = bank.item(iid)
        except UnknownItem as exc:
            report.lines.append(GradedLine(n, iid, False, str(exc), error=True))
            continue
        if isinstance(answer, bool) or not isinstance(answer, str | int):
            report.lines.append(GradedLine(n, iid, False, "the answer must be a string or an integer", error=True))
            continue
        g = grade(item, answer, bank.vocabulary(item))
        report.lines.append(GradedLine(n, iid, g.correct, g.reason, game=item.game, type=item.type))
    return report


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
            out.append(f"WRONG  {g.id}: {g.reason}")
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
