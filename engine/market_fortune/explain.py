"""Market Fortune's moves in plain words (:func:`explain`) and the rules' defaults (:func:`default_move`).

Each legal move gets one full sentence naming seats by number and name (the labels the
table passes, e.g. ``"seat 1 (claude-7)"``) and money in millions (``5M``). A move that is
legal but can never help gets a note saying why; notes use only what the deciding seat knows
(its own cards and the public table), so they reveal nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from club_agentes.engine.core.model import MoveNote
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_IND,
    CARD_INDEX,
    CARD_NAME,
    CARD_TYPE,
    CARD_VAL,
    INDUSTRIES,
    IS_GREEN,
    STOCK,
    Effect,
)
from club_agentes.engine.market_fortune.moves import (
    DECLINE,
    PASS,
    REVEAL,
    SKIP,
    SOURCE_WORDS,
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
    Skip,
    Take,
)
from club_agentes.engine.market_fortune.scoring import (
    green_bonus_for,
    inv_value,
    portfolio_value,
    strategy,
)
from club_agentes.engine.market_fortune.state import (
    BUILD_DISCARD,
    BUILDING_TARGET,
    CLOSING,
    DOMINATED,
    FORMED,
    MAIN,
    OPTIMISE_COST,
    REACTION,
    TAKE,
    TRIM,
    WIN_VALUE,
    Investment,
    State,
)
from club_agentes.engine.market_fortune.steps.risk import risk_moves
from club_agentes.engine.market_fortune.table import building_count, can_draw_strategy


def _label(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"


def _inv(inv: Investment) -> str:
    ind = INDUSTRIES[CARD_IND[inv.stock]].name
    return f"{ind} {CARD_VAL[inv.stock]}M + {CARD_VAL[inv.ret]}M = {inv_value(inv)}M"


def _green_potential(state: State, seat: int) -> int:
    """The most the greens ``seat`` may still attach could add (each on its best face-down investment without one)."""
    free = [inv for inv in state.invs[seat] if inv.green < 0 and not inv.face_up]
    total = 0
    for g in state.strats[seat]:
        if not IS_GREEN[g] or g == state.momentum:
            continue
        best = None
        for inv in free:
            b = green_bonus_for(g, CARD_VAL[inv.stock], CARD_VAL[inv.ret])
            if b and (best is None or b > best[0]):
                best = (b, inv)
        if best is not None:
            total += best[0]
            free.remove(best[1])
    return total


def _take_words(state: State, source: str) -> str:
    if source.endswith("deck"):
        return f"the top card of {SOURCE_WORDS[source]}"
    pile = state.discards[0 if source.startswith("stock") else 1]
    return f"{CARD_NAME[pile[-1]]} from the top of {SOURCE_WORDS[source]}" if pile else SOURCE_WORDS[source]


_EFFECT_WORDS = {
    Effect.STEAL_STRATEGY: "unless they defend, you take 1 of their strategies at random",
    Effect.MARKET_COLLAPSE: "every rival with a face-down investment that does not defend loses its face-down "
    "investments",
    Effect.CORRECTION: "unless they defend, that face-down investment returns to their hand",
    Effect.FEDERAL_AUDIT: "unless they defend, their face-down investments are flipped face up and those worth "
    "{max_value}M or less are discarded",
    Effect.TRADE: "unless they defend, you exchange 1 building card taken at random from each hand",
    Effect.REGULATORY_BLOCK: "unless they defend, they may not Arriesgar on their next turn",
    Effect.INFLATION: "every rival it reaches that does not defend discards 1 building card at random",
    Effect.SYSTEMIC_RISK: "every rival with a face-down investment that does not defend rolls the die: on − its "
    "newest face-down investment returns to its hand",
}


def _say_play(state: State, seat: int, move: Play, names: Sequence[str]) -> MoveNote:
    card = CARD_INDEX[move.card]
    s = strategy(card)
    e = s.effect
    head = f"Play {s.name}"
    if e in (Effect.MARKET_COLLAPSE, Effect.INFLATION, Effect.SYSTEMIC_RISK):
        return MoveNote(f"{head} against every rival it reaches, clockwise from you: {_EFFECT_WORDS[e]}.")
    if move.target is not None:
        who = _label(names, move.target)
        what = _EFFECT_WORDS[e].format(**s.params)
        if e is Effect.CORRECTION and move.investment is not None:
            return MoveNote(f"{head} against investment #{move.investment} of {who}: {what}.")
        return MoveNote(f"{head} against {who}: {what}.")
    if e is Effect.FREE_RETURN_SWAP and move.investment is not None and move.swap is not None:
        inv = state.invs[seat][move.investment]
        new = CARD_INDEX[move.swap]
        after = CARD_VAL[inv.stock] + CARD_VAL[new]
        return MoveNote(
            f"{head}: put {CARD_NAME[new]} into investment #{move.investment} ({_inv(inv)}) in place of "
            f"{CARD_NAME[inv.ret]}, making it {after}M, with no discard to pay."
        )
    if e is Effect.DISCARD_SWAP and move.swap is not None and move.source is not None:
        give = CARD_INDEX[move.swap]
        down = " (face down, blocking that pile: Campeonato)" if state.config.mode == "campeonato" else ""
        return MoveNote(f"{head}: take {_take_words(state, move.source)} and discard {CARD_NAME[give]}{down}.")
    if e is Effect.FORTUNE_ROLL:
        note = None if can_draw_strategy(state) else "no strategy is left in the deck or its discard pile to take"
        return MoveNote(
            f"{head}: roll the die; on + take {s.params['draw']} strategies ({s.params['draw_last']} if you go last).",
            note,
        )
    if e is Effect.LUCKY_INVESTOR:
        note = (
            None if risk_moves(state, seat) else "you cannot Arriesgar this turn (no $ and +R of one industry in hand)"
        )
        return MoveNote(f"{head}: if you Arriesgar this turn, the investment succeeds without the die.", note)
    if e is Effect.EXTRA_BUILD:
        return MoveNote(f"{head}: take 1 extra building card; at the end of your turn discard down to 8.")
    if e is Effect.LIQUIDITY:
        return MoveNote(
            f"{head}: take the top card of the $ deck and of the +R deck; at the end of your turn discard down to 8."
        )
    if e is Effect.RESCUE:
        need = BUILDING_TARGET - building_count(state, seat)
        return MoveNote(
            f"{head}: take {need} card{'s' if need != 1 else ''} from the $ or +R deck, one at a time, back up to 8."
        )
    return MoveNote(f"{head}.")


def _say(state: State, seat: int, move: Any, names: Sequence[str]) -> MoveNote:
    """Return ``move`` in plain words: the words of its move type (its text for a type without any)."""
    say = _SAYINGS.get(type(move))
    return say(state, seat, move, names) if say is not None else MoveNote(move.text())


def _say_build(state: State, seat: int, move: Build, names: Sequence[str]) -> MoveNote:
    after = building_count(state, seat) + 1
    then = (
        f"then discard 1 $ or +R card (you will hold {after})"
        if after > BUILDING_TARGET
        else f"you will hold {after} building cards, so nothing is discarded"
    )
    return MoveNote(f"Construir: take {_take_words(state, move.source)}; {then}. Your turn then ends.")


def _say_take(state: State, seat: int, move: Take, names: Sequence[str]) -> MoveNote:
    step = state.step
    which = "Comprar Más" if step == TAKE else "Rescate"
    return MoveNote(f"{which}: take {_take_words(state, move.source)} into your hand.")


def _say_discard(state: State, seat: int, move: Discard, names: Sequence[str]) -> MoveNote:
    step = state.step
    card = CARD_INDEX[move.card]
    why = {
        BUILD_DISCARD: "to finish Construir",
        OPTIMISE_COST: "to pay for the optimisation",
        TRIM: "for the rule of 8 at the end of your turn",
    }.get(step, "")
    return MoveNote(f"Discard {CARD_NAME[card]} face up on its discard pile {why}.".replace("  ", " "))


def _say_risk(state: State, seat: int, move: Risk, names: Sequence[str]) -> MoveNote:
    a, r = CARD_INDEX[move.stock], CARD_INDEX[move.ret]
    value = CARD_VAL[a] + CARD_VAL[r]
    how = (
        "it succeeds without the die (Inversor Suertudo)"
        if state.lucky
        else "it succeeds if the Fortune die shows + (4 faces of 6); on − both cards return to your hand"
    )
    return MoveNote(
        f"Arriesgar with {CARD_NAME[a]} and {CARD_NAME[r]}: a {value}M investment of "
        f"{INDUSTRIES[CARD_IND[a]].name}; {how}. On success you take 1 strategy (Momentum)."
    )


def _say_dominate(state: State, seat: int, move: Dominate, names: Sequence[str]) -> MoveNote:
    return MoveNote(f"Dominar: take the top strategy of the strategy deck ({len(state.decks[2])} left).")


def _say_defend(state: State, seat: int, move: Defend, names: Sequence[str]) -> MoveNote:
    atk = state.attack
    assert atk is not None
    s = strategy(CARD_INDEX[move.card])
    extra = ""
    if s.effect is Effect.CANCEL_AND_DRAW:
        extra = f", then you take {s.params['draw']} strategy"
    elif s.effect is Effect.CANCEL_FOR_ALL:
        extra = ", and also for the seats not yet asked"
    return MoveNote(
        f"Defend with {s.name}: {CARD_NAME[atk.card]} of {_label(names, atk.attacker)} is cancelled against "
        f"you{extra}; both cards go to the strategy discard."
    )


def _say_decline(state: State, seat: int, move: Decline, names: Sequence[str]) -> MoveNote:
    atk = state.attack
    assert atk is not None
    return MoveNote(f"Do not defend: {CARD_NAME[atk.card]} of {_label(names, atk.attacker)} hits you now.")


def _say_optimise(state: State, seat: int, move: Optimise, names: Sequence[str]) -> MoveNote:
    inv = state.invs[seat][move.investment]
    card = CARD_INDEX[move.card]
    stock = CARD_TYPE[card] == STOCK
    old = inv.stock if stock else inv.ret
    after = inv_value(inv) - CARD_VAL[old] + CARD_VAL[card]
    return MoveNote(
        f"Optimise investment #{move.investment} ({_inv(inv)}): put {CARD_NAME[card]} in place of "
        f"{CARD_NAME[old]}, making it {after}M; then discard 1 building card as the cost."
    )


def _say_attach(state: State, seat: int, move: Attach, names: Sequence[str]) -> MoveNote:
    step = state.step
    inv = state.invs[seat][move.investment]
    g = CARD_INDEX[move.card]
    bonus = green_bonus_for(g, CARD_VAL[inv.stock], CARD_VAL[inv.ret])
    note = None
    if not bonus and step == CLOSING:
        note = (
            f"investment #{move.investment} does not meet {CARD_NAME[g]}'s criterion and nothing can change it "
            "after a declaration: it adds 0M"
        )
    met = f"adds {bonus}M" if bonus else "adds nothing unless the investment comes to meet its criterion"
    return MoveNote(f"Attach {CARD_NAME[g]} face down to investment #{move.investment} ({_inv(inv)}): it {met}.", note)


def _say_declare(state: State, seat: int, move: Declare, names: Sequence[str]) -> MoveNote:
    value = portfolio_value(state, seat)
    reach = value + _green_potential(state, seat)
    note = None
    if reach < WIN_VALUE:
        note = (
            f"your portfolio can reach at most {reach}M with the greens you hold, under {WIN_VALUE}M: the "
            "declaration will fail and one investment returns to your hand"
        )
    return MoveNote(
        f"Declare victory: your portfolio counts {value}M now (greens you hold may still be attached); "
        f"{WIN_VALUE}M or more wins, less returns one investment to your hand.",
        note,
    )


def _say_reveal(state: State, seat: int, move: Reveal, names: Sequence[str]) -> MoveNote:
    value = portfolio_value(state, seat)
    outcome = "and you win" if value >= WIN_VALUE else f"under {WIN_VALUE}M: the declaration fails"
    return MoveNote(f"Reveal your portfolio and yellows to be counted: {value}M, {outcome}.")


def _say_return(state: State, seat: int, move: Return, names: Sequence[str]) -> MoveNote:
    inv = state.invs[seat][move.investment]
    return MoveNote(
        f"Return investment #{move.investment} ({_inv(inv)}) to your hand; the others stay face up, and your turn ends."
    )


def _say_skip(state: State, seat: int, move: Skip, names: Sequence[str]) -> MoveNote:
    step = state.step
    if step == DOMINATED:
        return MoveNote(f"Keep {CARD_NAME[state.drawn]} for a later turn; your turn ends.")
    if step == FORMED and len(state.invs[seat]) == 4:
        return MoveNote("Attach no green and do not declare now; your turn ends.")
    return MoveNote("Attach no green now; your turn ends.")


def _say_pass(state: State, seat: int, move: Pass, names: Sequence[str]) -> MoveNote:
    return MoveNote("Pass: no action is possible; your turn ends.")


_SAYINGS: dict[type, Callable[[State, int, Any, Sequence[str]], MoveNote]] = {
    Build: _say_build,
    Take: _say_take,
    Discard: _say_discard,
    Risk: _say_risk,
    Dominate: _say_dominate,
    Play: _say_play,
    Defend: _say_defend,
    Decline: _say_decline,
    Optimise: _say_optimise,
    Attach: _say_attach,
    Declare: _say_declare,
    Reveal: _say_reveal,
    Return: _say_return,
    Skip: _say_skip,
    Pass: _say_pass,
}
"""The words of each move type."""


def explain(state: State, seat: int, moves: Sequence[Any], names: Sequence[str]) -> list[MoveNote]:
    """Return each of ``moves`` (legal moves of ``seat``) in plain words, with a note on the pointless ones."""
    return [_say(state, seat, m, names) for m in moves]


_DEFAULTS: dict[str, tuple[Any, str]] = {
    REACTION: (DECLINE, rid.COMBAT),
    FORMED: (SKIP, rid.YOUR_TURN),
    DOMINATED: (SKIP, rid.YOUR_TURN),
    CLOSING: (REVEAL, rid.DECLARE),
}


def default_move(state: State, seat: int, legal: Sequence[Any]) -> tuple[Any, str] | None:
    """Return the rules' default for the decision of ``seat`` (who must decide now), or ``None``.

    Not defending, attaching no green, keeping the strategy Dominar took, revealing without
    attaching more greens, and passing when no action is possible are the rules' "do nothing"
    choices; every other decision (an action, a card to discard, the investment to return) has
    no default, and the table lets a bot decide.
    """
    d = _DEFAULTS.get(state.step)
    if d is not None and d[0] in legal:
        return d
    if state.step == MAIN and list(legal) == [PASS]:
        return PASS, rid.RULING_NO_ACTION
    return None
