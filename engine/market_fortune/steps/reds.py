"""Playing a red strategy (market-fortune/cap-4/roja): the one check, the ways each card is played, its effect.

:func:`play_check` is the rule: a red you hold, on your turn, one per turn, not the one
Momentum gave you this turn, and what the card's own text requires (:func:`effect_check`).
:func:`playable` lists every legal way to play the reds a seat holds by running that same
check over the candidate plays of each card (:func:`plays_of`: every value of the fields
the card takes). Attacks open a reaction window (:mod:`.reaction` resolves it); the other reds
act on their user at once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from club_agentes.engine.core import Event, clockwise_from
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_INDEX,
    CARD_STRAT,
    CARD_TYPE,
    IS_BLUE,
    IS_GREEN,
    IS_RED,
    IS_YELLOW,
    N_BUILDING,
    N_CARDS,
    RETURN,
    STOCK,
    Effect,
    StrategyDef,
)
from club_agentes.engine.market_fortune.config import MAX_SEATS
from club_agentes.engine.market_fortune.flow import after_red
from club_agentes.engine.market_fortune.moves import Play, intern
from club_agentes.engine.market_fortune.scoring import goes_last, is_leader, strategy
from club_agentes.engine.market_fortune.state import (
    BUILDING_TARGET,
    MAX_INVESTMENTS,
    REACTION,
    RESCUE,
    TAKE,
    Attack,
    State,
)
from club_agentes.engine.market_fortune.steps.swaps import (
    DISCARD_SOURCES,
    discard_swap,
    list_discard_swap,
    list_return_swap,
    return_swap,
    return_swap_cards_check,
)
from club_agentes.engine.market_fortune.table import (
    DECK_BITS,
    PILE_OF_SOURCE,
    PILE_WORD,
    Events,
    Refusal,
    add_hand,
    building_count,
    can_draw_building,
    cn,
    die_plus,
    discard_by_strategy,
    make_public,
    n_investments,
    no_such_investment,
    obscure_hand,
    open_sources,
    private_to,
    seat_list,
    shared_rows,
    take_from,
    take_strategy,
)

# The fields each red takes besides the card (a card's "shape"); the others take none.
FIELDS: dict[Effect, tuple[str, ...]] = {
    Effect.STEAL_STRATEGY: ("target",),
    Effect.CORRECTION: ("target", "investment"),
    Effect.FREE_RETURN_SWAP: ("investment", "swap"),
    Effect.DISCARD_SWAP: ("source", "swap"),
    Effect.FEDERAL_AUDIT: ("target",),
    Effect.TRADE: ("target",),
    Effect.REGULATORY_BLOCK: ("target",),
}
_ALL_FIELDS = ("target", "investment", "swap", "source")
_SHAPE = {e: tuple(f in FIELDS.get(e, ()) for f in _ALL_FIELDS) for e in Effect}


def card_of(card_id: str) -> int:
    """Return the card number of a card id (ids come from the codec, which checks them)."""
    return CARD_INDEX[card_id]


# ---------------------------------------------------------------------------- checks
#
# A check returns the core kit's lazily worded Refusal: listing drops the refusals it gets without ever
# writing their sentences.


def red_card_check(card: int) -> Refusal | None:
    """Return why ``card`` is never played as a red strategy (its kind or colour), or ``None``."""
    s = CARD_STRAT[card]
    if s is None:
        return Refusal(rid.RED, lambda: f"{cn(card)} is a building card, not a strategy")
    if IS_BLUE[card]:
        return Refusal(rid.BLUE, lambda: f"{cn(card)} is blue: it is used out of your turn, when an attack hits you")
    if IS_GREEN[card]:
        return Refusal(
            rid.GREEN,
            lambda: f"{cn(card)} is green: it is attached to an investment when you form it or declare victory",
        )
    if IS_YELLOW[card]:
        return Refusal(rid.YELLOW, lambda: f"{cn(card)} is yellow: it stays in your hand until you declare victory")
    return None


def red_held_check(state: State, seat: int, card: int) -> Refusal | None:
    """Return why ``seat`` may not play ``card``: it does not hold it (the zone part of the red's check)."""
    if card not in state.strats[seat]:
        return Refusal(rid.RED, lambda: f"you do not hold {cn(card)}")
    return None


def momentum_check(state: State, card: int) -> Refusal | None:
    """Return why ``card`` may not be used now: Momentum gave it this turn (market-fortune/cap-2/regla-de-momentum)."""
    if card == state.momentum:
        return Refusal(
            rid.MOMENTUM, lambda: f"you took {cn(card)} by Momentum this turn and cannot use it until a later turn"
        )
    return None


_ONE_RED = Refusal(rid.RULING_RED_TIMING, "you have already used a red strategy this turn; one red strategy per turn")


def one_red_check(state: State) -> Refusal | None:
    """Return the refusal of any red once one was used this turn (one red strategy per turn), or ``None``."""
    return _ONE_RED if state.red_used else None


def after_dominar_check(card: int, only: int) -> Refusal | None:
    """Return why ``card`` may not follow Dominar, which drew ``only`` (-1: no Dominar, every card may), or ``None``."""
    if only >= 0 and card != only:
        return Refusal(
            rid.RULING_RED_TIMING,
            lambda: f"after Dominar you may use only the strategy you just took, {cn(only)}, and only if it is red",
        )
    return None


def red_turn_check(state: State, seat: int, card: int, only: int) -> Refusal | None:
    """Return why ``seat`` may not play red ``card`` at this moment of its turn, or ``None``.

    ``only``: after Dominar, the card just taken (the only red that may follow); else -1. Its
    parts, in the order a refusal names them: :func:`red_held_check`, :func:`momentum_check`,
    :func:`one_red_check` (the kind part), :func:`after_dominar_check`.
    """
    return (
        red_held_check(state, seat, card)
        or momentum_check(state, card)
        or one_red_check(state)
        or after_dominar_check(card, only)
    )


def play_card_check(state: State, seat: int, card: int, only: int) -> Refusal | None:
    """Return why ``seat`` may not play ``card`` now whatever its fields, or ``None``."""
    return red_card_check(card) or red_turn_check(state, seat, card, only)


# The rivals of each seat clockwise from it (the order group attacks poll them), by seat count.
_RIVALS: list[list[tuple[int, ...]]] = [
    [clockwise_from(seat, n, include_first=False) for seat in range(n)] for n in range(MAX_SEATS + 1)
]
_INFLATION = Effect.INFLATION


def group_targets(state: State, seat: int, effect: Effect) -> tuple[int, ...]:
    """Return the rivals a group attack reaches, clockwise from the attacker (public information only).

    Inflación reaches every rival with building cards in hand; Colapso de Mercado and Riesgo
    Sistémico every rival with a face-down investment (face-up ones are final: ruling
    inversiones-volteadas).
    """
    out = []
    if effect is _INFLATION:
        hands = state.hands
        for s in _RIVALS[state.n][seat]:
            if hands[s]:
                out.append(s)
    else:
        invs = state.invs
        for s in _RIVALS[state.n][seat]:
            for i in invs[s]:
                if not i.face_up:
                    out.append(s)
                    break
    return tuple(out)


# ----- one-rival attacks: a rival first (the zone part), then what the card asks of that rival


def _steal_target(state: State, seat: int, s: StrategyDef, t: int, k: int | None) -> Refusal | None:
    if not state.strats[t]:
        return Refusal(s.section, lambda: f"seat {t} holds no strategy to take")
    return None


def _correction_target(state: State, seat: int, s: StrategyDef, t: int, k: int | None) -> Refusal | None:
    invs = state.invs[t]
    if len(invs) < len(state.invs[seat]):
        return _behind(s.section, t, len(invs), len(state.invs[seat]))
    if k is None or not 0 <= k < len(invs):
        return Refusal(s.section, lambda: no_such_investment(f"seat {t} has", len(invs), k))
    if invs[k].face_up:
        return _final(t, k)
    return None


# The refusals listing meets often, one per value (functions of immutable values, cached).


@cache
def _behind(section: str, t: int, theirs: int, mine: int) -> Refusal:
    return Refusal(
        section,
        f"seat {t} has {n_investments(theirs)} and you have {mine}; "
        "Corrección targets a rival as advanced as you or more",
    )


@cache
def _final(t: int, k: int) -> Refusal:
    return Refusal(
        rid.RULING_FACE_UP,
        f"investment #{k} of seat {t} is face up, and a face-up investment is final: no card changes it",
    )


def _audit_target(state: State, seat: int, s: StrategyDef, t: int, k: int | None) -> Refusal | None:
    for i in state.invs[t]:
        if not i.face_up:
            return None
    return Refusal(s.section, lambda: f"seat {t} has no face-down investment to audit")


def _trade_target(state: State, seat: int, s: StrategyDef, t: int, k: int | None) -> Refusal | None:
    if not state.hands[seat]:
        return Refusal(s.section, "you hold no building card to give")
    if not state.hands[t]:
        return Refusal(s.section, lambda: f"seat {t} holds no building card in hand")
    return None


def _block_target(state: State, seat: int, s: StrategyDef, t: int, k: int | None) -> Refusal | None:
    if not is_leader(state, t):
        return _not_leader(s.section, t, len(state.invs[t]), max(len(i) for i in state.invs))
    return None


@cache
def _not_leader(section: str, t: int, theirs: int, most: int) -> Refusal:
    return Refusal(
        section,
        f"seat {t} has {n_investments(theirs)} and the most anyone has "
        f"is {most}; Bloqueo Regulatorio targets a leader (the most investments, at least 1)",
    )


TargetCheck = Callable[[State, int, StrategyDef, int, int | None], Refusal | None]
_TARGET_CHECKS: dict[Effect, TargetCheck] = {
    Effect.STEAL_STRATEGY: _steal_target,
    Effect.CORRECTION: _correction_target,
    Effect.FEDERAL_AUDIT: _audit_target,
    Effect.TRADE: _trade_target,
    Effect.REGULATORY_BLOCK: _block_target,
}


def _targeted(state: State, seat: int, s: StrategyDef, t: int | None, k: int | None) -> Refusal | None:
    """One-rival attacks: a rival first, then what the card asks of that rival."""
    if t is None or not 0 <= t < state.n or t == seat:
        return Refusal(
            s.section, lambda: f"{s.name} targets a rival: a seat from 0 to {state.n - 1} other than yours ({seat})"
        )
    return _TARGET_CHECKS[s.effect](state, seat, s, t, k)


# ----- Interés Compuesto and Movimiento Astuto: :mod:`.swaps`


# ----- the reds that act on their user (and the group attacks, which need someone to reach)


def _group_attack(state: State, seat: int, s: StrategyDef) -> Refusal | None:
    if not group_targets(state, seat, s.effect):
        return Refusal(s.section, lambda: f"no rival has a face-down investment for {s.name} to hit")
    return None


def _inflation(state: State, seat: int, s: StrategyDef) -> Refusal | None:
    if not group_targets(state, seat, s.effect):
        return Refusal(s.section, "no rival holds a building card in hand")
    return None


_NO_SOURCE = Refusal(rid.RULING_DECKS, "no deck or discard pile has a building card to take")
_NO_DECK = Refusal(rid.RULING_DECKS, "neither the $ deck nor the +R deck has a card to take")


def _extra_build(state: State, seat: int, s: StrategyDef) -> Refusal | None:
    return None if open_sources(state) else _NO_SOURCE  # source_check refuses every building source


def _liquidity(state: State, seat: int, s: StrategyDef) -> Refusal | None:
    return None if open_sources(state) & DECK_BITS else _NO_DECK  # can_draw_building refuses both decks


def _rescue(state: State, seat: int, s: StrategyDef) -> Refusal | None:
    count = building_count(state, seat)
    if count >= BUILDING_TARGET:
        return _rescue_full(s.section, count)
    return _liquidity(state, seat, s)


@cache
def _rescue_full(section: str, count: int) -> Refusal:
    return Refusal(section, f"you hold {count} building cards; Rescate is used only with fewer than 8")


def _lucky(state: State, seat: int, s: StrategyDef) -> Refusal | None:
    if state.acted:
        return Refusal(s.section, "Inversor Suertudo is used before your action, and you have already taken it")
    return None


def _fortune(state: State, seat: int, s: StrategyDef) -> Refusal | None:
    return None  # always playable


SelfCheck = Callable[[State, int, StrategyDef], Refusal | None]
_SELF_CHECKS: dict[Effect, SelfCheck] = {
    Effect.MARKET_COLLAPSE: _group_attack,
    Effect.SYSTEMIC_RISK: _group_attack,
    Effect.INFLATION: _inflation,
    Effect.EXTRA_BUILD: _extra_build,
    Effect.LIQUIDITY: _liquidity,
    Effect.RESCUE: _rescue,
    Effect.LUCKY_INVESTOR: _lucky,
    Effect.FORTUNE_ROLL: _fortune,
}


def _on_self(state: State, seat: int, s: StrategyDef) -> Refusal | None:
    """The reds that take no field: the card's own condition."""
    return _SELF_CHECKS[s.effect](state, seat, s)


def effect_check(
    state: State,
    seat: int,
    card: int,
    target: int | None,
    k: int | None,
    swap: int,
    source: str | None,
) -> Refusal | None:
    """Return why red ``card`` may not be played with these fields, or ``None`` (``swap`` -1: none).

    The fields must be exactly those the card's text takes; then the card's own conditions.
    """
    s = CARD_STRAT[card]
    assert s is not None
    e = s.effect
    if (target is not None, k is not None, swap >= 0, source is not None) != _SHAPE[e]:
        needed = FIELDS.get(e, ())
        values = (target, k, swap if swap >= 0 else None, source)
        given = [f for f, v in zip(_ALL_FIELDS, values, strict=True) if v is not None]
        what = ", ".join(needed) if needed else "no other field"
        return Refusal(s.section, lambda: f"{s.name} takes {what}; the move gave {', '.join(given) or 'none'}")
    return effect_body_check(state, seat, s, target, k, swap, source)


def effect_body_check(
    state: State,
    seat: int,
    s: StrategyDef,
    target: int | None,
    k: int | None,
    swap: int,
    source: str | None,
) -> Refusal | None:
    """The card's own conditions (:func:`effect_check` once the fields are the ones the card takes)."""
    e = s.effect
    if e in _TARGET_CHECKS:
        return _targeted(state, seat, s, target, k)
    if e is Effect.FREE_RETURN_SWAP:
        return return_swap(state, seat, s, k, swap)
    if e is Effect.DISCARD_SWAP:
        return discard_swap(state, seat, s, source, swap)
    return _on_self(state, seat, s)


def play_check(state: State, seat: int, move: Play, only: int) -> Refusal | None:
    """Return why playing this red strategy is refused now, or ``None`` (``only``: the card Dominar drew, or -1)."""
    card = card_of(move.card)
    swap = card_of(move.swap) if move.swap is not None else -1
    return play_card_check(state, seat, card, only) or effect_check(
        state, seat, card, move.target, move.investment, swap, move.source
    )


# ---------------------------------------------------------------------------- listing
#
# A red's legal plays are the candidates effect_check accepts. Each candidate below takes exactly
# the card's fields (so the shape test passes by construction), and its other parts are evaluated
# as the module docstring of .table says: the rival, the investment of the seat and the card of the
# hand are enumerated from their zones; the card parts come from tables filled by the same functions;
# the rest is called per candidate.


def _strategy_of(card: int) -> StrategyDef:
    s = CARD_STRAT[card]
    assert s is not None
    return s


# Each seat's rivals in seat order (the zone of a one-rival attack's target).
_OTHERS: list[list[tuple[int, ...]]] = [
    [tuple(t for t in range(n) if t != seat) for seat in range(n)] for n in range(MAX_SEATS + 1)
]

# How each red card's plays are listed: (lister, its strategy, and what that lister reads: the card's
# check part and its moves).
Lister = Callable[[State, int, StrategyDef, Any, Any, list[Play]], None]


def _list_plain(state: State, seat: int, s: StrategyDef, check: SelfCheck, move: Play, out: list[Play]) -> None:
    if check(state, seat, s) is None:
        out.append(move)


def _list_targets(state: State, seat: int, s: StrategyDef, check: TargetCheck, at: list[Play], out: list[Play]) -> None:
    for t in _OTHERS[state.n][seat]:
        if check(state, seat, s, t, None) is None:
            out.append(at[t])


def _list_correction(
    state: State, seat: int, s: StrategyDef, check: TargetCheck, at_inv: list[list[Play]], out: list[Play]
) -> None:
    invs = state.invs
    for t in _OTHERS[state.n][seat]:
        row = at_inv[t]
        for k in range(len(invs[t])):
            if check(state, seat, s, t, k) is None:
                out.append(row[k])


def _lister(card: int) -> tuple[Lister, StrategyDef, Any, Any]:
    """Return how red ``card``'s plays are listed (see :data:`_LISTER_OF`)."""
    s = _strategy_of(card)
    e = s.effect
    cid = CARD_ID[card]
    fields = FIELDS.get(e, ())
    if not fields:
        return _list_plain, s, _SELF_CHECKS[e], intern(Play, cid)
    if fields == ("target",):
        return _list_targets, s, _TARGET_CHECKS[e], [intern(Play, cid, t) for t in range(MAX_SEATS)]
    if fields == ("target", "investment"):
        at_inv = [[intern(Play, cid, t, k) for k in range(MAX_INVESTMENTS)] for t in range(MAX_SEATS)]
        return _list_correction, s, _TARGET_CHECKS[e], at_inv
    if fields == ("investment", "swap"):
        # return_swap_cards_check, the card part, for every (investment's $, +R) pair (once), then the play of
        # each investment slot, or None.
        fits = [[return_swap_cards_check(s, r, cur) is None for r in range(N_CARDS)] for cur in range(N_BUILDING // 2)]
        plays = [
            shared_rows(
                [[intern(Play, cid, None, k, CARD_ID[r]) if ok[r] else None for r in range(N_CARDS)] for ok in fits]
            )
            for k in range(MAX_INVESTMENTS)
        ]
        return list_return_swap, s, None, plays
    assert fields == ("source", "swap")
    swaps = [
        (src, [intern(Play, cid, None, None, CARD_ID[g], src) for g in range(N_BUILDING)]) for src in DISCARD_SOURCES
    ]
    return list_discard_swap, s, None, swaps


# The card part of the red's check (red_card_check), for every card, and how each red's plays are listed.
_RED = [red_card_check(c) is None for c in range(N_CARDS)]
_LISTER_OF: list[tuple[Lister, StrategyDef, Any, Any] | None] = [
    _lister(c) if IS_RED[c] else None for c in range(N_CARDS)
]


def plays_of(state: State, seat: int, card: int) -> list[Play]:
    """Return every legal play of red ``card`` (its card-level check already passed): the candidates
    :func:`effect_check` accepts among every value of the fields the card's text takes."""
    entry = _LISTER_OF[card]
    assert entry is not None
    out: list[Play] = []
    entry[0](state, seat, entry[1], entry[2], entry[3], out)
    return out


def add_plays(state: State, seat: int, only: int, out: list[Any]) -> None:
    """Append to ``out`` every legal play of a red ``seat`` holds (``only``: the card Dominar drew, or -1).

    :func:`one_red_check` (the kind part) once; :func:`red_card_check` from its table; then, for a
    card of the seat's strategies (the zone of :func:`red_held_check`), :func:`momentum_check`
    (:func:`after_dominar_check` accepts every card when ``only`` is -1), or for the card Dominar
    drew, the whole :func:`red_turn_check`; then the card's plays (:func:`plays_of`).
    """
    if one_red_check(state) is not None:
        return
    if only < 0:
        for c in state.strats[seat]:
            if _RED[c] and momentum_check(state, c) is None:
                lister, s, a, b = _LISTER_OF[c]  # type: ignore[misc]
                lister(state, seat, s, a, b, out)
    elif _RED[only] and red_turn_check(state, seat, only, only) is None:
        lister, s, a, b = _LISTER_OF[only]  # type: ignore[misc]
        lister(state, seat, s, a, b, out)


def playable(state: State, seat: int, only: int) -> list[Play]:
    """Return every legal play of a red ``seat`` holds (``only``: the card Dominar drew, or -1): :func:`add_plays`."""
    out: list[Play] = []
    add_plays(state, seat, only, out)
    return out


# ---------------------------------------------------------------------------- effects


def do_play(state: State, seat: int, move: Play) -> Events:
    """Use a red strategy (checked): :func:`play_red`; return the events."""
    ev: Events = []
    play_red(state, seat, move, ev)
    return ev


def play_red(state: State, seat: int, move: Play, ev: Events) -> None:
    """Use a red strategy (already checked): open the attack's reaction window or apply its effect."""
    card = card_of(move.card)
    s = strategy(card)
    state.red_used = True
    state.strats[seat].remove(card)
    make_public(state, card)
    spec = s.spec
    if spec.target != "self":
        if spec.target == "one":
            assert move.target is not None
            targets: tuple[int, ...] = (move.target,)
        else:
            targets = group_targets(state, seat, s.effect)
        state.attack = Attack(seat, card, targets, move.investment)
        state.step = REACTION
        what = f" on investment #{move.investment}" if move.investment is not None else ""
        ev.append(
            Event(
                f"seat {seat} plays {cn(card)} against seat{'s' if len(targets) > 1 else ''} {seat_list(targets)}"
                f"{what}; each may answer with a blue strategy, clockwise from seat {seat}",
                None,
                {"card": CARD_ID[card], "targets": list(targets)},
            )
        )
        return
    ev.append(Event(f"seat {seat} plays {cn(card)}", None, {"card": CARD_ID[card]}))
    if s.effect is Effect.EXTRA_BUILD:
        state.discards[2].append(card)
        state.trim_by = card
        state.step = TAKE
        return
    if s.effect is Effect.RESCUE:
        state.discards[2].append(card)
        state.step = RESCUE
        return
    _self_effect(state, seat, card, move, ev)
    state.discards[2].append(card)
    after_red(state, ev)


def _self_effect(state: State, seat: int, card: int, move: Play, ev: Events) -> None:
    s = strategy(card)
    e = s.effect
    if e is Effect.FORTUNE_ROLL:
        if die_plus(state):
            got = []
            last = goes_last(state, seat)
            for _ in range(s.params["draw_last"] if last else s.params["draw"]):
                c = take_strategy(state, seat, ev)
                if c < 0:
                    break
                got.append(c)
            why = " (it goes last)" if last else ""
            ev.append(Event(f"Fortuna: seat {seat} rolled + and took {len(got)} strategies{why}"))
            if got:
                ev.append(Event("you took " + ", ".join(cn(c) for c in got), (seat,)))
        else:
            ev.append(Event(f"Fortuna: seat {seat} rolled − and takes nothing"))
    elif e is Effect.FREE_RETURN_SWAP:
        k = move.investment
        assert k is not None
        inv = state.invs[seat][k]
        assert move.swap is not None
        new = card_of(move.swap)
        old = inv.ret
        state.hands[seat].remove(new)
        inv.ret = new
        add_hand(state, seat, old)
        # Nobody else sees which +R went in or came out.
        private_to(state, new, seat)
        obscure_hand(state, seat)
        ev.append(Event(f"Interés Compuesto: seat {seat} swapped the +R of its investment #{k} for a +R from its hand"))
        ev.append(Event(f"you put {cn(new)} into investment #{k} and took {cn(old)} back", (seat,)))
    elif e is Effect.DISCARD_SWAP:
        assert move.swap is not None
        give = card_of(move.swap)
        assert move.source is not None
        pile = PILE_OF_SOURCE[move.source]
        taken = state.discards[pile].pop()
        state.hands[seat].remove(give)
        # The card given is discarded by a strategy: in Campeonato it lies face down and blocks its pile.
        shown, _ = discard_by_strategy(state, [give], seat)
        took = f"Movimiento Astuto: seat {seat} took {cn(taken)} from the {PILE_WORD[pile]} discard pile and "
        if shown:
            ev.append(Event(took + f"discarded {cn(give)}"))
        else:
            obscure_hand(state, seat)  # the card given went face down: nobody else knows which it was
            where = PILE_WORD[CARD_TYPE[give]]
            ev.append(Event(took + f"discarded 1 card face down on the {where} discard pile, blocked (Campeonato)"))
            ev.append(Event(f"Movimiento Astuto: you discarded {cn(give)} face down", (seat,)))
        add_hand(state, seat, taken)  # taken face up: everyone knows it is in the hand
    elif e is Effect.LIQUIDITY:
        state.trim_by = card
        for pile in (STOCK, RETURN):
            if can_draw_building(state, pile):
                take_from(state, seat, ("stock-deck", "return-deck")[pile], ev, "took (Liquidez)")
    elif e is Effect.LUCKY_INVESTOR:
        state.lucky = True
        ev.append(Event(f"Inversor Suertudo: if seat {seat} risks this turn, its investment succeeds without the die"))


__all__ = [
    "FIELDS",
    "add_plays",
    "card_of",
    "do_play",
    "effect_check",
    "group_targets",
    "play_card_check",
    "play_check",
    "play_red",
    "playable",
    "plays_of",
]
