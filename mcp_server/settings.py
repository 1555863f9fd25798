"""Every server setting in one place: its command-line flag, its environment variable and its default.

A setting is read from its flag, else its ``CLUB_AGENTES_*`` environment variable, else its default
(:func:`load_settings`). :data:`SETTINGS` is the table of them all, from which the ``serve`` (and
admin) commands declare their flags and :func:`settings_markdown` writes the documentation.

To add a setting: add a field to :class:`ServerSettings` (with its default) and a row to
:data:`SETTINGS` naming the field, flag, variable, kind and help; check its value in
:meth:`ServerSettings.check` if it has a range.

Values:

* ``bool`` variables accept ``1/true/yes/on`` and ``0/false/no/off``;
* ``list`` flags repeat (``--allowed-host a --allowed-host b``), their variables are comma lists;
* ``limits`` is the ``name=value,...`` text of :class:`~club_agentes.mcp_server.limits.LimitSettings`;
* the pass-signing key (``CLUB_AGENTES_SECRET``) has no flag, so it never shows in a process list.

Deprecated variables (``CLUB_SECRET``) are still read, with a deprecation line in the log.
"""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
import logging
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from club_agentes.mcp_server.limits import LimitSettings, LimitsSyntaxError
from club_agentes.mcp_server.proxies import parse_networks
from club_agentes.quizzes.clubpass import check_secret
from club_agentes.quizzes.harness import InvalidAgent, normalize_agent_name

from club_agentes.errors import Refused

log = logging.getLogger("club_agentes.settings")

