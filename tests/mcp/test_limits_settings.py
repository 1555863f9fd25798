"""Limits per identity with a global ceiling, counted in the store (SQLite and PostgreSQL, shared by
workers), and the settings table: flags, CLUB_AGENTES_* variables, defaults, one-sentence refusals."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pytest
from club_agentes.mcp_server.limits import LimitReached, Limits, LimitSettings, LimitsSyntaxError
from club_agentes.mcp_server.settings import (
    SETTINGS,
    ServerSettings,
    SettingsError,
    add_arguments,
    load_settings,
    settings_markdown,
)

from club_agentes.errors import Refused
from tests.conftest import DbLocation
from tests.quizzes.conftest import FakeClock

DOC = Path(__file__).resolve().parents[2] / "docs" / "identity.md"


@pytest.fixture
def two_workers(db_location: DbLocation):
    """Two stores on one database, as two server processes would have."""
    a, b = db_location.open(), db_location.open()
    yield a, b
    a.close()
    b.close()


# --------------------------------------------------------------------------- rate limits


def test_a_rate_limit_per_agent_says_when_to_retry(two_workers) -> None:
    clock = FakeClock()
    a, b = two_workers
    settings = LimitSettings.parse("entry_quizzes_per_hour=3")
    one, two = Limits(settings, a, clock=clock), Limits(settings, b, clock=clock)
    one.take("entry_quiz", "ana")
    clock.advance(100)
    two.take("entry_quiz", "ana")
    clock.advance(100)
    one.take("entry_quiz", "ana")
    with pytest.raises(LimitReached) as info:
        two.take("entry_quiz", "ana")
    assert isinstance(info.value, Refused) and info.value.retry_after == 3600 - 200
    assert "ana has 3 entry quizzes in the last hour (the limit is 3); retry after 3400 seconds (at " in str(info.value)
    one.take("entry_quiz", "bea")  # another agent is not affected
    one.take("practice", "ana")  # nor another kind
    clock.advance(3400)
    two.take("entry_quiz", "ana")


def test_the_global_ceiling_holds_across_agents(two_workers) -> None:
    clock = FakeClock()
    a, b = two_workers
    settings = LimitSettings.parse("tables_per_hour=5,tables_per_hour_global=4")
    one, two = Limits(settings, a, clock=clock), Limits(settings, b, clock=clock)
    for n in range(4):
        (one if n % 2 else two).take("table", f"agent-{n}")
        clock.advance(10)
    with pytest.raises(LimitReached, match=r"the club has 4 tables created in the last hour .* ceiling is 4"):
        one.take("table", "agent-new")
    assert two.store.limits.rate_count("table", None, since=clock() - 3600) == 4


def test_none_means_no_limit(two_workers) -> None:
    a, _ = two_workers
    limits = Limits(LimitSettings.parse("practice_per_hour=none,practice_per_hour_global=none"), a)
    for _ in range(200):
        limits.take("practice", "ana")
    assert a.limits.rate_count("practice", "ana", since=0) == 0, "nothing is counted when nothing is limited"


def test_concurrent_holds_are_capped_and_released(two_workers) -> None:
    clock = FakeClock()
    a, b = two_workers
    settings = LimitSettings.parse("long_polls=2,long_polls_global=3")
    # The own limit against a tiny ceiling: the fair share (tested in test_fair_ceilings.py) is off here.
    one, two = Limits(settings, a, clock=clock, fair_share=None), Limits(settings, b, clock=clock, fair_share=None)
    with one.hold("long_poll", "ana", 30), two.hold("long_poll", "ana", 30):
        with (
            pytest.raises(LimitReached, match=r"ana has 2 long-polls .* waiting at once") as info,
            one.hold("long_poll", "ana", 30),
        ):
            pass
        assert 1 <= info.value.retry_after <= 5
        with (
            two.hold("long_poll", "bea", 30),
            pytest.raises(LimitReached, match="the club has 3"),
            one.hold("long_poll", "cy", 30),
        ):
            pass
    with one.hold("long_poll", "ana", 30), one.hold("long_poll", "ana", 30):
        pass


def test_a_hold_a_crashed_worker_never_released_expires(two_workers) -> None:
    clock = FakeClock()
    a, b = two_workers
    settings = LimitSettings.parse("long_polls=1")
    crashed = Limits(settings, a, clock=clock)
    crashed._acquire("long_poll", "ana", 10)  # held and never released
    with pytest.raises(LimitReached):
        Limits(settings, b, clock=clock)._acquire("long_poll", "ana", 10)
    clock.advance(41)
    with Limits(settings, b, clock=clock).hold("long_poll", "ana", 10):
        pass


@pytest.mark.anyio
async def test_async_holds(two_workers) -> None:
    a, _ = two_workers
    limits = Limits(LimitSettings.parse("long_polls=1"), a)
    async with limits.ahold("long_poll", "ana", 5):
        with pytest.raises(LimitReached):
            async with limits.ahold("long_poll", "ana", 5):
                pass
    async with limits.ahold("long_poll", "ana", 5):
        pass


def test_open_tables() -> None:
    limits = Limits(LimitSettings.parse("open_tables=2,open_tables_global=10"), store=None, fair_share=None)  # type: ignore[arg-type]
    limits.check_open_tables("ana", 1, 5)
    with pytest.raises(LimitReached, match="ana has 2 open tables") as info:
        limits.check_open_tables("ana", 2, 5)
    assert info.value.retry_after == 60
    with pytest.raises(LimitReached, match="the club has 10 open tables"):
        limits.check_open_tables("ana", 0, 10)
    fair = Limits(LimitSettings.parse("open_tables=2,open_tables_global=10"), store=None)  # type: ignore[arg-type]
    with pytest.raises(LimitReached, match=r"ana has 1 open tables, its fair share \(10%\) .*at most 1 for any one"):
        fair.check_open_tables("ana", 1, 5)  # 10% of 10 is under the own limit of 2


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("entry_quizzes_per_hour", "is not name=value"),
        ("entry_quizes_per_hour=3", "did you mean 'entry_quizzes_per_hour'"),
        ("practice_per_hour=0", "at least 1 or 'none'"),
        ("practice_per_hour=-4", "at least 1 or 'none'"),
        ("practice_per_hour=lots", "at least 1 or 'none'"),
        ("legacy_idle_s=none", "needs a number of seconds"),
    ],
)
def test_bad_limits_are_refused_in_one_sentence(text: str, words: str) -> None:
    with pytest.raises(LimitsSyntaxError, match=words):
        LimitSettings.parse(text)


def test_limits_round_trip() -> None:
    custom = LimitSettings.parse("entry_quizzes_per_hour=2, practice_per_hour=none ,legacy_idle_s=30")
    assert (custom.entry_quizzes_per_hour, custom.practice_per_hour, custom.legacy_idle_s) == (2, None, 30)
    assert LimitSettings.parse(custom.describe()) == custom
    assert LimitSettings.parse("") == LimitSettings()


# --------------------------------------------------------------------------- settings


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_arguments(p, "serve")
    return p.parse_args(list(argv))


def test_flags_win_over_variables_which_win_over_defaults() -> None:
    assert load_settings(parse(), env={}) == ServerSettings().check()
    env = {
        "CLUB_AGENTES_PORT": "9001",
        "CLUB_AGENTES_HOST": "::1",
        "CLUB_AGENTES_ALLOWED_HOSTS": "a.example, b.example",
    }
    s = load_settings(parse("--port", "9002", "--allowed-host", "c.example"), env=env)
    assert (s.port, s.host, s.allowed_hosts) == (9002, "::1", ("c.example",))
    s = load_settings(parse(), env={**env, "CLUB_AGENTES_LIMITS": "open_tables=9", "CLUB_AGENTES_HTTP": "yes"})
    assert s.limits.open_tables == 9 and s.http and s.allowed_hosts == ("a.example", "b.example")
    assert load_settings(parse("--agent", "Mi Agente"), env={}).agent == "mi-agente"
    env = {"CLUB_AGENTES_MAX_LIVE_TABLES": "9"}
    assert load_settings(parse("--max-live-tables", "7"), env=env).max_live_tables == 7
    assert load_settings(parse(), env={"CLUB_AGENTES_MAX_LIVE_TABLES": "9"}).max_live_tables == 9


def test_the_old_secret_variable_is_read_with_a_deprecation_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="club_agentes.settings"):
        s = load_settings(parse(), env={"CLUB_SECRET": "x" * 40})
    assert s.secret == "x" * 40 and "CLUB_SECRET is deprecated; set CLUB_AGENTES_SECRET" in caplog.text
    assert "x" * 40 not in repr(s), "the key never shows in a repr"
    assert load_settings(parse(), env={"CLUB_SECRET": "o" * 40, "CLUB_AGENTES_SECRET": "n" * 40}).secret == "n" * 40


@pytest.mark.parametrize(
    ("argv", "env", "words"),
    [
        (("--port", "0"), {}, "--port must be between 1 and 65535"),
        (("--port", "eighty"), {}, "--port must be a whole number"),
        ((), {"CLUB_AGENTES_HTTP": "maybe"}, "CLUB_AGENTES_HTTP must be 1/true/yes/on"),
        (("--limits", "nope=1"), {}, "--limits: unknown limit 'nope'"),
        (("--agent", "..."), {}, "--agent / CLUB_AGENTES_AGENT"),
        (("--http", "--no-auth", "--host", "10.0.0.1"), {}, "only allowed on a loopback address"),
        (("--no-auth", "--open-registration"), {}, "choose one"),
        (("--allowed-host", "evil host"), {}, "is not a host name"),
        (("--allowed-origin", "club.example"), {}, "is not an origin"),
        (("--public-url", "ftp://x"), {}, "must be an http:// or https:// URL"),
        (("--log-level", "LOUD"), {}, "--log-level must be one of"),
        (("--max-live-tables", "0"), {}, "--max-live-tables must be a whole number from 1"),
        ((), {"CLUB_AGENTES_MAX_LIVE_TABLES": "many"}, "CLUB_AGENTES_MAX_LIVE_TABLES must be a whole number"),
    ],
)
def test_bad_settings_are_refused_in_one_sentence(argv: tuple[str, ...], env: dict, words: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings(parse(*argv), env=env)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_allowed_hosts_and_origins_default_to_the_bind_address_and_localhost() -> None:
    s = load_settings(parse("--host", "0.0.0.0", "--allowed-host", "club.example.org"), env={})
    hosts = s.effective_allowed_hosts()
    assert {"127.0.0.1:*", "localhost:*", "[::1]:*", "club.example.org", "club.example.org:*"} <= set(hosts)
    assert not any(h.startswith("0.0.0.0") for h in hosts)
    s = load_settings(parse("--host", "192.0.2.5", "--public-url", "https://club.example.net/mcp"), env={})
    assert {"192.0.2.5:*", "club.example.net"} <= set(s.effective_allowed_hosts())
    assert "https://club.example.net" in s.effective_allowed_origins()
    assert s.resource_url == "https://club.example.net/mcp" and s.base_url == "https://club.example.net"
    assert load_settings(parse("--host", "::1", "--port", "9"), env={}).resource_url == "http://[::1]:9/mcp"


def test_the_docs_list_every_setting_and_limit() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert settings_markdown() in text, "regenerate the settings table of docs/identity.md with settings_markdown()"
    for s in SETTINGS:
        assert s.env in text, f"{s.env} is not documented in {DOC.name}"
        if s.flag:
            assert s.flag in text, f"{s.flag} is not documented in {DOC.name}"
    for name in LimitSettings.names():
        assert name in text, f"the limit {name} is not documented in {DOC.name}"
