"""Yo soy el jefe's open negotiation at the service level, with interleavings (issue 25, point 2).

Several seats decide on the same version and their moves reach the table in different orders: a move that is
still legal and means the same after another seat's change is played; one whose meaning changed (the price it
answers) is refused with one sentence naming what changed and the new legal moves; a pass whose work others'
acts already did (ruling pases-adelantados) is spent, not refused; a move sent while another seat names the
price of its offer waits for that price, then is checked. Each test fails on a server that refuses every move
decided on an older version of what the seat sees.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.tables import TableService, presenter
from club_agentes.mcp_server.tables.facts import SeatState

from tests.mcp.test_tables_service import QUIET, service

pytestmark = pytest.mark.anyio
GAME = "yo-soy-el-jefe"
SEATS = 3


async def negotiation(svc: TableService, seed: int, seats: int = SEATS) -> tuple[str, list[str]]:
    """A table of agent seats played (marker, then '¡Vamos a negociar!') to its first negotiation."""
    t = await svc.create(GAME, ["agent"] * seats, {"require_club_pass": False}, seed, creator="host")
    tid = t.table.table_id
    tokens = [(await svc.join(tid, f"agent{i}", None, None)).token for i in range(seats)]
    for _ in range(20):
        live = svc.live(tid)
        assert live is not None
        if live.state.neg is not None:
            return tid, tokens
        seat = live.pending().seats[0]
        state = await svc.view(tid, tokens[seat])
        texts = [m.text for m in state.moves]
        move = "negotiate" if "negotiate" in texts else state.moves[0].id
        out = await svc.play(tid, tokens[seat], move, state.seat_version)
        assert out.accepted, out.refusal
    raise AssertionError("no negotiation opened")


def moves_of(state: SeatState, prefix: str) -> list[Any]:
    return [m for m in state.moves if m.text.startswith(prefix)]


async def views(svc: TableService, tid: str, tokens: list[str]) -> list[SeatState]:
    return [await svc.view(tid, tok) for tok in tokens]


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    async with service(tmp_path / "db", games=get_game, settings=QUIET) as s:
        yield s


async def family_seats(svc: TableService) -> tuple[int, str, list[str], list[SeatState]]:
    """A seed whose first negotiation lets at least two seats place a family card (each a change of the deal)."""
    for seed in range(1, 80):
        tid, tokens = await negotiation(svc, seed)
        states = await views(svc, tid, tokens)
        if sum(1 for s in states if moves_of(s, "family ")) >= 2:
            return seed, tid, tokens, states
    raise AssertionError("no seed gives two family cards to place")


async def test_moves_decided_on_one_version_are_all_played_in_any_order(svc: TableService) -> None:
    seed, _tid, _tokens, states = await family_seats(svc)
    placers = [s.seat for s in states if moves_of(s, "family ")]
    for order in itertools.permutations(placers):
        tid, tokens = await negotiation(svc, seed)  # the same deal again, for this order
        before = await views(svc, tid, tokens)
        decided = {s: (moves_of(before[s], "family ")[0], before[s].seat_version) for s in placers}
        for k, seat in enumerate(order):
            move, version = decided[seat]
            sent = move.id if k % 2 == 0 else move.text  # by the id listed then, or by its text form
            out = await svc.play(tid, tokens[seat], sent, version)
            assert out.accepted, (order, seat, out.refusal)
            assert out.played is not None and out.played.text == move.text
        live = svc.live(tid)
        assert live is not None and live.state.neg is not None
        assert {s for s, _c in live.state.neg.placed} == set(placers)


async def test_a_pass_stands_after_a_change_that_does_not_concern_the_seat(svc: TableService) -> None:
    _seed, tid, tokens, states = await family_seats(svc)
    live = svc.live(tid)
    assert live is not None and live.state.neg is not None
    boss = live.state.neg.boss
    placer = next(s.seat for s in states if moves_of(s, "family "))
    move = moves_of(states[placer], "family ")[0]
    assert (await svc.play(tid, tokens[placer], move.id, states[placer].seat_version)).accepted
    # Every other seat decided 'pass' before the family card: the boss waits, a third seat lets it go by.
    for other in (s for s in states if s.seat != placer):
        out = await svc.play(tid, tokens[other.seat], moves_of(other, "pass")[0].id, other.seat_version)
        assert out.accepted, (other.seat, boss, out.refusal)
        assert out.played is not None and out.played.text == "pass"


async def bid_standing(svc: TableService) -> tuple[str, list[str], int, int, str]:
    """A negotiation where the boss has proposed a price to another seat: (table, tokens, boss, seat, colour)."""
    for seed in range(1, 80):
        tid, tokens = await negotiation(svc, seed)
        live = svc.live(tid)
        assert live is not None and live.state.neg is not None
        boss = live.state.neg.boss
        state = await svc.view(tid, tokens[boss])
        bids = moves_of(state, "bid ")
        if not bids:
            continue
        bid = bids[0]
        assert (await svc.play(tid, tokens[boss], bid.id, state.seat_version)).accepted
        state = await svc.view(tid, tokens[boss])
        price = next(m for m in state.moves if m.text == "price 2M")
        assert (await svc.play(tid, tokens[boss], price.id, state.seat_version)).accepted
        _verb, _word, target, colour = bid.text.split()
        return tid, tokens, boss, int(target), colour
    raise AssertionError("no seed lets the boss bid")


async def test_an_accept_stands_when_another_seat_changes_something_else(svc: TableService) -> None:
    tid, tokens, boss, target, colour = await bid_standing(svc)
    answer = await svc.view(tid, tokens[target])
    accept = next(m for m in answer.moves if m.text == f"accept seat {target} {colour}")
    third = next(s for s in range(SEATS) if s not in (boss, target))
    mine = await svc.view(tid, tokens[third])
    change = (moves_of(mine, "family ") + moves_of(mine, "offer "))[0]
    assert (await svc.play(tid, tokens[third], change.id, mine.seat_version)).accepted
    if change.text.startswith("offer "):  # the third seat names its price: a change too
        mine = await svc.view(tid, tokens[third])
        assert (await svc.play(tid, tokens[third], mine.moves[0].id, mine.seat_version)).accepted
    out = await svc.play(tid, tokens[target], accept.id, answer.seat_version)
    assert out.accepted, out.refusal
    live = svc.live(tid)
    assert live is not None and live.state.neg is not None
    assert any(q.status == 2 or q.millions == 2 for q in live.state.neg.quotes.values())


async def test_a_pass_after_a_change_that_concerns_the_seat_is_overtaken_not_refused(svc: TableService) -> None:
    """Ruling pases-adelantados: the pass answered the change it was decided on; the newer change is the seat's to
    answer, so the pass is spent (accepted, nothing stored) and the answer says what came since."""
    tid, tokens, boss, target, colour = await bid_standing(svc)
    decided = await svc.view(tid, tokens[target])
    pass_id = moves_of(decided, "pass")[0].id
    boss_state = await svc.view(tid, tokens[boss])
    withdraw = next(m for m in boss_state.moves if m.text == f"withdraw seat {target} {colour}")
    assert (await svc.play(tid, tokens[boss], withdraw.id, boss_state.seat_version)).accepted
    live = svc.live(tid)
    assert live is not None
    version, passed = live.version, set(live.state.neg.passed)
    out = await svc.play(tid, tokens[target], pass_id, decided.seat_version)
    assert out.accepted and out.refusal is None and out.played_version is None
    assert out.played is not None and out.played.text == "pass"
    why = out.overtaken
    assert why is not None and f"your 'pass' decided at version {decided.seat_version} was overtaken" in why
    assert f"withdrew its price of 2M for seat {target}'s {colour}" in why
    assert "the change before that one" in why and "Nothing was stored" in why and "\n" not in why
    assert live.version == version and set(live.state.neg.passed) == passed  # nothing played
    assert out.state.since == decided.seat_version  # the events that overtook it are listed
    assert moves_of(out.state, "pass")  # the new legal moves, the pass among them again
    again = await svc.play(tid, tokens[target], moves_of(out.state, "pass")[0].id, out.state.seat_version)
    assert again.accepted and again.overtaken is None and again.played_version == version + 1


async def test_a_refusal_of_a_price_its_author_withdrew_meanwhile_is_spent(svc: TableService) -> None:
    """Ruling pases-adelantados: the refusal's whole effect (the price off the table) is already had."""
    tid, tokens, boss, target, colour = await bid_standing(svc)
    decided = await svc.view(tid, tokens[target])
    refuse = next(m for m in decided.moves if m.text == f"refuse seat {target} {colour}")
    boss_state = await svc.view(tid, tokens[boss])
    withdraw = next(m for m in boss_state.moves if m.text == f"withdraw seat {target} {colour}")
    assert (await svc.play(tid, tokens[boss], withdraw.id, boss_state.seat_version)).accepted
    live = svc.live(tid)
    assert live is not None
    version = live.version
    out = await svc.play(tid, tokens[target], refuse.id, decided.seat_version)
    assert out.accepted and out.played_version is None and out.overtaken is not None
    assert f"the price for seat {target}'s {colour} is already off the table" in out.overtaken
    assert live.version == version


