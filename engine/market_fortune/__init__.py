"""Market Fortune: components as data, the rules engine in three modes, views and bots.

The engine instance is :data:`club_agentes.engine.market_fortune.game.GAME`; the game manifest
(:mod:`.manifest`) names it, and :func:`club_agentes.engine.core.registry.get_game` loads it.
"""
