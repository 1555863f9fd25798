"""Playing a red strategy (market-fortune/cap-4/roja): the one check, the ways each card is played, its effect.

:func:`play_check` is the rule: a red you hold, on your turn, one per turn, not the one
Momentum gave you this turn, and what the card's own text requires (:func:`effect_check`).
:func:`playable` lists every legal way to play the reds a seat holds by running that same
check over the candidate plays of each card (:func:`candidates`: every value of the fields
the card takes). Attacks open a reaction window (:mod:`.reaction` resolves it); the other reds
act on their user at once.
"""

from __future__ import annotations

from club_agentes.engine.core import Event, clockwise_from
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_IND,
    CARD_INDEX,
    CARD_NAME,
    CARD_STRAT,
    CARD_TYPE,
    INDUSTRIES,
    IS_BLUE,
    IS_GREEN,
    IS_RED,
    IS_YELLOW,
    RETURN,
    STOCK,
    Effect,
    StrategyDef,
)
from club_agentes.engine.market_fortune.flow import after_red
from club_agentes.engine.market_fortune.moves import BUILDING_SOURCES, SOURCE_WORDS, Play, intern
from club_agentes.engine.market_fortune.scoring import as_advanced, goes_last, is_leader, strategy
from club_agentes.engine.market_fortune.state import BUILDING_TARGET, REACTION, RESCUE, TAKE, Attack, State
from club_agentes.engine.market_fortune.table import (
    PILE_OF_SOURCE,
    PILE_WORD,
    Check,
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
    private_to,
    seat_list,
    source_check,
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
_DISCARD_SOURCES = ("stock-discard", "return-discard")


def card_of(card_id: str) -> int:
    """Return the card number of a card id (ids come from the codec, which checks them)."""
    return CARD_INDEX[card_id]


# ---------------------------------------------------------------------------- checks


def play_card_check(st: State, seat: int, card: int, only: int) -> Check:
    """Return why ``seat`` may not play ``card`` now whatever its fields, or ``None``.

    ``only``: after Dominar, the card just taken (the only red that may follow); else -1.
    """
    s = CARD_STRAT[card]
    if s is None:
        return Refusal(rid.RED, lambda: f"{cn(card)} is a building card, not a strategy")
    if card not in st.strats[seat]:
        return Refusal(rid.RED, lambda: f"you do not hold {cn(card)}")
    if IS_BLUE[card]:
        return Refusal(rid.BLUE, lambda: f"{cn(card)} is blue: it is used out of your turn, when an attack hits you")
    if IS_GREEN[card]:
        return Refusal(
            rid.GREEN,
            lambda: f"{cn(card)} is green: it is attached to an investment when you form it or declare victory",
        )
    if IS_YELLOW[card]:
        return Refusal(rid.YELLOW, lambda: f"{cn(card)} is yellow: it stays in your hand until you declare victory")
    if card == st.momentum:
        return Refusal(
            rid.MOMENTUM, lambda: f"you took {cn(card)} by Momentum this turn and cannot use it until a later turn"
        )
    if st.red_used:
        return Refusal(
            rid.RULING_RED_TIMING, "you have already used a red strategy this turn; one red strategy per turn"
        )
    if only >= 0 and card != only:
        return Refusal(
            rid.RULING_RED_TIMING,
            lambda: f"after Dominar you may use only the strategy you just took, {cn(only)}, and only if it is red",
        )
    return None


def _rival_check(st: State, seat: int, target: int | None, s: StrategyDef) -> Check:
    if target is None or not 0 <= target < st.n or target == seat:
        return Refusal(
            s.section, lambda: f"{s.name} targets a rival: a seat from 0 to {st.n - 1} other than yours ({seat})"
        )
    return None


def group_targets(st: State, seat: int, effect: Effect) -> tuple[int, ...]:
    """Return the rivals a group attack reaches, clockwise from the attacker (public information only)."""
    order = clockwise_from(seat, st.n, include_first=False)
    if effect is Effect.INFLATION:
        return tuple(s for s in order if st.hands[s])
    return tuple(s for s in order if st.invs[s])


def effect_check(st: State, seat: int, card: int, move: Play) -> Check:
    """Return why the card-specific part of playing red ``card`` as ``move`` is refused, or ``None``."""
    s = strategy(card)
    e = s.effect
    needed = FIELDS.get(e, ())
    given = tuple(f for f in _ALL_FIELDS if getattr(move, f) is not None)
    if given != tuple(f for f in _ALL_FIELDS if f in needed):
        what = ", ".join(needed) if needed else "no other field"
        return Refusal(s.section, lambda: f"{s.name} takes {what}; the move gave {', '.join(given) or 'none'}")
    if "target" in needed:
        target = move.target
        p = _rival_check(st, seat, target, s)
        if p is not None:
            return p
        assert target is not None
        return _targeted_check(st, seat, s, target, move)
    if e is Effect.MARKET_COLLAPSE or e is Effect.SYSTEMIC_RISK:
        if not group_targets(st, seat, e):
            return Refusal(s.section, lambda: f"no rival has an investment for {s.name} to hit")
        return None
    if e is Effect.INFLATION:
        if not group_targets(st, seat, e):
            return Refusal(s.section, "no rival holds a building card in hand")
        return None
    if e is Effect.FREE_RETURN_SWAP:
        return _return_swap_check(st, seat, s, move)
    if e is Effect.DISCARD_SWAP:
        src = move.source
        assert src is not None
        if src not in _DISCARD_SOURCES:
            return Refusal(
                s.section,
                lambda: f"{s.name} takes the top card of the $ or +R discard pile, not of {SOURCE_WORDS[src]}",
            )
        p = source_check(st, src)
        if p is not None:
            return p
        assert move.swap is not None
        c = card_of(move.swap)
        if c not in st.hands[seat]:
            return Refusal(s.section, lambda: f"you give a building card from your hand, and you do not hold {cn(c)}")
        return None
    if e is Effect.EXTRA_BUILD:
        if all(source_check(st, src) is not None for src in BUILDING_SOURCES):
            return Refusal(rid.RULING_DECKS, "no deck or discard pile has a building card to take")
        return None
    if e is Effect.LIQUIDITY:
        if not (can_draw_building(st, STOCK) or can_draw_building(st, RETURN)):
            return Refusal(rid.RULING_DECKS, "neither the $ deck nor the +R deck has a card to take")
        return None
    if e is Effect.RESCUE:
        count = building_count(st, seat)
        if count >= BUILDING_TARGET:
            return Refusal(
                s.section, lambda: f"you hold {count} building cards; Rescate is used only with fewer than 8"
            )
        if not (can_draw_building(st, STOCK) or can_draw_building(st, RETURN)):
            return Refusal(rid.RULING_DECKS, "neither the $ deck nor the +R deck has a card to take")
        return None
    if e is Effect.LUCKY_INVESTOR:
        if st.acted:
            return Refusal(s.section, "Inversor Suertudo is used before your action, and you have already taken it")
        return None
    return None  # FORTUNE_ROLL: always playable


def _targeted_check(st: State, seat: int, s: StrategyDef, target: int, move: Play) -> Check:
    """The part of a one-rival attack's check that concerns its rival (already checked to be one)."""
    e = s.effect
    if e is Effect.STEAL_STRATEGY:
        if not st.strats[target]:
            return Refusal(s.section, lambda: f"seat {target} holds no strategy to take")
        return None
    if e is Effect.CORRECTION:
        invs = st.invs[target]
        if not as_advanced(st, seat, target):
            return Refusal(
                s.section,
                lambda: (
                    f"seat {target} has {n_investments(len(invs))} and you have "
                    f"{len(st.invs[seat])}; Corrección targets a rival as advanced as you or more"
                ),
            )
        k = move.investment
        if k is None or not 0 <= k < len(invs):
            return Refusal(s.section, lambda: no_such_investment(f"seat {target} has", len(invs), k))
        return None
    if e is Effect.FEDERAL_AUDIT:
        if not any(not i.face_up for i in st.invs[target]):
            return Refusal(s.section, lambda: f"seat {target} has no face-down investment to audit")
        return None
    if e is Effect.TRADE:
        if not st.hands[seat]:
            return Refusal(s.section, "you hold no building card to give")
        if not st.hands[target]:
            return Refusal(s.section, lambda: f"seat {target} holds no building card in hand")
        return None
    # REGULATORY_BLOCK
    if not is_leader(st, target):
        most = max(len(i) for i in st.invs)
        return Refusal(
            s.section,
            lambda: (
                f"seat {target} has {n_investments(len(st.invs[target]))} and the most anyone has "
                f"is {most}; Bloqueo Regulatorio targets a leader (the most investments, at least 1)"
            ),
        )
    return None


def _return_swap_check(st: State, seat: int, s: StrategyDef, move: Play) -> Check:
    invs = st.invs[seat]
    k = move.investment
    if k is None or not 0 <= k < len(invs):
        return Refusal(s.section, lambda: no_such_investment("you have", len(invs), k))
    inv = invs[k]
    assert move.swap is not None
    c = card_of(move.swap)
    if inv.face_up:
        return Refusal(s.section, lambda: f"investment #{k} is face up; flipped investments can no longer be modified")
    if CARD_TYPE[c] != RETURN:
        return Refusal(s.section, lambda: f"{s.name} puts a +R into the investment, and {cn(c)} is not a +R card")
    if c not in st.hands[seat]:
        return Refusal(s.section, lambda: f"the +R comes from your hand, and you do not hold {cn(c)}")
    if CARD_IND[c] != CARD_IND[inv.stock]:
        return Refusal(
            rid.RULING_SAME_INDUSTRY,
            lambda: f"investment #{k} is of {INDUSTRIES[CARD_IND[inv.stock]].name}; {CARD_NAME[c]} is another industry",
        )
    return None


def play_check(st: State, seat: int, move: Play, only: int) -> Check:
    """Return why playing this red strategy is refused now, or ``None`` (``only``: the card Dominar drew, or -1)."""
    card = card_of(move.card)
    return play_card_check(st, seat, card, only) or effect_check(st, seat, card, move)


# ---------------------------------------------------------------------------- listing


def _play(card: int, target: int | None, k: int | None, swap: int, source: str | None) -> Play:
    return intern(Play, CARD_ID[card], target, k, CARD_ID[swap] if swap >= 0 else None, source)


def candidates(st: State, seat: int, card: int) -> list[Play]:
    """Return every play of ``card`` with the fields its text takes filled in every possible way.

    Which of them are legal is for :func:`effect_check` to say.
    """
    fields = FIELDS.get(strategy(card).effect, ())
    n = st.n
    if not fields:
        return [_play(card, None, None, -1, None)]
    if fields == ("target",):
        return [_play(card, t, None, -1, None) for t in range(n)]
    if fields == ("target", "investment"):
        return [_play(card, t, k, -1, None) for t in range(n) for k in range(len(st.invs[t]))]
    hand = st.hands[seat]
    if fields == ("investment", "swap"):
        return [_play(card, None, k, c, None) for k in range(len(st.invs[seat])) for c in hand]
    return [_play(card, None, None, c, src) for src in _DISCARD_SOURCES for c in hand]


def playable(st: State, seat: int, only: int) -> list[Play]:
    """Return every legal play of a red ``seat`` holds (``only``: the card Dominar drew, or -1)."""
    out: list[Play] = []
    for c in st.strats[seat] if only < 0 else (only,):
        if IS_RED[c] and play_card_check(st, seat, c, only) is None:
            out.extend(m for m in candidates(st, seat, c) if effect_check(st, seat, c, m) is None)
    return out


# ---------------------------------------------------------------------------- effects


def play_red(st: State, seat: int, move: Play, ev: Events) -> None:
    """Use a red strategy (already checked): open the attack's reaction window or apply its effect."""
    card = card_of(move.card)
    s = strategy(card)
    st.red_used = True
    st.strats[seat].remove(card)
    make_public(st, card)
    spec = s.spec
    if spec.target != "self":
        if spec.target == "one":
            assert move.target is not None
            targets: tuple[int, ...] = (move.target,)
        else:
            targets = group_targets(st, seat, s.effect)
        st.attack = Attack(seat, card, targets, move.investment)
        st.step = REACTION
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
        st.discards[2].append(card)
        st.trim_by = card
        st.step = TAKE
        return
    if s.effect is Effect.RESCUE:
        st.discards[2].append(card)
        st.step = RESCUE
        return
    _self_effect(st, seat, card, move, ev)
    st.discards[2].append(card)
    after_red(st, ev)


def _self_effect(st: State, seat: int, card: int, move: Play, ev: Events) -> None:
    s = strategy(card)
    e = s.effect
    if e is Effect.FORTUNE_ROLL:
        if die_plus(st):
            got = []
            last = goes_last(st, seat)
            for _ in range(s.params["draw_last"] if last else s.params["draw"]):
                c = take_strategy(st, seat, ev)
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
        inv = st.invs[seat][k]
        assert move.swap is not None
        new = card_of(move.swap)
        old = inv.ret
        st.hands[seat].remove(new)
        inv.ret = new
        add_hand(st, seat, old)
        # Nobody else sees which +R went in or came out.
        private_to(st, new, seat)
        obscure_hand(st, seat)
        ev.append(Event(f"Interés Compuesto: seat {seat} swapped the +R of its investment #{k} for a +R from its hand"))
        ev.append(Event(f"you put {cn(new)} into investment #{k} and took {cn(old)} back", (seat,)))
    elif e is Effect.DISCARD_SWAP:
        assert move.swap is not None
        give = card_of(move.swap)
        assert move.source is not None
        pile = PILE_OF_SOURCE[move.source]
        taken = st.discards[pile].pop()
        st.hands[seat].remove(give)
        # The card given is discarded by a strategy: in Campeonato it lies face down and blocks its pile.
        shown, _ = discard_by_strategy(st, [give], seat)
        took = f"Movimiento Astuto: seat {seat} took {cn(taken)} from the {PILE_WORD[pile]} discard pile and "
        if shown:
            ev.append(Event(took + f"discarded {cn(give)}"))
        else:
            obscure_hand(st, seat)  # the card given went face down: nobody else knows which it was
            where = PILE_WORD[CARD_TYPE[give]]
            ev.append(Event(took + f"discarded 1 card face down on the {where} discard pile, blocked (Campeonato)"))
            ev.append(Event(f"Movimiento Astuto: you discarded {cn(give)} face down", (seat,)))
        add_hand(st, seat, taken)  # taken face up: everyone knows it is in the hand
    elif e is Effect.LIQUIDITY:
        st.trim_by = card
        for pile in (STOCK, RETURN):
            if can_draw_building(st, pile):
                take_from(st, seat, ("stock-deck", "return-deck")[pile], ev, "took (Liquidez)")
    elif e is Effect.LUCKY_INVESTOR:
        st.lucky = True
        ev.append(Event(f"Inversor Suertudo: if seat {seat} risks this turn, its investment succeeds without the die"))


__all__ = [
    "FIELDS",
    "candidates",
    "card_of",
    "effect_check",
    "group_targets",
    "play_card_check",
    "play_check",
    "play_red",
    "playable",
]
