"""The server's OAuth login end to end over HTTP (uvicorn on loopback): the SDK client's OAuth support connects
with no preset header (dynamic registration, PKCE, the login page driven over HTTP, tokens bound to the agent),
tokens survive a restart and refresh with rotation, revocation (of a grant, of an agent) ends them, and the
login page's CSRF, key and rate-limit refusals. SQLite and PostgreSQL where the store is involved."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest
from club_agentes.mcp_server.auth import challenge
from club_agentes.mcp_server.limits import LimitSettings
from club_agentes.mcp_server.oauth import ACCESS_PREFIX, REFRESH_PREFIX

from tests.conftest import DbLocation
from tests.mcp.edge import http_club
from tests.mcp.oauth_flow import (
    CALLBACK,
    Forms,
    HttpPerson,
    MemoryStorage,
    authorize_url,
    never,
    oauth_client,
    pkce,
    redirect_params,
    register,
)

pytestmark = pytest.mark.anyio

GAME = "market-fortune"
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST_TOOLS = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}'


def base_of(url: str) -> str:
    return url.removesuffix("/mcp")


async def status_with(url: str, token: str) -> int:
    """The HTTP status of a tools/list sent with ``Authorization: Bearer <token>``."""
    async with httpx2.AsyncClient() as http:
        headers = dict(MCP_HEADERS, Authorization=f"Bearer {token}", **{"MCP-Protocol-Version": "2025-11-25"})
        r = await http.post(url, content=LIST_TOOLS, headers=headers)
        return r.status_code


async def test_an_oauth_client_connects_with_no_preset_header(db_location: DbLocation) -> None:
    store = db_location.open()
    with http_club(store) as (app, url):
        _, key = app.agents.add("Ana")
        person = HttpPerson(key)
        storage = MemoryStorage()
        async with oauth_client(url, storage, person.open, person.callback) as ana:
            paper = await ana.call("start_quiz", {"game": GAME})
            assert paper["agent"] == "ana"
        assert person.opened == 1
        page = Forms(person.pages[0].text).page_text
        assert "Test client asks to act as one of this club's agents" in page and CALLBACK in page
        assert storage.client_info is not None and storage.tokens is not None
        access, refresh = storage.tokens.access_token, storage.tokens.refresh_token
        assert access.startswith(ACCESS_PREFIX) and refresh is not None and refresh.startswith(REFRESH_PREFIX)
        assert storage.tokens.expires_in == 3600 and storage.tokens.scope == "agent"
        # Stored hashed: neither token (nor the key) is in the store.
        rows = app.store.db.all("SELECT token_hash, kind, agent, client_id FROM oauth_tokens")
        assert sorted(r[1] for r in rows) == ["access", "refresh"] and {r[2] for r in rows} == {"ana"}
        assert {r[3] for r in rows} == {storage.client_info.client_id}
        assert all(access not in str(r) and refresh not in str(r) for r in rows)
        # The same client reconnects with its tokens, and no person.
        async with oauth_client(url, storage, never, never) as again:
            assert (await again.call("start_quiz", {"game": "se-vende"}))["agent"] == "ana"
        # The agent key keeps working as a header beside OAuth.
        assert await status_with(url, key) == 200
    # The tokens survive a restart of the server (a new port: the same store).
    with http_club(db_location.open()) as (app, url):
        async with oauth_client(url, storage, never, never) as after:
            assert (await after.call("practice_question", {"game": GAME}))["agent"] == "ana"


async def test_a_refresh_rotates_both_tokens(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        _, key = app.agents.add("bea")
        person = HttpPerson(key)
        storage = MemoryStorage()
        async with oauth_client(url, storage, person.open, person.callback) as bea:
            assert (await bea.call("practice_question", {"game": GAME}))["agent"] == "bea"
        first = storage.tokens
        assert first is not None and first.refresh_token is not None
        # The client's access token expired: it refreshes, without a person.
        async with oauth_client(url, storage, never, never, expired=True) as bea:
            assert (await bea.call("practice_question", {"game": GAME}))["agent"] == "bea"
        second = storage.tokens
        assert second is not None and second.access_token != first.access_token
        assert second.refresh_token != first.refresh_token
        # The old access token and the old refresh token no longer work.
        assert await status_with(url, first.access_token) == 401
        assert await status_with(url, second.access_token) == 200
        async with httpx2.AsyncClient() as http:
            assert storage.client_info is not None
            r = await http.post(
                f"{base_of(url)}/token",
                data={
                    "grant_type": "refresh_token",
                    "refresh_token": first.refresh_token,
                    "client_id": storage.client_info.client_id,
                    "client_secret": storage.client_info.client_secret or "",
                },
            )
            assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
        assert person.opened == 1


async def test_revoking_the_agent_or_the_grant_ends_its_tokens(db_location: DbLocation) -> None:
    with http_club(db_location.open()) as (app, url):
        _, key = app.agents.add("cleo")
        grants = []
        for _ in range(2):
            person, storage = HttpPerson(key), MemoryStorage()
            async with oauth_client(url, storage, person.open, person.callback) as cleo:
                await cleo.call("list_games", {})
            grants.append(storage)
        tokens = [s.tokens for s in grants]
        assert all(t is not None for t in tokens)
        # RFC 7009: the client revokes its own grant; the other grant is untouched.
        revoked, kept = grants
        async with httpx2.AsyncClient() as http:
            assert revoked.client_info is not None and revoked.tokens is not None
            r = await http.post(
                f"{base_of(url)}/revoke",
                data={
                    "token": revoked.tokens.access_token,
                    "client_id": revoked.client_info.client_id,
                    "client_secret": revoked.client_info.client_secret or "",
                },
            )
            assert r.status_code == 200
        assert await status_with(url, revoked.tokens.access_token) == 401
        assert kept.tokens is not None and await status_with(url, kept.tokens.access_token) == 200
        # Revoking the agent ends every token it holds, at once.
        assert app.store.oauth.oauth_token_count("cleo") == 2
        app.agents.revoke("cleo")
        assert app.store.oauth.oauth_token_count("cleo") == 0
        assert await status_with(url, kept.tokens.access_token) == 401


async def test_the_login_page_refuses_bad_keys_forms_and_floods(tmp_path: Path) -> None:
    limits = LimitSettings.parse("logins_per_hour=3")
    with http_club(tmp_path / "db", limits=limits) as (app, url):
        _, key = app.agents.add("dani")
        base = base_of(url)
        async with httpx2.AsyncClient() as http:
            client = await register(http, base)
            answer = await http.get(authorize_url(base, client, pkce()[1]))
            assert answer.status_code == 302
            login = answer.headers["location"]
            assert login.startswith(f"{base}/oauth/login?request=")
            page = await http.get(login)
            assert page.status_code == 200
            csp = page.headers["content-security-policy"]
            assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
            assert "form-action 'self' http://127.0.0.1:9" in csp
            assert page.headers["cache-control"] == "no-store" and page.headers["x-frame-options"] == "DENY"
            assert "http" not in page.text.replace(CALLBACK, ""), "no external origin in the page"
            form = Forms(page.text).forms["sign-in"]
            action = f"{base}/oauth/login"
            # A wrong key: one sentence, the key not echoed.
            wrong = key[:-1] + ("x" if key[-1] != "x" else "y")
            bad = await http.post(action, data={**form, "key": wrong})
            assert bad.status_code == 400
            assert "That key is not valid: it is unknown, revoked or mistyped." in Forms(bad.text).page_text
            assert wrong not in bad.text and key not in bad.text
            # CSRF: a post without the page's cookie, or with another token, is refused.
            async with httpx2.AsyncClient() as stranger:
                assert (await stranger.post(action, data={**form, "key": key})).status_code == 403
            forged = await http.post(action, data={**form, "csrf": "x" * 43, "key": key})
            assert forged.status_code == 403 and "reload the sign-in page" in forged.text
            # A foreign Origin is refused before the page sees it.
            foreign = await http.post(action, data={**form, "key": key}, headers={"Origin": "https://evil.example"})
            assert foreign.status_code == 403
            # Sign-in attempts are limited per address: two more wrong keys reach the limit of 3.
            await http.post(action, data={**form, "key": wrong})
            await http.post(action, data={**form, "key": wrong})
            flood = await http.post(action, data={**form, "key": key})
            assert flood.status_code == 429 and int(flood.headers["retry-after"]) > 0
            assert "3 sign-in attempts in the last hour (the limit is 3); retry after" in Forms(flood.text).page_text
            # An unknown request id.
            gone = await http.get(f"{base}/oauth/login?request=nope")
            assert gone.status_code == 400 and "unknown or has expired" in gone.text


async def test_a_code_is_single_use_and_needs_the_pkce_verifier(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        _, key = app.agents.add("eli")
        base = base_of(url)
        async with httpx2.AsyncClient() as http:
            client = await register(http, base)
            verifier, challenge = pkce()
            login = (await http.get(authorize_url(base, client, challenge, state="s1"))).headers["location"]
            form = Forms((await http.get(login)).text).forms["sign-in"]
            done = await http.post(f"{base}/oauth/login", data={**form, "key": key})
            assert done.status_code == 303
            got = redirect_params(done.headers["location"])
            assert got["state"] == "s1"
            exchange = {
                "grant_type": "authorization_code",
                "code": got["code"],
                "redirect_uri": CALLBACK,
                "client_id": client["client_id"],
                "client_secret": client["client_secret"],
            }
            wrong = await http.post(f"{base}/token", data={**exchange, "code_verifier": pkce()[0]})
            assert wrong.status_code == 400 and "code_verifier" in wrong.text
            ok = await http.post(f"{base}/token", data={**exchange, "code_verifier": verifier})
            assert ok.status_code == 200
            token = ok.json()["access_token"]
            assert await status_with(url, token) == 200
            # A second use of the code is refused and revokes what the first use gave.
            again = await http.post(f"{base}/token", data={**exchange, "code_verifier": verifier})
            assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
            assert await status_with(url, token) == 401
            # A sign-in request ends once used: its page is gone.
            assert (await http.get(login)).status_code == 400
            # Another resource than this server's is refused (RFC 8707).
            other = await http.get(authorize_url(base, client, challenge, resource="https://elsewhere.example/mcp"))
            assert other.status_code == 302 and "error=invalid_target" in other.headers["location"]


async def test_cancel_sends_access_denied(tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (_, url):
        base = base_of(url)
        async with httpx2.AsyncClient() as http:
            client = await register(http, base)
            login = (await http.get(authorize_url(base, client, pkce()[1], state="s2"))).headers["location"]
            form = Forms((await http.get(login)).text).forms["cancel"]
            done = await http.post(f"{base}/oauth/login", data=form)
            assert done.status_code == 303
            got = redirect_params(done.headers["location"])
            assert got["error"] == "access_denied" and got["state"] == "s2" and "code" not in got


async def test_open_registration_creates_an_agent_on_the_login_page(tmp_path: Path) -> None:
    limits = LimitSettings.parse("registrations_per_hour=1")
    with http_club(tmp_path / "db", open_registration=True, limits=limits) as (app, url):
        base = base_of(url)
        async with httpx2.AsyncClient() as http:
            client = await register(http, base)
            verifier, challenge = pkce()
            login = (await http.get(authorize_url(base, client, challenge))).headers["location"]
            page = Forms((await http.get(login)).text)
            assert "No agent yet?" in page.page_text
            created = await http.post(f"{base}/oauth/login", data={**page.forms["create"], "name": "Nueva Cliente"})
            assert created.status_code == 200 and created.headers["cache-control"] == "no-store"
            shown = Forms(created.text)
            new_key = next(w for w in shown.page_text.split() if w.startswith("ca_"))
            assert "shown only this once" in shown.page_text
            assert app.agents.get("nueva-cliente").origin == "register"
            # Reloading the page never shows the key again.
            again = await http.get(login)
            assert new_key not in again.text and "its key was shown once" in Forms(again.text).page_text
            done = await http.post(f"{base}/oauth/login", data=Forms(again.text).forms["continue"])
            assert done.status_code == 303
            code = redirect_params(done.headers["location"])["code"]
            ok = await http.post(
                f"{base}/token",
                data={
                    "grant_type": "authorization_code",
                    "code": code,
                    "redirect_uri": CALLBACK,
                    "client_id": client["client_id"],
                    "client_secret": client["client_secret"],
                    "code_verifier": verifier,
                },
            )
            assert ok.status_code == 200
            assert await status_with(url, ok.json()["access_token"]) == 200
            assert await status_with(url, new_key) == 200
            # A second agent from the same address is over registrations_per_hour=1.
            login = (await http.get(authorize_url(base, client, challenge))).headers["location"]
            page = Forms((await http.get(login)).text)
            refused = await http.post(f"{base}/oauth/login", data={**page.forms["create"], "name": "otra"})
            assert refused.status_code == 400 and "agent registrations in the last hour" in refused.text


async def test_under_open_registration_a_client_signs_in_when_a_tool_needs_an_agent(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", open_registration=True) as (app, url):
        person = HttpPerson(create="Hana")
        storage = MemoryStorage()
        async with oauth_client(url, storage, person.open, person.callback) as client:
            assert len((await client.call("list_games", {}))["games"]) == 3  # anonymous: no sign-in yet
            assert person.opened == 0
            assert (await client.call("start_quiz", {"game": GAME}))["agent"] == "hana"
            assert person.opened == 1
        assert person.created_key is not None and app.agents.verify(person.created_key) is not None
        assert app.agents.get("hana").origin == "register"


async def test_registration_refuses_unsafe_redirects_and_floods(tmp_path: Path) -> None:
    limits = LimitSettings.parse("oauth_clients_per_hour=3")
    with http_club(tmp_path / "db", limits=limits) as (_, url):
        base = base_of(url)
        async with httpx2.AsyncClient() as http:
            for uri, why in (
                ("javascript://x/%0Aalert(1)", "uses the scheme 'javascript'"),
                ("http://attacker.example/cb", "plain http on a host that is not loopback"),
                ("https://app.example/cb#frag", "has a fragment"),
            ):
                r = await http.post(f"{base}/register", json={"client_name": "x", "redirect_uris": [uri]})
                assert r.status_code == 400 and r.json()["error"] == "invalid_redirect_uri", uri
                assert why in r.json()["error_description"], uri
            # Those three counted: a fourth registration from this address is over oauth_clients_per_hour=3.
            r = await http.post(f"{base}/register", json={"client_name": "x", "redirect_uris": ["cursor://cb"]})
            assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
            assert "3 OAuth client registrations in the last hour (the limit is 3)" in r.json()["error_description"]


async def test_login_is_off_where_no_issuer_can_be_valid(tmp_path: Path) -> None:
    """A plain-HTTP address that is not loopback cannot be an issuer (RFC 8414): no metadata claims one."""
    from club_agentes.mcp_server.app import build_app
    from club_agentes.mcp_server.settings import load_settings
    from club_agentes.mcp_server.store import Store

    settings = load_settings({}, env={}, http=True, host="0.0.0.0", public_url="http://club.example.org/mcp")
    app = build_app(Store(tmp_path / "db"), settings=settings)
    try:
        auth = app.server.settings.auth
        assert auth is not None and auth.resource_server_url is None
        assert auth.client_registration_options is None and app.oauth is None
        header, body = challenge(True, None)
        assert "resource_metadata" not in header and "login page" not in body.decode()
    finally:
        app.store.close()
