"""Test helpers for the OAuth login: the SDK client's OAuth support with an in-memory token storage, and a
person who signs in on the login page over plain HTTP (the browser tests drive Chromium instead)."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from tests.mcp.helpers import Checked

CALLBACK = "http://127.0.0.1:9/callback"
"""The redirect URI the test clients register (nothing listens there: the code is read from the redirect)."""


class MemoryStorage:
    """The SDK's ``TokenStorage`` in memory (what a client keeps between connections)."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class Forms(HTMLParser):
    """The forms of a page: each form's id, its fields (name -> value) and the page's text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.forms: dict[str, dict[str, str]] = {}
        self.text: list[str] = []
        self._form: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self._form = a.get("id") or ""
            self.forms[self._form] = {}
        elif tag == "input" and self._form is not None and a.get("name"):
            self.forms[self._form][a["name"] or ""] = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def page_text(self) -> str:
        return " ".join(" ".join(self.text).split())


def redirect_params(location: str) -> dict[str, str]:
    """Return the query parameters of a redirect to the client's callback."""
    assert location.startswith(CALLBACK), location
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


class HttpPerson:
    """A person at the login page, over HTTP: signs in with ``key``, or creates the agent ``create``.

    Attributes:
        pages: every login page shown (responses), in order.
        opened: how many times a client sent this person to sign in.
    """

    def __init__(self, key: str | None = None, *, create: str | None = None) -> None:
        self.key = key
        self.create = create
        self.pages: list[httpx2.Response] = []
        self.opened = 0
        self.created_key: str | None = None
        self._result: AuthorizationCodeResult | None = None

    async def open(self, authorization_url: str) -> None:
        """The SDK's redirect handler: follow the authorization URL to the login page and sign in."""
        self.opened += 1
        async with httpx2.AsyncClient(timeout=30) as browser:
            answer = await browser.get(authorization_url)
            assert answer.status_code == 302, answer.text
            login = str(answer.url.join(answer.headers["location"]))
            page = await browser.get(login)
            self.pages.append(page)
            assert page.status_code == 200, page.text
            forms = Forms(page.text).forms
            if self.create is not None:
                page = await browser.post(login.split("?")[0], data={**forms["create"], "name": self.create})
                self.pages.append(page)
                assert page.status_code == 200, page.text
                shown = Forms(page.text)
                self.created_key = next(w for w in shown.page_text.split() if w.startswith("ca_"))
                answer = await browser.post(login.split("?")[0], data=shown.forms["continue"])
            else:
                answer = await browser.post(login.split("?")[0], data={**forms["sign-in"], "key": self.key or ""})
            if answer.status_code != 303:
                self.pages.append(answer)
                raise AssertionError(f"the login page refused: {answer.status_code} {Forms(answer.text).page_text}")
            got = redirect_params(answer.headers["location"])
            self._result = AuthorizationCodeResult(code=got["code"], state=got.get("state"))

    async def callback(self) -> AuthorizationCodeResult:
        """The SDK's callback handler: the code and state the redirect carried."""
        assert self._result is not None, "the redirect handler did not finish"
        result, self._result = self._result, None
        return result


def provider(
    url: str,
    storage: MemoryStorage,
    redirect: Callable[[str], Awaitable[None]],
    callback: Callable[[], Awaitable[AuthorizationCodeResult]],
    name: str = "Test client",
) -> OAuthClientProvider:
    """The SDK client's OAuth support for the server at ``url``."""
    metadata = OAuthClientMetadata(client_name=name, redirect_uris=[CALLBACK])  # type: ignore[list-item]
    return OAuthClientProvider(
        server_url=url, client_metadata=metadata, storage=storage, redirect_handler=redirect, callback_handler=callback
    )


@contextlib.asynccontextmanager
async def oauth_client(
    url: str,
    storage: MemoryStorage,
    redirect: Callable[[str], Awaitable[None]],
    callback: Callable[[], Awaitable[AuthorizationCodeResult]],
    *,
    expired: bool = False,
) -> AsyncIterator[Checked]:
    """An SDK client with no preset header: it signs in through the server's OAuth flow when told to.

    ``expired``: the client holds tokens it believes expired (so it refreshes them before the first request).
    """
    auth = provider(url, storage, redirect, callback)
    if expired:
        auth.context.token_expiry_time = 1.0
    async with (
        create_mcp_http_client(auth=auth) as http,
        Client(streamable_http_client(url, http_client=http)) as c,
    ):
        yield await Checked(c).load()


async def never(_: Any = None) -> Any:
    """A redirect or callback handler for a client that must not need a person."""
    raise AssertionError("the client asked a person to sign in again")


def pkce() -> tuple[str, str]:
    """Return a PKCE verifier and its S256 challenge."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


async def register(http: httpx2.AsyncClient, base: str, name: str = "Hand client") -> dict[str, Any]:
    """Register a client by hand (``POST /register``); return its registration."""
    r = await http.post(f"{base}/register", json={"client_name": name, "redirect_uris": [CALLBACK]})
    assert r.status_code == 201, r.text
    return dict(r.json())


def authorize_url(base: str, client: dict[str, Any], challenge: str, state: str = "st", **extra: str) -> str:
    """The ``/authorize`` URL a client would send a browser to."""
    query = {
        "response_type": "code",
        "client_id": client["client_id"],
        "redirect_uri": CALLBACK,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": state,
        **extra,
    }
    return f"{base}/authorize?{urlencode(query)}"
