"""Proxies and health: the client address behind trusted proxies, ``/healthz`` and ``/metrics``."""

from __future__ import annotations

import re
from pathlib import Path

import httpx2
import pytest
from club_agentes.mcp_server.limits import LimitSettings
from club_agentes.mcp_server.proxies import ADDRESS_KEY, client_address, forwarded_client, parse_networks
from club_agentes.mcp_server.settings import SettingsError, load_settings
from club_agentes.mcp_server.store import Store
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import DbLocation
from tests.mcp.edge import http_club, keyed_client

pytestmark = pytest.mark.anyio

PROXIES = parse_networks(["10.0.0.0/8", "192.168.1.7, fd00::/8"])


# --------------------------------------------------------------------------- the client address


@pytest.mark.parametrize(
    ("peer", "chain", "client"),
    [
        ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),  # an untrusted peer: its header is ignored
        ("10.1.2.3", ["198.51.100.1"], "198.51.100.1"),  # a trusted proxy names the client
        ("10.1.2.3", ["6.6.6.6, 198.51.100.1"], "198.51.100.1"),  # what the client wrote itself is left of it
        ("10.1.2.3", ["6.6.6.6, 198.51.100.1, 192.168.1.7"], "198.51.100.1"),  # two trusted proxies
        ("10.1.2.3", ["6.6.6.6", "198.51.100.1, 10.9.9.9"], "198.51.100.1"),  # several header lines
        ("10.1.2.3", [], "10.1.2.3"),  # no header: the proxy itself
        ("10.1.2.3", ["10.0.0.2, 10.0.0.1"], "10.0.0.2"),  # every address trusted: the left-most
        ("10.1.2.3", ["junk, 198.51.100.1"], "198.51.100.1"),
        ("10.1.2.3", ["198.51.100.1, junk"], "junk"),  # not an address: the walk stops there
        ("fd00::1", ["2001:db8::5"], "2001:db8::5"),
        (None, ["198.51.100.1"], "unknown"),
    ],
)
def test_forwarded_for_is_read_only_from_trusted_proxies(peer: str | None, chain: list[str], client: str) -> None:
    assert forwarded_client(peer, chain, PROXIES) == client


def test_nobody_is_trusted_by_default() -> None:
    assert forwarded_client("10.1.2.3", ["198.51.100.1"], ()) == "10.1.2.3"
    assert load_settings({}, env={}).forwarded_allow_ips == ()


def test_client_address_prefers_the_resolved_address_then_the_peer() -> None:
    assert client_address({"client": ("10.1.2.3", 5000), ADDRESS_KEY: "198.51.100.1"}) == "198.51.100.1"
    assert client_address({"client": ("10.1.2.3", 5000)}) == "10.1.2.3"
    assert client_address({}) == "unknown"


def test_forwarded_allow_ips_setting_takes_a_comma_list_and_refuses_junk() -> None:
    s = load_settings({}, env={"CLUB_AGENTES_FORWARDED_ALLOW_IPS": "10.0.0.0/8, 192.168.1.7"})
    assert s.forwarded_allow_ips == ("10.0.0.0/8", "192.168.1.7")
    s = load_settings({"forwarded_allow_ips": ["10.0.0.0/8,fd00::/8", "127.0.0.1"]}, env={})
    assert len(parse_networks(s.forwarded_allow_ips)) == 3
    with pytest.raises(SettingsError, match=re.escape("'10.0.0.300' is not an IP address or a CIDR network")):
        load_settings({}, env={"CLUB_AGENTES_FORWARDED_ALLOW_IPS": "10.0.0.300"})


@pytest.mark.parametrize("trusted", [True, False])
async def test_per_address_limits_follow_x_forwarded_for_only_from_a_trusted_peer(
    tmp_path: Path, trusted: bool
) -> None:
    """Two OAuth client registrations per address: the third from one address is refused; another
    address (named by X-Forwarded-For) gets its own count only when the peer (127.0.0.1) is trusted."""
    limits = LimitSettings.parse("oauth_clients_per_hour=2")
    allow = ("127.0.0.1",) if trusted else ()
    with http_club(tmp_path / "db", limits=limits, fair_share=100, forwarded_allow_ips=allow) as (_, url):
        base = url.removesuffix("/mcp")
        async with httpx2.AsyncClient() as http:

            async def register(address: str) -> int:
                r = await http.post(
                    f"{base}/register",
                    json={"client_name": "x", "redirect_uris": ["cursor://cb"]},
                    headers={"X-Forwarded-For": f"6.6.6.6, {address}"},
                )
                return r.status_code

            assert [await register("198.51.100.1") for _ in range(2)] == [201, 201]
            assert await register("198.51.100.1") == 429
            assert await register("198.51.100.2") == (201 if trusted else 429)


