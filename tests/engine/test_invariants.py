"""Contract checks that every registered game must pass (OpenSpiel's random_sim_test).

For each game, each sample configuration and a few seeds, a random playout checks:
every move type the game lists is validated against the move schema the first time it
appears; at the first decision of every step or phase of the game (its state's ``step``/``phase``),
at every tenth decision and at the end, the listed moves round-trip through JSON and text,
every seat's view and the public view are JSON, render, and leak no hidden card id; at
random decisions a seat that is not deciding is refused with a rule id and changes
nothing; at the end: a result, and replay from (config, seed, moves) gives the same state.
(The every-decision leak scans by id and name of each game are in the slow set:
tests/engine/<game>/test_views.py.)
"""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest
from club_agentes.engine.core import IllegalMove, InvalidMove, RandomBot, all_games, play, replay
from club_agentes.rules_corpus import load_corpus

GAMES = all_games()
CASES = [(g, seats, opts) for g in GAMES for seats, opts in g.sample_configs()]
SEEDS = (1, 2)


def _case_id(case) -> str:
    g, seats, opts = case
    return f"{g.id}-{seats}-{json.dumps(opts, sort_keys=True)}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_rule_ids_exist_in_corpus(game) -> None:
    corpus = load_corpus()
    missing = sorted(r for r in game.rule_ids() if not corpus.has(r))
    assert not missing, f"{game.id} cites rule ids missing from the corpus: {missing}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_invariants(case, seed: int) -> None:
    game, seats, options = case
    config = game.make_config(seats, options)
    validator = jsonschema.Draft202012Validator(game.move_schema())
    rule_ids = game.rule_ids()
    probe = random.Random(seed)

    validated: set[type] = set()
    counter = [0]
    phases: set[object] = set()

    def check_views(state) -> None:
        for who in (*range(seats), None):
            view = game.view(state, who)
            text = json.dumps(view, ensure_ascii=False)
            leaked = [h for h in game.hidden_ids(state, who) if h in text]
            assert not leaked, (
                f"{'the public view' if who is None else f'seat {who} view'} shows hidden ids {leaked[:5]}"
            )
            assert isinstance(game.render(view), str)

    def check(state, seat, moves) -> None:
        counter[0] += 1
        for m in moves:
            if type(m) not in validated:
                validated.add(type(m))
                validator.validate(m.to_json())
        pending = game.pending(state)
        phase = (getattr(state, "step", None), getattr(state, "phase", None))
        if phase not in phases or counter[0] % 10 == 0:
            phases.add(phase)
            for m in moves[:20]:
                assert game.parse_move(m.to_json()) == m
                assert game.parse_move(m.text()) == m
            check_views(state)
        if probe.random() < 0.05:
            idle = [s for s in range(seats) if s not in pending.seats]
            if idle:
                before = json.dumps(game.snapshot(state), sort_keys=True)
                with pytest.raises((IllegalMove, InvalidMove)) as err:
                    game.apply(state, idle[0], moves[0])
                if isinstance(err.value, IllegalMove):
                    assert err.value.rule_id in rule_ids
                assert json.dumps(game.snapshot(state), sort_keys=True) == before

    rec = play(game, config, seed, [RandomBot() for _ in range(seats)], on_decision=check, max_decisions=50_000)
    assert rec.finished, f"{game.id} did not end within 50,000 decisions"
    assert game.result(rec.state) is not None
    assert game.pending(rec.state).kind == "over"
    check_views(rec.state)
    assert counter[0] < 10 or validated, "no move was ever checked against the schema"
    again = replay(game, config, seed, rec.moves)
    assert json.dumps(game.snapshot(again), sort_keys=True) == json.dumps(game.snapshot(rec.state), sort_keys=True)


WEIRD = [None, -1, 10**12, "", "x" * 300, [], {}, 2.5, True, "m1"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_malformed_moves_are_refused_cleanly(game) -> None:
    """Mangled move JSON and text never crash: InvalidMove or IllegalMove, and nothing changes."""
    rng = random.Random(game.id)
    seats, options = game.sample_configs()[0]
    config = game.make_config(seats, options)
    state = game.new_game(config, 5)
    for _ in range(150):
        pending = game.pending(state)
        if pending.kind == "over":
            break
        seat = pending.seats[0]
        moves = game.legal_moves(state, seat)
        for _ in range(4):
            data = dict(rng.choice(moves).to_json())
            key = rng.choice([*data, "extra"])
            roll = rng.random()
            if roll < 0.5:
                data[key] = rng.choice(WEIRD)
            elif roll < 0.7:
                data.pop(key, None)
            elif roll < 0.85:
                data["type"] = rng.choice([[], {}, 7, None, "nonsense"])
            raw = data if roll < 0.92 else rng.choice(["", "   ", "play", json.dumps(data), "zz " * 50])
            before = json.dumps(game.snapshot(state), sort_keys=True)
            try:
                move = game.parse_move(raw)
            except InvalidMove as exc:
                assert "\n" not in str(exc)
                continue
            try:
                game.apply(state, seat, move)
            except (IllegalMove, InvalidMove):
                assert json.dumps(game.snapshot(state), sort_keys=True) == before
            else:
                state = game.new_game(config, 5)  # the mangled move happened to be legal: start again
                break
        else:
            game.apply(state, seat, rng.choice(moves))


@pytest.mark.parametrize("game", [g for g in GAMES if "mcts" in g.bots], ids=lambda g: g.id)
def test_mcts_plays_legal_moves_to_the_end(game) -> None:
    """bot:mcts (a small seeded budget) picks one of the legal moves at every decision, never changes the true
    state while it searches, and a 2-seat game against the random bot ends."""
    config = game.make_config(2, {})
    mcts = game.make_bot("mcts", iterations=12, budget_ms=None)
    now: dict[str, Any] = {}
    searched = [0]

    def before(state, seat, moves) -> None:
        now["state"], now["snapshot"] = state, json.dumps(game.snapshot(state), sort_keys=True)

    class Checked:
        def choose(self, obs, rng):
            move = mcts.choose(obs, rng)
            assert move in obs.moves
            assert json.dumps(game.snapshot(now["state"]), sort_keys=True) == now["snapshot"]
            searched[0] += mcts.stats.iterations > 0
            return move

    rec = play(game, config, 1, [Checked(), RandomBot()], max_decisions=50_000, on_decision=before)
    assert rec.finished and game.result(rec.state) is not None
    assert searched[0] > 5
