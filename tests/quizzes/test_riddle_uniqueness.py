"""Every drawn acertijo's clues fit exactly its answer among everything the answer could be.

Baseline round 3 found Market Fortune entry riddles whose clues fit several strategies: the riddle set had
dropped some cards as answers (two cards with the same rules, cards no clue singles out) and then checked
its clues only against the answers left. Here each riddle is checked against the whole catalogue its
clues speak of: every strategy card of the engine's data, every military world or cost-6 development of
Se Vende's card designs, every deal card of Yo soy el jefe, every term of the answer's vocabulary.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache

import club_agentes.quizzes.generators  # noqa: F401  (registers every game's templates)
import pytest
from club_agentes.engine.core import Rng
from club_agentes.engine.market_fortune.components import STRATEGIES
from club_agentes.quizzes.acertijos import RIDDLE_SETS, draw_riddle
from club_agentes.quizzes.bank import Bank, load_bank
from club_agentes.quizzes.generators.se_vende.common import designs
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import DEAL_CARDS
from club_agentes.quizzes.model import Redraw

DRAWS = 400


@cache
def bank() -> Bank:
    return load_bank()


def catalogue(key: str) -> set[Hashable]:
    """Everything the answer of the riddle set ``key`` could be, from the engine's data and the vocabulary."""
    game = key.split("/")[0]
    rs = RIDDLE_SETS[key]
    out: set[Hashable] = set(rs.pool)
    if rs.type == "term":
        out |= set(bank().game(game).vocabularies[rs.vocabulary].term_names)
    if key.startswith("market-fortune/acertijo-estrategia"):
        out |= {s.name for s in STRATEGIES}
    if key == "se-vende/acertijo-mundo-militar":
        out |= {d.name for d in designs().values() if d.defence}
    if key == "se-vende/acertijo-coste-6":
        out |= {d.name for d in designs().values() if d.type == "development" and d.cost == 6}
    if key == "yo-soy-el-jefe/acertijo-carta-de-negociacion":
        out |= {c.number for c in DEAL_CARDS}
    return out


def test_the_market_fortune_strategy_riddles_are_checked_against_every_card() -> None:
    for key in ("market-fortune/acertijo-estrategia", "market-fortune/acertijo-estrategia-descrita"):
        assert set(RIDDLE_SETS[key].pool) >= {s.name for s in STRATEGIES}, key


@pytest.mark.parametrize("key", sorted(RIDDLE_SETS))
def test_every_drawn_riddle_fits_exactly_its_answer_in_the_whole_catalogue(key: str) -> None:
    rs = RIDDLE_SETS[key]
    every = sorted(catalogue(key), key=str)
    rng = Rng(24)
    drawn = 0
    for _ in range(DRAWS):
        try:
            riddle = draw_riddle(rs, rng)
        except Redraw:
            continue
        drawn += 1
        rules = [c for c in riddle.clues if not c.flavour]
        fits = [s for s in every if all(s in c.holds for c in rules)]
        assert fits == [riddle.subject], (key, [c.text for c in rules], fits)
    assert drawn >= DRAWS // 2, f"{key}: only {drawn} of {DRAWS} draws made a riddle"
