"""market_fortune: not registered yet (its package is being built)."""
