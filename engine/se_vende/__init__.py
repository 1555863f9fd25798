"""se_vende: not registered yet (its package is being built)."""
