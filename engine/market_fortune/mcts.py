"""``bot:mcts`` tuned for Market Fortune: rollout sweeps over worlds whose rival hands look played, not dealt.

Each decision samples worlds consistent with the seat's view (:mod:`.determinize`, with new die rolls);
:func:`redeal_hands` then re-deals each rival's hidden building cards so that its hand holds as many pairs
as a hand played to win does (:data:`HAND_PAIRS`, fitted on heuristic games by
``benchmarks/mcts_hands.py``): the uniform deal misjudges the race, e.g. it gives a rival with three
investments its fourth pair about 8% of the time where played hands hold it about a third of the time.
Each world is played from every legal move with the same random stream (a sweep, see
:mod:`club_agentes.engine.core.mcts`), without a tree below the move: the heuristic bot plays both seats
for 12 decisions (one in ten at random; it reads :func:`rollout_view`, a quick view of the world) and
:func:`estimate` scores where it stops: a logistic model of the winner fitted on heuristic games. The
heuristic's own move stands unless another does better, world by world, by more than one standard error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from club_agentes.engine.core.mcts import TUNED, Policies, Tuning, softmax, weighted_scores
from club_agentes.engine.core.rng import Rng
from club_agentes.engine.market_fortune.bots import HeuristicBot
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_IND,
    CARD_STRAT,
    CARD_TYPE,
    CARD_VAL,
    IS_BLUE,
    N_INDUSTRIES,
    RETURN,
    STOCK,
    card_json,
)
from club_agentes.engine.market_fortune.scoring import inv_value, portfolio_value
from club_agentes.engine.market_fortune.state import MAX_INVESTMENTS, Investment, State
from club_agentes.engine.market_fortune.views import pending

STRENGTH = (
    "information-set MCTS over sampled worlds whose rival hands hold pairs as played hands do (heuristic rollouts "
    "cut after a few decisions, scored by progress to 4 investments and 25M): beats the heuristic bot in 59.3% of "
    "280 2-seat games at 500 ms; figures: benchmarks/ladder.py"
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


def features(state: State, seat: int) -> tuple[float, ...]:
    """Return :data:`FEATURES` of ``seat`` in a full state (a sampled world)."""
    k = len(state.invs[seat])
    pairs = _pair_values(state.hands[seat])[: MAX_INVESTMENTS - k]
    strats = state.strats[seat]
    return (
        float(portfolio_value(state, seat)),
        float(k),
        float(sum(pairs)),
        float(len(pairs)),
        float(len(strats)),
        float(sum(1 for c in strats if IS_BLUE[c])),
        1.0 if state.turn == seat else 0.0,
    )


def stage(state: State) -> int:
    """Return the stage of the game whose :data:`WEIGHTS` apply: the most investments of a seat, halved."""
    return min(2, max(len(i) for i in state.invs) // 2)


def estimate(state: State) -> list[float] | None:
    """Return each seat's chance to win a cut-off world, ``None`` once over.

    A softmax over the seats of the :data:`WEIGHTS`-weighted :func:`features` (for two seats: the fitted
    logistic model). Familia counts investments and pairs only; in Campeonato the millions already credited
    count as portfolio value, at a third of their weight (a match runs to 100M over several games).
    """
    if state.over:
        return None
    if state.config.mode == "familia":
        scores = []
        for s in range(state.n):
            k = len(state.invs[s])
            scores.append(1.2 * k + 0.5 * len(_pair_values(state.hands[s])[: MAX_INVESTMENTS - k]))
    else:
        w = WEIGHTS[stage(state)]
        scores = weighted_scores(w, features, state, state.n)
        if state.config.mode == "campeonato":
            scores = [x + w[0] * state.totals[s] / 3.0 for s, x in enumerate(scores)]
    return softmax(scores)


HAND_PAIRS: dict[tuple[int, int], tuple[float, ...]] = {
    (0, 2): (0.802, 0.198),
    (0, 3): (0.845, 0.155),
    (0, 4): (0.82, 0.176, 0.005),
    (0, 5): (0.506, 0.494),
    (0, 6): (0.464, 0.536),
    (0, 7): (0.457, 0.522, 0.022),
    (0, 8): (0.328, 0.512, 0.143, 0.017, 0.001),
    (1, 2): (0.812, 0.188),
    (1, 3): (0.799, 0.201),
    (1, 4): (0.758, 0.242),
    (1, 5): (0.675, 0.322, 0.003),
    (1, 6): (0.536, 0.445, 0.019, 0.001),
    (2, 1): (1.0,),
    (2, 2): (0.826, 0.174),
    (2, 3): (0.836, 0.164),
    (2, 4): (0.676, 0.321, 0.003),
    (3, 1): (1.0,),
    (3, 2): (0.686, 0.314),
}
"""How many one-industry pairs another seat's hand holds, by (its investments, its building cards in hand):
the share of each count 0, 1, 2... among the decisions of 2,000 seeded 2-seat heuristic games."""


def hand_pairs(hand: list[int]) -> int:
    """Return how many disjoint one-industry ($, +R) pairs ``hand`` holds."""
    stocks = [0] * N_INDUSTRIES
    returns = [0] * N_INDUSTRIES
    for c in hand:
        kind = CARD_TYPE[c]
        if kind == STOCK:
            stocks[CARD_IND[c]] += 1
        elif kind == RETURN:
            returns[CARD_IND[c]] += 1
    return sum(min(a, b) for a, b in zip(stocks, returns, strict=True))


def redeal_hands(world: State, me: int) -> None:
    """Re-deal the other seats' hidden building cards of a sampled world so their pairs look played, not dealt.

    The determinization deals the cards ``me`` cannot see uniformly, as if each rival's hand were a fresh
    deal; but a rival who plays to win holds pairs at rates the deal does not give (waiting to risk its last
    pair, say: 31% of heuristic hands of 2 cards beside 3 investments hold a pair, against about 8% of uniform
    deals). For each rival this draws a pair count from :data:`HAND_PAIRS` and re-deals the rival's hidden
    cards, each for one of its kind from the rival's hidden cards and its deck, until the hand holds that many
    pairs (up to 64 tries; else the world stays as sampled). Cards ``me`` knows stay where they are; the
    public counts of each kind in each hand are kept.
    """
    rng = world.rng
    mine = 1 << me
    know = world.know
    for o in range(world.n):
        if o == me:
            continue
        hand = world.hands[o]
        probs = HAND_PAIRS.get((len(world.invs[o]), len(hand)))
        if probs is None:
            continue
        hidden = [c for c in hand if not know[c] & mine]
        if not hidden:
            continue
        target = _pair_target(rng, probs)
        if hand_pairs(hand) != target:
            _redeal(world, o, mine, hidden, target)


def _pair_target(rng: Rng, probs: Sequence[float]) -> int:
    """Draw a pair count with the probabilities ``probs`` (the last takes what the others leave)."""
    x = rng.below(1_000_000) / 1_000_000
    target = 0
    while target < len(probs) - 1 and x >= probs[target]:
        x -= probs[target]
        target += 1
    return target


def _redeal(world: State, o: int, mine: int, hidden: list[int], target: int) -> None:
    """Re-deal seat ``o``'s ``hidden`` cards from themselves and its decks until the hand holds ``target`` pairs
    (up to 64 tries), swapping the cards dealt in with the decks' cards they replace, knowledge and all."""
    rng = world.rng
    know = world.know
    seen = world.seen
    hand = world.hands[o]
    known = [c for c in hand if know[c] & mine]
    pools = {kind: [c for c in hidden if CARD_TYPE[c] == kind] for kind in (STOCK, RETURN)}
    decks = {STOCK: world.decks[0], RETURN: world.decks[1]}
    unseen = {kind: own + [c for c in decks[kind] if not know[c] & mine] for kind, own in pools.items()}
    for _ in range(64):
        new: dict[int, list[int]] = {}
        for kind, own in pools.items():
            pool = list(unseen[kind])
            new[kind] = [pool.pop(rng.below(len(pool))) for _ in own]
        if hand_pairs(known + new[STOCK] + new[RETURN]) != target:
            continue
        for kind, own in pools.items():
            incoming = [c for c in new[kind] if c not in own]
            outgoing = [c for c in own if c not in new[kind]]
            deck = decks[kind]
            for a, b in zip(incoming, outgoing, strict=True):
                deck[deck.index(a)] = b
                know[a], know[b] = know[b], know[a]
                seen[a], seen[b] = seen[b], seen[a]
        world.hands[o] = sorted(known + new[STOCK] + new[RETURN])
        break


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


