"""Market Fortune's rules: setup, the turn's steps, strategies, combat, victory, the three modes.

Each step of a turn has a generator (the legal moves) and a handler (validate, then
apply). Both use the same check functions (``_*_problem`` return ``None`` or the
``(rule_id, sentence)`` of the refusal), so ``legal_moves`` and ``apply`` agree by
construction; handlers validate fully before the first change to the state.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable
from typing import Any

from club_agentes.engine.core import Event, IllegalMove, Result, clockwise_from
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_IND,
    CARD_INDEX,
    CARD_NAME,
    CARD_STRAT,
    CARD_TYPE,
    CARD_VAL,
    INDUSTRIES,
    IS_BLUE,
    IS_GREEN,
    IS_RED,
    IS_YELLOW,
    N_BUILDING,
    N_CARDS,
    RETURN,
    STOCK,
    STRATEGY,
    Effect,
    StrategyDef,
)
from club_agentes.engine.market_fortune.moves import (
    DECLARE,
    DECLINE,
    DOMINATE,
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
    intern,
)
from club_agentes.engine.market_fortune.state import (
    BUILD_DISCARD,
    BUILDING_TARGET,
    CLOSING,
    DOMINATED,
    FORMED,
    MAIN,
    MATCH_TARGET,
    MAX_INVESTMENTS,
    OPTIMISE_COST,
    REACTION,
    RESCUE,
    RETURN_STEP,
    TAKE,
    TRIM,
    WIN_VALUE,
    Attack,
    State,
)

Problem = tuple[str, str] | None
Events = list[Event]

BUILDING_SOURCES = ("stock-deck", "return-deck", "stock-discard", "return-discard")
DECK_SOURCES = ("stock-deck", "return-deck")
_SOURCE_PILE = {"stock-deck": STOCK, "return-deck": RETURN, "stock-discard": STOCK, "return-discard": RETURN}
_PILE_WORD = ("$", "+R")
# Move values prebuilt per card (moves are immutable), so listing legal moves allocates little.
BUILD_MOVES = {src: intern(Build, src) for src in BUILDING_SOURCES}
TAKE_MOVES = {src: intern(Take, src) for src in BUILDING_SOURCES}
DISCARD_MOVES = [intern(Discard, CARD_ID[c]) for c in range(N_BUILDING)]
DEFEND_MOVES = {c: intern(Defend, CARD_ID[c]) for c in range(N_BUILDING, N_CARDS) if IS_BLUE[c]}
RISK_MOVES = [
    {r: intern(Risk, CARD_ID[a], CARD_ID[r]) for r in range(N_BUILDING // 2, N_BUILDING) if CARD_IND[r] == CARD_IND[a]}
    for a in range(N_BUILDING // 2)
]
OPTIMISE_MOVES = [[intern(Optimise, k, CARD_ID[c]) for c in range(N_BUILDING)] for k in range(MAX_INVESTMENTS)]
RETURN_MOVES = [intern(Return, k) for k in range(MAX_INVESTMENTS)]
ATTACH_MOVES = {
    (c, k): intern(Attach, CARD_ID[c], k) for c in range(N_BUILDING, N_CARDS) if IS_GREEN[c] for k in range(4)
}


_CN = [f"{CARD_NAME[c]} ({CARD_ID[c]})" for c in range(N_CARDS)]


def cn(card: int) -> str:
    """Return a card's name with its id, e.g. ``"Acción Energía 3M (MF-A-ENE-3)"``."""
    return _CN[card]


_SHARED: dict[tuple[Any, ...], Event] = {}
_SHARED_MAX = 20_000


def shared_event(key: tuple[Any, ...], make: Callable[[], Event]) -> Event:
    """Return the one Event for a frequent, formulaic ``key`` (events are immutable, so sharing is safe)."""
    e = _SHARED.get(key)
    if e is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        e = _SHARED[key] = make()
    return e


def _strat(card: int) -> StrategyDef:
    s = CARD_STRAT[card]
    assert s is not None
    return s


def building_count(st: State, seat: int) -> int:
    """Return the building cards a seat holds in hand and investments (the rule of 8 counts them)."""
    return len(st.hands[seat]) + 2 * len(st.invs[seat])


def die_plus(st: State) -> bool:
    """Roll the Fortune die (4 '+' faces of 6); return whether it shows '+'."""
    return st.rng.below(6) < 4


def _sign(plus: bool) -> str:
    return "+" if plus else "−"


def inv_value(inv: list[Any]) -> int:
    """Return an investment's face value: Acción + Rendimiento."""
    return CARD_VAL[inv[0]] + CARD_VAL[inv[1]]


def green_bonus(inv: list[Any]) -> int:
    """Return the bonus the green attached to an investment gives now (0 if none or criteria unmet)."""
    g = inv[2]
    if g < 0:
        return 0
    s = _strat(g)
    p = s.params
    if s.effect is Effect.BONUS_LOW_STOCK:
        return p["bonus"] if CARD_VAL[inv[0]] <= p["max_stock"] else 0
    if s.effect is Effect.BONUS_HIGH_RETURN:
        return p["bonus"] if CARD_VAL[inv[1]] >= p["min_return"] else 0
    if s.effect is Effect.BONUS_LOW_TOTAL:
        return p["bonus"] if inv_value(inv) <= p["max_total"] else 0
    raise AssertionError(f"{s.name} is not a green effect")


def yellow_bonus(card: int, invs: list[list[Any]]) -> int:
    """Return the bonus a yellow card gives for a portfolio (0 if its criteria are unmet)."""
    s = _strat(card)
    p = s.params
    industries = [CARD_IND[i[0]] for i in invs]
    if s.effect is Effect.BONUS_SAME_INDUSTRY:
        return p["bonus"] if len(set(industries)) < len(industries) else 0
    if s.effect is Effect.BONUS_DIVERSIFIED:
        return p["bonus"] if len(set(industries)) >= p["industries"] else 0
    if s.effect is Effect.BONUS_DIVIDENDS:
        return p["per"] * sum(1 for i in invs if CARD_VAL[i[1]] >= p["min_return"])
    raise AssertionError(f"{s.name} is not a yellow effect")


def is_leader(st: State, seat: int) -> bool:
    """Líder: nobody has more investments, and the seat has at least 1 (ruling terminos-del-mercado)."""
    n = len(st.invs[seat])
    return n > 0 and all(len(i) <= n for i in st.invs)


def goes_last(st: State, seat: int) -> bool:
    """Ir de último: nobody has fewer investments, and not everyone has the same number."""
    counts = [len(i) for i in st.invs]
    return counts[seat] == min(counts) and max(counts) > counts[seat]


def as_advanced(st: State, seat: int, other: int) -> bool:
    """Igual o más avanzado: ``other`` has as many investments as ``seat`` or more."""
    return len(st.invs[other]) >= len(st.invs[seat])


def portfolio_value(st: State, seat: int, *, yellows: bool = True) -> int:
    """Return a seat's portfolio value: face values, green bonuses and (optionally) its yellows' bonuses."""
    invs = st.invs[seat]
    total = sum(inv_value(i) + green_bonus(i) for i in invs)
    if yellows:
        total += sum(yellow_bonus(c, invs) for c in st.strats[seat] if IS_YELLOW[c])
    return total


def log_events(st: State, events: Events) -> None:
    """Keep the last events in the state (a bounded deque), for views ("what happened")."""
    st.log.extend(events)


# ---------------------------------------------------------------------------- piles


def _make_public(st: State, card: int) -> None:
    st.know[card] = st.all_mask


def can_draw_building(st: State, pile: int) -> bool:
    """Return whether a building deck can give a card (itself, or by reshuffling its discard)."""
    return bool(st.decks[pile]) or len(st.discards[pile]) >= 2


def draw_building(st: State, pile: int, ev: Events) -> int:
    """Take the top card of a building deck, reshuffling its discard (all but the top) when empty.

    Returns -1 when neither the deck nor the discard can give a card.
    """
    deck = st.decks[pile]
    if not deck:
        disc = st.discards[pile]
        if len(disc) < 2:
            return -1
        deck = disc[:-1]
        st.discards[pile] = disc[-1:]
        for c in deck:
            st.facedown[c] = False
        st.rng.shuffle(deck)
        st.decks[pile] = deck
        w = _PILE_WORD[pile]
        ev.append(
            Event(f"the {w} deck was empty: its discard pile except the top card was shuffled into a new {w} deck")
        )
    return deck.pop()


def can_draw_strategy(st: State) -> bool:
    """Return whether the strategy deck can give a card (itself, or by reshuffling its discard)."""
    return bool(st.decks[2]) or bool(st.discards[2])


def draw_strategy(st: State, ev: Events) -> int:
    """Take the top strategy, reshuffling the whole strategy discard when the deck is empty (-1 if none)."""
    deck = st.decks[2]
    if not deck:
        disc = st.discards[2]
        if not disc:
            return -1
        deck = disc[:]
        disc.clear()
        st.rng.shuffle(deck)
        st.decks[2] = deck
        ev.append(Event("the strategy deck was empty: the strategy discard pile was shuffled into a new strategy deck"))
    return deck.pop()


def discard_building(st: State, card: int) -> None:
    """Put a building card face up on its own discard pile (covering a blocked card, if any)."""
    st.discards[CARD_TYPE[card]].append(card)
    st.know[card] = st.all_mask