async def test_the_boss_wait_that_the_other_answers_overtook_is_over_not_refused(svc: TableService) -> None:
    """Two seats: the boss and the other seat both decide on the same change; the other seat passes first. The
    boss may no longer wait (protocolo-de-negociacion), and its wait has done its work: it is told so (accepted,
    nothing stored) and asked to decide, without the wait among its moves."""
    for seed in range(1, 80):
        tid, tokens = await negotiation(svc, seed, seats=2)
        live = svc.live(tid)
        assert live is not None and live.state.neg is not None
        boss = live.state.neg.boss
        other = 1 - boss
        states = await views(svc, tid, tokens)
        if moves_of(states[boss], "pass") and moves_of(states[other], "pass"):
            break
    else:
        raise AssertionError("no seed lets both seats of two pass on the same change")
    wait = moves_of(states[boss], "pass")[0]
    first = moves_of(states[other], "pass")[0]
    assert (await svc.play(tid, tokens[other], first.id, states[other].seat_version)).accepted
    version = live.version
    out = await svc.play(tid, tokens[boss], wait.id, states[boss].seat_version, wait_s=1.0)  # one call per decision
    assert out.accepted and out.refusal is None and out.played_version is None
    why = out.overtaken
    assert why is not None and "your wait is over" in why and f"seat {other} passed" in why
    assert live.version == version
    assert out.state.decision.yours and not moves_of(out.state, "pass")  # close, fail or act now
    answer = presenter.outcome(out)  # what the agent reads: the sentence in the text and the structured field
    assert answer.structured_content is not None and answer.structured_content["overtaken"] == why
    assert answer.structured_content["accepted"] and answer.structured_content["refusal"] is None
    assert f"Overtaken: {why}" in answer.content[0].text


