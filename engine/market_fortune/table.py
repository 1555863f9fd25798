"""What every step of Market Fortune shares: refusals, card names, who knows what, the piles.

* :class:`~club_agentes.engine.core.steps.Refusal` (the core step kit's): what a check function returns when
  a move breaks a rule (the rule id and a sentence built only when it is needed).
* Knowledge (``State.know``): :func:`make_public`, :func:`private_to`, :func:`learn`,
  :func:`forget`, :func:`obscure_hand`, :func:`obscure_strategies`.
* Piles: :func:`open_sources` (the one rule of "may a building card be taken from here", for
  every source at once) and :func:`source_check` (its verdict for one source, with the reason),
  :func:`draw_building`, :func:`draw_strategy`, :func:`discard_building`,
  :func:`discard_by_strategy`, :func:`take_from`.

How a step lists its moves with the same checks that applying runs
------------------------------------------------------------------
Each move kind has one check (``*_check``), which :meth:`Step.apply` runs in full before
changing anything. A check is written as the conjunction of parts, and listing evaluates each
part where it is cheapest, never restating it:

* the *kind part* reads the table but not the candidate (one red per turn, Bloqueo
  Regulatorio, four investments at most): listing calls it once for the whole kind;
* the *card part* reads only the candidate's cards (a $ and a +R of one industry, a green on
  a building card...): it is evaluated once per card or pair when the module loads, by calling
  that same function, and listing reads the table it filled;
* the *zone part* says where a candidate comes from (your hand, your strategies, your
  investments): listing enumerates exactly that zone, so the part holds by construction;
* what remains reads both the table and the candidate, and listing calls it per candidate.

``tests/engine/market_fortune/test_playouts.py`` (``legal_moves_agree_with_apply``) checks, over
random playouts, that every step's listing is exactly the set of moves its checks accept among a
wide universe of moves that could be written. Each step is declared with the core kit by
:func:`.steps.base.declare`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.market_fortune import events as said
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_INDEX,
    CARD_NAME,
    CARD_TYPE,
    N_CARDS,
    RETURN,
    STOCK,
)
from club_agentes.engine.market_fortune.moves import SOURCE_WORDS, Discard, Optimise, Play, intern
from club_agentes.engine.market_fortune.state import BUILDING_TARGET, DOMINATED, MAIN, Investment, State

Events = list[Event]

PILE_OF_SOURCE = {"stock-deck": STOCK, "return-deck": RETURN, "stock-discard": STOCK, "return-discard": RETURN}
PILE_WORD = ("$", "+R")


# ---------------------------------------------------------------------------- names

_CN = [f"{CARD_NAME[c]} ({CARD_ID[c]})" for c in range(N_CARDS)]


def cn(card: int) -> str:
    """Return a card's name with its id, e.g. ``"Acción Energía 3M (MF-A-ENE-3)"``."""
    return _CN[card]


def seat_list(seats: list[int] | tuple[int, ...]) -> str:
    """Return ``"1, 2, 3"``."""
    return ", ".join(str(s) for s in seats)


def n_investments(n: int) -> str:
    """Return ``"1 investment"`` or ``"<n> investments"``."""
    return "1 investment" if n == 1 else f"{n} investments"


def no_such_investment(owner: str, n: int, k: Any) -> str:
    """Return the sentence part refusing investment ``#k`` of an owner (``"you have"``, ``"seat 2 has"``) with ``n``."""
    if n == 0:
        return f"{owner} no investment, so there is no investment #{k}"
    return f"{owner} {n_investments(n)}, numbered 0 to {n - 1}; there is no investment #{k}"


def building_count(state: State, seat: int) -> int:
    """Return the building cards a seat holds in hand and investments (the rule of 8 counts them)."""
    return len(state.hands[seat]) + 2 * len(state.invs[seat])


def die_plus(state: State) -> bool:
    """Roll the Fortune die (4 '+' faces of 6); return whether it shows '+'."""
    return state.rng.below(6) < 4


def sign(plus: bool) -> str:
    """Return ``"+"`` or ``"−"`` for a die face."""
    return "+" if plus else "−"


# ---------------------------------------------------------------------------- knowledge


def make_public(state: State, card: int) -> None:
    """Everyone (spectators too) now knows where ``card`` is: it lies face up or was shown to all."""
    state.know[card] = full = (state.public_bit << 1) - 1
    state.seen[card] = full


