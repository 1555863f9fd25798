"""Parametric question and riddle generators, one module per game.

Importing this package imports every per-game generator module that exists, and each
module registers its generators with :func:`quizzes.model.generator`. A module that
does not exist yet is skipped; one that exists but fails to import raises as usual.
"""

from __future__ import annotations

import importlib
import importlib.util

GENERATOR_MODULES: tuple[str, ...] = (
    "quizzes.generators.market_fortune",
    "quizzes.generators.se_vende",
    "quizzes.generators.yo_soy_el_jefe",
)

for _module in GENERATOR_MODULES:
    if importlib.util.find_spec(_module) is not None:
        importlib.import_module(_module)
