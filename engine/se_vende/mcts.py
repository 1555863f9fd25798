"""``bot:mcts`` tuned for Se Vende: ISMCTS over simultaneous steps, heuristic rollouts cut short.

Every decision of Se Vende is taken by the seats at once, and two of its steps are sealed (the secret
choice of action cards; the placements of Desarrollar and Asentar). So:

* each step of a round is a sealed step for the tree (:func:`sealed_step`): each seat's choices in it
  are searched apart (decoupled statistics), so no seat profits from a choice it could not see;
* before an iteration, the sealed choices other seats already made in the current step, which the
  sampled world drew at random, are withdrawn (:func:`reopen`): the tree chooses them for those seats,
  as each would for itself, instead of taking a uniformly random action card as the opponent's;
* each decision is a sweep (every legal move played in the same sampled worlds with the same random
  stream); rollouts let the heuristic bot play for 30 decisions (one in twenty at random; it reads
  :func:`rollout_view`, a quick view of the world), and :func:`estimate` scores where they stop (a logistic
  model of the winner fitted on heuristic games). The heuristic's own move stands unless another does
  better, world by world, by more than a standard error.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from club_agentes.engine.core.mcts import TUNED, Policies, Tuning, softmax, weighted_scores
from club_agentes.engine.se_vende.bots import HeuristicBot
from club_agentes.engine.se_vende.scoring import score
from club_agentes.engine.se_vende.state import (
    DEVELOP_PLACE,
    OVER,
    SELECT,
    SETTLE_PLACE,
    State,
)
from club_agentes.engine.se_vende.table import DECK, DEFS, military

STRENGTH = (
    "information-set MCTS over sampled worlds, the simultaneous and sealed steps searched per seat "
    "(heuristic rollouts cut short, scored by victory points): beat the heuristic bot in 24 of 24 2-seat games "
    "at 500 ms; figures: benchmarks/ladder.py"
)
"""The ``strength`` line of the tuned bot (``list_games`` shows it)."""

FEATURES = ("victory points", "hand", "goods", "tableau", "production and windfall worlds", "developments", "chips")
"""What :func:`features` measures of a seat."""

WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.105, 0.16, -0.063, -0.003, 0.5, 0.118, 0.158),
    (0.24, 0.17, 0.161, -0.047, 0.18, 0.132, 0.097),
    (0.338, 0.11, 0.256, -0.021, -0.024, 0.145, 0.073),
)
"""Logit weight of each of :data:`FEATURES` per :func:`stage` (the largest tableau: up to 5 cards, 6 to 8, 9 or
more): a logistic regression of the winner on the two seats' difference in features, fitted by
``benchmarks/mcts_estimates.py`` over 2,000 seeded 2-seat games of the heuristic bot against itself."""


def sealed_step(state: State) -> Hashable | None:
    """Return the id of the step being played (every step of a round has the seats decide at once)."""
    if state.step == OVER:
        return None
    return (state.round, state.phase, state.step)


def reopen(state: State, seat: int) -> None:
    """Withdraw the sealed choices other seats made in the current sealed step (the sample drew them at random).

    Only the secret action cards and the sealed placements are withdrawn; ``seat`` itself is deciding, so it
    has made no choice in the step yet.
    """
    if state.step == SELECT and not state.actions.has_chosen(seat):
        state.actions = type(state.actions)(state.actions.seats)
        state.version += 1  # a change: what the step kit's memo kept for the state no longer holds
    elif state.step in (DEVELOP_PLACE, SETTLE_PLACE) and not state.placing.has_chosen(seat):
        state.placing = type(state.placing)(state.placing.seats)
        state.version += 1


def features(state: State, seat: int) -> tuple[float, ...]:
    """Return :data:`FEATURES` of ``seat`` in a full state (a sampled world)."""
    tableau = state.tableau[seat]
    return (
        float(score(state, seat)),
        float(len(state.hands[seat])),
        float(sum(1 for c in tableau if c in state.goods)),
        float(len(tableau)),
        float(sum(1 for c in tableau if DEFS[c].world in ("production", "windfall"))),
        float(sum(1 for c in tableau if DEFS[c].is_development)),
        float(state.chips[seat]),
    )


def stage(state: State) -> int:
    """Return the stage of the game whose :data:`WEIGHTS` apply, by the largest tableau (12 cards end the game)."""
    most = max(len(t) for t in state.tableau)
    return 0 if most <= 5 else 1 if most <= 8 else 2


def estimate(state: State) -> list[float] | None:
    """Return each seat's chance to win a cut-off world, ``None`` once over.

    A softmax over the seats of the :data:`WEIGHTS`-weighted :func:`features` (for two seats: the fitted
    logistic model).
    """
    if state.step == OVER:
        return None
    return softmax(weighted_scores(WEIGHTS[stage(state)], features, state, state.n))


def rollout_view(state: State, seat: int) -> dict[str, Any]:
    """Return the parts of ``seat``'s view that the heuristic bot reads, built straight from a sampled world.

    A rollout asks the heuristic bot for hundreds of decisions per search; the full view (every card's
    visibility worked out, the table as it stood when a step began) is most of their cost. The bot reads
    only its own hand, tableau (with which worlds hold a good) and Militar, which are equal here, so it
    decides the same; a test checks it over whole games.
    """
    tableau = []
    for c in state.tableau[seat]:
        d = DEFS[c]
        entry = DECK.views[c]
        if d.world in ("windfall", "production"):
            entry = {**entry, "good": d.good if c in state.goods else None}
        tableau.append(entry)
    return {
        "you": seat,
        "players": {seat: {"seat": seat, "military": military(state, seat), "tableau": tableau}},
        "hand": [DECK.views[c] for c in state.hands[seat]],
    }


TUNING = Tuning(
    HeuristicBot,
    STRENGTH,
    Policies(estimate=estimate, sealed_step=sealed_step, prepare=reopen),
    rollout_view=rollout_view,
    epsilon=0.05,
    options=replace(TUNED, rollout_depth=30),
)
"""Se Vende's ``bot:mcts``: sealed steps searched per seat, rollouts of 30 decisions (one in twenty at random), a
switch at one standard error; 500 CPU milliseconds per decision by default."""

make_bot = TUNING.make_bot
