"""yo_soy_el_jefe: not registered yet (its package is being built)."""
