"""Run ``club-agentes`` with some of issue 26's SDK-level savings turned off, to measure each one.

Usage (what ``benchmarks/scale.py --without NAMES`` runs as the server):
``python benchmarks/without.py orjson,keycache,resultskip serve --http ...``

* ``orjson``: the SDK's transport keeps the stdlib ``json`` (:func:`club_agentes.mcp_server.sdk_json.install`
  does nothing);
* ``keycache``: every request's key is checked against the store (``AgentKeyVerifier(cache=False)``);
* ``resultskip``: the SDK validates every tool result again (``ClubServer.skip_output_validation`` does nothing).

Nothing here changes the server's code: the savings are switched off in this process before it starts.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]  # benchmarks/mcp.py is not the SDK

SAVINGS = ("orjson", "keycache", "resultskip")


def main() -> int:
    """Switch the named savings off, then run the ``club-agentes`` command line with the other arguments.

    Raises:
        SystemExit: an unknown saving is named.
    """
    names = [n for n in sys.argv[1].split(",") if n]
    unknown = [n for n in names if n not in SAVINGS]
    if unknown:
        raise SystemExit(f"unknown savings {unknown}; the savings are: {', '.join(SAVINGS)}")
    if "orjson" in names:
        from club_agentes.mcp_server import sdk_json

        sdk_json.install = lambda: False
    if "keycache" in names:
        from club_agentes.mcp_server import auth

        init = auth.AgentKeyVerifier.__init__

        def no_cache(self, registry, tokens=None, *, cache=True):  # type: ignore[no-untyped-def]
            init(self, registry, tokens, cache=False)

        auth.AgentKeyVerifier.__init__ = no_cache  # type: ignore[method-assign]
    if "resultskip" in names:
        from club_agentes.mcp_server.toolkit import ClubServer

        ClubServer.skip_output_validation = lambda self, *names: None  # type: ignore[method-assign]
    from club_agentes.mcp_server.cli import main as cli

    sys.argv = ["club-agentes", *sys.argv[2:]]
    return cli()


if __name__ == "__main__":
    sys.exit(main())
