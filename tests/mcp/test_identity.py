"""Agent identity: names that collide when they look alike, keys stored only as hashes, the agents and
pass commands, the local agent over stdio, and a revocation that a running server sees at once."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from club_agentes.mcp_server.auth import AgentExists, AgentKeyVerifier, AgentRegistry, UnknownAgent
from club_agentes.mcp_server.identity import (
    IdentityMiddleware,
    NoIdentity,
    acting_as,
    claimed_agent,
    client_address,
    current_agent,
)
from club_agentes.quizzes.harness import InvalidAgent
from club_agentes.quizzes.store import PassRecord
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.conftest import DbLocation
from tests.mcp.edge import http_club, keyed_client
from tests.mcp.helpers import CLI, Checked, server_command

GAME = "market-fortune"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLI), *args], capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})}
    )


# --------------------------------------------------------------------------- the request's agent


def test_current_agent_comes_from_the_request() -> None:
    with pytest.raises(NoIdentity, match="carries no agent key"):
        current_agent()
    with acting_as("Ana María", "10.0.0.7"):
        assert current_agent() == "ana-maria" and client_address() == "10.0.0.7"
        assert claimed_agent(None) == claimed_agent("ANA-MARIA") == "ana-maria"
        with pytest.raises(Exception, match="you are connected as 'ana-maria', so you cannot act as 'bea'"):
            claimed_agent("bea")
        with pytest.raises(InvalidAgent):
            claimed_agent("!!!")
    with acting_as(None), pytest.raises(NoIdentity):
        current_agent()
    assert client_address() == "local"


def test_the_middleware_resolves_keys_and_the_local_agent() -> None:
    class FakeRequest:
        def __init__(self, scope: dict) -> None:
            self.scope = scope

    local = IdentityMiddleware("Local")
    assert local.resolve(None).agent == "local"
    assert local.resolve(FakeRequest({"client": ("127.0.0.1", 5)})).agent == "local"
    keyed = IdentityMiddleware(None)
    assert keyed.resolve(FakeRequest({"client": ("10.1.2.3", 5)})).agent is None
    assert keyed.resolve(FakeRequest({"client": ("10.1.2.3", 5)})).address == "10.1.2.3"


# --------------------------------------------------------------------------- the registry (both databases)


@pytest.fixture
def registry(db_location: DbLocation):
    store = db_location.open()
    yield AgentRegistry(store)
    store.close()


def test_look_alike_names_are_one_agent(registry: AgentRegistry) -> None:
    record, _ = registry.add("Same-Name")
    assert record.name == "same-name" and record.display == "Same-Name"
    for twin in ("same_name", "same-name.", "SAME NAME", "Sámé Name!"):
        with pytest.raises(AgentExists, match="'same-name' exists already"):
            registry.add(twin)
    assert registry.get("SAME_NAME").name == "same-name"
    with pytest.raises(UnknownAgent):
        registry.get("nobody")


def test_keys_verify_and_only_their_hash_is_stored(registry: AgentRegistry) -> None:
    record, key = registry.add("ana")
    assert key.startswith("ca_") and len(key) == 3 + 16 + 1 + 43
    assert registry.verify(key) == record
    secret = key[len("ca_") + 16 + 1 :]
    stored = registry.store.agents.load_agent("ana")
    assert stored is not None and secret not in repr(stored) and key not in repr(stored)
    assert stored.key_hash != secret and len(stored.key_hash) == 64
    for bad in ("", key + "x", key[:-1] + ("A" if key[-1] != "A" else "B"), "ca_" + "0" * 16 + "_" + "A" * 43, 7):
        assert registry.verify(bad) is None  # type: ignore[arg-type]


def test_revoking_an_agent_stops_its_key_and_its_passes(registry: AgentRegistry) -> None:
    _, key = registry.add("ana")
    store = registry.store
    store.quizzes.save_pass(PassRecord("j-ana", "ana", (GAME,), 10.0, 4_000_000_000.0))
    store.quizzes.save_pass(PassRecord("j-bea", "bea", (GAME,), 10.0, 4_000_000_000.0))
    record, passes = registry.revoke("Ana")
    assert record.revoked_at is not None and passes == 1
    assert registry.verify(key) is None
    assert store.quizzes.load_pass("j-ana").revoked and not store.quizzes.load_pass("j-bea").revoked
    with pytest.raises(UnknownAgent, match="revoked already"):
        registry.revoke("ana")
    _, new_key = registry.rotate("ana")
    assert registry.verify(new_key) is not None and registry.verify(key) is None


@pytest.mark.anyio
async def test_the_token_verifier_names_the_agent(registry: AgentRegistry) -> None:
    _, key = registry.add("Bea")
    token = await AgentKeyVerifier(registry).verify_token(key)
    assert token is not None and token.client_id == token.subject == "bea" and token.scopes == ["agent"]
    assert await AgentKeyVerifier(registry).verify_token("ca_nope") is None


# --------------------------------------------------------------------------- the commands


def test_agents_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite3")
    out = cli("agents", "add", "Ana López", "--db", db)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.rstrip("\n").split("\n")
    key = lines[-1]
    assert key.startswith("ca_") and " " not in key and "'ana-lopez'" in lines[0]
    twin = cli("agents", "add", "ana_lopez", "--db", db)
    assert twin.returncode == 2 and "exists already" in twin.stderr and twin.stderr.count("\n") == 1
    listed = cli("agents", "list", "--db", db)
    assert "ana-lopez" in listed.stdout and "active" in listed.stdout and key not in listed.stdout
    stored = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.is_file())
    assert key[len("ca_") + 16 + 1 :].encode() not in stored and key.encode() not in stored
    rotated = cli("agents", "rotate", "ANA LOPEZ", "--db", db)
    new_key = rotated.stdout.rstrip("\n").split("\n")[-1]
    assert rotated.returncode == 0 and new_key.startswith("ca_") and new_key != key
    revoked = cli("agents", "revoke", "ana-lopez", "--db", db)
    assert revoked.returncode == 0 and "no longer works" in revoked.stdout
    assert "revoked" in cli("agents", "list", "--db", db).stdout
    missing = cli("agents", "revoke", "nadie", "--db", db)
    assert missing.returncode == 2 and "no agent is named 'nadie'" in missing.stderr
    bad = cli("agents", "add", "!!!", "--db", db)
    assert bad.returncode == 2 and "no letter or digit" in bad.stderr and "Traceback" not in bad.stderr


def test_pass_commands_and_a_revocation_seen_at_once_by_a_running_server(tmp_path: Path) -> None:
    import anyio

    db = tmp_path / "club.sqlite3"
    with http_club(db) as (app, url):
        _, key = app.agents.add("ana")

        async def pass_and_check() -> tuple[str, str]:
            async with keyed_client(url, key) as ana:
                paper = await ana.call("start_quiz", {"game": GAME})
                attempt = app.store.quizzes.load_attempt(paper["quiz_id"])
                answers = {
                    k: it.answer
                    for k, it in zip(("q1", "q2", "q3", "r1"), app.quizzes.presented_items(attempt), strict=True)
                }
                result = await ana.call("submit_quiz", {"quiz_id": paper["quiz_id"], "answers": answers})
                check = await ana.call("verify_club_pass", {"token": result["club_pass"]})
                assert check["valid"]
                return result["club_pass"], check["pass_id"]

        token, jti = anyio.run(pass_and_check)
        listed = cli("pass", "list", "--db", str(db))
        assert listed.returncode == 0 and jti in listed.stdout and "valid" in listed.stdout
        shown = cli("pass", "show", token, "--db", str(db))
        assert shown.returncode == 0 and f"pass id: {jti}" in shown.stdout and "token:   valid" in shown.stdout
        assert cli("pass", "show", jti, "--db", str(db)).returncode == 0
        revoked = cli("pass", "revoke", jti, "--db", str(db))
        assert revoked.returncode == 0 and f"Revoked pass {jti}" in revoked.stdout

        async def check_again() -> dict:
            async with keyed_client(url, key) as ana:
                return await ana.call("verify_club_pass", {"token": token, "game": GAME})

        check = anyio.run(check_again)
        assert not check["valid"] and check["reason"] == "the pass was revoked"
        assert "revoked" in cli("pass", "list", "--agent", "ANA", "--db", str(db)).stdout
        assert cli("pass", "revoke", "--agent", "ana", "--db", str(db)).stdout.startswith("Revoked 0 passes")
        nothing = cli("pass", "show", "no-such-id", "--db", str(db))
        assert nothing.returncode == 2 and "no club pass has the id" in nothing.stderr
        both = cli("pass", "revoke", "--db", str(db))
        assert both.returncode == 2 and "give either a pass id or --agent" in both.stderr


# --------------------------------------------------------------------------- stdio


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("args", "env", "agent"),
    [
        (("--agent", "Claude-7"), {}, "claude-7"),
        ((), {"CLUB_AGENTES_AGENT": "Desde Entorno"}, "desde-entorno"),
        ((), {}, "local"),
    ],
)
async def test_stdio_acts_as_the_local_agent(tmp_path: Path, args: tuple[str, ...], env: dict, agent: str) -> None:
    cmd = server_command(tmp_path / "club.sqlite3", *args)
    environ = {k: v for k, v in os.environ.items() if k != "CLUB_AGENTES_AGENT"} | env
    async with Client(StdioServerParameters(command=cmd[0], args=cmd[1:], env=environ)) as client:
        c = await Checked(client).load()
        paper = await c.call("start_quiz", {"game": GAME})
        assert paper["agent"] == agent
        assert "cannot act as 'someone-else'" in await c.error("start_quiz", {"game": GAME, "agent": "someone-else"})
