"""Rules engines of Club de Agentes: pure Python, no I/O, no MCP.

``engine.core`` holds the decision model shared by every game; each game lives in
its own package (``engine.market_fortune``, ...) and registers itself in
``engine.core.registry``. Use :func:`engine.core.registry.get_game` to reach a game
by id; it imports the game packages on first use.
"""
