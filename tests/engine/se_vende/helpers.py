"""Helpers for Se Vende tests: physical card ids by design key, arranged positions, round drivers."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest
from club_agentes.engine.core import IllegalMove, get_game
from club_agentes.engine.se_vende.cards import load_deck
from club_agentes.engine.se_vende.game import SeVende
from club_agentes.engine.se_vende.moves import PLACE_NONE, ChooseAction, Discard, Done
from club_agentes.engine.se_vende.state import SELECT, State

GAME: SeVende = get_game("se-vende")  # type: ignore[assignment]
DECK = load_deck()


def num(key: str, copy: int = 0) -> int:
    """Return the 0-based number of the ``copy``-th physical card of design ``key``."""
    found = [i for i, d in enumerate(DECK.defs) if d.key == key]
    assert found, f"no design {key!r}"
    return found[copy]


def cid(key: str, copy: int = 0) -> str:
    """Return the id of the ``copy``-th physical card of design ``key``."""
    return DECK.ids[num(key, copy)]


def snap(state: State) -> str:
    """Return the complete snapshot as canonical JSON, for untouched checks."""
    return json.dumps(GAME.snapshot(state), sort_keys=True)


def refused(state: State, seat: int, move: Any) -> IllegalMove:
    """Apply a move that must be refused; check the state is untouched and return the refusal."""
    before = snap(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert snap(state) == before, "a refused move changed the state"
    assert err.value.rule_id in GAME.rule_ids()
    return err.value


def after_setup(seats: int = 3, seed: int = 1, turn_limit: int = 40) -> State:
    """Return a game whose setup discards are done (each seat discards its first two cards)."""
    state = GAME.new_game(GAME.make_config(seats, {"turn_limit": turn_limit}), seed)
    for seat in range(seats):
        for _ in range(2):
            GAME.apply(state, seat, Discard(DECK.ids[state.hands[seat][0]]))
    assert state.step == SELECT
    return state


def arrange(
    seats: int = 3,
    *,
    hands: Mapping[int, Iterable[int]] | None = None,
    tableau: Mapping[int, Iterable[int]] | None = None,
    goods: Iterable[int] = (),
    chips: Mapping[int, int] | None = None,
    pool: int | None = None,
    seed: int = 1,
    turn_limit: int = 40,
) -> State:
    """Return a game at the start of round 1's action choice with exactly the given cards in place.

    Every card not named goes to the supply (in the game's shuffled order), so all cards
    stay somewhere. ``tableau`` replaces a seat's tableau (start world included, if wanted);
    seats not given keep their start world. ``goods`` lists worlds that get a good from the
    supply's top. Placed cards count as placed at setup (their powers count at once).
    """
    s = after_setup(seats, seed, turn_limit)
    hands = dict(hands or {})
    tableau = dict(tableau or {})
    every = list(s.supply) + list(s.discard)
    for h in s.hands:
        every.extend(h)
    every.extend(s.goods.values())
    keep_tableau = {i: list(s.tableau[i]) for i in range(seats) if i not in tableau}
    for i in range(seats):
        if i in tableau:
            every.extend(s.tableau[i])
    named: set[int] = set()
    for cards in (*hands.values(), *tableau.values(), *keep_tableau.values()):
        cards = list(cards)
        assert not named & set(cards) and len(set(cards)) == len(cards), "arrange: a card is named twice"
        named.update(cards)
    s.goods.clear()
    s.discard.clear()
    s.known.clear()
    s.stamps = {}
    for i in range(seats):
        s.tableau[i] = list(tableau.get(i, keep_tableau.get(i, [])))
        s.hands[i] = list(hands.get(i, []))
        for c in s.tableau[i]:
            s.stamps[c] = 0
    s.supply = [c for c in every if c not in named and c not in s.stamps]
    for w in goods:
        s.goods[w] = s.supply.pop()
    if chips:
        for i, v in chips.items():
            s.chips[i] = v
    if pool is not None:
        s.pool = pool
    total = len(s.supply) + len(s.discard) + sum(map(len, s.hands)) + sum(map(len, s.tableau)) + len(s.goods)
    assert total == len(DECK.defs), "arrange lost or duplicated cards"
    return s


def choose(state: State, actions: Mapping[int, str]) -> list[Any]:
    """Every seat chooses its action card (seats in ``actions``); return all events."""
    events: list[Any] = []
    for seat, code in sorted(actions.items()):
        events.extend(GAME.apply(state, seat, ChooseAction(code)))
    return events


def place_none_for(state: State, seats: Iterable[int]) -> None:
    """The given seats place nothing in the current placing step."""
    for seat in seats:
        GAME.apply(state, seat, PLACE_NONE)


def finish_consuming(state: State, seats: Iterable[int]) -> None:
    """The given seats, if still consuming, say done."""
    for seat in seats:
        if seat in GAME.pending(state).seats:
            GAME.apply(state, seat, Done())


def texts(events: Iterable[Any], seat: int | None = None) -> list[str]:
    """Return the texts of the events ``seat`` may see (``None``: public ones only)."""
    return [e.text for e in events if e.visible_to(seat)]


def spare(n: int, *taken: Iterable[int]) -> list[int]:
    """Return ``n`` plain non-military, non-start worlds not in ``taken`` (hand fillers)."""
    used: set[int] = set()
    for group in taken:
        used.update(group)
    pool = [
        c for c, d in enumerate(DECK.defs) if d.world == "plain" and not d.military and not d.start and c not in used
    ]
    assert len(pool) >= n, "not enough filler cards"
    return pool[:n]
