"""``bot:mcts`` tuned for Yo soy el jefe: ISMCTS through the negotiation protocol, heuristic rollouts cut short.

The tree covers every act of the negotiation protocol as the engine offers it (negotiate or roll, family
cards, offers and bids with their prices, accepts and refusals, travel, hire, boss and stop cards,
passes, close and fail): each is one decision of the seat the protocol asks. Two things keep the
branching small enough to search:

* a price is searched among a few amounts only (:func:`candidates`): those nearest to fixed shares of an
  even split of the payout, in millions and in dividends (the rollouts may still name any amount);
* each decision is a sweep (every candidate move played in the same sampled worlds with the same random
  stream); rollouts let the heuristic bot play for 8 decisions (one in ten at random) and :func:`estimate`
  scores where they stop: a logistic model of the winner fitted on heuristic games, in which an investor
  card weighs as much as 22M early on and 4M late (so the search finds hires the heuristic leaves aside). The
  heuristic's own move stands unless another does better, world by world, by more than a standard error.

Sampled worlds deal the unseen influence cards anew (:mod:`.determinize`) and roll new dice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from club_agentes.engine.core import Game
from club_agentes.engine.core.mcts import TUNED, Policies, Tuning, softmax, weighted_scores
from club_agentes.engine.yo_soy_el_jefe.bots import HeuristicBot
from club_agentes.engine.yo_soy_el_jefe.moves import MILLIONS, Price
from club_agentes.engine.yo_soy_el_jefe.state import (
    AGREED,
    SLOT_BOSS,
    SLOT_FAMILY,
    SLOT_GREY,
    SLOT_HIRE,
    SLOT_STOP,
    SLOT_TRAVEL,
    SPACES,
    State,
)

STRENGTH = (
    "information-set MCTS through the negotiation protocol (offers, prices, accepts, cards) over sampled "
    "worlds, heuristic rollouts cut short and scored by money: beat the heuristic bot in 16 of 16 2-seat games at "
    "500 ms and at 100 ms; figures: benchmarks/ladder.py"
)
"""The ``strength`` line of the tuned bot (``list_games`` shows it)."""

PRICE_SHARES = (0.5, 0.8, 1.0, 1.2, 1.5, 2.0)
"""The shares of an even split of the payout (payout / investors needed) whose nearest prices are searched."""


def candidates(game: Game[Any, Any, Any], world: State, seat: int, moves: list[Any]) -> list[Any]:
    """Return the moves the tree branches on: every move, except that a price is one of a few amounts.

    For each of :data:`PRICE_SHARES`, the nearest amount in millions and the nearest in dividends are kept.
    """
    if len(moves) <= len(PRICE_SHARES) or not isinstance(moves[0], Price) or world.neg is None:
        return moves
    neg = world.neg
    share = neg.payout / max(1, SPACES[neg.space].investors_needed)
    value = max(1, neg.value)
    keep: list[Any] = []
    for unit in (MILLIONS, None):
        pool = [m for m in moves if (m.unit == MILLIONS) == (unit == MILLIONS)]
        if not pool:
            continue
        for f in PRICE_SHARES:
            target = f * share
            best = min(pool, key=lambda m: abs((m.amount if m.unit == MILLIONS else m.amount * value) - target))
            if best not in keep:
                keep.append(best)
    return keep or moves


FEATURES = (
    "money",
    "investor cards",
    "hand",
    "boss cards",
    "stop cards",
    "hire cards",
    "travel cards",
    "family cards",
    "millions agreed in the deal",
)
"""What :func:`features` measures of a seat."""

WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.052, 1.164, 0.091, 0.201, 0.321, 0.05, 0.009, -0.108, 0.161),
    (0.114, 1.0, 0.086, 0.3, 0.223, 0.017, -0.014, -0.017, 0.038),
    (0.162, 0.601, 0.003, 0.36, 0.08, -0.059, -0.054, 0.007, 0.081),
)
"""Logit weight of each of :data:`FEATURES` per :func:`stage` (deals closed: up to 4, 5 to 9, 10 or more): a
logistic regression of the winner on the two seats' difference in features, fitted by
``benchmarks/mcts_estimates.py`` over 2,000 seeded 2-seat games of the heuristic bot against itself."""


def features(state: State, seat: int) -> tuple[float, ...]:
    """Return :data:`FEATURES` of ``seat`` in a full state (a sampled world)."""
    c = state.counts[seat]
    agreed = 0
    if state.neg is not None:
        agreed = sum(q.millions for (s, _), q in state.neg.quotes.items() if s == seat and q.status == AGREED)
    return (
        float(state.money[seat]),
        float(sum(1 for owner in state.owner if owner == seat)),
        float(len(state.hands[seat])),
        float(c[SLOT_BOSS]),
        float(c[SLOT_STOP]),
        float(c[SLOT_HIRE]),
        float(sum(c[SLOT_TRAVEL : SLOT_GREY + 1])),
        float(sum(c[SLOT_FAMILY:SLOT_TRAVEL])),
        float(agreed),
    )


def stage(state: State) -> int:
    """Return the stage of the game whose :data:`WEIGHTS` apply, by the deals closed (the end is rolled from 10)."""
    return 0 if state.deals_done < 5 else 1 if state.deals_done < 10 else 2


def estimate(state: State) -> list[float] | None:
    """Return each seat's chance to win a cut-off world, ``None`` once over.

    A softmax over the seats of the :data:`WEIGHTS`-weighted :func:`features` (for two seats: the fitted
    logistic model).
    """
    if state.phase == "over":
        return None
    return softmax(weighted_scores(WEIGHTS[stage(state)], features, state, state.n))


TUNING = Tuning(
    HeuristicBot,
    STRENGTH,
    Policies(estimate=estimate, candidates=candidates),
    epsilon=0.1,
    options=replace(TUNED, rollout_depth=8),
)
"""Yo soy el jefe's ``bot:mcts``: a few prices per offer or bid, rollouts of 8 decisions (one in ten at random), a
switch at one standard error; 500 CPU milliseconds per decision by default."""

make_bot = TUNING.make_bot
