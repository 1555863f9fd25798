"""The closed-book and open-book baselines of the entry quiz: draw fresh entry papers, let any command answer
them, grade, and print pass rates and per-template accuracy.

Run: ``python benchmarks/quiz_baseline.py --answerer "COMMAND" [--label NAME] [--papers 10] [--parallel 1]``.

For each game (``--games``, default all three) it draws ``--papers`` fresh entry papers exactly as
``start_quiz`` draws them (three questions and one riddle, options shuffled) and, for each paper, runs
``COMMAND`` with the paper's JSON on its stdin: the same object ``start_quiz`` returns (``quiz_id``,
``game``, ``items`` with ``key``, ``kind``, ``type``, ``prompt``, ``options``, ``terms``, ``unit``,
``answer_format``; ``instructions``). The command prints the answers on its stdout as one JSON object
mapping each item key to its answer, ``{"q1": "B", "q2": "7", "q3": "Dominar", "r1": "Fortuna"}``
(``{"answers": {...}}`` is accepted too). The answers are graded by the quiz service, as
``submit_quiz`` grades them. ``--parallel N`` runs N answerer commands at once (useful with
``benchmarks/quiz_answerer_files.py``, which hands papers to a person or a model session as files).

It prints, per game, the pass rate and the per-item accuracy (all items, and open-answer items:
integers and terms); then, per template, its accuracy beside its chance level (a letter among four,
one term of its list; for a number, the share of the template's most common answer over 200 items,
what a blind constant guess scores), flagging a template ``ABOVE`` when its accuracy is more than 25
points above chance. The papers, the answers given and their grading (with the right answers) are
kept in ``--out`` (default ``benchmarks/results/<label>-<UTC time>/``): ``papers.jsonl`` (one line per
paper) and ``summary.json``.

Targets (issue 24): a closed-book answerer passes at most 1 of 10 papers per game and is right on at
most 40 % of open-answer items; an open-book answerer passes at least 95 % of papers. Exit status 0
always (the figures are read, not asserted), 2 when the command cannot be run.
"""

from __future__ import annotations

import argparse
import json
import secrets
import shlex
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# This file's folder would shadow packages of the same name when run as a script: drop it from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import club_agentes.quizzes.generators  # noqa: E402,F401  (registers every game's templates)
from club_agentes.engine.core.rng import Rng  # noqa: E402
from club_agentes.quizzes.bank import default_bank  # noqa: E402
from club_agentes.quizzes.grading import display_answer  # noqa: E402
from club_agentes.quizzes.harness import QuizPaper, QuizService  # noqa: E402
from club_agentes.quizzes.model import GENERATORS, Item  # noqa: E402
from club_agentes.quizzes.store import MemoryQuizStore  # noqa: E402
from club_agentes.rules_corpus import GAME_IDS  # noqa: E402

RESULTS = _HERE / "results"
ABOVE_CHANCE = 0.25


class NoLimit:
    """A limiter that never refuses (papers are measured, not throttled)."""

    def take(self, kind: str, subject: str) -> None:
        return None


@dataclass
class Tally:
    """Right answers out of items (or passes out of papers)."""

    right: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.right += ok
        self.total += 1

    def rate(self) -> str:
        return f"{self.right}/{self.total} ({100 * self.right / self.total:.0f} %)" if self.total else "-"


@dataclass
class Figures:
    """Everything a run measures."""

    passes: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    items: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    open_items: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    templates: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    chance: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


CHANCE_SEEDS = 200
_CONSTANT: dict[str, float] = {}


def constant_guess(key: str) -> float:
    """The share of the template's most common answer over 200 items: what one blind constant guess scores."""
    if key not in _CONSTANT:
        gen = GENERATORS[key]
        answers = Counter(display_answer(gen.make(seed)).split(") ", 1)[-1] for seed in range(CHANCE_SEEDS))
        _CONSTANT[key] = answers.most_common(1)[0][1] / CHANCE_SEEDS
    return _CONSTANT[key]


def chance_of(item: Item, terms: Sequence[str], key: str) -> float:
    """The chance level: one letter of four, one term of the list; for a number, the best constant guess."""
    if item.type == "choice":
        return 1 / len(item.options)
    if item.type == "term":
        return 1 / max(1, len(terms))
    return constant_guess(key) if key in GENERATORS else 0.0


