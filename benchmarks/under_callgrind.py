"""Run a command under valgrind's callgrind and read how many instructions it ran.

Shared by the benchmarks that count a child process's instructions (``callgrind.py``, ``lane_hop.py``,
``store_hop.py``, ``move_parts.py``). Import it before a script takes ``benchmarks/`` off ``sys.path`` (its
``mcp.py`` would hide the SDK); it imports nothing that the folder shadows.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def under_callgrind(cmd: list[str], out_file: str | Path | None = None) -> tuple[int, str]:
    """Run ``cmd`` under callgrind and return the instructions it ran and what it printed on standard output.

    ``out_file``: where callgrind writes its profile (default: a temporary file, removed afterwards).

    Raises:
        RuntimeError: the command failed, or valgrind printed no total.
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = str(out_file) if out_file is not None else f"{tmp}/cg.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
            capture_output=True,
            text=True,
            check=False,
        )
    found = _COLLECTED.search(run.stderr)
    if run.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind run of {cmd[:3]} failed ({run.returncode}): {run.stderr[-800:]}")
    return int(found.group(1)), run.stdout
