"""Playing a red strategy (market-fortune/cap-4/roja): the one check, the ways each card is played, its effect.

:func:`play_check` is the rule: a red you hold, on your turn, one per turn, not the one
Momentum gave you this turn, and what the card's own text requires (:func:`effect_check`).
:func:`playable` lists every legal way to play the reds a seat holds by running that same
check over the candidate plays of each card (:func:`plays_of`: every value of the fields
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
    N_CARDS,
    RETURN,
    STOCK,
    STRATEGIES,
    Effect,
    StrategyDef,
)
from club_agentes.engine.market_fortune.flow import after_red
from club_agentes.engine.market_fortune.moves import BUILDING_SOURCES, SOURCE_WORDS, Play, intern
from club_agentes.engine.market_fortune.scoring import goes_last, is_leader, strategy
from club_agentes.engine.market_fortune.state import BUILDING_TARGET, REACTION, RESCUE, TAKE, Attack, State
from club_agentes.engine.market_fortune.table import (
    NO,
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
_SHAPE = {e: tuple(f in FIELDS.get(e, ()) for f in _ALL_FIELDS) for e in Effect}
_DISCARD_SOURCES = ("stock-discard", "return-discard")


def card_of(card_id: str) -> int:
    """Return the card number of a card id (ids come from the codec, which checks them)."""
    return CARD_INDEX[card_id]


# ---------------------------------------------------------------------------- checks
#
# Every check takes ``say``: listing legal moves passes ``False`` and gets the shared refusal
# ``NO`` instead of a sentence, so running the checks over every candidate stays cheap.


def red_card_check(card: int, say: bool = True) -> Check:
    """Return why ``card`` is never played as a red strategy (its kind or colour), or ``None``."""
    s = CARD_STRAT[card]
    if s is None:
        return Refusal(rid.RED, lambda: f"{cn(card)} is a building card, not a strategy") if say else NO
    if IS_BLUE[card]:
        if not say:
            return NO
        return Refusal(rid.BLUE, lambda: f"{cn(card)} is blue: it is used out of your turn, when an attack hits you")
    if IS_GREEN[card]:
        if not say:
            return NO
        return Refusal(
            rid.GREEN,
            lambda: f"{cn(card)} is green: it is attached to an investment when you form it or declare victory",
        )
    if IS_YELLOW[card]:
        if not say:
            return NO
        return Refusal(rid.YELLOW, lambda: f"{cn(card)} is yellow: it stays in your hand until you declare victory")
    return None


def red_turn_check(st: State, seat: int, card: int, only: int, say: bool = True) -> Check:
    """Return why ``seat`` may not play red ``card`` at this moment of its turn, or ``None``.

    ``only``: after Dominar, the card just taken (the only red that may follow); else -1.
    """
    if card not in st.strats[seat]:
        return Refusal(rid.RED, lambda: f"you do not hold {cn(card)}") if say else NO
    if card == st.momentum:
        if not say:
            return NO
        return Refusal(
            rid.MOMENTUM, lambda: f"you took {cn(card)} by Momentum this turn and cannot use it until a later turn"
        )
    if st.red_used:
        return _ONE_RED
    if only >= 0 and card != only:
        if not say:
            return NO
        return Refusal(
            rid.RULING_RED_TIMING,
            lambda: f"after Dominar you may use only the strategy you just took, {cn(only)}, and only if it is red",
        )
    return None


_ONE_RED = Refusal(rid.RULING_RED_TIMING, "you have already used a red strategy this turn; one red strategy per turn")


def play_card_check(st: State, seat: int, card: int, only: int, say: bool = True) -> Check:
    """Return why ``seat`` may not play ``card`` now whatever its fields, or ``None``."""
    return red_card_check(card, say) or red_turn_check(st, seat, card, only, say)


def group_targets(st: State, seat: int, effect: Effect) -> tuple[int, ...]:
    """Return the rivals a group attack reaches, clockwise from the attacker (public information only).

    Inflación reaches every rival with building cards in hand; Colapso de Mercado and Riesgo
    Sistémico every rival with a face-down investment (face-up ones are final: ruling
    inversiones-volteadas).
    """
    order = clockwise_from(seat, st.n, include_first=False)
    if effect is Effect.INFLATION:
        return tuple(s for s in order if st.hands[s])
    return tuple(s for s in order if any(not i.face_up for i in st.invs[s]))


def _targeted(st: State, seat: int, s: StrategyDef, t: int | None, k: int | None, say: bool) -> Check:
    """One-rival attacks: a rival first, then what the card asks of that rival."""
    if t is None or not 0 <= t < st.n or t == seat:
        if not say:
            return NO
        return Refusal(
            s.section, lambda: f"{s.name} targets a rival: a seat from 0 to {st.n - 1} other than yours ({seat})"
        )
    e = s.effect
    if e is Effect.STEAL_STRATEGY:
        if not st.strats[t]:
            return Refusal(s.section, lambda: f"seat {t} holds no strategy to take") if say else NO
        return None
    if e is Effect.CORRECTION:
        invs = st.invs[t]
        if len(invs) < len(st.invs[seat]):
            if not say:
                return NO
            return Refusal(
                s.section,
                lambda: (
                    f"seat {t} has {n_investments(len(invs))} and you have "
                    f"{len(st.invs[seat])}; Corrección targets a rival as advanced as you or more"
                ),
            )
        if k is None or not 0 <= k < len(invs):
            return Refusal(s.section, lambda: no_such_investment(f"seat {t} has", len(invs), k)) if say else NO
        if invs[k].face_up:
            if not say:
                return NO
            return Refusal(
                rid.RULING_FACE_UP,
                lambda: (
                    f"investment #{k} of seat {t} is face up, and a face-up investment is final: no card changes it"
                ),
            )
        return None
    if e is Effect.FEDERAL_AUDIT:
        if not any(not i.face_up for i in st.invs[t]):
            return Refusal(s.section, lambda: f"seat {t} has no face-down investment to audit") if say else NO
        return None
    if e is Effect.TRADE:
        if not st.hands[seat]:
            return Refusal(s.section, "you hold no building card to give")
        if not st.hands[t]:
            return Refusal(s.section, lambda: f"seat {t} holds no building card in hand") if say else NO
        return None
    # Bloqueo Regulatorio
    if not is_leader(st, t):
        if not say:
            return NO
        most = max(len(i) for i in st.invs)
        return Refusal(
            s.section,
            lambda: (
                f"seat {t} has {n_investments(len(st.invs[t]))} and the most anyone has "
                f"is {most}; Bloqueo Regulatorio targets a leader (the most investments, at least 1)"
            ),
        )
    return None


def return_swap_cards_check(s: StrategyDef, card: int, current: int, say: bool = True) -> Check:
    """Interés Compuesto: return why ``card`` can never replace the +R of an investment whose $ is ``current``."""
    if CARD_TYPE[card] != RETURN:
        if not say:
            return NO
        return Refusal(s.section, lambda: f"{s.name} puts a +R into the investment, and {cn(card)} is not a +R card")
    if CARD_IND[card] != CARD_IND[current]:
        if not say:
            return NO
        return Refusal(
            rid.RULING_SAME_INDUSTRY,
            lambda: f"the investment is of {INDUSTRIES[CARD_IND[current]].name}; {CARD_NAME[card]} is another industry",
        )
    return None


def _return_swap_investment(st: State, seat: int, s: StrategyDef, k: int | None, say: bool) -> Check:
    invs = st.invs[seat]
    if k is None or not 0 <= k < len(invs):
        return Refusal(s.section, lambda: no_such_investment("you have", len(invs), k)) if say else NO
    if invs[k].face_up:
        if not say:
            return NO
        return Refusal(s.section, lambda: f"investment #{k} is face up; flipped investments can no longer be modified")
    return None


def _return_swap_hand(st: State, seat: int, s: StrategyDef, c: int, say: bool) -> Check:
    if c not in st.hands[seat]:
        return Refusal(s.section, lambda: f"the +R comes from your hand, and you do not hold {cn(c)}") if say else NO
    return None


def _return_swap(st: State, seat: int, s: StrategyDef, k: int | None, c: int, say: bool) -> Check:
    """Interés Compuesto: a +R of the hand into a face-down investment of the same industry."""
    p = _return_swap_investment(st, seat, s, k, say)
    if p is not None:
        return p
    assert k is not None
    return return_swap_cards_check(s, c, st.invs[seat][k].stock, say) or _return_swap_hand(st, seat, s, c, say)


def _discard_swap(st: State, seat: int, s: StrategyDef, src: str | None, c: int, say: bool) -> Check:
    """Movimiento Astuto: the top card of a $ or +R discard pile for a card of the hand."""
    assert src is not None
    if src not in _DISCARD_SOURCES:
        if not say:
            return NO
        return Refusal(
            s.section, lambda: f"{s.name} takes the top card of the $ or +R discard pile, not of {SOURCE_WORDS[src]}"
        )
    p = source_check(st, src, say)
    if p is not None:
        return p
    if c not in st.hands[seat]:
        if not say:
            return NO
        return Refusal(s.section, lambda: f"you give a building card from your hand, and you do not hold {cn(c)}")
    return None


def _on_self(st: State, seat: int, s: StrategyDef, say: bool) -> Check:
    """The reds that act on their user (and the group attacks, which need someone to reach)."""
    e = s.effect
    if e is Effect.MARKET_COLLAPSE or e is Effect.SYSTEMIC_RISK:
        if not group_targets(st, seat, e):
            return Refusal(s.section, lambda: f"no rival has a face-down investment for {s.name} to hit") if say else NO
        return None
    if e is Effect.INFLATION:
        if not group_targets(st, seat, e):
            return Refusal(s.section, "no rival holds a building card in hand")
        return None
    if e is Effect.EXTRA_BUILD:
        if all(source_check(st, src, False) is not None for src in BUILDING_SOURCES):
            return Refusal(rid.RULING_DECKS, "no deck or discard pile has a building card to take")
        return None
    if e is Effect.LIQUIDITY:
        if not (can_draw_building(st, STOCK) or can_draw_building(st, RETURN)):
            return Refusal(rid.RULING_DECKS, "neither the $ deck nor the +R deck has a card to take")
        return None
    if e is Effect.RESCUE:
        count = building_count(st, seat)
        if count >= BUILDING_TARGET:
            if not say:
                return NO
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
    return None  # Fortuna: always playable


def effect_check(
    st: State,
    seat: int,
    card: int,
    target: int | None,
    k: int | None,
    swap: int,
    source: str | None,
    say: bool = True,
) -> Check:
    """Return why red ``card`` may not be played with these fields, or ``None`` (``swap`` -1: none).

    The fields must be exactly those the card's text takes; then the card's own conditions.
    """
    s = CARD_STRAT[card]
    assert s is not None
    e = s.effect
    if (target is not None, k is not None, swap >= 0, source is not None) != _SHAPE[e]:
        if not say:
            return NO
        needed = FIELDS.get(e, ())
        values = (target, k, swap if swap >= 0 else None, source)
        given = [f for f, v in zip(_ALL_FIELDS, values, strict=True) if v is not None]
        what = ", ".join(needed) if needed else "no other field"
        return Refusal(s.section, lambda: f"{s.name} takes {what}; the move gave {', '.join(given) or 'none'}")
    return effect_body_check(st, seat, s, target, k, swap, source, say)


def effect_body_check(
    st: State,
    seat: int,
    s: StrategyDef,
    target: int | None,
    k: int | None,
    swap: int,
    source: str | None,
    say: bool = True,
) -> Check:
    """The card's own conditions (:func:`effect_check` once the fields are the ones the card takes)."""
    e = s.effect
    if e in _TARGETED:
        return _targeted(st, seat, s, target, k, say)
    if e is Effect.FREE_RETURN_SWAP:
        return _return_swap(st, seat, s, k, swap, say)
    if e is Effect.DISCARD_SWAP:
        return _discard_swap(st, seat, s, source, swap, say)
    return _on_self(st, seat, s, say)


