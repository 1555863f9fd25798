"""Acts queued behind a stop window that asks the seat first (issue 25 point 2; ruling actos-en-espera).

Seats decide on the same version of Yo soy el jefe's open negotiation; another seat's travel card or hire set
reaches the table first and opens a stop window that asks them. Their acts reach the table after it, in scripted
orders: each is accepted as queued (nothing stored, the answer lists the window's moves), and once the window
is over it is played as the seat's move through the one write path if it is still legal and means the same,
else dropped with a note only that seat sees. Each test fails on a server that refuses such an act as stale.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.engine.yo_soy_el_jefe.state import SLOT_STOP
from club_agentes.mcp_server.tables import TableService, bots, presenter
from club_agentes.mcp_server.tables.facts import MoveResult, SeatState

from tests.mcp.test_negotiation_races import moves_of, negotiation, views
from tests.mcp.test_tables_service import QUIET, service

pytestmark = pytest.mark.anyio
GAME = "yo-soy-el-jefe"
SEATS = 3


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    async with service(tmp_path / "db", games=get_game, settings=QUIET) as s:
        yield s


def acts_of(state: SeatState) -> list[Any]:
    """The seat's family cards and offers: acts on its own colours, which a hire set of another colour leaves."""
    return moves_of(state, "family ") + moves_of(state, "offer ")


def colour_of(text: str) -> str:
    return text.split()[-1]


async def hire_and_acts(svc: TableService) -> tuple[int, int, str]:
    """A seed whose first negotiation lets a seat play a hire set on a colour that the first act of each other
    seat (a family card or an offer; every other seat has one) does not name: (seed, the hiring seat, its hire)."""
    for seed in range(1, 80):
        tid, tokens = await negotiation(svc, seed, SEATS)
        states = await views(svc, tid, tokens)
        for hirer in states:
            others = [s for s in states if s.seat != hirer.seat]
            if not all(acts_of(s) for s in others):
                continue
            used = {colour_of(acts_of(s)[0].text) for s in others}
            hire = next((m for m in moves_of(hirer, "hire ") if colour_of(m.text) not in used), None)
            if hire is not None:
                return seed, hirer.seat, hire.text
    raise AssertionError("no seed lets a seat hire while every other seat can act")


def queued_notes(state: SeatState, outcome: str) -> list[str]:
    return [e.text for e in state.events if e.data is not None and e.data.get("queued") == outcome]


async def answer_window(svc: TableService, tid: str, tokens: list[str], order: list[int]) -> MoveResult:
    """Let the card go: each seat of ``order`` passes in the stop window, by the id listed to it now."""
    out: MoveResult | None = None
    for seat in order:
        state = await svc.view(tid, tokens[seat])
        assert [m.text for m in state.moves] in (["stop", "pass"], ["pass"]), state.moves
        out = await svc.play(tid, tokens[seat], moves_of(state, "pass")[0].id, state.seat_version)
        assert out.accepted and out.played_version is not None, out.refusal
    assert out is not None
    return out


async def stored_moves(svc: TableService, tid: str, after: int) -> list[tuple[int, str]]:
    """The stored moves after version ``after``: (seat, text)."""
    live = svc.live(tid)
    assert live is not None
    rows = await svc.store.run(svc.store.tables.load_moves, tid, after=after, upto=live.version)
    return [(r.seat, live.game.parse_move(r.move).text()) for r in rows]


