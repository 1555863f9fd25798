"""Random and heuristic playouts: cards conserved, legal moves and apply agree, events honest, games end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from club_agentes.engine.core import IllegalMove, InvalidMove, RandomBot, Rng, play
from club_agentes.engine.core.model import decide
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID, N_BUILDING, STRATEGY
from club_agentes.engine.market_fortune.moves import (
    DECLARE,
    DECLINE,
    DOMINATE,
    PASS,
    REVEAL,
    SKIP,
    SOURCES,
    Attach,
    Build,
    Defend,
    Discard,
    Optimise,
    Play,
    Return,
    Risk,
    Take,
)
from club_agentes.engine.market_fortune.state import MODES, State

from tests.engine.market_fortune.helpers import GAME, assert_conserved

CONFIGS = GAME.sample_configs()


def _config_id(cfg: tuple[int, dict[str, Any]]) -> str:
    return f"{cfg[0]}-{json.dumps(cfg[1], sort_keys=True)}"


def candidates(st: State, seat: int, rng: random.Random) -> list[Any]:
    """Moves of every type around the current state, legal or not (a sample of a large universe)."""
    n = st.n
    hand = [CARD_ID[c] for c in st.hands[seat]]
    strats = [CARD_ID[c] for c in st.strats[seat]]
    other = [CARD_ID[rng.randrange(N_BUILDING)] for _ in range(3)]
    out: list[Any] = [DOMINATE, DECLINE, DECLARE, REVEAL, SKIP, PASS]
    out += [Build(s) for s in SOURCES] + [Take(s) for s in SOURCES]
    out += [Discard(c) for c in hand + other + strats[:1]]
    out += [Risk(a, r) for a in hand + other[:1] for r in hand + other[1:2]]
    out += [Return(k) for k in range(5)]
    out += [Optimise(k, c) for k in range(5) for c in hand + other[:1]]
    out += [Attach(c, k) for c in strats for k in range(5)]
    out += [Defend(c) for c in strats + hand[:1]]
    for c in strats + other[:1]:
        out.append(Play(c))
        out += [Play(c, t) for t in range(n + 1)]
        out += [Play(c, t, k) for t in range(n) for k in range(4)]
        out += [Play(c, None, k, s) for k in range(4) for s in hand]
        out += [Play(c, None, None, s, src) for s in hand for src in ("stock-discard", "return-discard", "stock-deck")]
    rng.shuffle(out)
    return out[:60]


def check_agreement(st: State, seat: int, legal: list[Any], rng: random.Random) -> None:
    """Every candidate applies (on a copy) exactly when it is listed; a refusal changes nothing."""
    listed = set(legal)
    for move in candidates(st, seat, rng) + legal[:10]:
        trial = GAME.clone(st)
        before = json.dumps(GAME.snapshot(trial), sort_keys=True)
        try:
            GAME.apply(trial, seat, move)
        except (IllegalMove, InvalidMove) as exc:
            assert move not in listed, f"{move.text()} is listed but refused: {exc}"
            if isinstance(exc, IllegalMove):
                assert exc.rule_id in GAME.rule_ids()
            assert json.dumps(GAME.snapshot(trial), sort_keys=True) == before, f"{move.text()} changed the state"
        else:
            assert move in listed, f"{move.text()} applies but is not listed"


@pytest.mark.parametrize("config", CONFIGS, ids=_config_id)
def test_random_playout_conserves_cards_and_legal_moves_agree_with_apply(config: tuple[int, dict[str, Any]]) -> None:
    seats, options = config
    rng = random.Random(seats * 7 + len(options))
    count = [0]

    def check(st: State, seat: int, moves: list[Any]) -> None:
        assert moves, "a deciding seat has no legal move"
        count[0] += 1
        if count[0] % 10 == 0 or st.step != "main":
            assert len(set(moves)) == len(moves), "legal moves are listed twice"
            assert_conserved(st)
            for s in range(st.n):
                assert len(st.hands[s]) + 2 * len(st.invs[s]) <= 8 or s == st.turn
        if rng.random() < 0.02:
            check_agreement(st, seat, moves, rng)

    rec = play(GAME, GAME.make_config(seats, options), 5, [RandomBot() for _ in range(seats)], on_decision=check)
    assert rec.finished and GAME.result(rec.state) is not None
    assert_conserved(rec.state)


def _ids_in(text: str) -> set[str]:
    return {cid for cid in CARD_ID if cid in text}


@pytest.mark.parametrize("mode", MODES)
def test_events_never_name_a_card_their_audience_may_not_know(mode: str) -> None:
    """Each event names only cards its audience may be shown once the move is applied (hidden_ids)."""
    seats = 4
    cfg = GAME.make_config(
        seats, {"mode": mode, "turn_limit": 150, **({"game_limit": 3} if mode == "campeonato" else {})}
    )
    st, setup = GAME.start(cfg, 9)
    bots = [RandomBot(), GAME.make_bot("heuristic"), RandomBot(), RandomBot()]
    rng = Rng(3)

    def honest(events: list[Any]) -> None:
        for e in events:
            named = _ids_in(e.text + json.dumps(dict(e.data or {})))
            audience = range(seats) if e.audience is None else e.audience
            for s in audience:
                assert not named & GAME.hidden_ids(st, s), f"seat {s} was told {sorted(named)[:3]}: {e.text}"
            if e.audience is None:
                assert not named & GAME.hidden_ids(st, None), e.text

    honest(setup)
    for _ in range(20_000):
        p = GAME.pending(st)
        if p.kind == "over":
            break
        seat = p.seats[0]
        moves = GAME.legal_moves(st, seat)
        honest(GAME.apply(st, seat, decide(bots[seat], GAME, st, seat, moves, rng)))
    assert GAME.pending(st).kind == "over"


EXPECTED_RESULT_RULES = {
    "familia": {rid.FAMILIA, rid.RULING_LIMIT},
    "fortuna": {rid.FINAL_COUNT, rid.RULING_LIMIT},
    "campeonato": {rid.CAMPEONATO, rid.RULING_LIMIT},
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seats", range(2, 7))
def test_each_mode_plays_to_the_end(mode: str, seats: int) -> None:
    cfg = GAME.make_config(seats, {"mode": mode})
    bots = [GAME.make_bot("heuristic") if s % 2 == 0 else RandomBot() for s in range(seats)]
    rec = play(GAME, cfg, seats, bots)
    result = GAME.result(rec.state)
    assert rec.finished and result is not None and result.winners
    assert result.rule_id in EXPECTED_RESULT_RULES[mode]
    assert len(result.scores) == seats
    assert [b.total for b in result.breakdown] == list(result.scores)
    if mode == "campeonato":
        assert max(rec.state.totals) >= 100 or len(rec.state.games) == cfg.game_limit
        assert result.scores == tuple(float(t) for t in rec.state.totals)
    if mode == "fortuna" and result.rule_id == rid.FINAL_COUNT:
        assert result.scores[result.winners[0]] >= 25


def test_heuristic_bot_beats_three_random_bots() -> None:
    cfg = GAME.make_config(4, {"mode": "fortuna"})
    wins = 0
    games = 40
    for seed in range(1, games + 1):
        hero = seed % 4
        bots = [GAME.make_bot("heuristic") if s == hero else RandomBot() for s in range(4)]
        rec = play(GAME, cfg, seed, bots)
        result = GAME.result(rec.state)
        assert result is not None
        wins += hero in result.winners
    assert wins / games >= 0.8


def test_card_ids_never_collide_as_substrings() -> None:
    ids = [CARD_ID[c] for c in range(len(CARD_ID))]
    for a in ids:
        assert sum(1 for b in ids if a in b) == 1, a
    assert all(CARD_ID[c].startswith("MF-E-") for c in range(N_BUILDING, len(CARD_ID)))
    assert STRATEGY == 2
