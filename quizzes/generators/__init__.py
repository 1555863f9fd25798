"""Parametric question and riddle generators, one module per game.

Importing this package imports the generator module each game manifest names
(:mod:`club_agentes.manifest`); each module registers its generators with
:func:`club_agentes.quizzes.model.register` (one :class:`~club_agentes.quizzes.model.Template` each).
"""

from __future__ import annotations

import importlib

from club_agentes.manifest import manifests

GENERATOR_MODULES: tuple[str, ...] = tuple(m.generators for m in manifests() if m.generators)

for _module in GENERATOR_MODULES:
    importlib.import_module(_module)