# --------------------------------------------------------------------------- /healthz


async def test_healthz_answers_200_then_503_when_migrations_are_behind(db_location: DbLocation) -> None:
    store = Store(db_location.location, schema=db_location.schema)
    with http_club(store) as (app, url):
        base = url.removesuffix("/mcp")
        async with httpx2.AsyncClient() as http:
            ok = await http.get(f"{base}/healthz")
            assert ok.status_code == 200 and ok.json()["status"] == "ok"
            assert ok.json()["store"] == db_location.kind
            with app.store.db.tx() as tx:
                tx.execute(
                    "DELETE FROM schema_migrations WHERE component = ? AND version = "
                    "(SELECT MAX(version) FROM schema_migrations WHERE component = ?)",
                    ("tables", "tables"),
                )
            behind = await http.get(f"{base}/healthz")
            assert behind.status_code == 503
            assert (
                behind.text
                == "The store's migrations are behind this server's for tables: restart a worker to migrate."
            )


async def test_healthz_answers_503_when_the_store_is_unreachable(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", no_auth=True) as (app, url):
        base = url.removesuffix("/mcp")
        app.store.db.close()
        async with httpx2.AsyncClient() as http:
            r = await http.get(f"{base}/healthz", headers={"Host": "10.0.0.5:8000"})  # a probe's Host is not checked
        assert r.status_code == 503 and r.text == "The store does not answer a query (StoreError)."


async def test_healthz_is_never_rate_limited_nor_asks_for_a_key(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", limits=LimitSettings.parse("oauth_clients_per_hour=1")) as (_, url):
        base = url.removesuffix("/mcp")
        async with httpx2.AsyncClient() as http:
            assert (await http.post(f"{base}/mcp", json={})).status_code == 401  # keys are required here
            statuses = {(await http.get(f"{base}/healthz")).status_code for _ in range(30)}
        assert statuses == {200}


# --------------------------------------------------------------------------- /metrics


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


async def test_metrics_are_off_by_default(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", no_auth=True) as (_, url):
        async with httpx2.AsyncClient() as http:
            assert (await http.get(url.removesuffix("/mcp") + "/metrics")).status_code == 404


async def test_metrics_parse_and_count_tool_calls_errors_and_moves(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", no_auth=True, metrics=True) as (_, url):
        base = url.removesuffix("/mcp")
        async with keyed_client(url, None) as c:
            t = await c.call(
                "create_table",
                {
                    "game": "market-fortune",
                    "seats": ["agent", "bot:random"],
                    "options": {"require_club_pass": False},
                    "seed": 5,
                },
            )
            tid = t["table_id"]
            token = (await c.client.call_tool("join_table", {"table_id": tid})).structured_content["seat_token"]
            w = await c.call("wait_for_turn", {"table_id": tid, "seat_token": token, "timeout_s": 30})
            assert w["decision"]["yours"]
            await c.call("play_move", {"table_id": tid, "seat_token": token, "move": w["legal_moves"][0]["id"]})
            bad = await c.client.call_tool("play_move", {"table_id": tid, "seat_token": "x" * 20, "move": "m1"})
            assert bad.is_error
        async with httpx2.AsyncClient() as http:
            r = await http.get(f"{base}/metrics")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        got = _samples(r.text)
        assert got[("club_tool_calls_total", (("tool", "play_move"),))] == 2
        assert got[("club_tool_errors_total", (("tool", "play_move"),))] == 1
        assert ("club_tool_errors_total", (("tool", "create_table"),)) not in got
        assert got[("club_tool_calls_total", (("tool", "create_table"),))] == 1
        assert got[("club_moves_total", ())] >= 1  # the agent's move (and the bot's replies)
        assert got[("club_live_tables", ())] == 1
        assert got[("club_waiters", ())] == 0
        assert ("club_lane_queue", ()) in got
        assert got[("club_store_seconds_count", (("kind", "write"),))] >= 1
        assert got[("club_http_requests_total", (("route", "/mcp"), ("status", "200")))] >= 5


async def test_two_apps_in_one_process_count_apart(tmp_path: Path) -> None:
    with (
        http_club(tmp_path / "a", no_auth=True, metrics=True) as (_, a),
        http_club(tmp_path / "b", no_auth=True, metrics=True) as (_, b),
    ):
        async with keyed_client(a, None) as c:
            await c.call("list_games", {})
        async with httpx2.AsyncClient() as http:
            first = _samples((await http.get(a.removesuffix("/mcp") + "/metrics")).text)
            second = _samples((await http.get(b.removesuffix("/mcp") + "/metrics")).text)
        assert first[("club_tool_calls_total", (("tool", "list_games"),))] == 1
        assert ("club_tool_calls_total", (("tool", "list_games"),)) not in second
