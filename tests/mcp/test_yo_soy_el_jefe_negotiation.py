"""Yo soy el jefe's open negotiation played through ``play_move`` over an MCP client (issue 12, "Done when").

"Durante el transcurso de la negociación, no hay un orden especial y cualquier jugador puede intervenir en la
negociación en cualquier momento": a table of agent seats, seeded so that the hands dealt hold what each scenario
needs (the seed is found with the engine, from the same config and seed the table uses), is driven with the
``text`` of the legal moves each seat's view lists. The answers are checked: accepted, the rule a refusal cites,
and the change every seat's view shows. The same scenarios at engine level are in
``tests/engine/yo_soy_el_jefe/test_protocol.py`` and ``test_worked_example.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, COLOURS

from tests.mcp.helpers import Checked

pytestmark = pytest.mark.anyio

GAME = get_game("yo-soy-el-jefe")
BOSS = 0
TABLE_OPTIONS = {"require_club_pass": False, "seats_per_agent": 6, "decision_timeout_s": None}


def hand(state: Any, seat: int) -> list[str]:
    """Return ``seat``'s dealt hand as card tokens: ``family:rojo``, ``travel:gris``, ``boss``, ``hire``..."""
    return [f"{CARDS[c].kind}:{CARDS[c].colour}" if CARDS[c].colour else CARDS[c].kind for c in state.hands[seat]]


def owner_of(state: Any, colour: str) -> int:
    """Return the seat holding the ``colour`` investor card (-1: beside the board)."""
    return state.owner[COLOURS.index(colour)]


def find_seed(seats: int, options: dict[str, Any], fits: Callable[[Any], bool]) -> int:
    """Return the first seed whose dealt position (the engine's, for the table's config) ``fits``."""
    config = GAME.make_config(seats, options)
    for seed in range(2_000):
        if fits(GAME.new_game(config, seed)):
            return seed
    raise AssertionError("no seed deals the position this scenario needs")


class Table:
    """A seeded table whose agent seats are all held by the test's one client."""

    def __init__(self, c: Checked, table_id: str, tokens: list[str]) -> None:
        self.c = c
        self.id = table_id
        self.tokens = tokens

    @classmethod
    async def open(cls, c: Checked, seats: int, options: dict[str, Any], seed: int) -> Table:
        """Create the table and join every seat, in order."""
        t = await c.call(
            "create_table",
            {"game": GAME.id, "seats": ["agent"] * seats, "options": {**options, **TABLE_OPTIONS}, "seed": seed},
        )
        assert t["seeded"]
        tokens = []
        for s in range(seats):
            j = await c.call("join_table", {"table_id": t["table_id"], "seat": s})
            assert j["seat"] == s
            tokens.append(j["seat_token"])
        return cls(c, t["table_id"], tokens)

    async def view(self, seat: int) -> dict[str, Any]:
        """Return ``seat``'s get_view answer."""
        return await self.c.call("get_view", {"table_id": self.id, "seat_token": self.tokens[seat]})

    async def negotiation(self, seat: int = BOSS) -> dict[str, Any]:
        """Return the open negotiation as ``seat``'s view shows it."""
        neg = (await self.view(seat))["view"]["negotiation"]
        assert neg is not None, "no negotiation is open"
        return neg

    async def texts(self, seat: int) -> list[str]:
        """Return the texts of ``seat``'s legal moves, in the listed order."""
        return [m["text"] for m in (await self.view(seat))["legal_moves"]]

    async def listed(self, seat: int, text: str) -> dict[str, Any]:
        """Return the legal move of ``seat`` whose text is ``text`` (it must be listed)."""
        moves = (await self.view(seat))["legal_moves"]
        found = [m for m in moves if m["text"] == text]
        assert found, f"seat {seat} has no legal move {text!r}; listed: {[m['text'] for m in moves]}"
        return found[0]

    async def play(self, seat: int, text: str) -> dict[str, Any]:
        """Play a listed move of ``seat`` by its text, at the seat version it was listed at; it must be accepted."""
        v = await self.view(seat)
        assert any(m["text"] == text for m in v["legal_moves"]), (
            f"seat {seat} has no legal move {text!r}; listed: {[m['text'] for m in v['legal_moves']]}"
        )
        out = await self.c.call(
            "play_move",
            {"table_id": self.id, "seat_token": self.tokens[seat], "move": text, "expected_version": v["seat_version"]},
        )
        assert out["accepted"], out["refusal"]
        assert out["played"]["text"] == text and out["version"] > v["version"]
        return out

    async def refused(self, seat: int, text: str) -> dict[str, Any]:
        """Send a move the rules forbid now: it is refused citing a rule, and nothing changes. Return the refusal."""
        before = await self.view(seat)
        out = await self.c.call("play_move", {"table_id": self.id, "seat_token": self.tokens[seat], "move": text})
        assert not out["accepted"] and out["played"] is None, out
        refusal = out["refusal"]
        assert refusal["kind"] == "rule", refusal
        assert refusal["rule_id"].startswith("yo-soy-el-jefe/") and refusal["rule_text"] and refusal["reason"]
        assert out["version"] == before["version"] and out["seat_version"] == before["seat_version"]
        after = await self.view(seat)
        assert after["view"] == before["view"] and after["legal_moves"] == before["legal_moves"]
        return refusal

    async def others_pass(self, *, but: tuple[int, ...] = ()) -> None:
        """Let every seat that has still to answer the last change pass (the boss and ``but`` aside)."""
        neg = await self.negotiation()
        for seat in neg["to_answer_before_close"]:
            if seat != neg["boss"] and seat not in but:
                await self.play(seat, "pass")

    async def stop_passes(self) -> None:
        """Let every seat asked about the card waiting for stops pass, so that it takes effect."""
        while (waiting := (await self.view(BOSS))["view"]["card_waiting_for_stops"]) is not None:
            await self.play(waiting["still_to_answer"][0], "pass")


