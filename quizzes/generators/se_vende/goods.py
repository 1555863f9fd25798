"""Se Vende's goods: Consumir (IV) and Producir (V).

The prompt names your worlds and developments and which hold a good; the printed cards say each
world's kind of good and each power, the rulebook says what selling gives
(se-vende/preguntas/comercio), that a "hasta N" power takes every good it can
(se-vende/preguntas/poderes-hasta-n-bienes), what 2x PV doubles (se-vende/preguntas/bonus-2x-pv)
and what Producir fills (se-vende/preguntas/producir). The engine plays the phase:

* ``venta``: you sell one good with Consumir: Comercio; how many cards do you draw?
* ``puntos-al-consumir``: you use one consume power; how many victory points do you earn? (never one point
  per good, nor two: that is what a guess says, so such situations are drawn again)
* ``bienes-producidos``: how many goods do your worlds receive in Producir? (never one per card without a
  good: only the printed cards say which are production worlds)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.cards import GOOD_NAMES, PowerName
from club_agentes.engine.se_vende.scenario import card_id
from club_agentes.engine.se_vende.state import State as SeVendeState
from club_agentes.quizzes.generators.se_vende.common import (
    COMERCIO,
    DOBLE,
    GAME,
    HASTA_N,
    PRODUCIR,
    STARTS,
    Steer,
    choice_words,
    design,
    filler,
    keys_where,
    names,
    play_round,
    player,
    section,
    setting,
    table_state,
)
from club_agentes.quizzes.model import Ask, Redraw, Template, register
from club_agentes.quizzes.wording import people

WORLDS_WITH_GOODS = tuple(keys_where(lambda d: d.world in ("windfall", "production") and not d.defence))


@dataclass(frozen=True)
class Goods:
    """Your tableau (with the worlds holding a good), the round's action cards, and what you sell or use."""

    names: tuple[str, ...]
    actions: tuple[str, ...]
    tableau: tuple[str, ...]
    goods: tuple[str, ...]
    sell: str
    power: str

    def state(self) -> SeVendeState:
        hand = tuple(filler(Rng(len(self.tableau)), 3, self.tableau))
        return table_state(self.tableau, hand, len(self.actions), goods=[card_id(k) for k in self.goods])


def _setting(g: Goods) -> str:
    if g.goods:
        held = "tiene un bien" if len(g.goods) == 1 else "tienen un bien cada uno"
        goods = f"; {names(g.goods)} {held}"
    else:
        goods = "; ninguno de esos mundos tiene bienes"
    return setting(g.names, g.actions, g.tableau, goods, choice_words(g.actions[0]))


def _draw_goods(rng: Rng, mine: str, power: PowerName | None) -> Goods:
    seats = 2 + rng.below(3)
    start = rng.choice(list(STARTS))
    worlds = list(WORLDS_WITH_GOODS)
    rng.shuffle(worlds)
    holding = worlds[: 1 + rng.below(3)]
    extra: list[str] = []
    if power is not None:
        with_power = [k for k in keys_where(lambda d: any(p.name is power for p in d.powers)) if k not in holding]
        rng.shuffle(with_power)
        extra = with_power[: 1 + rng.below(2)]
    tableau = [start, *holding, *(k for k in extra if k != start)]
    if len(set(tableau)) != len(tableau):
        raise Redraw
    goods = [k for k in holding]
    if design(start).world in ("windfall", "production") and rng.below(2) == 0:
        goods.append(start)
    others = ["explorar-5", "explorar-1-1", "desarrollar", "asentar", "producir", "comercio", "2x-pv"]
    actions = [mine, *(rng.choice(others) for _ in range(seats - 1))]
    return Goods(tuple(people(rng, seats - 1)), tuple(actions), tuple(tableau), tuple(goods), rng.choice(goods), "")


# --------------------------------------------------------------------------- selling


def _draw_sale(rng: Rng) -> Goods:
    return _draw_goods(rng, "comercio", PowerName.TRADE_BONUS if rng.below(3) else None)


def _ask_sale(g: Goods) -> Ask:
    prompt = (
        f"{_setting(g)} En la fase de Consumir vendes el bien de {design(g.sell).name}. ¿Cuántas cartas robas por "
        "esa venta?"
    )
    return Ask(prompt, "integer", sections=(COMERCIO, section(g.sell), *(section(k) for k in g.tableau)))


def _steer_sale(world: str) -> Steer:
    def steer(seat: int, moves: list[str]) -> str | None:
        if seat == 0:
            wanted = f"sell {card_id(world)}"
            if wanted in moves:
                return wanted
            if any(m.startswith("sell ") for m in moves):
                raise Redraw
        return None

    return steer


def _answer_sale(g: Goods) -> int:
    st = g.state()
    before: list[int] = []

    def steer(seat: int, moves: list[str]) -> str | None:
        pick = _steer_sale(g.sell)(seat, moves)
        if pick is not None:
            before.append(int(player(st, 0)["hand_size"]))
        return pick

    play_round(st, dict(enumerate(g.actions)), steer, stop=lambda: bool(before))
    if not before:
        raise Redraw
    return int(player(st, 0)["hand_size"]) - before[0]


def _explain_sale(g: Goods, answer: Hashable) -> str:
    kind = GOOD_NAMES.get(design(g.sell).good or "", "su tipo")
    return f"Robas {answer}: el bien de {design(g.sell).name} es de {kind}, y a eso se suman tus poderes de venta."


SALE = register(Template(GAME, "venta", "question", (COMERCIO,), _draw_sale, _ask_sale, _answer_sale, _explain_sale))

