"""No function of ``engine/`` or ``quizzes/`` is above cyclomatic complexity 25 (radon's measure, ``radon cc``):
a longer chain of decisions is broken into named steps (issue 27), with no exemption."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_COMPLEXITY = 25


def complexities(folder: str) -> dict[str, int]:
    """Return ``path:function`` -> radon's cyclomatic complexity, for every function and method under ``folder``."""
    from radon.complexity import cc_visit

    out = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            for item in getattr(block, "methods", None) or (block,):  # a class counts by its methods
                name = f"{path.relative_to(ROOT).as_posix()}:{item.name}"
                out[name] = max(out.get(name, 0), item.complexity)
    return out


@pytest.mark.parametrize("folder", ["engine", "quizzes"])
def test_no_function_is_above_complexity_25(folder: str) -> None:
    heavy = {name: cc for name, cc in complexities(folder).items() if cc > MAX_COMPLEXITY}
    assert heavy == {}, f"break these into named steps (radon cc -s {folder}): {heavy}"


def test_the_measure_sees_a_complex_function() -> None:
    """The check is not blind: a function of 26 branches measures 27."""
    from radon.complexity import cc_visit

    body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(26))
    (block,) = cc_visit(f"def f(x):\n{body}    return -1\n")
    assert block.complexity == 27
