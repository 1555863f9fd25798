"""Section 6 of the rulebook ("6. Ejemplos") replayed move by move at the open table.

Seats (clockwise; "Shinyoung, a la izquierda de Jaeyoung"):
    0 = Jeonghoon (azul, rosa), 1 = Jaeyoung (rojo), 2 = Shinyoung (amarillo, verde), 3 = Seonju (naranja).
Position: 12 deals done (spaces 1-7 and 9-13 covered by deal cards #1-#12), the marker on
space 8 (6 dividends: amarillo, azul, rojo + 2 of naranja/rosa/verde), deal card #13 on top
(5M per dividend: 30M). Hands hold exactly the cards the example uses:
    Jeonghoon: family verde, family amarillo, one stop, one boss card, three hire cards;
    Jaeyoung: two boss cards, family naranja, family rosa;
    Shinyoung: one azul travel card (and no stop);
    Seonju: one azul travel card, family azul.
Where the text leaves a choice open, the test makes one: the first two boss cards keep the negotiation, the
last one restarts it (cambio-de-jefe). Nobody acts in the text's order by position: each act is made when the
text makes it, and the seats the text does not mention answer it by passing.
"""

from __future__ import annotations

from club_agentes.engine.yo_soy_el_jefe.state import AGREED, ASKED, CARDS, COLOURS, PROPOSED

from .helpers import build_state, game, hand_tokens, others_pass, play_moves, quote, rig_die, stop_passes, texts

JEONGHOON, JAEYOUNG, SHINYOUNG, SEONJU = 0, 1, 2, 3


def start() -> object:
    return build_state(
        4,
        owner={"azul": 0, "rosa": 0, "rojo": 1, "amarillo": 2, "verde": 2, "naranja": 3},
        hands={
            JEONGHOON: ["family:verde", "family:amarillo", "stop", "boss", "hire", "hire", "hire"],
            JAEYOUNG: ["boss", "boss", "family:naranja", "family:rosa"],
            SHINYOUNG: ["travel:azul"],
            SEONJU: ["travel:azul", "family:azul"],
        },
        deals_done=12,
        covered=[1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13],
        marker=8,
        turn=JEONGHOON,
    )


def test_the_position_is_the_books() -> None:
    state = start()
    space = game.view(state, None)["marker_space"]
    assert space["dividends"] == 6
    assert space["mandatory"] == ["rojo", "azul", "amarillo"]
    assert space["optional"] == ["naranja", "rosa", "verde"] and space["optional_needed"] == 2
    card = state.deal_deck[0]
    assert card.number == 13 and card.dividend == 5


