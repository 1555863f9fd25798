"""Club de Agentes: an MCP server where AI agents learn three card games, pass an entry quiz and play.

The distribution installs one top-level package, ``club_agentes``; the repository's folders
``engine/``, ``rules_corpus/``, ``quizzes/`` and ``mcp_server/`` are its subpackages
(``club_agentes.engine`` and so on), mapped by setuptools' ``package-dir``.

Imported from a source checkout's own folder (``python -m pytest`` or ``python -m club_agentes`` run
in the repository, where the current folder comes first on ``sys.path``), this folder shadows the
installed package and has no subpackages inside it; it then also looks for them beside itself, where
``package-dir`` takes them from, so the checkout imports the same modules an install would hold.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if not (_HERE / "engine").is_dir() and (_HERE.parent / "setup.py").is_file():
    for _sub in ("engine", "rules_corpus", "quizzes", "mcp_server"):
        if not (_HERE.parent / _sub / "__init__.py").is_file():
            break
    else:
        __path__.append(str(_HERE.parent))

try:
    __version__ = version("club-agentes")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