async def test_a_pass_in_a_negotiation_that_ended_meanwhile_is_overtaken(svc: TableService) -> None:
    _seed, tid, tokens, states = await family_seats(svc)
    live = svc.live(tid)
    assert live is not None and live.state.neg is not None
    boss = live.state.neg.boss
    other = next(s for s in states if s.seat != boss and moves_of(s, "pass"))
    fail = next(m for m in states[boss].moves if m.text == "fail")
    assert (await svc.play(tid, tokens[boss], fail.id, states[boss].seat_version)).accepted
    version = live.version
    out = await svc.play(tid, tokens[other.seat], moves_of(other, "pass")[0].id, other.seat_version)
    assert out.accepted and out.overtaken is not None and "the negotiation your pass answered is over" in out.overtaken
    assert svc.live(tid).version == version


async def test_an_accept_of_a_price_withdrawn_or_changed_meanwhile_is_refused(svc: TableService) -> None:
    tid, tokens, boss, target, colour = await bid_standing(svc)
    answer = await svc.view(tid, tokens[target])
    accept = next(m for m in answer.moves if m.text == f"accept seat {target} {colour}")
    boss_state = await svc.view(tid, tokens[boss])
    withdraw = next(m for m in boss_state.moves if m.text == f"withdraw seat {target} {colour}")
    assert (await svc.play(tid, tokens[boss], withdraw.id, boss_state.seat_version)).accepted
    out = await svc.play(tid, tokens[target], accept.id, answer.seat_version)
    assert not out.accepted and out.refusal is not None and out.refusal.kind == "stale_version"
    assert "withdrew its price of 2M" in out.refusal.reason and "can no longer be played" in out.refusal.reason
    # The boss proposes again, another price: an accept decided on the 2M does not take the new one.
    boss_state = await svc.view(tid, tokens[boss])
    bid = next(m for m in boss_state.moves if m.text == f"bid seat {target} {colour}")
    assert (await svc.play(tid, tokens[boss], bid.id, boss_state.seat_version)).accepted
    boss_state = await svc.view(tid, tokens[boss])
    price = next(m for m in boss_state.moves if m.text != "price 2M" and m.text.endswith("M"))
    assert (await svc.play(tid, tokens[boss], price.id, boss_state.seat_version)).accepted
    out = await svc.play(tid, tokens[target], f"accept seat {target} {colour}", answer.seat_version)
    assert not out.accepted and out.refusal is not None and out.refusal.kind == "stale_version"
    proposes = f"proposes {price.text.removeprefix('price ')} to seat {target}"
    assert proposes in out.refusal.reason and "would now answer something else" in out.refusal.reason
    now = await svc.view(tid, tokens[target])
    out = await svc.play(tid, tokens[target], f"accept seat {target} {colour}", now.seat_version)
    assert out.accepted  # decided on the 3M, it is played


