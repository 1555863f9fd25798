"""``club-agentes agents add|list|revoke|rotate`` and ``club-agentes pass list|show|revoke``: the operator's
commands for agent keys and club passes.

They act on the store the server uses (``--db``, ``--db-schema`` or their ``CLUB_AGENTES_*``
variables), so a revocation takes effect at once in a running server: it reads keys and pass
records from the store on every request. ``agents add`` and ``agents rotate`` print the new key
once, alone on the last line of their output (the store keeps only its hash).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from club_agentes.errors import Refused


def add_commands(sub: Any) -> None:
    """Declare the ``agents`` and ``pass`` subcommand groups."""
    from club_agentes.mcp_server.settings import add_arguments

    agents = sub.add_parser("agents", help="make, list and revoke agent keys")
    asub = agents.add_subparsers(dest="agents_command", required=True)
    add = asub.add_parser("add", help="create an agent and print its secret key once (last line)")
    add.add_argument("name", help="the agent's name (case, accents and punctuation are folded)")
    add.set_defaults(run=run_agents_add)
    lst = asub.add_parser("list", help="list the agents (never their keys)")
    lst.set_defaults(run=run_agents_list)
    rev = asub.add_parser("revoke", help="revoke an agent: its key, OAuth tokens and club passes stop at once")
    rev.add_argument("name", help="the agent's name")
    rev.set_defaults(run=run_agents_revoke)
    rot = asub.add_parser("rotate", help="give an agent a new key (printed once, last line); the old one stops")
    rot.add_argument("name", help="the agent's name")
    rot.set_defaults(run=run_agents_rotate)
    for p in (add, lst, rev, rot):
        add_arguments(p, "admin")

    passes = sub.add_parser("pass", help="list, show and revoke club passes")
    psub = passes.add_subparsers(dest="pass_command", required=True)
    plist = psub.add_parser("list", help="list club passes with their status")
    plist.add_argument("--agent", dest="of_agent", default=None, help="only the passes of this agent")
    plist.set_defaults(run=run_pass_list)
    show = psub.add_parser("show", help="show one pass by its id, or check a pass token against the register")
    show.add_argument("pass_id", metavar="ID_OR_TOKEN", help="a pass id (jti) or the pass token itself")
    show.set_defaults(run=run_pass_show)
    prev = psub.add_parser("revoke", help="revoke a pass (or every pass of an agent); takes effect at once")
    prev.add_argument("pass_id", metavar="ID", nargs="?", default=None, help="the pass id (jti)")
    prev.add_argument("--agent", dest="of_agent", default=None, help="revoke every pass of this agent instead")
    prev.set_defaults(run=run_pass_revoke)
    for p in (plist, show, prev):
        add_arguments(p, "admin")


def _fail(message: str) -> int:
    sys.stderr.write(f"club-agentes: {message}\n")
    return 2


def _open(args: argparse.Namespace) -> Any:
    from club_agentes.mcp_server.settings import load_settings
    from club_agentes.mcp_server.store import Store

    settings = load_settings(args)
    return settings, Store(settings.db, schema=settings.db_schema)


def _when(ts: float | None) -> str:
    from club_agentes.quizzes.clubpass import iso_utc

    return iso_utc(ts) if ts is not None else "-"


def _run(fn: Any, args: argparse.Namespace) -> int:
    from club_agentes.mcp_server.store import StoreError

    try:
        return int(fn(args))
    except (Refused, StoreError) as exc:
        return _fail(str(exc))


# --------------------------------------------------------------------------- agents


def run_agents_add(args: argparse.Namespace) -> int:
    """Create an agent; print its key alone on the last line. 2 when the name is refused or taken."""
    return _run(_agents_add, args)


def _agents_add(args: argparse.Namespace) -> int:
    from club_agentes.mcp_server.auth import AgentRegistry

    _, store = _open(args)
    try:
        record, key = AgentRegistry(store).add(args.name)
    finally:
        store.close()
    given = f" (given as {record.display!r})" if record.display != record.name else ""
    sys.stdout.write(
        f"Created agent {record.name!r}{given}.\n"
        "Its secret key follows, shown only this once (the club keeps only its hash); send it on every HTTP\n"
        "request as 'Authorization: Bearer <key>'.\n"
        f"{key}\n"
    )
    return 0


def run_agents_list(args: argparse.Namespace) -> int:
    """List the agents."""
    return _run(_agents_list, args)


def _agents_list(args: argparse.Namespace) -> int:
    _, store = _open(args)
    try:
        agents = store.agents.list_agents()
    finally:
        store.close()
    if not agents:
        sys.stdout.write("No agents yet; create one with: club-agentes agents add NAME\n")
        return 0
    sys.stdout.write(f"{'agent':<24} {'status':<30} {'created':<21} {'origin':<9} given as\n")
    for a in agents:
        status = "active" if a.revoked_at is None else f"revoked {_when(a.revoked_at)}"
        sys.stdout.write(f"{a.name:<24} {status:<30} {_when(a.created_at):<21} {a.origin:<9} {a.display}\n")
    return 0


def run_agents_revoke(args: argparse.Namespace) -> int:
    """Revoke an agent and its passes. 2 when there is no such (active) agent."""
    return _run(_agents_revoke, args)


def _agents_revoke(args: argparse.Namespace) -> int:
    from club_agentes.mcp_server.auth import AgentRegistry

    _, store = _open(args)
    try:
        record, passes = AgentRegistry(store).revoke(args.name)
    finally:
        store.close()
    sys.stdout.write(
        f"Revoked agent {record.name!r}: its key (and every OAuth sign-in) no longer works, and {passes} club pass"
        f"{'' if passes == 1 else 'es'} of it were revoked with it.\n"
    )
    return 0


def run_agents_rotate(args: argparse.Namespace) -> int:
    """Give an agent a new key; print it alone on the last line. 2 when there is no such agent."""
    return _run(_agents_rotate, args)


def _agents_rotate(args: argparse.Namespace) -> int:
    from club_agentes.mcp_server.auth import AgentRegistry

    _, store = _open(args)
    try:
        record, key = AgentRegistry(store).rotate(args.name)
    finally:
        store.close()
    sys.stdout.write(
        f"Agent {record.name!r} has a new key; the old one (and every OAuth sign-in) no longer works. The new key "
        "follows, shown only once:\n"
        f"{key}\n"
    )
    return 0


# --------------------------------------------------------------------------- passes


def _status(record: Any, now: float) -> str:
    if record.revoked:
        return "revoked"
    return "expired" if record.expires_at <= now else "valid"


def _pass_line(record: Any, now: float) -> str:
    return (
        f"{record.jti:<26} {record.agent:<24} {_status(record, now):<8} {_when(record.issued_at):<21} "
        f"{_when(record.expires_at):<21} {', '.join(record.games)}"
    )


def run_pass_list(args: argparse.Namespace) -> int:
    """List the passes (of one agent, or all)."""
    return _run(_pass_list, args)


def _pass_list(args: argparse.Namespace) -> int:
    from club_agentes.quizzes.harness import normalize_agent_name

    _, store = _open(args)
    try:
        agent = normalize_agent_name(args.of_agent) if args.of_agent else None
        records = store.quizzes.list_passes(agent)
    finally:
        store.close()
    if not records:
        sys.stdout.write("No club passes" + (f" of {agent}" if agent else "") + ".\n")
        return 0
    now = time.time()
    sys.stdout.write(f"{'pass id':<26} {'agent':<24} {'status':<8} {'issued':<21} {'expires':<21} games\n")
    for r in records:
        sys.stdout.write(_pass_line(r, now) + "\n")
    return 0


def run_pass_show(args: argparse.Namespace) -> int:
    """Show a pass by id, or check a token against the register. 2 when there is no such pass."""
    return _run(_pass_show, args)


def _pass_show(args: argparse.Namespace) -> int:
    from club_agentes.quizzes.clubpass import ClubPasses, default_key_path, signing_key

    settings, store = _open(args)
    try:
        text = args.pass_id.strip()
        check = None
        if text.count(".") == 2:
            key_file = Path(settings.key_file) if settings.key_file else default_key_path(str(store.path))
            office = ClubPasses(
                store.quizzes, secret=signing_key(store.quizzes, key_file=key_file, secret=settings.secret)
            )
            check = office.verify(text)
            if check.jti is None:
                return _fail(f"the token is refused: {check.reason}")
            jti = check.jti
        else:
            jti = text
        record = store.quizzes.load_pass(jti)
    finally:
        store.close()
    if record is None:
        return _fail(f"no club pass has the id {jti[:40]!r}; 'club-agentes pass list' lists them")
    now = time.time()
    lines = [
        f"pass id: {record.jti}",
        f"agent:   {record.agent}",
        f"games:   {', '.join(record.games)}",
        f"issued:  {_when(record.issued_at)}",
        f"expires: {_when(record.expires_at)}",
        f"status:  {_status(record, now)}",
    ]
    if check is not None:
        lines.append(f"token:   {'valid' if check.valid else 'refused'}: {check.reason}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def run_pass_revoke(args: argparse.Namespace) -> int:
    """Revoke a pass, or every pass of an agent. 2 when there is nothing to revoke."""
    return _run(_pass_revoke, args)


def _pass_revoke(args: argparse.Namespace) -> int:
    from club_agentes.quizzes.harness import normalize_agent_name

    if (args.pass_id is None) == (args.of_agent is None):
        return _fail("give either a pass id or --agent NAME (to revoke every pass of that agent)")
    _, store = _open(args)
    try:
        if args.pass_id is not None:
            record = store.quizzes.load_pass(args.pass_id)
            if record is None:
                return _fail(f"no club pass has the id {args.pass_id[:40]!r}; 'club-agentes pass list' lists them")
            if record.revoked:
                sys.stdout.write(f"Pass {record.jti} of {record.agent} was revoked already.\n")
                return 0
            store.quizzes.revoke_pass(record.jti)
            sys.stdout.write(f"Revoked pass {record.jti} of {record.agent}; it is refused from now on.\n")
            return 0
        agent = normalize_agent_name(args.of_agent)
        revoked = [p.jti for p in store.quizzes.passes_for(agent) if not p.revoked and store.quizzes.revoke_pass(p.jti)]
    finally:
        store.close()
    sys.stdout.write(f"Revoked {len(revoked)} pass{'' if len(revoked) == 1 else 'es'} of {agent}.\n")
    return 0