async def test_acts_decided_before_a_hire_set_are_queued_then_played_in_any_order(svc: TableService) -> None:
    seed, hirer, hire = await hire_and_acts(svc)
    actors = [s for s in range(SEATS) if s != hirer]
    for sends, passes in itertools.product(itertools.permutations(actors), itertools.permutations(actors)):
        tid, tokens = await negotiation(svc, seed, SEATS)  # the same deal again, for this interleaving
        live = svc.live(tid)
        assert live is not None
        before = await views(svc, tid, tokens)
        decided = {s: (acts_of(before[s])[0], before[s].seat_version) for s in actors}
        card = await svc.play(tid, tokens[hirer], hire, before[hirer].seat_version)
        assert card.accepted, card.refusal
        opened = live.version
        for k, seat in enumerate(sends):
            move, version = decided[seat]
            out = await svc.play(tid, tokens[seat], move.id if k % 2 == 0 else move.text, version)
            assert out.accepted and out.refusal is None, (sends, seat, out.refusal)
            assert out.played_version is None and out.overtaken is None
            assert out.queued is not None and f"your '{move.text}' decided at version {version} is queued" in out.queued
            assert "hire set" in out.queued and "\n" not in out.queued
            assert [m.text for m in out.state.moves] in (["stop", "pass"], ["pass"])  # the window's moves, listed
            assert live.version == opened  # nothing stored yet
        await answer_window(svc, tid, tokens, list(passes))
        assert live.state.stop is None
        while live.state.neg is not None and live.state.neg.naming is not None:
            # A queued offer was played: its seat names the price, and the next queued act waits for that.
            namer = live.state.neg.naming.seat
            state = await svc.view(tid, tokens[namer])
            assert (await svc.play(tid, tokens[namer], state.moves[0].id, state.seat_version)).accepted
        # The window's passes, then each queued act as its seat's move, in the order they were queued.
        stored = [m for m in await stored_moves(svc, tid, opened) if not m[1].startswith("price ")]
        assert stored == [*((s, "pass") for s in passes), *((s, decided[s][0].text) for s in sends)]
        for seat in sends:
            notes = queued_notes(await svc.view(tid, tokens[seat], since=opened), "played")
            assert len(notes) == 1 and f"your '{decided[seat][0].text}' decided at version" in notes[0], notes


async def travel_on_an_offer(svc: TableService) -> tuple[int, int, str, int, str, int]:
    """A seed whose first negotiation lets seat X send seat Y's investor travelling while Y may offer that very
    investor, and a third seat holds a stop card: (seed, X, X's travel, Y, Y's offer, the stopping seat)."""
    for seed in range(1, 120):
        tid, tokens = await negotiation(svc, seed, SEATS)
        states = await views(svc, tid, tokens)
        for x, y in itertools.permutations(range(SEATS), 2):
            for offer in moves_of(states[y], "offer "):
                colour = colour_of(offer.text)
                travels = moves_of(states[x], f"travel investor seat {y} {colour}")
                travel = next((m for m in travels if not m.text.endswith("grey")), None)
                if travel is None:
                    continue
                live = svc.live(tid)
                assert live is not None
                third = next(s for s in range(SEATS) if s not in (x, y))
                if live.state.counts[third][SLOT_STOP]:
                    return seed, x, travel.text, y, offer.text, third
    raise AssertionError("no seed lets a seat send an offered investor travelling")


async def test_an_act_the_card_made_illegal_is_dropped_with_a_note_and_played_when_the_card_is_stopped(
    svc: TableService,
) -> None:
    seed, x, travel, y, offer, third = await travel_on_an_offer(svc)
    for stopped in (False, True):
        tid, tokens = await negotiation(svc, seed, SEATS)
        live = svc.live(tid)
        assert live is not None
        decided = await svc.view(tid, tokens[y])
        mine = await svc.view(tid, tokens[x])
        assert (await svc.play(tid, tokens[x], travel, mine.seat_version)).accepted
        opened = live.version
        out = await svc.play(tid, tokens[y], offer, decided.seat_version, wait_s=1.0)  # one call per decision
        assert out.accepted and out.queued is not None and out.played_version is None, out.refusal
        assert "travel card" in out.queued and out.state.decision.yours
        answer = presenter.outcome(out)  # what the agent reads: the sentence in the text and the structured field
        assert answer.structured_content is not None and answer.structured_content["queued"] == out.queued
        assert answer.structured_content["overtaken"] is None and answer.structured_content["refusal"] is None
        assert f"Queued: {out.queued}" in answer.content[0].text
        if stopped:
            state = await svc.view(tid, tokens[third])
            assert (await svc.play(tid, tokens[third], "stop", state.seat_version)).accepted
        else:
            await answer_window(svc, tid, tokens, [third, y])
        assert live.state.stop is None
        stored = await stored_moves(svc, tid, opened)
        notes = await svc.view(tid, tokens[y], since=opened)
        if stopped:  # the investor stays: the offer still means the same, and is played
            assert stored == [(third, "stop"), (y, offer)]
            assert len(queued_notes(notes, "played")) == 1 and not queued_notes(notes, "dropped")
        else:  # the investor travelled: the offer cannot be played, and the seat is told why
            assert offer not in [m.text for m in notes.moves]
            assert stored == [(third, "pass"), (y, "pass")]
            dropped = queued_notes(notes, "dropped")
            assert len(dropped) == 1 and not queued_notes(notes, "played")
            assert f"your '{offer}' decided at version {decided.seat_version} and queued was dropped" in dropped[0]
            assert "has travelled" in dropped[0] and "can no longer be played" in dropped[0]
            # Only the seat itself is told.
            other = await svc.view(tid, tokens[third], since=opened)
            assert not queued_notes(other, "dropped")


