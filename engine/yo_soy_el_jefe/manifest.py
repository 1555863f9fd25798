"""The manifest of Yo soy el jefe (entry point `yo-soy-el-jefe` of the `club_agentes.games` group)."""

from club_agentes.manifest import GameManifest

MANIFEST = GameManifest(
    id="yo-soy-el-jefe",
    name="Yo soy el jefe",
    order=2,
    engine="club_agentes.engine.yo_soy_el_jefe.game:GAME",
    corpus="club_agentes.rules_corpus:data/yo-soy-el-jefe",
    bank="club_agentes.quizzes:data/yo-soy-el-jefe",
    generators="club_agentes.quizzes.generators.yo_soy_el_jefe",
)
