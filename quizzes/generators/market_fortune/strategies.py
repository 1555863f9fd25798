"""Market Fortune's strategies (market-fortune/cap-4 and the printed cards, market-fortune/cartas/<card>).

The prompts name cards and positions, never what a card does; the engine says what is legal and
what happens:

* ``estrategia-jugable``: which of the strategies in your hand can you play now, on your turn?
  (colour, and the printed conditions of the reds);
* ``objetivo-de-ataque``: which rival may a red attack aim at? (the printed card and the market
  terms it uses: líder, igual o más avanzado);
* ``defensa``: a rival attacks; which of your cards can cancel it? (blue, and what its text covers);
* ``efecto-de-estrategia``: a red is played in a stated position; a count afterwards (Auditoría
  Federal, Fortuna, Colapso de Mercado, Rescate).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace

from club_agentes.engine.core import Rng
from club_agentes.engine.market_fortune.scenario import rig_die
from club_agentes.engine.market_fortune.state import State
from club_agentes.quizzes.generators.market_fortune.common import (
    AZUL,
    BY_NAME,
    COMBATE,
    GAME,
    ROJA,
    TURNO,
    apply,
    card,
    colour_of,
    deciding,
    legal,
    player,
    strategy_names,
)
from club_agentes.quizzes.generators.market_fortune.tables import (
    Dealt,
    Seat,
    deal,
    describe,
    hand_words,
    investments_words,
    random_seat,
    state_of,
)
from club_agentes.quizzes.model import Ask, Redraw, Template, register
from club_agentes.quizzes.wording import join, people

NONE = "none"
TARGETED = ("Robo", "Corrección", "Auditoría Federal", "Negociación", "Bloqueo Regulatorio")
GROUP = ("Colapso de Mercado", "Riesgo Sistémico", "Inflación")
CONDITIONAL = (*TARGETED, *GROUP, "Rescate", "Movimiento Astuto")
ALWAYS = ("Fortuna", "Liquidez", "Comprar Más", "Inversor Suertudo")
NOT_RED = tuple(n for n in strategy_names() if colour_of(n) != "roja")


def section(name: str) -> str:
    """The printed card's section id."""
    return BY_NAME[name].section


@dataclass(frozen=True)
class Table:
    """A whole table: you are seat 0; the others follow clockwise."""

    seats: tuple[Seat, ...]
    dealt: Dealt

    def state(self, *, turn: int = 0) -> State:
        """The engine's position of this table."""
        return state_of(self.seats, self.dealt, turn=turn)

    @property
    def rivals(self) -> tuple[Seat, ...]:
        return self.seats[1:]


def _table(rng: Rng, mine: tuple[str, ...], *, full: bool = False, rival_strategies: int = 2) -> Table:
    names = people(rng, 2 + rng.below(2))
    me = replace(random_seat(rng, "tú", full=full), strategies=mine)
    spare = [n for n in strategy_names() if n not in mine]
    rivals = []
    for name in names:
        seat = random_seat(rng, name)
        rng.shuffle(spare)
        rivals.append(replace(seat, strategies=tuple(spare[: rng.below(rival_strategies + 1)])))
    seats = (me, *rivals)
    return Table(seats, deal(rng, seats))


def _you(seat: Seat) -> str:
    if not seat.investments:
        return f"no tienes inversiones; tienes {hand_words(seat)}"
    invs = investments_words(seat)
    return f"tienes {invs}, además de {hand_words(seat)}" if " y " in invs else f"tienes {invs} y {hand_words(seat)}"


def _setting(t: Table, *, strategies: bool = True) -> str:
    order = join([s.name for s in t.rivals])
    rivals = "; ".join(describe(s, strategies=strategies) for s in t.rivals)
    return (
        f"Juegas a Market Fortune (modo Fortuna) con {order}, sentados en ese orden en sentido horario a partir "
        f"de ti. {rivals[:1].upper()}{rivals[1:]}. Los descartes de Acciones y de Rendimientos están vacíos."
    )


def _plays(state: State, seat: int, name: str) -> list[str]:
    ids = set(BY_NAME[name].card_ids())
    return [m for m in legal(state, seat) if m.startswith("play ") and m.split()[1] in ids]


