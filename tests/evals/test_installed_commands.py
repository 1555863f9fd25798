"""The inspect-ai commands ``docs/evaluators.md`` gives, run as written: tasks named through inspect-ai's
entry points (``club_agentes/<task>``), the offline stand-in model, and the exit status of a failed run.

Every run here goes through the ``inspect`` command of this environment with downloads made impossible
(an unreachable proxy and an empty tiktoken cache), so a run that needed the network would fail. The
packaging tests run the same task from a wheel installed into a fresh environment.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from club_agentes import evals

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "evaluators.md").read_text(encoding="utf-8")
INSPECT = Path(sys.executable).with_name("inspect")


def offline_env(tmp: Path) -> dict[str, str]:
    """The environment of a run that cannot download anything."""
    cache = tmp / "tiktoken-cache"
    cache.mkdir(exist_ok=True)
    unreachable = "http://127.0.0.1:9"
    return {
        **os.environ,
        "HTTPS_PROXY": unreachable,
        "HTTP_PROXY": unreachable,
        "https_proxy": unreachable,
        "http_proxy": unreachable,
        "NO_PROXY": "",
        "TIKTOKEN_CACHE_DIR": str(cache),
        "INSPECT_DISPLAY": "none",
    }


def documented(prefix: str) -> list[str]:
    """The documented command lines that start with ``prefix`` (in the doc's inspect-ai section)."""
    section = DOC[DOC.index("## inspect-ai evaluations") :]
    lines = re.findall(r"^(" + re.escape(prefix) + r".*?)(?:\s+#.*)?$", section, flags=re.M)
    assert lines, f"docs/evaluators.md gives no command starting with {prefix!r}"
    return lines


def run(command: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    """Run a documented ``inspect ...`` line with this environment's ``inspect``, in ``tmp``."""
    argv = shlex.split(command.replace("$LOGS", str(tmp / "logs")))
    assert argv[0] == "inspect"
    return subprocess.run(
        [str(INSPECT), *argv[1:]],
        cwd=tmp,
        env=offline_env(tmp),
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_the_package_registers_its_tasks_and_model_in_inspect_ais_entry_points() -> None:
    (ep,) = [ep for ep in entry_points(group="inspect_ai") if ep.name == "club_agentes"]
    assert ep.value == "club_agentes.evals"
    assert ep.load() is evals


def test_the_documented_offline_run_completes_with_no_download(tmp_path: Path) -> None:
    (command,) = documented("inspect eval-set club_agentes/se_vende_rules --model mockllm-offline/model")
    out = run(command, tmp_path)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.status == "success" and log.eval.task.endswith("se_vende_rules")
    assert log.samples and all(s.scores and s.scores["club_grader"].value == "I" for s in log.samples)
    assert log.results is not None and log.results.scores[0].metrics["accuracy"].value == 0.0


def test_a_failed_run_exits_non_zero(tmp_path: Path) -> None:
    (command,) = documented("inspect eval-set club_agentes/se_vende_rules --model mockllm-offline/model")
    out = run(command + " -T context=everything", tmp_path)
    assert out.returncode == 1
    assert "context must be one of corpus, sections, none" in out.stdout + out.stderr


@pytest.mark.slow
def test_the_stand_in_answer_is_graded_like_any_other(tmp_path: Path) -> None:
    record = next(r for r in evals.export_records("se-vende", with_answers=True) if r["type"] == "integer")
    out = run(
        "inspect eval-set club_agentes/se_vende_rules --model mockllm-offline/model --retry-attempts 0 "
        f"--log-dir $LOGS --sample-id {record['id']} -M 'answer=Respuesta final: {record['answer']}'",
        tmp_path,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.samples and [s.scores["club_grader"].value for s in log.samples if s.scores] == ["C"]
