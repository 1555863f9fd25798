"""Moves in plain words (explain), notes on pointless moves, the rules' defaults (decision clock), setup events."""

from __future__ import annotations

import re
from typing import Any

from club_agentes.engine.core import RandomBot, play
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID, N_BUILDING, STRATEGIES
from club_agentes.engine.market_fortune.moves import DECLINE, PASS, REVEAL, SKIP
from club_agentes.engine.market_fortune.state import State

from tests.engine.market_fortune.helpers import GAME, table
from tests.engine.market_fortune.helpers import play as play_moves

EIGHT = ["MF-A-ENE-3", "MF-R-ENE-2", "MF-A-TEC-4", "MF-R-SAL-1", "MF-A-FIN-2", "MF-R-INM-5", "MF-A-CON-1", "MF-R-MAN-3"]
NAMES = ["seat 0 (ana)", "seat 1 (claude-7)", "seat 2 (bot:random)", "seat 3 (bot:heuristic)"]


def test_every_legal_move_gets_a_sentence_over_whole_games() -> None:
    seen: set[str] = set()

    def check(st: State, seat: int, moves: list[Any]) -> None:
        notes = GAME.explain(st, seat, moves, NAMES)
        assert len(notes) == len(moves)
        for m, n in zip(moves, notes, strict=True):
            seen.add(m.type)
            assert n.says and n.says[0].isupper() and n.says.endswith("."), n.says
            assert not re.search(r"\b(?:target|seat)\s*=?\s*\d\b(?! \()", n.says), n.says  # seats with their names
            if m.type == "play" and m.target is not None:
                assert NAMES[m.target] in n.says

    for seed, mode in ((3, "fortuna"), (4, "campeonato")):
        opts = {"mode": mode} if mode == "fortuna" else {"mode": mode, "turn_limit": 120, "game_limit": 2}
        play(GAME, GAME.make_config(4, opts), seed, [RandomBot()] * 4, on_decision=check)
    assert {"build", "discard", "risk", "dominate", "play", "defend", "decline", "skip"} <= seen


def test_explain_names_seats_by_number_and_name_and_money_in_millions() -> None:
    st = table(
        hands={0: EIGHT},
        strategies={0: ["MF-E-ROBO-1", "MF-E-CORRECCION-1"]},
        investments={1: [("MF-A-TEL-2", "MF-R-TEL-3")]},
    )
    moves = GAME.legal_moves(st, 0)
    says = {m.text(): n.says for m, n in zip(moves, GAME.explain(st, 0, moves, NAMES), strict=True)}
    assert "seat 1 (claude-7)" in says["play MF-E-CORRECCION-1 against seat 1 investment 0"]
    assert "5M investment of Energía" in says["risk MF-A-ENE-3 MF-R-ENE-2"]
    assert says["build stock-deck"].startswith("Construir: take the top card of the $ deck")


def test_explain_notes_a_declaration_that_cannot_reach_25m() -> None:
    invs = [
        ("MF-A-TRA-1", "MF-R-TRA-1"),
        ("MF-A-AGR-1", "MF-R-AGR-1"),
        ("MF-A-MIN-1", "MF-R-MIN-1"),
        ("MF-A-ENT-1", "MF-R-ENT-1"),
    ]
    st = table(investments={0: invs}, strategies={0: ["MF-E-INNOVACION-1"]})
    notes = {
        m.type: n
        for m, n in zip(GAME.legal_moves(st, 0), GAME.explain(st, 0, GAME.legal_moves(st, 0), NAMES), strict=True)
    }
    assert notes["declare"].note and "at most 11M" in notes["declare"].note  # 8M + Innovación's 3M
    st = table(
        investments={
            0: [
                ("MF-A-TRA-5", "MF-R-TRA-5"),
                ("MF-A-AGR-5", "MF-R-AGR-5"),
                ("MF-A-MIN-3", "MF-R-MIN-2"),
                ("MF-A-ENT-1", "MF-R-ENT-1"),
            ]
        }
    )
    moves = GAME.legal_moves(st, 0)
    assert all(n.note is None for n in GAME.explain(st, 0, moves, NAMES))  # 27M: the declaration wins


