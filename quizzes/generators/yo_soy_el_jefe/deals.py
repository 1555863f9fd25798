"""Yo soy el jefe's deals: closing and failing (yo-soy-el-jefe/3-3-cierre) and the end (yo-soy-el-jefe/4-finalizacion).

* ``pago-del-banquero``: a deal closes on a space after some deals; how much does the banker pay?
  (the space's dividends and the dividend of the deal card on top: the component data);
* ``siguiente-turno``: a deal closes or fails, perhaps after boss cards; who plays next?
* ``dado-de-fin``: a deal closes late in the game and the boss rolls; does the game end?
* ``tras-el-fracaso``: a deal fails; how many influence cards does a seat hold afterwards?
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.yo_soy_el_jefe.scenario import position, rig_die
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import (
    CASILLAS_DATOS,
    COLOURS,
    FIN,
    FIN_EJEMPLO,
    FRACASO,
    FRACASO_REF,
    GAME,
    JEFE,
    NEGOCIACION_DATOS,
    PAGO,
    SPACES,
    TRAS_PAGO,
    deals_done,
    investor,
    seating,
    table_words,
)
from club_agentes.quizzes.generators.yo_soy_el_jefe.table import Table
from club_agentes.quizzes.model import Ask, Redraw, Template, register
from club_agentes.quizzes.wording import capital, count


@dataclass(frozen=True)
class Closing:
    """Seat ``boss`` holds every colour the space asks for; ``done`` deals are closed (on other spaces)."""

    names: tuple[str, ...]
    space: int
    done: int
    boss: int
    roll: int = 1

    def covered(self) -> list[int]:
        return [s for s in range(1, 17) if s != self.space][: self.done]

    def table(self) -> Table:
        space = SPACES[self.space - 1]
        needed = [*space.mandatory, *space.optional[: space.optional_needed]]
        others = [c for c in COLOURS if c not in needed]
        owner: dict[str, int | None] = {c: self.boss for c in needed}
        for i, c in enumerate(others):
            owner[c] = (self.boss + 1 + i) % len(self.names)
        st = position(
            len(self.names),
            owner=owner,
            deals_done=self.done,
            covered=self.covered(),
            marker=self.space,
            turn=self.boss,
        )
        rig_die(st, self.roll)
        return Table.adopt(st, len(self.names))


def _close_words(c: Closing) -> str:
    space = SPACES[c.space - 1]
    done = capital(deals_done(c.done)) + "."
    return (
        f"Juegan a Yo soy el jefe {table_words(c.names)}. {done} Es el turno de {c.names[c.boss]}, que tiene las "
        f"cartas de inversor de todos los colores que pide la casilla {space.number} y cierra allí una negociación "
        "sin que nadie intervenga."
    )


# --------------------------------------------------------------------------- the payout


def _draw_payout(rng: Rng) -> Closing:
    seats = 3 + rng.below(3)
    return Closing(tuple(seating(rng, seats)), 1 + rng.below(16), rng.below(15), rng.below(seats))


def _ask_payout(c: Closing) -> Ask:
    prompt = f"{_close_words(c)} ¿Cuántos millones le paga el banquero a {c.names[c.boss]}?"
    return Ask(prompt, "integer", unit="M", sections=(PAGO, NEGOCIACION_DATOS, CASILLAS_DATOS))


def _answer_payout(c: Closing) -> int:
    table = c.table()
    table.close_here()
    deal = table.view(c.boss)["last_deal"]
    if deal is None or deal["boss"] != c.boss:
        raise Redraw
    return int(deal["payout"])


def _explain_payout(c: Closing, answer: Hashable) -> str:
    return (
        f"Paga {answer}M: los dividendos de la casilla {c.space} por el valor del dividendo de la carta de negociación "
        f"que está arriba del mazo (la número {c.done + 1})."
    )


register(
    Template(
        GAME,
        "pago-del-banquero",
        "question",
        (PAGO, NEGOCIACION_DATOS, CASILLAS_DATOS),
        _draw_payout,
        _ask_payout,
        _answer_payout,
        _explain_payout,
    )
)

# --------------------------------------------------------------------------- the end die

ENDS = (
    ("ends", "La partida termina en ese momento"),
    ("goes_on", "Se tira el dado, no termina y la partida sigue"),
    ("no_roll", "No se tira el dado y la partida sigue"),
    ("final", "La partida termina sin tirar el dado"),
)


def _draw_end(rng: Rng) -> Closing:
    seats = 3 + rng.below(3)
    done = (7 + rng.below(2), 9 + rng.below(5), 9 + rng.below(5), 14)[rng.below(4)]
    return Closing(tuple(seating(rng, seats)), 1 + rng.below(16), done, rng.below(seats), 1 + rng.below(6))


def _ask_end(c: Closing) -> Ask:
    prompt = (
        f"{_close_words(c)} Si después hay que tirar el dado, {c.names[c.boss]} saca un {c.roll}. ¿Qué pasa con la "
        "partida?"
    )
    return Ask(prompt, "choice", options=ENDS, sections=(FIN, FIN_EJEMPLO, NEGOCIACION_DATOS))


def _answer_end(c: Closing) -> str:
    table = c.table()
    before = table.view(None)["last_roll"]
    table.close_here()
    rolled = table.view(None)["last_roll"] is not None and table.view(None)["last_roll"] != before
    if table.over:
        return "ends" if rolled else "final"
    return "goes_on" if rolled else "no_roll"


def _explain_end(c: Closing, answer: Hashable) -> str:
    n = c.done + 1
    return {
        "ends": f"Termina: desde la décima negociación se tira el dado, y el {c.roll} está en el reverso de la "
        f"carta {n}.",
        "goes_on": f"Sigue: se tira el dado, pero el {c.roll} no está en el reverso de la carta {n}.",
        "no_roll": "Sigue sin tirar: el dado de fin solo se tira a partir de la décima negociación.",
        "final": "Termina sin tirar: la decimoquinta negociación acaba la partida.",
    }[str(answer)]


register(
    Template(
        GAME,
        "dado-de-fin",
        "question",
        (FIN, FIN_EJEMPLO, NEGOCIACION_DATOS),
        _draw_end,
        _ask_end,
        _answer_end,
        _explain_end,
        entry=False,  # practice: guessed unread (baseline round 1: 5/5)
    )
)

# --------------------------------------------------------------------------- the next turn


@dataclass(frozen=True)
class Next:
    """Seat 0 opens a deal; ``bosses`` then play boss cards in turn; the last boss closes (or fails)."""

    names: tuple[str, ...]
    space: int
    bosses: tuple[int, ...]
    fails: bool

    @property
    def last(self) -> int:
        return self.bosses[-1] if self.bosses else 0

    def table(self) -> Table:
        space = SPACES[self.space - 1]
        needed = [*space.mandatory, *space.optional[: space.optional_needed]]
        owner: dict[str, int | None] = {c: self.last for c in needed}
        rest = [c for c in COLOURS if c not in needed]
        for i, c in enumerate(rest):
            owner[c] = (self.last + 1 + i) % len(self.names)
        hands = {s: ["boss"] for s in self.bosses}
        st = position(len(self.names), owner=owner, hands=hands, marker=self.space, turn=0)
        return Table.adopt(st, len(self.names))


def _draw_next(rng: Rng) -> Next:
    seats = 4 + rng.below(3)
    k = rng.below(3)
    bosses: list[int] = []
    for _ in range(k):
        choices = [s for s in range(1, seats) if s not in bosses]
        bosses.append(rng.choice(choices))
    return Next(tuple(seating(rng, seats)), 1 + rng.below(16), tuple(bosses), rng.below(4) == 0)


def _ask_next(n: Next) -> Ask:
    steps = [f"Es el turno de {n.names[0]}, que dice «¡Vamos a negociar!» en la casilla {n.space}."]
    for s in n.bosses:
        steps.append(f"{n.names[s]} juega una carta de jefe («¡Soy el jefe!») y nadie la anula.")
    who = n.names[n.last]
    steps.append(
        f"Al final, {who} declara que la transacción ha fracasado."
        if n.fails
        else f"Al final, {who} cierra la transacción."
    )
    prompt = f"Juegan a Yo soy el jefe {table_words(n.names)}. {' '.join(steps)} ¿Quién juega el siguiente turno?"
    order = len(n.names)
    picks = [(n.last + 1) % order, 1 % order, n.last, 0, (n.last - 1) % order, 2 % order, 3 % order]
    names = list(dict.fromkeys(n.names[s] for s in picks))[:4]
    return Ask(prompt, "choice", options=tuple((x, x) for x in names), sections=(TRAS_PAGO, JEFE, FRACASO_REF))


def _answer_next(n: Next) -> str:
    table = n.table()
    table.negotiate()
    for s in n.bosses:
        table.until(s, "boss keep")
        while table.view(None)["card_waiting_for_stops"] is not None:
            waiting = [x for x in table.deciding() if table.may(x, "pass")]
            if not waiting:
                raise Redraw
            table.play(waiting[0], "pass")
        if table.boss() != s:
            raise Redraw
    table.fail() if n.fails else table.close()
    table.finish_turn()
    return n.names[table.turn_seat()]


def _explain_next(n: Next, answer: Hashable) -> str:
    return (
        f"Juega {answer}: el turno sigue por la izquierda del último jefe, que es quien cierra o da por fracasada la "
        "transacción."
    )


register(
    Template(
        GAME,
        "siguiente-turno",
        "question",
        (TRAS_PAGO, JEFE, FRACASO_REF),
        _draw_next,
        _ask_next,
        _answer_next,
        _explain_next,
        entry=False,  # practice: "next to the left" guessed unread (baseline round 1: 2/2)
    )
)

# --------------------------------------------------------------------------- after a failure


@dataclass(frozen=True)
class Failure:
    """Seat 0 opens a deal; seat 1 places a family card; seat 2 sends the boss's investor travelling; it fails.

    The item asks for the cards seats 1 and 2 hold between them afterwards: both played one card, but only one
    of the two comes back (the family card), so "two cards fewer" is wrong (closed-book baseline, round 1: the
    old item asked about seat 2 alone, whose one card fewer a guess finds).
    """

    names: tuple[str, ...]
    space: int
    colour: str
    family: str
    cards: tuple[int, int]


def _draw_failure(rng: Rng) -> Failure:
    seats = 3 + rng.below(3)
    space = SPACES[rng.below(len(SPACES))]
    colour = space.mandatory[0]
    family = [c for c in (*space.mandatory, *space.optional) if c != colour]
    if not family:
        raise Redraw
    return Failure(
        tuple(seating(rng, seats)),
        space.number,
        colour,
        rng.choice(family),
        (2 + rng.below(5), 2 + rng.below(5)),
    )


def _failure_table(f: Failure) -> Table:
    others = [c for c in COLOURS if c not in (f.colour, f.family)]
    owner: dict[str, int | None] = {f.colour: 0, f.family: 2}
    for i, c in enumerate(others):
        owner[c] = i % len(f.names)
    fill = ["boss", "stop", "hire"]
    hands = {
        1: [f"family:{f.family}", *(fill[i % 3] for i in range(f.cards[0] - 1))],
        2: [f"travel:{f.colour}", *(fill[i % 3] for i in range(f.cards[1] - 1))],
    }
    st = position(len(f.names), owner=owner, hands=hands, marker=f.space, turn=0)
    return Table.adopt(st, len(f.names))


def _ask_failure(f: Failure) -> Ask:
    a, b, c = f.names[0], f.names[1], f.names[2]
    prompt = (
        f"Juegan a Yo soy el jefe {table_words(f.names)}. {b} tiene "
        f"{count(f.cards[0], 'carta de influencia', 'cartas de influencia', feminine=True)} en la mano y {c}, "
        f"{count(f.cards[1], 'carta', 'cartas', feminine=True)}. Es el turno de {a}, que tiene {investor(f.colour)} y "
        f"dice «¡Vamos a negociar!» en la casilla {f.space}. {b} coloca sobre la mesa una carta de familia de color "
        f"{f.family} para participar; después {c} juega una carta de viaje de color {f.colour} sobre "
        f"{investor(f.colour)} "
        f"de {a}, y nadie la anula. {a} declara que la transacción ha fracasado. Después, ¿cuántas cartas de "
        f"influencia tienen {b} y {c} en la mano, contando las de los dos?"
    )
    return Ask(prompt, "integer", sections=(FRACASO,))


def _answer_failure(f: Failure) -> int:
    table = _failure_table(f)
    table.negotiate()
    table.until(1, f"family {f.family}")
    table.until(2, f"travel investor seat 0 {f.colour}")
    while table.view(None)["card_waiting_for_stops"] is not None:
        waiting = [x for x in table.deciding() if table.may(x, "pass")]
        if not waiting:
            raise Redraw
        table.play(waiting[0], "pass")
    table.fail()
    players = table.view(None)["players"]
    return int(players[1]["hand_count"]) + int(players[2]["hand_count"])


def _explain_failure(f: Failure, answer: Hashable) -> str:
    return (
        f"Tienen {answer}: al fracasar, las cartas de familia que quedan en la mesa vuelven a quien las puso, y las "
        "demás cartas de influencia usadas (la de viaje) se descartan."
    )


register(
    Template(
        GAME,
        "tras-el-fracaso",
        "question",
        (FRACASO,),
        _draw_failure,
        _ask_failure,
        _answer_failure,
        _explain_failure,
        # practice: the natural reasoning (the family card comes back, the travel card is spent) gives the rulebook's
        # answer (closed-book baseline, round 2: 5/5)
        entry=False,
    )
)
