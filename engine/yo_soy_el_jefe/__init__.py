"""Yo soy el jefe: the negotiation game, refereed one decision at a time.

The engine instance is :data:`club_agentes.engine.yo_soy_el_jefe.game.GAME`; the game manifest
(:mod:`.manifest`) names it, and :func:`club_agentes.engine.core.registry.get_game` loads it.
Component values other packages need are plain functions of :mod:`.components`.
"""
