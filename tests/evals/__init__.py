"""Tests of the inspect-ai evaluations (``club_agentes.evals``), run with inspect's ``mockllm`` model."""