_TARGETED = frozenset(e for e, f in FIELDS.items() if "target" in f)


def play_check(st: State, seat: int, move: Play, only: int) -> Check:
    """Return why playing this red strategy is refused now, or ``None`` (``only``: the card Dominar drew, or -1)."""
    card = card_of(move.card)
    swap = card_of(move.swap) if move.swap is not None else -1
    return play_card_check(st, seat, card, only) or effect_check(
        st, seat, card, move.target, move.investment, swap, move.source
    )


# ---------------------------------------------------------------------------- listing

_RED_CARDS = [c for c in range(len(CARD_ID)) if IS_RED[c]]
_PLAIN = {c: intern(Play, CARD_ID[c]) for c in _RED_CARDS}
_AT = {c: [intern(Play, CARD_ID[c], t) for t in range(6)] for c in _RED_CARDS}
_AT_INV = {c: [[intern(Play, CARD_ID[c], t, k) for k in range(4)] for t in range(6)] for c in _RED_CARDS}


# The checks that read the cards only, computed once for every card (and pair of cards).
_RED = [red_card_check(c, False) is None for c in range(N_CARDS)]
_INTERES = next(s for s in STRATEGIES if s.effect is Effect.FREE_RETURN_SWAP)
_RETURN_SWAPS = [
    [return_swap_cards_check(_INTERES, c, cur, False) is None for c in range(N_CARDS)] for cur in range(N_CARDS)
]


