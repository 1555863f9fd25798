"""Se Vende's victory points (se-vende/puntuacion): printed points, chips and the cost-6 developments.

* ``puntos-del-tableau``: a tableau named card by card (with a cost-6 development), goods and
  chips; how many victory points would it score if the game ended now? The printed cards give
  each card's points and each cost-6 development's formula; the engine's scoring function counts.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.scenario import card_id
from club_agentes.engine.se_vende.scoring import score
from club_agentes.quizzes.generators.se_vende.common import (
    GAME,
    PUNTUACION,
    STARTS,
    design,
    keys_where,
    names,
    section,
    table_state,
)
from club_agentes.quizzes.model import Ask, Redraw, Template, register
from club_agentes.quizzes.wording import count

SIXES = tuple(keys_where(lambda d: d.type == "development" and d.cost == 6))


@dataclass(frozen=True)
class Tableau:
    """Your tableau, the worlds holding a good, and your chips (in victory points)."""

    tableau: tuple[str, ...]
    goods: tuple[str, ...]
    chips: int


def _draw(rng: Rng) -> Tableau:
    six = list(SIXES)
    rng.shuffle(six)
    others = [k for k in keys_where(lambda d: d.cost < 6 or d.type == "world") if design(k).copies == 1]
    rng.shuffle(others)
    tableau = [rng.choice(list(STARTS)), *six[: 1 + rng.below(2)], *others[: 3 + rng.below(5)]]
    if len(set(tableau)) != len(tableau):
        raise Redraw
    holders = [k for k in tableau if design(k).world in ("windfall", "production")]
    goods = tuple(k for k in holders if rng.below(2) == 0)
    return Tableau(tuple(tableau), goods, rng.below(12))


def _ask(t: Tableau) -> Ask:
    goods = (
        f"{names(t.goods)} {'tiene' if len(t.goods) == 1 else 'tienen'} un bien"
        + ("" if len(t.goods) == 1 else " cada uno")
        if t.goods
        else "ninguno de tus mundos tiene bienes"
    )
    chips = (
        f"tienes fichas de victoria por valor de {count(t.chips, 'punto', 'puntos')}" if t.chips else "no tienes fichas"
    )
    prompt = (
        f"En una partida de Se Vende, tu tableau está formado por {names(t.tableau)}; {goods}, y {chips}. Si la "
        "partida terminara ahora, ¿cuántos puntos de victoria tendrías?"
    )
    return Ask(prompt, "integer", sections=(PUNTUACION, *(section(k) for k in t.tableau)))


def _answer(t: Tableau) -> int:
    st = table_state(t.tableau, (), 2, goods=[card_id(k) for k in t.goods], chips={0: t.chips})
    return score(st, 0)


def _explain(t: Tableau, answer: Hashable) -> str:
    return (
        f"Tendrías {answer} PV: los puntos impresos de tus cartas, tus fichas y lo que cuentan tus desarrollos de "
        "coste 6."
    )


TABLEAU = register(Template(GAME, "puntos-del-tableau", "question", (PUNTUACION,), _draw, _ask, _answer, _explain))
