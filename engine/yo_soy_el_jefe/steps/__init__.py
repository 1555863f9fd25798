"""Yo soy el jefe's steps: one module per step, each holding its checks, its listing and its effects.

===============  ==================================================================================
module           steps
===============  ==================================================================================
``setup``        section 2: the deal and the dollar marker
``turn``         section 3: negotiate, roll, draw
``hand_limit``   section 3: hire sets and discards over the hand limit
``negotiation``  sections 3-1, 3-2, 3-2-1: the open negotiation: family cards, prices, agreements
``influence``    section 3-2-2: travel cards, hire sets, boss cards and the stop window
``closing``      sections 3-3 and 4: closing or failing a deal and the end of the game
``deal``         what the negotiation and the closing share: the group, the missing investors, lapses
===============  ==================================================================================

Every step is a core :class:`~club_agentes.engine.core.steps.Step`: for each move type it
accepts, one check (a refusal citing its rule, or ``None``) and one effect. Listing the legal moves
filters the step's candidate moves through the same checks that ``apply`` runs before an effect, so the
two cannot disagree. :mod:`club_agentes.engine.yo_soy_el_jefe.flow` holds the order of steps.
"""