async def test_a_queued_travel_card_whose_investor_another_card_sent_travelling_is_overtaken(svc: TableService) -> None:
    """Ruling pases-adelantados: the investor is already out of the deal, which is all the queued card could do; the
    seat is told so (an event only it sees, ``overtaken``), nothing is stored for it and its card stays in hand."""
    for seed in range(1, 150):
        tid, tokens = await negotiation(svc, seed, SEATS)
        states = await views(svc, tid, tokens)
        pairs = [
            (x, y, mx, my)
            for x, y in itertools.permutations(range(SEATS), 2)
            for mx in moves_of(states[x], "travel investor ")
            for my in moves_of(states[y], "travel investor ")
            if mx.text.removesuffix(" grey") == my.text.removesuffix(" grey")
        ]
        if pairs:
            break
    else:
        raise AssertionError("no seed lets two seats aim a travel card at the same investor")
    x, y, mx, my = pairs[0]
    live = svc.live(tid)
    assert live is not None
    held = list(live.state.counts[y])
    assert (await svc.play(tid, tokens[x], mx.id, states[x].seat_version)).accepted
    opened = live.version
    out = await svc.play(tid, tokens[y], my.id, states[y].seat_version)
    assert out.accepted and out.queued is not None, out.refusal
    await answer_window(svc, tid, tokens, [s for s in range(SEATS) if s != x])
    assert [m for m in await stored_moves(svc, tid, opened) if m[1] != "pass"] == []
    notes = await svc.view(tid, tokens[y], since=opened)
    spent = queued_notes(notes, "overtaken")
    assert len(spent) == 1 and not queued_notes(notes, "dropped") and not queued_notes(notes, "played")
    assert f"your '{my.text}' decided at version {states[y].seat_version} and queued was overtaken" in spent[0]
    assert "has already travelled" in spent[0] and "stays in your hand" in spent[0]
    assert list(live.state.counts[y]) == held  # the card stays in the hand