def test_explain_notes_a_green_that_adds_nothing_at_a_declaration() -> None:
    invs = [
        ("MF-A-TRA-5", "MF-R-TRA-5"),
        ("MF-A-AGR-5", "MF-R-AGR-5"),
        ("MF-A-MIN-5", "MF-R-MIN-2"),
        ("MF-A-ENT-1", "MF-R-ENT-1"),
    ]
    st = table(investments={0: invs}, strategies={0: ["MF-E-INNOVACION-1"]})
    play_moves(st, 0, "declare")
    moves = GAME.legal_moves(st, 0)
    notes = {m.text(): n for m, n in zip(moves, GAME.explain(st, 0, moves, NAMES), strict=True)}
    assert notes["attach MF-E-INNOVACION-1 to investment 0"].note  # Acción 5M: no bonus, and nothing can change it
    assert notes["attach MF-E-INNOVACION-1 to investment 3"].note is None  # Acción 1M: +3M
    assert "adds 3M" in notes["attach MF-E-INNOVACION-1 to investment 3"].says


def test_explain_notes_inversor_suertudo_with_no_pair_to_risk() -> None:
    st = table(hands={0: ["MF-A-ENE-3", "MF-R-TEC-2"]}, strategies={0: ["MF-E-SUERTUDO-1"]})
    moves = GAME.legal_moves(st, 0)
    note = {m.text(): n for m, n in zip(moves, GAME.explain(st, 0, moves, NAMES), strict=True)}["play MF-E-SUERTUDO-1"]
    assert note.note and "cannot Arriesgar" in note.note


# ---------------------------------------------------------------- the decision clock (issue 11.6)


def test_default_move_is_the_rules_do_nothing_where_there_is_one() -> None:
    st = table(hands={0: EIGHT}, strategies={0: ["MF-E-ROBO-1"], 1: ["MF-E-FORTUNA-1"]})
    assert GAME.default_move(st, 0) is None  # an action: no default, the table lets a bot decide
    play_moves(st, 0, "play MF-E-ROBO-1 against seat 1")
    assert GAME.default_move(st, 1) == (DECLINE, rid.COMBAT)
    assert GAME.default_move(st, 0) is None  # not deciding
    st = table(hands={0: EIGHT}, strategy_top=["MF-E-FORTUNA-1"])
    play_moves(st, 0, "dominate")
    assert GAME.default_move(st, 0) == (SKIP, rid.YOUR_TURN)
    invs = [
        ("MF-A-TRA-5", "MF-R-TRA-5"),
        ("MF-A-AGR-5", "MF-R-AGR-5"),
        ("MF-A-MIN-5", "MF-R-MIN-2"),
        ("MF-A-ENT-1", "MF-R-ENT-1"),
    ]
    st = table(investments={0: invs}, strategies={0: ["MF-E-INNOVACION-1"]})
    play_moves(st, 0, "declare")
    assert GAME.default_move(st, 0) == (REVEAL, rid.DECLARE)
    st = table(hands={0: EIGHT}, stock_top=["MF-A-TEL-1"])
    play_moves(st, 0, "build stock-deck")
    assert GAME.default_move(st, 0) is None  # which card to discard is the player's choice


def test_default_move_passes_only_when_no_action_is_possible() -> None:
    every_building = [CARD_ID[c] for c in range(N_BUILDING)]
    every_strategy = [cid for s in STRATEGIES for cid in s.card_ids()]
    st = table(hands={1: every_building}, strategies={1: every_strategy})
    assert GAME.legal_moves(st, 0) == [PASS]
    assert GAME.default_move(st, 0) == (PASS, rid.RULING_NO_ACTION)


# ---------------------------------------------------------------- setup events (issue 13.6)


def test_start_returns_the_deal_each_hand_to_its_seat_and_the_first_player_roll() -> None:
    st, events = GAME.start(GAME.make_config(4, {}), 17)
    public = [e for e in events if e.audience is None]
    assert public[0].text.startswith("each seat is dealt 4 $ and 4 +R cards")
    hands = [e for e in events if e.audience is not None]
    assert [e.audience for e in hands] == [(0,), (1,), (2,), (3,)]
    for seat, e in enumerate(hands):
        assert e.data is not None and e.data["hand"] == [c["id"] for c in GAME.view(st, seat)["hand"]]
    assert public[-2].text.startswith("first-player roll") and f"seat {st.turn}" in public[-2].text
    assert public[-1].text == f"turn 1: seat {st.turn} is on turn"
    again, _ = GAME.start(GAME.make_config(4, {}), 17)
    assert GAME.snapshot(again) == GAME.snapshot(st) == GAME.snapshot(GAME.new_game(GAME.make_config(4, {}), 17))