# --------------------------------------------------------------------------- consuming


def _draw_consume(rng: Rng) -> Goods:
    power = rng.choice(keys_where(lambda d: any(p.name is PowerName.CONSUME_GOODS for p in d.powers)))
    kinds = {p.good for p in design(power).powers if p.name is PowerName.CONSUME_GOODS}
    fitting = [k for k in WORLDS_WITH_GOODS if k != power and ("any" in kinds or design(k).good in kinds)]
    others = [k for k in WORLDS_WITH_GOODS if k != power and k not in fitting]
    rng.shuffle(fitting)
    rng.shuffle(others)
    holding = fitting[: 1 + rng.below(3)] + others[: rng.below(2)]
    start = rng.choice([k for k in STARTS if k not in (power, *holding)])
    tableau = tuple(dict.fromkeys([start, power, *holding]))
    seats = 2 + rng.below(3)
    mine = ("2x-pv", "2x-pv", "comercio", "asentar", "producir")[rng.below(5)]
    others_actions = ["explorar-5", "desarrollar", "asentar", "producir", "comercio", "2x-pv"]
    actions = [mine, *(rng.choice(others_actions) for _ in range(seats - 1))]
    if not {"comercio", "2x-pv"} & set(actions):
        actions[-1] = "2x-pv"
    names = tuple(people(rng, seats - 1))
    return Goods(names, tuple(actions), tableau, tuple(holding), rng.choice(holding), power)


def _ask_consume(g: Goods) -> Ask:
    power = f"usas el poder de consumir de {design(g.power).name}, y ningún otro"
    if g.actions[0] == "comercio":
        power = f"primero vendes el bien de {design(g.sell).name} y después {power}"
    prompt = f"{_setting(g)} En la fase de Consumir, {power}. ¿Cuántos puntos de victoria ganas en esa fase?"
    return Ask(prompt, "integer", sections=(HASTA_N, DOBLE, COMERCIO, section(g.power), *(section(k) for k in g.goods)))


def _answer_consume(g: Goods) -> int:
    st = g.state()
    power = card_id(g.power)
    used = [False]

    def steer(seat: int, moves: list[str]) -> str | None:
        if seat != 0:
            return None
        if any(m.startswith("sell ") for m in moves):
            return _steer_sale(g.sell)(seat, moves)
        mine = [m for m in moves if m.startswith(f"use {power} ")]
        if mine and not used[0]:
            used[0] = True
            return mine[0]
        return None

    chips = int(player(st, 0)["chips"])
    play_round(st, dict(enumerate(g.actions)), steer)
    if not used[0]:
        raise Redraw
    earned = int(player(st, 0)["chips"]) - chips
    held = len(g.goods) - (1 if g.actions[0] == "comercio" else 0)
    if earned in (held, 2 * held):
        raise Redraw  # "a point for each good (doubled with 2x PV)": the guess of one who never read the card
    return earned


def _explain_consume(g: Goods, answer: Hashable) -> str:
    return (
        f"Ganas {answer} PV: el poder de {design(g.power).name} toma todos los bienes que admite, hasta su límite; "
        "con 2x PV esos puntos se duplican."
    )


CONSUME = register(
    Template(
        GAME,
        "puntos-al-consumir",
        "question",
        (HASTA_N, DOBLE, COMERCIO),
        _draw_consume,
        _ask_consume,
        _answer_consume,
        _explain_consume,
    )
)

# --------------------------------------------------------------------------- producing


def _draw_produce(rng: Rng) -> Goods:
    mine = "producir" if rng.below(2) == 0 else rng.choice(["desarrollar", "asentar", "explorar-5"])
    g = _draw_goods(rng, mine, PowerName.PRODUCE_WINDFALL if rng.below(3) == 0 else None)
    goods = tuple(k for k in g.goods if rng.below(2) == 0)
    actions = ["producir" if a in ("comercio", "2x-pv") else a for a in g.actions]
    if "producir" not in actions:
        actions[-1] = "producir"
    return Goods(g.names, tuple(actions), g.tableau, goods, "", "")


def _ask_produce(g: Goods) -> Ask:
    prompt = (
        f"{_setting(g)} En la fase de Producir, cada vez que puedes elegir producir un bien más, lo haces. ¿Cuántos "
        "bienes nuevos reciben tus mundos en esa fase?"
    )
    return Ask(prompt, "integer", sections=(PRODUCIR, *(section(k) for k in g.tableau)))


def _answer_produce(g: Goods) -> int:
    st = g.state()

    def steer(seat: int, moves: list[str]) -> str | None:
        if seat == 0:
            made = [m for m in moves if m.startswith("produce ")]
            return made[0] if made else None
        return None

    before = int(player(st, 0)["goods"])
    play_round(st, dict(enumerate(g.actions)), steer)
    made = int(player(st, 0)["goods"]) - before
    empty = len(g.tableau) - len(g.goods)
    if made in (empty, empty + (g.actions[0] == "producir")):
        raise Redraw  # "every card without a good gets one": what a guess says without the printed worlds
    return made


def _explain_produce(g: Goods, answer: Hashable) -> str:
    return (
        f"Reciben {answer}: un bien cada mundo de producción sin bien y, si elegiste Producir (o un poder lo da), "
        "uno de tus mundos de caída sin bien."
    )


PRODUCE = register(
    Template(
        GAME,
        "bienes-producidos",
        "question",
        (PRODUCIR,),
        _draw_produce,
        _ask_produce,
        _answer_produce,
        _explain_produce,
    )
)
