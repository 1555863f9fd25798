"""Yo soy el jefe practice templates: what only a written ruling decides. None reaches an entry paper.

* ``quien-coloca-el-marcador`` (ruling primer-jugador-y-marcador: which neighbour is "a su derecha");
* ``pago-a-dos-jugadores`` (ruling dos-jugadores: the two-player payment, rounded down).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.yo_soy_el_jefe.scenario import position
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import (
    CASILLAS_DATOS,
    COLOURS,
    DOS,
    GAME,
    NEGOCIACION_DATOS,
    PRIMERO,
    RULINGS,
    SPACES,
    deals_done,
    seating,
    table_words,
)
from club_agentes.quizzes.generators.yo_soy_el_jefe.table import Table, engine
from club_agentes.quizzes.model import Ask, Template, register
from club_agentes.quizzes.wording import join


@dataclass(frozen=True)
class Opening:
    """A new game's table and its first player."""

    names: tuple[str, ...]
    first: int


def _draw_opening(rng: Rng) -> Opening:
    seats = 4 + rng.below(3)
    return Opening(tuple(seating(rng, seats)), rng.below(seats))


def _ask_opening(o: Opening) -> Ask:
    prompt = (
        f"Empieza una partida de Yo soy el jefe entre {len(o.names)} jugadores, {table_words(o.names)}. Se decide "
        f"que {o.names[o.first]} será quien juegue primero. ¿Quién coloca el marcador de dólares?"
    )
    n = len(o.names)
    picks = [(o.first - 1) % n, (o.first + 1) % n, o.first, (o.first + 2) % n]
    return Ask(prompt, "choice", options=tuple((o.names[s], o.names[s]) for s in picks), sections=(PRIMERO,))


def _answer_opening(o: Opening) -> str:
    st = engine().new_game(engine().make_config(len(o.names), {"first_player": o.first}), 1)
    return o.names[engine().pending(st).seats[0]]


def _explain_opening(o: Opening, answer: Hashable) -> str:
    return f"Lo coloca {answer}, el jugador a la derecha de quien empieza (el turno pasa hacia la izquierda)."


register(
    Template(
        GAME,
        "quien-coloca-el-marcador",
        "question",
        (PRIMERO,),
        _draw_opening,
        _ask_opening,
        _answer_opening,
        _explain_opening,
        ruling=RULINGS + "primer-jugador-y-marcador",
    )
)


@dataclass(frozen=True)
class TwoPlayer:
    """Two players; the boss lacks some colours of the space, which the opponent holds."""

    names: tuple[str, ...]
    space: int
    done: int
    missing: int


def _draw_two(rng: Rng) -> TwoPlayer:
    space = SPACES[rng.below(len(SPACES))]
    needed = len(space.mandatory) + space.optional_needed
    return TwoPlayer(tuple(seating(rng, 2)), space.number, rng.below(10), 1 + rng.below(max(1, needed - 1)))


def _two_table(t: TwoPlayer) -> Table:
    space = SPACES[t.space - 1]
    needed = [*space.mandatory, *space.optional[: space.optional_needed]]
    owner = {c: (1 if i < t.missing else 0) for i, c in enumerate(needed)}
    for c in COLOURS:
        owner.setdefault(c, 1)
    covered = [s for s in range(1, 17) if s != t.space][: t.done]
    st = position(2, {"two_player_rules": True}, owner=owner, deals_done=t.done, covered=covered, marker=t.space)
    return Table.adopt(st, 2)


def _ask_two(t: TwoPlayer) -> Ask:
    a, b = t.names
    space = SPACES[t.space - 1]
    needed = [*space.mandatory, *space.optional[: space.optional_needed]]
    theirs = needed[: t.missing]
    prompt = (
        f"{a} y {b} juegan a Yo soy el jefe con las reglas para dos jugadores; {deals_done(t.done)}. {a} dice "
        f"«¡Vamos a negociar!» en la casilla {t.space} y cierra el trato usando, sin pedir permiso, "
        f"{'la carta' if t.missing == 1 else 'las cartas'} de inversor de color {join(theirs)} de {b}. ¿Cuántos "
        f"millones le paga {a} a {b}?"
    )
    return Ask(prompt, "integer", unit="M", sections=(DOS, NEGOCIACION_DATOS, CASILLAS_DATOS))


def _answer_two(t: TwoPlayer) -> int:
    table = _two_table(t)
    table.negotiate()
    table.close()
    deal = table.view(0)["last_deal"]
    return sum(int(p[3]) for p in deal["paid"] if p[0] == 1)


def _explain_two(t: TwoPlayer, answer: Hashable) -> str:
    return f"Paga {answer}M: por cada carta del rival, el pago total dividido entre los inversores que pide la casilla."


register(
    Template(
        GAME,
        "pago-a-dos-jugadores",
        "question",
        (DOS,),
        _draw_two,
        _ask_two,
        _answer_two,
        _explain_two,
        ruling=RULINGS + "dos-jugadores",
    )
)
