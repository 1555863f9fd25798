"""Section 3-3, closing or failing a deal: "Uno, dos, la transacción se ha completado", the payment, the
cards after the deal, the deal card on the space, the end roll (section 4), or the failure."""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.yo_soy_el_jefe import events as said
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.components import components
from club_agentes.engine.yo_soy_el_jefe.flow import end_turn, game_over
from club_agentes.engine.yo_soy_el_jefe.moves import Close, Fail
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, COLOURS, SPACES, ClosedDeal, Ledger, State
from club_agentes.engine.yo_soy_el_jefe.steps.deal import FAMILY_PART, FORCED_PART, current_group, current_missing

DIE_FACES = components().die_faces


def check_close(state: State, seat: int, move: Close) -> Refusal | None:
    """Only the boss closes, and only a deal whose investors are gathered (3-3)."""
    neg = state.neg
    assert neg is not None
    if seat != neg.boss:
        return Refusal(R.CLOSE, lambda neg=neg: f"only the boss (seat {neg.boss}) closes the deal.")
    if not current_group(state)[1]:
        return Refusal(
            R.CLOSE, lambda state=state: f"the deal cannot close yet: still missing {current_missing(state)}."
        )
    return None


def fail_by_boss(state: State, seat: int, move: Fail) -> Refusal | None:
    """Only the boss declares failure (3-3, "Fracaso de la transacción"); then :func:`must_complete`."""
    neg = state.neg
    assert neg is not None
    if seat != neg.boss:
        return Refusal(R.FAIL, lambda neg=neg: f"only the boss (seat {neg.boss}) declares the deal failed.")
    return None


def must_complete(state: State, seat: int, move: Fail) -> Refusal | None:
    """Under the two-player rules the boss may not declare failure while the deal could close (dos-jugadores)."""
    if state.cfg.two_player_rules and current_group(state)[1]:
        return _MUST_COMPLETE
    return None


_MUST_COMPLETE = Refusal(  # built once (a Refusal is immutable, and this one reads nothing of the moment)
    R.TWO_PLAYERS,
    lambda: (
        "under the two-player rules the boss must complete a deal whose investors and family cards are on the table."
    ),
)


