"""Market Fortune practice templates: what only a written ruling decides, and what a reader guesses unread.

None of these reaches an entry paper. Each ruling template names the ruling that decides it
(``Template.ruling``); practice shows that ruling with the answer.

* ``primer-jugador`` (rulebook, but guessable without reading it: the odd roll out starts);
* ``primer-jugador-con-empate`` (ruling primer-jugador: several players roll −);
* ``verde-en-el-conteo`` (ruling verdes-y-amarillas: a green's bonus counts towards the 25M);
* ``construir-con-menos-de-8`` (rulings construir-y-descartar and regla-de-8-como-limite);
* ``fortuna-empatados-a-la-cola`` (ruling terminos-del-mercado: a tie for the fewest investments).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.market_fortune.scenario import position, rig_die
from club_agentes.quizzes.generators.market_fortune.common import (
    BY_NAME,
    CIERRE,
    FORTUNA,
    GAME,
    OCHO,
    PREPARACION,
    RULINGS,
    TURNO,
    ULTIMO,
    VERDE,
    apply,
    building_cards,
    card,
    deciding,
    end_turn,
    engine,
    investment_cards,
    legal,
    player,
    strategy_id,
    value,
)
from club_agentes.quizzes.model import Ask, Redraw, Template, register
from club_agentes.quizzes.wording import count, join, people

_ROLL = re.compile(r"seat (\d+) ([+−])")


@dataclass(frozen=True)
class Rolls:
    """The first-player rolls of a real game: one dict seat -> face per round, and the table's names."""

    names: tuple[str, ...]
    rounds: tuple[tuple[tuple[int, str], ...], ...]
    seed: int


def _draw_rolls(rng: Rng, *, tie: bool) -> Rolls:
    seats = 3 + rng.below(2)
    seed = rng.below(1 << 30)
    _, events = engine().start(engine().make_config(seats, {}), seed)
    rounds = tuple(
        tuple((int(s), face) for s, face in _ROLL.findall(e.text)) for e in events if e.text.startswith("first-player")
    )
    if (len(rounds) > 1) != tie or len(rounds) > 3 or any(not r for r in rounds):
        raise Redraw
    return Rolls(tuple(people(rng, seats)), rounds, seed)


def _ask_rolls(r: Rolls) -> Ask:
    said = []
    for k, rolls in enumerate(r.rounds, 1):
        faces = join([f"{r.names[s]} saca {face}" for s, face in rolls])
        said.append(faces if len(r.rounds) == 1 else f"en la tirada {k}, {faces}")
    prompt = (
        f"Empieza una partida de Market Fortune entre {join(list(r.names))}, sentados en ese orden en sentido "
        f"horario. Para decidir quién empieza se lanza el Dado Fortune: {'; '.join(said)}. ¿Quién juega el primer "
        "turno?"
    )
    options = [(n, n) for n in r.names[:3]]
    if len(options) < 4:
        options.append(("again", "Nadie todavía: hay que volver a lanzar"))
    if not any(k == _first(r) for k, _ in options):
        options[0] = (_first(r), _first(r))
    return Ask(prompt, "choice", options=tuple(options[:4]), sections=(PREPARACION,))


def _first(r: Rolls) -> str:
    state, _ = engine().start(engine().make_config(len(r.names), {}), r.seed)
    seat = deciding(state)
    if seat is None:
        raise Redraw
    return r.names[seat]


def _explain_rolls(r: Rolls, answer: Hashable) -> str:
    return f"Empieza {answer}: en Market Fortune empieza quien saca −, no quien saca +."


FIRST = register(
    Template(
        GAME,
        "primer-jugador",
        "question",
        (PREPARACION,),
        lambda rng: _draw_rolls(rng, tie=False),
        _ask_rolls,
        _first,
        _explain_rolls,
        entry=False,
    )
)
FIRST_TIE = register(
    Template(
        GAME,
        "primer-jugador-con-empate",
        "question",
        (PREPARACION,),
        lambda rng: _draw_rolls(rng, tie=True),
        _ask_rolls,
        _first,
        _explain_rolls,
        ruling=RULINGS + "primer-jugador",
    )
)

# --------------------------------------------------------------------------- a green in the final count

GREENS = ("Innovación", "Rendimiento Máximo", "Inversión a la Baja")


@dataclass(frozen=True)
class Green:
    """Four investments (the last formed now), a green attached to one of the first three."""

    pairs: tuple[tuple[str, str], ...]
    green: str
    on: int


def _draw_green(rng: Rng) -> Green:
    pairs = tuple(investment_cards(rng, 4))
    if not 21 <= sum(value(a) + value(r) for a, r in pairs) <= 26:
        raise Redraw
    return Green(pairs, rng.choice(list(GREENS)), rng.below(3))


def _ask_green(g: Green) -> Ask:
    listed = "; ".join(
        f"{card(a)} + {card(r)}" + (f", con {g.green} unida" if k == g.on else "") for k, (a, r) in enumerate(g.pairs)
    )
    prompt = (
        f"En modo Fortuna, formas tu cuarta inversión y declaras victoria. Tus inversiones son: {listed}. "
        "¿Cuántos millones suma tu portafolio en el conteo final?"
    )
    return Ask(prompt, "integer", unit="M", sections=(CIERRE, VERDE, BY_NAME[g.green].section))


