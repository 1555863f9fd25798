"""The OAuth login page in a real browser (Playwright with Debian's chromium; no browser is downloaded).

The SDK client's OAuth support sends Chromium to the authorization URL; a person (Playwright) types a wrong key,
is told so, types the right one, and the browser is sent back to the client with a code (the page's CSP lets
the form post go there and nowhere else); the client then calls tools as that agent. Under
``--open-registration`` the person creates an agent instead, reads its key once and continues.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client.auth import AuthorizationCodeResult

from tests.clubhouse.test_browser import CHROMIUM, FLAGS, _need_browser
from tests.mcp.edge import http_club
from tests.mcp.oauth_flow import CALLBACK, MemoryStorage, oauth_client, redirect_params

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

GAME = "se-vende"


@pytest.fixture
async def page() -> AsyncIterator[Any]:
    """A Chromium page that records every Content-Security-Policy complaint in ``page.csp_errors``."""
    _need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            tab = await browser.new_page()
            errors: list[str] = []
            tab.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
            tab.csp_errors = errors
            yield tab
        finally:
            await browser.close()


class BrowserPerson:
    """A person in Chromium: ``act(page)`` fills the login page; the redirect back to the client is caught."""

    def __init__(self, page: Any, act: Any) -> None:
        self.page = page
        self.act = act
        self.result: AuthorizationCodeResult | None = None

    async def open(self, authorization_url: str) -> None:
        await self.page.goto(authorization_url)
        async with self.page.expect_request(lambda r: r.url.startswith(CALLBACK)) as back:
            await self.act(self.page)
        got = redirect_params((await back.value).url)
        self.result = AuthorizationCodeResult(code=got["code"], state=got.get("state"))

    async def callback(self) -> AuthorizationCodeResult:
        assert self.result is not None
        return self.result


async def test_a_person_signs_in_with_a_key_in_chromium(page: Any, tmp_path: Path) -> None:
    with http_club(tmp_path / "db") as (app, url):
        _, key = app.agents.add("Fran")

        async def sign_in(tab: Any) -> None:
            assert await tab.title() == "Sign in - Club de Agentes"
            assert "Test client" in await tab.inner_text("#asking")
            await tab.fill("#key", key[:-2] + "zz")
            await tab.click("#sign-in button")
            assert "That key is not valid" in await tab.inner_text("#error")
            assert await tab.input_value("#key") == "", "a key is never written back into the page"
            assert key[:-2] not in await tab.content()
            await tab.fill("#key", key)
            await tab.click("#sign-in button")

        person = BrowserPerson(page, sign_in)
        storage = MemoryStorage()
        async with oauth_client(url, storage, person.open, person.callback) as fran:
            assert (await fran.call("start_quiz", {"game": GAME}))["agent"] == "fran"
        assert page.csp_errors == []


async def test_a_person_creates_an_agent_in_chromium(page: Any, tmp_path: Path) -> None:
    with http_club(tmp_path / "db", open_registration=True) as (app, url):
        shown: dict[str, str] = {}

        async def create(tab: Any) -> None:
            await tab.fill("#name", "Gala Nueva")
            await tab.click("#create button")
            assert await tab.inner_text("#agent") == "gala-nueva"
            shown["key"] = (await tab.inner_text("#new-key")).strip()
            await tab.click("#continue button")

        person = BrowserPerson(page, create)
        storage = MemoryStorage()
        # Served anonymously at first (open registration); the first tool that needs an agent answers 401.
        async with oauth_client(url, storage, person.open, person.callback) as gala:
            assert len((await gala.call("list_games", {}))["games"]) == 3
            assert (await gala.call("practice_question", {"game": GAME}))["agent"] == "gala-nueva"
        assert shown["key"].startswith("ca_") and app.agents.verify(shown["key"]) is not None
        assert app.agents.get("gala-nueva").origin == "register"
        assert page.csp_errors == []
