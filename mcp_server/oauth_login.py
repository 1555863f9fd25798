"""The OAuth login page (``/oauth/login``): where a person signs an MCP client in as one of the club's agents.

The SDK's ``/authorize`` keeps the client's request (:meth:`OAuthLogin.authorize`) and sends the
browser here with the request's id. The page (server-rendered HTML, English) names the client and
where it will be sent back, and asks for an agent key; with ``--open-registration`` it can create an
agent instead and shows that agent's new key once. Then the browser goes back to the client with a
code bound to the agent (or with ``access_denied`` on Cancel).

Safety:

* **No external origins**: every response carries a ``Content-Security-Policy`` that allows nothing
  but its own inline style (by hash) and form posts to itself and to the client's redirect origin;
  no scripts, images or frames (``frame-ancestors 'none'``).
* **CSRF**: each showing of the page makes a new token, stored hashed with the request and set in a
  ``SameSite=Lax``, ``HttpOnly`` cookie; a post must carry the same token in its form and its
  cookie (the server's origin check refuses foreign ``Origin`` headers too).
* **Keys**: a pasted key is checked in constant time against the stored hash
  (:meth:`AgentRegistry.verify`) and never written back into a page; every key tried counts against
  ``logins_per_hour`` per client address (and its global ceiling), every agent created against
  ``registrations_per_hour``, as ``register_agent`` does.
* Responses are ``no-store``, send no referrer to other origins and are never framed (a ``no-referrer``
  policy would make Chromium post ``Origin: null``, which the server's origin check refuses).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode, urlsplit

from club_agentes.mcp_server.limits import LimitReached
from club_agentes.mcp_server.oauth import LOGIN_PATH, SIGN_IN_TTL_S, OAuthLogin, digest
from club_agentes.mcp_server.proxies import client_address
from club_agentes.mcp_server.store.oauth import PendingSignIn
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from club_agentes.errors import Refused

if TYPE_CHECKING:
    from club_agentes.mcp_server.toolkit import ClubServer

HERE = Path(__file__).resolve().parent
ENV = Environment(
    loader=FileSystemLoader(str(HERE / "oauth_templates")),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
CSS = (
    "body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f6f5f1;color:#1d1d1b}"
    "main{max-width:34rem;margin:3rem auto;padding:0 1.25rem}"
    "h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:2rem}"
    "label{display:block;font-weight:600;margin:1rem 0 .3rem}"
    "input[type=password],input[type=text]{width:100%;box-sizing:border-box;padding:.55rem;font:inherit;"
    "border:1px solid #8a877f;border-radius:4px}"
    ".hint{font-size:.9rem;color:#55534d}"
    "button{font:inherit;padding:.5rem 1.1rem;margin-top:.4rem;border:0;border-radius:4px;background:#1f5c4a;"
    "color:#fff;cursor:pointer}"
    "button.secondary{background:#dedbd2;color:#1d1d1b}"
    "#cancel{margin-top:1.5rem}"
    ".error{background:#fbe3e0;border-left:4px solid #b3261e;padding:.6rem .8rem}"
    "code{font-family:ui-monospace,monospace;font-size:.92em}"
    ".key{display:block;word-break:break-all;background:#fff;border:1px solid #8a877f;padding:.6rem}"
)
CSS_HASH = base64.b64encode(hashlib.sha256(CSS.encode()).digest()).decode()
COOKIE = "club_signin"
MAX_FORM_BYTES = 8192

BAD_KEY = (
    "That key is not valid: it is unknown, revoked or mistyped. An agent key looks like ca_, 16 hex digits, an "
    "underscore and 43 more characters; an operator makes one with 'club-agentes agents add NAME'."
)
EXPIRED = (
    "This sign-in request is unknown or has expired (a request lasts {minutes} minutes, and ends once used); "
    "start again from your MCP client."
)
BAD_FORM = "This form has expired or was not sent from this page; reload the sign-in page and try again."


def _form_source(url: str) -> str:
    """Return the CSP source expression of a redirect URI's origin (``scheme:`` for a custom scheme)."""
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return f"{parts.scheme}:" if parts.scheme else "'none'"


