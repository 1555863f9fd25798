"""The Docker image builds and serves, where a Docker engine runs (this project's machines have only the
client: the test then skips with one line)."""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def docker_engine() -> bool:
    """Return whether a Docker engine answers here."""
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "info"], capture_output=True, timeout=30).returncode == 0


@pytest.mark.slow
def test_the_image_builds_runs_as_non_root_and_creates_agents() -> None:
    if not docker_engine():
        pytest.skip("no Docker engine here (only the client): the image is built where one runs")
    tag = f"club-agentes-test:{uuid.uuid4().hex[:8]}"
    volume = f"club-test-{uuid.uuid4().hex[:8]}"
    subprocess.run(["docker", "build", "-t", tag, str(ROOT)], check=True, capture_output=True, timeout=1200)
    try:
        user = subprocess.run(["docker", "run", "--rm", tag, "id", "-u"], capture_output=True, text=True, check=True)
        assert user.stdout.strip() == "10001"
        added = subprocess.run(
            ["docker", "run", "--rm", "-v", f"{volume}:/data", tag, "club-agentes", "agents", "add", "probe"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert len(added.stdout.strip().splitlines()[-1]) >= 32
        run = subprocess.run(
            ["docker", "run", "-d", "-v", f"{volume}:/data", "-p", "127.0.0.1::8000", tag],
            capture_output=True,
            text=True,
            check=True,
        )
        container = run.stdout.strip()
        try:
            port = subprocess.run(["docker", "port", container, "8000"], capture_output=True, text=True).stdout
            url = f"http://127.0.0.1:{port.strip().rsplit(':', 1)[1]}/mcp"
            deadline = time.monotonic() + 60
            status = None
            while time.monotonic() < deadline and status is None:
                probe = subprocess.run(
                    ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url], capture_output=True
                )
                status = probe.stdout.decode() if probe.returncode == 0 and probe.stdout != b"000" else None
                time.sleep(0.5)
            assert status == "401", f"an unauthenticated request should get 401, got {status}"
        finally:
            subprocess.run(["docker", "rm", "-f", container], capture_output=True)
    finally:
        subprocess.run(["docker", "volume", "rm", "-f", volume], capture_output=True)
        subprocess.run(["docker", "rmi", "-f", tag], capture_output=True)