Kind = Literal["str", "int", "bool", "list", "limits", "secret", "level"]
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""Host names every server accepts besides its bind address."""


class SettingsError(Refused):
    """A setting has a value the server cannot use; the message names the flag or variable and what it accepts."""


@dataclass(frozen=True)
class ServerSettings:
    """The server's settings (see :data:`SETTINGS` for each one's flag, variable and meaning)."""

    db: str | None = None
    db_schema: str | None = None
    agent: str = "local"
    http: bool = False
    host: str = "127.0.0.1"
    port: int = 8000
    no_auth: bool = False
    open_registration: bool = False
    public_url: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    streaming: bool = False
    key_file: str | None = None
    secret: str | None = field(default=None, repr=False)
    secret_source: str = field(default="CLUB_AGENTES_SECRET", repr=False)
    private_bank: str | None = None
    limits: LimitSettings = field(default_factory=LimitSettings)
    log_level: str = "INFO"
    max_live_tables: int | None = None
    fair_share: int = 10
    waiting_expiry_s: int | None = None
    forwarded_allow_ips: tuple[str, ...] = ()
    metrics: bool = False

    # ----- checks

    def check(self) -> ServerSettings:
        """Return the settings with the agent name normalised, after checking every value.

        Raises:
            SettingsError: a value is out of range or two settings contradict each other (one sentence).
            SecretTooShort: the pass-signing key is set but empty or shorter than 32 bytes.
        """
        try:
            agent = normalize_agent_name(self.agent)
        except InvalidAgent as exc:
            raise SettingsError(f"--agent / CLUB_AGENTES_AGENT: {exc}") from None
        if not 1 <= self.port <= 65535:
            raise SettingsError(f"--port must be between 1 and 65535, not {self.port}")
        if not self.host.strip():
            raise SettingsError("--host is empty; give an address to bind, e.g. 127.0.0.1")
        if self.http and self.no_auth and not is_loopback(self.host):
            raise SettingsError(
                f"--no-auth serves without agent keys, so it is only allowed on a loopback address (127.0.0.1, ::1 "
                f"or localhost), not on {self.host}; drop --no-auth and give agents keys (club-agentes agents add)"
            )
        if self.no_auth and self.open_registration:
            raise SettingsError("--open-registration hands out agent keys, which --no-auth does not use; choose one")
        if self.public_url is not None and not re.fullmatch(r"https?://[^\s/]+(/\S*)?", self.public_url):
            raise SettingsError(f"--public-url must be an http:// or https:// URL, not {self.public_url[:80]!r}")
        for h in self.allowed_hosts:
            if not re.fullmatch(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:(\d{1,5}|\*))?", h):
                raise SettingsError(
                    f"--allowed-host {h[:80]!r} is not a host name with an optional port (e.g. club.example.org "
                    "or club.example.org:8443)"
                )
        for o in self.allowed_origins:
            if not re.fullmatch(r"https?://(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:(\d{1,5}|\*))?", o):
                raise SettingsError(
                    f"--allowed-origin {o[:80]!r} is not an origin (scheme://host[:port], e.g. "
                    "https://club.example.org)"
                )
        if self.secret is not None:
            check_secret(self.secret, self.secret_source)
        if self.max_live_tables is not None and not 1 <= self.max_live_tables <= 1_000_000:
            raise SettingsError(
                f"--max-live-tables must be a whole number from 1 to 1000000, not {self.max_live_tables}"
            )
        if isinstance(self.fair_share, bool) or not 1 <= self.fair_share <= 100:
            raise SettingsError(
                f"--fair-share must be a whole percentage from 1 to 100 (100: no share rule), not {self.fair_share}"
            )
        if self.waiting_expiry_s is not None and not 60 <= self.waiting_expiry_s <= 604_800:
            raise SettingsError(
                f"--waiting-expiry-s must be a whole number of seconds from 60 to 604800, not {self.waiting_expiry_s}"
            )
        try:
            parse_networks(self.forwarded_allow_ips)
        except ValueError as exc:
            raise SettingsError(f"--forwarded-allow-ips / CLUB_AGENTES_FORWARDED_ALLOW_IPS: {exc}") from None
        if self.log_level.upper() not in LOG_LEVELS:
            raise SettingsError(f"--log-level must be one of {', '.join(LOG_LEVELS)}, not {self.log_level[:20]!r}")
        return dataclasses.replace(self, agent=agent, log_level=self.log_level.upper())

    # ----- derived values

    @property
    def base_url(self) -> str:
        """The URL clients reach the server at: from ``--public-url``, else from the bind address and port."""
        if self.public_url:
            m = re.match(r"https?://[^/]+", self.public_url)
            return m.group(0) if m else self.public_url
        host = self.host
        if host in ("0.0.0.0", "::", ""):
            host = "localhost"
        elif ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    @property
    def resource_url(self) -> str:
        """The MCP endpoint's URL (the protected resource of the authorization metadata)."""
        return self.public_url.rstrip("/") if self.public_url else f"{self.base_url}/mcp"

    def host_names(self) -> list[str]:
        """Return the host names (no port) the server answers to: bind address, localhost names, ``--public-url``."""
        names: list[str] = []
        bind = self.host.strip()
        if bind not in ("0.0.0.0", "::", ""):
            names.append(f"[{bind}]" if ":" in bind and not bind.startswith("[") else bind)
        names += LOCAL_NAMES
        if self.public_url:
            m = re.match(r"https?://(\[[^\]]+\]|[^:/]+)", self.public_url)
            if m:
                names.append(m.group(1))
        return list(dict.fromkeys(names))

    def effective_allowed_hosts(self) -> list[str]:
        """Return the ``Host`` values accepted: each name with any port, and the ``--allowed-host`` values."""
        out: list[str] = []
        for name in self.host_names():
            out += [name, f"{name}:*"]
        for h in self.allowed_hosts:
            out.append(h)
            if not re.search(r":(\d+|\*)$", h):
                out.append(f"{h}:*")
        return list(dict.fromkeys(out))

    def effective_allowed_origins(self) -> list[str]:
        """Return the ``Origin`` values accepted: http(s) origins of each name (any port) and ``--allowed-origin``."""
        out: list[str] = []
        for name in self.host_names():
            for scheme in ("http", "https"):
                out += [f"{scheme}://{name}", f"{scheme}://{name}:*"]
        if self.public_url:
            m = re.match(r"https?://[^/]+", self.public_url)
            if m:
                out.append(m.group(0))
        out += list(self.allowed_origins)
        return list(dict.fromkeys(out))


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (127.0.0.0/8, ::1) or ``localhost``. Never raises."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Setting:
    """One row of :data:`SETTINGS`.

    Attributes:
        name: the :class:`ServerSettings` field.
        flag: the command-line flag (``None``: environment only).
        env: the environment variable.
        kind: how the value is read.
        help: one sentence for ``--help`` and the docs.
        commands: the command groups that declare the flag (``"serve"``, ``"admin"`` for agents/pass).
        deprecated_env: older variable names still read (with a deprecation line in the log).
        metavar: the flag's placeholder in ``--help``.
    """

    name: str
    flag: str | None
    env: str
    kind: Kind
    help: str
    commands: tuple[str, ...] = ("serve",)
    deprecated_env: tuple[str, ...] = ()
    metavar: str | None = None


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "db",
        "--db",
        "CLUB_AGENTES_DB",
        "str",
        "where state lives: a SQLite file or a postgresql:// URL (default ~/.local/share/club-agentes/club.sqlite3)",
        ("serve", "admin"),
        metavar="PATH|URL",
    ),
    Setting(
        "db_schema",
        "--db-schema",
        "CLUB_AGENTES_DB_SCHEMA",
        "str",
        "the PostgreSQL schema to use (created if missing), e.g. one per club sharing a server",
        ("serve", "admin"),
        metavar="NAME",
    ),
    Setting(
        "agent",
        "--agent",
        "CLUB_AGENTES_AGENT",
        "str",
        "the local agent: who a stdio client (or every request under --no-auth) acts as (default local)",
        metavar="NAME",
    ),
    Setting("http", "--http", "CLUB_AGENTES_HTTP", "bool", "serve streamable HTTP at /mcp instead of stdio"),
    Setting("host", "--host", "CLUB_AGENTES_HOST", "str", "HTTP address to bind (default 127.0.0.1)", metavar="ADDR"),
    Setting("port", "--port", "CLUB_AGENTES_PORT", "int", "HTTP port (default 8000)", metavar="N"),
    Setting(
        "no_auth",
        "--no-auth",
        "CLUB_AGENTES_NO_AUTH",
        "bool",
        "HTTP without agent keys, every request acting as the local agent; loopback addresses only",
    ),
    Setting(
        "open_registration",
        "--open-registration",
        "CLUB_AGENTES_OPEN_REGISTRATION",
        "bool",
        "offer the register_agent tool (a new agent key to anyone, limited per address and globally)",
    ),
    Setting(
        "public_url",
        "--public-url",
        "CLUB_AGENTES_PUBLIC_URL",
        "str",
        "the /mcp URL clients use when the server is behind a proxy (for the authorization metadata and "
        "the allowed host and origin)",
        metavar="URL",
    ),
    Setting(
        "allowed_hosts",
        "--allowed-host",
        "CLUB_AGENTES_ALLOWED_HOSTS",
        "list",
        "a Host header value to accept besides the bind address and localhost names (repeatable; any other "
        "Host gets 421)",
        metavar="HOST[:PORT]",
    ),
    Setting(
        "allowed_origins",
        "--allowed-origin",
        "CLUB_AGENTES_ALLOWED_ORIGINS",
        "list",
        "an Origin header value to accept besides those of the allowed hosts (repeatable; any other Origin gets 403)",
        metavar="ORIGIN",
    ),
    Setting(
        "streaming",
        "--streaming",
        "CLUB_AGENTES_STREAMING",
        "bool",
        "answer HTTP requests as SSE streams with sessions (for clients that want progress and server "
        "requests) instead of stateless JSON",
    ),
    Setting(
        "key_file",
        "--key-file",
        "CLUB_AGENTES_KEY_FILE",
        "str",
        "the pass-signing key file (hex, 0600, created if missing; default keys/club-pass.key beside the database)",
        ("serve", "admin"),
        metavar="PATH",
    ),
    Setting(
        "secret",
        None,
        "CLUB_AGENTES_SECRET",
        "secret",
        "the pass-signing key itself (at least 32 bytes); overrides the key file; the same on every worker",
        ("serve", "admin"),
        deprecated_env=("CLUB_SECRET",),
    ),
    Setting(
        "private_bank",
        "--private-bank",
        "CLUB_AGENTES_PRIVATE_BANK",
        "str",
        "a TOML file of private entry items (the bank's item format); entry papers only, never exported",
        metavar="PATH",
    ),
    Setting(
        "limits",
        "--limits",
        "CLUB_AGENTES_LIMITS",
        "limits",
        "limits per agent and global ceilings as name=value,... (see the limits table)",
        metavar="LIST",
    ),
    Setting(
        "log_level",
        "--log-level",
        "CLUB_AGENTES_LOG_LEVEL",
        "level",
        "log level on stderr: DEBUG, INFO, WARNING, ERROR or CRITICAL (default INFO; DEBUG adds a line per HTTP "
        "request)",
        metavar="LEVEL",
    ),
    Setting(
        "max_live_tables",
        "--max-live-tables",
        "CLUB_AGENTES_MAX_LIVE_TABLES",
        "int",
        "tables this worker keeps in memory at most, least recently used dropped first and reloaded on demand "
        "(default 500)",
        metavar="N",
    ),
    Setting(
        "fair_share",
        "--fair-share",
        "CLUB_AGENTES_FAIR_SHARE",
        "int",
        "the most one agent (or one address, for address limits) may take of any global ceiling, in percent "
        "(default 10; 100 turns the share rule off)",
        metavar="PERCENT",
    ),
    Setting(
        "waiting_expiry_s",
        "--waiting-expiry-s",
        "CLUB_AGENTES_WAITING_EXPIRY_S",
        "int",
        "a table waiting for agents expires (aborted, its open-table slot freed) after this many seconds without "
        "a seat taken (default 1800)",
        metavar="SECONDS",
    ),
    Setting(
        "forwarded_allow_ips",
        "--forwarded-allow-ips",
        "CLUB_AGENTES_FORWARDED_ALLOW_IPS",
        "list",
        "proxies (IPs or CIDRs, comma list or repeated) whose X-Forwarded-For gives the client address for "
        "per-address limits; the right-most address not in the list is the client (default: none, the peer's "
        "address is used)",
        metavar="IP|CIDR,...",
    ),
    Setting(
        "metrics",
        "--metrics",
        "CLUB_AGENTES_METRICS",
        "bool",
        "serve Prometheus metrics at /metrics (no key asked: keep the path off the public balancer); off by "
        "default, /metrics is then 404",
    ),
)
"""Every setting: the one table of flags and variables."""


