"""The server's own OAuth authorization server: OAuth-capable MCP clients sign in without a preset header.

Over HTTP with keys required, the server is both the protected resource and its authorization
server (the MCP authorization flow, served by the SDK's ``mcp.server.auth`` routes over
:class:`OAuthLogin`, the provider kept in the store):

1. the client's first request gets 401 naming the protected-resource metadata
   (``/.well-known/oauth-protected-resource/mcp``, RFC 9728), which names this server as the
   authorization server (``/.well-known/oauth-authorization-server``, RFC 8414);
2. the client registers itself (``POST /register``, RFC 7591 dynamic client registration);
3. it sends a person's browser to ``/authorize`` with a PKCE challenge (S256); the server keeps the
   request and shows its login page (``/oauth/login``, :mod:`club_agentes.mcp_server.oauth_login`),
   where the person pastes an agent key (or, under ``--open-registration``, creates an agent);
4. the browser comes back to the client with a single-use code bound to that agent; the client
   trades it at ``POST /token`` (with the PKCE verifier) for an access token (1 hour) and a refresh
   token (30 days, replaced at each use), both bound to the agent, stored hashed;
5. the client sends ``Authorization: Bearer <access token>``; tools act as the agent.
   ``POST /revoke`` (RFC 7009) ends a grant; revoking or rotating the agent's key ends them all.

``Authorization: Bearer <agent key>`` keeps working beside it. The SDK validates an issuer only if
it is ``https`` or loopback (RFC 8414): on a plain-HTTP address that is not loopback (and without an
``https`` ``--public-url``) the login is off and no authorization server is advertised.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from club_agentes.mcp_server.auth import AGENT_SCOPE, AgentKeyVerifier, AgentRegistry, KeyChallenge
from club_agentes.mcp_server.limits import LimitReached, Limits
from club_agentes.mcp_server.proxies import client_address
from club_agentes.mcp_server.settings import ServerSettings, is_loopback
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.oauth import Grant, NewToken, PendingSignIn, TokenRow
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    RegistrationError,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import REGISTRATION_PATH, build_resource_metadata_url, validate_issuer_url
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl, BaseModel
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

if TYPE_CHECKING:
    from club_agentes.mcp_server.app import ClubApp
    from club_agentes.mcp_server.toolkit import ClubServer

log = logging.getLogger("club_agentes.oauth")

ACCESS_PREFIX = "cat_"
REFRESH_PREFIX = "car_"
ACCESS_TTL_S = 3600
"""Seconds an access token works (the client refreshes it, or signs in again)."""
REFRESH_TTL_S = 30 * 86400
"""Seconds a refresh token works; each use replaces it with a new one (and a new access token)."""
CODE_TTL_S = 300
"""Seconds an authorization code can be exchanged (once)."""
SIGN_IN_TTL_S = 900
"""Seconds a person has, from the client's redirect, to sign in on the login page."""
LOGIN_PATH = "/oauth/login"
MAX_TOKEN_CHARS = 256

T = TypeVar("T")


def digest(text: str) -> str:
    """Return the SHA-256 (hex) under which a code, token or sign-in id is stored."""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def login_available(settings: ServerSettings) -> bool:
    """Whether the OAuth login can be served: its issuer (the base URL) must be ``https`` or loopback."""
    try:
        validate_issuer_url(AnyHttpUrl(settings.base_url))
    except ValueError:
        return False
    return True


def auth_settings(settings: ServerSettings, *, login: bool) -> AuthSettings:
    """Return the SDK auth settings of a server that requires agent keys.

    With ``login`` the server is its own authorization server: protected-resource metadata at
    ``/.well-known/oauth-protected-resource/mcp`` names it, dynamic client registration and
    revocation are on, and the only scope is ``agent``. Without it no metadata is served (no
    authorization server is claimed); agent keys work either way. Tokens are checked against the
    store by the verifier, so ``validate_token_resource`` is off (agent keys name no resource; an
    access token is only issued for this server's resource).
    """
    scopes = [AGENT_SCOPE]
    return AuthSettings(
        issuer_url=settings.base_url,  # type: ignore[arg-type]  # pydantic parses the URL
        resource_server_url=settings.resource_url if login else None,  # type: ignore[arg-type]
        required_scopes=scopes,
        validate_token_resource=False,
        client_registration_options=(
            ClientRegistrationOptions(enabled=True, valid_scopes=scopes, default_scopes=scopes) if login else None
        ),
        revocation_options=RevocationOptions(enabled=True) if login else None,
    )


class ClubCode(AuthorizationCode):
    """An authorization code with the grant its tokens will belong to."""

    grant_id: str


class ClubRefreshToken(RefreshToken):
    """A refresh token with its grant."""

    grant_id: str


