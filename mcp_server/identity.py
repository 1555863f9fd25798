"""Who is asking: the agent of the request being served.

Every request acts as one agent, by normalised name (:func:`normalize_agent_name`):

* **HTTP** (default): the agent whose key the request's ``Authorization: Bearer <key>`` carries,
  as the SDK's bearer middleware verified it (:class:`~club_agentes.mcp_server.auth.AgentKeyVerifier`).
  With ``--open-registration`` a request without a key is served too, as nobody: it may read the
  rules and call ``register_agent``, and everything that needs an agent refuses it.
* **HTTP with** ``--no-auth`` (loopback only), **stdio, and in-process clients**: the one local
  agent the server was started for (``--agent NAME``, ``CLUB_AGENTES_AGENT``, default ``local``).

:class:`IdentityMiddleware` (an SDK server middleware) puts the agent of each inbound message in a
context variable for the handler's duration; :func:`current_agent` reads it. Tools take the
identity from there and never from an argument: where an ``agent`` argument remains
(``start_quiz``), :func:`claimed_agent` refuses it unless it names the same agent.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from club_agentes.mcp_server.proxies import UNKNOWN
from club_agentes.mcp_server.proxies import client_address as scope_address
from club_agentes.quizzes.harness import InvalidAgent, normalize_agent_name
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

from club_agentes.errors import Refused

__all__ = [
    "IdentityMiddleware",
    "InvalidAgent",
    "NoIdentity",
    "Requester",
    "acting_as",
    "claimed_agent",
    "client_address",
    "current_agent",
    "normalize_agent_name",
]


class NoIdentity(Refused):
    """The request carries no agent identity (an anonymous request under open registration)."""


class WrongAgent(Refused):
    """An ``agent`` argument names another agent than the connection's."""


@dataclass(frozen=True)
class Requester:
    """Who sent the request being served.

    Attributes:
        agent: the agent's normalised name, or ``None`` for an anonymous request.
        address: the client's network address over HTTP (``None`` otherwise).
        scope: an anonymous HTTP request's ASGI scope (where :func:`current_agent` marks :data:`NEEDS_AGENT`).
    """

    agent: str | None
    address: str | None = None
    scope: dict[str, Any] | None = field(default=None, compare=False, repr=False)


NEEDS_AGENT = "club_agentes.needs_agent"
"""Set in an anonymous HTTP request's ASGI scope when a tool needed an agent (the edge then answers 401)."""

_requester: contextvars.ContextVar[Requester | None] = contextvars.ContextVar("club_agentes_requester", default=None)

_NO_KEY = (
    "this request carries no agent key: send the header 'Authorization: Bearer <agent key>' (an operator makes "
    "keys with 'club-agentes agents add NAME'; this server's register_agent tool makes one too)"
)


def current_agent() -> str:
    """Return the normalised name of the agent of the request being served.

    Over HTTP: the agent of the request's key (or the local agent under ``--no-auth``); over stdio
    and in process: the local agent the server was started for.

    Raises:
        NoIdentity: the request carries no agent identity (anonymous, or called outside a request
            with no local agent).
    """
    who = _requester.get()
    if who is None or who.agent is None:
        if who is not None and who.scope is not None:
            who.scope[NEEDS_AGENT] = True
        raise NoIdentity(_NO_KEY)
    return who.agent


def client_address() -> str:
    """Return the client's address over HTTP, or ``"local"`` for stdio and in-process clients."""
    who = _requester.get()
    return who.address if who is not None and who.address else "local"


def claimed_agent(claimed: str | None) -> str:
    """Return the request's agent, refusing an ``agent`` argument that names someone else.

    Raises:
        NoIdentity: the request carries no agent identity.
        InvalidAgent: ``claimed`` is given but is not a valid name.
        WrongAgent: ``claimed`` normalises to another name than the request's agent.
    """
    agent = current_agent()
    if claimed is None:
        return agent
    if normalize_agent_name(claimed) != agent:
        raise WrongAgent(
            f"you are connected as {agent!r}, so you cannot act as {claimed[:64]!r}; leave 'agent' out "
            f"(the connection names you) or give {agent!r}"
        )
    return agent


@contextlib.contextmanager
def acting_as(agent: str | None, address: str | None = None) -> Iterator[None]:
    """Serve the block as ``agent`` (normalised; ``None``: anonymous), e.g. for a CLI command or a test.

    Raises:
        InvalidAgent: ``agent`` is not a valid name.
    """
    token = _requester.set(Requester(normalize_agent_name(agent) if agent is not None else None, address))
    try:
        yield
    finally:
        _requester.reset(token)


class IdentityMiddleware:
    """SDK server middleware: each inbound message is served as the agent of its connection.

    Over HTTP the agent is the one the SDK's bearer middleware authenticated (``scope["user"]``);
    without one (``--no-auth``, stdio, in process) it is ``local_agent``, and when that is
    ``None`` (HTTP with keys and open registration) the request is anonymous.
    """

    def __init__(self, local_agent: str | None) -> None:
        """Build the middleware; ``local_agent`` is normalised here.

        Raises:
            InvalidAgent: ``local_agent`` is not a valid name.
        """
        self.local_agent = normalize_agent_name(local_agent) if local_agent is not None else None

    def resolve(self, request: Any) -> Requester:
        """Return who sent ``request`` (a Starlette request over HTTP, ``None`` otherwise). Never raises."""
        if request is None:
            return Requester(self.local_agent)
        scope = getattr(request, "scope", {}) or {}
        address = scope_address(scope) if isinstance(scope, dict) else None
        address = None if address == UNKNOWN else address
        user = scope.get("user")
        if isinstance(user, AuthenticatedUser):
            return Requester(user.access_token.subject or user.access_token.client_id, address)
        anonymous = self.local_agent is None and isinstance(scope, dict)
        return Requester(self.local_agent, address, scope if anonymous else None)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Serve one message with its requester set (and restored afterwards)."""
        token = _requester.set(self.resolve(ctx.request))
        try:
            return await call_next(ctx)
        finally:
            _requester.reset(token)
