"""The one list of games: the ``club_agentes.games`` entry-point group.

Each game's distribution declares one entry point in that group, named by the game id and
pointing at a :class:`GameManifest` (for this distribution, in ``pyproject.toml``)::

    [project.entry-points."club_agentes.games"]
    market-fortune = "club_agentes.engine.market_fortune.manifest:MANIFEST"

The engine registry, the rules corpus, the question bank and the MCP tool descriptions all read
their game list from :func:`manifests`. A manifest holds only names (module paths and data
folders), so reading it imports no engine code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import import_module, resources
from importlib.abc import Traversable
from importlib.metadata import entry_points
from typing import Any

GROUP = "club_agentes.games"


class ManifestError(Exception):
    """A game's entry point or manifest is missing or inconsistent (the message names it)."""


@dataclass(frozen=True)
class GameManifest:
    """What the platform needs to know about one game.

    Attributes:
        id: the game id, a lowercase slug (e.g. ``"market-fortune"``); it must equal the
            entry point's name.
        name: the game's name as its rulebook writes it (e.g. ``"Market Fortune"``).
        order: position in every list shown to users (ascending).
        engine: ``"module:attribute"`` of the :class:`~club_agentes.engine.core.model.Game`
            instance, e.g. ``"club_agentes.engine.market_fortune.game:GAME"``.
        corpus: ``"package:folder"`` holding ``rulebook.txt``, ``sections.toml``,
            ``glossary.toml`` and ``authored/`` (rulings and component texts).
        bank: ``"package:folder"`` of the hand-written question bank (``questions.toml``,
            ``riddles.toml``...), or ``None`` when the game has none.
        generators: the module whose import registers the game's parametric quiz items, or
            ``None``.
    """

    id: str
    name: str
    order: int
    engine: str
    corpus: str
    bank: str | None = None
    generators: str | None = None

    def load_engine(self) -> Any:
        """Import and return the game's engine instance.

        Raises:
            ManifestError: the module or attribute does not exist.
        """
        module, _, attr = self.engine.partition(":")
        try:
            return getattr(import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise ManifestError(f"game {self.id!r}: engine {self.engine!r} cannot be loaded ({exc})") from exc

    def corpus_dir(self) -> Traversable:
        """Return the folder of the game's rules corpus."""
        return _folder(self.corpus)

    def bank_dir(self) -> Traversable | None:
        """Return the folder of the game's question bank, or ``None``."""
        return _folder(self.bank) if self.bank else None


def _folder(spec: str) -> Traversable:
    package, _, folder = spec.partition(":")
    path = resources.files(package)
    for part in folder.split("/"):
        if part:
            path = path.joinpath(part)
    return path


@cache
def manifests() -> tuple[GameManifest, ...]:
    """Return every installed game's manifest, in display order.

    Raises:
        ManifestError: an entry point does not load, is not a manifest, or its name is not its id.
    """
    found: list[GameManifest] = []
    for ep in entry_points(group=GROUP):
        try:
            m = ep.load()
        except (ImportError, AttributeError) as exc:
            raise ManifestError(f"entry point {ep.name!r} of {GROUP} cannot be loaded: {exc}") from exc
        if not isinstance(m, GameManifest):
            raise ManifestError(f"entry point {ep.name!r} of {GROUP} is not a GameManifest")
        if m.id != ep.name:
            raise ManifestError(f"entry point {ep.name!r} of {GROUP} holds the manifest of {m.id!r}")
        found.append(m)
    if not found:
        raise ManifestError(f"no game is installed: the entry-point group {GROUP} is empty (install club-agentes)")
    return tuple(sorted(found, key=lambda m: (m.order, m.id)))


def game_ids() -> tuple[str, ...]:
    """Return the installed game ids, in display order."""
    return tuple(m.id for m in manifests())


def manifest(game_id: str) -> GameManifest | None:
    """Return the manifest of ``game_id``, or ``None`` if no such game is installed."""
    return next((m for m in manifests() if m.id == game_id), None)