class ClubAccessToken(AccessToken):
    """An OAuth access token with its grant (``subject`` is the agent, ``client_id`` the OAuth client)."""

    grant_id: str


class _CodeParams(BaseModel):
    scopes: list[str]
    code_challenge: str
    redirect_uri: str
    redirect_uri_provided_explicitly: bool
    resource: str | None = None


NO_REDIRECT_SCHEMES = frozenset({"javascript", "data", "file", "vbscript", "about", "blob", "ws", "wss", "ftp"})


def redirect_refusal(uri: str) -> str | None:
    """Return why a client may not register ``uri`` as a redirect URI, or ``None`` when it may.

    Accepted: ``https`` URIs, ``http`` URIs on a loopback host (native apps, RFC 8252), and private-use
    schemes of native apps (``vscode:``, ``cursor:``...); no fragment (RFC 6749 section 3.1.2).
    """
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if parts.fragment:
        return f"the redirect URI {uri[:100]!r} has a fragment (#...), which a redirect URI may not have"
    if scheme in NO_REDIRECT_SCHEMES or not scheme:
        return f"the redirect URI {uri[:100]!r} uses the scheme {scheme!r}, to which no code is sent"
    if scheme == "http" and not is_loopback(parts.hostname or ""):
        return (
            f"the redirect URI {uri[:100]!r} is plain http on a host that is not loopback; use https, or http on "
            "127.0.0.1, [::1] or localhost (RFC 8252)"
        )
    return None


def _same_resource(a: str, b: str) -> bool:
    try:
        return str(AnyHttpUrl(a)).rstrip("/") == str(AnyHttpUrl(b)).rstrip("/")
    except ValueError:
        return False


def _token_fields(token: str, row: TokenRow) -> dict[str, Any]:
    return {
        "token": token,
        "client_id": row.client_id,
        "scopes": row.scopes.split(),
        "expires_at": int(row.expires_at),
        "resource": row.resource,
        "subject": row.agent,
        "grant_id": row.grant_id,
    }


