"""Market Fortune: parametric questions and acertijos whose answers come from the engine.

One module per rule area, each registering :class:`~club_agentes.quizzes.model.Template` records:
:mod:`.turn` (the turn, the rule of 8, Momentum), :mod:`.strategies` (colours, combat and the printed
cards), :mod:`.victory` (declaring, optimisation, the modes), :mod:`.riddles` (acertijos) and
:mod:`.practice` (items only a written ruling decides: practice and the tutor, never an entry paper).
:mod:`.common` holds the engine driver and the Spanish names of cards. Importing this package
registers every template.
"""

from __future__ import annotations

from club_agentes.quizzes.generators.market_fortune import practice, riddles, strategies, turn, victory

__all__ = ["practice", "riddles", "strategies", "turn", "victory"]