async def test_a_bot_whose_answer_ends_the_window_lets_the_queued_act_through(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seats 0 and 1 are agents, seat 2 a bot: the bot's answer is in the write that ends the window (a bot write may
    carry on with the bot's next acts), and the agent's queued act follows that write through the one write path;
    the live table stays what the store replays, and the bots play on."""

    async def later(_svc: TableService, _live: Any) -> None:
        return None  # the bots move only when the test drives them

    monkeypatch.setattr(bots, "after_write", later)
    for seed in range(1, 120):
        t = await svc.create(GAME, ["agent", "agent", "bot:heuristic"], {"require_club_pass": False}, seed, creator="h")
        tid = t.table.table_id
        tokens = [(await svc.join(tid, f"agent{i}", None, None)).token for i in range(2)]
        live = svc.live(tid)
        assert live is not None
        for _ in range(40):
            if live.state.neg is not None or live.status != "playing":
                break
            seat = live.pending().seats[0]
            if seat == 2:
                await bots.drive(svc, tid)
                continue
            state = await svc.view(tid, tokens[seat])
            texts = [m.text for m in state.moves]
            move = "negotiate" if "negotiate" in texts else state.moves[0].id
            assert (await svc.play(tid, tokens[seat], move, state.seat_version)).accepted
        if live.state.neg is None or live.state.stop is not None:
            continue
        states = [await svc.view(tid, tok) for tok in tokens]
        for x, y in ((0, 1), (1, 0)):
            acts = acts_of(states[y])
            hire = next(
                (m for m in moves_of(states[x], "hire ") if acts and colour_of(m.text) != colour_of(acts[0].text)), None
            )
            if hire is not None:
                break
        else:
            continue
        act = acts[0]
        assert (await svc.play(tid, tokens[x], hire.id, states[x].seat_version)).accepted
        opened = live.version
        out = await svc.play(tid, tokens[y], act.id, states[y].seat_version)
        assert out.accepted and out.queued is not None, out.refusal
        await answer_window(svc, tid, tokens, [x, y] if x != live.state.stop.player else [y])
        assert live.state.stop is not None and live.state.stop.waiting() == (2,)  # the bot answers last
        await bots.drive(svc, tid)
        stored = await stored_moves(svc, tid, opened)
        assert (y, act.text) in stored, stored
        bot_answer = next(i for i, m in enumerate(stored) if m[0] == 2)
        played = stored.index((y, act.text))
        # After the write of the bot's answer that ended the window (with the bot moves that write carried on with).
        assert bot_answer < played and all(m[0] == 2 for m in stored[bot_answer:played]), stored
        assert live.status == "playing" and any(s in (0, 1) for s in live.pending().seats)  # the bots played on
        replayed = await svc.store.run(_replay_digest, svc, tid)
        assert replayed == live.game.view(live.state, None)
        return
    raise AssertionError("no seed lets an agent hire while the other agent can act, with a bot at the table")


def _replay_digest(svc: TableService, tid: str) -> Any:
    """The public view of the table replayed from the store (the live state must be the same)."""
    from club_agentes.mcp_server.tables.live import load_table

    loaded = load_table(svc.store, svc._game, tid)
    assert loaded is not None
    return loaded.game.view(loaded.state, None)


@pytest.mark.parametrize("seat_moved_elsewhere", [False, True])
async def test_a_window_closed_through_another_worker(tmp_path: Path, seat_moved_elsewhere: bool) -> None:
    """The act is queued in one worker; the window is answered through another (the seat's own pass among the
    answers). At the first worker's next write the act is played; unless the seat acted again through the other
    worker after the window was over, and then it is dropped, saying so."""
    async with (
        service(tmp_path / "db", games=get_game, settings=QUIET) as one,
        service(tmp_path / "db", games=get_game, settings=QUIET) as other,
    ):
        seed, hirer, hire = await hire_and_acts(one)
        tid, tokens = await negotiation(one, seed, SEATS)
        before = await views(one, tid, tokens)
        y = next(s for s in range(SEATS) if s != hirer)
        act = acts_of(before[y])[0]
        assert (await one.play(tid, tokens[hirer], hire, before[hirer].seat_version)).accepted
        opened = (await one.view(tid, tokens[y])).table.version
        out = await one.play(tid, tokens[y], act.id, before[y].seat_version)
        assert out.accepted and out.queued is not None, out.refusal
        await answer_window(other, tid, tokens, [s for s in range(SEATS) if s != hirer])
        if seat_moved_elsewhere:
            state = await other.view(tid, tokens[y])
            assert (await other.play(tid, tokens[y], moves_of(state, "pass")[0].id, state.seat_version)).accepted
        mine = await one.view(tid, tokens[hirer])
        assert (await one.play(tid, tokens[hirer], moves_of(mine, "pass")[0].id, mine.seat_version)).accepted
        stored = await stored_moves(one, tid, opened)
        notes = await one.view(tid, tokens[y], since=opened)
        if seat_moved_elsewhere:
            assert (y, act.text) not in stored
            dropped = queued_notes(notes, "dropped")
            assert len(dropped) == 1 and "after what asked you first was over" in dropped[0], dropped
        else:
            assert stored[-1] == (y, act.text), stored
            assert len(queued_notes(notes, "played")) == 1
