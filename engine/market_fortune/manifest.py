"""The manifest of Market Fortune (entry point `market-fortune` of the `club_agentes.games` group)."""

from club_agentes.manifest import GameManifest

MANIFEST = GameManifest(
    id="market-fortune",
    name="Market Fortune",
    order=0,
    engine="club_agentes.engine.market_fortune.game:GAME",
    corpus="club_agentes.rules_corpus:data/market-fortune",
    bank="club_agentes.quizzes:data/market-fortune",
    generators="club_agentes.quizzes.generators.market_fortune",
)
