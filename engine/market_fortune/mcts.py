"""``bot:mcts`` tuned for Market Fortune: ISMCTS sweeps with short heuristic rollouts scored by a fitted estimate.

Each decision samples worlds consistent with the seat's view (:mod:`.determinize`, with new die rolls) and
plays each world from every legal move, with the same random stream (a sweep, see
:mod:`club_agentes.engine.core.mcts`). Below the move the tree goes on; then the heuristic bot plays both
seats for 12 decisions (one in ten at random; it reads :func:`rollout_view`, a quick view of the world) and
:func:`estimate` scores where it stops: a logistic model of the winner fitted on heuristic games. The
heuristic's own move stands unless another does better, world by world, by more than 2.5 standard errors:
in Market Fortune the moves' values under heuristic play differ by less than the sampled worlds of a search
can resolve (``benchmarks/mcts_regret.py``: the best move of 100 worlds gains nothing over the heuristic's
on 100 others), so a bolder search only swaps the heuristic's move for noise.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core.mcts import Tuning, softmax, weighted_scores
from club_agentes.engine.market_fortune.bots import HeuristicBot
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_IND,
    CARD_STRAT,
    CARD_TYPE,
    CARD_VAL,
    IS_BLUE,
    RETURN,
    STOCK,
    card_json,
)
from club_agentes.engine.market_fortune.scoring import inv_value, portfolio_value
from club_agentes.engine.market_fortune.state import MAX_INVESTMENTS, Investment, State
from club_agentes.engine.market_fortune.views import pending

STRENGTH = (
    "information-set MCTS over sampled worlds (heuristic rollouts cut after a few decisions, scored by "
    "progress to 4 investments and 25M): level with the heuristic bot, 52.8% of 72 2-seat games at 500 ms, as "
    "the deal and dice decide most games; figures: benchmarks/ladder.py"
)
"""The ``strength`` line of the tuned bot (``list_games`` shows it)."""

FEATURES = (
    "portfolio value",
    "investments",
    "best pairs' value",
    "best pairs",
    "strategies",
    "blue strategies",
    "on turn",
)
"""What :func:`features` measures of a seat (Fortuna)."""

WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.097, -0.143, 0.113, -0.271, 0.055, 0.184, -0.014),
    (0.135, -0.269, 0.179, -0.486, 0.118, 0.072, 0.015),
    (0.311, 1.465, 0.114, 0.674, -0.116, 0.293, 1.057),
)
"""Logit weight of each of :data:`FEATURES` per :func:`stage` (0: nobody has 2 investments; 1: someone has 2 or
3; 2: someone has 4): a logistic regression of the winner on the two seats' difference in features, fitted by
``benchmarks/mcts_estimates.py`` over 2,000 seeded 2-seat Fortuna games of the heuristic bot against itself."""


def _pair_values(hand: list[int]) -> list[int]:
    """Return the values of the best disjoint one-industry ($, +R) pairs in ``hand``, best first."""
    stocks: dict[int, list[int]] = {}
    returns: dict[int, list[int]] = {}
    for c in hand:
        kind = CARD_TYPE[c]
        if kind == STOCK:
            stocks.setdefault(CARD_IND[c], []).append(CARD_VAL[c])
        elif kind == RETURN:
            returns.setdefault(CARD_IND[c], []).append(CARD_VAL[c])
    out: list[int] = []
    for ind, ss in stocks.items():
        rs = returns.get(ind)
        if rs:
            ss.sort(reverse=True)
            rs.sort(reverse=True)
            out += [a + b for a, b in zip(ss, rs, strict=False)]
    out.sort(reverse=True)
    return out


def features(st: State, seat: int) -> tuple[float, ...]:
    """Return :data:`FEATURES` of ``seat`` in a full state (a sampled world)."""
    k = len(st.invs[seat])
    pairs = _pair_values(st.hands[seat])[: MAX_INVESTMENTS - k]
    strats = st.strats[seat]
    return (
        float(portfolio_value(st, seat)),
        float(k),
        float(sum(pairs)),
        float(len(pairs)),
        float(len(strats)),
        float(sum(1 for c in strats if IS_BLUE[c])),
        1.0 if st.turn == seat else 0.0,
    )


def stage(st: State) -> int:
    """Return the stage of the game whose :data:`WEIGHTS` apply: the most investments of a seat, halved."""
    return min(2, max(len(i) for i in st.invs) // 2)


def estimate(st: State) -> list[float] | None:
    """Return each seat's chance to win a cut-off world, ``None`` once over.

    A softmax over the seats of the :data:`WEIGHTS`-weighted :func:`features` (for two seats: the fitted
    logistic model). Familia counts investments and pairs only; in Campeonato the millions already credited
    count as portfolio value, at a third of their weight (a match runs to 100M over several games).
    """
    if st.over:
        return None
    if st.config.mode == "familia":
        scores = []
        for s in range(st.n):
            k = len(st.invs[s])
            scores.append(1.2 * k + 0.5 * len(_pair_values(st.hands[s])[: MAX_INVESTMENTS - k]))
    else:
        w = WEIGHTS[stage(st)]
        scores = weighted_scores(w, features, st, st.n)
        if st.config.mode == "campeonato":
            scores = [x + w[0] * st.totals[s] / 3.0 for s, x in enumerate(scores)]
    return softmax(scores)


_ATTACK_WORDS = {"cards": "the cards in hand", "investments": "investments", "turn": "the next turn"}


def _own_investment(k: int, inv: Investment) -> dict[str, Any]:
    return {
        "index": k,
        "face_up": inv.face_up,
        "has_green": inv.green >= 0,
        "stock": card_json(inv.stock),
        "return": card_json(inv.ret),
        "value": inv_value(inv),
    }


def _top(st: State, pile: int) -> dict[str, Any] | None:
    disc = st.discards[pile]
    return card_json(disc[-1]) if disc and not st.facedown[disc[-1]] else None


def rollout_view(st: State, seat: int) -> dict[str, Any]:
    """Return the parts of ``seat``'s view that the heuristic bot reads, built straight from a sampled world.

    A rollout asks the heuristic bot for hundreds of decisions per search; the full view (every card's
    visibility worked out) is most of their cost. Every value here equals the full view's (its own hand,
    strategies and investments, the other seats' counts, the discard tops, the step, the attack), so the bot
    decides the same; a test checks it over whole games.
    """
    players = []
    for s in range(st.n):
        if s == seat:
            invs = [_own_investment(k, inv) for k, inv in enumerate(st.invs[s])]
        else:
            invs = [
                {"index": k, "face_up": inv.face_up, "has_green": inv.green >= 0} for k, inv in enumerate(st.invs[s])
            ]
        players.append({"seat": s, "strategies": len(st.strats[s]), "investments": invs})
    out: dict[str, Any] = {
        "you": seat,
        "turn": {"seat": st.turn, "step": st.step},
        "decision": {"kind": pending(st).kind},
        "piles": {"stock": {"discard_top": _top(st, 0)}, "return": {"discard_top": _top(st, 1)}},
        "players": players,
        "hand": [card_json(c) for c in sorted(st.hands[seat])],
        "strategies": [card_json(c) for c in sorted(st.strats[seat])],
        "portfolio_value": portfolio_value(st, seat),
    }
    if st.turn == seat and st.momentum >= 0:
        out["momentum_card"] = CARD_ID[st.momentum]
    atk = st.attack
    if atk is not None:
        red = CARD_STRAT[atk.card]
        assert red is not None
        out["attack"] = {"attacker": atk.attacker, "attacks": _ATTACK_WORDS[red.spec.attacks]}
    return out


TUNING = Tuning(
    HeuristicBot,
    STRENGTH,
    estimate=estimate,
    rollout_view=rollout_view,
    rollout_depth=12,
    epsilon=0.1,
    switch_z=2.5,
)
"""Market Fortune's ``bot:mcts``: sweeps guided by the heuristic, rollouts of 12 decisions (one in ten at random),
a switch only at 2.5 standard errors; 500 CPU milliseconds per decision by default."""

make_bot = TUNING.make_bot