async def test_a_move_sent_while_another_seat_names_its_price_waits_for_the_price(svc: TableService) -> None:
    for seed in range(1, 80):
        tid, tokens = await negotiation(svc, seed)
        states = await views(svc, tid, tokens)
        offerer = next((s for s in states if moves_of(s, "offer ")), None)
        if offerer is None:
            continue
        placer = next((s for s in states if s.seat != offerer.seat and moves_of(s, "family ")), None)
        passer = next(
            (s for s in states if s.seat not in (offerer.seat, getattr(placer, "seat", -1)) and moves_of(s, "pass")),
            None,
        )
        if placer is not None and passer is not None:
            break
    else:
        raise AssertionError("no seed gives an offer, a family card and a pass to three seats")
    offer = moves_of(offerer, "offer ")[0]
    assert (await svc.play(tid, tokens[offerer.seat], offer.id, offerer.seat_version)).accepted
    # Both were decided before the offer; they reach the table while its price is being named.
    family = asyncio.create_task(
        svc.play(tid, tokens[placer.seat], moves_of(placer, "family ")[0].id, placer.seat_version)
    )
    passing = asyncio.create_task(svc.play(tid, tokens[passer.seat], "pass", passer.seat_version))
    await asyncio.sleep(0.2)
    assert not family.done() and not passing.done()  # held: the decision is not theirs while a price is named
    naming = await svc.view(tid, tokens[offerer.seat])
    price = next(m for m in naming.moves if m.text == "price 1M")
    assert (await svc.play(tid, tokens[offerer.seat], price.id, naming.seat_version)).accepted
    placed, passed = await asyncio.gather(family, passing)
    assert placed.accepted, placed.refusal  # a family card answers nothing in particular: placed after the price
    assert passed.accepted, passed.refusal  # another seat's price is not the passing seat's concern
    assert placed.played_version is not None and placed.played_version > naming.seat_version + 1


async def test_moves_held_together_are_each_held_again_while_the_first_names_its_price(svc: TableService) -> None:
    for seed in range(1, 120):
        tid, tokens = await negotiation(svc, seed, seats=4)
        states = await views(svc, tid, tokens)
        # An offer (a seat) or a bid (the boss): the seat names its price next, and nobody acts in between.
        offerers = [s for s in states if moves_of(s, "offer ") + moves_of(s, "bid ")]
        if len(offerers) >= 3:
            break
    else:
        raise AssertionError("no seed gives an offer or a bid to three seats")

    def starter(s: SeatState) -> str:
        return (moves_of(s, "offer ") + moves_of(s, "bid "))[0].id

    first, *held = offerers[:3]
    assert (await svc.play(tid, tokens[first.seat], starter(first), first.seat_version)).accepted
    tasks = {s.seat: asyncio.create_task(svc.play(tid, tokens[s.seat], starter(s), s.seat_version)) for s in held}
    namer = first.seat
    for _ in held:
        await asyncio.sleep(0.2)
        naming = await svc.view(tid, tokens[namer])
        price = next(m for m in naming.moves if m.text == "price 1M")
        assert (await svc.play(tid, tokens[namer], price.id, naming.seat_version)).accepted
        await asyncio.wait(tasks.values(), return_when=asyncio.FIRST_COMPLETED)
        await asyncio.sleep(0)
        done = [seat for seat, task in tasks.items() if task.done()]
        assert len(done) == 1, done  # one held move is played; its seat names its price while the other waits again
        namer = done[0]
        live = svc.live(tid)
        assert live is not None and live.state.neg is not None and live.state.neg.naming is not None
        assert live.state.neg.naming.actor == namer
        out = tasks.pop(namer).result()
        assert out.accepted, out.refusal
    assert not tasks


async def test_a_move_decided_in_one_deal_is_not_played_in_the_next(svc: TableService) -> None:
    _seed, tid, tokens, states = await family_seats(svc)
    live = svc.live(tid)
    assert live is not None and live.state.neg is not None
    boss = live.state.neg.boss
    other = next(s for s in states if s.seat != boss and moves_of(s, "family "))
    boss_state = states[boss]
    fail = next(m for m in boss_state.moves if m.text == "fail")
    assert (await svc.play(tid, tokens[boss], fail.id, boss_state.seat_version)).accepted
    out = await svc.play(tid, tokens[other.seat], moves_of(other, "family ")[0].id, other.seat_version)
    assert not out.accepted and out.refusal is not None and out.refusal.kind == "stale_version"
    assert "can no longer be played" in out.refusal.reason