class OAuthLogin(OAuthAuthorizationServerProvider[ClubCode, ClubRefreshToken, AccessToken]):
    """The SDK ``OAuthAuthorizationServerProvider`` of the club, over the store.

    Also the server's token verifier (:attr:`verifier`): an agent key or an access token it issued.

    Attributes:
        registry: the agents and their keys.
        store: where clients, sign-ins, codes and tokens live.
        settings: the server's settings (base and resource URLs, open registration).
        limits: the limits (sign-in attempts and registrations per address).
        verifier: the token verifier for agent keys and access tokens.
    """

    def __init__(
        self,
        registry: AgentRegistry,
        settings: ServerSettings,
        limits: Limits,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.registry = registry
        self.store: Store = registry.store
        self.settings = settings
        self.limits = limits
        self.clock = clock
        self.verifier = AgentKeyVerifier(registry, self.access_token)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Call a blocking store function off the event loop (through ``store.run``, the one async boundary).

        Raises:
            StoreError: the database is closed.
            Exception: whatever ``fn`` raises.
        """
        return await self.store.run(fn, *args)

    @property
    def open_registration(self) -> bool:
        """Whether the login page may create agents (``--open-registration``)."""
        return self.settings.open_registration

    @property
    def login_url(self) -> str:
        """The login page's URL."""
        return self.settings.base_url + LOGIN_PATH

    # ----- clients (RFC 7591)

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        """Return a registered client, or ``None``."""
        info = await self.run(self.store.oauth.oauth_client, client_id[:200])
        return OAuthClientInformationFull.model_validate_json(info) if info is not None else None

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        """Store a client the SDK's registration handler accepted.

        Raises:
            RegistrationError: a redirect URI is not one a code may be sent to (see :func:`redirect_refusal`).
        """
        assert client_info.client_id is not None  # the SDK's handler sets it
        for uri in client_info.redirect_uris or []:
            refusal = redirect_refusal(str(uri))
            if refusal is not None:
                raise RegistrationError("invalid_redirect_uri", refusal)
        await self.run(
            self.store.oauth.add_oauth_client, client_info.client_id, client_info.model_dump_json(), self.clock()
        )

    # ----- authorization: the request waits for the login page

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        """Keep the authorization request and return the login page's URL for it.

        Raises:
            AuthorizeError: the request names another resource than this server (RFC 8707).
        """
        if params.resource is not None and not _same_resource(params.resource, self.settings.resource_url):
            raise AuthorizeError(
                "invalid_target",
                f"this server issues tokens only for its own resource {self.settings.resource_url}",
            )
        if not params.scopes:
            params = params.model_copy(update={"scopes": [AGENT_SCOPE]})
        request_id = secrets.token_urlsafe(32)
        now = self.clock()
        assert client.client_id is not None
        await self.run(
            self.store.oauth.add_sign_in,
            digest(request_id),
            client.client_id,
            params.model_dump_json(),
            now + SIGN_IN_TTL_S,
            now,
        )
        return f"{self.login_url}?request={request_id}"

    async def pending(self, request_id: str) -> PendingSignIn | None:
        """Return the unexpired sign-in of this request id (from the login page's URL or form), or ``None``."""
        if not request_id or len(request_id) > MAX_TOKEN_CHARS:
            return None
        return await self.run(self.store.oauth.sign_in, digest(request_id), self.clock())

    @staticmethod
    def params(pending: PendingSignIn) -> AuthorizationParams:
        """Return a sign-in's authorization parameters."""
        return AuthorizationParams.model_validate_json(pending.params)

    async def grant(self, request_id: str, pending: PendingSignIn, agent: str) -> str | None:
        """End a sign-in as ``agent``: store a code for it and return the client's redirect URL with the code.

        Returns ``None`` when the sign-in was ended meanwhile (another tab, or cancelled).
        """
        if not await self.run(self.store.oauth.end_sign_in, digest(request_id)):
            return None
        params = self.params(pending)
        code = secrets.token_urlsafe(32)
        stored = _CodeParams(
            scopes=params.scopes or [AGENT_SCOPE],
            code_challenge=params.code_challenge,
            redirect_uri=str(params.redirect_uri),
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        now = self.clock()
        await self.run(
            self.store.oauth.add_oauth_code,
            digest(code),
            pending.client_id,
            agent,
            secrets.token_hex(16),
            stored.model_dump_json(),
            now + CODE_TTL_S,
            now,
        )
        log.info("OAuth sign-in: agent %s for client %s", agent, pending.client_id)
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def deny(self, request_id: str, pending: PendingSignIn) -> str:
        """End a sign-in the person cancelled; return the client's redirect URL with ``access_denied``."""
        await self.run(self.store.oauth.end_sign_in, digest(request_id))
        params = self.params(pending)
        return construct_redirect_uri(
            str(params.redirect_uri),
            error="access_denied",
            error_description="The person on the login page cancelled the sign-in.",
            state=params.state,
        )

    # ----- codes and tokens

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> ClubCode | None:
        """Return the code issued to ``client`` (spent or not: a second use is refused when exchanged), or ``None``."""
        if len(authorization_code) > MAX_TOKEN_CHARS or client.client_id is None:
            return None
        row = await self.run(self.store.oauth.oauth_code, digest(authorization_code), client.client_id)
        if row is None:
            return None
        p = _CodeParams.model_validate_json(row.params)
        return ClubCode(
            code=authorization_code,
            scopes=p.scopes,
            expires_at=row.expires_at,
            client_id=row.client_id,
            code_challenge=p.code_challenge,
            redirect_uri=p.redirect_uri,  # type: ignore[arg-type]  # pydantic parses the URL
            redirect_uri_provided_explicitly=p.redirect_uri_provided_explicitly,
            resource=p.resource,
            subject=row.agent,
            grant_id=row.grant_id,
        )

    async def _issue(
        self, spend: Callable[[str, Grant, list[NewToken], float], bool], spent: str, grant: Grant
    ) -> OAuthToken | None:
        """Store a new access and refresh token of ``grant`` while spending the code or refresh token ``spent``
        (``spend`` is the store's transaction); return them, or ``None`` when ``spend`` refused."""
        now = self.clock()
        access = ACCESS_PREFIX + secrets.token_urlsafe(32)
        refresh = REFRESH_PREFIX + secrets.token_urlsafe(32)
        rows = [
            NewToken(digest(access), "access", now + ACCESS_TTL_S),
            NewToken(digest(refresh), "refresh", now + REFRESH_TTL_S),
        ]
        if not await self.run(spend, digest(spent), grant, rows, now):
            return None
        return OAuthToken(access_token=access, expires_in=ACCESS_TTL_S, scope=grant.scopes, refresh_token=refresh)

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: ClubCode
    ) -> OAuthToken:
        """Spend a code for an access and a refresh token bound to its agent.

        Raises:
            TokenError: the code was spent already (the tokens it gave are revoked too) or its agent revoked.
        """
        code = authorization_code
        grant = Grant(
            code.client_id, code.subject or "", code.grant_id, " ".join(code.scopes), self.settings.resource_url
        )
        tokens = await self._issue(self.store.oauth.exchange_oauth_code, code.code, grant)
        if tokens is None:
            raise TokenError(
                "invalid_grant",
                "this authorization code was used already (the tokens it gave are revoked) or its agent was "
                "revoked; sign in again",
            )
        return tokens

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> ClubRefreshToken | None:
        """Return the unexpired refresh token of ``client`` (its agent not revoked), or ``None``."""
        if not refresh_token.startswith(REFRESH_PREFIX) or len(refresh_token) > MAX_TOKEN_CHARS:
            return None
        row = await self.run(self.store.oauth.oauth_token, digest(refresh_token), "refresh", self.clock())
        if row is None or row.client_id != client.client_id:
            return None
        return ClubRefreshToken(**_token_fields(refresh_token, row))

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: ClubRefreshToken, scopes: list[str]
    ) -> OAuthToken:
        """Replace a refresh token (and its grant's access token) by a new pair.

        Raises:
            TokenError: the refresh token was used or revoked meanwhile.
        """
        old = refresh_token
        grant = Grant(old.client_id, old.subject or "", old.grant_id, " ".join(scopes or old.scopes), old.resource)
        tokens = await self._issue(self.store.oauth.rotate_oauth_refresh, old.token, grant)
        if tokens is None:
            raise TokenError("invalid_grant", "this refresh token was used or revoked already; sign in again")
        return tokens

    def access_token(self, token: str) -> ClubAccessToken | None:
        """Return the unexpired access token ``token`` (its agent not revoked), or ``None`` (blocking; one read)."""
        if not token.startswith(ACCESS_PREFIX) or len(token) > MAX_TOKEN_CHARS:
            return None
        row = self.store.oauth.oauth_token(digest(token), "access", self.clock())
        if row is None:
            return None
        return ClubAccessToken(**_token_fields(token, row))

    async def load_access_token(self, token: str) -> AccessToken | None:
        """Return the access token an agent key or an OAuth access token stands for, or ``None``."""
        return await self.verifier.verify_token(token)

    async def revoke_token(self, token: AccessToken | ClubRefreshToken) -> None:
        """Revoke the grant an access or refresh token belongs to (both its tokens); agent keys are not revoked here."""
        if isinstance(token, ClubAccessToken | ClubRefreshToken):
            await self.run(self.store.oauth.revoke_oauth_grant, token.grant_id)

    # ----- wiring

    def install(self, mcp: ClubServer) -> None:
        """Add the login page's routes to ``mcp``."""
        from club_agentes.mcp_server.oauth_login import LoginPage

        LoginPage(self).install(mcp)


