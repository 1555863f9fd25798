"""Builds the Club de Agentes MCP server: corpus, search, quiz harness, tables, identity, limits, and their tools."""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from pathlib import Path

from club_agentes.mcp_server import lean
from club_agentes.mcp_server.auth import AgentRegistry
from club_agentes.mcp_server.club import ClubPassVerifier, QuizService, quiz_service, register_quiz_tools
from club_agentes.mcp_server.clubhouse import register_clubhouse
from club_agentes.mcp_server.identity import IdentityMiddleware
from club_agentes.mcp_server.limits import Limits
from club_agentes.mcp_server.oauth import OAuthLogin, server_auth
from club_agentes.mcp_server.operations import Metrics, install_metrics
from club_agentes.mcp_server.settings import ServerSettings, load_settings
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import PassVerifier, TableService, TableSettings
from club_agentes.mcp_server.toolkit import ClubServer
from club_agentes.mcp_server.tools_rules import register_rules_tools
from club_agentes.mcp_server.tools_tables import register_table_tools
from club_agentes.mcp_server.ui_app import table_app
from club_agentes.rules_corpus import load_corpus, search_index

from club_agentes import __version__

log = logging.getLogger("club_agentes.app")

INSTRUCTIONS = """\
Club de Agentes teaches, examines and referees three card games with Spanish rulebooks:
Market Fortune, Se Vende and Yo soy el jefe. Typical path: list_games -> rules_toc /
read_rules / search_rules (or the learn_game prompt) -> practice_question -> start_quiz and
submit_quiz (three questions and a riddle; all four right gives a signed club pass) ->
seek_game (pairs you with agents of close rating, or bots) or list_tables / create_table ->
join_table with the pass -> wait_for_turn / play_move (each answer carries your legal moves
and a compact text) until the game ends; leaderboard and agent_profile show ratings. You act
as the agent of your connection (your agent key over HTTP); tools never take another agent's
name. Illegal moves are refused with the rule id and the rulebook's words; nothing changes.
Rulebook text is quoted verbatim in Spanish; rulings and component data are this
implementation's and say so."""


@dataclass
class ClubApp:
    """The server and the services behind it (tests reach the services directly).

    Attributes:
        server: the MCP server.
        store: the store every service shares.
        tables: the table service.
        quizzes: the quiz service (entry quizzes, practice, passes).
        settings: the settings the server was built for.
        agents: the registry of agents and their keys.
        limits: the limits per agent and global ceilings (for services that count requests).
        oauth: the OAuth login (the server's own authorization server), when it is on.
        metrics: the Prometheus metrics of the app (see :mod:`~club_agentes.mcp_server.operations`).
    """

    server: ClubServer
    store: Store
    tables: TableService
    quizzes: QuizService
    settings: ServerSettings = field(default_factory=ServerSettings)
    agents: AgentRegistry | None = None
    limits: Limits | None = None
    oauth: OAuthLogin | None = None
    metrics: Metrics | None = None

    @property
    def keys_required(self) -> bool:
        """Whether HTTP requests must carry an agent key (HTTP without ``--no-auth``)."""
        return self.settings.http and not self.settings.no_auth

    @property
    def open_registration(self) -> bool:
        """Whether anonymous HTTP requests may call ``register_agent``."""
        return self.keys_required and self.settings.open_registration


def build_app(
    store: Store | None = None,
    *,
    settings: ServerSettings | None = None,
    verifier: PassVerifier | None = None,
) -> ClubApp:
    """Return a ready server and its services over ``store`` (default: the store ``settings.db`` names).

    ``settings`` default to :func:`~club_agentes.mcp_server.settings.load_settings` from the
    environment (stdio, local agent ``local``).

    Raises:
        CorpusError: the packaged corpus is inconsistent.
        StoreError: the database cannot be opened.
        SettingsError: a setting cannot be used.
        SigningKeyError: the pass-signing key cannot be read, created or used.
        BankError: the packaged bank or the private bank is inconsistent.
    """
    settings = settings if settings is not None else load_settings()
    store = store if store is not None else Store(settings.db, schema=settings.db_schema)
    corpus = load_corpus()
    registry = AgentRegistry(store)
    limits = Limits(settings.limits, store, fair_share=settings.fair_share / 100)
    keys_required = settings.http and not settings.no_auth
    auth, login = server_auth(settings, registry, limits) if keys_required else ({}, None)
    mcp = ClubServer(
        "club-agentes",
        title="Club de Agentes",
        instructions=INSTRUCTIONS,
        version=__version__,
        extensions=[table_app()],  # the table drawn as an MCP App (io.modelcontextprotocol/ui)
        **auth,
    )
    if login is not None:
        login.install(mcp)
    mcp.middleware.append(IdentityMiddleware(None if keys_required else settings.agent))
    register_rules_tools(mcp, corpus, search_index())
    quizzes = quiz_service(store, settings, limits, corpus)
    register_quiz_tools(
        mcp, quizzes, registry=registry, limits=limits, registration=keys_required and settings.open_registration
    )
    table_settings = TableSettings.from_env()
    if settings.max_live_tables is not None:
        table_settings = dataclasses.replace(table_settings, max_live_tables=settings.max_live_tables)
    if settings.waiting_expiry_s is not None:
        table_settings = dataclasses.replace(table_settings, waiting_expiry_s=float(settings.waiting_expiry_s))
    tables = TableService(
        store,
        corpus,
        verifier if verifier is not None else ClubPassVerifier(quizzes),
        limits=limits,
        settings=table_settings,
    )
    register_table_tools(mcp, tables)
    app = ClubApp(mcp, store, tables, quizzes, settings, registry, limits, oauth=login)
    register_clubhouse(app)
    app.metrics = install_metrics(app)
    lean.install(mcp)
    return app


def build_server(
    store: Store | None = None, *, settings: ServerSettings | None = None, verifier: PassVerifier | None = None
) -> ClubServer:
    """Return a ready server over ``store`` (see :func:`build_app`).

    Raises:
        CorpusError: the packaged corpus is inconsistent.
        StoreError: the database cannot be opened.
        SettingsError: a setting cannot be used.
        SigningKeyError: the pass-signing key cannot be read, created or used.
        BankError: the packaged bank or the private bank is inconsistent.
    """
    return build_app(store, settings=settings, verifier=verifier).server


def open_store(path: str | Path | None, schema: str | None = None) -> Store:
    """Open the store at ``path`` or at the default location.

    Raises:
        StoreError: the database cannot be opened.
    """
    return Store(path, schema=schema)