def price_of(neg: dict[str, Any], seat: int, colour: str) -> tuple[str, int, str] | None:
    """Return ``(status, millions, named_as)`` of the price standing for ``seat``'s ``colour``, or ``None``."""
    for p in neg["prices"]:
        if p["seat"] == seat and p["colour"] == colour:
            return p["status"], p["millions"], p["named_as"]
    return None


# --------------------------------------------------------------------------- the scenarios

SPACE_8 = {"first_player": BOSS, "marker_start": 8}
"""Space 8: 6 dividends, needing rojo, azul, amarillo and 2 of naranja/rosa/verde."""
SPACE_8_MANDATORY = ("rojo", "azul", "amarillo")


async def test_the_boss_acts_first_right_after_negotiating(club: Checked) -> None:
    """The boss places a family card and proposes a price before any other seat has acted."""

    def fits(state: Any) -> bool:
        family = [t.split(":")[1] for t in hand(state, BOSS) if t.startswith("family:")]
        return any(owner_of(state, c) != BOSS for c in family if c in SPACE_8_MANDATORY) and any(
            owner_of(state, c) not in (BOSS, -1) for c in SPACE_8_MANDATORY
        )

    seed = find_seed(4, SPACE_8, fits)
    state = GAME.new_game(GAME.make_config(4, SPACE_8), seed)
    family = next(
        c
        for t in hand(state, BOSS)
        if t.startswith("family:") and (c := t.split(":")[1]) in SPACE_8_MANDATORY and owner_of(state, c) != BOSS
    )
    colour = next(c for c in SPACE_8_MANDATORY if owner_of(state, c) not in (BOSS, -1) and c != family)
    other = owner_of(state, colour)
    t = await Table.open(club, 4, SPACE_8, seed)

    assert await t.texts(BOSS) == ["negotiate", "roll"]
    await t.play(BOSS, "negotiate")
    neg = await t.negotiation()
    assert neg["boss"] == BOSS and neg["last_change"]["by"] == BOSS and neg["prices"] == []
    # Every seat may act at once, the boss included.
    for seat in range(4):
        assert (await t.view(seat))["decision"]["yours"]
    placed = await t.play(BOSS, f"family {family}")
    assert placed["played"]["says"].startswith(f"Place your family card (familia) {family} in the deal")
    bid = await t.listed(BOSS, f"bid seat {other} {colour}")
    assert f"seat {other} (local)" in bid["says"]
    await t.play(BOSS, bid["text"])
    # While the boss names its price, no other seat may act.
    for seat in range(1, 4):
        assert (await t.view(seat))["legal_moves"] == []
    await t.play(BOSS, "price 1M")
    for seat in range(4):  # a public change: every seat sees it
        neg = await t.negotiation(seat)
        assert {"seat": BOSS, "colour": family} in [
            {"seat": p["seat"], "colour": p["colour"]} for p in neg["placed_family_cards"]
        ]
        assert price_of(neg, other, colour) == ("proposed", 1, "1M")
        assert [p["named_by"] for p in neg["prices"]] == [BOSS]
        assert neg["last_change"]["by"] == BOSS
    # The proposal stands: its seat may accept it, and passing by the others changes nothing.
    assert f"accept seat {other} {colour}" in await t.texts(other)
    await t.others_pass(but=(other,))
    assert price_of(await t.negotiation(), other, colour) == ("proposed", 1, "1M")


