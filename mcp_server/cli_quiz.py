"""``club-agentes quiz export|grade|stats``: the question bank tools for evaluators.

Exit statuses: 0 done; 1 ``grade`` read at least one faulty line (reported, the others graded);
2 the command could not run (unknown game, bad option value, unreadable file or database), with
one sentence on stderr. ``docs/evaluators.md`` documents the record formats.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from typing import Any

EXIT_OK = 0
EXIT_FAULTY_LINES = 1
EXIT_USAGE = 2


def add_commands(sub: Any) -> None:
    """Declare the ``quiz`` subcommand group."""
    quiz = sub.add_parser("quiz", help="question bank tools for evaluators")
    qsub = quiz.add_subparsers(dest="quiz_command", required=True)
    export = qsub.add_parser(
        "export",
        help="write a game's public practice pool as JSONL to stdout (never the entry pool)",
        description="Write a game's public practice pool as JSONL, one record per item (docs/evaluators.md).",
    )
    export.add_argument("--game", required=True, help="game id, e.g. market-fortune")
    export.add_argument("--with-answers", action="store_true", help="include the answers and explanations")
    export.add_argument(
        "--samples", type=int, default=0, help="also export N parametric items per practice generator (default 0)"
    )
    export.add_argument("--seed", type=int, default=None, help="seed of the samples: the same seed, the same export")
    export.set_defaults(run=run_export)
    grade = qsub.add_parser(
        "grade",
        help="grade a JSONL file of {'id': ..., 'answer': ...} lines",
        description="Grade a JSONL file of answers to exported items. Exit 1 when any line is faulty.",
    )
    grade.add_argument("file", help="path of the JSONL file ('-' for stdin)")
    grade.add_argument(
        "--json",
        action="store_true",
        help="one JSON line out per line in: id, verdict (right|wrong|error), normalized, reason, line",
    )
    grade.set_defaults(run=run_grade)
    stats = qsub.add_parser("stats", help="pass rates per game and per section from recorded attempts")
    stats.add_argument("--db", default=None, help="a SQLite file or a postgresql:// URL (default as for serve)")
    stats.set_defaults(run=run_stats)


def _fail(message: str) -> int:
    sys.stderr.write(f"club-agentes: {message}\n")
    return EXIT_USAGE


def _write(lines: Iterable[str]) -> None:
    """Write lines to stdout; a reader that stops early (``| head``) ends the output quietly."""
    try:
        for line in lines:
            sys.stdout.write(line)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run_export(args: argparse.Namespace) -> int:
    """Write the practice pool as JSONL; 2 for an unknown game or a bad sample count or seed."""
    from club_agentes.quizzes import evaluate
    from club_agentes.quizzes.bank import BankError, UnknownBankGame

    try:
        lines = list(
            evaluate.export_bank(args.game, with_answers=args.with_answers, samples=args.samples, seed=args.seed)
        )
    except (UnknownBankGame, ValueError) as exc:
        return _fail(str(exc))
    except BankError as exc:
        return _fail(f"the question bank could not be loaded: {exc}")
    if args.samples and not evaluate.practice_generators(evaluate.default_bank(), args.game):
        sys.stderr.write(f"club-agentes: note: {args.game} has no practice generators yet; --samples added nothing\n")
    _write(line + "\n" for line in lines)
    return EXIT_OK


def _read_answers(path: str) -> str:
    """Return the text of the answers file (``-`` is stdin).

    Raises:
        OSError: the file cannot be read (missing, a directory, no permission).
        UnicodeDecodeError: the file is not UTF-8.
    """
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def run_grade(args: argparse.Namespace) -> int:
    """Grade a JSONL file of answers and print the report; 1 when a line is faulty, 2 when the file cannot be read."""
    from club_agentes.quizzes import evaluate
    from club_agentes.quizzes.bank import BankError

    try:
        text = _read_answers(args.file)
    except FileNotFoundError:
        return _fail(f"no file at {args.file!r}; give the path of a JSONL file of answers, or '-' for stdin")
    except IsADirectoryError:
        return _fail(f"{args.file!r} is a folder; give the path of a JSONL file of answers")
    except PermissionError:
        return _fail(f"{args.file!r} cannot be read (permission denied)")
    except UnicodeDecodeError as exc:
        return _fail(f"{args.file!r} is not UTF-8 text (byte {exc.start}); the answers file is JSONL in UTF-8")
    except OSError as exc:
        return _fail(f"{args.file!r} cannot be read: {exc.strerror or exc}")
    try:
        report = evaluate.grade_records(text.splitlines())
    except BankError as exc:
        return _fail(f"the question bank could not be loaded: {exc}")
    if args.json:
        _write(line + "\n" for line in evaluate.grade_json_lines(report))
    else:
        _write([evaluate.format_grade_report(report)])
    return EXIT_FAULTY_LINES if report.errors else EXIT_OK


def run_stats(args: argparse.Namespace) -> int:
    """Print pass rates from the recorded attempts; 2 when the database cannot be opened."""
    from club_agentes.mcp_server.app import open_store
    from club_agentes.mcp_server.store import StoreError
    from club_agentes.quizzes import evaluate

    try:
        store = open_store(args.db)
    except (StoreError, OSError) as exc:
        return _fail(f"the database cannot be opened: {exc}")
    sys.stdout.write(evaluate.stats_report(store.quizzes))
    return EXIT_OK
