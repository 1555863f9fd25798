"""Yo soy el jefe: parametric questions and acertijos whose answers come from the engine.

One module per rule area, each registering :class:`~club_agentes.quizzes.model.Template` records:
:mod:`.turn` (rolling, the marker, taking cards), :mod:`.influence` (travel, hire and stop cards),
:mod:`.deals` (closing, failing, the payout, the next turn, the end die), :mod:`.riddles`
(acertijos) and :mod:`.practice` (items only a written ruling decides: practice and the tutor).
:mod:`.common` names the sections and the people at the table; :mod:`.table` drives a position
of the engine's scenario builder through its public API. Importing this package registers every
template.
"""

from __future__ import annotations

from club_agentes.quizzes.generators.yo_soy_el_jefe import deals, influence, practice, riddles, turn

__all__ = ["deals", "influence", "practice", "riddles", "turn"]