async def test_withdraw_and_restate_a_demand_until_the_boss_accepts_it(club: Checked) -> None:
    """A demand may be withdrawn, re-stated and changed; once the boss accepts it, it binds (rulings/promesas)."""
    seed = find_seed(4, SPACE_8, lambda s: owner_of(s, "rojo") not in (BOSS, -1))
    state = GAME.new_game(GAME.make_config(4, SPACE_8), seed)
    seat = owner_of(state, "rojo")
    t = await Table.open(club, 4, SPACE_8, seed)
    await t.play(BOSS, "negotiate")

    offer = await t.play(seat, "offer rojo")
    assert "price 4M" in [m["text"] for m in offer["legal_moves"]]
    await t.play(seat, "price 4M")
    assert price_of(await t.negotiation(), seat, "rojo") == ("asked", 4, "4M")
    assert f"accept seat {BOSS} rojo" not in await t.texts(seat)
    withdraw = await t.listed(seat, f"withdraw seat {seat} rojo")
    assert withdraw["says"] == "Withdraw your demand of 4M for your rojo."
    await t.play(seat, withdraw["text"])
    assert price_of(await t.negotiation(), seat, "rojo") is None
    assert f"accept seat {seat} rojo" not in await t.texts(BOSS)
    # Re-stated, then changed: the new demand replaces the old one.
    await t.play(seat, "offer rojo")
    await t.play(seat, "price 4M")
    assert price_of(await t.negotiation(), seat, "rojo") == ("asked", 4, "4M")
    change = await t.listed(seat, "offer rojo")
    assert change["says"].startswith("Change your demand for your rojo (investor), now 4M")
    await t.play(seat, "offer rojo")
    await t.play(seat, "price 2 dividends")
    neg = await t.negotiation()
    millions = 2 * neg["dividend_value"]
    assert price_of(neg, seat, "rojo") == ("asked", millions, f"2 dividend(s) ({millions}M)")
    accept = await t.listed(BOSS, f"accept seat {seat} rojo")
    assert f"seat {seat} (local) is paid {millions}M for rojo" in accept["says"]
    await t.play(BOSS, accept["text"])
    neg = await t.negotiation(seat)
    assert price_of(neg, seat, "rojo") == ("agreed", millions, f"2 dividend(s) ({millions}M)")
    assert neg["promised"] == millions
    # An agreement binds: withdrawing it now is refused with the ruling's words.
    assert f"withdraw seat {seat} rojo" not in await t.texts(seat)
    refusal = await t.refused(seat, f"withdraw seat {seat} rojo")
    assert refusal["rule_id"] == "yo-soy-el-jefe/rulings/promesas"
    assert "already agreed" in refusal["reason"] and "binds" in refusal["reason"]