def _discard_by_strategy(st: State, cards: list[int], seat: int) -> tuple[list[int], list[int]]:
    """Discard building cards lost to a strategy; return (cards named publicly, cards blocked face down).

    In Campeonato the last card put on each pile lies face down and blocks it
    (ruling campeonato-cartas-bloqueadas); elsewhere all go face up.
    """
    champion = st.cfg.mode == "campeonato"
    last: dict[int, int] = {}
    for c in cards:
        st.discards[CARD_TYPE[c]].append(c)
        last[CARD_TYPE[c]] = c
    blocked = []
    shown = []
    for c in cards:
        if champion and last[CARD_TYPE[c]] == c:
            blocked.append(c)
            st.facedown[c] = True
        else:
            st.know[c] = st.all_mask
            shown.append(c)
    return shown, blocked


def _add_hand(st: State, seat: int, card: int) -> None:
    insort(st.hands[seat], card)


def _add_strat(st: State, seat: int, card: int) -> None:
    insort(st.strats[seat], card)


def _learn(st: State, card: int, *seats: int) -> None:
    if st.know[card] != st.all_mask:
        for s in seats:
            st.know[card] |= 1 << s


def source_problem(st: State, source: str, *, decks_only: bool = False, rule: str = rid.YOUR_TURN) -> Problem:
    """Return why a building card cannot be taken from ``source`` now, or ``None``."""
    if source == "strategy-discard":
        return rid.STRATEGY_DISCARD, "you may never take a card from the strategy discard pile"
    pile = _SOURCE_PILE[source]
    if source.endswith("deck"):
        if not can_draw_building(st, pile):
            return rid.RULING_DECKS, (
                f"{SOURCE_WORDS[source]} is empty and its discard pile has no card to reshuffle under its top card"
            )
        return None
    if decks_only:
        return rule, f"this strategy takes cards from the $ or +R deck only, not from {SOURCE_WORDS[source]}"
    if not st.discards[pile]:
        return rid.DISCARD_RULE, f"{SOURCE_WORDS[source]} is empty"
    if st.facedown[st.discards[pile][-1]]:
        return rid.RULING_BLOCKED, (
            f"the top card of {SOURCE_WORDS[source]} lies face down, blocked (Campeonato), until a card covers it"
        )
    return None


def take_from(st: State, seat: int, source: str, ev: Events, verb: str) -> int:
    """Move a building card from ``source`` into ``seat``'s hand; append the events; return the card."""
    pile = _SOURCE_PILE[source]
    if source.endswith("deck"):
        card = draw_building(st, pile, ev)
        st.know[card] |= 1 << seat
        ev.append(
            shared_event(
                (1, seat, verb, source), lambda: Event(f"seat {seat} {verb} a card from {SOURCE_WORDS[source]}")
            )
        )
        ev.append(
            shared_event(
                (2, seat, card, source),
                lambda: Event(f"you took {cn(card)} from {SOURCE_WORDS[source]}", (seat,), {"card": CARD_ID[card]}),
            )
        )
    else:
        card = st.discards[pile].pop()
        ev.append(
            shared_event(
                (3, seat, verb, card, source),
                lambda: Event(
                    f"seat {seat} {verb} {cn(card)} from {SOURCE_WORDS[source]}", None, {"card": CARD_ID[card]}
                ),
            )
        )
    _add_hand(st, seat, card)
    return card


# ---------------------------------------------------------------------------- setup and turns


def roll_off(st: State, group: list[int], ev: Events) -> int:
    """Everyone in ``group`` rolls; a single '−' starts (ruling primer-jugador). Return that seat."""
    rnd = 1
    while True:
        rolls = [(s, die_plus(st)) for s in group]
        minus = [s for s, plus in rolls if not plus]
        shown = ", ".join(f"seat {s} {_sign(p)}" for s, p in rolls)
        if len(minus) == 1:
            ev.append(Event(f"first-player roll {rnd}: {shown}; seat {minus[0]} rolled the only − and starts"))
            return minus[0]
        if minus:
            ev.append(Event(f"first-player roll {rnd}: {shown}; seats {_seats(minus)} rolled − and roll again"))
            group = minus
        else:
            again = "everyone rolls" if len(group) == st.n else f"seats {_seats(group)} roll"
            ev.append(Event(f"first-player roll {rnd}: {shown}; nobody rolled −, so {again} again"))
        rnd += 1


def _seats(seats: list[int] | tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in seats)


def n_investments(n: int) -> str:
    """Return ``"1 investment"`` or ``"<n> investments"``."""
    return "1 investment" if n == 1 else f"{n} investments"


def no_such_investment(owner: str, n: int, k: Any) -> str:
    """Return the sentence part refusing investment ``#k`` of an owner (``"you have"``, ``"seat 2 has"``) with ``n``."""
    if n == 0:
        return f"{owner} no investment, so there is no investment #{k}"
    return f"{owner} {n_investments(n)}, numbered 0 to {n - 1}; there is no investment #{k}"