def ask(command: str, paper: dict[str, Any], timeout: float) -> tuple[dict[str, Any], str]:
    """Run ``command`` with ``paper`` on stdin; return (the answers it printed, an error or ``""``)."""
    try:
        done = subprocess.run(
            shlex.split(command),
            input=json.dumps(paper, ensure_ascii=False),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {}, f"the answerer failed: {exc}"
    try:
        answers = json.loads(done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "")
    except (json.JSONDecodeError, IndexError):
        return {}, f"the answerer printed no JSON object (exit {done.returncode}): {done.stdout[-200:]!r}"
    if isinstance(answers, dict) and isinstance(answers.get("answers"), dict):
        answers = answers["answers"]
    if not isinstance(answers, dict):
        return {}, "the answerer's JSON is not an object of answers"
    return answers, ""


def draw_papers(svc: QuizService, game: str, papers: int, label: str) -> list[QuizPaper]:
    return [svc.start_quiz(game, f"baseline-{label}-{n}") for n in range(papers)]


def grade_paper(svc: QuizService, paper: QuizPaper, answers: dict[str, Any], figures: Figures) -> dict[str, Any]:
    """Grade one paper's answers as submit_quiz does and add them to ``figures``; return its record."""
    attempt = svc.store.load_attempt(paper.quiz_id)
    assert attempt is not None
    items = svc.presented_items(attempt)
    given = {p.key: answers.get(p.key, "") for p in paper.items}
    given = {
        k: (v if isinstance(v, int | str) and not isinstance(v, bool) and str(v).strip() else "(none)")
        for k, v in given.items()
    }
    result = svc.submit_quiz(paper.quiz_id, given, agent=attempt.agent)
    game = paper.game
    figures.passes[game].add(result.passed)
    record_items = []
    for p, item, graded in zip(paper.items, items, result.items, strict=True):
        template = item.id.split("/gen/")[1].split("/")[0] if "/gen/" in item.id else item.id
        key = f"{game}/{template}"
        figures.items[game].add(graded.correct)
        if item.type in ("integer", "term"):
            figures.open_items[game].add(graded.correct)
        figures.templates[key].add(graded.correct)
        figures.chance[key] = chance_of(item, p.terms, key)
        record_items.append(
            {
                "key": p.key,
                "template": key,
                "type": item.type,
                "answer_given": given[p.key],
                "correct": graded.correct,
                "right_answer": display_answer(item),
                "reason": graded.reason,
            }
        )
    return {"paper": paper.to_dict(), "answers": given, "passed": result.passed, "items": record_items}


def report(label: str, figures: Figures) -> list[str]:
    lines = [f"answerer {label!r}", "game             papers passed   items right      open-answer items right"]
    for game in sorted(figures.passes):
        lines.append(
            f"{game:16s} {figures.passes[game].rate():16s} {figures.items[game].rate():16s} "
            f"{figures.open_items[game].rate()}"
        )
    lines.append("template                                        accuracy        chance  flag")
    for key in sorted(figures.templates):
        t = figures.templates[key]
        acc = t.right / t.total if t.total else 0.0
        flag = "ABOVE" if acc > figures.chance[key] + ABOVE_CHANCE else ""
        lines.append(f"{key:47s} {t.rate():15s} {100 * figures.chance[key]:5.0f} %  {flag}")
    lines += [f"! {f}" for f in figures.failures]
    return lines


def run(args: argparse.Namespace) -> int:
    bank = default_bank()
    seed = args.seed if args.seed is not None else secrets.randbits(48)
    svc = QuizService(bank, MemoryQuizStore(), secret=b"k" * 32, limiter=NoLimit(), rng=Rng(seed), ttl_seconds=10**9)
    games = args.games.split(",") if args.games else list(GAME_IDS)
    papers = [p for g in games for p in draw_papers(svc, g, args.papers, args.label)]
    figures = Figures()
    with ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
        replies = list(pool.map(lambda p: ask(args.answerer, p.to_dict(), args.timeout), papers))
    records = []
    for paper, (answers, error) in zip(papers, replies, strict=True):
        if error:
            figures.failures.append(f"{paper.game}: {error}")
        records.append(grade_paper(svc, paper, answers, figures))
    out = Path(args.out) if args.out else RESULTS / f"{args.label}-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    out.mkdir(parents=True, exist_ok=True)
    with (out / "papers.jsonl").open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    lines = report(args.label, figures)
    summary = {
        "label": args.label,
        "answerer": args.answerer,
        "seed": seed,
        "papers_per_game": args.papers,
        "report": lines,
    }
    (out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print("\n".join(lines))
    print(f"papers, answers and grading kept in {out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answerer", required=True, help="the command that reads a paper on stdin and prints answers")
    parser.add_argument("--label", default="answerer", help="a name for the run (results folder, report)")
    parser.add_argument("--papers", type=int, default=10, help="fresh entry papers per game (default 10)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all three)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the papers (default: fresh)")
    parser.add_argument("--parallel", type=int, default=1, help="answerer commands run at once (default 1)")
    parser.add_argument("--timeout", type=float, default=6 * 3600, help="seconds per answerer command")
    parser.add_argument("--out", default="", help="the results folder (default benchmarks/results/<label>-<time>)")
    args = parser.parse_args(argv)
    if args.papers < 1:
        parser.error("--papers must be at least 1")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