async def test_a_backup_family_card_keeps_an_agreement_against_a_travel_card(club: Checked) -> None:
    """A seat places a family card of the colour it already agreed on; a travel card on its investor then leaves
    the agreement standing."""

    def parts(state: Any) -> tuple[str, int, int, str] | None:
        for colour in SPACE_8_MANDATORY:
            seat = owner_of(state, colour)
            if seat in (BOSS, -1) or f"family:{colour}" not in hand(state, seat):
                continue
            for rival in range(1, 4):
                cards = hand(state, rival)
                if rival != seat and f"travel:{colour}" in cards:
                    return colour, seat, rival, ""
                if rival != seat and "travel:gris" in cards:
                    return colour, seat, rival, " grey"
        return None

    seed = find_seed(4, SPACE_8, lambda s: parts(s) is not None)
    found = parts(GAME.new_game(GAME.make_config(4, SPACE_8), seed))
    assert found is not None
    colour, seat, rival, grey = found
    t = await Table.open(club, 4, SPACE_8, seed)
    await t.play(BOSS, "negotiate")
    family = await t.listed(seat, f"family {colour}")
    assert family["note"] and "nothing until you have an agreement to protect" in family["note"]
    await t.play(seat, f"offer {colour}")
    await t.play(seat, "price 2M")
    await t.play(BOSS, f"accept seat {seat} {colour}")
    backup = await t.listed(seat, f"family {colour}")
    assert backup["note"] is None and "as a backup" in backup["says"]
    await t.play(seat, backup["text"])
    neg = await t.negotiation(rival)
    assert [(p["seat"], p["colour"]) for p in neg["placed_family_cards"]] == [(seat, colour)]
    travel = await t.play(rival, f"travel investor seat {seat} {colour}{grey}")
    waiting = (await t.view(seat))["view"]["card_waiting_for_stops"]
    assert waiting["kind"] == "travel" and waiting["played_by"] == rival
    assert rival not in waiting["still_to_answer"] and travel["version"] == (await t.view(seat))["version"]
    await t.stop_passes()
    neg = await t.negotiation(seat)
    assert [(x["colour"], x["holder"]) for x in neg["travelled_investors"]] == [(colour, seat)]
    assert price_of(neg, seat, colour) == ("agreed", 2, "2M")  # it stands: the family card stands in
    group = {g["colour"]: g for g in neg["group_if_closed_now"]}
    assert group[colour]["seat"] == seat and group[colour]["price"] == 2


SPACE_1 = {"first_player": BOSS, "marker_start": 1}
"""Space 1: 2 dividends, needing rojo and amarillo."""


async def test_accept_and_close_at_once_when_every_other_seat_has_passed(club: Checked) -> None:
    """ "rápidamente aceptó las condiciones ... y declaró que el trato había concluido": not before every other
    seat has answered the last change (refused, citing the protocol's ruling), then in one move."""
    seed = find_seed(4, SPACE_1, lambda s: owner_of(s, "rojo") == BOSS and owner_of(s, "amarillo") not in (BOSS, -1))
    seller = owner_of(GAME.new_game(GAME.make_config(4, SPACE_1), seed), "amarillo")
    quiet = [s for s in range(1, 4) if s != seller]
    t = await Table.open(club, 4, SPACE_1, seed)
    await t.play(BOSS, "negotiate")
    refusal = await t.refused(BOSS, "close")  # amarillo is not in the deal yet
    assert refusal["rule_id"] == "yo-soy-el-jefe/3-3-cierre" and "missing amarillo" in refusal["reason"]
    await t.play(seller, "offer amarillo")
    await t.play(seller, "price 1M")
    # Not yet: the other seats have not answered the demand.
    texts = await t.texts(BOSS)
    assert f"accept seat {seller} amarillo" in texts and f"accept seat {seller} amarillo and close" not in texts
    refusal = await t.refused(BOSS, f"accept seat {seller} amarillo and close")
    assert refusal["rule_id"] == "yo-soy-el-jefe/rulings/protocolo-de-negociacion"
    assert all(f"seat {s}" in refusal["reason"] for s in quiet)
    await t.play(quiet[0], "pass")
    assert f"accept seat {seller} amarillo and close" not in await t.texts(BOSS)
    await t.play(quiet[1], "pass")
    boss = await t.view(BOSS)
    first = boss["legal_moves"][0]
    assert first["text"] == f"accept seat {seller} amarillo and close"
    assert "close the deal at once" in first["says"] and f"seat {seller} (local)" in first["says"]
    payout = boss["view"]["negotiation"]["payout"]
    out = await t.play(BOSS, first["text"])
    view = (await t.view(seller))["view"]
    assert view["negotiation"] is None and view["deals_done"] == 1
    deal = view["deals"][0]
    assert (deal["deal"], deal["space"], deal["boss"], deal["payout"]) == (1, 1, BOSS, payout)
    assert deal["paid"] == [[seller, "amarillo", "investor", 1]] and deal["kept_by_boss"] == payout - 1
    assert view["last_deal"]["failed"] is False and view["last_deal"]["kept_by_boss"] == payout - 1
    assert any(f"seat {seller}" in e["text"] and "amarillo" in e["text"] for e in out["events"])
