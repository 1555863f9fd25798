"""Every setting is read through ``mcp_server/settings.py`` (issue 26 point 6): no other module of the server
reads the environment, and the table service's variables keep their names and meaning."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from club_agentes.mcp_server import settings
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import TableError, TableSettings

SERVER = Path(__file__).resolve().parents[2] / "mcp_server"


def environment_reads(path: Path) -> list[int]:
    """Lines of ``path`` that read ``os.environ`` or call ``os.getenv``."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv"):
            lines.append(node.lineno)
    return lines


def test_only_settings_py_reads_the_environment() -> None:
    readers = {
        str(p.relative_to(SERVER)): lines
        for p in sorted(SERVER.rglob("*.py"))
        if p.name != "settings.py" or p.parent != SERVER
        if (lines := environment_reads(p))
    }
    assert readers == {}, f"read the environment through mcp_server/settings.py: {readers}"
    assert environment_reads(SERVER / "settings.py"), "settings.py reads the environment"


def test_table_settings_keep_their_variables() -> None:
    assert settings.TABLE_SETTING_ENV["bot_workers"] == "CLUB_AGENTES_BOT_WORKERS"
    env = {"CLUB_AGENTES_BOT_WORKERS": " 0 ", "CLUB_AGENTES_DECISION_TIMEOUT_S": "none", "CLUB_AGENTES_IDLE_S": "9"}
    assert settings.table_setting_values(env) == {"bot_workers": "0", "decision_timeout_s": "none"}
    got = TableSettings.from_env(env)
    assert (got.bot_workers, got.decision_timeout_s, got.idle_s) == (0, None, TableSettings().idle_s)
    assert TableSettings.from_env({"CLUB_AGENTES_LIVE_IDLE_S": "12.5"}).idle_s == 12.5
    with pytest.raises(TableError, match="CLUB_AGENTES_SNAPSHOT_EVERY must be a number"):
        TableSettings.from_env({"CLUB_AGENTES_SNAPSHOT_EVERY": "often"})


def test_the_store_default_location_comes_from_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings.default_db_path({"XDG_DATA_HOME": "/data"}) == Path("/data/club-agentes/club.sqlite3")
    assert settings.default_db_location({"CLUB_AGENTES_DB": "postgresql://h/db"}) == "postgresql://h/db"
    assert settings.default_db_schema({}) is None and settings.default_db_schema({"CLUB_AGENTES_DB_SCHEMA": "s"}) == "s"
    monkeypatch.setenv("CLUB_AGENTES_DB", str(tmp_path / "here.sqlite3"))
    store = Store()
    try:
        assert store.path == str(tmp_path / "here.sqlite3") and store.tables.path == store.path
    finally:
        store.close()
