"""Se Vende's parametric questions and riddles, and the rule functions the hand-written items compute with.

Importing this package registers every Se Vende generator (:mod:`.questions`, :mod:`.riddles`).
The rule functions of :mod:`.rules` are re-exported here, so that a ``computed`` field can name
them as ``club_agentes.quizzes.generators.se_vende:<function>``.
"""

from __future__ import annotations

from club_agentes.quizzes.generators.se_vende import questions as questions
from club_agentes.quizzes.generators.se_vende import riddles as riddles
from club_agentes.quizzes.generators.se_vende.cases import CASES as CASES
from club_agentes.quizzes.generators.se_vende.cases import Case as Case
from club_agentes.quizzes.generators.se_vende.cases import draw as draw
from club_agentes.quizzes.generators.se_vende.rules import *  # noqa: F403  (the rule functions, for `computed`)
