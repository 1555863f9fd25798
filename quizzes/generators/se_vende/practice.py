"""Se Vende practice templates: what only a written ruling decides, and what the well-known game it follows tells.

None of these reaches an entry paper.

* ``cartas-al-explorar`` (rulings explorar and cartas-de-accion: the rulebook only says that
  choosers draw more);
* ``mano-tras-asentar`` (ruling cartas-de-accion: the Asentar chooser's card);
* ``limite-de-mano`` (rulebook, but the game it follows has the same limit: guessed unread).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.actions import ACTION_NAMES
from club_agentes.engine.se_vende.cards import PowerName
from club_agentes.quizzes.generators.se_vende.common import (
    GAME,
    LIMITE,
    LIMITE_RESUMEN,
    RULINGS,
    STARTS,
    Steer,
    design,
    design_of,
    filler,
    keys_where,
    named,
    play_round,
    player,
    section,
    setting,
    table_state,
)
from club_agentes.quizzes.model import Ask, Template, register
from club_agentes.quizzes.wording import count, people


@dataclass(frozen=True)
class Hand:
    """Your tableau and hand, the round's action cards, and the world you place (if any)."""

    names: tuple[str, ...]
    actions: tuple[str, ...]
    tableau: tuple[str, ...]
    hand: tuple[str, ...]
    world: str = ""


def _setting(h: Hand) -> str:
    hand = f", y en la mano {count(len(h.hand), 'carta', 'cartas', feminine=True)}"
    return setting(h.names, h.actions, h.tableau, hand, f"la carta de acción {ACTION_NAMES[h.actions[0]]}")


def _draw_explore(rng: Rng) -> Hand:
    seats = 2 + rng.below(3)
    start = rng.choice(list(STARTS))
    helpers = keys_where(lambda d: any(p.name in (PowerName.EXPLORE_DRAW, PowerName.EXPLORE_KEEP) for p in d.powers))
    rng.shuffle(helpers)
    tableau = tuple(dict.fromkeys([start, *helpers[: rng.below(3)]]))
    mine = rng.choice(["explorar-5", "explorar-1-1"])
    actions = (mine, *(rng.choice(["explorar-5", "explorar-1-1"]) for _ in range(seats - 1)))
    return Hand(tuple(people(rng, seats - 1)), actions, tableau, tuple(filler(rng, 3 + rng.below(3), tableau)))


def _ask_explore(h: Hand) -> Ask:
    prompt = f"{_setting(h)} ¿Cuántas cartas tienes en la mano al terminar la fase de Explorar?"
    return Ask(prompt, "integer", sections=(f"{GAME}/resumen/bonus", *(section(k) for k in h.tableau)))


def _answer_hand(h: Hand) -> int:
    st = table_state(h.tableau, h.hand, len(h.actions))
    play_round(st, dict(enumerate(h.actions)), _place(h.world))
    return int(player(st, 0)["hand_size"])


def _place(world: str) -> Steer:
    def steer(seat: int, moves: list[str]) -> str | None:
        if seat == 0 and world:
            return next((m for m in moves if m.startswith("place SV-") and design_of(m.split()[1]) == world), None)
        return None

    return steer


def _explain_explore(h: Hand, answer: Hashable) -> str:
    return f"Tendrás {answer}: todos roban 2 y se quedan 1; tu carta de acción y tus poderes de Explorar añaden más."


register(
    Template(
        GAME,
        "cartas-al-explorar",
        "question",
        (f"{GAME}/resumen/bonus",),
        _draw_explore,
        _ask_explore,
        _answer_hand,
        _explain_explore,
        ruling=RULINGS + "explorar",
    )
)


def _draw_settle(rng: Rng) -> Hand:
    seats = 2 + rng.below(3)
    start = rng.choice(list(STARTS))
    worlds = keys_where(lambda d: d.type == "world" and not d.defence and 1 <= d.cost <= 4)
    world = rng.choice([k for k in worlds if k != start])
    hand = (world, *filler(rng, design(world).cost + 1 + rng.below(2), [start, world]))
    actions = ("asentar", *(rng.choice(["asentar", "producir"]) for _ in range(seats - 1)))
    return Hand(tuple(people(rng, seats - 1)), actions, (start,), hand, world)


def _ask_settle(h: Hand) -> Ask:
    prompt = (
        f"{_setting(h)} En la fase de Asentar colocas {named(h.world)} y lo pagas. ¿Cuántas cartas tienes en la mano "
        "al terminar la ronda?"
    )
    return Ask(prompt, "integer", sections=(f"{GAME}/resumen/bonus", section(h.world), section(h.tableau[0])))


def _explain_settle(h: Hand, answer: Hashable) -> str:
    return f"Tendrás {answer}: colocas el mundo, descartas su coste y, por elegir Asentar, robas 1 carta."


register(
    Template(
        GAME,
        "mano-tras-asentar",
        "question",
        (f"{GAME}/resumen/bonus",),
        _draw_settle,
        _ask_settle,
        _answer_hand,
        _explain_settle,
        ruling=RULINGS + "cartas-de-accion",
    )
)


def _draw_limit(rng: Rng) -> Hand:
    seats = 2 + rng.below(3)
    start = rng.choice(["bastion-de-hierro", "archivo-kepler", "colonia-aurora"])
    actions = tuple("producir" for _ in range(seats))
    return Hand(tuple(people(rng, seats - 1)), actions, (start,), tuple(filler(rng, 9 + rng.below(6), [start])))


def _ask_limit(h: Hand) -> Ask:
    prompt = f"{_setting(h)} ¿Cuántas cartas tienes en la mano cuando empieza la ronda siguiente?"
    return Ask(prompt, "integer", sections=(LIMITE, LIMITE_RESUMEN))


def _explain_limit(h: Hand, answer: Hashable) -> str:
    return f"Tendrás {answer}: al final de cada ronda la mano se reduce a un máximo de diez cartas."


register(
    Template(
        GAME,
        "limite-de-mano",
        "question",
        (LIMITE, LIMITE_RESUMEN),
        _draw_limit,
        _ask_limit,
        _answer_hand,
        _explain_limit,
        entry=False,
    )
)