def known_to(state: State, card: int, seat: int) -> None:
    """Only ``seat`` knows where ``card`` is now (a card it drew or was dealt): :func:`private_to` for one seat,
    the common case, without the loop."""
    bit = 1 << seat
    state.know[card] = bit
    state.seen[card] |= bit


def private_to(state: State, card: int, *seats: int) -> None:
    """Only ``seats`` know where ``card`` is now (e.g. a card taken from a deck: its taker)."""
    mask = 0
    for s in seats:
        mask |= 1 << s
    state.know[card] = mask
    state.seen[card] |= mask


def learn(state: State, card: int, *seats: int) -> None:
    """``seats`` learn where ``card`` is (e.g. both sides of a Robo), keeping what others know."""
    for s in seats:
        state.know[card] |= 1 << s
        state.seen[card] |= 1 << s


def forget(state: State, card: int) -> None:
    """Nobody knows where ``card`` is any more (it was shuffled into a deck)."""
    state.know[card] = 0


def _obscure(state: State, cards: list[int], seat: int, keep: tuple[int, ...]) -> None:
    """Only ``seat`` and the seats in ``keep`` still know where each of ``cards`` (``seat``'s) is."""
    mask = 1 << seat
    for s in keep:
        mask |= 1 << s
    know = state.know
    for c in cards:
        know[c] &= mask


def obscure_hand(state: State, seat: int, *keep: int) -> None:
    """Cards left ``seat``'s hand unseen: other seats (but ``keep``) no longer know which cards remain in it."""
    _obscure(state, state.hands[seat], seat, keep)


def obscure_strategies(state: State, seat: int, *keep: int) -> None:
    """A strategy left ``seat``'s hand unseen: other seats (but ``keep``) lose track of its strategies."""
    _obscure(state, state.strats[seat], seat, keep)


def add_hand(state: State, seat: int, card: int) -> None:
    """Put a building card into a hand (kept sorted)."""
    insort(state.hands[seat], card)


def add_strategy(state: State, seat: int, card: int) -> None:
    """Put a strategy into a seat's strategies (kept sorted)."""
    insort(state.strats[seat], card)


# ---------------------------------------------------------------------------- piles


_SOURCE_BIT = {src: 1 << i for i, src in enumerate(PILE_OF_SOURCE)}
DECK_BITS = _SOURCE_BIT["stock-deck"] | _SOURCE_BIT["return-deck"]
"""The bits of the two building decks in :func:`open_sources`."""
_NEVER_STRATEGIES = Refusal(rid.STRATEGY_DISCARD, "you may never take a card from the strategy discard pile")


def open_sources(state: State) -> int:
    """Return the building sources that may give a card now, as bits (bit ``i``: the ``i``-th of
    ``stock-deck``, ``return-deck``, ``stock-discard``, ``return-discard``).

    A deck gives a card while it has one or its discard pile can be reshuffled into it (all but
    the top card, so at least 2: ruling mazos-agotados); a discard pile gives its top card while
    it has one that does not lie face down, blocked (Campeonato: ruling
    campeonato-cartas-bloqueadas). This is the one rule of the piles: :func:`source_check`,
    :func:`can_draw_building` and every listing of takes read it.
    """
    decks = state.decks
    discards = state.discards
    d0 = discards[0]
    d1 = discards[1]
    facedown = state.facedown
    mask = 1 if decks[0] or len(d0) >= 2 else 0
    if decks[1] or len(d1) >= 2:
        mask |= 2
    if d0 and not facedown[d0[-1]]:
        mask |= 4
    if d1 and not facedown[d1[-1]]:
        mask |= 8
    return mask


