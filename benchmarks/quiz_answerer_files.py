"""An answerer for ``benchmarks/quiz_baseline.py`` that hands each paper to someone else as files.

Run by the baseline: ``--answerer "python benchmarks/quiz_answerer_files.py --dir D"``. For each paper it
reads the paper's JSON on stdin, writes it to ``D/paper-<n>.json`` (``n`` = 1, 2, 3... the first number
not taken), and waits until ``D/answers-<n>.json`` exists and holds a JSON object; then it prints that
object (the answers) on stdout and exits. So a model session told to read nothing but the papers (or a
person) can answer them: it watches ``D``, reads each ``paper-<n>.json`` and writes
``answers-<n>.json`` as ``{"q1": "...", "q2": "...", "q3": "...", "r1": "..."}``, one answer per item
key (a letter or an option's text for a choice, a number, or one term of the item's ``terms``).

``--timeout`` (seconds, default 6 hours) bounds the wait; on timeout it prints ``{}`` (every item is
then graded wrong). Exit status 0.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

POLL_SECONDS = 2.0


def claim(folder: Path, text: str) -> int:
    """Write ``text`` to the first free ``paper-<n>.json`` of ``folder`` (atomically claimed); return ``n``."""
    n = 1
    while True:
        path = folder / f"paper-{n}.json"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            n += 1
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        return n


def wait_for(path: Path, timeout: float) -> dict[str, object]:
    """Return the JSON object in ``path`` once it is there and complete; ``{}`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            try:
                answers = json.loads(path.read_text(encoding="utf-8"))
            except (json.JSONDecodeError, OSError):
                answers = None  # still being written
            if isinstance(answers, dict):
                return answers
        time.sleep(POLL_SECONDS)
    return {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, help="the folder where papers and answers are exchanged")
    parser.add_argument("--timeout", type=float, default=6 * 3600, help="seconds to wait for the answers")
    args = parser.parse_args(argv)
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    paper = json.loads(sys.stdin.read())
    n = claim(folder, json.dumps(paper, ensure_ascii=False, indent=2) + "\n")
    print(json.dumps(wait_for(folder / f"answers-{n}.json", args.timeout), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
