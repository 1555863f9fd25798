"""Section 3-2-2, influence cards: travel cards, hire sets and boss cards, and the stop window in which a stop
card (parada) may cancel one of them before it takes effect (ruling ``momento-de-la-parada``)."""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event, Pending
from club_agentes.engine.core.steps import Refusal, Step
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.flow import after_limit
from club_agentes.engine.yo_soy_el_jefe.moves import (
    BOSS_KEEP,
    BOSS_RESTART,
    FAMILY,
    HIRES,
    INVESTOR,
    MAX_SEATS,
    PASS,
    STOP_MOVE,
    TRAVELS,
    Hire,
    Pass,
    PlayBoss,
    Stop,
    Travel,
)
from club_agentes.engine.yo_soy_el_jefe.state import (
    CARDS,
    COLOUR_INDEX,
    COLOURS,
    NCOL,
    SLOT_BOSS,
    SLOT_GREY,
    SLOT_HIRE,
    SLOT_STOP,
    SLOT_TRAVEL,
    SPACES,
    State,
    StopWindow,
)
from club_agentes.engine.yo_soy_el_jefe.steps.deal import SPACE_COLS, SPACE_COLSET, lapse
from club_agentes.engine.yo_soy_el_jefe.words import CLOCKWISE, card_name

# --------------------------------------------------------------------------- travel cards


_TRAVEL_ON: dict[str, tuple[tuple[tuple[Travel, Travel], ...], ...]] = {
    target: tuple(
        tuple((TRAVELS[(target, s, name, False)], TRAVELS[(target, s, name, True)]) for name in COLOURS)
        for s in range(MAX_SEATS)
    )
    for target in (INVESTOR, FAMILY)
}
"""``_TRAVEL_ON[target][seat][colour]``: the travel plays on that card, with a travel card of its colour and with
a grey one."""


def travel_moves(state: State, seat: int) -> list[Travel]:
    """Return the travel plays to try for ``seat`` in the open negotiation (its checks filter them)."""
    neg = state.neg
    assert neg is not None
    counts = state.counts[seat]
    grey = counts[SLOT_GREY] > 0
    if not grey and not any(counts[SLOT_TRAVEL:SLOT_GREY]):  # no travel card at all (a slice: no Python loop)
        return []
    owner = state.owner
    travelled = neg.travelled
    placed = neg.placed
    on_investor = _TRAVEL_ON[INVESTOR]
    on_family = _TRAVEL_ON[FAMILY]
    out: list[Travel] = []
    for c in SPACE_COLS[neg.space]:
        own = counts[SLOT_TRAVEL + c] > 0
        if not (own or grey):
            continue
        o = owner[c]
        if o >= 0 and c not in travelled:
            plays = on_investor[o][c]
            if own:
                out.append(plays[0])
            if grey:
                out.append(plays[1])
        if not placed:
            continue
        for s in range(state.n):
            if (s, c) in placed:
                plays = on_family[s][c]
                if own:
                    out.append(plays[0])
                if grey:
                    out.append(plays[1])
    return out


def check_travel(state: State, seat: int, move: Travel) -> Refusal | None:
    """A travel card of the colour (or grey) on an investor or placed family card the deal asks for."""
    neg = state.neg
    if neg is None:
        return Refusal(R.NEGOTIATE, lambda: "a travel card is played only in a negotiation.")
    colour = COLOUR_INDEX[move.colour]
    counts = state.counts[seat]
    if move.grey and not counts[SLOT_GREY]:
        return Refusal(R.TRAVEL, lambda: "you hold no grey travel card (viaje gris).")
    if not move.grey and not counts[SLOT_TRAVEL + colour]:
        return Refusal(
            R.TRAVEL,
            lambda move=move: (
                f"you hold no {move.colour} travel card (viaje); a travel card must match the colour or be grey."
            ),
        )
    space = SPACES[neg.space]
    if colour not in SPACE_COLSET[neg.space]:
        return Refusal(
            R.R_TRAVEL_TARGETS,
            lambda space=space, move=move: (
                f"this deal on space {space.number} needs {space.describe()}; a travel card on {move.colour} has no "
                "target."
            ),
        )
    if move.seat >= state.n:
        return Refusal(R.R_TRAVEL_TARGETS, lambda move=move: f"seat {move.seat} is not at this table.")
    if move.target == INVESTOR:
        owner = state.owner[colour]
        if owner != move.seat:
            holder = "lies beside the board" if owner < 0 else f"is held by seat {owner}"
            return Refusal(
                R.R_TRAVEL_TARGETS,
                lambda holder=holder, move=move: f"the {move.colour} investor {holder}, not by seat {move.seat}.",
            )
        if colour in neg.travelled:
            return Refusal(
                R.R_TRAVEL_TARGETS, lambda move=move: f"the {move.colour} investor has already travelled in this deal."
            )
        return None
    if (move.seat, colour) not in neg.placed:
        return Refusal(
            R.R_TRAVEL_TARGETS,
            lambda move=move: f"seat {move.seat} has no {move.colour} family card placed in this deal.",
        )
    return None


