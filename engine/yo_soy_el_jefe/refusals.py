"""Why a move is refused: the rule id and one sentence with the facts.

``YoSoyElJefe.legal_moves`` decides what is legal; this module only explains a
refusal, so the two can never disagree. Every branch ends in an explanation; the
last resort names the negotiation protocol and says what the decision is now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.moves import (
    INVESTOR,
    MILLIONS,
    Accept,
    Bid,
    Close,
    Discard,
    Draw,
    Fail,
    Hire,
    Negotiate,
    Offer,
    Pass,
    PlaceFamily,
    PlaceMarker,
    PlayBoss,
    Price,
    Refuse,
    Roll,
    Stop,
    Travel,
)
from club_agentes.engine.yo_soy_el_jefe.state import (
    AGREED,
    ASKED,
    BIDS_PER_SEAT,
    COLOURS,
    OFFERS_PER_SEAT,
    PROPOSED,
    SLOT_FAMILY,
    SLOT_GREY,
    SLOT_HIRE,
    SLOT_TRAVEL,
    SPACES,
    State,
)

if TYPE_CHECKING:
    from club_agentes.engine.yo_soy_el_jefe.game import YoSoyElJefe

_INFLUENCE = (Travel, Hire, PlayBoss, Stop, PlaceFamily, Offer, Bid, Price, Accept, Refuse, Close, Fail)


def explain(game: YoSoyElJefe, state: State, seat: int, move: Any) -> tuple[str, str]:
    """Return ``(rule_id, message)`` explaining why ``move`` is not legal for ``seat`` now.

    Must only be called for a move that is not among ``game.legal_moves(state, seat)``.
    """
    if state.phase == "over":
        return R.END, f"the game is over ({state.end_reason}); no move is possible."
    pending = game.pending(state)
    if seat not in pending.seats:
        if state.stop is not None:
            return R.R_STOP_TIMING, _not_polled_for_stop(game, state, seat)
        if state.phase == "negotiation":
            return R.R_PROTOCOL, _not_polled_in_negotiation(state, seat)
        decider = ", ".join(f"seat {s}" for s in pending.seats)
        rule = {
            "marker": R.SETUP_FIRST_PLAYER,
            "turn": R.TURN_ACTIONS,
            "after_roll": R.TURN_ACTIONS,
            "discard": R.DRAW,
        }.get(state.phase, R.R_PROTOCOL)
        return rule, f"seat {seat} does not decide now: {decider} is deciding."
    if state.stop is not None:
        return _in_stop_window(state, seat, move, pending.prompt)
    phase = state.phase
    if phase == "marker":
        return R.SETUP_FIRST_PLAYER, f"before the first turn the only move is placing the marker: {pending.prompt}"
    if phase in ("turn", "after_roll"):
        return _on_turn(state, seat, move, pending.prompt)
    if phase == "discard":
        return _at_limit(game, state, seat, move, pending.prompt)
    return _in_negotiation(game, state, seat, move, pending.prompt)


def _not_polled_for_stop(game: YoSoyElJefe, state: State, seat: int) -> str:
    """Say why ``seat`` cannot act while a stoppable card waits (ruling ``momento-de-la-parada``)."""
    stop = state.stop
    assert stop is not None
    window = stop.window
    now = window.current
    words = game._stop_card_words(state, stop)
    head = f"seat {seat} does not decide now: {words} waits for stop cards, and seat {now} is being asked"
    if seat == stop.player:
        return f"{head}; the seat that played a card is not asked whether to stop it."
    if seat in window.order[window.index :]:
        return f"{head}; the seats are asked one at a time and seat {seat}'s chance to stop it comes later."
    return f"{head}; seat {seat} has already passed on it."


def _not_polled_in_negotiation(state: State, seat: int) -> str:
    """Say why ``seat`` cannot act now in the negotiation, and when it can (ruling ``protocolo-de-negociacion``)."""
    neg = state.neg
    assert neg is not None
    boss = neg.boss
    if neg.floor == "price":
        actor = neg.price_ctx[0]  # type: ignore[index]
        return f"seat {seat} does not decide now: seat {actor} is naming a price, and nobody acts in between."
    if neg.floor == "boss":
        return (
            f"seat {seat} does not decide now: the round is over and the boss (seat {boss}) decides; "
            f"seat {seat} gets its chance in the next round."
        )
    window = neg.window
    head = (
        f"seat {seat} does not decide now: in a round the seats other than the boss are asked one at a time "
        f"from the boss's left, and seat {window.current} is being asked"
    )
    if seat == boss:
        return f"{head}; the boss (seat {boss}) decides when the round is over."
    if seat in window.order[window.index :]:
        return f"{head}; seat {seat}'s chance comes later in this round."
    return f"{head}; seat {seat} has had its chance this round and gets another in the next one."


def _in_stop_window(state: State, seat: int, move: Any, prompt: str) -> tuple[str, str]:
    if isinstance(move, Stop):
        return R.STOP, f"seat {seat} holds no stop card (parada), so it can only pass."
    return R.R_STOP_TIMING, f"a card waits for its answer first; only a stop card or a pass is possible: {prompt}"


def _on_turn(state: State, seat: int, move: Any, prompt: str) -> tuple[str, str]:
    hand = len(state.hands[seat])
    if isinstance(move, Negotiate):
        return R.V_MINIMUM, f"you hold {hand} influence cards; with 3 or fewer you cannot start a negotiation."
    if isinstance(move, Draw):
        if state.phase == "turn":
            return R.TURN_ACTIONS, "you take influence cards only after rolling the die: negotiate here or roll first."
        return (
            R.V_MANDATORY,
            "you held 10 or more influence cards when your turn began, so you must negotiate instead of drawing.",
        )
    if isinstance(move, Roll):
        return R.TURN_ACTIONS, "you have already rolled this turn: negotiate on this space or draw influence cards."
    if isinstance(move, Hire):
        return (
            R.R_HIRE_AT_LIMIT,
            "outside a negotiation a hire set is played only over the hand limit, before discarding.",
        )
    if isinstance(move, _INFLUENCE):
        return R.NEGOTIATE, f"no influence card or offer is possible before someone says '¡Vamos a negociar!': {prompt}"
    return R.TURN_ACTIONS, f"that is not one of the turn's actions now: {prompt}"


def _at_limit(game: YoSoyElJefe, state: State, seat: int, move: Any, prompt: str) -> tuple[str, str]:
    limit = state.hand_limit()
    hand = len(state.hands[seat])
    if isinstance(move, Discard):
        return R.DRAW, f"you hold no {move.kind} card{' ' + move.colour if move.colour else ''} to discard."
    if isinstance(move, Hire):
        return _hire(game, state, seat, move)
    return R.DRAW, f"you hold {hand} influence cards and the limit is {limit}: discard a card (or play a hire set)."


def _hire(game: YoSoyElJefe, state: State, seat: int, move: Hire) -> tuple[str, str]:
    hires = state.counts[seat][SLOT_HIRE]
    if hires < 3:
        return R.HIRE, f"you hold {hires} hire card(s) (empleo); a hire set needs 3."
    colour = COLOURS.index(move.colour)
    owner = state.owner[colour]
    if owner == seat:
        return R.HIRE, f"you already hold the {move.colour} investor; a hire set takes another seat's investor."
    free = [COLOURS[c] for c in range(len(COLOURS)) if state.owner[c] < 0]
    if free and owner >= 0:
        return (
            R.HIRE,
            f"investor cards lie beside the board ({', '.join(free)}), so a hire set must take one of those, "
            f"not seat {owner}'s {move.colour}.",
        )
    return R.HIRE, f"the {move.colour} investor cannot be hired now."


def _travel(state: State, seat: int, move: Travel) -> tuple[str, str]:
    neg = state.neg
    assert neg is not None
    colour = COLOURS.index(move.colour)
    counts = state.counts[seat]
    if move.grey and not counts[SLOT_GREY]:
        return R.TRAVEL, "you hold no grey travel card (viaje gris)."
    if not move.grey and not counts[SLOT_TRAVEL + colour]:
        return (
            R.TRAVEL,
            f"you hold no {move.colour} travel card (viaje); a travel card must match the colour or be grey.",
        )
    space = SPACES[neg.space]
    if move.colour not in space.colours:
        return (
            R.R_TRAVEL_TARGETS,
            f"this deal on space {space.number} needs {space.describe()}; "
            f"a travel card on {move.colour} has no target.",
        )
    if move.target == INVESTOR:
        owner = state.owner[colour]
        if owner != move.seat:
            holder = "lies beside the board" if owner < 0 else f"is held by seat {owner}"
            return R.R_TRAVEL_TARGETS, f"the {move.colour} investor {holder}, not by seat {move.seat}."
        return R.R_TRAVEL_TARGETS, f"the {move.colour} investor has already travelled in this deal."
    return R.R_TRAVEL_TARGETS, f"seat {move.seat} has no {move.colour} family card placed in this deal."


def _in_negotiation(game: YoSoyElJefe, state: State, seat: int, move: Any, prompt: str) -> tuple[str, str]:
    neg = state.neg
    assert neg is not None
    boss = neg.boss
    counts = state.counts[seat]
    if neg.floor == "price":
        if isinstance(move, Price):
            top_m, top_d = max(1, neg.payout // 2), max(1, neg.dividends // 2)
            unit = "M" if move.unit == MILLIONS else " dividends"
            return (
                R.R_PRICES,
                f"{move.amount}{unit} is off the menu: name whole millions from 1M to {top_m}M or 1 to {top_d} "
                "dividends.",
            )
        return R.R_PROTOCOL, f"name the price first: {prompt}"
    if isinstance(move, Price):
        return R.R_PROTOCOL, f"no price is being named now; offer or bid first: {prompt}"
    if isinstance(move, Stop):
        return R.R_STOP_TIMING, "a stop card answers a travel card, boss card or hire set just played, and none is."
    if isinstance(move, (Negotiate, Roll, Draw, Discard, PlaceMarker)):
        return R.R_PROTOCOL, f"a negotiation is under way: {prompt}"
    if isinstance(move, Travel):
        return _travel(state, seat, move)
    if isinstance(move, Hire):
        return _hire(game, state, seat, move)
    if isinstance(move, PlayBoss):
        if seat == boss:
            return R.BOSS, "you are already the boss of this negotiation."
        return R.BOSS, "you hold no boss card (jefe)."
    is_boss = seat == boss
    if isinstance(move, Close):
        if not is_boss:
            return R.CLOSE, f"only the boss (seat {boss}) closes the deal."
        missing = game._missing(state)
        if missing:
            return R.CLOSE, f"the deal cannot close yet: still missing {missing}."
        return (
            R.R_PROTOCOL,
            "the boss closes only after a round in which every other seat passed; this round some acted, "
            "so pass to give them another round.",
        )
    if isinstance(move, Fail):
        if not is_boss:
            return R.FAIL, f"only the boss (seat {boss}) declares the deal failed."
        return (
            R.TWO_PLAYERS,
            "under the two-player rules the boss must complete a deal whose investors and family cards are on the "
            "table.",
        )
    if isinstance(move, Pass):
        return (
            R.R_PROTOCOL,
            "every other seat passed this round: the boss must close, declare failure or act, not wait.",
        )
    colour = COLOURS.index(move.colour)
    space = SPACES[neg.space]
    if isinstance(move, PlaceFamily):
        if not counts[SLOT_FAMILY + colour]:
            rule = R.BOSS_FAMILY if is_boss else R.PARTICIPATION
            return rule, f"you hold no {move.colour} family card (familia)."
        if move.colour not in space.colours:
            return R.R_PLACE_FAMILY, f"this deal needs {space.describe()}; a {move.colour} family card cannot help it."
        if (seat, colour) in neg.placed:
            return R.R_PLACE_FAMILY, f"you have already placed a {move.colour} family card in this deal."
        return _offer_limits(state, seat, colour)
    if isinstance(move, Offer):
        if is_boss:
            return R.PARTICIPATION, "the boss does not offer to itself: its own investors and family cards take part."
        if move.colour not in space.colours:
            return R.PARTICIPATION, f"this deal needs {space.describe()}; {move.colour} is not among them."
        if not game._represents(state, neg, seat, colour):
            return (
                R.PARTICIPATION,
                f"you have no {move.colour} investor able to take part and no {move.colour} family card placed.",
            )
        return _offer_limits(state, seat, colour)
    if isinstance(move, Bid):
        if not is_boss:
            return R.PARTICIPATION, f"only the boss (seat {boss}) proposes prices; offer your colour instead."
        if move.seat >= state.n or move.seat == boss:
            return R.PARTICIPATION, f"seat {move.seat} is not another seat at this table."
        if move.colour not in space.colours:
            return R.PARTICIPATION, f"this deal needs {space.describe()}; {move.colour} is not among them."
        if not game._represents(state, neg, move.seat, colour):
            return (
                R.PARTICIPATION,
                f"seat {move.seat} has no {move.colour} investor able to take part and no {move.colour} family card "
                "placed.",
            )
        item = neg.items.get((move.seat, colour))
        if item is not None and item[0] == AGREED:
            return R.R_PROMISES, f"seat {move.seat}'s {move.colour} is already agreed for {item[1]}M; it binds."
        return (
            R.R_BOUND,
            f"you have proposed {BIDS_PER_SEAT} prices to seat {move.seat}, the most allowed until the boss changes.",
        )
    if isinstance(move, (Accept, Refuse)):
        if move.seat >= state.n:
            return R.CONSIDERATION, f"seat {move.seat} is not at this table."
        item = neg.items.get((move.seat, colour))
        wanted = ASKED if is_boss else PROPOSED
        if not is_boss and move.seat != seat:
            return R.CONSIDERATION, "a seat answers only the boss's price for its own colour."
        if item is None or item[0] != wanted:
            side = f"seat {move.seat} has asked" if is_boss else "the boss has proposed"
            return R.CONSIDERATION, f"there is no price on the table that {side} for {move.colour}."
        room = neg.payout - neg.agreed_total()
        return (
            R.CONSIDERATION,
            f"{item[1]}M would bring the promises to {neg.agreed_total() + item[1]}M, more than the {neg.payout}M "
            "this deal pays; promises come only from its dividends" + (f" ({room}M remain)." if room >= 0 else "."),
        )
    return R.R_PROTOCOL, f"{move.text()!r} is not possible now: {prompt}"


def _offer_limits(state: State, seat: int, colour: int) -> tuple[str, str]:
    neg = state.neg
    assert neg is not None
    item = neg.items.get((seat, colour))
    if item is not None and item[0] == AGREED:
        return R.R_PROMISES, f"your {COLOURS[colour]} is already agreed for {item[1]}M; an agreement binds."
    return (
        R.R_BOUND,
        f"you have named {OFFERS_PER_SEAT} prices under this boss, the most a seat may until the boss changes.",
    )