def _answer_green(g: Green) -> int:
    invs = [(a, r, strategy_id(g.green) if k == g.on else None) for k, (a, r) in enumerate(g.pairs[:3])]
    state = position(2, investments={0: invs}, hands={0: g.pairs[3]}, strategy_top=["MF-E-ROBO-1"])
    rig_die(state, True)
    apply(state, 0, f"risk {g.pairs[3][0]} {g.pairs[3][1]}")
    apply(state, 0, "declare")
    if deciding(state) == 0 and "reveal" in legal(state, 0):
        apply(state, 0, "reveal")
    result = engine().result(state)
    if result is None:
        raise Redraw  # the declaration failed: ask about portfolios that win
    return int(result.scores[0])


def _explain_green(g: Green, answer: Hashable) -> str:
    return f"Suma {answer}M: los valores de las cartas y, si se cumple su criterio, los 3M de {g.green}."


GREEN = register(
    Template(
        GAME,
        "verde-en-el-conteo",
        "question",
        (CIERRE, VERDE),
        _draw_green,
        _ask_green,
        _answer_green,
        _explain_green,
        ruling=RULINGS + "verdes-y-amarillas",
    )
)

# --------------------------------------------------------------------------- Construir with fewer than 8


@dataclass(frozen=True)
class Short:
    """You hold fewer than 8 building cards (after an attack) and choose Construir."""

    investments: int
    hand: tuple[str, ...]


def _draw_short(rng: Rng) -> Short:
    k = rng.below(3)
    hand = tuple(building_cards(rng, 8 - 2 * k - 1 - rng.below(3)))
    return Short(k, hand)


def _ask_short(s: Short) -> Ask:
    invs = count(
        s.investments, "inversión boca abajo", "inversiones boca abajo", feminine=True, zero="ninguna inversión"
    )
    have = f"tienes {invs}" if s.investments else "no tienes ninguna inversión"
    prompt = (
        f"En Market Fortune, después de un ataque {have} y {count(len(s.hand), 'carta', 'cartas', feminine=True)} "
        "de construcción en la mano, sin Estrategias. En tu turno eliges Construir y tomas la carta de arriba del "
        "mazo de Acciones. ¿Cuántas cartas de construcción tienes en la mano al terminar el turno?"
    )
    return Ask(prompt, "integer", sections=(TURNO, OCHO))


def _answer_short(s: Short) -> int:
    invs = investment_cards(Rng(len(s.hand)), s.investments, s.hand)
    state = position(2, hands={0: s.hand}, investments={0: invs})
    apply(state, 0, "build stock-deck")
    end_turn(state, 0)
    return int(player(state, 0)["hand"])


def _explain_short(s: Short, answer: Hashable) -> str:
    return "Con menos de 8 cartas de construcción, Construir toma 1 carta y no descarta ninguna."


SHORT = register(
    Template(
        GAME,
        "construir-con-menos-de-8",
        "question",
        (TURNO, OCHO),
        _draw_short,
        _ask_short,
        _answer_short,
        _explain_short,
        ruling=RULINGS + "construir-y-descartar",
    )
)

# --------------------------------------------------------------------------- Fortuna when tied for the fewest


@dataclass(frozen=True)
class TiedLast:
    """Investment counts (yours first) with you tied for the fewest; Fortuna rolls +."""

    names: tuple[str, ...]
    counts: tuple[int, ...]


def _draw_tied(rng: Rng) -> TiedLast:
    names = tuple(people(rng, 2 + rng.below(2)))
    low = rng.below(2)
    counts = [low, low, *(low + 1 + rng.below(2) for _ in names[1:])]
    return TiedLast(names, tuple(counts))


def _ask_tied(t: TiedLast) -> Ask:
    others = "; ".join(
        f"{n}, {count(c, 'inversión', 'inversiones', feminine=True, zero='ninguna')}"
        for n, c in zip(t.names, t.counts[1:], strict=True)
    )
    mine = (
        f"tienes {count(t.counts[0], 'inversión formada', 'inversiones formadas', feminine=True)}"
        if t.counts[0]
        else "no tienes inversiones formadas"
    )
    prompt = (
        f"En Market Fortune (modo Fortuna) {mine}, y tu única Estrategia es Fortuna; tus rivales tienen: {others}. "
        "Juegas Fortuna y el Dado Fortune sale +. ¿Cuántas Estrategias tomas?"
    )
    return Ask(prompt, "integer", sections=(ULTIMO, FORTUNA, f"{GAME}/cartas/fortuna"))


def _answer_tied(t: TiedLast) -> int:
    used: list[str] = []
    invs = {}
    for seat, c in enumerate(t.counts):
        pairs = investment_cards(Rng(seat + 7), c, used)
        used += [x for p in pairs for x in p]
        invs[seat] = pairs
    state = position(len(t.counts), investments=invs, strategies={0: [strategy_id("Fortuna")]})
    rig_die(state, True)
    apply(state, 0, f"play {strategy_id('Fortuna')}")
    return int(player(state, 0)["strategies"])


def _explain_tied(t: TiedLast, answer: Hashable) -> str:
    return f"Tomas {answer}: empatado con otros en el menor número de inversiones, vas de último igualmente."


TIED = register(
    Template(
        GAME,
        "fortuna-empatados-a-la-cola",
        "question",
        (ULTIMO, f"{GAME}/cartas/fortuna"),
        _draw_tied,
        _ask_tied,
        _answer_tied,
        _explain_tied,
        ruling=RULINGS + "terminos-del-mercado",
    )
)
