"""The engine's answers to the hand-written Yo soy el jefe items (their ``computed`` field names these).

Each function builds the item's situation with the engine's scenario builder and plays it through
:class:`~club_agentes.quizzes.generators.yo_soy_el_jefe.table.Table`, or reads the engine's
component data; none restates a rule. Seats in the items are numbered from 1; the engine's from 0.
Example: ``next_turn_seat(5, 2, 4)`` has seat 2 open a deal, seat 4 play the last boss card and
close it, and returns the seat (from 1) the engine gives the next turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.engine.yo_soy_el_jefe.components import components, payout
from club_agentes.engine.yo_soy_el_jefe.scenario import position, rig_die
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import COLOURS, SPACES
from club_agentes.quizzes.generators.yo_soy_el_jefe.table import Table

END_OPTIONS = {
    "ends": "Se tira el dado y la partida termina",
    "no_roll": "No se tira el dado y la partida continúa",
    "goes_on": "Se tira el dado y la partida continúa",
    "final": "La partida termina sin tirar el dado",
}


def banker_payout(deal_number: int, dividends: int) -> int:
    """What the banker pays for deal ``deal_number`` on a space of ``dividends`` (the component data's payout)."""
    return payout(deal_number, dividends)


def boss_keeps(deal_number: int, dividends: int, payments: Sequence[int]) -> int:
    """What the boss keeps of that payout after paying ``payments``."""
    return payout(deal_number, dividends) - sum(payments)


def _new(seats: int) -> Table:
    return Table(seats, 3, {"marker_start": 1})


def investor_cards_each(seats: int) -> int:
    """Investor cards each seat holds after the engine's deal."""
    return len(_new(seats).view(None)["players"][0]["investors"])


def investor_cards_beside_board(seats: int) -> int:
    """Investor cards left beside the board after the engine's deal."""
    return sum(1 for i in _new(seats).view(None)["investors"] if not isinstance(i["holder"], int))


def deck_after_setup(seats: int) -> int:
    """Influence cards left in the deck after the engine's deal."""
    return int(_new(seats).view(None)["deck_count"])


def travel_cards_for(colour: str) -> int:
    """Travel cards that can go on an investor of ``colour``: those of its colour and the grey ones (component data)."""
    counts = components().influence_counts
    assert colour in COLOURS
    return counts["travel_per_colour"] + counts["travel_grey"]


def _closing_table(seats: int, boss: int, space: int, covered: Sequence[int], **options: bool) -> Table:
    s = SPACES[space - 1]
    needed = [*s.mandatory, *s.optional[: s.optional_needed]]
    owner: dict[str, int | None] = {c: boss for c in needed}
    for i, c in enumerate(c for c in COLOURS if c not in needed):
        owner[c] = (boss + 1 + i) % seats
    st = position(seats, dict(options), owner=owner, deals_done=len(covered), covered=covered, marker=space, turn=boss)
    return Table.adopt(st, seats)


def next_turn_seat(seats: int, starter: int, last_boss: int, keeps_turn: bool = False) -> int:
    """The seat (from 1) that plays next when ``starter`` opens a deal and ``last_boss`` takes it over and closes it."""
    s0, b0 = starter - 1, last_boss - 1
    space = 1
    sp = SPACES[space - 1]
    needed = [*sp.mandatory, *sp.optional[: sp.optional_needed]]
    owner: dict[str, int | None] = {c: b0 for c in needed}
    for i, c in enumerate(c for c in COLOURS if c not in needed):
        owner[c] = (b0 + 1 + i) % seats
    options = {"boss_card_keeps_turn": True} if keeps_turn else {}
    st = position(seats, options, owner=owner, hands={b0: ["boss"]}, marker=space, turn=s0)
    table = Table.adopt(st, seats)
    table.negotiate()
    table.until(b0, "boss keep")
    while table.view(None)["card_waiting_for_stops"] is not None:
        table.play(next(x for x in table.deciding() if table.may(x, "pass")), "pass")
    table.close()
    table.finish_turn()
    return table.turn_seat() + 1


def turns_skipped(seats: int, starter: int, last_boss: int) -> int:
    """Seats that lose their turn when a deal opened by ``starter`` is closed by ``last_boss``."""
    after = next_turn_seat(seats, starter, last_boss)
    return (after - starter - 1) % seats


def two_player_payment_for_deal(deal_number: int, dividends: int, investors: int, used: int) -> int:
    """What a boss pays under the two-player rules for ``used`` of the opponent's investor cards."""
    space = next(s for s in SPACES if s.dividends == dividends and len(s.mandatory) + s.optional_needed == investors)
    needed = [*space.mandatory, *space.optional[: space.optional_needed]]
    owner = {c: (1 if i < used else 0) for i, c in enumerate(needed)}
    for c in COLOURS:
        owner.setdefault(c, 1)
    covered = [s for s in range(1, 17) if s != space.number][: deal_number - 1]
    st = position(
        2, {"two_player_rules": True}, owner=owner, deals_done=len(covered), covered=covered, marker=space.number
    )
    table = Table.adopt(st, 2)
    table.negotiate()
    table.close()
    deal = table.view(0)["last_deal"]
    return sum(int(p[3]) for p in deal["paid"] if p[0] == 1)


def marker_destination(start: int, roll: int, covered: Sequence[int]) -> int:
    """The space the engine moves the marker to from ``start`` with ``roll``, over ``covered`` spaces."""
    st = position(3, deals_done=len(covered), covered=covered, marker=start)
    rig_die(st, roll)
    return Table.adopt(st, 3).roll()[1]


def next_empty_space(closed_on: int, covered_after: Sequence[int]) -> int:
    """The marker's space after a deal closes on ``closed_on`` (the spaces covered after it: ``covered_after``)."""
    before = [s for s in covered_after if s != closed_on]
    table = _closing_table(3, 0, closed_on, before)
    table.close_here()
    return int(table.view(None)["marker"])


def end_outcome(deal_number: int) -> str:
    """What the end die does after deal ``deal_number`` closes (an option text of the item)."""
    covered = [s for s in range(2, 17)][: deal_number - 1]
    table = _closing_table(3, 0, 1, covered)
    rig_die(table.state, 6)
    before = table.view(None)["last_roll"]
    table.close_here()
    rolled = table.view(None)["last_roll"] is not None and table.view(None)["last_roll"] != before
    key = ("ends" if rolled else "final") if table.over else ("goes_on" if rolled else "no_roll")
    return END_OPTIONS[key]


def _hand_after_draw(hand: int, hires: int, investors: int, variant: bool) -> int:
    """Cards discarded at the hand limit after taking cards, playing a hire set first when holding one."""
    tokens = ["hire"] * hires + ["boss"] * (hand - hires)
    owner: dict[str, int | None] = {c: (0 if i < investors else None if i < 4 else 1) for i, c in enumerate(COLOURS)}
    options = {"draw_by_investors": True} if variant else {}
    st = position(4, options, owner=owner, hands={0: tokens}, marker=1)
    table = Table.adopt(st, 4)
    table.roll()
    table.until(0, "draw")
    if hires >= 3:
        hire = next((m for m in table.legal_texts(0) if m.startswith("hire ")), None)
        if hire is not None:
            table.play(0, hire)
            while table.view(None)["card_waiting_for_stops"] is not None:
                table.play(next(x for x in table.deciding() if table.may(x, "pass")), "pass")
    after_hire = int(table.view(0)["players"][0]["hand_count"])
    table.finish_turn()
    return after_hire - int(table.view(0)["players"][0]["hand_count"])


def hand_discard(hand: int, hires: int, sets_played: int) -> int:
    """Cards discarded after taking cards with ``hand`` influence cards, ``hires`` of them hire cards played as sets."""
    return _hand_after_draw(hand, hires if sets_played else 0, 1, False)


def variant_draw_discard(hand: int, investors: int) -> int:
    """Cards discarded at the limit after taking cards under the draw-by-investors variant."""
    return _hand_after_draw(hand, 0, investors, True)
