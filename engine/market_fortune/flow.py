"""The course of a Market Fortune table: the deal, the first player, turns, the end of a game and of a match.

Step files call :func:`end_turn` and :func:`after_red` when their part of the turn is over,
and :func:`finish_game` / :func:`cut_off` when a game ends. Nothing here imports a step.
"""

from __future__ import annotations

from club_agentes.engine.core import Event, Result
from club_agentes.engine.core.model import ScoreLine, SeatScore
from club_agentes.engine.market_fortune import events as said
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_IND,
    CARD_NAME,
    CARD_VAL,
    INDUSTRIES,
    N_BUILDING,
    N_CARDS,
)
from club_agentes.engine.market_fortune.scoring import (
    counted_yellows,
    green_bonus,
    portfolio_lines,
    portfolio_value,
    yellow_bonus,
)
from club_agentes.engine.market_fortune.state import BUILDING_TARGET, MAIN, MATCH_TARGET, TRIM, State
from club_agentes.engine.market_fortune.table import (
    Events,
    building_count,
    cn,
    die_plus,
    known_to,
    make_public,
    seat_list,
    sign,
)

# ---------------------------------------------------------------------------- setup


def roll_off(state: State, group: list[int], ev: Events) -> int:
    """Everyone in ``group`` rolls; a single '−' starts (ruling primer-jugador). Return that seat."""
    rnd = 1
    while True:
        rolls = [(s, die_plus(state)) for s in group]
        minus = [s for s, plus in rolls if not plus]
        shown = ", ".join(f"seat {s} {sign(p)}" for s, p in rolls)
        if len(minus) == 1:
            ev.append(Event(f"first-player roll {rnd}: {shown}; seat {minus[0]} rolled the only − and starts"))
            return minus[0]
        if minus:
            ev.append(Event(f"first-player roll {rnd}: {shown}; seats {seat_list(minus)} rolled − and roll again"))
            group = minus
        else:
            again = "everyone rolls" if len(group) == state.n else f"seats {seat_list(group)} roll"
            ev.append(Event(f"first-player roll {rnd}: {shown}; nobody rolled −, so {again} again"))
        rnd += 1