def _headers(redirect_uri: str | None) -> dict[str, str]:
    targets = "'self'" + (f" {_form_source(redirect_uri)}" if redirect_uri else "")
    return {
        "Content-Security-Policy": (
            f"default-src 'none'; style-src 'sha256-{CSS_HASH}'; form-action {targets}; "
            "frame-ancestors 'none'; base-uri 'none'"
        ),
        "Cache-Control": "no-store",
        "Pragma": "no-cache",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
    }


def _shown(url: str) -> str:
    """Return where a redirect URI sends the browser, as a person reads it (scheme, host and path)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"[:200]


class LoginPage:
    """The login page's two routes (GET shows it, POST acts on it) over an :class:`OAuthLogin`."""

    def __init__(self, login: OAuthLogin) -> None:
        self.login = login
        self.secure_cookie = login.settings.base_url.startswith("https://")

    def install(self, mcp: ClubServer) -> None:
        """Add ``GET`` and ``POST`` ``/oauth/login`` to the server's HTTP routes."""
        mcp.custom_route(LOGIN_PATH, methods=["GET"], name="oauth_login", include_in_schema=False)(self.show)
        mcp.custom_route(LOGIN_PATH, methods=["POST"], name="oauth_login_post", include_in_schema=False)(self.act)

    # ----- rendering

    def _render(self, page: str, status: int = 200, redirect_uri: str | None = None, **values: Any) -> HTMLResponse:
        values.setdefault("title", "Sign in")
        html = ENV.get_template("login.html").render(page=page, css=Markup(CSS), action=LOGIN_PATH, **values)
        return HTMLResponse(html, status_code=status, headers=_headers(redirect_uri))

    def _message(self, title: str, message: str, status: int, retry_url: str | None = None) -> HTMLResponse:
        return self._render("message", status, title=title, message=message, retry_url=retry_url)

    def _expired(self) -> HTMLResponse:
        return self._message("Sign-in expired", EXPIRED.format(minutes=SIGN_IN_TTL_S // 60), 400)

    async def _page(
        self,
        request_id: str,
        pending: PendingSignIn,
        *,
        status: int = 200,
        error: str | None = None,
        csrf: str | None = None,
        name: str = "",
        page: str | None = None,
        **values: Any,
    ) -> Response:
        """Render the sign-in (or continue) page with a CSRF token (a new one unless ``csrf`` is given)."""
        if csrf is None:
            csrf = secrets.token_urlsafe(32)
            if not await self.login.run(self.login.store.oauth.set_sign_in_csrf, digest(request_id), digest(csrf)):
                return self._expired()
        params = self.login.params(pending)
        client = await self.login.get_client(pending.client_id)
        client_name = (client.client_name if client is not None else None) or "An MCP client"
        redirect_uri = str(params.redirect_uri)
        if page is None:
            page = "continue" if pending.agent is not None else "sign_in"
        response = self._render(
            page,
            status,
            redirect_uri,
            title="Sign in" if page == "sign_in" else "Agent created",
            error=error,
            client_name=client_name[:80],
            redirect_to=_shown(redirect_uri),
            request_id=request_id,
            csrf=csrf,
            name=name[:64],
            agent=pending.agent,
            open_registration=self.login.open_registration,
            **values,
        )
        response.set_cookie(
            COOKIE,
            csrf,
            max_age=SIGN_IN_TTL_S,
            path=LOGIN_PATH,
            secure=self.secure_cookie,
            httponly=True,
            samesite="lax",
        )
        return response

    # ----- routes

    async def show(self, request: Request) -> Response:
        """``GET /oauth/login?request=ID``: the sign-in page of a waiting authorization request."""
        request_id = request.query_params.get("request", "")
        pending = await self.login.pending(request_id)
        if pending is None:
            return self._expired()
        return await self._page(request_id, pending)

    async def act(self, request: Request) -> Response:
        """``POST /oauth/login``: sign in with a key, create an agent, continue with it, or cancel."""
        form = await _read_form(request)
        if form is None:
            return self._message("Sign in", "The form is too large or malformed; reload the sign-in page.", 400)
        request_id = form.get("request", "")
        pending = await self.login.pending(request_id)
        if pending is None:
            return self._expired()
        csrf = form.get("csrf", "")
        cookie = request.cookies.get(COOKIE, "")
        if not (
            csrf
            and cookie
            and pending.csrf_hash is not None
            and hmac.compare_digest(csrf.encode(), cookie.encode())
            and hmac.compare_digest(digest(csrf), pending.csrf_hash)
        ):
            retry = f"{LOGIN_PATH}?{urlencode({'request': request_id})}"
            return self._message("Sign in", BAD_FORM, 403, retry_url=retry)
        action = form.get("action", "")
        address = client_address(request.scope)
        if action == "cancel":
            return _redirect(await self.login.deny(request_id, pending))
        if action == "continue":
            if pending.agent is None:
                return await self._page(request_id, pending, status=400, csrf=csrf, error="Sign in with a key first.")
            return await self._finish(request_id, pending, pending.agent)
        if action == "create":
            return await self._create(request_id, pending, csrf, form.get("name", ""), address)
        if action != "sign_in":
            return await self._page(request_id, pending, status=400, csrf=csrf, error="Choose one of the buttons.")
        try:
            await self.login.run(self.login.limits.take, "login", address)
        except LimitReached as exc:
            refused = await self._page(request_id, pending, status=429, csrf=csrf, error=_sentence(exc))
            refused.headers["Retry-After"] = str(exc.retry_after)
            return refused
        record = await self.login.run(self.login.registry.verify, form.get("key", ""))
        if record is None:
            return await self._page(request_id, pending, status=400, csrf=csrf, error=BAD_KEY)
        return await self._finish(request_id, pending, record.name)

    async def _create(self, request_id: str, pending: PendingSignIn, csrf: str, name: str, address: str) -> Response:
        if not self.login.open_registration:
            return await self._page(
                request_id,
                pending,
                status=400,
                csrf=csrf,
                error="This club does not create agents here; sign in with a key an operator made for you.",
            )
        if pending.agent is not None:
            return await self._page(request_id, pending, status=400, csrf=csrf, error="An agent was created already.")
        receipt: str | None = None
        try:
            receipt = await self.login.run(self.login.limits.take, "registration", address)
            record, key = await self.login.run(partial(self.login.registry.add, name, origin="register"))
        except Refused as exc:
            if receipt is not None:  # a refused name does not use up the address's registrations
                await self.login.run(self.login.limits.give_back, receipt)
            return await self._page(request_id, pending, status=400, csrf=csrf, name=name, error=_sentence(exc))
        await self.login.run(self.login.store.oauth.set_sign_in_agent, digest(request_id), record.name)
        created = PendingSignIn(pending.client_id, pending.params, pending.csrf_hash, record.name, pending.expires_at)
        return await self._page(request_id, created, csrf=csrf, page="created", key=key)

    async def _finish(self, request_id: str, pending: PendingSignIn, agent: str) -> Response:
        target = await self.login.grant(request_id, pending, agent)
        if target is None:
            return self._expired()
        return _redirect(target)


def _sentence(exc: Exception) -> str:
    text = str(exc)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _redirect(url: str) -> Response:
    """A 303 to the client's redirect URI (the CSP's ``form-action`` allows its origin)."""
    response = RedirectResponse(url, status_code=303)
    response.headers.update({"Cache-Control": "no-store", "Referrer-Policy": "same-origin"})
    return response


async def _read_form(request: Request) -> dict[str, str] | None:
    """Return an ``application/x-www-form-urlencoded`` body as one value per field, or ``None`` if malformed."""
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            return None
    try:
        fields = parse_qs(body.decode("utf-8"), max_num_fields=10, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        return None
    return {k: v[0] for k, v in fields.items() if k in ("request", "csrf", "action", "key", "name") and v}
