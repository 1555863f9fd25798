"""The engine's public texts on a Spanish page: every result reason and breakdown line of played games reads in
Spanish, every decision is said in Spanish from the view, every option has a Spanish name; and the drawing's words
exist in both languages and name no card."""

from __future__ import annotations

import re
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.engine.core.playout import play
from club_agentes.mcp_server.clubhouse.i18n import DRAW_TEXTS, TEXTS
from club_agentes.mcp_server.clubhouse.words import OPTION_NAMES, Words, translate

ENGLISH = re.compile(
    r"\b(the|and|of|seat|seats|turn|turns|round|rounds|wins|win|deck|discard|chose|with|investment|investments"
    r"|player|game|games|points|money|boss|deal|space|needs|choose|your|you)\b",
    re.I,
)
"""Words that say a text is English (none is part of a card's, a phase's or a mode's Spanish name)."""
SPANISH = re.compile(
    r"\b(asiento|asientos|jugada|jugadas|partidas|ronda|mazo|descarte|gana|turno|elige|valoración)\b", re.I
)
"""Words that say a text is Spanish (none is part of a card's printed name or text, which stay Spanish on every
page: "partida" is left out, a Se Vende card counts goods "al final de la partida")."""

PLAYS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "market-fortune": [
        (2, {"mode": "fortuna"}),
        (3, {"mode": "familia"}),
        (2, {"mode": "campeonato", "game_limit": 2}),
        (3, {"mode": "fortuna", "turn_limit": 12}),
        (2, {"mode": "familia", "turn_limit": 6}),
    ],
    "se-vende": [(2, {}), (4, {}), (3, {"turn_limit": 2})],
    "yo-soy-el-jefe": [(3, {}), (4, {"failed_negotiations_limit": 1}), (2, {})],
}


def _played(game: str) -> list[tuple[Any, list[dict[str, Any]]]]:
    """Play each configuration of ``game`` with heuristic bots; return its result and a spectator's views."""
    g = get_game(game)
    out = []
    for n, options in PLAYS[game]:
        views: list[dict[str, Any]] = []

        def look(state: Any, seat: int, moves: list[Any], views: list[dict[str, Any]] = views) -> None:
            views.append(g.view(state, None))

        config = g.make_config(n, options)
        record = play(g, config, 11, [g.make_bot("heuristic") for _ in range(n)], on_decision=look)
        assert record.finished
        out.append((g.result(record.state), views[:: max(1, len(views) // 60)]))
    return out


@pytest.mark.parametrize("game", list(PLAYS))
def test_results_and_decisions_read_in_spanish(game: str) -> None:
    words = Words(game, "es")
    for result, views in _played(game):
        assert result is not None
        said = words.result(
            {
                "reason": result.reason,
                "breakdown": [
                    {"seat": b.seat, "total": b.total, "unit": b.unit, "lines": [{"label": x.label} for x in b.lines]}
                    for b in result.breakdown
                ],
            }
        )
        assert said["reason_lang"] == "es", result.reason
        texts = [said["reason"]] + [line["label"] for b in said["breakdown"] for line in b["lines"]]
        assert all(line["label_lang"] == "es" for b in said["breakdown"] for line in b["lines"])
        for text in texts:
            assert not ENGLISH.search(re.sub(r"\([^)]*/[^)]*\)", "", text)), text  # rule ids aside
        for view in views:
            prompt = words.prompt(view, view["decision"]["prompt"])
            assert prompt and not ENGLISH.search(prompt), (view["decision"], prompt)
            assert Words(game, "en").prompt(view, view["decision"]["prompt"]) == view["decision"]["prompt"]


def test_an_unread_sentence_stays_as_written_and_says_so() -> None:
    words = Words("se-vende", "es")
    assert words.say("a sentence no pattern reads") == ("a sentence no pattern reads", "en")
    assert words.say("victory chips") == ("fichas de victoria", "es")
    assert Words("se-vende", "en").say("victory chips") == ("victory chips", "en")
    with pytest.raises(LookupError):
        translate("market-fortune", "seat 1 wins somehow")


def test_every_option_has_a_spanish_name() -> None:
    for game in PLAYS:
        for name in get_game(game).config_schema()["properties"]:
            assert name in OPTION_NAMES, (game, name)
    assert Words("yo-soy-el-jefe", "es").options({"quick_game": True, "first_player": None}) == [
        ("partida rápida", "sí"),
        ("primer jugador", "—"),
    ]


def test_the_words_of_pages_and_drawing_exist_in_both_languages_and_name_no_card() -> None:
    assert set(TEXTS["es"]) == set(TEXTS["en"])
    assert set(DRAW_TEXTS["en"]) == set(DRAW_TEXTS["es"])
    ids = set()
    for game in PLAYS:
        ids |= set(get_game(game).card_names())
    words = " ".join(v for lang in (TEXTS, DRAW_TEXTS) for table in lang.values() for v in table.values())
    assert not [i for i in ids if i in words]
    for lang, other in (("es", ENGLISH), ("en", SPANISH)):
        for table in (TEXTS, DRAW_TEXTS):
            for key, value in table[lang].items():
                text = re.sub(r"\{[a-z_]+\}", "", value)
                assert not other.search(text), (lang, key, value)
