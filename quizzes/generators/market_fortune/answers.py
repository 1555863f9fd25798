"""The engine's answers to the hand-written Market Fortune items (their ``computed`` field names these).

Each function builds the item's situation with the engine's scenario builder and plays it, or reads
the engine's component data; none restates a rule. Example: ``least_fourth_value(8, 6, 5)`` forms
three investments worth 8M, 6M and 5M, then tries each fourth investment from the smallest and
returns the first value with which the engine's declaration wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from club_agentes.engine.market_fortune.components import COMPONENTS, INDUSTRIES, STRATEGIES
from club_agentes.engine.market_fortune.scenario import position, rig_die
from club_agentes.engine.market_fortune.scoring import goes_last, inv_value
from club_agentes.engine.market_fortune.state import Investment
from club_agentes.quizzes.generators.market_fortune.common import (
    apply,
    deciding,
    engine,
    legal,
    player,
    quiet_turn,
    strategy_id,
)

NOBODY = "Ningún jugador"
_CODES = [i.code for i in INDUSTRIES]


def _pair(k: int, total: int) -> tuple[str, str]:
    """A $ and a +R of industry ``k`` worth ``total`` together (2 to 10)."""
    a = min(5, total - 1)
    return f"MF-A-{_CODES[k]}-{a}", f"MF-R-{_CODES[k]}-{total - a}"


def _pairs(*values: int) -> list[tuple[str, str]]:
    return [_pair(k, v) for k, v in enumerate(values)]


def _declare(values: Sequence[int], mode: str = "fortuna") -> object:
    """Form investments worth ``values`` (the last one now, with +) and declare; return the state."""
    pairs = _pairs(*values)
    st = position(2, mode=mode, investments={0: pairs[:-1]}, hands={0: pairs[-1]}, strategy_top=["MF-E-ROBO-1"])
    rig_die(st, True)
    apply(st, 0, f"risk {pairs[-1][0]} {pairs[-1][1]}")
    if deciding(st) == 0 and "declare" in legal(st, 0):
        apply(st, 0, "declare")
        if deciding(st) == 0 and "reveal" in legal(st, 0):
            apply(st, 0, "reveal")
    return st


def least_fourth_value(*three: int) -> int:
    """The least value of a fourth investment with which declaring victory wins in Fortuna.

    Raises:
        ValueError: no fourth investment (2M to 10M) wins.
    """
    for v in range(2, 11):
        if engine().result(_declare([*three, v])) is not None:
            return v
    raise ValueError(f"no fourth investment wins with {three}")


def investments_after_declaring(*values: int) -> int:
    """Investments left on the table after declaring victory with four investments worth ``values``."""
    st = _declare(values)
    if engine().result(st) is None:
        returns = [m for m in legal(st, 0) if m.startswith("return")]
        apply(st, 0, returns[0])
    return len(player(st, 0)["investments"])


def portfolio_total(*pairs: tuple[int, int]) -> int:
    """The value of a portfolio of ``($, +R)`` investments, as the final count shows it."""
    invs = [(f"MF-A-{_CODES[k]}-{a}", f"MF-R-{_CODES[k]}-{r}", None, True) for k, (a, r) in enumerate(pairs)]
    st = position(2, investments={0: invs})
    return sum(int(i["value"]) for i in player(st, 0)["investments"])


def building_cards_in_hand(investments: int) -> int:
    """Building cards left in hand after forming ``investments`` investments from the deal's 8 cards."""
    hand = [c for p in _pairs(*([5] * 4)) for c in p]
    st = position(2, hands={0: hand}, strategy_top=[strategy_id("Robo", k) for k in (1, 2, 3)])
    for k in range(investments):
        rig_die(st, True)
        a, r = _pair(k, 5)
        apply(st, 0, f"risk {a} {r}")
        if k == investments - 1:
            break
        while deciding(st) == 0:
            apply(st, 0, "skip")
        quiet_turn(st, 1)
    return int(player(st, 0)["hand"])


def hand_after_risk(investments: int, face: str) -> int:
    """Building cards in hand after an Arriesgar with ``investments`` formed before it and the die on ``face``."""
    invs = _pairs(*([4] * investments))
    pair = _pair(investments, 6)
    hand = [*pair, *(f"MF-A-{_CODES[11 - k]}-1" for k in range(6 - 2 * investments))]
    st = position(2, hands={0: hand}, investments={0: invs})
    rig_die(st, face == "+")
    apply(st, 0, f"risk {pair[0]} {pair[1]}")
    return int(player(st, 0)["hand"])


