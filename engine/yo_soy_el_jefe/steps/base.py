"""What Yo soy el jefe's steps share beyond the core step kit (:mod:`club_agentes.engine.core.steps`).

Every step is a core :class:`~club_agentes.engine.core.steps.Step`; this module keeps only the game's shared
events: those that say the same every time they happen (a bid, a pass, a price named...), built once.
"""

from __future__ import annotations

from club_agentes.engine.core import SharedEvents

SAID = SharedEvents(65536)
"""Events that say the same every time they happen (a bid, a pass, a price named...), by what they say: an
:class:`Event` is immutable, so each is built once (see :func:`said`)."""
said = SAID.keep
"""Keep ``event`` under ``key`` in :data:`SAID` (emptied when it holds too many) and return it."""
