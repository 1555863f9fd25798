"""Se Vende: secret phase selection, an original card set, bots.

The engine instance is :data:`club_agentes.engine.se_vende.game.GAME`; the game manifest
(:mod:`.manifest`) names it, and :func:`club_agentes.engine.core.registry.get_game` loads it.
"""
