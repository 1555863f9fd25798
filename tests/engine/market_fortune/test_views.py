"""Views through the one visibility rule: nothing hidden leaks (ids or names), everything public is shown.

Leak scans run over every seat's view and the public view at every phase change and every
tenth decision of a random game in each sample configuration (issue 14.9).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from club_agentes.engine.core import RandomBot, play
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_NAME, N_CARDS
from club_agentes.engine.market_fortune.knowledge import visibility
from club_agentes.engine.market_fortune.state import State

from tests.engine.market_fortune.helpers import GAME, table
from tests.engine.market_fortune.helpers import play as play_moves

EIGHT = ["MF-A-ENE-3", "MF-R-ENE-2", "MF-A-TEC-4", "MF-R-SAL-1", "MF-A-FIN-2", "MF-R-INM-5", "MF-A-CON-1", "MF-R-MAN-3"]
THREE = [("MF-A-TRA-5", "MF-R-TRA-3"), ("MF-A-AGR-4", "MF-R-AGR-4"), ("MF-A-MIN-3", "MF-R-MIN-2")]
NAME_OF = {CARD_ID[c]: CARD_NAME[c] for c in range(N_CARDS)}


def _without_effects(value: Any) -> Any:
    """The view with the cards' effect texts left out (a card's text may name other cards, e.g. Manos de
    Diamante names the attacks it cancels)."""
    if isinstance(value, dict):
        return {k: _without_effects(v) for k, v in value.items() if k != "effect"}
    if isinstance(value, list):
        return [_without_effects(v) for v in value]
    return value


def assert_no_leak(st: State, seat: int | None) -> None:
    """The view of ``seat`` names no card it may not know: no hidden id, and no printed name that
    only hidden cards carry (names shared by several cards may appear through a visible one)."""
    view = GAME.view(st, seat)
    text = json.dumps(view, ensure_ascii=False) + GAME.render(view)
    hidden = GAME.hidden_ids(st, seat)
    leaked = sorted(h for h in hidden if h in text)
    assert not leaked, f"seat {seat}'s view shows hidden ids {leaked[:5]}"
    visible_names = {NAME_OF[c] for c in NAME_OF if c not in hidden}
    only_hidden = {NAME_OF[h] for h in hidden} - visible_names
    names = json.dumps(_without_effects(view), ensure_ascii=False)
    named = sorted(n for n in only_hidden if n in names)
    assert not named, f"seat {seat}'s view names hidden cards {named}"


_COMMON_STEPS = ("main", "build-discard")


def _config_id(cfg: tuple[int, dict[str, Any]]) -> str:
    return f"{cfg[0]}-{json.dumps(cfg[1], sort_keys=True)}"


@pytest.mark.parametrize("config", GAME.sample_configs(), ids=_config_id)
def test_views_leak_no_hidden_card_by_id_or_name(config: tuple[int, dict[str, Any]]) -> None:
    seats, options = config
    count = [0]
    last = [""]

    def check(st: State, seat: int, moves: list[Any]) -> None:
        count[0] += 1
        entered = st.step != last[0] and st.step not in _COMMON_STEPS
        last[0] = st.step
        if not entered and count[0] % 30:
            return  # every thirtieth decision, and each time a rarer step begins (attacks, declarations...)
        # The deciding seat, and in turn another seat or a spectator.
        other = None if count[0] % 2 else (seat + 1 + count[0] // 30) % seats
        for s in (seat, other):
            assert_no_leak(st, s)
            # What the visibility rule hides, but the cards this seat was shown before (its log holds them).
            bit = st.public_bit if s is None else 1 << s
            shown = {CARD_ID[c] for c in range(N_CARDS) if st.seen[c] & bit}
            assert GAME.hidden_ids(st, s) == visibility(st).hidden_ids(s) - shown
        assert not GAME.pending(st).done  # no sealed choice in Market Fortune: nothing to hide in the view

    rec = play(GAME, GAME.make_config(seats, options), 21, [RandomBot() for _ in range(seats)], on_decision=check)
    assert rec.finished


def test_card_names_cover_every_card() -> None:
    names = GAME.card_names()
    assert len(names) == N_CARDS and names["MF-A-ENE-5"] == "Acción Energía 5M" and names["MF-E-ROBO-1"] == "Robo"


def test_view_shows_hand_sizes_by_kind_and_strategy_counts() -> None:
    st = table(hands={0: EIGHT, 1: ["MF-A-TEL-1", "MF-A-TEL-2", "MF-R-TEL-1"]}, strategies={1: ["MF-E-ROBO-1"]})
    seat1 = GAME.view(st, 0)["players"][1]
    assert (seat1["hand"], seat1["hand_stock"], seat1["hand_return"], seat1["strategies"]) == (3, 2, 1, 1)
    assert "known_to_all" not in seat1 and "known_to_you" not in seat1


def test_view_shows_face_up_investments_greens_and_revealed_yellows_after_a_failed_declaration() -> None:
    invs = [
        ("MF-A-TRA-1", "MF-R-TRA-1"),
        ("MF-A-AGR-1", "MF-R-AGR-1"),
        ("MF-A-MIN-3", "MF-R-MIN-2"),
        ("MF-A-ENT-5", "MF-R-ENT-4", "MF-E-BAJA-1"),
    ]
    st = table(investments={0: invs}, strategies={0: ["MF-E-AUGE-1"]}, hands={1: EIGHT})
    play_moves(st, 0, "declare", "reveal")  # 2 + 2 + 5 + 9 = 18M, Auge 0 (four industries), Baja 0: fails
    assert st.step == "return"
    play_moves(st, 0, "return investment 0")
    seat0 = GAME.view(st, 2)["players"][0]
    assert [i["value"] for i in seat0["investments"]] == [2, 5, 9]
    assert all(i["face_up"] for i in seat0["investments"])
    assert (
        seat0["investments"][2]["green"]["name"] == "Inversión a la Baja"
        and seat0["investments"][2]["green_bonus"] == 0
    )
    known = seat0["known_to_all"]
    assert [c["id"] for c in known["strategies"]] == ["MF-E-AUGE-1"]  # the revealed yellow stays known
    assert sorted(c["id"] for c in known["hand"]) == ["MF-A-TRA-1", "MF-R-TRA-1"]  # back from a face-up investment
    assert GAME.view(st, None)["players"][0]["known_to_all"] == known  # spectators see it too


def test_view_shows_blocked_discards_and_what_the_owner_knows_of_them() -> None:
    st = table(
        mode="campeonato",
        hands={0: EIGHT},
        strategies={0: ["MF-E-COLAPSO-1"]},
        investments={1: [("MF-A-TEL-1", "MF-R-TEL-1")]},
    )
    play_moves(st, 0, "play MF-E-COLAPSO-1")
    play_moves(st, 1, "decline")
    rival, owner = GAME.view(st, 2)["piles"]["stock"], GAME.view(st, 1)["piles"]["stock"]
    assert rival["blocked"] and rival["face_down"] == 1 and "face_down_you_know" not in rival
    assert [c["id"] for c in owner["face_down_you_know"]] == ["MF-A-TEL-1"]
    assert "blocked" in GAME.render(GAME.view(st, 2))


def test_view_shows_cards_a_seat_was_shown_by_robo_and_negociacion_to_it_only() -> None:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-ROBO-1"], 1: ["MF-E-FORTUNA-2"]})
    play_moves(st, 0, "play MF-E-ROBO-1 against seat 1")
    play_moves(st, 1, "decline")
    assert GAME.view(st, 1)["players"][0]["known_to_you"]["strategies"][0]["id"] == "MF-E-FORTUNA-2"
    assert "known_to_you" not in GAME.view(st, 2)["players"][0]
    st = table(hands={0: ["MF-A-TEL-1"], 1: ["MF-R-TEL-2"]}, strategies={0: ["MF-E-NEGOCIACION-1"]})
    play_moves(st, 0, "play MF-E-NEGOCIACION-1 against seat 1")
    play_moves(st, 1, "decline")
    assert GAME.view(st, 1)["players"][0]["known_to_you"]["hand"][0]["id"] == "MF-R-TEL-2"
    assert GAME.view(st, 0)["players"][1]["known_to_you"]["hand"][0]["id"] == "MF-A-TEL-1"
    assert "known_to_you" not in GAME.view(st, 2)["players"][0]


def test_view_shows_campeonato_games_won_and_totals() -> None:
    st = table(mode="campeonato", turn=2, investments={2: [*THREE, ("MF-A-ENT-2", "MF-R-ENT-2")]})
    play_moves(st, 2, "declare")
    view = GAME.view(st, 0)
    assert view["players"][2]["games_won"] == 1 and view["players"][2]["match_total"] == 25
    assert view["match"]["games"][0]["winners"] == [2]
    assert "1 game won" in GAME.render(view)


def test_the_view_after_the_end_explains_the_result() -> None:
    st = table(investments={0: [*THREE, ("MF-A-ENT-1", "MF-R-ENT-1", "MF-E-BAJA-1")]}, strategies={0: ["MF-E-AUGE-1"]})
    play_moves(st, 0, "declare", "reveal")
    result = GAME.result(st)
    assert result is not None and result.winners == (0,) and result.scores[0] == 26.0
    b = result.breakdown[0]
    assert b.total == 26.0 and b.unit == "M" and sum(line.amount for line in b.lines) == 26.0
    labels = [line.label for line in b.lines]
    assert labels[0] == "investment #0: Transporte 5M + 3M" and "green Inversión a la Baja on investment #3" in labels
    assert "yellow Industria en Auge (criteria not met)" in labels
    text = GAME.render(GAME.view(st, 1))
    assert "market-fortune/cap-5/cierre-del-mercado" in text and "seat 0: 26 M = investment #0" in text


@pytest.mark.slow
def test_every_view_of_every_seat_at_every_decision_leaks_no_hidden_card() -> None:
    """Issue 13.7: "every view of every seat". One seeded Campeonato game at 4 seats (face-down blocked discards
    and several games in a row): at every decision and at the end, every seat's view and the public one name no
    hidden card, by id or by a name only hidden cards carry."""
    checked = [0]

    def check(st: State, seat: int, moves: list[Any]) -> None:
        for s in (*range(st.n), None):
            assert_no_leak(st, s)
        checked[0] += 1

    options = {"mode": "campeonato", "turn_limit": 120, "game_limit": 4}
    rec = play(GAME, GAME.make_config(4, options), 5, [RandomBot() for _ in range(4)], on_decision=check)
    assert rec.finished and checked[0] == rec.decisions
    check(rec.state, 0, [])  # and the final views, after the end


Zones = dict[str, tuple[list[str], frozenset[int] | None]]


def _plain_visibility(st: State) -> tuple[Zones, dict[str, frozenset[int]]]:
    """The visibility rule of the module docstring of ``knowledge``, written plainly: zone name -> (card ids in
    order, who sees them), and card id -> the seats that know it although its zone hides it."""
    public = st.public_bit
    ids = [CARD_ID[c] for c in range(N_CARDS)]

    def seats_of(mask: int) -> frozenset[int]:
        return frozenset(s for s in range(st.n) if mask >> s & 1)

    zones: Zones = {}
    known: dict[str, frozenset[int]] = {}
    for pile, name in enumerate(("stock", "return", "strategy")):
        zones[f"deck/{name}"] = ([ids[c] for c in st.decks[pile]], frozenset())
    for pile, name in enumerate(("stock", "return")):
        zones[f"discard/{name}"] = ([ids[c] for c in st.discards[pile] if not st.facedown[c]], None)
        down = [c for c in st.discards[pile] if st.facedown[c]]
        zones[f"discard/{name}/face-down"] = ([ids[c] for c in down], frozenset())
        known.update({ids[c]: seats_of(st.know[c]) for c in down if st.know[c] & ~public})
    zones["discard/strategy"] = ([ids[c] for c in st.discards[2]], None)
    zones["attack"] = ([ids[st.attack.card]] if st.attack is not None else [], None)
    for s in range(st.n):
        for held, name in ((st.hands[s], "hand"), (st.strats[s], "strategies")):
            private = [c for c in held if not st.know[c] & public]
            zones[f"{name}/{s}"] = ([ids[c] for c in private], frozenset({s}))
            zones[f"{name}/{s}/public"] = ([ids[c] for c in held if st.know[c] & public], None)
            known.update({ids[c]: seats_of(st.know[c]) for c in private if st.know[c] & ~public})
        for k, inv in enumerate(st.invs[s]):
            zones[f"investment/{s}/{k}"] = ([ids[c] for c in inv.cards()], None if inv.face_up else frozenset({s}))
    return zones, known


@pytest.mark.parametrize("config", GAME.sample_configs(), ids=_config_id)
def test_the_visibility_of_every_decision_is_the_rule_written_plainly(config: tuple[int, dict[str, Any]]) -> None:
    """``knowledge.visibility`` is written for speed (a view of every new state reads it); at every decision of a
    seeded game of each configuration it gives the zones, their order and viewers, and the extra knowledge that
    the rule written plainly gives, and every card's zone (``Visibility.where``) is the zone listing it."""
    checked = [0]

    def check(st: State, seat: int, moves: list[Any]) -> None:
        vis = visibility(st)
        zones, known = _plain_visibility(st)
        assert {name: (list(z.cards), z.seen_by) for name, z in vis.zones.items()} == zones
        assert list(vis.zones) == list(zones)
        assert vis.known == known
        assert vis.where() == {c: name for name, (cards, _) in zones.items() for c in cards}
        checked[0] += 1

    seats, options = config
    rec = play(GAME, GAME.make_config(seats, options), 11, [RandomBot() for _ in range(seats)], on_decision=check)
    assert checked[0] == rec.decisions > 50