def do_travel(state: State, seat: int, move: Travel) -> list[Event]:
    """Show the travel card; it waits for stop cards before it takes effect."""
    neg = state.neg
    assert neg is not None
    colour = COLOUR_INDEX[move.colour]
    card = state.take(seat, SLOT_GREY if move.grey else SLOT_TRAVEL + colour)
    neg.used.add(seat)
    state.stop = StopWindow(seat, "travel", (move.target, move.seat, colour), [card], stop_order(state, seat))
    what = "investor" if move.target == INVESTOR else "family card"
    text = f"seat {seat} played {card_name(card)} on seat {move.seat}'s {move.colour} {what}."
    neg.history.append(text)
    return [Event(text, data={"card": CARDS[card].id, "target": move.target, "seat": move.seat})]


# --------------------------------------------------------------------------- hire sets


def hire_targets(state: State, seat: int) -> list[int]:
    """Return the colours a hire set of ``seat`` may take: those beside the board if any, else the others'."""
    owner = state.owner
    free = []
    others = []
    for c in range(NCOL):  # loops, not comprehensions: no closure cells on Python 3.11 (a hot path)
        if owner[c] < 0:
            free.append(c)
        elif owner[c] != seat:
            others.append(c)
    return free or others


def hire_moves(state: State, seat: int) -> list[Hire]:
    """Return the hire sets to try for ``seat``."""
    return [HIRES[c] for c in hire_targets(state, seat)] if state.counts[seat][SLOT_HIRE] >= 3 else []


def check_hire(state: State, seat: int, move: Hire) -> Refusal | None:
    """Three hire cards take an investor card: from beside the board when any lies there, else another seat's."""
    hires = state.counts[seat][SLOT_HIRE]
    if hires < 3:
        return Refusal(R.HIRE, lambda hires=hires: f"you hold {hires} hire card(s) (empleo); a hire set needs 3.")
    colour = COLOUR_INDEX[move.colour]
    owner = state.owner[colour]
    if owner == seat:
        return Refusal(
            R.HIRE,
            lambda move=move: f"you already hold the {move.colour} investor; a hire set takes another seat's investor.",
        )
    free = []
    for c in range(NCOL):  # a loop, not a comprehension: no closure cell on Python 3.11 (a hot path)
        if state.owner[c] < 0:
            free.append(COLOURS[c])
    if free and owner >= 0:
        return Refusal(
            R.HIRE,
            lambda owner=owner, free=free, move=move: (
                f"investor cards lie beside the board ({', '.join(free)}), so a hire set must take one of those, "
                f"not seat {owner}'s {move.colour}."
            ),
        )
    return None


def do_hire(state: State, seat: int, move: Hire) -> list[Event]:
    """Show three hire cards; the set waits for stop cards before it takes effect."""
    colour = COLOUR_INDEX[move.colour]
    cards = [state.take(seat, SLOT_HIRE) for _ in range(3)]
    if state.neg is not None:
        state.neg.used.add(seat)
    state.stop = StopWindow(seat, "hire", (colour,), cards, stop_order(state, seat))
    owner = state.owner[colour]
    whose = "from beside the board" if owner < 0 else f"from seat {owner}"
    text = (
        f"seat {seat} played a hire set ({', '.join(CARDS[c].id for c in cards)}) to take the "
        f"{move.colour} investor {whose}."
    )
    if state.neg is not None:
        state.neg.history.append(text)
    return [Event(text, data={"colour": move.colour, "cards": [CARDS[c].id for c in cards]})]


# --------------------------------------------------------------------------- boss cards


def boss_moves(state: State, seat: int) -> list[PlayBoss]:
    """Return the boss-card plays to try for ``seat``."""
    return [BOSS_KEEP, BOSS_RESTART] if state.counts[seat][SLOT_BOSS] else []


