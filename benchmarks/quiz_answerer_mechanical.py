"""Mechanical closed-book answerers for ``benchmarks/quiz_baseline.py``: they read only the paper, never a rule.

Run by the baseline: ``--answerer "python benchmarks/quiz_answerer_mechanical.py --strategy S"``. The paper's
JSON comes on stdin; the answers go to stdout as one JSON object. Strategies:

* ``first``: the first option, the first term of the list, the first number of the prompt (or 1; numbers
  in digits or in Spanish words, as the grader reads them);
* ``largest``: the longest option, the longest term, the largest number of the prompt;
* ``sum``: the first option, the first term, the sum of the prompt's numbers;
* ``echo``: the option (or term) that shares most words with the prompt, the most frequent number of the
  prompt;
* ``mode``: the most common right answer of the item's template, learnt beforehand from 200 items of each
  entry template (the template is recognised by the prompt's question with names and numbers blanked out:
  an attacker who studied many papers). The table is cached in the system's temporary folder.

None of them may pass papers: the baseline prints their figures, and the closing note of issue 24 holds them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

WORD = re.compile(r"[a-záéíóúüñ]+")
LEARN_SEEDS = 200


def numbers(prompt: str) -> list[int]:
    """Every whole number the prompt names, in digits or in Spanish words, in order (the grader's reading)."""
    from club_agentes.quizzes.grading import scan_numbers

    scan = scan_numbers(prompt)
    found = [int(v) for v in scan.strong if v.denominator == 1]
    return [n // 10**6 if n >= 10**6 else n for n in found]


def option_texts(item: dict[str, Any]) -> list[str]:
    return [o.split(") ", 1)[1] if ") " in o else o for o in item["options"]]


def overlap(a: str, b: str) -> int:
    return len(set(WORD.findall(a.lower())) & set(WORD.findall(b.lower())))


def signature(prompt: str) -> str:
    """The question of a prompt with its names, cards and numbers blanked out (what the template fixes)."""
    question = prompt[prompt.rfind("¿") :] if "¿" in prompt else prompt[-120:]
    blanked = re.sub(r"\b[A-ZÁÉÍÓÚÑ][\wáéíóúñ]*", "X", question)
    return re.sub(r"\d+", "#", blanked)


def learn() -> dict[str, str]:
    """Signature -> the most common right answer (option text, number or term) over the entry templates."""
    digest = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:12]
    cache = Path(tempfile.gettempdir()) / f"club-agentes-mode-{digest}.json"
    if cache.exists():
        return dict(json.loads(cache.read_text(encoding="utf-8")))
    import club_agentes.quizzes.generators  # noqa: F401  (registers every template)
    from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS

    seen: dict[str, Counter[str]] = {}
    for gen in GENERATORS.values():
        if not gen.entry:
            continue
        for seed in range(LEARN_SEEDS):
            item = gen.make(seed)
            right = item.options[CHOICE_LETTERS.index(item.answer)] if item.type == "choice" else item.answer
            seen.setdefault(signature(item.prompt), Counter())[right] += 1
    table = {sig: counts.most_common(1)[0][0] for sig, counts in seen.items()}
    cache.write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
    return table


def answer(item: dict[str, Any], strategy: str, table: dict[str, str]) -> str:
    prompt, kind = item["prompt"], item["type"]
    nums = numbers(prompt)
    if strategy == "mode" and signature(prompt) in table:
        return table[signature(prompt)]
    if kind == "choice":
        texts = option_texts(item)
        if strategy == "largest":
            return max(texts, key=len)
        if strategy == "echo":
            return max(texts, key=lambda t: overlap(t, prompt))
        return texts[0]
    if kind == "term":
        terms = item["terms"]
        if strategy == "largest":
            return max(terms, key=len)
        if strategy == "echo":
            return max(terms, key=lambda t: overlap(t, prompt))
        return terms[0]
    if strategy == "largest":
        return str(max(nums, default=1))
    if strategy == "sum":
        return str(sum(nums) if nums else 1)
    if strategy == "echo":
        return str(Counter(nums).most_common(1)[0][0] if nums else 1)
    return str(nums[0] if nums else 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategy", choices=("first", "largest", "sum", "echo", "mode"), default="first")
    args = parser.parse_args(argv)
    paper = json.loads(sys.stdin.read())
    table = learn() if args.strategy == "mode" else {}
    print(json.dumps({it["key"]: answer(it, args.strategy, table) for it in paper["items"]}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
