"""The engine's answers to the hand-written Se Vende items (their ``computed`` field names these).

Each function builds the item's situation with the engine's scenario builder and plays the round
with the engine (:func:`~club_agentes.quizzes.generators.se_vende.common.play_round`), or reads the
engine's data; none restates a rule. Example: ``hand_discard(13)`` gives a seat 13 cards, plays a
round in which only Producir runs, and counts the cards the engine makes it discard at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.actions import ACTION_NAMES, PHASE_NAMES
from club_agentes.engine.se_vende.cards import GOOD_NAMES, load_deck
from club_agentes.engine.se_vende.scenario import card_id
from club_agentes.quizzes.generators.se_vende.common import (
    design,
    design_of,
    engine,
    filler,
    keys_where,
    play_round,
    player,
    table_state,
    view_of,
)

_CODE_OF = {name: code for code, name in ACTION_NAMES.items()}
_CODE_OF.update({"Explorar": "explorar-5", "Consumir": "2x-pv"})


def _codes(choices: Sequence[str]) -> dict[int, str]:
    return {i: _CODE_OF[c] for i, c in enumerate(choices)}


def _phases_run(choices: Sequence[str]) -> list[str]:
    st = table_state(("puerto-marea",), tuple(filler(Rng(1), 4, ["puerto-marea"])), len(choices))
    return play_round(st, _codes(choices)).phases()


def phase_count() -> int:
    """The phases a seat chooses among (the engine's phase list)."""
    return len(PHASE_NAMES)


def start_hand_size() -> int:
    """Cards in hand after the setup discards (a new game of the engine)."""
    st = engine().new_game(engine().make_config(2, {}), 1)
    for seat in range(2):
        for _ in range(2):
            engine().apply(st, seat, engine().legal_moves(st, seat)[0])
    return int(view_of(st)["players"][0]["hand_size"])


def start_worlds_shuffled_in(seats: int) -> int:
    """Start worlds that go into the deck at setup: those the engine does not deal to a tableau."""
    st = engine().new_game(engine().make_config(seats, {}), 1)
    starts = {load_deck().ids[c] for c in load_deck().start_cards}
    dealt = {t["id"] for p in view_of(st)["players"] for t in p["tableau"]}
    return len(starts - dealt)


def phases_run_count(choices: Sequence[str]) -> int:
    """How many phases the engine runs when the seats choose ``choices`` (one per seat)."""
    return len(_phases_run(choices))


def first_phase_run(choices: Sequence[str]) -> str:
    """The first phase the engine runs when the seats choose ``choices``."""
    return _phases_run(choices)[0]


def phases_after_count(choices: Sequence[str], phase: str) -> int:
    """How many phases the engine runs after ``phase`` in a round of ``choices``."""
    run = _phases_run(choices)
    return len(run) - run.index(phase) - 1


def hand_discard(cards: int) -> int:
    """Cards the engine makes a seat with ``cards`` in hand discard at the end of a round that changes no hand."""
    st = table_state(("bastion-de-hierro",), tuple(filler(Rng(2), cards, ["bastion-de-hierro"])), 2)
    log = play_round(st, {0: "producir", 1: "producir"})
    return log.count(0, "discard")


def first_round_discard(drawn: int) -> int:
    """Cards discarded at the end of the first round by a seat that draws ``drawn`` after the setup hand."""
    return hand_discard(start_hand_size() + drawn)


def hand_discard_after_trade(cards: int, good: str) -> int:
    """End-of-round discards of a seat with ``cards`` in hand that sells one good of kind ``good`` (Comercio)."""
    kind = next(k for k, v in GOOD_NAMES.items() if v == good)
    world = keys_where(lambda d: d.world == "production" and d.good == kind and not d.powers)[0]
    st = table_state(
        ("bastion-de-hierro", world),
        tuple(filler(Rng(3), cards, ["bastion-de-hierro", world])),
        2,
        goods=[card_id(world)],
    )

    def steer(seat: int, moves: list[str]) -> str | None:
        return next((m for m in moves if m.startswith("sell ")), None) if seat == 0 else None

    log = play_round(st, {0: "comercio", 1: "comercio"}, steer)
    return log.count(0, "discard", "Fin de la ronda") or log.count(0, "discard")


def develop_payment(cost: int, chooser: bool) -> int:
    """Cards paid for a development of ``cost`` with no discount power, by a chooser of Desarrollar or not."""
    dev = keys_where(
        lambda d: (
            d.type == "development" and d.cost == cost and not any(p.name.value == "develop_discount" for p in d.powers)
        )
    )[0]
    hand = (dev, *filler(Rng(4), cost + 1, [dev, "bastion-de-hierro"]))
    st = table_state(("bastion-de-hierro",), hand, 2)

    def steer(seat: int, moves: list[str]) -> str | None:
        if seat == 0:
            return next((m for m in moves if m.startswith("place SV-") and design_of(m.split()[1]) == dev), None)
        return None

    log = play_round(st, {0: "desarrollar" if chooser else "producir", 1: "desarrollar"}, steer)
    return log.count(0, "pay", "Desarrollar")


def _consume(powers: tuple[str, ...], goods: tuple[str, ...], hand: int, chooser: bool, use_hand: int = 0) -> int:
    """Victory points a seat earns in Consumir using ``powers`` (design keys) once each, with goods on ``goods``."""
    tableau = ("bastion-de-hierro", *powers, *goods)
    st = table_state(tableau, tuple(filler(Rng(5), hand, tableau)), 2, goods=[card_id(k) for k in goods])
    ids = [card_id(k) for k in powers]
    used: set[str] = set()
    dropped = [0]

    def steer(seat: int, moves: list[str]) -> str | None:
        if seat != 0:
            return None
        for cid in ids:
            mine = [m for m in moves if m.startswith(f"use {cid} ")]
            if mine and cid not in used:
                used.add(cid)
                return mine[0]
        drops = [m for m in moves if m.startswith("discard ")]
        if drops and dropped[0] < use_hand:
            dropped[0] += 1
            return drops[0]
        return None

    chips = int(player(st, 0)["chips"])
    play_round(st, {0: "2x-pv" if chooser else "comercio", 1: "asentar"}, steer)
    return int(player(st, 0)["chips"]) - chips


def _goods_worlds(n: int, kind: str = "") -> tuple[str, ...]:
    worlds = [
        k
        for k in keys_where(lambda d: d.world in ("windfall", "production") and not d.powers and not d.defence)
        if not kind or design(k).good == kind
    ]
    return tuple(worlds[:n])


def consume_power_vp(goods: int, up_to: int, vp: int, doubled: bool) -> int:
    """Points from one consume power of "up to ``up_to`` goods for ``vp`` PV each" with ``goods`` eligible goods."""
    power = keys_where(
        lambda d: (
            any(
                p.name.value == "consume_goods" and p.up_to == up_to and p.vp == vp and p.good == "any"
                for p in d.powers
            )
            and d.type == "development"
        )
    )[0]
    return _consume((power,), _goods_worlds(goods), 2, doubled)


def consume_power_use(goods: int, up_to: int) -> int:
    """Goods one power of "up to ``up_to`` goods" discards when invoked with ``goods`` eligible goods."""
    power = keys_where(
        lambda d: (
            any(p.name.value == "consume_goods" and p.up_to == up_to and p.good == "any" for p in d.powers)
            and d.type == "development"
        )
    )[0]
    worlds = _goods_worlds(goods)
    tableau = ("bastion-de-hierro", power, *worlds)
    st = table_state(tableau, (), 2, goods=[card_id(k) for k in worlds])
    before = int(player(st, 0)["goods"])
    pid = card_id(power)

    def steer(seat: int, moves: list[str]) -> str | None:
        return next((m for m in moves if m.startswith(f"use {pid} ")), None) if seat == 0 else None

    play_round(st, {0: "asentar", 1: "2x-pv"}, steer)
    return before - int(player(st, 0)["goods"])


def consume_total_vp(from_goods: int, from_hand: int, doubled: bool) -> int:
    """Points in a Consumir phase earning ``from_goods`` PV from goods and ``from_hand`` PV from hand discards."""
    rare = _goods_worlds(from_goods // 2, "elementos-raros")
    return _consume(("refineria-central", "bazar-de-las-dunas"), rare, 4, doubled, use_hand=from_hand)


def military_shortfall(military: int, defence: int) -> int:
    """Militar still missing to place a military world of ``defence`` with ``military`` from powers."""
    helpers = keys_where(
        lambda d: (
            any(p.name.value == "settle_military" and p.n == military for p in d.powers) and d.type == "development"
        )
    )
    world = keys_where(lambda d: d.defence == defence)[0]
    st = table_state(("archivo-kepler", helpers[0]), (world,), 2)
    play_round(st, {0: "asentar", 1: "asentar"}, stop=lambda: view_of(st, 0)["step"] == "settle_place")
    have = int(player(st, 0)["military"])
    return max(0, design(world).defence - have)


def goods_produced(empty_production: int, empty_windfall: int, chooser: bool) -> int:
    """Goods a seat's worlds receive in Producir with that many empty worlds (and one production world full)."""
    production = [k for k in keys_where(lambda d: d.world == "production" and not d.powers)][: empty_production + 1]
    windfall = [k for k in keys_where(lambda d: d.world == "windfall" and not d.powers and not d.defence)][
        :empty_windfall
    ]
    tableau = ("archivo-kepler", *production, *windfall)
    st = table_state(tableau, (), 2, goods=[card_id(production[-1])])
    before = int(player(st, 0)["goods"])

    def steer(seat: int, moves: list[str]) -> str | None:
        return next((m for m in moves if m.startswith("produce ")), None) if seat == 0 else None

    play_round(st, {0: "producir" if chooser else "asentar", 1: "producir"}, steer)
    return int(player(st, 0)["goods"]) - before
