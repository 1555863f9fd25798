"""The start of a turn (market-fortune/cap-2/tu-turno): one action, and what may come before it.

"En tu turno haces una de estas tres acciones y tu turno termina": Construir
(:mod:`.build`), Arriesgar (:mod:`.risk`) or Dominar (:mod:`.dominate`). Before the action the
seat may use one red strategy (:mod:`.reds`, ruling cuando-usar-rojas), optimise
(:mod:`.optimisation`) and, with 4 investments, declare victory (:mod:`.declaration`). A seat
passes only when no action is possible (ruling sin-accion-posible: :func:`pass_check`).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.flow import end_turn
from club_agentes.engine.market_fortune.moves import (
    DECLARE,
    DOMINATE,
    PASS,
    Attach,
    Build,
    Declare,
    Decline,
    Defend,
    Discard,
    Dominate,
    Optimise,
    Pass,
    Play,
    Return,
    Reveal,
    Risk,
    Take,
)
from club_agentes.engine.market_fortune.state import MAIN, State
from club_agentes.engine.market_fortune.steps.base import declare
from club_agentes.engine.market_fortune.steps.build import build_moves, check_build, do_build
from club_agentes.engine.market_fortune.steps.declaration import check_declare, declare_check, do_declare
from club_agentes.engine.market_fortune.steps.dominate import check_dominate, do_dominate, dominate_check
from club_agentes.engine.market_fortune.steps.optimisation import add_optimise_moves, check_optimise, do_optimise
from club_agentes.engine.market_fortune.steps.reds import add_plays, do_play, play_check
from club_agentes.engine.market_fortune.steps.risk import add_risk_moves, check_risk, do_risk, risk_moves
from club_agentes.engine.market_fortune.table import Events, Refusal

_CAN_ACT = Refusal(
    rid.RULING_NO_ACTION, "you can still build, risk or dominate; you pass only when no action is possible"
)


def pass_check(state: State, seat: int, actions: list[Any] | None = None) -> Refusal | None:
    """Return why ``seat`` may not pass (an action is possible), or ``None``.

    ``actions``: the legal Construir, Arriesgar and Dominar moves when the caller has just listed
    them (the listing of the turn does); otherwise they are listed here.
    """
    if actions is None:
        actions = build_moves(state, seat) + risk_moves(state, seat)
        if dominate_check(state, seat) is None:
            actions.append(DOMINATE)
    return _CAN_ACT if actions else None


def main_moves(state: State, seat: int) -> list[Any]:
    """Legal moves at the start of the turn: the three actions and the free plays before them."""
    out: list[Any] = build_moves(state, seat)
    add_risk_moves(state, seat, out)
    if dominate_check(state, seat) is None:
        out.append(DOMINATE)
    if pass_check(state, seat, out) is None:
        out.append(PASS)
    if state.strats[seat]:
        add_plays(state, seat, -1, out)
    if state.invs[seat]:
        add_optimise_moves(state, seat, out)
        if declare_check(state, seat) is None:
            out.append(DECLARE)
    return out


_NOT_NOW: dict[type, tuple[str, str]] = {
    Defend: (rid.BLUE, "nobody is attacking you; blue strategies answer attacks out of your turn"),
    Decline: (rid.BLUE, "nobody is attacking you; blue strategies answer attacks out of your turn"),
    Attach: (rid.GREEN, "a green strategy is attached when you form an investment or declare victory"),
    Discard: (rid.YOUR_TURN, "nothing asks you to discard now: choose Construir, Arriesgar or Dominar"),
    Take: (rid.YOUR_TURN, "take belongs to a strategy in progress; to take capital choose build"),
    Reveal: (rid.DECLARE, "you reveal your portfolio only after declaring victory"),
    Return: (rid.FAILED_DECLARATION, "an investment returns to your hand only after a failed declaration"),
}


def check_pass(state: State, seat: int, move: Pass) -> Refusal | None:
    """The check of passing (:func:`pass_check`)."""
    return pass_check(state, seat)


def do_pass(state: State, seat: int, move: Pass) -> Events:
    """Pass (checked: no action is possible); the turn ends."""
    state.acted = True
    ev: Events = [Event(f"seat {seat} can take no action and passes")]
    end_turn(state, ev)
    return ev


def check_turn_play(state: State, seat: int, move: Play) -> Refusal | None:
    """Before the action, any red the seat may use (:func:`.reds.play_check`)."""
    return play_check(state, seat, move, -1)


def _not_now(state: State, seat: int, move: Any) -> Refusal:
    """The refusal of a move that belongs to another step, naming what the start of the turn takes."""
    rule, text = _NOT_NOW.get(
        type(move), (rid.YOUR_TURN, "you must take one action on your turn: Construir, Arriesgar or Dominar")
    )
    return Refusal(rule, text)


MAIN_STEP = declare(
    MAIN,
    main_moves,
    {
        Build: (check_build, do_build),
        Risk: (check_risk, do_risk),
        Dominate: (check_dominate, do_dominate),
        Play: (check_turn_play, do_play),
        Optimise: (check_optimise, do_optimise),
        Declare: (check_declare, do_declare),
        Pass: (check_pass, do_pass),
    },
    _not_now,
)
