"""The client address of an HTTP request, the one source every per-address limit reads.

Behind a load balancer every request arrives from the balancer's address, so per-address limits
(registrations, logins, OAuth clients, wrong-key backoff, legacy sessions) would count every client
as one. The balancer names the client in ``X-Forwarded-For``; that header is believed only when the
request's peer is one of the trusted proxies (``--forwarded-allow-ips``, default none). The chain is
read from the right: each proxy appends the address it received from, so the right-most address
that is not a trusted proxy is the first one no trusted proxy vouches for, and is the client (an
address a client wrote itself sits further left and is never read).

:class:`ForwardedFor` (the outermost ASGI layer of :func:`~club_agentes.mcp_server.http.build_http_app`)
resolves the address once per request into the scope; :func:`client_address` is the one function
that code counting per address calls.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

ADDRESS_KEY = "club_agentes.client_address"
"""The ASGI scope key where :class:`ForwardedFor` keeps the request's resolved client address."""

UNKNOWN = "unknown"
"""The address of a request whose peer is not known (e.g. a test transport)."""

MAX_ADDRESS_CHARS = 64


def parse_networks(items: Iterable[str]) -> tuple[Network, ...]:
    """Return the networks of ``items`` (IPs or CIDRs; an item may itself be a comma list).

    Raises:
        ValueError: an item is not an IP address or a CIDR network (one sentence naming it).
    """
    out: list[Network] = []
    for item in items:
        for part in item.split(","):
            text = part.strip()
            if not text:
                continue
            try:
                out.append(ipaddress.ip_network(text, strict=False))
            except ValueError:
                raise ValueError(
                    f"{text[:80]!r} is not an IP address or a CIDR network (e.g. 10.0.0.5, 10.0.0.0/8 or fd00::/8)"
                ) from None
    return tuple(out)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def is_trusted(address: str, trusted: Sequence[Network]) -> bool:
    """Whether ``address`` (text) is in one of the ``trusted`` networks. Never raises."""
    ip = _ip(address)
    return ip is not None and any(ip.version == n.version and ip in n for n in trusted)


def forwarded_client(peer: str | None, forwarded_for: Sequence[str], trusted: Sequence[Network]) -> str:
    """Return the client address of a request from ``peer`` carrying the ``X-Forwarded-For`` values ``forwarded_for``.

    The peer's own address unless it is a trusted proxy; then the right-most address of the chain
    that is not a trusted proxy (or the left-most one if every address is trusted). An entry that is
    not an IP address ends the walk and is taken as the client, truncated. Never raises.
    """
    if peer is None:
        return UNKNOWN
    if not trusted or not is_trusted(peer, trusted):
        return peer
    chain = [a.strip() for value in forwarded_for for a in value.split(",") if a.strip()]
    client = peer
    for address in reversed(chain):
        client = address[:MAX_ADDRESS_CHARS]
        if _ip(address) is None or not is_trusted(address, trusted):
            break
    return client


def _peer(scope: Scope | dict[str, Any]) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


def client_address(scope: Scope | dict[str, Any]) -> str:
    """Return the client address of the HTTP request of ``scope``: the one every per-address limit counts.

    The address :class:`ForwardedFor` resolved for the request, else (an app built without it) the
    peer's address, else ``"unknown"``. Never raises.
    """
    resolved = scope.get(ADDRESS_KEY)
    if isinstance(resolved, str):
        return resolved
    return _peer(scope) or UNKNOWN


class ForwardedFor:
    """ASGI layer: put the request's client address (:func:`forwarded_client`) in its scope :func:`client_address`."""

    def __init__(self, app: ASGIApp, trusted: Sequence[Network]) -> None:
        self.app = app
        self.trusted = tuple(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI event with its client address resolved."""
        if scope["type"] in ("http", "websocket"):
            values: list[str] = []
            if self.trusted:
                values = [v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"x-forwarded-for"]
            scope[ADDRESS_KEY] = forwarded_client(_peer(scope), values, self.trusted)
        await self.app(scope, receive, send)