def server_auth(
    settings: ServerSettings, registry: AgentRegistry, limits: Limits
) -> tuple[dict[str, Any], OAuthLogin | None]:
    """Return the auth keyword arguments of the server (``MCPServer``) and its OAuth login (``None`` when off).

    Call :meth:`OAuthLogin.install` on the server built with them to serve the login page.
    """
    if not login_available(settings):
        log.warning(
            "OAuth login is off: its issuer %s is neither https nor loopback (set an https --public-url); "
            "agent keys work as headers",
            settings.base_url,
        )
        return {"token_verifier": AgentKeyVerifier(registry), "auth": auth_settings(settings, login=False)}, None
    login = OAuthLogin(registry, settings, limits)
    return {"auth_server_provider": login, "auth": auth_settings(settings, login=True)}, login


class ClientRegistrationLimit:
    """ASGI layer: ``POST /register`` counts against ``oauth_clients_per_hour`` per client address (429 beyond)."""

    def __init__(self, app: ASGIApp, login: OAuthLogin) -> None:
        self.app = app
        self.login = login

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI event."""
        if scope["type"] == "http" and scope.get("method") == "POST" and scope.get("path") == REGISTRATION_PATH:
            try:
                await self.login.run(self.login.limits.take, "oauth_client", client_address(scope))
            except LimitReached as exc:
                body = json.dumps({"error": "temporarily_unavailable", "error_description": str(exc)}).encode()
                headers = {"Retry-After": str(exc.retry_after), "Cache-Control": "no-store"}
                await Response(body, 429, headers, media_type="application/json")(scope, receive, send)
                return
        await self.app(scope, receive, send)


def auth_edge(club: ClubApp, app: ASGIApp) -> ASGIApp:
    """Wrap the HTTP app (keys required only): 401 answers that say whether a key is missing or not valid
    (:class:`KeyChallenge`), and the per-address limit on OAuth client registrations."""
    if not club.keys_required:
        return app
    auth = club.server.settings.auth
    resource = auth.resource_server_url if auth is not None else None
    metadata = str(build_resource_metadata_url(resource)) if resource is not None else None
    keyed = KeyChallenge(app, metadata, registration=club.open_registration)
    return ClientRegistrationLimit(keyed, club.oauth) if club.oauth is not None else keyed