def start_game(state: State, opener: int | None, ev: Events) -> None:
    """Deal a new game (all 180 cards, shuffled) and start the first turn.

    ``opener`` is the previous game's winner in Campeonato; otherwise the die decides.
    """
    state.game_no += 1
    n = state.n
    stock = list(range(0, N_BUILDING // 2))
    ret = list(range(N_BUILDING // 2, N_BUILDING))
    strategies = list(range(N_BUILDING, N_CARDS))
    for deck in (stock, ret, strategies):
        state.rng.shuffle(deck)
    state.decks = [stock, ret, strategies]
    state.discards = [[], [], []]
    state.facedown = [False] * N_CARDS
    state.know = [0] * N_CARDS
    state.hands = [[] for _ in range(n)]
    state.strats = [[] for _ in range(n)]
    state.invs = [[] for _ in range(n)]
    state.risk_ban = [False] * n
    state.attack = None
    for seat in range(n):
        hand = stock[-4:] + ret[-4:]  # the top 4 of each deck (sorted below, so their order does not matter)
        del stock[-4:], ret[-4:]
        hand.sort()
        state.hands[seat] = hand
        for c in hand:
            known_to(state, c, seat)
    if state.config.mode == "campeonato":
        ev.append(Event(f"game {state.game_no} of the Campeonato match: each seat is dealt 4 $ and 4 +R cards"))
    else:
        ev.append(Event("each seat is dealt 4 $ and 4 +R cards; the three decks lie face down"))
    for seat in range(n):
        names = ", ".join(cn(c) for c in state.hands[seat])
        ev.append(Event(f"your hand: {names}", (seat,), {"hand": [CARD_ID[c] for c in state.hands[seat]]}))
    if opener is None:
        first = roll_off(state, list(range(n)), ev)
    else:
        first = opener
        ev.append(Event(f"seat {first} won the previous game and opens this one"))
    state.opener = first
    state.turn_no = 0
    begin_turn(state, first, ev)


# ---------------------------------------------------------------------------- turns


def begin_turn(state: State, seat: int, ev: Events) -> None:
    """Start ``seat``'s turn."""
    state.turn = seat
    state.step = MAIN
    state.acted = False
    state.red_used = False
    state.lucky = False
    state.momentum = -1
    state.drawn = -1
    state.formed = -1
    state.trim_by = -1
    if state.trim_down:
        state.trim_down = []
    banned = state.banned = state.risk_ban[seat]
    state.risk_ban[seat] = False
    number = state.turn_no + 1
    ev.append(said.on_turn(number, seat, banned))


def end_turn(state: State, ev: Events) -> None:
    """Finish the turn: the rule of 8 first, then the turn limit, then the next seat clockwise."""
    seat = state.turn
    over = building_count(state, seat) - BUILDING_TARGET
    if over > 0:
        state.step = TRIM
        why = " (a strategy played this turn orders it)" if state.trim_by >= 0 else ""
        ev.append(Event(f"seat {seat} holds {over + BUILDING_TARGET} building cards and discards down to 8{why}"))
        return
    state.turn_no += 1
    state.momentum = -1
    if state.turn_no >= state.config.turn_limit:
        cut_off(state, ev)
        return
    begin_turn(state, (seat + 1) % state.n, ev)


def after_red(state: State, ev: Events) -> None:
    """Continue the turn after a red strategy resolved: back to the action, or end after Dominar."""
    if state.acted:
        end_turn(state, ev)
    else:
        state.step = MAIN


# ---------------------------------------------------------------------------- game end


def reveal_all(state: State, seat: int, with_yellows: bool) -> None:
    """Turn a seat's investments face up (and, when declaring or cut off, reveal its counted yellows)."""
    for inv in state.invs[seat]:
        inv.face_up = True
        make_public(state, inv.stock)
        make_public(state, inv.ret)
        if inv.green >= 0:
            make_public(state, inv.green)
    if with_yellows:
        for c in counted_yellows(state, seat):
            make_public(state, c)


def describe_portfolio(state: State, seat: int, with_yellows: bool) -> str:
    """Return a public sentence part listing a seat's (face-up) portfolio and bonuses."""
    parts = []
    for k, inv in enumerate(state.invs[seat]):
        g = inv.green
        gtext = ""
        if g >= 0:
            b = green_bonus(inv)
            gtext = f" with {CARD_NAME[g]} ({'+' + str(b) + 'M' if b else 'criteria not met'})"
        parts.append(
            f"#{k} {INDUSTRIES[CARD_IND[inv.stock]].name} {CARD_VAL[inv.stock]}M + {CARD_VAL[inv.ret]}M{gtext}"
        )
    text = "; ".join(parts) if parts else "no investments"
    if with_yellows:
        ys = counted_yellows(state, seat)
        if ys:
            text += "; yellows: " + ", ".join(f"{cn(c)} +{yellow_bonus(c, state.invs[seat])}M" for c in ys)
    return text


def game_breakdown(state: State, yellows: list[bool]) -> tuple[SeatScore, ...]:
    """Return every seat's score lines for the game just ended (Familia: one line per investment)."""
    out = []
    familia = state.config.mode == "familia"
    for s in range(state.n):
        if familia:
            lines = tuple(
                ScoreLine(
                    f"investment #{k}: {INDUSTRIES[CARD_IND[inv.stock]].name} (in Familia values do not count)",
                    1.0,
                    rid.FAMILIA,
                )
                for k, inv in enumerate(state.invs[s])
            )
            out.append(SeatScore(s, float(len(lines)), "investments", lines))
        else:
            lines = tuple(portfolio_lines(state, s, yellows=yellows[s]))
            out.append(SeatScore(s, sum(line.amount for line in lines), "M", lines))
    return tuple(out)


def finish_game(
    state: State, winners: list[int], values: list[int], reason: str, rule_id: str, yellows: list[bool], ev: Events
) -> None:
    """End the current game; in Campeonato credit the winners and deal the next game unless the match is over.

    ``yellows`` says, per seat, whether its yellows were revealed and count (the declarer, or
    everyone at a cut-off).
    """
    mode = state.config.mode
    for s in range(state.n):
        if any(not inv.face_up for inv in state.invs[s]):
            reveal_all(state, s, False)
            ev.append(
                Event(
                    f"at the end of the game seat {s} turns its portfolio face up: "
                    f"{describe_portfolio(state, s, False)}"
                )
            )
    ev.append(Event(reason, None, {"winners": winners, "values": values}))
    breakdown = game_breakdown(state, yellows)
    if mode != "campeonato":
        state.over = True
        state.step = MAIN
        scores = tuple(b.total for b in breakdown)
        state.result = Result(tuple(winners), scores, reason, rule_id, breakdown)
        return
    for w in winners:
        state.totals[w] += values[w]
    state.games.append(
        {"game": state.game_no, "winners": list(winners), "credited": [values[w] for w in winners], "reason": reason}
    )
    totals = ", ".join(f"seat {s} {t}M" for s, t in enumerate(state.totals))
    ev.append(Event(f"match totals after game {state.game_no}: {totals}"))
    top = max(state.totals)
    if top >= MATCH_TARGET or len(state.games) >= state.config.game_limit:
        best = tuple(s for s in range(state.n) if state.totals[s] == top)
        if top >= MATCH_TARGET:
            why = f"seat {seat_list(best)} reached {top}M, at least 100M, and wins the Campeonato"
            rule = rid.CAMPEONATO
        else:
            why = (
                f"the match reached its limit of {state.config.game_limit} games; seat {seat_list(best)} "
                f"has the highest total, {top}M, and wins the Campeonato"
            )
            rule = rid.RULING_LIMIT
        ev.append(Event(why))
        state.over = True
        state.step = MAIN
        state.result = Result(best, tuple(float(t) for t in state.totals), why, rule, match_breakdown(state))
        return
    if len(winners) == 1:
        opener: int | None = winners[0]
    elif winners:
        ev.append(Event(f"seats {seat_list(winners)} shared the win: they roll to decide who opens the next game"))
        opener = roll_off(state, list(winners), ev)
    else:
        opener = None
    start_game(state, opener, ev)


def match_breakdown(state: State) -> tuple[SeatScore, ...]:
    """Return every seat's Campeonato total as one line per game it won (the millions credited)."""
    out = []
    for s in range(state.n):
        lines = tuple(
            ScoreLine(f"game {g['game']} won: {amount}M credited", float(amount), rid.CAMPEONATO)
            for g in state.games
            if s in g["winners"]
            for amount in (g["credited"][g["winners"].index(s)],)
        )
        out.append(SeatScore(s, float(state.totals[s]), "M", lines))
    return tuple(out)


def cut_off(state: State, ev: Events) -> None:
    """The turn limit is reached: every portfolio is revealed and scored (ruling limite-de-turnos)."""
    mode = state.config.mode
    values = []
    for s in range(state.n):
        reveal_all(state, s, True)
        values.append(portfolio_value(state, s) if mode != "familia" else len(state.invs[s]))
    counts = [len(state.invs[s]) for s in range(state.n)]
    for s in range(state.n):
        ev.append(Event(f"seat {s} reveals: {describe_portfolio(state, s, mode != 'familia')}"))
    key = counts if mode == "familia" else [values[s] * 10 + counts[s] for s in range(state.n)]
    top = max(key)
    winners = [s for s in range(state.n) if key[s] == top] if max(counts) > 0 else []
    limit = state.config.turn_limit
    if not winners:
        reason = f"the turn limit of {limit} turns was reached and nobody has an investment: nobody wins this game"
    elif mode == "familia":
        reason = (
            f"the turn limit of {limit} turns was reached: seat {seat_list(winners)} wins with the most "
            f"investments ({counts[winners[0]]})"
        )
    else:
        reason = (
            f"the turn limit of {limit} turns was reached: seat {seat_list(winners)} wins with the highest "
            f"portfolio ({values[winners[0]]}M)"
        )
    finish_game(state, winners, values, reason, rid.RULING_LIMIT, [True] * state.n, ev)