def up_to_the_last_agreement() -> object:
    """Play the example up to "Jaeyoung refunfuñó": Jaeyoung is the boss and two demands of 10M stand."""
    state = start()
    # "Es el turno de Jeonghoon. Jeonghoon ha decidido intentar este negocio." The boss acts first, at once:
    # "ha colocado las cartas de la tribu verde y amarilla que tenía en la mano sobre la mesa."
    play_moves(state, [(JEONGHOON, "negotiate"), (JEONGHOON, "family verde"), (JEONGHOON, "familia amarillo")])
    assert state.neg.payout == 30 and state.neg.boss == JEONGHOON
    # "Te daré $5M si incluyes al inversor rojo" / "Debería recibir al menos $8M" / he accepts.
    play_moves(state, [(JEONGHOON, "bid 1 rojo"), (JEONGHOON, "price 5M")])
    assert quote(state, JAEYOUNG, "rojo") == (PROPOSED, 5)
    play_moves(state, [(JAEYOUNG, "offer rojo"), (JAEYOUNG, "price 8M")])
    assert quote(state, JAEYOUNG, "rojo") == (ASKED, 8)  # the counter-offer replaces the proposal
    play_moves(state, [(JEONGHOON, "accept seat 1 rojo")])
    assert state.neg.agreed_total() == 8
    # "Pero antes de que Jeonghoon declare el éxito del negocio, Shinyoung utiliza una tarjeta de viaje en la
    #  tarjeta de inversor azul de Jeonghoon. Jeonghoon se defiende usando una tarjeta de parada."
    play_moves(state, [(SHINYOUNG, "travel investor seat 0 azul")])
    assert game.pending(state).kind == "reaction" and set(game.pending(state).seats) == {0, 1, 3}
    play_moves(state, [(JEONGHOON, "parada")])  # any seat asked may stop it first
    assert COLOURS.index("azul") not in state.neg.travelled
    # "¡Las tarjetas de viaje de Shinyoung y la tarjeta de parada de Jeonghoon se descartan juntas!"
    assert sorted(CARDS[c].id[:7] for c in state.discard) == ["YSJ-PAR", "YSJ-VIA"]
    # "Seonju usa nuevamente la tarjeta de viaje ... Jeonghoon quiere detenerlo, pero ya no tiene más."
    play_moves(state, [(SEONJU, "viaje inversor 0 azul")])
    assert texts(state, JEONGHOON) == ["pass"]
    stop_passes(state)
    assert COLOURS.index("azul") in state.neg.travelled
    # "Seonju baja la carta de la tribu azul y ofrece $9M a Jeonghoon para participar en el negocio."
    play_moves(state, [(SEONJU, "family azul"), (SEONJU, "offer azul"), (SEONJU, "price 9M")])
    assert quote(state, SEONJU, "azul") == (ASKED, 9)
    # "Mientras Jeonghoon negocia con Seonju, Jaeyoung juega su carta de jefe ... Jeonghoon usó una carta de jefe
    #  ... Pero desafortunadamente, Jaeyoung tenía una carta de jefe más."
    play_moves(state, [(JAEYOUNG, "boss keep")])
    stop_passes(state)
    assert state.neg.boss == JAEYOUNG
    assert quote(state, JAEYOUNG, "rojo") is None  # its own investor now agrees automatically
    play_moves(state, [(JEONGHOON, "jefe mantener")])
    stop_passes(state)
    assert state.neg.boss == JEONGHOON
    assert quote(state, SEONJU, "azul") == (ASKED, 9)  # kept: now asked of Jeonghoon again
    play_moves(state, [(JAEYOUNG, "boss restart")])
    stop_passes(state)
    assert state.neg.boss == JAEYOUNG and state.neg.quotes == {}
    # "Ya nadie usa la tarjeta de jefe." "“Tengo naranja y rosa”, dice Jaeyoung, dejando las tarjetas de clan."
    play_moves(state, [(JAEYOUNG, "clan naranja"), (JAEYOUNG, "tribu rosa")])
    assert game.view(state, None)["negotiation"]["missing"] == "azul, amarillo"
    # "Seonju da un paso adelante primero ... Dame $10 millones" (2 dividends of 5M). Jeonghoon "presentó la
    # tarjeta amarilla del clan que había dejado antes y pidió $10 millones."
    play_moves(state, [(SEONJU, "offer azul"), (SEONJU, "price 2 dividends")])
    assert quote(state, SEONJU, "azul") == (ASKED, 10)
    play_moves(state, [(JEONGHOON, "offer amarillo"), (JEONGHOON, "price 10M")])
    # "Si es ese precio, ¡hagámoslo conmigo!" Shinyoung: her yellow investor for 8M.
    play_moves(state, [(SHINYOUNG, "ofrecer amarillo"), (SHINYOUNG, "precio 8 millones")])
    # "Jeonghoon juega 3 cartas de contratación y toma la tarjeta amarilla de inversionista de Shinyoung."
    play_moves(state, [(JEONGHOON, "contratación amarillo")])
    assert texts(state, SHINYOUNG) == ["pass"]  # no stop card
    stop_passes(state)
    assert state.owner[COLOURS.index("amarillo")] == JEONGHOON
    assert quote(state, SHINYOUNG, "amarillo") is None  # her 8M lapsed with her investor (promesas)
    # "Como dije antes, el amarillo cuesta 10 millones de dólares": his demand stands.
    assert quote(state, JEONGHOON, "amarillo") == (ASKED, 10)
    return state


