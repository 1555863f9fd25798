"""Results explained (issue 13.4): every seat's points card by card, special card by special card, and chips."""

from __future__ import annotations

from club_agentes.engine.core import RandomBot, play
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.scoring import score
from club_agentes.rules_corpus import load_corpus

from tests.engine.se_vende.helpers import DECK, GAME, arrange, choose, num, place_none_for


def test_the_worked_scoring_example_is_broken_down() -> None:
    empire = num("imperio-de-las-mareas")  # 2 PV per military world
    posts = [num("puesto-fronterizo", i) for i in range(2)]
    fort, ring = num("fortaleza-ambar"), num("anillo-de-hielo")
    state = arrange(
        2, tableau={0: [empire, *posts, fort, ring], 1: [num("concilio-de-arquitectos")]}, chips={0: 5}, turn_limit=1
    )
    choose(state, {0: "desarrollar", 1: "desarrollar"})
    place_none_for(state, (0, 1))
    result = GAME.result(state)
    assert result is not None
    b = result.breakdown[0]
    assert b.seat == 0 and b.unit == "VP" and b.total == 17 == result.scores[0]
    tableau = [x for x in b.lines if x.label.startswith("tableau:")]
    assert [x.amount for x in tableau] == [float(DECK.defs[c].vp) for c in state.tableau[0]]
    assert tableau[0].label == f"tableau: development Imperio de las Mareas ({DECK.ids[empire]})"
    (special,) = [x for x in b.lines if x.label.startswith("special:")]
    assert special.amount == 6 and special.rule_id == R.card_section("imperio-de-las-mareas")
    assert "2 PV por cada mundo militar de tu tableau x 3" in special.label
    assert b.lines[-1].label == "victory chips" and b.lines[-1].amount == 5 and b.lines[-1].rule_id == R.CHIPS

    text = GAME.render(GAME.view(state, 1))
    assert "Seat 0: 17 VP = tableau 6 + special 6 (Imperio de las Mareas (" in text and "+ chips 5." in text
    data = GAME.view(state, None)["result"]["breakdown"][0]
    assert (data["tableau"], data["special"], data["chips"], data["total"]) == (6, 6, 5, 17)


def test_every_finished_game_explains_every_seat_score() -> None:
    corpus = load_corpus()
    for seats, seed in ((2, 11), (3, 12), (4, 13)):
        record = play(GAME, GAME.make_config(seats), seed, [RandomBot() for _ in range(seats)])
        state = record.state
        result = GAME.result(state)
        assert result is not None and len(result.breakdown) == seats
        for seat, b in enumerate(result.breakdown):
            assert b.seat == seat and b.total == result.scores[seat] == score(state, seat)
            assert sum(x.amount for x in b.lines) == b.total
            assert sum(x.label.startswith("tableau:") for x in b.lines) == len(state.tableau[seat])
            specials = [c for c in state.tableau[seat] if DECK.defs[c].special]
            assert sum(x.label.startswith("special:") for x in b.lines) == len(specials)
            for line in b.lines:
                assert line.rule_id is not None and corpus.has(line.rule_id) and line.rule_id in GAME.rule_ids()
        assert R.SCORING in result.reason or R.TIES in result.reason
        lines = GAME.render(GAME.view(state, 0)).splitlines()
        assert sum(line.startswith("  Seat ") for line in lines) == seats
