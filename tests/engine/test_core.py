"""Tests of the shared decision model with two toy games (no real game involved)."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from collections.abc import Sequence

import pytest
from club_agentes.engine.core import (
    Event,
    IllegalMove,
    Pending,
    RandomBot,
    ReactionWindow,
    Result,
    Rng,
    ScoreLine,
    SealedChoices,
    SeatScore,
    UnknownGame,
    ViewBot,
    clockwise_from,
    get_game,
    moves_by_type,
    play,
    publish,
    replay,
)
from club_agentes.engine.core.model import Observation
from club_agentes.engine.core.visibility import PUBLIC, Hidden, Visibility, Zone, seats

from tests.engine.toys import Attack, Block, Pass, Pick, ReactionToy, SealedToy


def test_pending_and_event_are_frozen_values_with_their_defaults() -> None:
    # Their __init__ is written by hand (it sets the slots directly): they stay frozen dataclasses.
    p = Pending("simultaneous", (0, 2), "Choose.", (2,))
    assert (p.kind, p.seats, p.prompt, p.done) == ("simultaneous", (0, 2), "Choose.", (2,))
    assert Pending("turn", (1,)) == Pending("turn", (1,), "", ()) != Pending("turn", (0,))
    assert hash(Pending("turn", (1,), "x")) == hash(Pending("turn", (1,), "x"))
    e = Event("seat 1 drew a card", (1,), {"card": "X"})
    assert (e.text, e.audience, e.data) == ("seat 1 drew a card", (1,), {"card": "X"})
    assert Event("t") == Event("t", None, None) != Event("t", (0,))
    assert Event(text="t", data={"a": 1}).data == {"a": 1}
    assert repr(Event("t")) == "Event(text='t', audience=None, data=None)"
    assert [f.name for f in dataclasses.fields(Pending)] == ["kind", "seats", "prompt", "done"]
    for value, name in ((p, "kind"), (e, "text")):
        assert copy.deepcopy(value) == value and pickle.loads(pickle.dumps(value)) == value
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, "over")
    with pytest.raises(TypeError):
        Pending("turn")  # type: ignore[call-arg]
    assert not hasattr(p, "__dict__")


def test_rng_is_a_fixed_stream() -> None:
    # SplitMix64 reference output for seed 0 (first value of the published algorithm).
    assert Rng(0).next64() == 0xE220A8397B1DCDAF
    assert Rng(42).sample_below(6, 5) == [1, 1, 0, 0, 4]


def test_rng_shuffle_and_fork_are_deterministic() -> None:
    a, b = list(range(20)), list(range(20))
    Rng(7).shuffle(a)
    Rng(7).shuffle(b)
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))
    parent = Rng(9)
    before = parent.state
    assert parent.fork(1).next64() != parent.fork(2).next64()
    assert parent.state == before


def test_rng_below_draws_next64_and_rejects_the_uneven_top() -> None:
    # below() runs the SplitMix64 step inline: its draws are next64()'s, reduced, and a draw in the
    # uneven top of the 64-bit range (x >= 2**64 - 2**64 % n) is drawn again.
    for seed in (0, 5, 2**64 - 1):
        a, b = Rng(seed), Rng(seed)
        for n in (1, 2, 6, 52, 2**40 + 3):
            assert a.below(n) == b.next64() % n and a.state == b.state
    n = 2**63 + 1  # 2**64 % n == 2**63 - 1: a draw of n or more (about half) is drawn again
    a, b = Rng(6), Rng(6)  # seed 6's first draw is refused
    drawn = a.below(n)
    refused = 0
    while (x := b.next64()) >= n:
        refused += 1
    assert refused >= 1 and drawn == x % n and a.state == b.state


def test_rng_below_refuses_a_bound_below_one_and_reads_its_limits_on_either_side_of_the_table() -> None:
    # below() reads the rejection limit of a small bound from a table built at import; 0 and negative
    # bounds are refused (neither may index the table), and a bound past it is worked out when drawn.
    for n in (0, -1, -1024):
        with pytest.raises(ValueError, match="positive bound"):
            Rng(3).below(n)
    for n in (1023, 1024, 1025, 3**30):
        a, b = Rng(11), Rng(11)
        limit = 2**64 - 2**64 % n
        while (x := b.next64()) >= limit:
            pass
        assert a.below(n) == x % n and a.state == b.state


def test_rng_below_is_uniform_enough() -> None:
    r = Rng(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_sealed_choices_never_reveal_early() -> None:
    s = SealedChoices[str]([0, 1, 2])
    s.submit(2, "x")
    assert s.waiting == (0, 1) and s.done == (2,)
    with pytest.raises(RuntimeError):
        s.reveal()
    with pytest.raises(ValueError):
        s.submit(2, "y")
    s.submit(0, "a")
    s.submit(1, "b")
    assert s.reveal() == {0: "a", 1: "b", 2: "x"}


def test_sealed_toy_hides_choices_until_all_have_chosen() -> None:
    game = SealedToy()
    state = game.new_game(game.make_config(3), 1)
    p = game.pending(state)
    assert p.kind == "simultaneous" and p.seats == (0, 1, 2)
    game.apply(state, 1, Pick(2))
    p = game.pending(state)
    assert p.seats == (0, 2) and p.done == (1,)
    # Seat 0 sees that seat 1 has chosen, never what.
    assert game.view(state, 0)["my_choice"] is None
    assert game.view(state, 1)["my_choice"] == 2
    assert game.view(state, 0)["chosen"] == [1]
    with pytest.raises(IllegalMove) as err:
        game.apply(state, 1, Pick(0))
    assert err.value.rule_id == "toy/sealed-once"
    game.apply(state, 0, Pick(2))
    game.apply(state, 2, Pick(1))
    assert game.view(state, 0)["last_reveal"] == {0: 2, 1: 2, 2: 1}
    assert state.points == [0, 0, 1]


def test_reaction_window_polls_in_fixed_order() -> None:
    w = ReactionWindow(clockwise_from(1, 4, include_first=False))
    assert w.order == (2, 3, 0)
    with pytest.raises(ValueError):
        w.pass_turn(3)
    w.pass_turn(2)
    assert w.current == 3
    w.reopen([0, 2])
    assert w.current == 0
    w.close()
    assert not w.is_open and w.current is None


def test_reaction_toy_first_blocker_clockwise_from_attacker() -> None:
    game = ReactionToy()
    state = game.new_game(game.make_config(4), 1)
    game.apply(state, 0, Attack(2))
    p = game.pending(state)
    assert p.kind == "reaction" and p.seats == (1,)
    # A seat that is not being polled cannot act.
    with pytest.raises(IllegalMove) as err:
        game.apply(state, 3, Block())
    assert err.value.rule_id == "toy/not-your-decision"
    game.apply(state, 1, Pass())
    assert game.pending(state).seats == (2,)
    game.apply(state, 2, Block())
    assert state.lives == [2, 2, 2, 2] and state.shields[2] == 0
    assert state.polled == [1, 2]
    assert game.pending(state).seats == (1,) and game.pending(state).kind == "turn"


def test_reaction_toy_unblocked_attack_hits() -> None:
    game = ReactionToy()
    state = game.new_game(game.make_config(3), 1)
    game.apply(state, 0, Attack(1))
    for seat in (1, 2):
        game.apply(state, seat, Pass())
    assert state.lives == [2, 1, 2]


def test_illegal_move_leaves_state_untouched() -> None:
    game = ReactionToy()
    state = game.new_game(game.make_config(3), 1)
    game.apply(state, 0, Attack(1))
    game.apply(state, 1, Block())
    before = copy.deepcopy(game.snapshot(state))
    with pytest.raises(IllegalMove):
        game.apply(state, 1, Attack(1))
    assert game.snapshot(state) == before


@pytest.mark.parametrize("toy", [SealedToy(), ReactionToy()])
@pytest.mark.parametrize("seats", [2, 3, 5])
def test_toy_playouts_end_and_replay(toy, seats: int) -> None:
    config = toy.make_config(seats)
    rec = play(toy, config, seed=seats, bots=[RandomBot()] * seats, max_decisions=10_000)
    assert rec.finished and toy.result(rec.state) is not None
    again = replay(toy, config, seats, rec.moves)
    assert toy.snapshot(again) == toy.snapshot(rec.state)


def test_unknown_game_lists_valid_ids() -> None:
    with pytest.raises(UnknownGame, match="valid game ids"):
        get_game("monopoly")


class _Counting(ViewBot):
    """A view bot that picks the last move and counts how often it was asked."""

    name = "counting"
    strength = "test double"

    def __init__(self) -> None:
        self.asked: list[tuple[dict, int]] = []

    def decide(self, view: dict, seat: int, moves: Sequence[object]) -> object:
        self.asked.append((view, seat))
        return moves[-1]


def test_a_view_bot_decides_only_when_there_is_a_choice() -> None:
    game = SealedToy()
    state = game.new_game(game.make_config(2), 1)
    bot = _Counting()
    moves = game.legal_moves(state, 0)
    assert len(moves) > 1 and bot.choose(Observation(game, state, 0, moves), Rng(1)) == moves[-1]
    assert bot.choose(Observation(game, state, 0, moves[:1]), Rng(1)) == moves[0]
    assert bot.asked == [(game.view(state, 0), 0)]  # asked once, with the seat's view
    with pytest.raises(IndexError, match="the counting bot was given no legal move"):
        bot.choose(Observation(game, state, 0, []), Rng(1))


def test_moves_by_type_keeps_the_listed_order() -> None:
    moves = [Pick(2), Pass(), Pick(0), Attack(1), Pass()]
    grouped = moves_by_type(moves)
    assert list(grouped) == [Pick, Pass, Attack]
    assert grouped[Pick] == [Pick(2), Pick(0)] and grouped[Pass] == [Pass(), Pass()]


def test_a_result_round_trips_through_json() -> None:
    result = Result(
        (0, 2),
        (25.0, 3.0, 25.0),
        "a shared win",
        "game/rule",
        tuple(
            SeatScore(s, x, "M", (ScoreLine("investment 1", x, None), ScoreLine("bonus", 0.0, "r")))
            for s, x in enumerate((25.0, 3.0, 25.0))
        ),
    )
    data = result.to_json()
    assert data["breakdown"][0]["lines"] == [["investment 1", 25.0, None], ["bonus", 0.0, "r"]]
    assert Result.from_json(json.loads(json.dumps(data))) == result
    with pytest.raises(KeyError):
        Result.from_json({k: v for k, v in data.items() if k != "reason"})


def test_a_copied_rng_draws_the_same_stream_independently() -> None:
    rng = Rng(9)
    rng.next64()
    twin = rng.copy()
    assert [twin.next64() for _ in range(3)] == [rng.next64() for _ in range(3)]
    twin.next64()
    assert twin.state != rng.state


def test_a_corpus_file_is_written_then_checked(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(publish, "CORPUS_DATA", tmp_path)
    text = ["first\n"]
    corpus = publish.CorpusFile("toy-game", "cards.toml", lambda: text[0], "toys.publish")
    assert corpus.path == tmp_path / "toy-game" / "authored" / "cards.toml"
    corpus.path.parent.mkdir(parents=True)
    assert corpus.main(["--check"]) == 1  # no file yet
    assert "out of date; run python -m toys.publish" in capsys.readouterr().err
    assert corpus.main([]) == 0 and corpus.path.read_text(encoding="utf-8") == "first\n"
    assert corpus.main(["--check"]) == 0
    text[0] = "second\n"
    assert corpus.main(["--check"]) == 1 and corpus.path.read_text(encoding="utf-8") == "first\n"


def test_visibility_refuses_a_zone_named_twice_and_a_card_in_two_zones() -> None:
    """Zones are the one visibility rule: a name given twice or a card in two places is an engine defect, named."""
    with pytest.raises(ValueError, match="zone 'b' is given twice"):
        Visibility.of([Zone("a", ["x"]), Zone("b", ["y"]), Zone("b", ["z"])])
    with pytest.raises(ValueError, match="card 'y' is in zones 'a' and 'c'"):
        Visibility.of([Zone("a", ["x", "y"]), Zone("b", []), Zone("c", ["z", "y"])])
    with pytest.raises(ValueError, match="card 'x' is in zones 'a' and 'a'"):
        Visibility.of([Zone("a", ["x", "x"])])


def test_visibility_finds_each_cards_zone_and_who_knows_it() -> None:
    vis = Visibility.of(
        [Zone("deck", ["d1", "d2"]), Zone("hand/0", ["h1"], seats(0)), Zone("pile", ["p1"], PUBLIC)], {"d2": [1]}
    )
    assert vis.where() == {"d1": "deck", "d2": "deck", "h1": "hand/0", "p1": "pile"}
    assert vis.zone_of("h1").name == "hand/0"
    assert [vis.knows(0, c) for c in ("d1", "d2", "h1", "p1")] == [False, False, True, True]
    assert [vis.knows(1, c) for c in ("d1", "d2", "h1", "p1")] == [False, True, False, True]
    assert vis.hidden_ids(None) == {"d1", "d2", "h1"}
    assert vis.show(1, "hand/0") == Hidden(1) and vis.known_in(1, "deck") == ["d2"]


def test_visibilities_compare_by_their_zones_and_knowledge_whether_or_not_their_card_map_was_built() -> None:
    def build() -> Visibility:
        return Visibility.of([Zone("deck", ["d1"]), Zone("pile", ["p1"], PUBLIC)], {"d1": [0]})

    a, b = build(), build()
    a.where()
    assert a == b