def settle_and_check(state: object, events: list) -> None:
    """The payment and the cards after the deal, as the text tells them."""
    # "El banquero pagó 30 millones de dólares a Jaeyoung, y Jaeyoung distribuyó 10 millones de dólares
    #  cada uno a Seonju y Jeonghoon ... Los 10 millones de dólares restantes pertenecen a Jaeyoung."
    assert state.money == [10, 10, 0, 10]
    assert state.last_deal["payout"] == 30 and state.last_deal["kept_by_boss"] == 10
    # Naranja and rosa (Jaeyoung's) and Seonju's azul family cards are discarded; so is the travel card
    # on Jeonghoon's blue investor. Jeonghoon's yellow family card and his green one go back to his hand.
    discarded = {CARDS[c].id[:11] for c in state.discard[-4:]}
    assert discarded == {"YSJ-FAM-NAR", "YSJ-FAM-ROS", "YSJ-FAM-AZU", "YSJ-VIA-AZU"}
    assert hand_tokens(state, JEONGHOON) == ["family:amarillo", "family:verde"]
    assert hand_tokens(state, JAEYOUNG) == [] and hand_tokens(state, SEONJU) == []
    # Every other influence card used is in the discards: 2 travel, 1 stop, 3 boss, 3 hire, 3 family.
    kinds = sorted(CARDS[c].id[4:7] for c in state.discard)
    assert kinds == sorted(["VIA", "VIA", "PAR", "JEF", "JEF", "JEF", "EMP", "EMP", "EMP", "FAM", "FAM", "FAM"])
    # "coloca la tarjeta de transacción superior boca abajo en el espacio ... y mueve el marcador del dólar
    #  al siguiente espacio." Spaces 9-13 are covered, so the marker goes to 14.
    assert state.covered[7] == 13 and state.deals_done == 13 and state.marker == 13
    # "El dado arroja un 5, por lo que el juego aún no ha terminado. Shinyoung ... tomará el siguiente giro."
    assert state.last_roll == 5
    assert any("rolled 5" in e.text and "goes on" in e.text for e in events)
    assert game.pending(state).kind == "turn" and state.turn == SHINYOUNG


def test_section_6_replays_exactly() -> None:
    state = up_to_the_last_agreement()
    # Jaeyoung accepts both demands; every other seat answers each acceptance; he declares the deal concluded.
    play_moves(state, [(JAEYOUNG, "accept seat 3 azul")])
    others_pass(state)
    play_moves(state, [(JAEYOUNG, "aceptar 0 amarillo")])
    assert quote(state, JEONGHOON, "amarillo") == (AGREED, 10)
    assert "close" not in texts(state, JAEYOUNG)  # the others have not answered the last agreement yet
    others_pass(state)
    assert game.view(state, JAEYOUNG)["negotiation"]["boss_may_close"]
    rig_die(state, 5)
    events = play_moves(state, [(JAEYOUNG, "uno, dos")])
    settle_and_check(state, events)


def test_section_6_with_the_quick_close() -> None:
    """ "rápidamente aceptó las condiciones de Jeonghoon y declaró que el trato había concluido": once every
    other seat has answered the last change, the boss accepts the last demand and closes in one move."""
    state = up_to_the_last_agreement()
    play_moves(state, [(JAEYOUNG, "accept seat 3 azul")])
    assert "accept seat 0 amarillo and close" not in texts(state, JAEYOUNG)
    others_pass(state)
    assert "accept seat 0 amarillo and close" in texts(state, JAEYOUNG)
    rig_die(state, 5)
    events = play_moves(state, [(JAEYOUNG, "aceptar asiento 0 amarillo y cerrar")])
    settle_and_check(state, events)


def test_the_same_deal_ends_the_game_on_a_four() -> None:
    """Deal card #13 shows 1 to 4 on its back: the same close with a roll of 4 ends the game."""
    state = start()
    state.owner[COLOURS.index("amarillo")] = JAEYOUNG
    state.owner[COLOURS.index("azul")] = JAEYOUNG
    state.turn = JAEYOUNG
    state.version += 1
    play_moves(state, [(JAEYOUNG, "negotiate"), (JAEYOUNG, "family naranja"), (JAEYOUNG, "family rosa")])
    others_pass(state)
    rig_die(state, 4)
    play_moves(state, [(JAEYOUNG, "close")])
    assert game.pending(state).kind == "over"
    result = game.result(state)
    assert result is not None and result.winners == (JAEYOUNG,) and result.scores[JAEYOUNG] == 30
    assert result.rule_id == "yo-soy-el-jefe/4-finalizacion/dado-de-fin"