def championship_missing(*won: int) -> int:
    """Millions still missing to win the Campeonato after winning games credited ``won``."""
    st = position(2, mode="campeonato", won=[(0, w) for w in won])
    match = engine().view(st, None)["match"]
    return max(0, int(match["target"]) - int(match["totals"][0]))


def who_goes_last(counts: Mapping[str, int]) -> str:
    """Who goes last (the engine's market term), or ``"Ningún jugador"``.

    Raises:
        ValueError: several players go last (the item asks for one).
    """
    names = list(counts)
    invs = {}
    k = 0
    for seat, name in enumerate(names):
        invs[seat] = [(f"MF-A-{_CODES[k + i]}-2", f"MF-R-{_CODES[k + i]}-2") for i in range(counts[name])]
        k += counts[name]
    st = position(len(names), investments=invs)
    last = [n for seat, n in enumerate(names) if goes_last(st, seat)]
    if len(last) > 1:
        raise ValueError(f"{last} all go last")
    return last[0] if last else NOBODY


def optimized_value(accion: int, rendimiento: int, swapped: str, new_card: int) -> int:
    """The value of an investment ``($, +R)`` once its ``swapped`` card (``"$"`` or ``"+R"``) is ``new_card``."""
    stock, ret = f"MF-A-ENE-{accion}", f"MF-R-ENE-{rendimiento}"
    new = f"MF-{'A' if swapped == '$' else 'R'}-ENE-{new_card}"
    hand = [new, *(f"MF-A-{_CODES[k]}-1" for k in range(1, 6))]
    st = position(2, hands={0: hand}, investments={0: [(stock, ret)]})
    swap = [m for m in legal(st, 0) if m.startswith("optimise") and m.endswith(new)]
    apply(st, 0, swap[0])
    mine = engine().view(st, 0)["players"][0]["investments"][0]
    return int(mine["value"])


def first_defender(seats: Sequence[str], attacker: str) -> str:
    """Who is asked first to defend against a group attack (Inflación) played by ``attacker``."""
    a = list(seats).index(attacker)
    hands = {s: [f"MF-A-{_CODES[s]}-1", f"MF-R-{_CODES[s]}-1"] for s in range(len(seats))}
    st = position(len(seats), turn=a, hands=hands, strategies={a: [strategy_id("Inflación")]})
    apply(st, a, f"play {strategy_id('Inflación')}")
    seat = deciding(st)
    assert seat is not None
    return seats[seat]


def combined_extremes() -> int:
    """The value of the most valuable investment plus that of the least valuable (component data)."""
    top, low = max(COMPONENTS.values), min(COMPONENTS.values)
    return inv_value(Investment(top - 1, 60 + top - 1)) + inv_value(Investment(low - 1, 60 + low - 1))


def first_player(rolls: Mapping[str, str]) -> str:
    """Who starts when the first-player roll comes up ``rolls`` (seat order = the mapping's order).

    Raises:
        ValueError: no game in the searched seeds rolls that.
    """
    names = list(rolls)
    want = ", ".join(f"seat {i} {'+' if rolls[n] == '+' else '−'}" for i, n in enumerate(names))
    for seed in range(5000):
        st, events = engine().start(engine().make_config(len(names), {}), seed)
        if any(e.text.startswith(f"first-player roll 1: {want};") for e in events):
            seat = deciding(st)
            assert seat is not None
            return names[seat]
    raise ValueError(f"no seed rolls {rolls}")


def most_investments() -> int:
    """How many investments the 8 building cards of a hand can form, one Arriesgar after another."""
    hand = [c for p in _pairs(*([5] * 4)) for c in p]
    st = position(2, hands={0: hand}, strategy_top=[strategy_id("Robo", k) for k in (1, 2, 3)])
    formed = 0
    while any(m.startswith("risk") for m in legal(st, 0)):
        rig_die(st, True)
        apply(st, 0, next(m for m in legal(st, 0) if m.startswith("risk")))
        formed = len(player(st, 0)["investments"])
        while deciding(st) == 0 and "skip" in legal(st, 0):
            apply(st, 0, "skip")
        if deciding(st) != 1:
            break
        quiet_turn(st, 1)
    return formed


def least_games_to_match() -> int:
    """The fewest won games that reach the Campeonato's target, each with the best possible portfolio."""
    top = max(COMPONENTS.values)
    best = 4 * inv_value(Investment(top - 1, 60 + top - 1))
    st = position(2, mode="campeonato")
    target = int(engine().view(st, None)["match"]["target"])
    return -(-target // best)


def die_faces() -> int:
    """The faces of the Fortune die (component data)."""
    return COMPONENTS.plus_faces + COMPONENTS.minus_faces


def strategy_names_count() -> int:
    """The distinct names of the 60 strategies (component data)."""
    return len(STRATEGIES)
