"""Market Fortune's turn (market-fortune/cap-2): the three actions, the rule of 8 and Momentum.

* ``mano-al-final-del-turno``: you take one action from a position with 8 building cards; how
  many cards do you hold when the turn ends? (Construir discards one, a failed Arriesgar gives
  the cards back, a successful one takes a strategy, Dominar discards nothing.)
* ``momentum``: the strategy a successful Arriesgar brings is a red you could otherwise play;
  when can you first play it?
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.market_fortune.scenario import position, rig_die
from club_agentes.engine.market_fortune.state import State
from club_agentes.quizzes.generators.market_fortune.common import (
    AZUL,
    BY_NAME,
    COLORES,
    GAME,
    GLOSARIO_MOMENTUM,
    MOMENTUM,
    OCHO,
    ROJA,
    STOCK_IDS,
    TURNO,
    apply,
    building_cards,
    card,
    deciding,
    end_turn,
    held_strategies,
    investment_cards,
    legal,
    player,
    quiet_turn,
    strategy_id,
    strategy_names,
)
from club_agentes.quizzes.model import Ask, Redraw, Template, register
from club_agentes.quizzes.wording import count, join, people

ACTIONS = ("construir", "arriesgar+", "arriesgar-", "dominar")


@dataclass(frozen=True)
class TurnSituation:
    """Your position at the start of your turn and the action you take."""

    rivals: tuple[str, ...]
    investments: tuple[tuple[str, str], ...]
    hand: tuple[str, ...]
    strategies: tuple[str, ...]
    action: str
    pair: tuple[str, str]
    drawn: str
    top: str


def _draw_turn(rng: Rng) -> TurnSituation:
    k = rng.below(3)
    invs = investment_cards(rng, k + 1)
    pair, invs = invs[0], invs[1:]
    used = [c for p in invs for c in p] + list(pair)
    hand = tuple(sorted([*pair, *building_cards(rng, 8 - 2 * k - 2, used)]))
    top = rng.choice([c for c in STOCK_IDS if c not in {*used, *hand}])
    names = [n for n in strategy_names() if n not in ("Inversor Suertudo",)]
    rng.shuffle(names)
    kept = tuple(names[: rng.below(3)])
    drawn = rng.choice([n for n in strategy_names() if n not in kept])
    action = ACTIONS[rng.below(len(ACTIONS))]
    return TurnSituation(tuple(people(rng, 1 + rng.below(3))), tuple(invs), hand, kept, action, pair, drawn, top)


def _turn_state(s: TurnSituation, rival: tuple[str, ...] = ()) -> State:
    return position(
        1 + len(s.rivals),
        hands={0: s.hand},
        strategies={0: [strategy_id(n) for n in s.strategies], 1: [strategy_id(n) for n in rival]},
        investments={0: s.investments},
        stock_top=[s.top],
        strategy_top=[strategy_id(s.drawn)],
    )


def _opening(s: TurnSituation) -> str:
    strat = (
        f" y {count(len(s.strategies), 'Estrategia', 'Estrategias', feminine=True)} ({join(list(s.strategies))})"
        if s.strategies
        else ", sin ninguna Estrategia"
    )
    invs = (
        f"tienes {count(len(s.investments), 'inversión', 'inversiones', feminine=True)} boca abajo en la mesa"
        if s.investments
        else "no tienes ninguna inversión en la mesa"
    )
    hand = count(len(s.hand), "carta de construcción", "cartas de construcción", feminine=True)
    return (
        f"Juegas a Market Fortune (modo Fortuna) con {join(list(s.rivals))}. Es tu turno: {invs}, y en la mano "
        f"{hand} (entre ellas {card(s.pair[0])} y {card(s.pair[1])}){strat}."
    )


def _ask_hand(s: TurnSituation) -> Ask:
    a, r = s.pair
    act = {
        "construir": f"Eliges Construir y tomas {card(s.top)}, la carta de arriba del mazo de Acciones.",
        "arriesgar+": f"Eliges Arriesgar con {card(a)} y {card(r)}, y el Dado Fortune sale +.",
        "arriesgar-": f"Eliges Arriesgar con {card(a)} y {card(r)}, y el Dado Fortune sale −.",
        "dominar": f"Eliges Dominar y la carta que tomas es {s.drawn}"
        + (", que decides guardar." if s.drawn in strategy_names("roja") else "."),
    }[s.action]
    prompt = (
        f"{_opening(s)} {act} Cuando termine tu turno, ¿cuántas cartas tendrás en la mano, contando "
        "las de construcción y las Estrategias?"
    )
    return Ask(prompt, "integer", sections=(TURNO, MOMENTUM, OCHO))


def _answer_hand(s: TurnSituation) -> int:
    state = _turn_state(s)
    if s.action == "construir":
        apply(state, 0, "build stock-deck")
    elif s.action.startswith("arriesgar"):
        rig_die(state, s.action.endswith("+"))
        apply(state, 0, f"risk {s.pair[0]} {s.pair[1]}")
    else:
        apply(state, 0, "dominate")
    end_turn(state, 0)
    if deciding(state) == 0:
        raise Redraw
    me = player(state, 0)
    return int(me["hand"]) + int(me["strategies"])


def _explain_hand(s: TurnSituation, answer: Hashable) -> str:
    why = {
        "construir": "Construir toma 1 carta y descarta 1, así que sigues con 8 cartas de construcción",
        "arriesgar+": "con + las dos cartas quedan en la mesa y tomas 1 Estrategia por Momentum",
        "arriesgar-": "con − la inversión falla y las dos cartas vuelven a tu mano",
        "dominar": "Dominar toma 1 Estrategia y no descarta nada",
    }[s.action]
    return f"Tendrás {answer} cartas: {why}."


MANO = register(
    Template(
        GAME,
        "mano-al-final-del-turno",
        "question",
        (TURNO, MOMENTUM, OCHO),
        _draw_turn,
        _ask_hand,
        _answer_hand,
        _explain_hand,
        # practice: the prompt states the investments and a hand that always makes 8 building cards, so the
        # rule of 8 counts the answer out unread (closed-book baseline, round 2: 7/7)
        entry=False,
    )
)

# --------------------------------------------------------------------------- Momentum

MOMENTUM_REDS = ("Fortuna", "Liquidez", "Comprar Más")
MOMENTUM_BLUES = ("Control del Riesgo", "Moneda Estable", "Experiencia", "Analista Errado", "Plan de Contingencia")
"""Blues that cancel Robo, the attack a rival plays on you after your turn."""
MOMENTUM_DRAWN_BLUES = ("Experiencia", "Analista Errado")
"""The blues a momentum item draws: names that do not announce a defence. "Control del Riesgo", "Moneda Estable"
and "Plan de Contingencia" do (closed-book baseline, round 3: right 4/4 on them, 0/2 on Experiencia)."""
WHEN = (
    ("now", "En este mismo turno, en cuanto la tomas"),
    ("next", "En tu próximo turno, no antes"),
    ("attacked", "Fuera de tu turno, cuando un rival te ataque"),
    ("never", "Nunca: se descarta sin jugarse"),
)


def _draw_momentum(rng: Rng) -> TurnSituation:
    s = _draw_turn(rng)
    # Mostly blues, whose first use is out of turn (when attacked): "your next turn", the natural guess, is right
    # only for the reds (closed-book baseline, round 2: 5/6 with half reds); one draw in four is still a red. The
    # blues drawn are those whose names do not announce a defence (round 3: the others were right 4/4).
    drawn = rng.choice(list(MOMENTUM_REDS if rng.below(4) == 0 else MOMENTUM_DRAWN_BLUES))
    kept = tuple(n for n in s.strategies if n not in (drawn, "Robo"))
    return TurnSituation(s.rivals, s.investments, s.hand, kept, "arriesgar+", s.pair, drawn, s.top)


def _ask_momentum(s: TurnSituation) -> Ask:
    a, r = s.pair
    prompt = (
        f"{_opening(s)} Eliges Arriesgar con {card(a)} y {card(r)}; el Dado Fortune sale + y, en ese momento, "
        f"tomas del mazo de Estrategias la carta {s.drawn}. ¿Cuándo podrás usar {s.drawn} por primera vez?"
    )
    return Ask(prompt, "choice", options=WHEN, sections=(MOMENTUM, GLOSARIO_MOMENTUM, ROJA, AZUL))


def _answer_momentum(s: TurnSituation) -> str:
    blue = s.drawn in MOMENTUM_BLUES
    state = _turn_state(s, ("Robo",) if blue else ())
    rig_die(state, True)
    apply(state, 0, f"risk {s.pair[0]} {s.pair[1]}")
    ids = set(BY_NAME[s.drawn].card_ids())
    if s.drawn not in held_strategies(state, 0):
        return "never"
    if deciding(state) == 0 and any(m.split()[1] in ids for m in legal(state, 0) if m.startswith("play ")):
        return "now"
    end_turn(state, 0)
    if blue:
        apply(state, 1, f"play {strategy_id('Robo')} against seat 0")
        if deciding(state) == 0 and any(m.split()[1] in ids for m in legal(state, 0) if m.startswith("defend ")):
            return "attacked"
        raise Redraw
    for rival in range(1, 1 + len(s.rivals)):
        if deciding(state) != rival:
            raise Redraw
        quiet_turn(state, rival)
    if deciding(state) == 0 and any(m.split()[1] in ids for m in legal(state, 0) if m.startswith("play ")):
        return "next"
    raise Redraw


def _explain_momentum(s: TurnSituation, answer: Hashable) -> str:
    if answer == "attacked":
        return (
            f"La Estrategia que da Momentum no puede usarse ese mismo turno; {s.drawn} es azul, y una azul se usa "
            "fuera de tu turno, cuando te atacan: la primera ocasión es el próximo ataque contra ti."
        )
    return (
        f"La Estrategia que da Momentum no puede usarse ese mismo turno: {s.drawn} se guarda y es una roja, "
        "que se juega en tu turno; la primera ocasión es tu próximo turno."
    )


MOMENTUM_TEMPLATE = register(
    Template(
        GAME,
        "momentum",
        "question",
        (MOMENTUM, GLOSARIO_MOMENTUM, ROJA, AZUL, COLORES),
        _draw_momentum,
        _ask_momentum,
        _answer_momentum,
        _explain_momentum,
    )
)
