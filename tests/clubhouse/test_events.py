"""The engines' events on a Spanish page: every event sentence of seeded games of every game, with every sample
configuration (and every option set once) and both bot kinds, has a Spanish rendering with no English word left
(the public ones for live tables, the private ones too for the replay of a finished game); the English page shows
each as written. A new or reworded engine sentence fails here before a reader meets it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.engine.core.model import Event, decide
from club_agentes.engine.core.rng import Rng
from club_agentes.mcp_server.clubhouse.events import EVENTS, event_in_spanish
from club_agentes.mcp_server.clubhouse.words import Untranslated, Words, event_text
from club_agentes.mcp_server.store.tables import EventRow

from tests.clubhouse.test_words import ENGLISH, PLAYS

SEEDS = (1, 2)
BOTS = ("heuristic", "random")
VARIANTS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "market-fortune": [(4, {"mode": "campeonato", "game_limit": 3})],
    "se-vende": [(3, {"turn_limit": 6})],
    "yo-soy-el-jefe": [
        (
            3,
            {
                "first_player": 1,
                "marker_start": 6,
                "boss_card_keeps_turn": True,
                "mandatory_negotiation_with_10_cards": True,
                "dividends_only_for_participants": True,
                "draw_by_investors": True,
                "no_negotiation_with_3_cards_or_fewer": True,
                "hand_limit_10_from_tenth_deal": True,
            },
        ),
        (4, {"quick_game": True}),
        (3, {"two_player_rules": True}),
    ],
}
"""Configurations beyond the sample plays of ``test_words``: every option of each game's schema set once."""


def _events(game: str, n: int, options: dict[str, Any], seed: int, kind: str) -> Iterator[Event]:
    """Yield every event of one seeded game (the deal's too), played to its end by bots of ``kind``."""
    g = get_game(game)
    state, dealt = g.start(g.make_config(n, options), seed)
    yield from dealt
    bots = [g.make_bot(kind) for _ in range(n)]
    rng = Rng(seed).fork(0xB07)
    for _ in range(20_000):
        pending = g.pending(state)
        if pending.kind == "over":
            return
        seat = pending.seats[0]
        move = decide(bots[seat], g, state, seat, g.legal_moves(state, seat), rng)
        yield from g.apply(state, seat, move)
    raise AssertionError(f"{game} {options} seed {seed} did not end")


def _texts(game: str) -> set[str]:
    """Return every event sentence of seeded games of ``game``: public ones, and the private ones a finished
    game's replay shows."""
    texts = set()
    for n, options in PLAYS[game] + VARIANTS[game]:
        for seed in SEEDS:
            for kind in BOTS:
                texts |= {e.text for e in _events(game, n, options, seed, kind)}
    return texts


def _english_left(text: str) -> list[str]:
    """Return the English marker words of ``text`` outside card ids and rule ids (``(MF-E-ROBO-1)``)."""
    return ENGLISH.findall(re.sub(r"\([^)]*[-/][^)]*\)", "", text))


@pytest.mark.parametrize("game", list(PLAYS))
def test_every_event_of_played_games_reads_in_spanish(game: str) -> None:
    texts = _texts(game)
    assert len(texts) > 100, len(texts)  # the games were played through, not cut short
    es, en = Words(game, "es"), Words(game, "en")
    unread, english = [], []
    for text in sorted(texts):
        said, lang = es.event_said(text)
        if lang != "es":
            unread.append(text)
        elif _english_left(said):
            english.append((text, said, _english_left(said)))
        assert en.event_said(text) == (text, "en")
    assert not unread, f"{len(unread)} event sentences of {game} have no Spanish rendering: {unread[:5]}"
    assert not english, english[:5]


def test_renderings_say_what_the_sentence_says() -> None:
    said = event_in_spanish(
        "market-fortune",
        "seat 2 chose Arriesgar: the die shows + and investment #1 is formed face down (2 investments)",
    )
    assert (
        said == "El asiento 2 eligió Arriesgar: el dado muestra + y la inversión #1 se forma boca abajo (2 inversiones)"
    )
    said = event_in_spanish("se-vende", "end of round 4: seat 0 and seat 2 must discard down to 10 cards")
    assert said == "Fin de la ronda 4: los asientos 0 y 2 deben descartar hasta quedarse con 10 cartas"
    said = event_in_spanish("yo-soy-el-jefe", "seat 1 (the boss) proposes 3M to seat 0 for its verde.")
    assert said == "El asiento 1 (el jefe) propone 3M al asiento 0 por su verde."
    # a result sentence that ends a log is read by the result patterns
    assert event_text("market-fortune", "seat 0 formed its 4th investment and wins (Familia)") == (
        "El asiento 0 formó su 4.ª inversión y gana (Familia)"
    )


def test_an_unread_event_stays_as_written_and_says_so() -> None:
    words = Words("se-vende", "es")
    assert words.event_said("seat 0 juggles three goods") == ("seat 0 juggles three goods", "en")
    with pytest.raises(Untranslated):
        event_text("se-vende", "seat 0 juggles three goods")
    assert event_in_spanish("market-fortune", "seat 0 chose Construir and took a card from the ¥ deck") is None
    private = EventRow(idx=3, version=2, audience=(1,), text="seat 1 has chosen an action card", data=None)
    assert words.event_line(private) == {
        "text": "[privado, para asiento 1] El asiento 1 ha elegido una carta de acción",
        "lang": "es",
    }
    assert Words("se-vende", "en").event_line(private) == {
        "text": "[private, to seat 1] seat 1 has chosen an action card",
        "lang": "en",
    }


def test_every_game_has_its_event_patterns() -> None:
    assert set(EVENTS) == set(PLAYS)
    for rules in EVENTS.values():
        patterns = [p.pattern for p, _ in rules]
        assert len(patterns) == len(set(patterns))
