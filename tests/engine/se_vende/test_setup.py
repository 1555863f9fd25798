"""Setup steps 1-8 of the rulebook (se-vende/preparacion/...), for 2 to 4 seats."""

from __future__ import annotations

import pytest
from club_agentes.engine.core import ConfigError
from club_agentes.engine.se_vende.moves import ACTION_CODES, ChooseAction, Discard
from club_agentes.engine.se_vende.state import CHIPS_PER_SEAT, SELECT, SETUP, TENS

from tests.engine.se_vende.helpers import DECK, GAME, after_setup, refused

SEATS = (2, 3, 4)


def _new(seats: int, seed: int = 1):
    return GAME.new_game(GAME.make_config(seats), seed)


@pytest.mark.parametrize("seats", SEATS)
def test_paso_1_fichas(seats: int) -> None:
    state = _new(seats)
    assert state.pool == CHIPS_PER_SEAT * seats
    assert not state.tens_added and TENS == 40
    view = GAME.view(state, 0)
    assert view["chip_pool"] == 12 * seats and view["tens_added"] is False


@pytest.mark.parametrize("seats", SEATS)
def test_paso_2_cartas_de_accion(seats: int) -> None:
    state = after_setup(seats)
    for seat in range(seats):
        moves = GAME.legal_moves(state, seat)
        assert moves == [ChooseAction(c) for c in ACTION_CODES]
        assert len(set(moves)) == 7
        names = GAME.view(state, seat)["actions"]["my_action_cards"]
        assert len(set(names)) == 7 and "Consumir: 2x PV" in names


@pytest.mark.parametrize("seats", SEATS)
def test_paso_3_mundos_iniciales(seats: int) -> None:
    state = _new(seats)
    public = GAME.view(state, None)
    starts = []
    for seat in range(seats):
        assert len(state.tableau[seat]) == 1
        card = state.tableau[seat][0]
        assert DECK.defs[card].start
        starts.append(card)
        assert public["players"][seat]["tableau"][0]["id"] == DECK.ids[card]  # face up
    assert len(set(starts)) == seats


@pytest.mark.parametrize("seats", SEATS)
def test_paso_4_reparto(seats: int) -> None:
    state = _new(seats)
    assert all(len(h) == 6 for h in state.hands)
    dealt = {state.tableau[s][0] for s in range(seats)}
    rest = set(DECK.start_cards) - dealt
    assert len(rest) == 5 - seats
    elsewhere = set(state.supply) | {c for h in state.hands for c in h} | set(state.goods.values())
    assert rest <= elsewhere  # the remaining start worlds are shuffled into the game cards


@pytest.mark.parametrize("seats", SEATS)
def test_paso_5_descarte(seats: int) -> None:
    state = _new(seats)
    pending = GAME.pending(state)
    assert state.step == SETUP and pending.kind == "simultaneous" and pending.seats == tuple(range(seats))
    assert GAME.legal_moves(state, 0) == [Discard(DECK.ids[c]) for c in state.hands[0]]
    other = state.hands[1][0]
    err = refused(state, 0, Discard(DECK.ids[other]))
    assert err.rule_id == "se-vende/preparacion/paso-5-descarte"
    first = state.hands[0][0]
    GAME.apply(state, 0, Discard(DECK.ids[first]))
    assert first in state.discard and len(state.hands[0]) == 5
    assert DECK.ids[first] in GAME.hidden_ids(state, 1)  # face down: others never learn it
    assert DECK.ids[first] not in GAME.hidden_ids(state, 0)
    state = after_setup(seats)
    assert all(len(h) == 4 for h in state.hands) and len(state.discard) == 2 * seats


@pytest.mark.parametrize("seats", SEATS)
def test_paso_6_suministro(seats: int) -> None:
    state = after_setup(seats)
    in_play = sum(map(len, state.hands)) + sum(map(len, state.tableau)) + len(state.goods) + len(state.discard)
    assert len(state.supply) == len(DECK.defs) - in_play
    view = GAME.view(state, 0)
    assert view["supply_size"] == len(state.supply) and view["discard_size"] == 2 * seats
    shown = str(view)
    assert not any(DECK.ids[c] in shown for c in state.supply)  # face down, order unknown
    assert not any(DECK.ids[c] in shown for c in state.discard if state.known.get(c) != 0)


def _seed_with_alfa(seats: int, dealt: bool) -> int:
    for seed in range(200):
        state = _new(seats, seed)
        if any(DECK.alfa in t for t in state.tableau) == dealt:
            return seed
    raise AssertionError("no seed found")


@pytest.mark.parametrize("seats", SEATS)
def test_paso_7_alfa_centauro(seats: int) -> None:
    state = _new(seats, _seed_with_alfa(seats, True))
    owner = next(s for s in range(seats) if DECK.alfa in state.tableau[s])
    assert DECK.alfa in state.goods
    good = state.goods[DECK.alfa]
    for seat in (*range(seats), None):
        assert DECK.ids[good] in GAME.hidden_ids(state, seat)  # face down, even to its owner
    entry = GAME.view(state, owner)["players"][owner]["tableau"][0]
    assert entry["good"] == "elementos-raros"
    state = _new(seats, _seed_with_alfa(seats, False))
    assert not state.goods


@pytest.mark.parametrize("seats", SEATS)
def test_paso_8_reparto_final(seats: int) -> None:
    state = after_setup(seats)
    assert state.step == SELECT and state.round == 1
    for seat in range(seats):
        assert [DECK.defs[c].start for c in state.tableau[seat]] == [True]
        assert len(GAME.legal_moves(state, seat)) == 7


@pytest.mark.parametrize("seats", (1, 5, 0))
def test_seat_range_is_a_ruling(seats: int) -> None:
    with pytest.raises(ConfigError, match="se-vende/rulings/jugadores"):
        GAME.make_config(seats)


def test_config_options() -> None:
    cfg = GAME.make_config(3, {"turn_limit": 12})
    assert GAME.make_config(3, cfg.to_json()) == cfg
    assert GAME.make_config(2).turn_limit == 40
    for bad in ({"turn_limit": 0}, {"turn_limit": "9"}, {"turn_limit": True}, {"speed": 1}):
        with pytest.raises(ConfigError):
            GAME.make_config(3, bad)
    schema = GAME.config_schema()
    assert all("description" in p for p in schema["properties"].values())