# --------------------------------------------------------------------------- which can you play


def _draw_playable(rng: Rng) -> Table:
    reds = list(CONDITIONAL)
    rng.shuffle(reds)
    others = list(NOT_RED)
    rng.shuffle(others)
    k = 1 + rng.below(2)
    mine = reds[:k] + others[: 3 - k]
    rng.shuffle(mine)
    return _table(rng, tuple(mine))


def _ask_playable(t: Table) -> Ask:
    me = t.seats[0]
    prompt = (
        f"{_setting(t)} Es tu turno y aún no has elegido tu acción: {_you(me)}, y en la mano tus Estrategias "
        f"son {join(list(me.strategies))}. ¿Cuál de esas Estrategias puedes jugar ahora mismo?"
    )
    options = (*tuple((n, n) for n in me.strategies), (NONE, "Ninguna de las tres"))
    return Ask(prompt, "choice", options=options, sections=(ROJA, AZUL, *(section(n) for n in me.strategies)))


def _answer_playable(t: Table) -> str:
    st = t.state()
    playable = [n for n in t.seats[0].strategies if _plays(st, 0, n)]
    if len(playable) > 1:
        raise Redraw
    return playable[0] if playable else NONE


def _explain_playable(t: Table, answer: Hashable) -> str:
    if answer == NONE:
        return "Ninguna: las que no son rojas no se juegan en tu turno, y las rojas no cumplen lo que pide su carta."
    return f"Solo {answer}: es roja (se juega en tu turno) y la mesa cumple lo que pide su carta."


PLAYABLE = register(
    Template(
        GAME,
        "estrategia-jugable",
        "question",
        (ROJA, AZUL, TURNO),
        _draw_playable,
        _ask_playable,
        _answer_playable,
        _explain_playable,
        entry=False,  # practice: an attack needs a target, guessed unread (baseline round 1: 4/4)
    )
)

# --------------------------------------------------------------------------- whom can it aim at


@dataclass(frozen=True)
class Aim:
    """You hold ``red`` on your turn at ``table``."""

    table: Table
    red: str


def _draw_aim(rng: Rng) -> Aim:
    red = rng.choice(list(TARGETED))
    t = _table(rng, (red,), full=True)
    if len(t.rivals) < 3:
        raise Redraw
    return Aim(t, red)


def _ask_aim(a: Aim) -> Ask:
    me = a.table.seats[0]
    prompt = (
        f"{_setting(a.table)} Es tu turno: {_you(me)}, y tu única Estrategia es {a.red}. "
        f"¿A cuál de tus rivales puedes atacar con {a.red} ahora?"
    )
    options = (*tuple((s.name, s.name) for s in a.table.rivals), (NONE, "A ninguno de ellos"))
    return Ask(prompt, "choice", options=options, sections=(section(a.red), ROJA))


def _answer_aim(a: Aim) -> str:
    st = a.table.state()
    targets = {int(m.split("against seat ")[1].split()[0]) for m in _plays(st, 0, a.red) if "against seat " in m}
    if len(targets) > 1:
        raise Redraw
    return a.table.seats[targets.pop()].name if targets else NONE


def _explain_aim(a: Aim, answer: Hashable) -> str:
    who = "a ninguno" if answer == NONE else f"solo a {answer}"
    return f"{a.red} puede atacar {who}: es lo que permite su carta en esta mesa."


AIM = register(
    Template(
        GAME,
        "objetivo-de-ataque",
        "question",
        (ROJA, *(section(n) for n in TARGETED)),
        _draw_aim,
        _ask_aim,
        _answer_aim,
        _explain_aim,
        entry=False,  # practice: face-down targets guessed unread (baseline round 1: 4/4)
    )
)

# --------------------------------------------------------------------------- defending


@dataclass(frozen=True)
class Defence:
    """The rival after you (seat 1) attacks with ``red``; you hold three strategies."""

    table: Table
    red: str