def check_boss(state: State, seat: int, move: PlayBoss) -> Refusal | None:
    """A seat that is not the boss, holding a boss card, may take over."""
    neg = state.neg
    if neg is None:
        return Refusal(R.NEGOTIATE, lambda: "a boss card is played only in a negotiation.")
    if seat == neg.boss:
        return Refusal(R.BOSS, lambda: "you are already the boss of this negotiation.")
    if not state.counts[seat][SLOT_BOSS]:
        return Refusal(R.BOSS, lambda: "you hold no boss card (jefe).")
    return None


def do_boss(state: State, seat: int, move: PlayBoss) -> list[Event]:
    """Show the boss card ("¡Soy el jefe!"); it waits for stop cards before it takes effect."""
    neg = state.neg
    assert neg is not None
    card = state.take(seat, SLOT_BOSS)
    neg.used.add(seat)
    state.stop = StopWindow(seat, "boss", (move.restart,), [card], stop_order(state, seat))
    plan = "restart the negotiation" if move.restart else "keep the negotiation as it stands"
    text = f"seat {seat} played {card_name(card)}: '¡Soy el jefe!' (it would {plan})."
    neg.history.append(text)
    return [Event(text, data={"card": CARDS[card].id, "restart": move.restart})]


# --------------------------------------------------------------------------- the stop window


def stop_order(state: State, player: int) -> tuple[int, ...]:
    """Return the seats that may stop a card of ``player``, in the order they are asked: clockwise from the boss
    (at the hand limit, from the player's left), the player excluded."""
    first = state.neg.boss if state.neg is not None else (player + 1) % state.n
    return tuple(s for s in CLOCKWISE[state.n][first] if s != player)


def stop_words(state: State, stop: StopWindow) -> str:
    """Return the card waiting for stops in words, e.g. ``"seat 2's travel card on seat 0's azul investor"``."""
    p = stop.player
    if stop.kind == "travel":
        target, seat, colour = stop.payload
        what = f"seat {seat}'s {COLOURS[colour]} {'investor' if target == INVESTOR else 'family card'}"
        return f"seat {p}'s travel card on {what}"
    if stop.kind == "hire":
        colour = stop.payload[0]
        owner = state.owner[colour]
        whose = "beside the board" if owner < 0 else f"of seat {owner}"
        return f"seat {p}'s hire set to take the {COLOURS[colour]} investor {whose}"
    return f"seat {p}'s boss card (to become the boss)"


def stop_pending(state: State) -> Pending:
    """Every seat that has not answered the card yet may stop it or let it go, in any order."""
    stop = state.stop
    assert stop is not None
    words = stop_words(state, stop)
    prompt = (
        f"{words[0].upper()}{words[1:]} waits for its answer: play a stop card (parada) to cancel it, or pass; "
        "it takes effect once every seat asked has passed."
    )
    return Pending("reaction", stop.waiting(), prompt)


def stop_candidates(state: State, seat: int) -> tuple[Any, ...]:
    """A stop card, or pass."""
    return (STOP_MOVE, PASS)


def check_stop(state: State, seat: int, move: Stop) -> Refusal | None:
    """A stop card answers the travel card, boss card or hire set just played."""
    if state.stop is None:
        return _NOTHING_TO_STOP
    if not state.counts[seat][SLOT_STOP]:
        return _NO_STOP_CARD[seat]
    return None


# Refusals that read nothing of the moment but the seat, built once (a Refusal is immutable).
_NOTHING_TO_STOP = Refusal(
    R.R_STOP_TIMING, lambda: "a stop card answers a travel card, boss card or hire set just played, and none is."
)
_NO_STOP_CARD = tuple(
    Refusal(R.STOP, lambda seat=seat: f"seat {seat} holds no stop card (parada), so it can only pass.")
    for seat in range(MAX_SEATS)
)


def check_stop_pass(state: State, seat: int, move: Pass) -> Refusal | None:
    """Any seat asked may let the card go."""
    return None


def do_stop(state: State, seat: int, move: Stop) -> list[Event]:
    """Cancel the card: both are discarded and nothing answers the stop."""
    stop = state.stop
    assert stop is not None
    card = state.take(seat, SLOT_STOP)
    state.discard.extend(stop.cards)
    state.discard.append(card)
    state.stop = None
    text = f"seat {seat} played {card_name(card)}: {stop_words(state, stop)} is cancelled, and the cards are discarded."
    events = [Event(text, data={"card": CARDS[card].id})]
    neg = state.neg
    if neg is not None:
        neg.used.add(seat)
        neg.history.append(text)
        # the stopped card never took effect: the deal's terms are as they were
        neg.change(seat, f"seat {seat}'s stop card against {stop_words(state, stop)}", terms=False)
    else:
        events += after_limit(state)
    return events