def by_open_sources(moves: dict[str, Any], sources: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """Return, for every value of :func:`open_sources`, the moves of ``sources`` it leaves open (in that order)."""
    return [tuple(moves[src] for src in sources if mask & _SOURCE_BIT[src]) for mask in range(16)]


def shared_rows(rows: list[list[Any]]) -> list[list[Any]]:
    """Return ``rows`` with equal rows replaced by one list, so a verdict table that repeats itself
    (e.g. the same answers for every card of an industry) stays small and warm in the cache."""
    seen: dict[tuple[Any, ...], list[Any]] = {}
    return [seen.setdefault(tuple(r), r) for r in rows]


def can_draw_building(state: State, pile: int) -> bool:
    """Return whether a building deck can give a card (itself, or by reshuffling its discard): :func:`open_sources`."""
    return bool(open_sources(state) & (1 << pile))


def can_draw_strategy(state: State) -> bool:
    """Return whether the strategy deck can give a card (itself, or by reshuffling its discard)."""
    return bool(state.decks[2]) or bool(state.discards[2])


def source_check(state: State, source: str, decks_only: bool = False, rule: str = rid.YOUR_TURN) -> Refusal | None:
    """Return why a building card cannot be taken from ``source`` now, or ``None``.

    The verdict is :func:`open_sources`'; the sentence names which of its conditions failed.
    ``decks_only``: the strategy in progress takes from the $ or +R deck only (``rule`` is cited).
    """
    bit = _SOURCE_BIT.get(source)
    if bit is None:
        return _NEVER_STRATEGIES
    if decks_only and not bit & DECK_BITS:
        return Refusal(
            rule, lambda: f"this strategy takes cards from the $ or +R deck only, not from {SOURCE_WORDS[source]}"
        )
    if open_sources(state) & bit:
        return None
    if bit & DECK_BITS:
        return Refusal(
            rid.RULING_DECKS,
            lambda: f"{SOURCE_WORDS[source]} is empty and its discard pile has no card to reshuffle under its top card",
        )
    if not state.discards[PILE_OF_SOURCE[source]]:
        return Refusal(rid.DISCARD_RULE, lambda: f"{SOURCE_WORDS[source]} is empty")
    return Refusal(
        rid.RULING_BLOCKED,
        lambda: f"the top card of {SOURCE_WORDS[source]} lies face down, blocked (Campeonato), until a card covers it",
    )


def draw_building(state: State, pile: int, ev: Events) -> int:
    """Take the top card of a building deck, reshuffling its discard (all but the top) when empty.

    Returns -1 when neither the deck nor the discard can give a card.
    """
    deck = state.decks[pile]
    if not deck:
        disc = state.discards[pile]
        if len(disc) < 2:
            return -1
        deck = disc[:-1]
        state.discards[pile] = disc[-1:]
        for c in deck:
            state.facedown[c] = False
            state.know[c] = 0
        state.rng.shuffle(deck)
        state.decks[pile] = deck
        w = PILE_WORD[pile]
        ev.append(
            Event(f"the {w} deck was empty: its discard pile except the top card was shuffled into a new {w} deck")
        )
    return deck.pop()


def draw_strategy(state: State, ev: Events) -> int:
    """Take the top strategy, reshuffling the whole strategy discard when the deck is empty (-1 if none)."""
    deck = state.decks[2]
    if not deck:
        disc = state.discards[2]
        if not disc:
            return -1
        deck = disc[:]
        disc.clear()
        for c in deck:
            state.know[c] = 0
        state.rng.shuffle(deck)
        state.decks[2] = deck
        ev.append(Event("the strategy deck was empty: the strategy discard pile was shuffled into a new strategy deck"))
    return deck.pop()


def take_strategy(state: State, seat: int, ev: Events) -> int:
    """``seat`` takes the top strategy (known to it only); return it, or -1 when none is left."""
    c = draw_strategy(state, ev)
    if c >= 0:
        add_strategy(state, seat, c)
        known_to(state, c, seat)
    return c


def discard_building(state: State, card: int) -> None:
    """Put a building card face up on its own discard pile (covering a blocked card, if any)."""
    state.discards[CARD_TYPE[card]].append(card)
    make_public(state, card)


def discard_by_strategy(state: State, cards: list[int], owner: int) -> tuple[list[int], list[int]]:
    """Discard building cards lost to a strategy; return (cards named publicly, cards blocked face down).

    In Campeonato the last card put on each pile lies face down and blocks it (ruling
    campeonato-cartas-bloqueadas), known only to ``owner`` (whose cards they were);
    elsewhere all go face up.
    """
    champion = state.config.mode == "campeonato"
    last: dict[int, int] = {}
    for c in cards:
        state.discards[CARD_TYPE[c]].append(c)
        last[CARD_TYPE[c]] = c
    blocked = []
    shown = []
    for c in cards:
        if champion and last[CARD_TYPE[c]] == c:
            blocked.append(c)
            state.facedown[c] = True
            private_to(state, c, owner)
        else:
            make_public(state, c)
            shown.append(c)
    return shown, blocked


_TAKE_FROM = {src: (pile, bool(_SOURCE_BIT[src] & DECK_BITS)) for src, pile in PILE_OF_SOURCE.items()}


def take_from(state: State, seat: int, source: str, ev: Events, verb: str) -> int:
    """Move a building card from ``source`` into ``seat``'s hand; append the events; return the card."""
    pile, deck = _TAKE_FROM[source]
    if deck:
        card = draw_building(state, pile, ev)
        known_to(state, card, seat)
        ev.append(said.took_from(seat, verb, source))
        ev.append(said.you_took_from(seat, card, source))
    else:
        card = state.discards[pile].pop()
        ev.append(said.took_shown(seat, verb, card, source))
    insort(state.hands[seat], card)
    return card


def discard_card_check(card: int, rule: str) -> Refusal | None:
    """Return why ``card`` is never discarded from a hand (not a building card), or ``None`` (``rule``: the step's)."""
    if CARD_TYPE[card] == 2:
        return Refusal(rule, lambda: f"{cn(card)} is a strategy; discard a building card ($ or +R)")
    return None


def hand_discard_check(state: State, seat: int, card: int, rule: str) -> Refusal | None:
    """Return why ``seat`` may not discard ``card`` from its hand now (``rule`` is the step's rule), or ``None``.

    The card part is :func:`discard_card_check`, read from its table (:data:`DISCARD_MOVES`) and
    called only for a card it refuses; the zone part: the card is in the hand.
    """
    if DISCARD_MOVES[card] is None:
        return discard_card_check(card, rule)
    if card not in state.hands[seat]:
        return Refusal(rule, lambda: f"you do not hold {cn(card)} in your hand")
    return None


DISCARD_MOVES: list[Any] = [
    intern(Discard, CARD_ID[c]) if discard_card_check(c, "") is None else None for c in range(N_CARDS)
]
"""The discard of each card that :func:`discard_card_check` accepts (``None`` for the others)."""


def hand_discards(state: State, seat: int) -> list[Any]:
    """Return every discard :func:`hand_discard_check` accepts now: the hand's cards (its zone part) that
    pass its card part (read from :data:`DISCARD_MOVES`)."""
    out = []
    for c in state.hands[seat]:
        m = DISCARD_MOVES[c]
        if m is not None:
            out.append(m)
    return out


def discard_check(rule: str) -> Callable[[State, int, Any], Refusal | None]:
    """Return the check of a discard from the hand in a step whose rule is ``rule`` (:func:`hand_discard_check`)."""

    def check(state: State, seat: int, move: Discard) -> Refusal | None:
        return hand_discard_check(state, seat, CARD_INDEX[move.card], rule)

    return check


def take_discard(state: State, seat: int, move: Discard) -> int:
    """Take the card of a checked discard out of ``seat``'s hand and return it (the caller puts it where it goes)."""
    card = CARD_INDEX[move.card]
    state.hands[seat].remove(card)
    return card


def over_eight(state: State, seat: int) -> bool:
    """Return whether ``seat`` holds more building cards than the rule of 8 allows."""
    return building_count(state, seat) > BUILDING_TARGET


def out_of_step(state: State, move: Any, rule: str, text: str) -> Refusal:
    """Return the refusal of a move that the current step does not take.

    An optimisation or a red out of their moments cite the rulings that set those moments;
    anything else cites the step's own rule with the sentence saying what the step expects.
    """
    t = type(move)
    if t is Optimise:
        return Refusal(
            rid.RULING_OPTIMISE_WHEN,
            "you optimise only on your turn, before your action or between Construir's take and its discard",
        )
    if t is Play and state.step != MAIN and state.step != DOMINATED:
        return Refusal(
            rid.RULING_RED_TIMING,
            "a red strategy is used on your turn before your action, or right after Dominar took it",
        )
    return Refusal(rule, text)


def return_investment(state: State, seat: int, k: int) -> Investment:
    """Take investment ``k`` back into its owner's hand (its green back among its strategies); return it.

    What others know of its cards stays as it was: a face-up investment's cards are known to all
    in the hand, a face-down one's only to its owner.
    """
    inv = state.invs[seat].pop(k)
    add_hand(state, seat, inv.stock)
    add_hand(state, seat, inv.ret)
    if inv.green >= 0:
        add_strategy(state, seat, inv.green)
    return inv


def inv_text(inv: Investment) -> str:
    """Return ``"<$ card> + <+R card>"`` with names and ids."""
    return f"{cn(inv.stock)} + {cn(inv.ret)}"