def _draw_defence(rng: Rng) -> Defence:
    red = rng.choice([*TARGETED, *GROUP])
    blues = list(strategy_names("azul"))
    rng.shuffle(blues)
    others = [n for n in strategy_names() if colour_of(n) != "azul" and n != red]
    rng.shuffle(others)
    mine = blues[:2] + others[:1]  # two blues: which one covers this attack only the printed cards say
    rng.shuffle(mine)
    t = _table(rng, tuple(mine), full=True, rival_strategies=0)
    attacker = replace(t.seats[1], strategies=(red,))
    seats = (t.seats[0], attacker, *t.seats[2:])
    return Defence(Table(seats, t.dealt), red)


def _ask_defence(d: Defence) -> Ask:
    me, attacker = d.table.seats[0], d.table.seats[1]
    target = "" if d.red in GROUP else " contra ti"
    prompt = (
        f"{_setting(d.table, strategies=False)} Tú {_you(me)}, y tus Estrategias son {join(list(me.strategies))}. "
        f"Es el turno de {attacker.name}, que juega {d.red}{target}. ¿Con cuál de tus Estrategias puedes "
        "cancelar el ataque contra ti?"
    )
    options = (*tuple((n, n) for n in me.strategies), (NONE, "Con ninguna de ellas"))
    return Ask(
        prompt,
        "choice",
        options=options,
        sections=(AZUL, COMBATE, section(d.red), *(section(n) for n in me.strategies)),
    )


def _attack(state: State, red: str) -> None:
    plays = _plays(state, 1, red)
    aimed = [m for m in plays if "against seat 0" in m] if red in TARGETED else plays
    if not aimed:
        raise Redraw
    apply(state, 1, aimed[0])
    for _ in range(8):
        seat = deciding(state)
        if seat is None or seat == 0 or seat == 1:
            return
        apply(state, seat, "decline")


def _answer_defence(d: Defence) -> str:
    st = d.table.state(turn=1)
    _attack(st, d.red)
    if deciding(st) != 0:
        raise Redraw
    defenders = {m.split()[1] for m in legal(st, 0) if m.startswith("defend ")}
    names = {n for n in d.table.seats[0].strategies if defenders & set(BY_NAME[n].card_ids())}
    if len(names) > 1:
        raise Redraw
    return names.pop() if names else NONE


def _explain_defence(d: Defence, answer: Hashable) -> str:
    if answer == NONE:
        return f"Con ninguna: solo una azul cuyo texto cubra el ataque de {d.red} lo cancela, y no tienes ninguna así."
    return f"Con {answer}: es azul y su texto cubre el ataque de {d.red}."


DEFENCE = register(
    Template(
        GAME,
        "defensa",
        "question",
        (AZUL, COMBATE, *(section(n) for n in (*TARGETED, *GROUP))),
        _draw_defence,
        _ask_defence,
        _answer_defence,
        _explain_defence,
    )
)

# --------------------------------------------------------------------------- what a red does

EFFECTS = ("Auditoría Federal", "Fortuna", "Colapso de Mercado", "Rescate")


@dataclass(frozen=True)
class Effect:
    """You play ``red`` on your turn at ``table``; ``die`` is the roll Fortuna gets (if any)."""

    table: Table
    red: str
    die: bool


def _draw_effect(rng: Rng) -> Effect:
    red = rng.choice(list(EFFECTS))
    if red == "Colapso de Mercado":
        blues = ["Control del Riesgo", "Moneda Estable", "Manos de Diamante", "Analista Errado"]
        t = _table(rng, (red,), full=True, rival_strategies=0)
        rivals = tuple(replace(s, strategies=(rng.choice(blues),) if rng.below(2) == 0 else ()) for s in t.rivals)
        t = Table((t.seats[0], *rivals), t.dealt)
    else:
        t = _table(
            rng,
            (red, *([rng.choice(list(NOT_RED))] if rng.below(2) else [])),
            full=red != "Rescate",
            rival_strategies=0,
        )
    # Fortuna always rolls +: with − the card just leaves the hand, which a guess counts unread (closed-book
    # baseline, round 3: 4/4 on −, 0/1 on +).
    return Effect(t, red, red == "Fortuna" or rng.below(2) == 0)