def _top(state: State, pile: int) -> dict[str, Any] | None:
    disc = state.discards[pile]
    return card_json(disc[-1]) if disc and not state.facedown[disc[-1]] else None


def rollout_view(state: State, seat: int) -> dict[str, Any]:
    """Return the parts of ``seat``'s view that the heuristic bot reads, built straight from a sampled world.

    A rollout asks the heuristic bot for hundreds of decisions per search; the full view (every card's
    visibility worked out) is most of their cost. Every value here equals the full view's (its own hand,
    strategies and investments, the other seats' counts, the discard tops, the step, the attack), so the bot
    decides the same; a test checks it over whole games.
    """
    players = []
    for s in range(state.n):
        if s == seat:
            invs = [_own_investment(k, inv) for k, inv in enumerate(state.invs[s])]
        else:
            invs = [
                {"index": k, "face_up": inv.face_up, "has_green": inv.green >= 0} for k, inv in enumerate(state.invs[s])
            ]
        players.append({"seat": s, "strategies": len(state.strats[s]), "investments": invs})
    out: dict[str, Any] = {
        "you": seat,
        "turn": {"seat": state.turn, "step": state.step},
        "decision": {"kind": pending(state).kind},
        "piles": {"stock": {"discard_top": _top(state, 0)}, "return": {"discard_top": _top(state, 1)}},
        "players": players,
        "hand": [card_json(c) for c in sorted(state.hands[seat])],
        "strategies": [card_json(c) for c in sorted(state.strats[seat])],
        "portfolio_value": portfolio_value(state, seat),
    }
    if state.turn == seat and state.momentum >= 0:
        out["momentum_card"] = CARD_ID[state.momentum]
    atk = state.attack
    if atk is not None:
        red = CARD_STRAT[atk.card]
        assert red is not None
        out["attack"] = {"attacker": atk.attacker, "attacks": _ATTACK_WORDS[red.spec.attacks]}
    return out


TUNING = Tuning(
    HeuristicBot,
    STRENGTH,
    Policies(estimate=estimate, prepare=redeal_hands),
    rollout_view=rollout_view,
    epsilon=0.1,
    options=replace(TUNED, rollout_depth=12, switch_z=1.0, tree=False),
)
"""Market Fortune's ``bot:mcts``: sweeps guided by the heuristic over worlds with re-dealt rival hands, no tree
below the root moves, rollouts of 12 decisions (one in ten at random), a switch at one standard error; 500 CPU
milliseconds per decision by default."""

make_bot = TUNING.make_bot
