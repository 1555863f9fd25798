"""The server's edge over streamable HTTP (uvicorn on loopback): agent keys through the SDK's auth
(401 with WWW-Authenticate, protected-resource metadata), tools acting as the key's agent and never as
another, open registration with its limits, --no-auth on loopback only, host and origin checks on every
bind address, and legacy sessions that cannot be exhausted."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import httpx2
import pytest
from club_agentes.mcp_server.limits import LimitSettings
from club_agentes.mcp_server.settings import SettingsError, load_settings
from mcp import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from tests.mcp.edge import http_club, http_subprocess, keyed_client
from tests.mcp.helpers import CLI, ToolCallError

pytestmark = pytest.mark.anyio

GAME = "market-fortune"


def right_answers(app, quiz_id: str) -> dict[str, str]:
    """What a perfect agent would answer (read from the server's own store, test-only)."""
    attempt = app.store.quizzes.load_attempt(quiz_id)
    keys = ["p1"] if attempt.practice else ["q1", "q2", "q3", "r1"]
    return {k: it.answer for k, it in zip(keys, app.quizzes.presented_items(attempt), strict=True)}


def initialize_body(n: int = 1) -> bytes:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": n,
            "method": "initialize",
            "params": {
                "protocolVersion": HANDSHAKE_PROTOCOL_VERSIONS[-1],
                "capabilities": {},
                "clientInfo": {"name": "probe", "version": "1"},
            },
        }
    ).encode()


def refused_with(sentence: str) -> pytest.RaisesGroup[MCPError]:
    """Expect the SDK client to fail with the server's 401 sentence (an MCPError inside its task groups)."""
    return pytest.RaisesGroup(pytest.RaisesExc(MCPError, match=re.escape(sentence)), flatten_subgroups=True)


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


# --------------------------------------------------------------------------- keys