def add_arguments(parser: argparse.ArgumentParser, command: str = "serve") -> None:
    """Declare the flags of the settings that ``command`` (``"serve"`` or ``"admin"``) takes.

    Every flag defaults to ``None`` so that :func:`load_settings` can tell "not given" from a value.
    """
    for s in SETTINGS:
        if s.flag is None or command not in s.commands:
            continue
        text = f"{s.help} [env {s.env}]"
        if s.kind == "bool":
            parser.add_argument(s.flag, dest=s.name, action="store_const", const=True, default=None, help=text)
        elif s.kind == "list":
            parser.add_argument(s.flag, dest=s.name, action="append", default=None, metavar=s.metavar, help=text)
        elif s.kind == "int":
            parser.add_argument(s.flag, dest=s.name, type=str, default=None, metavar=s.metavar, help=text)
        else:
            parser.add_argument(s.flag, dest=s.name, default=None, metavar=s.metavar, help=text)


def _env_value(s: Setting, env: Mapping[str, str]) -> tuple[str | None, str]:
    if s.env in env:
        return env[s.env], s.env
    for old in s.deprecated_env:
        if old in env:
            log.warning("%s is deprecated; set %s instead (it is read the same way)", old, s.env)
            return env[old], old
    return None, s.env


def _parse(s: Setting, raw: Any, source: str) -> Any:
    if s.kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off", ""):
            return False
        raise SettingsError(f"{source} must be 1/true/yes/on or 0/false/no/off, not {str(raw)[:40]!r}")
    if s.kind == "int":
        text = str(raw).strip()
        if not re.fullmatch(r"\d{1,9}", text):
            raise SettingsError(f"{source} must be a whole number, not {text[:40]!r}")
        return int(text)
    if s.kind == "list":
        items = raw if isinstance(raw, list) else str(raw).split(",")
        return tuple(x.strip() for x in items if x.strip())
    if s.kind == "limits":
        try:
            return LimitSettings.parse(str(raw))
        except LimitsSyntaxError as exc:
            raise SettingsError(f"{source}: {exc}") from None
    if s.kind == "secret":
        return str(raw)
    return str(raw).strip() if s.kind != "level" else str(raw).strip().upper()


