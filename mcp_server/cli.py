"""The ``club-agentes`` command: run the MCP server, and the quiz tools for evaluators."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="club-agentes",
        description="Club de Agentes: an MCP server that teaches, examines and referees three card games.",
    )
    sub = p.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the MCP server (stdio by default)")
    serve.add_argument("--http", action="store_true", help="serve streamable HTTP at /mcp instead of stdio")
    serve.add_argument("--host", default="127.0.0.1", help="HTTP host (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    serve.add_argument("--db", default=None, help="SQLite file (default $CLUB_AGENTES_DB or ~/.local/share/...)")

    quiz = sub.add_parser("quiz", help="question bank tools for evaluators")
    qsub = quiz.add_subparsers(dest="quiz_command", required=True)
    export = qsub.add_parser("export", help="write the question bank of a game as JSONL to stdout")
    export.add_argument("--game", required=True, help="game id, e.g. market-fortune")
    export.add_argument("--with-answers", action="store_true", help="include the answers")
    export.add_argument("--samples", type=int, default=0, help="also export N parametric items per generator")
    grade = qsub.add_parser("grade", help="grade a JSONL file of {'id': ..., 'answer': ...} lines")
    grade.add_argument("file", help="path of the JSONL file ('-' for stdin)")
    stats = qsub.add_parser("stats", help="pass rates per game and per section from recorded attempts")
    stats.add_argument("--db", default=None, help="SQLite file (default as for serve)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "serve":
        from club_agentes.mcp_server.app import build_server, open_store

        server = build_server(open_store(args.db))
        if args.http:
            server.run("streamable-http", host=args.host, port=args.port, streamable_http_path="/mcp")
        else:
            server.run()
        return 0
    from club_agentes.quizzes import evaluate
    from club_agentes.quizzes.bank import UnknownBankGame

    if args.quiz_command == "export":
        try:
            lines = list(evaluate.export_bank(args.game, with_answers=args.with_answers, samples=args.samples))
        except (UnknownBankGame, ValueError) as exc:
            sys.stderr.write(f"club-agentes: {exc}\n")
            return 2
        for line in lines:
            sys.stdout.write(line + "\n")
        return 0
    if args.quiz_command == "grade":
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
        sys.stdout.write(evaluate.grade_jsonl(text))
        return 0
    from club_agentes.mcp_server.app import open_store

    sys.stdout.write(evaluate.stats_report(open_store(args.db)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
