"""Ruling ``promesas``: a price or an agreement stands only while its seat can give that colour.

When a travel card or a hire set takes away what a seat offered (its investor card, or the family card it
placed), the prices and the agreement on that colour lapse at once: they no longer count against the
payout, cannot be accepted, and the seat may place a family card of that colour and name a price again.
"""

from __future__ import annotations

from club_agentes.engine.yo_soy_el_jefe.state import AGREED, ASKED, COLOURS

from .helpers import build_state, game, others_pass, play_moves, quote, stop_passes, texts

OWNER = {"azul": 0, "rojo": 1, "amarillo": 2, "naranja": 3, "rosa": None, "verde": None}


def test_promesas_an_agreement_lapses_when_its_investor_travels() -> None:
    """Space 8 (6 x 1M): seat 1's rojo is agreed for 2M, then seat 2 sends the rojo investor travelling."""
    state = build_state(
        4,
        owner=OWNER,
        hands={0: ["family:verde"], 1: ["family:rojo"], 2: ["travel:gris"], 3: []},
        marker=8,
        turn=0,
    )
    play_moves(state, [(0, "negotiate"), (1, "offer rojo"), (1, "price 2M"), (0, "accept seat 1 rojo")])
    assert quote(state, 1, "rojo") == (AGREED, 2) and state.neg.agreed_total() == 2
    play_moves(state, [(2, "travel investor seat 1 rojo grey")])
    events = stop_passes(state)
    assert COLOURS.index("rojo") in state.neg.travelled
    # The agreement lapses at once and the events say so.
    assert quote(state, 1, "rojo") is None and state.neg.agreed_total() == 0
    assert any("lapses" in e.text and "rojo" in e.text for e in events)
    view = game.view(state, 1)["negotiation"]
    assert view["promised"] == 0 and view["room_left"] == 6
    # Seat 1 can now stand in with its rojo family card and name a price again.
    assert "offer rojo" not in texts(state, 1)
    play_moves(state, [(1, "family rojo"), (1, "offer rojo"), (1, "price 2M")])
    assert quote(state, 1, "rojo") == (ASKED, 2)


def test_promesas_a_price_is_withdrawn_when_a_hire_set_takes_the_investor() -> None:
    """Six seats, no investor beside the board: seat 2 asks 1M for amarillo; the boss hires that investor."""
    state = build_state(
        6,
        owner={"rojo": 0, "amarillo": 2, "azul": 1, "naranja": 3, "rosa": 4, "verde": 5},
        hands={0: ["hire", "hire", "hire"], 1: [], 2: [], 3: [], 4: [], 5: []},
        marker=1,  # space 1: 2 dividends, needs rojo and amarillo
        turn=0,
    )
    play_moves(state, [(0, "negotiate"), (2, "offer amarillo"), (2, "price 1M")])
    assert quote(state, 2, "amarillo") == (ASKED, 1)
    assert "accept seat 2 amarillo" in texts(state, 0)
    play_moves(state, [(0, "hire amarillo")])
    events = stop_passes(state)
    assert state.owner[COLOURS.index("amarillo")] == 0
    assert quote(state, 2, "amarillo") is None
    assert any("withdrawn" in e.text and "amarillo" in e.text for e in events)
    assert "accept seat 2 amarillo" not in texts(state, 0)
    others_pass(state)
    assert "close" in texts(state, 0)


def test_promesas_a_price_stands_while_a_placed_family_card_stands_in() -> None:
    """Seat 1 placed a rojo family card and was agreed: a travel card on its rojo investor keeps the agreement."""
    state = build_state(
        4,
        owner=OWNER,
        hands={0: ["family:verde"], 1: ["family:rojo"], 2: ["travel:gris"], 3: []},
        marker=8,
        turn=0,
    )
    play_moves(state, [(0, "negotiate"), (1, "family rojo"), (1, "offer rojo"), (1, "price 2M")])
    play_moves(state, [(0, "accept seat 1 rojo"), (2, "travel investor seat 1 rojo grey")])
    stop_passes(state)
    assert quote(state, 1, "rojo") == (AGREED, 2)


def test_cambio_de_jefe_keep_another_seats_agreement_for_the_new_bosss_colour_stands() -> None:
    """Seat 3's rojo family card is agreed for 1M; seat 1, which holds the rojo investor, takes over keeping it."""
    state = build_state(
        4,
        owner=OWNER,
        hands={0: ["family:verde", "family:rosa"], 1: ["boss"], 2: [], 3: ["family:rojo"]},
        marker=8,
        turn=0,
    )
    play_moves(state, [(0, "negotiate"), (3, "family rojo"), (3, "offer rojo"), (3, "price 1M")])
    play_moves(state, [(0, "accept seat 3 rojo"), (1, "boss keep")])
    stop_passes(state)
    assert state.neg.boss == 1 and quote(state, 3, "rojo") == (AGREED, 1)
    group = game.view(state, None)["negotiation"]["group_if_closed_now"]
    assert {"seat": 3, "colour": "rojo", "as": "family", "price": 1} in group
    assert not any(p["seat"] == 1 and p["colour"] == "rojo" for p in group)


def test_cambio_de_jefe_keep_the_new_bosss_own_prices_vanish() -> None:
    """ "Keep": the new boss's own demands vanish (its investors now take part automatically); others stand."""
    state = build_state(4, owner=OWNER, hands={1: ["boss"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "offer rojo"), (1, "price 2M"), (2, "offer amarillo"), (2, "price 1M")])
    play_moves(state, [(1, "boss keep")])
    stop_passes(state)
    assert quote(state, 1, "rojo") is None and quote(state, 2, "amarillo") == (ASKED, 1)