async def test_a_missing_key_and_a_wrong_key_get_different_401s(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        _, key = app.agents.add("Ana")
        _, revoked = app.agents.add("old-timer")
        app.agents.revoke("old-timer")
        metadata = url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
        async with httpx2.AsyncClient() as http:
            # No bearer key (RFC 6750 section 3.1): no error code, and the body says a key is required.
            for auth in (None, f"Basic {key}"):
                headers = dict(MCP_HEADERS, **({"Authorization": auth} if auth else {}))
                r = await http.post(url, content=initialize_body(), headers=headers)
                assert r.status_code == 401, auth
                challenge = r.headers["www-authenticate"]
                assert challenge.startswith("Bearer ") and "error=" not in challenge
                assert f'resource_metadata="{metadata}"' in challenge and 'scope="agent"' in challenge
                body = r.json()
                assert body["error"]["message"].startswith("A key is required: send 'Authorization: Bearer <agent")
            # A key that is not valid: invalid_token, and header and body say the key is not valid.
            for auth in ("Bearer nonsense", f"Bearer {key[:-1]}x", f"Bearer {revoked}", "Bearer cat_forged"):
                r = await http.post(url, content=initialize_body(), headers=dict(MCP_HEADERS, Authorization=auth))
                assert r.status_code == 401, auth
                challenge = r.headers["www-authenticate"]
                assert 'error="invalid_token"' in challenge, auth
                assert 'error_description="The agent key or access token is not valid' in challenge
                assert f'resource_metadata="{metadata}"' in challenge
                body = r.json()
                assert body["error"]["message"].startswith("The key is not valid: this agent key or access token")
                assert body["error"]["data"]["error"] == "invalid_token"
                assert key not in r.text
            ok = await http.post(
                url, content=initialize_body(), headers=dict(MCP_HEADERS, Authorization=f"Bearer {key}")
            )
            assert ok.status_code == 200
            meta = await http.get(metadata)
            assert meta.status_code == 200
            body = meta.json()
            assert body["resource"] == url and body["scopes_supported"] == ["agent"]
            # The authorization server it names exists: its metadata, registration and login.
            (issuer,) = body["authorization_servers"]
            server = (await http.get(issuer.rstrip("/") + "/.well-known/oauth-authorization-server")).json()
            assert server["issuer"].rstrip("/") == issuer.rstrip("/")
            assert server["code_challenge_methods_supported"] == ["S256"]
            assert server["registration_endpoint"].endswith("/register") and server["scopes_supported"] == ["agent"]
        # The SDK client shows the server's sentence, not "Server returned an error response".
        with refused_with("The key is not valid: this agent key or access token is unknown, revoked"):
            async with keyed_client(url, "ca_0000000000000000_" + "A" * 43) as client:
                await client.call("list_games", {})
        with refused_with("A key is required: send 'Authorization: Bearer <agent key>'"):
            async with keyed_client(url, None) as client:
                await client.call("list_games", {})


async def test_tools_act_as_the_agent_of_the_key(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        _, ana_key = app.agents.add("Ana")
        _, bea_key = app.agents.add("bea")
        async with keyed_client(url, ana_key) as ana, keyed_client(url, bea_key) as bea:
            paper = await ana.call("start_quiz", {"game": GAME})
            assert paper["agent"] == "ana"
            assert "q1 (question" in ana.responses[-1] and paper["quiz_id"] in ana.responses[-1]
            same = await ana.call("start_quiz", {"game": GAME, "agent": "ANA"})
            assert same["agent"] == "ana"
            text = await bea.error("start_quiz", {"game": GAME, "agent": "ana"})
            assert "you are connected as 'bea', so you cannot act as 'ana'" in text
            # bea cannot submit (or use up) ana's attempt, even holding its id.
            assert "started by another agent" in await bea.error(
                "submit_quiz", {"quiz_id": paper["quiz_id"], "answers": right_answers(app, paper["quiz_id"])}
            )
            result = await ana.call(
                "submit_quiz", {"quiz_id": paper["quiz_id"], "answers": right_answers(app, paper["quiz_id"])}
            )
            assert result["passed"] and result["correct"] and result["club_pass"]
            check = await bea.call("verify_club_pass", {"token": result["club_pass"], "game": GAME})
            assert check["valid"] and check["agent"] == "ana" and check["pass_id"]
            assert app.quizzes.admit(result["club_pass"], "bea", GAME) is not None
            # Practice has an identity: the paper is bea's, and only bea submits it.
            practice = await bea.call("practice_question", {"game": GAME})
            assert practice["agent"] == "bea"
            assert "started by another agent" in await ana.error(
                "submit_quiz", {"quiz_id": practice["quiz_id"], "answers": {"p1": "1"}}
            )
            graded = await bea.call("submit_quiz", {"quiz_id": practice["quiz_id"], "answers": {"p1": "1"}})
            assert "passed" not in graded and isinstance(graded["correct"], bool)
        # A revoked agent is locked out at once, on its very next request.
        app.agents.revoke("ana")
        with refused_with("The key is not valid"):
            async with keyed_client(url, ana_key) as ana:
                await ana.call("list_games", {})


async def test_a_pass_seats_only_the_agent_it_names(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        _, ana_key = app.agents.add("ana")
        _, bea_key = app.agents.add("bea")
        async with keyed_client(url, ana_key) as ana, keyed_client(url, bea_key) as bea:
            paper = await ana.call("start_quiz", {"game": GAME})
            token = (
                await ana.call(
                    "submit_quiz", {"quiz_id": paper["quiz_id"], "answers": right_answers(app, paper["quiz_id"])}
                )
            )["club_pass"]
            table = await bea.call("create_table", {"game": GAME, "seats": ["agent", "agent"]})
            args = {"table_id": table["table_id"], "club_pass": token}
            with pytest.raises(ToolCallError):
                await bea.call("join_table", {**args, "agent": "ana"})
            with pytest.raises(ToolCallError):
                await bea.call("join_table", args)
            seat = await ana.call("join_table", args)
            with pytest.raises(ToolCallError):
                await ana.call("join_table", args)  # one seat per agent
            assert seat["agent"] == "ana"


# --------------------------------------------------------------------------- open registration


async def test_open_registration_hands_out_keys_within_limits(tmp_path: Path) -> None:
    limits = LimitSettings.parse("registrations_per_hour=2,registrations_per_hour_global=50")
    with http_club(tmp_path / "db", open_registration=True, limits=limits) as (app, url):
        async with keyed_client(url, None) as guest:
            assert {"register_agent"} <= set(guest.schemas)
            assert len((await guest.call("list_games", {}))["games"]) == 3
            # A tool that needs an agent answers 401 (so an OAuth client signs in then), saying how to get a key.
            with pytest.raises(MCPError, match=r"A key is required: .* this server.s register_agent tool makes one"):
                await guest.call("start_quiz", {"game": GAME})
            assert app.store.db.one("SELECT COUNT(*) FROM quiz_attempts")[0] == 0
            first = await guest.call("register_agent", {"name": "Nueva Agente"})
            assert first["agent"] == "nueva-agente" and first["key"].startswith("ca_")
            assert first["key"] in guest.responses[-1]
            assert "exists already" in await guest.error("register_agent", {"name": "nueva_agente"})
            # A refused registration does not count against the address (issue 23): the second one still fits.
            assert (await guest.call("register_agent", {"name": "segunda"}))["agent"] == "segunda"
            text = await guest.error("register_agent", {"name": "tercera"})
            assert "registrations in the last hour (the limit is 2); retry after" in text
        async with keyed_client(url, first["key"]) as agent:
            assert (await agent.call("start_quiz", {"game": GAME}))["agent"] == "nueva-agente"
        async with httpx2.AsyncClient() as http:
            bad = await http.post(url, content=initialize_body(), headers=dict(MCP_HEADERS, Authorization="Bearer x"))
            assert bad.status_code == 401, "a bad key is refused even when anonymous requests are served"
        assert app.agents.get("nueva-agente").origin == "register"


async def test_register_agent_is_off_by_default(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        _, key = app.agents.add("ana")
        async with keyed_client(url, key) as ana:
            assert "register_agent" not in ana.schemas


# --------------------------------------------------------------------------- --no-auth


async def test_no_auth_acts_as_the_local_agent_on_loopback(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", no_auth=True, agent="Probador Local") as (_, url):
        async with keyed_client(url, None) as client:
            assert (await client.call("start_quiz", {"game": GAME}))["agent"] == "probador-local"


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.10", "example.org", "::"])
def test_no_auth_is_refused_off_loopback(host: str) -> None:
    with pytest.raises(SettingsError, match="only allowed on a loopback address"):
        load_settings({}, env={}, http=True, no_auth=True, host=host)
    for ok in ("127.0.0.1", "127.0.0.2", "::1", "localhost"):
        assert load_settings({}, env={}, http=True, no_auth=True, host=ok).no_auth


def test_the_cli_refuses_no_auth_off_loopback_in_one_sentence(tmp_path: Path) -> None:
    out = subprocess.run(
        [str(CLI), "serve", "--http", "--no-auth", "--host", "0.0.0.0", "--db", str(tmp_path / "db")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("club-agentes: --no-auth serves without agent keys")
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1


# --------------------------------------------------------------------------- host and origin


@pytest.mark.parametrize("bind", ["0.0.0.0", "127.0.0.1"])
def test_foreign_hosts_get_421_and_foreign_origins_403_on_every_address(tmp_path: Path, bind: str) -> None:
    with http_subprocess(
        tmp_path / "db", "--host", bind, "--allowed-host", "club.example.org", "--allowed-origin", "https://app.example"
    ) as (host, port):
        base = f"http://{host}:{port}"
        with httpx2.Client() as http:

            def post(path: str = "/mcp", **headers: str) -> httpx2.Response:
                return http.post(base + path, content=initialize_body(), headers={**MCP_HEADERS, **headers})

            r = post(Host="evil.example")
            assert r.status_code == 421 and "--allowed-host" in r.text
            assert (
                http.get(
                    base + "/.well-known/oauth-protected-resource/mcp", headers={"Host": "evil.example"}
                ).status_code
                == 421
            )
            assert post(Host=f"evil.example:{port}").status_code == 421
            r = post(Origin="http://evil.example")
            assert r.status_code == 403 and "--allowed-origin" in r.text
            # Allowed names pass the edge (and then need a key).
            assert post().status_code == 401
            assert post(Host=f"localhost:{port}").status_code == 401
            assert post(Host="club.example.org").status_code == 401
            assert post(Origin="https://app.example").status_code == 401
            assert post(Origin=f"http://127.0.0.1:{port}").status_code == 401


# --------------------------------------------------------------------------- legacy sessions


async def test_stateless_json_serves_any_number_of_legacy_handshakes(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        _, key = app.agents.add("ana")
        headers = dict(MCP_HEADERS, Authorization=f"Bearer {key}")
        async with httpx2.AsyncClient() as http:
            for n in range(300):
                r = await http.post(url, content=initialize_body(n), headers=headers)
                assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
                assert "mcp-session-id" not in r.headers
        async with keyed_client(url, key, mode="legacy") as legacy:
            assert len((await legacy.call("list_games", {}))["games"]) == 3


async def test_streaming_caps_legacy_sessions_per_key(tmp_path: Path) -> None:
    limits = LimitSettings.parse("legacy_sessions=3,legacy_idle_s=600")
    with http_club(tmp_path / "db", streaming=True, limits=limits) as (app, url):
        _, greedy = app.agents.add("greedy")
        _, other = app.agents.add("other")
        headers = dict(MCP_HEADERS, Authorization=f"Bearer {greedy}")
        async with httpx2.AsyncClient() as http:
            sessions = []
            for n in range(53):  # never deleted: each one past the cap replaces the oldest idle one
                r = await http.post(url, content=initialize_body(n), headers=headers)
                assert r.status_code == 200 and r.headers.get("mcp-session-id")
                sessions.append(r.headers["mcp-session-id"])
            held = [s for s in sessions if s in app.server.session_manager._server_instances]
            assert held == sessions[-3:]
            # Deleting a session forgets it at once.
            gone = await http.delete(url, headers={**headers, "mcp-session-id": sessions[-1]})
            assert gone.status_code < 300
            assert (await http.post(url, content=initialize_body(), headers=headers)).status_code == 200
        async with keyed_client(url, other, mode="legacy") as legacy:
            assert len((await legacy.call("list_games", {}))["games"]) == 3


@pytest.mark.slow
@pytest.mark.timeout(600)  # 10,000 handshakes; in --streaming each one opens a session (idle ones make room)
@pytest.mark.parametrize("streaming", [False, True], ids=["json", "streaming"])  # two tests, run side by side
async def test_ten_thousand_handshakes_do_not_lock_out_other_legacy_clients(tmp_path: Path, streaming: bool) -> None:
    with http_club(tmp_path / f"db-{streaming}", streaming=streaming) as (app, url):
        _, flood = app.agents.add("flood")
        _, fresh = app.agents.add("fresh")
        headers = dict(MCP_HEADERS, Authorization=f"Bearer {flood}")
        statuses: dict[int, int] = {}
        async with httpx2.AsyncClient() as http:
            for n in range(10_000):
                r = await http.post(url, content=initialize_body(n), headers=headers)
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        assert set(statuses) <= {200, 429}, statuses
        if streaming:  # never deleted, and idle: each makes room by closing the agent's oldest one
            assert statuses == {200: 10_000}
            assert len(app.server.session_manager._server_instances) <= 8
        async with keyed_client(url, fresh, mode="legacy") as legacy:
            assert len((await legacy.call("list_games", {}))["games"]) == 3