_STOP_PASSED = tuple(Event(f"seat {seat} passed (no stop card played).") for seat in range(MAX_SEATS))
"""A seat's pass in a stop window, by seat (an :class:`Event` is immutable: each is built once)."""


def do_stop_pass(state: State, seat: int, move: Pass) -> list[Event]:
    """Let the card go; when every seat asked has let it go, it takes effect."""
    stop = state.stop
    assert stop is not None
    stop.passed.add(seat)
    events = [_STOP_PASSED[seat]]
    if not stop.waiting():
        state.stop = None
        events += resolve(state, stop)
    return events


def resolve(state: State, stop: StopWindow) -> list[Event]:
    """Apply a stoppable card that nobody stopped."""
    neg = state.neg
    p = stop.player
    if stop.kind == "hire":
        colour = stop.payload[0]
        old = state.owner[colour]
        state.owner[colour] = p
        state.discard.extend(stop.cards)
        whose = "from beside the board" if old < 0 else f"from seat {old}"
        text = f"nobody stopped it: seat {p} took the {COLOURS[colour]} investor {whose}."
        events = [Event(text, data={"colour": COLOURS[colour], "from": old, "to": p})]
        if neg is None:
            return events + after_limit(state)
        neg.history.append(text)
        events += lapse(state, neg)
        neg.change(p, f"seat {p}'s hire set, which took the {COLOURS[colour]} investor")
        return events
    assert neg is not None
    if stop.kind == "travel":
        target, seat, colour = stop.payload
        if target == INVESTOR:
            neg.travelled[colour] = stop.cards[0]
            text = (
                f"nobody stopped it: seat {seat}'s {COLOURS[colour]} investor has travelled and cannot take part "
                "in this deal."
            )
        else:
            family = neg.placed.pop((seat, colour))
            state.discard.append(family)
            state.discard.extend(stop.cards)
            text = (
                f"nobody stopped it: seat {seat}'s {COLOURS[colour]} family card has travelled; both cards are "
                "discarded."
            )
        neg.history.append(text)
        events = [Event(text), *lapse(state, neg)]
        what = "investor" if target == INVESTOR else "family card"
        neg.change(p, f"seat {p}'s travel card on seat {seat}'s {COLOURS[colour]} {what}")
        return events
    restart = stop.payload[0]
    state.discard.extend(stop.cards)
    old = neg.boss
    neg.boss = p
    if restart:
        neg.quotes.clear()
    else:
        for key in [k for k in neg.quotes if k[0] == p]:
            del neg.quotes[key]
    neg.named.clear()
    neg.naming = None
    how = "restarts the negotiation" if restart else "keeps the negotiation as it stands"
    text = f"nobody stopped it: seat {p} is now the boss instead of seat {old} and {how}."
    neg.history.append(text)
    neg.change(p, f"seat {p}'s boss card: it is the boss now")
    return [Event(text)]


def _stop_foreign(state: State, seat: int, move: Any) -> Refusal:
    return Refusal(
        R.R_STOP_TIMING,
        f"a card waits for its answer first; only a stop card or a pass is possible: {stop_pending(state).prompt}",
    )


def _stop_waiting(state: State, seat: int, p: Pending) -> Refusal:
    stop = state.stop
    assert stop is not None
    now = p.seats[0] if p.seats else None
    words = stop_words(state, stop)
    head = f"seat {seat} does not decide now: {words} waits for stop cards, and seat {now} is being asked"
    if seat == stop.player:
        return Refusal(R.R_STOP_TIMING, f"{head}; the seat that played a card is not asked whether to stop it.")
    if seat in stop.waiting():
        return Refusal(
            R.R_STOP_TIMING,
            f"{head}; the seats are asked one at a time and seat {seat}'s chance to stop it comes later.",
        )
    return Refusal(R.R_STOP_TIMING, f"{head}; seat {seat} has already passed on it.")


def stop_deciding(state: State) -> tuple[int, ...]:
    """The seats that have not answered the card yet."""
    assert state.stop is not None
    return state.stop.waiting()


STOP_STEP = Step(
    "stop",
    stop_deciding,
    stop_pending,
    stop_candidates,
    {Stop: check_stop, Pass: check_stop_pass},
    {Stop: do_stop, Pass: do_stop_pass},
    _stop_foreign,
    _stop_waiting,
)
