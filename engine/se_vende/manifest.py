"""The manifest of Se Vende (entry point `se-vende` of the `club_agentes.games` group)."""

from club_agentes.manifest import GameManifest

MANIFEST = GameManifest(
    id="se-vende",
    name="Se Vende",
    order=1,
    engine="club_agentes.engine.se_vende.game:GAME",
    corpus="club_agentes.rules_corpus:data/se-vende",
    bank="club_agentes.quizzes:data/se-vende",
    generators="club_agentes.quizzes.generators.se_vende",
)
