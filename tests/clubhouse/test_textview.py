"""The text of the view a Spanish page shows one click away: said in Spanish from the spectator's view at every
sampled decision of played games of every game and configuration, the result at the end; the English page keeps
the engine's text."""

from __future__ import annotations

import re
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.engine.core.playout import play
from club_agentes.mcp_server.clubhouse.events import Unread
from club_agentes.mcp_server.clubhouse.textview import spectator_text
from club_agentes.mcp_server.clubhouse.words import Words
from club_agentes.mcp_server.tables.lanes import result_json

from tests.clubhouse.test_words import ENGLISH, PLAYS

MORE_ENGLISH = re.compile(
    r"\b(none|face|down|hand|cards?|world|goods|chips|pile|investors?|used|marker|free|players|waiting|told|last"
    r"|change|recent|prices|decision|result|spectator|view|nobody|promised|complete|missing|phase|supply)\b",
    re.I,
)
"""More words of the engines' texts of a view that say a text is English."""


def _english_left(text: str) -> list[str]:
    """Return the English words of ``text`` outside card and rule ids (``[MF-A-TEC-2]``, ``(se-vende/...)``)."""
    bare = re.sub(r"\[[A-Z]+-[^\]]*\]|\([a-z-]+/[^)]*\)|\b[A-Z]+-[A-Z0-9-]+\b", "", text)
    return ENGLISH.findall(bare) + MORE_ENGLISH.findall(bare)


def _views(game: str) -> list[tuple[dict[str, Any], str, dict[str, Any] | None]]:
    """Return sampled spectator views of played games of ``game``: each view, its engine text and, for the last
    view of each game, its stored result."""
    g = get_game(game)
    out = []
    for n, options in PLAYS[game]:
        views: list[dict[str, Any]] = []

        def look(state: Any, seat: int, moves: list[Any], views: list[dict[str, Any]] = views) -> None:
            views.append(g.view(state, None))

        record = play(g, g.make_config(n, options), 7, [g.make_bot("heuristic") for _ in range(n)], on_decision=look)
        assert record.finished
        out += [(v, g.render(v), None) for v in views[:: max(1, len(views) // 50)]]
        final = g.view(record.state, None)
        out.append((final, g.render(final), result_json(g.result(record.state))))
    return out


@pytest.mark.parametrize("game", list(PLAYS))
def test_the_text_of_the_view_reads_in_spanish(game: str) -> None:
    es, en = Words(game, "es"), Words(game, "en")
    for view, text, result in _views(game):
        said, lang = es.text_view(view, text, result)
        assert lang == "es", text
        assert not _english_left(said), (_english_left(said), said)
        # the same seats, scores and numbers as the engine's text: no fact is dropped or invented
        assert sorted(re.findall(r"\d+", said.split("\n")[0])) == sorted(re.findall(r"\d+", text.split("\n")[0]))
        assert said.count("\n") >= len(view.get("players", [])), said
        if result is not None:
            assert "Resultado:" in said and es.result(result)["reason"] in said
        assert en.text_view(view, text, result) == (text, "en")


def test_a_view_with_an_unknown_phrase_falls_back_to_the_engine_text() -> None:
    g = get_game("yo-soy-el-jefe")
    record = play(g, g.make_config(3, {}), 3, [g.make_bot("heuristic") for _ in range(3)], max_decisions=5)
    view = g.view(record.state, None)
    view["players"][0]["money_pile"] = "a pile of gold doubloons"
    with pytest.raises(Unread):
        spectator_text("yo-soy-el-jefe", view, "x", None)
    text = g.render(view)
    assert Words("yo-soy-el-jefe", "es").text_view(view, text, None) == (text, "en")
    with pytest.raises(Unread):
        spectator_text("el-tesoro", view, "x", None)
