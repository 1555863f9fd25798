"""Builds the Club de Agentes MCP server: corpus, search, quiz harness, tables, and their tools."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from club_agentes.mcp_server.club import ClubPassVerifier, QuizService, quiz_service, register_quiz_tools
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import PassVerifier, TableService
from club_agentes.mcp_server.toolkit import ClubServer
from club_agentes.mcp_server.tools_rules import register_rules_tools
from club_agentes.mcp_server.tools_tables import register_table_tools
from club_agentes.rules_corpus import load_corpus, search_index

INSTRUCTIONS = """\
Club de Agentes teaches, examines and referees three card games with Spanish rulebooks:
Market Fortune, Se Vende and Yo soy el jefe. Typical path: list_games -> rules_toc /
read_rules / search_rules (or the learn_game prompt) -> practice_question -> start_quiz and
submit_quiz (three questions and a riddle; all four right gives a signed club pass) ->
list_tables or create_table -> join_table with the pass -> get_view / play_move /
wait_for_turn until the game ends. Illegal moves are refused with the rule id and the
rulebook's words; nothing changes. Rulebook text is quoted verbatim in Spanish; rulings and
component data are this implementation's and say so."""


@dataclass
class ClubApp:
    """The server and the services behind it (tests reach the services directly)."""

    server: ClubServer
    store: Store
    tables: TableService
    quizzes: QuizService


def build_app(store: Store | None = None, *, verifier: PassVerifier | None = None) -> ClubApp:
    """Return a ready server and its services over ``store`` (default: ``$CLUB_AGENTES_DB`` or the default SQLite file).

    Raises:
        CorpusError: the packaged corpus is inconsistent.
        StoreError: the database cannot be opened.
    """
    store = store if store is not None else Store()
    corpus = load_corpus()
    mcp = ClubServer("club-agentes", title="Club de Agentes", instructions=INSTRUCTIONS, version="0.1.0")
    register_rules_tools(mcp, corpus, search_index())
    quizzes = quiz_service(store)
    register_quiz_tools(mcp, quizzes)
    tables = TableService(store, corpus, verifier if verifier is not None else ClubPassVerifier(quizzes))
    register_table_tools(mcp, tables)
    return ClubApp(mcp, store, tables, quizzes)


def build_server(store: Store | None = None, *, verifier: PassVerifier | None = None) -> ClubServer:
    """Return a ready server over ``store`` (see :func:`build_app`).

    Raises:
        CorpusError: the packaged corpus is inconsistent.
        StoreError: the database cannot be opened.
    """
    return build_app(store, verifier=verifier).server


def open_store(path: str | Path | None) -> Store:
    """Open the store at ``path`` or at the default location.

    Raises:
        StoreError: the database cannot be opened.
    """
    return Store(path)
