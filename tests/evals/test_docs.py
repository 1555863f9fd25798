"""``docs/evaluators.md`` says what the tools do: its one-line grading example, the tasks it names, the sample
metadata it lists and the task arguments with their defaults all match the code."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest
from club_agentes.quizzes.evaluate import grade_json_lines, grade_records
from inspect_ai import Task

from club_agentes import evals

DOC = (Path(__file__).parents[2] / "docs" / "evaluators.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    """The text of one ``###`` section of the inspect-ai part."""
    start = DOC.index(f"### {title}")
    end = DOC.find("\n### ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def _table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header starts with ``header``, as cells without backticks."""
    lines = text[text.index(f"| {header}") :].splitlines()[2:]
    rows = []
    for line in lines:
        if not line.lstrip().startswith("|"):
            break
        rows.append([c.strip().strip("`") for c in line.strip().strip("|").split("|")])
    return rows


def test_the_one_line_grading_example_is_what_quiz_grade_prints() -> None:
    match = re.search(r"\$ echo '(?P<line>[^']+)' \| club-agentes quiz grade --json -\n(?P<out>.+)\n", DOC)
    assert match, "the one-line example of quiz grade --json is missing"
    report = grade_records([match["line"]])
    assert list(grade_json_lines(report)) == [match["out"]]
    assert json.loads(match["out"])["verdict"] == "right"


def test_every_task_the_doc_names_exists() -> None:
    named = set(re.findall(r"(?:evals\.py@|inspect eval(?:-set)? club_agentes/)(\w+)\b(?!\.py)", DOC))
    assert named == {"market_fortune_rules", "se_vende_rules", "yo_soy_el_jefe_rules", "entry_quiz"}
    for name in named:
        assert isinstance(getattr(evals, name)(), Task)


def test_the_metadata_table_lists_every_metadata_key() -> None:
    rows = _table_rows(_section("Rules comprehension"), "metadata key")
    (sample, *_) = evals.rules_samples("se-vende")
    assert [r[0] for r in rows] == list(sample.metadata or {})


@pytest.mark.parametrize(
    ("title", "functions"),
    [
        ("Rules comprehension", [evals.market_fortune_rules, evals.se_vende_rules, evals.yo_soy_el_jefe_rules]),
        ("The entry quiz", [evals.entry_quiz]),
    ],
)
def test_the_task_arguments_and_defaults_are_documented(title: str, functions: list[object]) -> None:
    rows = _table_rows(_section(title), "task argument")
    documented = {r[0]: r[1] for r in rows}
    for fn in functions:
        params = inspect.signature(fn).parameters  # type: ignore[arg-type]
        assert set(documented) == set(params)
        for name, p in params.items():
            assert documented[name] == ("none" if p.default is None else str(p.default)), name
