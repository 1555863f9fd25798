"""Se Vende's steps: one module per step or phase, each holding its checks, its listing and its effects.

============  =================================================================
module        steps
============  =================================================================
``setup``     setup step 5: every seat discards two of its six cards
``choose``    the secret choice of action cards, and their reveal
``explore``   phase I, Explorar: keep cards from those drawn
``place``     phases II and III, Desarrollar and Asentar: place (sealed), then pay
``consume``   phase IV, Consumir: sell, use consume powers
``produce``   phase V, Producir: production, windfall production
``hand_limit``  the end of a round: discard down to ten cards
============  =================================================================

Every step is a :class:`~club_agentes.engine.se_vende.steps.base.Step`: for each move kind it
accepts, one check (a refusal citing its rule, or ``None``) and one effect. Listing the legal
moves filters the step's candidate moves through the same checks that ``apply`` runs before an
effect, so the two cannot disagree. :mod:`club_agentes.engine.se_vende.flow` runs the round
(which phase begins after which); the step modules never import it.
"""