def load_settings(
    args: argparse.Namespace | Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    **overrides: Any,
) -> ServerSettings:
    """Return the checked settings: each from its flag in ``args``, else its variable in ``env``, else its default.

    ``overrides`` (field names) win over both, for programmatic use (tests, embedding).

    Raises:
        SettingsError: a value cannot be read or checked (one sentence naming the flag or variable).
        SecretTooShort: the pass-signing key is set but empty or shorter than 32 bytes.
    """
    environ = os.environ if env is None else env
    given = vars(args) if isinstance(args, argparse.Namespace) else dict(args or {})
    values: dict[str, Any] = {}
    for s in SETTINGS:
        if s.name in overrides:
            values[s.name] = overrides[s.name]
            continue
        raw = given.get(s.name)
        source = s.flag or s.env
        if raw is None:
            raw, source = _env_value(s, environ)
        if raw is None:
            continue
        values[s.name] = _parse(s, raw, source)
        if s.kind == "secret":
            values["secret_source"] = source
    unknown = set(overrides) - {s.name for s in SETTINGS} - {"secret_source"}
    if unknown:
        raise SettingsError(f"unknown settings {', '.join(sorted(unknown))}; see club_agentes.mcp_server.settings")
    return ServerSettings(**values).check()


def settings_markdown(rows: Sequence[Setting] = SETTINGS) -> str:
    """Return the table of settings as markdown (flag, variable, meaning), for the docs."""
    lines = ["| flag | environment variable | what it sets |", "|---|---|---|"]
    for s in rows:
        flag = f"`{s.flag}`" if s.flag else "(none)"
        env = f"`{s.env}`" + "".join(f" (or the deprecated `{d}`)" for d in s.deprecated_env)
        lines.append(f"| {flag} | {env} | {s.help} |")
    return "\n".join(lines)


