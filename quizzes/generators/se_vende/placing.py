"""Se Vende's placing phases: Desarrollar (II) and Asentar (III), costs, discounts, Militar.

The prompt names the cards (your tableau, the card you place) and who chose which phase; the
printed cards (se-vende/cartas/<card>) say costs and powers, the rulebook says who pays less
(se-vende/preguntas/fase-elegida-por-varios), how military worlds are placed
(se-vende/preguntas/mundos-militares) and from when a new card's powers work
(se-vende/preguntas/poderes-nuevos). The engine plays the round:

* ``coste-de-desarrollo``: how many cards you discard to pay for the development you place;
* ``coste-de-mundo``: the same for a non-military world (perhaps after a development placed in
  the same round's Desarrollar);
* ``mundo-militar``: whether you can place a military world, and at what cost.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.cards import CardDef, PowerName
from club_agentes.engine.se_vende.state import State as SeVendeState
from club_agentes.quizzes.generators.se_vende.common import (
    GAME,
    MILITARES,
    NUEVOS,
    STARTS,
    USOS,
    VARIOS,
    Steer,
    choice_words,
    design,
    design_of,
    filler,
    keys_where,
    named,
    play_round,
    section,
    setting,
    table_state,
)
from club_agentes.quizzes.model import Ask, Redraw, Template, register
from club_agentes.quizzes.wording import count, join, people

OTHER_ACTIONS = ("explorar-5", "explorar-1-1", "comercio", "2x-pv", "producir")


def _has(d: CardDef, power: PowerName) -> bool:
    return any(p.name is power for p in d.powers)


@dataclass(frozen=True)
class Placing:
    """Your tableau and hand, the round's action cards, and what you place in Desarrollar and Asentar."""

    names: tuple[str, ...]
    actions: tuple[str, ...]
    tableau: tuple[str, ...]
    dev: str
    world: str
    hand: tuple[str, ...]

    def state(self) -> SeVendeState:
        """The engine's position: your tableau and hand; each rival holds only a start world of its own."""
        return table_state(self.tableau, self.hand, len(self.actions))


def _tableau(rng: Rng, powers: tuple[PowerName, ...]) -> list[str]:
    start = rng.choice(list(STARTS))
    helpful = keys_where(lambda d: any(_has(d, p) for p in powers) and d.type == "development" and d.cost < 6)
    plain = keys_where(lambda d: d.type == "world" and not d.defence and not d.powers)
    rng.shuffle(helpful)
    rng.shuffle(plain)
    extra = helpful[: rng.below(3)] + plain[: rng.below(2)]
    rng.shuffle(extra)
    return [start, *extra]


def _actions(rng: Rng, seats: int, mine: str, needed: tuple[str, ...]) -> list[str]:
    """Action cards for every seat: ``mine`` for you; the phases in ``needed`` are chosen by someone."""
    out = [mine, *(rng.choice(list((*OTHER_ACTIONS, "desarrollar", "asentar"))) for _ in range(seats - 1))]
    for code in needed:
        if code not in out:
            out[1 + rng.below(seats - 1)] = code
    if any(c not in out for c in needed):
        raise Redraw
    return out


def _setting(p: Placing) -> str:
    extra = len(p.hand) - sum(1 for k in (p.dev, p.world) if k)
    held = [named(k) for k in (p.dev, p.world) if k]
    hand = f". En la mano tienes {join([*held, count(extra, 'carta más', 'cartas más', feminine=True)])}"
    return setting(p.names, p.actions, p.tableau, hand, choice_words(p.actions[0]))


# --------------------------------------------------------------------------- Desarrollar


def _draw_dev(rng: Rng) -> Placing:
    seats = 2 + rng.below(3)
    tableau = _tableau(rng, (PowerName.DEVELOP_DISCOUNT,))
    devs = [k for k in keys_where(lambda d: d.type == "development" and 2 <= d.cost <= 6) if k not in tableau]
    dev = rng.choice(devs)
    mine = "desarrollar" if rng.below(2) == 0 else rng.choice(list((*OTHER_ACTIONS, "asentar")))
    actions = _actions(rng, seats, mine, ("desarrollar",))
    hand = (dev, *filler(rng, design(dev).cost + rng.below(2), [*tableau, dev]))
    return Placing(tuple(people(rng, seats - 1)), tuple(actions), tuple(tableau), dev, "", hand)


def _ask_dev(p: Placing) -> Ask:
    prompt = (
        f"{_setting(p)} En la fase de Desarrollar colocas {named(p.dev)}. ¿Cuántas cartas de la mano descartas "
        "para pagarlo?"
    )
    return Ask(prompt, "integer", sections=(VARIOS, USOS, section(p.dev), *(section(k) for k in p.tableau)))


def _steer_place(keys: tuple[str, ...]) -> Steer:
    """Seat 0 places the cards ``keys`` when it may; everything else is the plain policy."""

    def steer(seat: int, moves: list[str]) -> str | None:
        if seat != 0:
            return None
        for m in moves:
            if m.startswith("place SV-") and design_of(m.split()[1]) in keys:
                return m
        return None

    return steer


def _answer_dev(p: Placing) -> int:
    st = p.state()
    log = play_round(st, dict(enumerate(p.actions)), _steer_place((p.dev,)))
    if not any(s == 0 and m.startswith("place SV-") for s, m, _ in log.moves):
        raise Redraw
    return log.count(0, "pay", "Desarrollar")


def _explain_dev(p: Placing, answer: Hashable) -> str:
    return (
        f"Descartas {answer}: el coste impreso de {design(p.dev).name}, una carta menos si elegiste Desarrollar, "
        "menos los descuentos de tu tableau."
    )