def plays_of(st: State, seat: int, card: int) -> list[Play]:
    """Return every legal play of red ``card`` (its card-level check already passed).

    The candidates are every value of the fields the card's text takes (each seat, each
    investment, each card of the hand, each discard pile); :func:`effect_check` keeps the legal ones.
    """
    s = CARD_STRAT[card]
    assert s is not None
    fields = FIELDS.get(s.effect, ())
    n = st.n
    # Every candidate below takes exactly the card's fields, so the part of effect_check that
    # follows the fields' test (effect_body_check, by shape) decides.
    if not fields:
        return [_PLAIN[card]] if _on_self(st, seat, s, False) is None else []
    if fields == ("target",):
        at = _AT[card]
        return [at[t] for t in range(n) if _targeted(st, seat, s, t, None, False) is None]
    if fields == ("target", "investment"):
        at_inv = _AT_INV[card]
        return [
            at_inv[t][k]
            for t in range(n)
            for k in range(len(st.invs[t]))
            if _targeted(st, seat, s, t, k, False) is None
        ]
    hand = st.hands[seat]
    cid = CARD_ID[card]
    if fields == ("investment", "swap"):
        out: list[Play] = []
        for k, inv in enumerate(st.invs[seat]):
            if _return_swap_investment(st, seat, s, k, False) is None:
                fits = _RETURN_SWAPS[inv.stock]
                out.extend(
                    intern(Play, cid, None, k, CARD_ID[c])
                    for c in hand
                    if fits[c] and _return_swap_hand(st, seat, s, c, False) is None
                )
        return out
    return [
        intern(Play, cid, None, None, CARD_ID[c], src)
        for src in _DISCARD_SOURCES
        for c in hand
        if _discard_swap(st, seat, s, src, c, False) is None
    ]


def playable(st: State, seat: int, only: int) -> list[Play]:
    """Return every legal play of a red ``seat`` holds (``only``: the card Dominar drew, or -1)."""
    out: list[Play] = []
    for c in st.strats[seat] if only < 0 else (only,):
        if _RED[c] and red_turn_check(st, seat, c, only, False) is None:
            out.extend(plays_of(st, seat, c))
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
    "card_of",
    "effect_check",
    "group_targets",
    "play_card_check",
    "play_check",
    "play_red",
    "playable",
    "plays_of",
]
