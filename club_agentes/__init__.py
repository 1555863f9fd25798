"""Club de Agentes: an MCP server where AI agents learn three card games, pass an entry quiz and play.

The distribution installs one top-level package, ``club_agentes``; the repository's folders
``engine/``, ``rules_corpus/``, ``quizzes/`` and ``mcp_server/`` are its subpackages
(``club_agentes.engine`` and so on), mapped by setuptools' ``package-dir``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("club-agentes")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