DEV = register(
    Template(
        GAME,
        "coste-de-desarrollo",
        "question",
        (VARIOS, USOS),
        _draw_dev,
        _ask_dev,
        _answer_dev,
        _explain_dev,
        entry=False,  # practice: small costs guessed unread (baseline round 1: 2/3)
    )
)

# --------------------------------------------------------------------------- Asentar


def _draw_world(rng: Rng) -> Placing:
    seats = 2 + rng.below(3)
    tableau = _tableau(rng, (PowerName.SETTLE_DISCOUNT,))
    worlds = [k for k in keys_where(lambda d: d.type == "world" and not d.defence and d.cost >= 2) if k not in tableau]
    world = rng.choice(worlds)
    dev = ""
    if rng.below(2) == 0:
        devs = keys_where(lambda d: d.type == "development" and d.cost <= 4 and _has(d, PowerName.SETTLE_DISCOUNT))
        dev = rng.choice([k for k in devs if k not in tableau] or [""])
    mine = "asentar" if rng.below(2) == 0 else rng.choice(list((*OTHER_ACTIONS, "desarrollar")))
    actions = _actions(rng, seats, mine, ("asentar", "desarrollar") if dev else ("asentar",))
    pay = design(world).cost + (design(dev).cost if dev else 0)
    hand = tuple(k for k in (dev, world) if k) + tuple(filler(rng, pay + rng.below(2), [*tableau, dev, world]))
    return Placing(tuple(people(rng, seats - 1)), tuple(actions), tuple(tableau), dev, world, hand)


def _ask_world(p: Placing) -> Ask:
    first = (
        f"En la fase de Desarrollar colocas {named(p.dev)}, y en la de Asentar, {named(p.world)}."
        if p.dev
        else (f"En la fase de Asentar colocas {named(p.world)}.")
    )
    prompt = f"{_setting(p)} {first} ¿Cuántas cartas de la mano descartas para pagar {design(p.world).name}?"
    sections = (VARIOS, USOS, NUEVOS, section(p.world), *(section(k) for k in (p.dev, *p.tableau) if k))
    return Ask(prompt, "integer", sections=sections)


def _answer_world(p: Placing) -> int:
    st = p.state()
    log = play_round(st, dict(enumerate(p.actions)), _steer_place(tuple(k for k in (p.dev, p.world) if k)))
    placed = [m for s, m, at in log.moves if s == 0 and m.startswith("place SV-")]
    if len(placed) != (2 if p.dev else 1):
        raise Redraw
    return log.count(0, "pay", "Asentar")


def _explain_world(p: Placing, answer: Hashable) -> str:
    return (
        f"Descartas {answer}: el coste impreso de {design(p.world).name} menos los descuentos de Asentar de tu "
        "tableau (los de un desarrollo colocado en esta ronda ya cuentan en la fase siguiente); elegir Asentar no "
        "rebaja el coste."
    )


WORLD = register(
    Template(
        GAME,
        "coste-de-mundo",
        "question",
        (VARIOS, USOS, NUEVOS),
        _draw_world,
        _ask_world,
        _answer_world,
        _explain_world,
    )
)

# --------------------------------------------------------------------------- military worlds

MILITARY = (
    ("free", "Sí, y no te cuesta ninguna carta"),
    ("pay", "Sí, descartando tantas cartas como su número de defensa"),
    ("short", "No: tu Militar no llega a su defensa"),
    ("phase", "No: un mundo militar no se coloca en Asentar"),
)


def _draw_military(rng: Rng) -> Placing:
    seats = 2 + rng.below(3)
    tableau = _tableau(rng, (PowerName.SETTLE_MILITARY,))
    military = sum(p.n for k in tableau for p in design(k).powers if p.name is PowerName.SETTLE_MILITARY)
    target = military + rng.below(2)
    worlds = keys_where(lambda d: d.defence > 0 and d.defence == target)  # a military world, never a development
    world = rng.choice([k for k in worlds if k not in tableau] or [""])
    if not world:
        raise Redraw
    mine = "asentar" if rng.below(2) == 0 else rng.choice(list(OTHER_ACTIONS))
    actions = _actions(rng, seats, mine, ("asentar",))
    hand = (world, *filler(rng, design(world).defence + 1, [*tableau, world]))
    return Placing(tuple(people(rng, seats - 1)), tuple(actions), tuple(tableau), "", world, hand)


def _ask_military(p: Placing) -> Ask:
    prompt = (
        f"{_setting(p)} En la fase de Asentar quieres colocar {named(p.world)}. ¿Puedes colocarlo, y qué te cuesta?"
    )
    return Ask(
        prompt, "choice", options=MILITARY, sections=(MILITARES, section(p.world), *(section(k) for k in p.tableau))
    )


def _answer_military(p: Placing) -> str:
    st = p.state()
    log = play_round(st, dict(enumerate(p.actions)), _steer_place((p.world,)))
    placed = [m for s, m, at in log.moves if s == 0 and m.startswith("place SV-") and at == "Asentar"]
    if not placed:
        return "short"
    return "free" if log.count(0, "pay", "Asentar") == 0 else "pay"


def _explain_military(p: Placing, answer: Hashable) -> str:
    d = design(p.world)
    if answer == "free":
        return f"Sí y gratis: tu Militar llega a la defensa {d.defence} de {d.name}, y un mundo militar no se paga."
    return f"No: tu Militar, que dan los poderes de tu tableau, no llega a la defensa {d.defence} de {d.name}."


MILITARY_TEMPLATE = register(
    Template(
        GAME,
        "mundo-militar",
        "question",
        (MILITARES,),
        _draw_military,
        _ask_military,
        _answer_military,
        _explain_military,
        entry=False,  # practice: two outcomes, guessed from general knowledge (baseline round 1: 3/5)
    )
)
