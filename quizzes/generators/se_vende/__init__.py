"""Se Vende: parametric questions and acertijos whose answers come from the engine.

One module per rule area, each registering :class:`~club_agentes.quizzes.model.Template` records:
:mod:`.placing` (Desarrollar and Asentar: costs, discounts, Militar), :mod:`.goods` (Consumir and
Producir: selling, consuming, producing), :mod:`.scoring` (victory points), :mod:`.riddles`
(acertijos) and :mod:`.practice` (items only a written ruling decides, and items a reader of the
well-known game Se Vende follows answers unread: practice only). :mod:`.common` holds the engine
driver and the Spanish names of cards. Importing this package registers every template.
"""

from __future__ import annotations

from club_agentes.quizzes.generators.se_vende import goods, placing, practice, riddles, scoring

__all__ = ["goods", "placing", "practice", "riddles", "scoring"]