# ----- settings read outside the serve command (the store's default location, the table service)


def _environ(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def default_db_path(env: Mapping[str, str] | None = None) -> Path:
    """Return the default SQLite path: ``$XDG_DATA_HOME/club-agentes/club.sqlite3`` (or ``~/.local/share/...``)."""
    base = Path(_environ(env).get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "club-agentes" / "club.sqlite3"


def default_db_location(env: Mapping[str, str] | None = None) -> str:
    """Return the store location when none is given: ``$CLUB_AGENTES_DB`` (a path or a ``postgresql://`` URL),
    else :func:`default_db_path`."""
    return _environ(env).get("CLUB_AGENTES_DB") or str(default_db_path(env))


def default_db_schema(env: Mapping[str, str] | None = None) -> str | None:
    """Return the PostgreSQL schema when none is given: ``$CLUB_AGENTES_DB_SCHEMA``, else ``None``."""
    return _environ(env).get("CLUB_AGENTES_DB_SCHEMA") or None


TABLE_SETTING_ENV: dict[str, str] = {
    "max_live_tables": "CLUB_AGENTES_MAX_LIVE_TABLES",
    "idle_s": "CLUB_AGENTES_LIVE_IDLE_S",
    "decision_timeout_s": "CLUB_AGENTES_DECISION_TIMEOUT_S",
    "max_timeouts": "CLUB_AGENTES_MAX_TIMEOUTS",
    "bot_workers": "CLUB_AGENTES_BOT_WORKERS",
    "bot_cpu_share": "CLUB_AGENTES_BOT_CPU_SHARE",
    "bot_cpu_total_s": "CLUB_AGENTES_BOT_CPU_TOTAL_S",
    "snapshot_every": "CLUB_AGENTES_SNAPSHOT_EVERY",
    "waiting_expiry_s": "CLUB_AGENTES_WAITING_EXPIRY_S",
}
"""The table service's settings (``TableSettings`` fields) and their environment variables (no flags; documented
in docs/tables.md). ``--max-live-tables`` and ``--waiting-expiry-s`` of :data:`SETTINGS` override the first and last."""


def table_setting_values(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return ``TableSettings`` field -> the text of its variable, for the variables of
    :data:`TABLE_SETTING_ENV` set (not blank) in ``env`` (default: the process environment).

    ``TableSettings.from_env`` checks and converts them (and names the variable of a bad value).
    """
    environ = _environ(env)
    out: dict[str, str] = {}
    for name, var in TABLE_SETTING_ENV.items():
        raw = environ.get(var)
        if raw is not None and raw.strip():
            out[name] = raw.strip()
    return out
