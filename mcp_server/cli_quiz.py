"""``club-agentes quiz export|grade|stats``: the question bank tools for evaluators."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_commands(sub: Any) -> None:
    """Declare the ``quiz`` subcommand group."""
    quiz = sub.add_parser("quiz", help="question bank tools for evaluators")
    qsub = quiz.add_subparsers(dest="quiz_command", required=True)
    export = qsub.add_parser("export", help="write the question bank of a game as JSONL to stdout")
    export.add_argument("--game", required=True, help="game id, e.g. market-fortune")
    export.add_argument("--with-answers", action="store_true", help="include the answers")
    export.add_argument("--samples", type=int, default=0, help="also export N parametric items per generator")
    export.set_defaults(run=run_export)
    grade = qsub.add_parser("grade", help="grade a JSONL file of {'id': ..., 'answer': ...} lines")
    grade.add_argument("file", help="path of the JSONL file ('-' for stdin)")
    grade.set_defaults(run=run_grade)
    stats = qsub.add_parser("stats", help="pass rates per game and per section from recorded attempts")
    stats.add_argument("--db", default=None, help="SQLite file (default as for serve)")
    stats.set_defaults(run=run_stats)


def run_export(args: argparse.Namespace) -> int:
    """Write the bank as JSONL; 2 for an unknown game or a bad sample count."""
    from club_agentes.quizzes import evaluate
    from club_agentes.quizzes.bank import UnknownBankGame

    try:
        lines = list(evaluate.export_bank(args.game, with_answers=args.with_answers, samples=args.samples))
    except (UnknownBankGame, ValueError) as exc:
        sys.stderr.write(f"club-agentes: {exc}\n")
        return 2
    for line in lines:
        sys.stdout.write(line + "\n")
    return 0


def run_grade(args: argparse.Namespace) -> int:
    """Grade a JSONL file of answers and print the report."""
    from club_agentes.quizzes import evaluate

    if args.file == "-":
        text = sys.stdin.read()
    else:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read()
    sys.stdout.write(evaluate.grade_jsonl(text))
    return 0


def run_stats(args: argparse.Namespace) -> int:
    """Print pass rates from the recorded attempts."""
    from club_agentes.mcp_server.app import open_store
    from club_agentes.quizzes import evaluate

    sys.stdout.write(evaluate.stats_report(open_store(args.db)))
    return 0