def do_close(state: State, seat: int, move: Any) -> list[Event]:
    """Close the deal: the bank pays the boss, the boss pays what was promised, cards go back or to the discards,
    the deal card covers the space, the marker moves on, and from the tenth deal the boss rolls for the end."""
    neg = state.neg
    assert neg is not None
    parts, _ = current_group(state)
    boss = neg.boss
    payout = neg.payout
    deal_no = state.deals_done + 1
    space_no = neg.space + 1
    state.money[boss] += payout
    state.ledger.append(Ledger(boss, deal_no, space_no, "payout", None, None, payout))
    events = [
        Event(
            f"seat {boss} (the boss) said 'Uno, dos, la transacción se ha completado': the bank pays "
            f"{neg.dividends} dividends of {neg.value}M = {payout}M to seat {boss}.",
            data={"boss": boss, "payout": payout},
        )
    ]
    room = payout - sum(p.price for p in parts if p.how != FORCED_PART)
    paid: list[tuple[int, str, str, int]] = []
    participating_family: set[tuple[int, int]] = set()
    for part in parts:
        s, c, how = part.seat, part.colour, part.how
        if how == FAMILY_PART:
            participating_family.add((s, c))
        if s == boss:
            continue
        amount = part.price
        if how == FORCED_PART:
            amount = min(part.price, max(room, 0))
            room -= amount
        if state.cfg.dividends_only_for_participants and s not in neg.used:
            events.append(
                Event(
                    f"seat {s} used no influence card in this deal, so the {amount}M for its {COLOURS[c]} stays "
                    f"with seat {boss}."
                )
            )
            continue
        if amount:
            state.money[boss] -= amount
            state.money[s] += amount
            state.ledger.append(Ledger(boss, deal_no, space_no, "paid", s, COLOURS[c], -amount))
            state.ledger.append(Ledger(s, deal_no, space_no, "received", boss, COLOURS[c], amount))
        paid.append((s, COLOURS[c], how, amount))
        reason = "as agreed" if how != FORCED_PART else "for using its investor (two-player rules)"
        events.append(Event(f"seat {boss} paid {amount}M to seat {s} for its {COLOURS[c]} ({how}) {reason}."))
    discarded: list[str] = []
    returned: list[list[Any]] = []
    for (s, c), family in sorted(neg.placed.items()):
        if (s, c) in participating_family:
            state.discard.append(family)
            discarded.append(CARDS[family].id)
        else:
            state.give_back(s, family)
            returned.append([s, CARDS[family].id])
    for _colour, travel in sorted(neg.travelled.items()):
        state.discard.append(travel)
        discarded.append(CARDS[travel].id)
    if discarded:
        events.append(Event(f"discarded after the deal: {', '.join(discarded)}."))
    for s, card_id in returned:
        events.append(Event(f"seat {s} took back its family card {card_id} (it did not take part)."))
    card = state.deal_deck.pop(0)
    state.covered[neg.space] = card.number
    state.deals_done = deal_no
    closed = ClosedDeal(deal_no, space_no, card.number, boss, payout, paid)
    state.deals.append(closed)
    state.failed_in_a_row = 0
    state.last_deal = {
        "deal": deal_no,
        "space": space_no,
        "card": card.number,
        "boss": boss,
        "payout": payout,
        "paid": [list(p) for p in paid],
        "kept_by_boss": payout - sum(p[3] for p in paid),
        "failed": False,
    }
    nxt = _next_free(state, neg.space)
    state.marker = nxt
    events.append(
        Event(
            f"deal card #{card.number} now covers space {space_no} (deal {deal_no}); the marker moves to space "
            f"{nxt + 1}."
        )
    )
    state.neg = None
    if card.final or not state.deal_deck:
        state.last_roll = None
        return events + game_over(
            state, f"deal card #{card.number} was the last: the game ends without a roll", R.END_DIE
        )
    if card.end_numbers:
        roll = state.rng.below(DIE_FACES) + 1
        state.last_roll = roll
        closed.roll = roll
        faces = ", ".join(str(x) for x in card.end_numbers)
        if roll in card.end_numbers:
            events.append(Event(f"seat {boss} rolled {roll} for the end: deal card #{card.number} shows {faces}."))
            return events + game_over(
                state, f"seat {boss} rolled {roll} after deal {deal_no}, a number on card #{card.number}", R.END_DIE
            )
        events.append(
            Event(
                f"seat {boss} rolled {roll} for the end: deal card #{card.number} shows {faces}, so the game goes on.",
                data={"roll": roll},
            )
        )
    nxt_seat = (neg.turn_seat if state.cfg.boss_card_keeps_turn else boss) + 1
    return events + end_turn(state, nxt_seat % state.n)


def _next_free(state: State, space: int) -> int:
    for step in range(1, len(SPACES) + 1):
        pos = (space + step) % len(SPACES)
        if not state.covered[pos]:
            return pos
    return space


def do_fail(state: State, seat: int, move: Fail) -> list[Event]:
    """Fail the deal: family cards go back to their hands, the other cards used are discarded, the turn ends."""
    neg = state.neg
    assert neg is not None
    returned: list[list[Any]] = []
    for (s, _c), card in sorted(neg.placed.items()):
        state.give_back(s, card)
        returned.append([s, CARDS[card].id])
    discarded = [CARDS[card].id for _, card in sorted(neg.travelled.items())]
    state.discard.extend(card for _, card in sorted(neg.travelled.items()))
    state.last_deal = {"space": neg.space + 1, "boss": neg.boss, "failed": True}
    state.failed_in_a_row += 1
    events = [said.deal_failed(seat, neg.space)]
    if returned:
        events.append(
            Event("family cards back to their hands: " + ", ".join(f"{cid} to seat {s}" for s, cid in returned) + ".")
        )
    if discarded:
        events.append(Event(f"discarded: {', '.join(discarded)}."))
    state.neg = None
    limit = state.cfg.failed_negotiations_limit
    if state.failed_in_a_row >= limit:
        state.turns_played += 1
        return events + game_over(
            state,
            f"{limit} negotiations in a row have failed with no deal closed, the table's safety limit",
            R.R_FAILURE_LIMIT,
        )
    nxt = (neg.turn_seat if state.cfg.boss_card_keeps_turn else neg.boss) + 1
    return events + end_turn(state, nxt % state.n)