def _ask_effect(e: Effect) -> Ask:
    me = e.table.seats[0]
    mine = (
        f"tus Estrategias son {join(list(me.strategies))}"
        if len(me.strategies) > 1
        else f"tu única Estrategia es {e.red}"
    )
    setting = _setting(e.table, strategies=e.red != "Colapso de Mercado")
    if e.red == "Colapso de Mercado":
        held = [f"{s.name} tiene {s.strategies[0]}" for s in e.table.rivals if s.strategies]
        held_text = (join(held) + "; los demás no tienen Estrategias") if held else "Ningún rival tiene Estrategias"
        setting += f" En cuanto a Estrategias, {held_text}." if held else f" {held_text}."
        question = (
            f"Juegas {e.red}. Cada rival que puede defenderse lo hace. Cuando el ataque se ha resuelto, ¿cuántas "
            "inversiones tienen tus rivales entre todos, boca abajo o boca arriba?"
        )
    elif e.red == "Auditoría Federal":
        victim = max(e.table.rivals, key=lambda s: s.down)
        k = e.table.seats.index(victim)
        pairs = e.table.dealt.investments[k]
        listed = "; ".join(f"{card(a)} + {card(r)}" + (" (boca arriba)" if up else "") for a, r, _, up in pairs)
        question = (
            f"Las inversiones de {victim.name} son estas: {listed}. Juegas {e.red} contra {victim.name}, que no "
            f"puede defenderse. ¿Con cuántas inversiones se queda {victim.name}?"
        )
    elif e.red == "Fortuna":
        question = (
            f"Juegas {e.red} y el Dado Fortune sale {'+' if e.die else '−'}. Cuando se ha resuelto, ¿cuántas "
            "Estrategias tienes en la mano?"
        )
    else:
        question = f"Juegas {e.red}. ¿Cuántas cartas tomas gracias a ella?"
    prompt = f"{setting} Es tu turno: {_you(me)}, y {mine}. {question}"
    return Ask(prompt, "integer", sections=(section(e.red), ROJA))


def _answer_effect(e: Effect) -> int:
    st = e.table.state()
    before = player(st, 0)
    if e.red == "Auditoría Federal":
        victim = max(e.table.rivals, key=lambda s: s.down)
        k = e.table.seats.index(victim)
        if not victim.down:
            raise Redraw
        apply(st, 0, f"play {BY_NAME[e.red].card_ids()[0]} against seat {k}")
        _decline_all(st)
        return len(player(st, k)["investments"])
    if e.red == "Fortuna":
        rig_die(st, e.die)
        apply(st, 0, f"play {BY_NAME[e.red].card_ids()[0]}")
        return int(player(st, 0)["strategies"])
    if e.red == "Colapso de Mercado":
        if not any(s.down for s in e.table.rivals):
            raise Redraw
        apply(st, 0, f"play {BY_NAME[e.red].card_ids()[0]}")
        _defend_if_you_can(st)
        return sum(len(player(st, k)["investments"]) for k in range(1, len(e.table.seats)))
    plays = _plays(st, 0, e.red)
    if not plays:
        raise Redraw
    apply(st, 0, plays[0])
    for _ in range(12):
        if deciding(st) != 0:
            break
        takes = [m for m in legal(st, 0) if m.startswith("take ")]
        if not takes:
            break
        apply(st, 0, takes[0])
    return int(player(st, 0)["hand"]) - int(before["hand"])


def _decline_all(state: State) -> None:
    for _ in range(8):
        seat = deciding(state)
        if seat is None or "decline" not in legal(state, seat):
            return
        apply(state, seat, "decline")


def _defend_if_you_can(state: State) -> None:
    for _ in range(8):
        seat = deciding(state)
        if seat is None:
            return
        moves = legal(state, seat)
        if "decline" not in moves:
            return
        defend = [m for m in moves if m.startswith("defend ")]
        apply(state, seat, defend[0] if defend else "decline")


def _explain_effect(e: Effect, answer: Hashable) -> str:
    return f"{answer}: es lo que hace {e.red} según su carta, aplicada a esta mesa."


EFFECT = register(
    Template(
        GAME,
        "efecto-de-estrategia",
        "question",
        (ROJA, *(section(n) for n in EFFECTS)),
        _draw_effect,
        _ask_effect,
        _answer_effect,
        _explain_effect,
    )
)
