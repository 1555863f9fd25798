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
from club_agentes.engine.market_fortune.steps.build import build_moves, do_build
from club_agentes.engine.market_fortune.steps.declaration import declare_check, do_declare
from club_agentes.engine.market_fortune.steps.dominate import do_dominate, dominate_check
from club_agentes.engine.market_fortune.steps.optimisation import add_optimise_moves, do_optimise
from club_agentes.engine.market_fortune.steps.reds import add_plays, play_check, play_red
from club_agentes.engine.market_fortune.steps.risk import add_risk_moves, do_risk, risk_moves
from club_agentes.engine.market_fortune.table import Check, Events, Refusal, Step

_CAN_ACT = Refusal(
    rid.RULING_NO_ACTION, "you can still build, risk or dominate; you pass only when no action is possible"
)


def pass_check(st: State, seat: int, actions: list[Any] | None = None) -> Check:
    """Return why ``seat`` may not pass (an action is possible), or ``None``.

    ``actions``: the legal Construir, Arriesgar and Dominar moves when the caller has just listed
    them (the listing of the turn does); otherwise they are listed here.
    """
    if actions is None:
        actions = build_moves(st, seat) + risk_moves(st, seat)
        if dominate_check(st, seat) is None:
            actions.append(DOMINATE)
    return _CAN_ACT if actions else None


def main_moves(st: State, seat: int) -> list[Any]:
    """Legal moves at the start of the turn: the three actions and the free plays before them."""
    out: list[Any] = build_moves(st, seat)
    add_risk_moves(st, seat, out)
    if dominate_check(st, seat) is None:
        out.append(DOMINATE)
    if pass_check(st, seat, out) is None:
        out.append(PASS)
    if st.strats[seat]:
        add_plays(st, seat, -1, out)
    if st.invs[seat]:
        add_optimise_moves(st, seat, out)
        if declare_check(st, seat, False) is None:
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


def apply_main(st: State, seat: int, move: Any) -> Events:
    """Check and apply a move at the start of the turn.

    Raises:
        IllegalMove: the move breaks a rule (the refusal names it).
    """
    t = type(move)
    if t is Build:
        return do_build(st, seat, move)
    if t is Risk:
        return do_risk(st, seat, move)
    if t is Dominate:
        return do_dominate(st, seat, move)
    if t is Play:
        problem = play_check(st, seat, move, -1)
        if problem is not None:
            raise problem.illegal()
        ev: Events = []
        play_red(st, seat, move, ev)
        return ev
    if t is Optimise:
        return do_optimise(st, seat, move)
    if t is Declare:
        return do_declare(st, seat)
    if t is Pass:
        problem = pass_check(st, seat)
        if problem is not None:
            raise problem.illegal()
        st.acted = True
        ev = [Event(f"seat {seat} can take no action and passes")]
        end_turn(st, ev)
        return ev
    rule, text = _NOT_NOW.get(
        t, (rid.YOUR_TURN, "you must take one action on your turn: Construir, Arriesgar or Dominar")
    )
    raise Refusal(rule, text).illegal()


MAIN_STEP = Step(MAIN, main_moves, apply_main)