def start_game(st: State, opener: int | None, ev: Events) -> None:
    """Deal a new game (all 180 cards, shuffled) and start the first turn.

    ``opener`` is the previous game's winner in Campeonato; otherwise the die decides.
    """
    st.game_no += 1
    n = st.n
    if not st.know:
        st.know = [0] * N_CARDS
    stock = list(range(0, N_BUILDING // 2))
    ret = list(range(N_BUILDING // 2, N_BUILDING))
    strategies = list(range(N_BUILDING, N_CARDS))
    for deck in (stock, ret, strategies):
        st.rng.shuffle(deck)
    st.decks = [stock, ret, strategies]
    st.discards = [[], [], []]
    st.facedown = [False] * N_CARDS
    st.hands = [[] for _ in range(n)]
    st.strats = [[] for _ in range(n)]
    st.invs = [[] for _ in range(n)]
    st.risk_ban = [False] * n
    st.attack = None
    for seat in range(n):
        hand = [stock.pop() for _ in range(4)] + [ret.pop() for _ in range(4)]
        hand.sort()
        st.hands[seat] = hand
        for c in hand:
            st.know[c] |= 1 << seat
    if st.cfg.mode == "campeonato":
        ev.append(Event(f"game {st.game_no} of the Campeonato match: each seat is dealt 4 $ and 4 +R cards"))
    else:
        ev.append(Event("each seat is dealt 4 $ and 4 +R cards; the three decks lie face down"))
    for seat in range(n):
        names = ", ".join(cn(c) for c in st.hands[seat])
        ev.append(Event(f"your hand: {names}", (seat,), {"hand": [CARD_ID[c] for c in st.hands[seat]]}))
    if opener is None:
        first = roll_off(st, list(range(n)), ev)
    else:
        first = opener
        ev.append(Event(f"seat {first} won the previous game and opens this one"))
    st.opener = first
    st.turn_no = 0
    begin_turn(st, first, ev)


def begin_turn(st: State, seat: int, ev: Events) -> None:
    """Start ``seat``'s turn."""
    st.turn = seat
    st.step = MAIN
    st.acted = False
    st.red_used = False
    st.lucky = False
    st.momentum = -1
    st.drawn = -1
    st.formed = -1
    st.banned = st.risk_ban[seat]
    st.risk_ban[seat] = False
    extra = " (Bloqueo Regulatorio: no Arriesgar this turn)" if st.banned else ""
    number = st.turn_no + 1
    ev.append(shared_event((4, number, seat, extra), lambda: Event(f"turn {number}: seat {seat} is on turn{extra}")))


def end_turn(st: State, ev: Events) -> None:
    """Finish the turn: the rule of 8 first, then the turn limit, then the next seat clockwise."""
    seat = st.turn
    over = building_count(st, seat) - BUILDING_TARGET
    if over > 0:
        st.step = TRIM
        ev.append(Event(f"seat {seat} holds {over + BUILDING_TARGET} building cards and discards down to 8"))
        return
    st.turn_no += 1
    st.momentum = -1
    if st.turn_no >= st.cfg.turn_limit:
        cut_off(st, ev)
        return
    begin_turn(st, (seat + 1) % st.n, ev)


def after_red(st: State, ev: Events) -> None:
    """Continue the turn after a red strategy resolved: back to the action, or end after Dominar."""
    if st.acted:
        end_turn(st, ev)
    else:
        st.step = MAIN


# ---------------------------------------------------------------------------- game end


def _reveal_all(st: State, seat: int, with_yellows: bool) -> None:
    for inv in st.invs[seat]:
        inv[3] = True
        _make_public(st, inv[0])
        _make_public(st, inv[1])
        if inv[2] >= 0:
            _make_public(st, inv[2])
    if with_yellows:
        for c in st.strats[seat]:
            if IS_YELLOW[c]:
                _make_public(st, c)


def describe_portfolio(st: State, seat: int, with_yellows: bool) -> str:
    """Return a public sentence part listing a seat's (face-up) portfolio and bonuses."""
    parts = []
    for k, inv in enumerate(st.invs[seat]):
        g = inv[2]
        gtext = ""
        if g >= 0:
            b = green_bonus(inv)
            gtext = f" with {CARD_NAME[g]} ({'+' + str(b) + 'M' if b else 'criteria not met'})"
        parts.append(f"#{k} {INDUSTRIES[CARD_IND[inv[0]]].name} {CARD_VAL[inv[0]]}M + {CARD_VAL[inv[1]]}M{gtext}")
    text = "; ".join(parts) if parts else "no investments"
    if with_yellows:
        ys = [c for c in st.strats[seat] if IS_YELLOW[c]]
        if ys:
            text += "; yellows: " + ", ".join(f"{cn(c)} +{yellow_bonus(c, st.invs[seat])}M" for c in ys)
    return text


def finish_game(st: State, winners: list[int], values: list[int], reason: str, rule_id: str, ev: Events) -> None:
    """End the current game; in Campeonato credit the winners and deal the next game unless the match is over."""
    mode = st.cfg.mode
    for s in range(st.n):
        if any(not inv[3] for inv in st.invs[s]):
            _reveal_all(st, s, False)
            ev.append(
                Event(
                    f"at the end of the game seat {s} turns its portfolio face up: {describe_portfolio(st, s, False)}"
                )
            )
    ev.append(Event(reason, None, {"winners": winners, "values": values}))
    if mode != "campeonato":
        st.over = True
        st.step = MAIN
        scores = tuple(float(len(st.invs[s])) if mode == "familia" else float(values[s]) for s in range(st.n))
        st.result = Result(tuple(winners), scores, reason, rule_id)
        return
    for w in winners:
        st.totals[w] += values[w]
    st.games.append(
        {"game": st.game_no, "winners": list(winners), "credited": [values[w] for w in winners], "reason": reason}
    )
    totals = ", ".join(f"seat {s} {t}M" for s, t in enumerate(st.totals))
    ev.append(Event(f"match totals after game {st.game_no}: {totals}"))
    top = max(st.totals)
    if top >= MATCH_TARGET or len(st.games) >= st.cfg.game_limit:
        best = tuple(s for s in range(st.n) if st.totals[s] == top)
        if top >= MATCH_TARGET:
            why = f"seat {_seats(best)} reached {top}M, at least 100M, and wins the Campeonato"
            rule = rid.CAMPEONATO
        else:
            why = (
                f"the match reached its limit of {st.cfg.game_limit} games; seat {_seats(best)} "
                f"has the highest total, {top}M, and wins the Campeonato"
            )
            rule = rid.RULING_LIMIT
        ev.append(Event(why))
        st.over = True
        st.step = MAIN
        st.result = Result(best, tuple(float(t) for t in st.totals), why, rule)
        return
    if len(winners) == 1:
        opener: int | None = winners[0]
    elif winners:
        ev.append(Event(f"seats {_seats(winners)} shared the win: they roll to decide who opens the next game"))
        opener = roll_off(st, list(winners), ev)
    else:
        opener = None
    start_game(st, opener, ev)


def cut_off(st: State, ev: Events) -> None:
    """The turn limit is reached: every portfolio is revealed and scored (ruling limite-de-turnos)."""
    mode = st.cfg.mode
    values = []
    for s in range(st.n):
        _reveal_all(st, s, True)
        values.append(portfolio_value(st, s) if mode != "familia" else len(st.invs[s]))
    counts = [len(st.invs[s]) for s in range(st.n)]
    for s in range(st.n):
        ev.append(Event(f"seat {s} reveals: {describe_portfolio(st, s, mode != 'familia')}"))
    key = counts if mode == "familia" else [values[s] * 10 + counts[s] for s in range(st.n)]
    top = max(key)
    winners = [s for s in range(st.n) if key[s] == top] if max(counts) > 0 else []
    limit = st.cfg.turn_limit
    if not winners:
        reason = f"the turn limit of {limit} turns was reached and nobody has an investment: nobody wins this game"
    elif mode == "familia":
        reason = (
            f"the turn limit of {limit} turns was reached: seat {_seats(winners)} wins with the most "
            f"investments ({counts[winners[0]]})"
        )
    else:
        reason = (
            f"the turn limit of {limit} turns was reached: seat {_seats(winners)} wins with the highest "
            f"portfolio ({values[winners[0]]}M)"
        )
    finish_game(st, winners, values, reason, rid.RULING_LIMIT, ev)


# ---------------------------------------------------------------------------- checks shared by moves and handlers


def _card(card_id: str) -> int:
    return CARD_INDEX[card_id]


def risk_problem(st: State, seat: int, stock: int, ret: int) -> Problem:
    """Return why Arriesgar with these two cards is refused, or ``None``."""
    if CARD_TYPE[stock] != STOCK or CARD_TYPE[ret] != RETURN:
        return rid.INVESTMENT, (
            f"an investment is 1 Acción ($) and 1 Rendimiento (+R); you named {cn(stock)} and {cn(ret)}"
        )
    hand = st.hands[seat]
    for c in (stock, ret):
        if c not in hand:
            return rid.INVESTMENT, f"both cards come from your hand, and you do not hold {cn(c)}"
    if CARD_IND[stock] != CARD_IND[ret]:
        return rid.INVESTMENT, (
            f"{CARD_NAME[stock]} is {INDUSTRIES[CARD_IND[stock]].name} and {CARD_NAME[ret]} is "
            f"{INDUSTRIES[CARD_IND[ret]].name}; an investment needs a $ and a +R of the same industry"
        )
    if st.banned:
        return "market-fortune/cartas/bloqueo-regulatorio", (
            "Bloqueo Regulatorio forbids you to Arriesgar on this turn"
        )
    if len(st.invs[seat]) >= MAX_INVESTMENTS:
        return rid.RULING_FOUR_MAX, "you already have 4 investments, the most a portfolio holds"
    return None


def optimise_problem(st: State, seat: int, k: int, card: int) -> Problem:
    """Return why this optimisation swap is refused, or ``None``."""
    invs = st.invs[seat]
    if not 0 <= k < len(invs):
        return rid.OPTIMISATION, no_such_investment("you have", len(invs), k)
    inv = invs[k]
    if inv[3]:
        return rid.OPTIMISATION, f"investment #{k} is face up; flipped investments can no longer be modified"
    if CARD_TYPE[card] == STRATEGY:
        return rid.OPTIMISATION, f"{cn(card)} is a strategy; an optimisation swaps a $ for a $ or a +R for a +R"
    if card not in st.hands[seat]:
        return rid.OPTIMISATION, f"the card put into an investment comes from your hand, and you do not hold {cn(card)}"
    if CARD_IND[card] != CARD_IND[inv[0]]:
        return rid.RULING_SAME_INDUSTRY, (
            f"investment #{k} is of {INDUSTRIES[CARD_IND[inv[0]]].name} and {CARD_NAME[card]} is of "
            f"{INDUSTRIES[CARD_IND[card]].name}; the swapped card must keep the investment's industry"
        )
    return None


def attach_problem(st: State, seat: int, card: int, k: int, only: int) -> Problem:
    """Return why attaching this green card to investment ``k`` is refused, or ``None``."""
    if CARD_TYPE[card] != STRATEGY:
        return rid.GREEN, f"{cn(card)} is a building card; only a green strategy is attached to an investment"
    if card not in st.strats[seat]:
        return rid.GREEN, f"you do not hold {cn(card)}"
    if not IS_GREEN[card]:
        return rid.GREEN, f"{cn(card)} is not a green strategy; only greens are attached to investments"
    if card == st.momentum:
        return rid.RULING_MOMENTUM, (
            f"you took {cn(card)} by Momentum this turn; a green taken by Momentum is attached on a later turn"
        )
    invs = st.invs[seat]
    if not 0 <= k < len(invs):
        return rid.GREEN, no_such_investment("you have", len(invs), k)
    if only >= 0 and k != only:
        return rid.GREEN, f"when you form an investment its green goes on that investment, #{only}, not on #{k}"
    if invs[k][2] >= 0:
        return rid.ONE_GREEN, f"investment #{k} already carries a green strategy; one green per investment"
    return None


_PARAM_FIELDS = {
    Effect.STEAL_STRATEGY: ("target",),
    Effect.CORRECTION: ("target", "investment"),
    Effect.FREE_RETURN_SWAP: ("investment", "swap"),
    Effect.DISCARD_SWAP: ("source", "swap"),
    Effect.FEDERAL_AUDIT: ("target",),
    Effect.TRADE: ("target",),
    Effect.REGULATORY_BLOCK: ("target",),
}


def _rival_problem(st: State, seat: int, target: int, s: StrategyDef) -> Problem:
    if not 0 <= target < st.n or target == seat:
        return s.section, f"{s.name} targets a rival: a seat from 0 to {st.n - 1} other than yours ({seat})"
    return None


def group_targets(st: State, seat: int, effect: Effect) -> tuple[int, ...]:
    """Return the rivals a group attack reaches, clockwise from the attacker (public information only)."""
    order = clockwise_from(seat, st.n, include_first=False)
    if effect is Effect.INFLATION:
        return tuple(s for s in order if st.hands[s])
    return tuple(s for s in order if st.invs[s])


def red_effect_problem(st: State, seat: int, card: int, move: Play) -> Problem:
    """Return why the card-specific part of playing a red strategy is refused, or ``None``."""
    s = _strat(card)
    e = s.effect
    needed = _PARAM_FIELDS.get(e, ())
    given = [f for f in ("target", "investment", "swap", "source") if getattr(move, f) is not None]
    if set(given) != set(needed):
        what = ", ".join(needed) if needed else "no other field"
        return s.section, f"{s.name} takes {what}; the move gave {', '.join(given) if given else 'none'}"
    if e is Effect.STEAL_STRATEGY:
        p = _rival_problem(st, seat, move.target, s)  # type: ignore[arg-type]
        if p is None and not st.strats[move.target]:  # type: ignore[index]
            p = s.section, f"seat {move.target} holds no strategy to take"
        return p
    if e is Effect.CORRECTION:
        p = _rival_problem(st, seat, move.target, s)  # type: ignore[arg-type]
        if p is None and not as_advanced(st, seat, move.target):  # type: ignore[arg-type]
            p = (
                s.section,
                (
                    f"seat {move.target} has {n_investments(len(st.invs[move.target]))} and you have "  # type: ignore[index]
                    f"{len(st.invs[seat])}; Corrección targets a rival as advanced as you or more"
                ),
            )
        if p is None and not 0 <= move.investment < len(st.invs[move.target]):  # type: ignore[index,operator]
            n = len(st.invs[move.target])  # type: ignore[index]
            p = s.section, no_such_investment(f"seat {move.target} has", n, move.investment)
        return p
    if e is Effect.FEDERAL_AUDIT:
        p = _rival_problem(st, seat, move.target, s)  # type: ignore[arg-type]
        if p is None and not any(not i[3] for i in st.invs[move.target]):  # type: ignore[index]
            p = s.section, f"seat {move.target} has no face-down investment to audit"
        return p
    if e is Effect.TRADE:
        p = _rival_problem(st, seat, move.target, s)  # type: ignore[arg-type]
        if p is None and not st.hands[seat]:
            p = s.section, "you hold no building card to give"
        if p is None and not st.hands[move.target]:  # type: ignore[index]
            p = s.section, f"seat {move.target} holds no building card in hand"
        return p
    if e is Effect.REGULATORY_BLOCK:
        p = _rival_problem(st, seat, move.target, s)  # type: ignore[arg-type]
        if p is None and not is_leader(st, move.target):  # type: ignore[arg-type]
            most = max(len(i) for i in st.invs)
            p = (
                s.section,
                (
                    f"seat {move.target} has {n_investments(len(st.invs[move.target]))} and the most anyone has "  # type: ignore[index]
                    f"is {most}; Bloqueo Regulatorio targets a leader (the most investments, at least 1)"
                ),
            )
        return p
    if e in (Effect.MARKET_COLLAPSE, Effect.SYSTEMIC_RISK):
        if not group_targets(st, seat, e):
            return s.section, f"no rival has an investment for {s.name} to hit"
        return None
    if e is Effect.INFLATION:
        if not group_targets(st, seat, e):
            return s.section, "no rival holds a building card in hand"
        return None
    if e is Effect.FREE_RETURN_SWAP:
        invs = st.invs[seat]
        k = move.investment
        if not 0 <= k < len(invs):  # type: ignore[operator]
            return s.section, no_such_investment("you have", len(invs), k)
        inv = invs[k]  # type: ignore[index]
        c = _card(move.swap)  # type: ignore[arg-type]
        if inv[3]:
            return s.section, f"investment #{k} is face up; flipped investments can no longer be modified"
        if CARD_TYPE[c] != RETURN:
            return s.section, f"{s.name} puts a +R into the investment, and {cn(c)} is not a +R card"
        if c not in st.hands[seat]:
            return s.section, f"the +R comes from your hand, and you do not hold {cn(c)}"
        if CARD_IND[c] != CARD_IND[inv[0]]:
            return rid.RULING_SAME_INDUSTRY, (
                f"investment #{k} is of {INDUSTRIES[CARD_IND[inv[0]]].name}; {CARD_NAME[c]} is another industry"
            )
        return None
    if e is Effect.DISCARD_SWAP:
        src = move.source
        if src not in ("stock-discard", "return-discard"):
            return s.section, f"{s.name} takes the top card of the $ or +R discard pile, not of {SOURCE_WORDS[src]}"  # type: ignore[index]
        p = source_problem(st, src)  # type: ignore[arg-type]
        if p is not None:
            return p
        c = _card(move.swap)  # type: ignore[arg-type]
        if c not in st.hands[seat]:
            return s.section, f"you give a building card from your hand, and you do not hold {cn(c)}"
        return None
    if e is Effect.EXTRA_BUILD:
        if all(source_problem(st, src) is not None for src in BUILDING_SOURCES):
            return rid.RULING_DECKS, "no deck or discard pile has a building card to take"
        return None
    if e is Effect.LIQUIDITY:
        if not (can_draw_building(st, STOCK) or can_draw_building(st, RETURN)):
            return rid.RULING_DECKS, "neither the $ deck nor the +R deck has a card to take"
        return None
    if e is Effect.RESCUE:
        count = building_count(st, seat)
        if count >= BUILDING_TARGET:
            return s.section, f"you hold {count} building cards; Rescate is used only with fewer than 8"
        if not (can_draw_building(st, STOCK) or can_draw_building(st, RETURN)):
            return rid.RULING_DECKS, "neither the $ deck nor the +R deck has a card to take"
        return None
    if e is Effect.LUCKY_INVESTOR:
        if st.acted:
            return s.section, "Inversor Suertudo is used before your action, and you have already taken it"
        return None
    return None  # FORTUNE_ROLL: always playable


def play_problem(st: State, seat: int, move: Play, only: int) -> Problem:
    """Return why playing this red strategy is refused now, or ``None`` (``only``: the card Dominar drew)."""
    card = _card(move.card)
    s = CARD_STRAT[card]
    if s is None:
        return rid.RED, f"{cn(card)} is a building card, not a strategy"
    if card not in st.strats[seat]:
        return rid.RED, f"you do not hold {cn(card)}"
    if IS_BLUE[card]:
        return rid.BLUE, f"{cn(card)} is blue: it is used out of your turn, when an attack hits you"
    if IS_GREEN[card]:
        return rid.GREEN, f"{cn(card)} is green: it is attached to an investment when you form it or declare victory"
    if IS_YELLOW[card]:
        return rid.YELLOW, f"{cn(card)} is yellow: it stays in your hand until you declare victory"
    if card == st.momentum:
        return rid.MOMENTUM, f"you took {cn(card)} by Momentum this turn and cannot use it until a later turn"
    if st.red_used:
        return rid.RULING_RED_TIMING, "you have already used a red strategy this turn; one red strategy per turn"
    if only >= 0 and card != only:
        return rid.RULING_RED_TIMING, (
            f"after Dominar you may use only the strategy you just took, {cn(only)}, and only if it is red"
        )
    return red_effect_problem(st, seat, card, move)


def _play(cid: str, target: int | None, k: int | None, swap: str | None, source: str | None) -> Play:
    return intern(Play, cid, target, k, swap, source)


_RED_CARDS = [c for c in range(N_BUILDING, N_CARDS) if IS_RED[c]]
_PLAIN = {c: _play(CARD_ID[c], None, None, None, None) for c in _RED_CARDS}
_AT = {c: [_play(CARD_ID[c], t, None, None, None) for t in range(6)] for c in _RED_CARDS}
_AT_INV = {
    c: [[_play(CARD_ID[c], t, k, None, None) for k in range(MAX_INVESTMENTS)] for t in range(6)] for c in _RED_CARDS
}


def _v_steal(st: State, seat: int, card: int) -> list[Play]:
    at = _AT[card]
    strats = st.strats
    return [at[t] for t in range(st.n) if t != seat and strats[t]]


def _v_correction(st: State, seat: int, card: int) -> list[Play]:
    at = _AT_INV[card]
    invs = st.invs
    mine = len(invs[seat])
    return [at[t][k] for t in range(st.n) if t != seat and len(invs[t]) >= mine for k in range(len(invs[t]))]


def _v_audit(st: State, seat: int, card: int) -> list[Play]:
    at = _AT[card]
    invs = st.invs
    return [at[t] for t in range(st.n) if t != seat and any(not i[3] for i in invs[t])]


def _v_trade(st: State, seat: int, card: int) -> list[Play]:
    hands = st.hands
    if not hands[seat]:
        return []
    at = _AT[card]
    return [at[t] for t in range(st.n) if t != seat and hands[t]]


def _v_block(st: State, seat: int, card: int) -> list[Play]:
    at = _AT[card]
    return [at[t] for t in range(st.n) if t != seat and is_leader(st, t)]


def _v_return_swap(st: State, seat: int, card: int) -> list[Play]:
    out: list[Play] = []
    cid = CARD_ID[card]
    hand = st.hands[seat]
    for k, inv in enumerate(st.invs[seat]):
        if not inv[3]:
            ind = CARD_IND[inv[0]]
            out.extend(
                _play(cid, None, k, CARD_ID[c], None) for c in hand if c >= N_BUILDING // 2 and CARD_IND[c] == ind
            )
    return out


def _v_discard_swap(st: State, seat: int, card: int) -> list[Play]:
    out: list[Play] = []
    cid = CARD_ID[card]
    for pile, src in ((STOCK, "stock-discard"), (RETURN, "return-discard")):
        disc = st.discards[pile]
        if disc and not st.facedown[disc[-1]]:
            out.extend(_play(cid, None, None, CARD_ID[c], src) for c in st.hands[seat])
    return out


def _v_rivals_invested(st: State, seat: int, card: int) -> list[Play]:
    invs = st.invs
    return [_PLAIN[card]] if any(invs[t] for t in range(st.n) if t != seat) else []


def _v_rivals_holding(st: State, seat: int, card: int) -> list[Play]:
    hands = st.hands
    return [_PLAIN[card]] if any(hands[t] for t in range(st.n) if t != seat) else []


def _v_any_source(st: State, seat: int, card: int) -> list[Play]:
    return [_PLAIN[card]] if any(_source_open(st, src) for src in BUILDING_SOURCES) else []


def _v_any_deck(st: State, seat: int, card: int) -> list[Play]:
    return [_PLAIN[card]] if can_draw_building(st, STOCK) or can_draw_building(st, RETURN) else []


def _v_rescue(st: State, seat: int, card: int) -> list[Play]:
    if building_count(st, seat) >= BUILDING_TARGET:
        return []
    return _v_any_deck(st, seat, card)


def _v_lucky(st: State, seat: int, card: int) -> list[Play]:
    return [] if st.acted else [_PLAIN[card]]


def _v_always(st: State, seat: int, card: int) -> list[Play]:
    return [_PLAIN[card]]


_VARIANTS_BY_EFFECT: dict[Effect, Callable[[State, int, int], list[Play]]] = {
    Effect.STEAL_STRATEGY: _v_steal,
    Effect.CORRECTION: _v_correction,
    Effect.FEDERAL_AUDIT: _v_audit,
    Effect.TRADE: _v_trade,
    Effect.REGULATORY_BLOCK: _v_block,
    Effect.FREE_RETURN_SWAP: _v_return_swap,
    Effect.DISCARD_SWAP: _v_discard_swap,
    Effect.MARKET_COLLAPSE: _v_rivals_invested,
    Effect.SYSTEMIC_RISK: _v_rivals_invested,
    Effect.INFLATION: _v_rivals_holding,
    Effect.EXTRA_BUILD: _v_any_source,
    Effect.LIQUIDITY: _v_any_deck,
    Effect.RESCUE: _v_rescue,
    Effect.LUCKY_INVESTOR: _v_lucky,
    Effect.FORTUNE_ROLL: _v_always,
}
_VARIANTS = {c: _VARIANTS_BY_EFFECT[_strat(c).effect] for c in _RED_CARDS}


def play_variants(st: State, seat: int, card: int) -> list[Play]:
    """Return every legal way to play a red card now (the card-specific fields filled in).

    Mirrors :func:`red_effect_problem` (a test checks that the two agree).
    """
    return _VARIANTS[card](st, seat, card)


def _source_open(st: State, src: str) -> bool:
    pile = _SOURCE_PILE[src]
    if src.endswith("deck"):
        return bool(st.decks[pile]) or len(st.discards[pile]) >= 2
    disc = st.discards[pile]
    return bool(disc) and not st.facedown[disc[-1]]


def _playable_reds(st: State, seat: int) -> list[Play]:
    out: list[Play] = []
    for c in st.strats[seat]:
        if IS_RED[c] and c != st.momentum:
            out.extend(play_variants(st, seat, c))
    return out


def defend_problem(st: State, seat: int, card: int) -> Problem:
    """Return why defending with this card is refused, or ``None``."""
    atk = st.attack
    assert atk is not None
    if CARD_TYPE[card] != STRATEGY:
        return rid.COMBAT, f"{cn(card)} is a building card; only a blue strategy cancels an attack"
    if card not in st.strats[seat]:
        return rid.COMBAT, f"you do not hold {cn(card)}"
    if not IS_BLUE[card]:
        return rid.COMBAT, f"{cn(card)} is not blue; only a blue strategy cancels an attack"
    s = _strat(card)
    red = _strat(atk.card)
    if red.spec.attacks not in s.spec.defends:
        what = {"cards": "the cards of your hand", "investments": "your investments", "turn": "your turn"}
        return s.section, (
            f"{s.name} cancels only attacks on {' or '.join(what[d] for d in s.spec.defends)}, "
            f"and {red.name} attacks {what[red.spec.attacks]}"
        )
    return None


# ---------------------------------------------------------------------------- effects


def _inv_text(inv: list[Any]) -> str:
    return f"{cn(inv[0])} + {cn(inv[1])}"


def _lose_investments(st: State, seat: int, lost: list[list[Any]], ev: Events, why: str) -> None:
    cards = []
    for inv in lost:
        cards.append(inv[0])
        cards.append(inv[1])
    private = "; ".join(_inv_text(i) for i in lost)
    shown, blocked = _discard_by_strategy(st, cards, seat)
    for inv in lost:
        if inv[2] >= 0:
            st.discards[2].append(inv[2])
            _make_public(st, inv[2])
    greens = [inv[2] for inv in lost if inv[2] >= 0]
    many = len(lost) != 1
    what = f"{len(lost)} investments of seat {seat} go" if many else f"1 investment of seat {seat} goes"
    text = f"{why}: {what} to the discard piles"
    if shown:
        text += " (" + ", ".join(cn(c) for c in shown) + ")"
    if blocked:
        text += f"; {len(blocked)} card{'s' if len(blocked) != 1 else ''} lie face down on top, blocked (Campeonato)"
    if greens:
        text += "; green strategies discarded: " + ", ".join(cn(g) for g in greens)
    ev.append(Event(text))
    ev.append(Event(f"you lost {private}", (seat,)))


def _return_investment(st: State, seat: int, k: int) -> list[Any]:
    inv = st.invs[seat].pop(k)
    _add_hand(st, seat, inv[0])
    _add_hand(st, seat, inv[1])
    if inv[2] >= 0:
        _add_strat(st, seat, inv[2])
    return inv


def hit(st: State, atk: Attack, seat: int, ev: Events) -> None:
    """Apply the attack's effect to ``seat``, who did not defend."""
    s = _strat(atk.card)
    e = s.effect
    a = atk.attacker
    if e is Effect.STEAL_STRATEGY:
        pool = st.strats[seat]
        c = pool.pop(st.rng.below(len(pool)))
        _add_strat(st, a, c)
        _learn(st, c, a, seat)
        ev.append(Event(f"seat {seat} did not defend: seat {a} took 1 of seat {seat}'s strategies at random"))
        ev.append(Event(f"Robo: seat {a} took {cn(c)} from seat {seat}", (a, seat), {"card": CARD_ID[c]}))
    elif e is Effect.MARKET_COLLAPSE:
        lost = st.invs[seat]
        st.invs[seat] = []
        _lose_investments(st, seat, lost, ev, f"seat {seat} did not defend against Colapso de Mercado")
    elif e is Effect.CORRECTION:
        k = atk.investment
        assert k is not None
        inv = _return_investment(st, seat, k)
        public = inv[3]
        text = f"seat {seat} did not defend: Corrección returns investment #{k} to seat {seat}'s hand"
        ev.append(Event(text + (f" ({_inv_text(inv)})" if public else "")))
        ev.append(Event(f"your investment {_inv_text(inv)} returned to your hand", (seat,)))
    elif e is Effect.FEDERAL_AUDIT:
        limit = s.params["max_value"]
        _reveal_all(st, seat, False)
        ev.append(
            Event(
                f"seat {seat} did not defend: Auditoría Federal flips its portfolio face up: "
                f"{describe_portfolio(st, seat, False)}"
            )
        )
        keep = [i for i in st.invs[seat] if inv_value(i) > limit]
        lost = [i for i in st.invs[seat] if inv_value(i) <= limit]
        if lost:
            st.invs[seat] = keep
            _lose_investments(st, seat, lost, ev, f"investments worth {limit}M or less are discarded")
    elif e is Effect.TRADE:
        mine = st.hands[a].pop(st.rng.below(len(st.hands[a])))
        theirs = st.hands[seat].pop(st.rng.below(len(st.hands[seat])))
        _add_hand(st, a, theirs)
        _add_hand(st, seat, mine)
        _learn(st, mine, seat)
        _learn(st, theirs, a)
        ev.append(Event(f"seat {seat} did not defend: seats {a} and {seat} exchanged 1 building card taken at random"))
        ev.append(Event(f"Negociación: seat {a} gave {cn(mine)} and received {cn(theirs)} from seat {seat}", (a, seat)))
    elif e is Effect.REGULATORY_BLOCK:
        st.risk_ban[seat] = True
        ev.append(Event(f"seat {seat} did not defend: it may not Arriesgar on its next turn"))
    elif e is Effect.INFLATION:
        hand = st.hands[seat]
        c = hand.pop(st.rng.below(len(hand)))
        shown, _ = _discard_by_strategy(st, [c], seat)
        if shown:
            ev.append(Event(f"seat {seat} did not defend against Inflación and discarded {cn(c)} at random"))
        else:
            ev.append(
                Event(
                    f"seat {seat} did not defend against Inflación and discarded 1 building card at random, "
                    "face down on its pile, blocked (Campeonato)"
                )
            )
            ev.append(Event(f"Inflación took your {cn(c)}", (seat,)))
    elif e is Effect.SYSTEMIC_RISK:
        plus = die_plus(st)
        if plus:
            ev.append(Event(f"seat {seat} did not defend against Riesgo Sistémico, rolled + and keeps its portfolio"))
        else:
            k = len(st.invs[seat]) - 1
            inv = _return_investment(st, seat, k)
            extra = f" ({_inv_text(inv)})" if inv[3] else ""
            ev.append(
                Event(
                    f"seat {seat} did not defend against Riesgo Sistémico, rolled − and its newest "
                    f"investment #{k}{extra} returns to its hand"
                )
            )
            ev.append(Event(f"your investment {_inv_text(inv)} returned to your hand", (seat,)))


def _self_effect(st: State, seat: int, card: int, move: Play, ev: Events) -> None:
    s = _strat(card)
    e = s.effect
    if e is Effect.FORTUNE_ROLL:
        plus = die_plus(st)
        if plus:
            got = []
            last = goes_last(st, seat)
            for _ in range(s.params["draw_last"] if last else s.params["draw"]):
                c = draw_strategy(st, ev)
                if c < 0:
                    break
                _add_strat(st, seat, c)
                st.know[c] |= 1 << seat
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
        new = _card(move.swap)  # type: ignore[arg-type]
        old = inv[1]
        st.hands[seat].remove(new)
        inv[1] = new
        _add_hand(st, seat, old)
        ev.append(Event(f"Interés Compuesto: seat {seat} swapped the +R of its investment #{k} for a +R from its hand"))
        ev.append(Event(f"you put {cn(new)} into investment #{k} and took {cn(old)} back", (seat,)))
    elif e is Effect.DISCARD_SWAP:
        give = _card(move.swap)  # type: ignore[arg-type]
        pile = _SOURCE_PILE[move.source]  # type: ignore[index]
        got = st.discards[pile].pop()
        st.hands[seat].remove(give)
        _add_hand(st, seat, got)
        # The card given is discarded by a strategy: in Campeonato it lies face down and blocks its pile.
        shown, _ = _discard_by_strategy(st, [give], seat)
        took = f"Movimiento Astuto: seat {seat} took {cn(got)} from the {_PILE_WORD[pile]} discard pile and "
        if shown:
            ev.append(Event(took + f"discarded {cn(give)}"))
        else:
            where = _PILE_WORD[CARD_TYPE[give]]
            ev.append(Event(took + f"discarded 1 card face down on the {where} discard pile, blocked (Campeonato)"))
            ev.append(Event(f"Movimiento Astuto: you discarded {cn(give)} face down", (seat,)))
    elif e is Effect.LIQUIDITY:
        for pile in (STOCK, RETURN):
            if can_draw_building(st, pile):
                take_from(st, seat, DECK_SOURCES[pile], ev, "took (Liquidez)")
    elif e is Effect.LUCKY_INVESTOR:
        st.lucky = True
        ev.append(Event(f"Inversor Suertudo: if seat {seat} risks this turn, its investment succeeds without the die"))


def play_red(st: State, seat: int, card: int, move: Play, ev: Events) -> None:
    """Use a red strategy (already validated): open the attack's reaction window or apply its effect."""
    s = _strat(card)
    st.red_used = True
    st.strats[seat].remove(card)
    _make_public(st, card)
    spec = s.spec
    if spec.target != "self":
        if spec.target == "one":
            targets: tuple[int, ...] = (move.target,)  # type: ignore[assignment]
        else:
            targets = group_targets(st, seat, s.effect)
        st.attack = Attack(seat, card, targets, move.investment)
        st.step = REACTION
        what = f" on investment #{move.investment}" if move.investment is not None else ""
        ev.append(
            Event(
                f"seat {seat} plays {cn(card)} against seat{'s' if len(targets) > 1 else ''} {_seats(targets)}{what}; "
                f"each may answer with a blue strategy, clockwise from seat {seat}",
                None,
                {"card": CARD_ID[card], "targets": list(targets)},
            )
        )
        return
    ev.append(Event(f"seat {seat} plays {cn(card)}", None, {"card": CARD_ID[card]}))
    if s.effect is Effect.EXTRA_BUILD:
        st.discards[2].append(card)
        st.step = TAKE
        return
    if s.effect is Effect.RESCUE:
        st.discards[2].append(card)
        st.step = RESCUE
        return
    _self_effect(st, seat, card, move, ev)
    st.discards[2].append(card)
    after_red(st, ev)


def finish_attack(st: State, ev: Events) -> None:
    """Close a resolved attack: the red card goes to the strategy discard and the turn goes on."""
    atk = st.attack
    assert atk is not None
    st.discards[2].append(atk.card)
    st.attack = None
    after_red(st, ev)


# ---------------------------------------------------------------------------- declarations


def start_declaration(st: State, seat: int, ev: Events) -> None:
    """Declare victory: greens may still be attached, then the portfolio is counted."""
    ev.append(Event(f"seat {seat} declares victory with 4 investments"))
    # Asked whenever the seat holds any strategy and an investment lacks a green (both public), not
    # only when it holds a green it can attach (ruling informacion-oculta).
    if _may_hold_attachable(st, seat):
        st.step = CLOSING
    else:
        count_declaration(st, seat, ev)


def _may_hold_attachable(st: State, seat: int) -> bool:
    """Whether, by public information, the seat might still attach a green: it holds a strategy
    other than its Momentum card and an investment carries no green."""
    held = len(st.strats[seat]) - (st.momentum in st.strats[seat])
    return held > 0 and any(inv[2] < 0 for inv in st.invs[seat])


def count_declaration(st: State, seat: int, ev: Events) -> None:
    """Flip the portfolio, reveal the yellows and count: 25M or more wins; less fails."""
    _reveal_all(st, seat, True)
    value = portfolio_value(st, seat)
    ev.append(Event(f"seat {seat} flips its portfolio: {describe_portfolio(st, seat, True)}; total {value}M"))
    if value >= WIN_VALUE:
        values = [portfolio_value(st, s, yellows=False) if s != seat else value for s in range(st.n)]
        reason = f"seat {seat} declared victory with {value}M (4 investments and 25M or more) and wins"
        finish_game(st, [seat], values, reason, rid.FINAL_COUNT, ev)
        return
    ev.append(Event(f"seat {seat}'s declaration fails with {value}M, under 25M: it returns one investment to its hand"))
    st.step = RETURN_STEP


def _attachable(st: State, seat: int, only: int) -> list[Attach]:
    out: list[Attach] = []
    invs = st.invs[seat]
    for c in st.strats[seat]:
        if IS_GREEN[c] and c != st.momentum:
            for k in range(len(invs)) if only < 0 else (only,):
                if invs[k][2] < 0:
                    out.append(ATTACH_MOVES[(c, k)])
    return out


# ---------------------------------------------------------------------------- step generators


_BUILD_STOCK_DECK = BUILD_MOVES["stock-deck"]
_BUILD_RETURN_DECK = BUILD_MOVES["return-deck"]
_BUILD_STOCK_DISCARD = BUILD_MOVES["stock-discard"]
_BUILD_RETURN_DISCARD = BUILD_MOVES["return-discard"]


def gen_main(st: State, seat: int) -> list[Any]:
    """Legal moves at the start of the turn: the three actions and the free plays before them."""
    out: list[Any] = []
    decks = st.decks
    discards = st.discards
    facedown = st.facedown
    d0 = discards[0]
    d1 = discards[1]
    if decks[0] or len(d0) >= 2:
        out.append(_BUILD_STOCK_DECK)
    if decks[1] or len(d1) >= 2:
        out.append(_BUILD_RETURN_DECK)
    if d0 and not facedown[d0[-1]]:
        out.append(_BUILD_STOCK_DISCARD)
    if d1 and not facedown[d1[-1]]:
        out.append(_BUILD_RETURN_DISCARD)
    invs = st.invs[seat]
    hand = st.hands[seat]
    if not st.banned and len(invs) < MAX_INVESTMENTS and hand:
        split = bisect_left(hand, 60)
        if 0 < split < len(hand):
            rets = hand[split:]
            for a in hand[:split]:
                ind = CARD_IND[a]
                row = RISK_MOVES[a]
                for r in rets:
                    if CARD_IND[r] == ind:
                        out.append(row[r])
    if decks[2] or discards[2]:
        out.append(DOMINATE)
    if not out:
        out.append(PASS)
    if not st.red_used:
        momentum = st.momentum
        for c in st.strats[seat]:
            if IS_RED[c] and c != momentum:
                out.extend(_VARIANTS[c](st, seat, c))
    if invs:
        out.extend(_optimise_moves(st, seat))
        if len(invs) == MAX_INVESTMENTS and st.cfg.mode != "familia":
            out.append(DECLARE)
    return out


def gen_discard(st: State, seat: int) -> list[Any]:
    """Legal moves when a building card must be discarded: one per card in hand."""
    return [DISCARD_MOVES[c] for c in st.hands[seat]]


def _optimise_moves(st: State, seat: int) -> list[Any]:
    out: list[Any] = []
    hand = st.hands[seat]
    for k, inv in enumerate(st.invs[seat]):
        if not inv[3]:
            ind = CARD_IND[inv[0]]
            row = OPTIMISE_MOVES[k]
            for c in hand:
                if CARD_IND[c] == ind:
                    out.append(row[c])
    return out


def gen_build_discard(st: State, seat: int) -> list[Any]:
    """Legal moves of Construir's second half: discard 1 card, or optimise first (ruling optimizacion-en-tu-turno)."""
    out = gen_discard(st, seat)
    out.extend(_optimise_moves(st, seat))
    return out


def gen_formed(st: State, seat: int) -> list[Any]:
    """Legal moves after a successful Arriesgar: attach a green to it, declare with 4, or skip."""
    out: list[Any] = _attachable(st, seat, st.formed)
    if len(st.invs[seat]) == MAX_INVESTMENTS and st.cfg.mode != "familia":
        out.append(DECLARE)
    out.append(SKIP)
    return out


def gen_closing(st: State, seat: int) -> list[Any]:
    """Legal moves during a declaration: attach greens, then reveal."""
    out: list[Any] = _attachable(st, seat, -1)
    out.append(REVEAL)
    return out


def gen_return(st: State, seat: int) -> list[Any]:
    """Legal moves after a failed declaration: which investment returns to the hand."""
    return RETURN_MOVES[: len(st.invs[seat])]


def gen_dominated(st: State, seat: int) -> list[Any]:
    """Legal moves after Dominar: use the strategy just taken if it is a usable red, or keep it."""
    c = st.drawn
    out: list[Any] = play_variants(st, seat, c) if IS_RED[c] else []
    out.append(SKIP)
    return out


def gen_take(st: State, seat: int) -> list[Any]:
    """Legal moves of Comprar Más: any building source."""
    return [TAKE_MOVES[s] for s in BUILDING_SOURCES if _source_open(st, s)]


def gen_rescue(st: State, seat: int) -> list[Any]:
    """Legal moves of Rescate: the $ or +R deck."""
    return [TAKE_MOVES[s] for s in DECK_SOURCES if _source_open(st, s)]


def gen_reaction(st: State, seat: int) -> list[Any]:
    """Legal moves of a polled seat: each blue that can cancel this attack, or decline."""
    out: list[Any] = []
    for c in st.strats[seat]:
        if IS_BLUE[c] and defend_problem(st, seat, c) is None:
            out.append(DEFEND_MOVES[c])
    out.append(DECLINE)
    return out


GENERATORS: dict[str, Callable[[State, int], list[Any]]] = {
    MAIN: gen_main,
    BUILD_DISCARD: gen_build_discard,
    OPTIMISE_COST: gen_discard,
    TRIM: gen_discard,
    FORMED: gen_formed,
    CLOSING: gen_closing,
    RETURN_STEP: gen_return,
    DOMINATED: gen_dominated,
    TAKE: gen_take,
    RESCUE: gen_rescue,
    REACTION: gen_reaction,
}


# ---------------------------------------------------------------------------- step handlers


def _refuse(problem: Problem) -> None:
    if problem is not None:
        raise IllegalMove(*problem)


# What each step expects, for refusing a move of the wrong type: (rule id, sentence).
_EXPECTED: dict[str, tuple[str, str]] = {
    BUILD_DISCARD: (rid.YOUR_TURN, "Construir is not finished: discard 1 $ or +R card from your hand"),
    OPTIMISE_COST: (rid.OPTIMISATION, "the optimisation is not paid yet: discard 1 building card from your hand"),
    TRIM: (rid.RULE_OF_EIGHT, "your turn ends with more than 8 building cards: discard down to 8"),
    FORMED: (rid.YOUR_TURN, "your action is done: attach a green to the new investment, declare victory or skip"),
    CLOSING: (rid.DECLARE, "you are declaring victory: attach green strategies or reveal your portfolio"),
    RETURN_STEP: (rid.FAILED_DECLARATION, "your declaration failed: choose the investment that returns to your hand"),
    DOMINATED: (
        rid.YOUR_TURN,
        "your action is done: play the strategy you just took if it is a red you can use, or skip to keep it",
    ),
    TAKE: (rid.YOUR_TURN, "Comprar Más is in progress: choose where to take 1 building card from"),
    RESCUE: (rid.YOUR_TURN, "Rescate is in progress: take a card from the $ or +R deck"),
}


def _wrong_type(st: State, move: Any) -> IllegalMove:
    t = type(move)
    if t is Optimise:
        return IllegalMove(
            rid.RULING_OPTIMISE_WHEN,
            "you optimise only on your turn, before your action or between Construir's take and its discard",
        )
    if t is Play and st.step != MAIN and st.step != DOMINATED:
        return IllegalMove(
            rid.RULING_RED_TIMING,
            "a red strategy is used on your turn before your action, or right after Dominar took it",
        )
    rule, text = _EXPECTED[st.step]
    return IllegalMove(rule, text)


def handle_main(st: State, seat: int, move: Any) -> Events:
    """Validate and apply a move at the start of the turn."""
    ev: Events = []
    t = type(move)
    if t is Build:
        _refuse(source_problem(st, move.source))
        st.acted = True
        take_from(st, seat, move.source, ev, "chose Construir and took")
        count = building_count(st, seat)
        if count > BUILDING_TARGET:
            st.step = BUILD_DISCARD
        else:
            ev.append(
                shared_event(
                    (5, seat, count),
                    lambda: Event(f"seat {seat} holds {count} building cards, not more than 8, and discards nothing"),
                )
            )
            end_turn(st, ev)
        return ev
    if t is Risk:
        stock, ret = _card(move.stock), _card(move.ret)
        _refuse(risk_problem(st, seat, stock, ret))
        return _do_risk(st, seat, stock, ret)
    if t is Dominate:
        if not can_draw_strategy(st):
            raise IllegalMove(rid.RULING_DECKS, "the strategy deck and its discard pile are both empty")
        st.acted = True
        c = draw_strategy(st, ev)
        _add_strat(st, seat, c)
        st.know[c] |= 1 << seat
        ev.append(shared_event((6, seat), lambda: Event(f"seat {seat} chose Dominar and took 1 strategy")))
        ev.append(Event(f"you took {cn(c)}", (seat,), {"card": CARD_ID[c]}))
        # Whether the seat may still use a red is public (red_used); the drawn card's colour is not,
        # so every Dominar that could be followed by a red asks the same question (ruling informacion-oculta).
        if not st.red_used:
            st.drawn = c
            st.step = DOMINATED
        else:
            end_turn(st, ev)
        return ev
    if t is Play:
        _refuse(play_problem(st, seat, move, -1))
        play_red(st, seat, _card(move.card), move, ev)
        return ev
    if t is Optimise:
        return _do_optimise(st, seat, move)
    if t is Declare:
        if st.cfg.mode == "familia":
            raise IllegalMove(
                rid.RULING_FAMILIA, "in Familia the first to form 4 investments wins at once; there is no declaration"
            )
        n = len(st.invs[seat])
        if n != MAX_INVESTMENTS:
            raise IllegalMove(rid.DECLARE, f"you have {n_investments(n)}; you may declare victory only with 4")
        start_declaration(st, seat, ev)
        return ev
    if t is Pass:
        if any(type(m) in (Build, Risk, Dominate) for m in gen_main(st, seat)):
            raise IllegalMove(
                rid.RULING_NO_ACTION, "you can still build, risk or dominate; you pass only when no action is possible"
            )
        st.acted = True
        ev.append(Event(f"seat {seat} can take no action and passes"))
        end_turn(st, ev)
        return ev
    if t is Defend or t is Decline:
        raise IllegalMove(rid.BLUE, "nobody is attacking you; blue strategies answer attacks out of your turn")
    if t is Attach:
        raise IllegalMove(rid.GREEN, "a green strategy is attached when you form an investment or declare victory")
    if t is Discard:
        raise IllegalMove(rid.YOUR_TURN, "nothing asks you to discard now: choose Construir, Arriesgar or Dominar")
    if t is Take:
        raise IllegalMove(rid.YOUR_TURN, "take belongs to a strategy in progress; to take capital choose build")
    if t is Reveal:
        raise IllegalMove(rid.DECLARE, "you reveal your portfolio only after declaring victory")
    if t is Return:
        raise IllegalMove(rid.FAILED_DECLARATION, "an investment returns to your hand only after a failed declaration")
    raise IllegalMove(rid.YOUR_TURN, "you must take one action on your turn: Construir, Arriesgar or Dominar")


def _do_risk(st: State, seat: int, stock: int, ret: int) -> Events:
    ev: Events = []
    st.acted = True
    hand = st.hands[seat]
    hand.remove(stock)
    hand.remove(ret)
    if st.lucky:
        st.lucky = False
        plus = True
        how = "Inversor Suertudo makes it succeed without the die"
    else:
        plus = die_plus(st)
        how = f"the die shows {_sign(plus)}"
    if not plus:
        _add_hand(st, seat, stock)
        _add_hand(st, seat, ret)
        ev.append(Event(f"seat {seat} chose Arriesgar: {how}, the investment fails and both cards return to its hand"))
        ev.append(Event(f"your {cn(stock)} and {cn(ret)} returned to your hand", (seat,)))
        end_turn(st, ev)
        return ev
    invs = st.invs[seat]
    invs.append([stock, ret, -1, False])
    k = len(invs) - 1
    ev.append(
        Event(
            f"seat {seat} chose Arriesgar: {how} and investment #{k} is formed face down "
            f"({len(invs)} investment{'s' if len(invs) != 1 else ''})"
        )
    )
    ev.append(Event(f"your investment #{k}: {cn(stock)} + {cn(ret)} = {CARD_VAL[stock] + CARD_VAL[ret]}M", (seat,)))
    if st.cfg.mode == "familia" and len(invs) == MAX_INVESTMENTS:
        counts = [float(len(st.invs[s])) for s in range(st.n)]
        reason = f"seat {seat} formed its 4th investment and wins (Familia)"
        finish_game(st, [seat], [int(c) for c in counts], reason, rid.FAMILIA, ev)
        return ev
    c = draw_strategy(st, ev)
    if c >= 0:
        _add_strat(st, seat, c)
        st.know[c] |= 1 << seat
        st.momentum = c
        ev.append(Event(f"seat {seat} takes 1 strategy (Momentum)"))
        ev.append(Event(f"Momentum: you took {cn(c)}; you cannot use it this turn", (seat,), {"card": CARD_ID[c]}))
    else:
        ev.append(Event("no strategy is left to take for Momentum"))
    st.formed = k
    # Asked whenever the seat holds a strategy it could attach (any but the Momentum card: a public
    # count), not only when it holds a green, so that being asked reveals nothing (ruling informacion-oculta).
    if st.cfg.mode != "familia" and (len(st.strats[seat]) > (c >= 0) or len(invs) == MAX_INVESTMENTS):
        st.step = FORMED
    else:
        end_turn(st, ev)
    return ev


def _do_optimise(st: State, seat: int, move: Optimise) -> Events:
    card = _card(move.card)
    _refuse(optimise_problem(st, seat, move.investment, card))
    ev: Events = []
    inv = st.invs[seat][move.investment]
    slot = 0 if CARD_TYPE[card] == STOCK else 1
    old = inv[slot]
    st.hands[seat].remove(card)
    inv[slot] = card
    _add_hand(st, seat, old)
    st.opt_back = st.step
    st.step = OPTIMISE_COST
    kind = "$" if slot == 0 else "+R"
    ev.append(
        Event(
            f"seat {seat} optimises investment #{move.investment}: swaps its {kind} card with one from "
            "its hand and now discards 1 building card as the cost"
        )
    )
    ev.append(Event(f"you put {cn(card)} into investment #{move.investment} and took {cn(old)} back", (seat,)))
    return ev


def _check_discard(st: State, seat: int, move: Any, rule: str) -> int:
    if type(move) is not Discard:
        raise _wrong_type(st, move)
    card = _card(move.card)
    if CARD_TYPE[card] == STRATEGY:
        raise IllegalMove(rule, f"{cn(card)} is a strategy; discard a building card ($ or +R)")
    if card not in st.hands[seat]:
        raise IllegalMove(rule, f"you do not hold {cn(card)} in your hand")
    return card


def handle_build_discard(st: State, seat: int, move: Any) -> Events:
    """Construir's second half: discard 1 building card (an optimisation may come first)."""
    if type(move) is Optimise:
        return _do_optimise(st, seat, move)
    card = _check_discard(st, seat, move, rid.RULING_BUILD_DISCARD)
    ev: Events = []
    st.hands[seat].remove(card)
    discard_building(st, card)
    ev.append(
        shared_event((7, seat, card), lambda: Event(f"seat {seat} discarded {cn(card)}", None, {"card": CARD_ID[card]}))
    )
    end_turn(st, ev)
    return ev


def handle_optimise_cost(st: State, seat: int, move: Any) -> Events:
    """An optimisation's cost: discard 1 building card; the turn goes on."""
    card = _check_discard(st, seat, move, rid.OPTIMISATION)
    st.hands[seat].remove(card)
    discard_building(st, card)
    ev = [Event(f"seat {seat} paid the optimisation by discarding {cn(card)}", None, {"card": CARD_ID[card]})]
    back = st.opt_back
    st.opt_back = MAIN
    if back == MAIN:
        st.step = MAIN
    elif building_count(st, seat) > BUILDING_TARGET:
        st.step = BUILD_DISCARD
    else:
        ev.append(Event(f"seat {seat} holds 8 building cards again, so Construir needs no further discard"))
        end_turn(st, ev)
    return ev


def handle_trim(st: State, seat: int, move: Any) -> Events:
    """The rule of 8 at the end of the turn: discard until 8 building cards remain."""
    card = _check_discard(st, seat, move, rid.RULE_OF_EIGHT)
    ev: Events = []
    st.hands[seat].remove(card)
    discard_building(st, card)
    ev.append(Event(f"seat {seat} discarded {cn(card)} (rule of 8)", None, {"card": CARD_ID[card]}))
    if building_count(st, seat) <= BUILDING_TARGET:
        end_turn(st, ev)
    return ev


def _check_attach(st: State, seat: int, move: Attach, only: int) -> int:
    card = _card(move.card)
    _refuse(attach_problem(st, seat, card, move.investment, only))
    return card


def _do_attach(st: State, seat: int, card: int, k: int, ev: Events) -> None:
    st.strats[seat].remove(card)
    st.invs[seat][k][2] = card
    if st.invs[seat][k][3]:
        _make_public(st, card)
        ev.append(Event(f"seat {seat} attached {cn(card)} to its face-up investment #{k}"))
    else:
        ev.append(Event(f"seat {seat} attached a green strategy face down to its investment #{k}"))
        ev.append(Event(f"you attached {cn(card)} to investment #{k}", (seat,)))


def handle_formed(st: State, seat: int, move: Any) -> Events:
    """After a successful Arriesgar: attach a green, declare (with 4) or skip."""
    t = type(move)
    ev: Events = []
    four = len(st.invs[seat]) == MAX_INVESTMENTS and st.cfg.mode != "familia"
    if t is Attach:
        card = _check_attach(st, seat, move, st.formed)
        _do_attach(st, seat, card, move.investment, ev)
        if not four:
            end_turn(st, ev)
        return ev
    if t is Declare:
        if not four:
            raise IllegalMove(
                rid.DECLARE, f"you have {n_investments(len(st.invs[seat]))}; you may declare victory only with 4"
            )
        start_declaration(st, seat, ev)
        return ev
    if t is Skip:
        end_turn(st, ev)
        return ev
    if t is Play:
        card = _card(move.card)
        if card == st.momentum:
            raise IllegalMove(rid.MOMENTUM, f"you took {cn(card)} by Momentum this turn and cannot use it now")
    raise _wrong_type(st, move)


def handle_closing(st: State, seat: int, move: Any) -> Events:
    """During a declaration: attach greens, then reveal and count."""
    t = type(move)
    ev: Events = []
    if t is Attach:
        card = _check_attach(st, seat, move, -1)
        _do_attach(st, seat, card, move.investment, ev)
        if not _may_hold_attachable(st, seat):
            count_declaration(st, seat, ev)
        return ev
    if t is Reveal:
        count_declaration(st, seat, ev)
        return ev
    raise _wrong_type(st, move)


def handle_return(st: State, seat: int, move: Any) -> Events:
    """After a failed declaration: the chosen investment returns to the hand and the turn ends."""
    if type(move) is not Return:
        raise _wrong_type(st, move)
    k = move.investment
    n = len(st.invs[seat])
    if not 0 <= k < n:
        raise IllegalMove(rid.FAILED_DECLARATION, no_such_investment("you have", n, k))
    ev: Events = []
    inv = _return_investment(st, seat, k)
    ev.append(Event(f"seat {seat} returns investment #{k} ({_inv_text(inv)}) to its hand; play goes on"))
    end_turn(st, ev)
    return ev


def handle_dominated(st: State, seat: int, move: Any) -> Events:
    """After Dominar took a red: use it now or keep it."""
    t = type(move)
    ev: Events = []
    if t is Play:
        _refuse(play_problem(st, seat, move, st.drawn))
        play_red(st, seat, _card(move.card), move, ev)
        return ev
    if t is Skip:
        ev.append(shared_event((8, seat), lambda: Event(f"seat {seat} keeps the strategy it took")))
        end_turn(st, ev)
        return ev
    raise _wrong_type(st, move)


def handle_take(st: State, seat: int, move: Any) -> Events:
    """Comprar Más: take 1 building card from any source."""
    if type(move) is not Take:
        raise _wrong_type(st, move)
    _refuse(source_problem(st, move.source))
    ev: Events = []
    take_from(st, seat, move.source, ev, "took (Comprar Más)")
    after_red(st, ev)
    return ev


def handle_rescue(st: State, seat: int, move: Any) -> Events:
    """Rescate: take from the $ or +R deck until 8 building cards."""
    if type(move) is not Take:
        raise _wrong_type(st, move)
    _refuse(source_problem(st, move.source, decks_only=True, rule="market-fortune/cartas/rescate"))
    ev: Events = []
    take_from(st, seat, move.source, ev, "took (Rescate)")
    if building_count(st, seat) >= BUILDING_TARGET or not gen_rescue(st, seat):
        after_red(st, ev)
    return ev


def handle_reaction(st: State, seat: int, move: Any) -> Events:
    """A polled seat defends with a blue card or declines."""
    atk = st.attack
    assert atk is not None
    t = type(move)
    ev: Events = []
    red = CARD_NAME[atk.card]
    if t is Defend:
        card = _card(move.card)
        _refuse(defend_problem(st, seat, card))
        s = _strat(card)
        st.strats[seat].remove(card)
        _make_public(st, card)
        ev.append(
            Event(
                f"seat {seat} defends with {cn(card)}: {red} is cancelled against seat {seat}",
                None,
                {"card": CARD_ID[card]},
            )
        )
        if s.effect is Effect.CANCEL_AND_DRAW:
            for _ in range(s.params["draw"]):
                c = draw_strategy(st, ev)
                if c >= 0:
                    _add_strat(st, seat, c)
                    st.know[c] |= 1 << seat
                    ev.append(Event(f"Experiencia: seat {seat} takes 1 strategy"))
                    ev.append(Event(f"you took {cn(c)}", (seat,), {"card": CARD_ID[c]}))
        st.discards[2].append(card)
        if s.effect is Effect.CANCEL_FOR_ALL:
            rest = atk.window.order[atk.window.index + 1 :]
            atk.window.close()
            if rest:
                ev.append(Event(f"Analista Errado: {red} is cancelled for seats {_seats(rest)} too"))
        else:
            atk.window.pass_turn(seat)
    elif t is Decline:
        hit(st, atk, seat, ev)
        atk.window.pass_turn(seat)
    elif t is Optimise:
        raise IllegalMove(rid.OPTIMISATION, "you may never optimise while an attack is being resolved")
    else:
        raise IllegalMove(
            rid.COMBAT, f"seat {atk.attacker} attacks you with {red}: defend with a blue strategy or decline"
        )
    if not atk.window.is_open:
        finish_attack(st, ev)
    return ev


HANDLERS: dict[str, Callable[[State, int, Any], Events]] = {
    MAIN: handle_main,
    BUILD_DISCARD: handle_build_discard,
    OPTIMISE_COST: handle_optimise_cost,
    TRIM: handle_trim,
    FORMED: handle_formed,
    CLOSING: handle_closing,
    RETURN_STEP: handle_return,
    DOMINATED: handle_dominated,
    TAKE: handle_take,
    RESCUE: handle_rescue,
    REACTION: handle_reaction,
}
