"""Answering an attack (market-fortune/cap-4/sistema-de-combate) and what the attack does to whoever does not.

"Cuando te atacan con una roja, te defiendes de inmediato con una azul. Las dos van al
descarte. Sin defensa, el ataque te golpea. En ataques grupales, las defensas se resuelven en
orden de turno, en sentido horario desde el atacante." Every reached seat is polled in that
order (ruling ataques-y-defensas); :func:`defend_check` is the rule of a defence (a blue whose
text covers the attack); :func:`hit` applies the red card's effect to a seat that declined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_INDEX,
    CARD_NAME,
    CARD_TYPE,
    IS_BLUE,
    IS_RED,
    N_BUILDING,
    N_CARDS,
    STRATEGY,
    Effect,
)
from club_agentes.engine.market_fortune.flow import after_red, describe_portfolio, reveal_all
from club_agentes.engine.market_fortune.moves import DECLINE, Decline, Defend, Optimise, intern
from club_agentes.engine.market_fortune.scoring import inv_value, strategy
from club_agentes.engine.market_fortune.state import REACTION, Attack, Investment, State
from club_agentes.engine.market_fortune.steps.base import declare
from club_agentes.engine.market_fortune.table import (
    Events,
    Refusal,
    add_hand,
    add_strategy,
    cn,
    die_plus,
    discard_by_strategy,
    inv_text,
    learn,
    make_public,
    obscure_hand,
    obscure_strategies,
    private_to,
    return_investment,
    seat_list,
    shared_rows,
    take_strategy,
)

DEFEND_MOVES = {c: intern(Defend, CARD_ID[c]) for c in range(N_BUILDING, N_CARDS) if IS_BLUE[c]}
_ATTACKED = {"cards": "the cards of your hand", "investments": "your investments", "turn": "your turn"}


def _strategy_part(card: int) -> Refusal | None:
    if CARD_TYPE[card] != STRATEGY:
        return Refusal(rid.COMBAT, lambda: f"{cn(card)} is a building card; only a blue strategy cancels an attack")
    return None


def _held_part(state: State, seat: int, card: int) -> Refusal | None:
    if card not in state.strats[seat]:
        return Refusal(rid.COMBAT, lambda: f"you do not hold {cn(card)}")
    return None


def _blue_part(card: int) -> Refusal | None:
    if not IS_BLUE[card]:
        return Refusal(rid.COMBAT, lambda: f"{cn(card)} is not blue; only a blue strategy cancels an attack")
    return None


def covers_check(card: int, red_card: int) -> Refusal | None:
    """Return why blue ``card``'s text does not cover the attack of ``red_card``, or ``None``."""
    s = strategy(card)
    red = strategy(red_card)
    if red.spec.attacks not in s.spec.defends:
        return Refusal(
            s.section,
            lambda: (
                f"{s.name} cancels only attacks on {' or '.join(_ATTACKED[d] for d in s.spec.defends)}, "
                f"and {red.name} attacks {_ATTACKED[red.spec.attacks]}"
            ),
        )
    return None


def defend_check(state: State, seat: int, card: int) -> Refusal | None:
    """Return why ``seat`` may not cancel the attack with ``card``, or ``None``.

    Its parts, in the order a refusal names them: a strategy, held by the seat (the zone part),
    blue, whose text covers this attack (:func:`covers_check`).
    """
    atk = state.attack
    assert atk is not None
    return _strategy_part(card) or _held_part(state, seat, card) or _blue_part(card) or covers_check(card, atk.card)


# The parts of defend_check that read only the two cards, for every (attacking red, card) pair: the
# defence it accepts, or None.
_DEFENCES: list[list[Any]] = shared_rows(
    [
        [
            DEFEND_MOVES[c]
            if IS_RED[red] and not (_strategy_part(c) or _blue_part(c) or covers_check(c, red))
            else None
            for c in range(N_CARDS)
        ]
        for red in range(N_CARDS)
    ]
)


def reaction_moves(state: State, seat: int) -> list[Any]:
    """Legal moves of a polled seat: each strategy it holds that can cancel this attack, or decline.

    The candidates are the seat's strategies (the zone of :func:`defend_check`); the rest of the
    check reads only the two cards, from its table (:data:`_DEFENCES`).
    """
    atk = state.attack
    assert atk is not None
    row = _DEFENCES[atk.card]
    out: list[Any] = []
    for c in state.strats[seat]:
        m = row[c]
        if m is not None:
            out.append(m)
    out.append(DECLINE)
    return out


def check_defend(state: State, seat: int, move: Defend) -> Refusal | None:
    """The check of a defence (:func:`defend_check`)."""
    return defend_check(state, seat, CARD_INDEX[move.card])


def apply_defend(state: State, seat: int, move: Defend) -> Events:
    """A polled seat defends with a blue card (checked): the attack is cancelled against it (or for all)."""
    atk = state.attack
    assert atk is not None
    ev: Events = []
    red = CARD_NAME[atk.card]
    card = CARD_INDEX[move.card]
    s = strategy(card)
    state.strats[seat].remove(card)
    make_public(state, card)
    ev.append(
        Event(
            f"seat {seat} defends with {cn(card)}: {red} is cancelled against seat {seat}",
            None,
            {"card": CARD_ID[card]},
        )
    )
    if s.effect is Effect.CANCEL_AND_DRAW:
        for _ in range(s.params["draw"]):
            c = take_strategy(state, seat, ev)
            if c >= 0:
                ev.append(Event(f"Experiencia: seat {seat} takes 1 strategy"))
                ev.append(Event(f"you took {cn(c)}", (seat,), {"card": CARD_ID[c]}))
    state.discards[2].append(card)
    if s.effect is Effect.CANCEL_FOR_ALL:
        rest = atk.window.order[atk.window.index + 1 :]
        atk.window.close()
        if rest:
            ev.append(Event(f"Analista Errado: {red} is cancelled for seats {seat_list(rest)} too"))
    else:
        atk.window.pass_turn(seat)
    if not atk.window.is_open:
        finish_attack(state, ev)
    return ev


def apply_decline(state: State, seat: int, move: Decline) -> Events:
    """A polled seat declines: the attack hits it at once."""
    atk = state.attack
    assert atk is not None
    ev: Events = []
    hit(state, atk, seat, ev)
    atk.window.pass_turn(seat)
    if not atk.window.is_open:
        finish_attack(state, ev)
    return ev


_NO_OPTIMISING = Refusal(rid.OPTIMISATION, "you may never optimise while an attack is being resolved")


def _not_an_answer(state: State, seat: int, move: Any) -> Refusal:
    """The refusal of a move that answers no attack (an optimisation is never made during one)."""
    if type(move) is Optimise:
        return _NO_OPTIMISING
    atk = state.attack
    assert atk is not None
    red = CARD_NAME[atk.card]
    return Refusal(rid.COMBAT, f"seat {atk.attacker} attacks you with {red}: defend with a blue strategy or decline")


REACTION_STEP = declare(
    REACTION,
    reaction_moves,
    {Defend: (check_defend, apply_defend), Decline: (None, apply_decline)},
    _not_an_answer,
)


def finish_attack(state: State, ev: Events) -> None:
    """Close a resolved attack: the red card goes to the strategy discard and the turn goes on."""
    atk = state.attack
    assert atk is not None
    state.discards[2].append(atk.card)
    state.attack = None
    after_red(state, ev)


# ---------------------------------------------------------------------------- effects


def _lose_investments(state: State, seat: int, lost: list[Investment], ev: Events, why: str) -> None:
    cards = []
    for inv in lost:
        cards.append(inv.stock)
        cards.append(inv.ret)
    private = "; ".join(inv_text(i) for i in lost)
    public = [c for c in cards if state.know[c] & state.public_bit]  # flipped face up just before (Auditoría)
    shown, blocked = discard_by_strategy(state, cards, seat)
    for c in blocked:
        if c in public:  # face down now, but every seat saw it go there
            learn(state, c, *range(state.n))
    for inv in lost:
        if inv.green >= 0:
            state.discards[2].append(inv.green)
            make_public(state, inv.green)
    greens = [inv.green for inv in lost if inv.green >= 0]
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


def _steal(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Robo (market-fortune/cartas/robo): the attacker takes 1 of ``seat``'s strategies at random."""
    a = atk.attacker
    pool = state.strats[seat]
    c = pool.pop(state.rng.below(len(pool)))
    # Third seats cannot tell which strategy moved; thief and victim both know.
    obscure_strategies(state, seat, a)
    add_strategy(state, a, c)
    private_to(state, c, a, seat)
    ev.append(Event(f"seat {seat} did not defend: seat {a} took 1 of seat {seat}'s strategies at random"))
    ev.append(Event(f"Robo: seat {a} took {cn(c)} from seat {seat}", (a, seat), {"card": CARD_ID[c]}))


def _collapse(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Colapso de Mercado (market-fortune/cartas/colapso-de-mercado): ``seat``'s face-down investments are lost.

    Face-up investments are final (ruling inversiones-volteadas): only the face-down ones are lost.
    """
    lost = [i for i in state.invs[seat] if not i.face_up]
    state.invs[seat] = [i for i in state.invs[seat] if i.face_up]
    _lose_investments(state, seat, lost, ev, f"seat {seat} did not defend against Colapso de Mercado")


def _correction(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Corrección (market-fortune/cartas/correccion): the chosen investment returns to ``seat``'s hand."""
    k = atk.investment
    assert k is not None
    inv = return_investment(state, seat, k)
    text = f"seat {seat} did not defend: Corrección returns investment #{k} to seat {seat}'s hand"
    ev.append(Event(text + (f" ({inv_text(inv)})" if inv.face_up else "")))
    ev.append(Event(f"your investment {inv_text(inv)} returned to your hand", (seat,)))


def _audit(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Auditoría Federal (market-fortune/cartas/auditoria-federal): ``seat``'s portfolio is flipped face up and
    the investments it flipped worth the card's ``max_value`` or less are discarded."""
    limit = strategy(atk.card).params["max_value"]
    flipped = [i for i in state.invs[seat] if not i.face_up]
    reveal_all(state, seat, False)
    ev.append(
        Event(
            f"seat {seat} did not defend: Auditoría Federal flips its portfolio face up: "
            f"{describe_portfolio(state, seat, False)}"
        )
    )
    # Only the investments it flipped: those already face up were final (ruling inversiones-volteadas).
    lost = [i for i in flipped if inv_value(i) <= limit]
    if lost:
        state.invs[seat] = [i for i in state.invs[seat] if not any(i is x for x in lost)]
        _lose_investments(state, seat, lost, ev, f"investments worth {limit}M or less are discarded")


def _trade(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Negociación (market-fortune/cartas/negociacion): attacker and ``seat`` exchange 1 building card taken at
    random from each hand."""
    a = atk.attacker
    mine = state.hands[a].pop(state.rng.below(len(state.hands[a])))
    theirs = state.hands[seat].pop(state.rng.below(len(state.hands[seat])))
    add_hand(state, a, theirs)
    add_hand(state, seat, mine)
    # Both sides know both cards; third seats cannot tell which cards changed hands.
    obscure_hand(state, a, seat)
    obscure_hand(state, seat, a)
    private_to(state, mine, a, seat)
    private_to(state, theirs, a, seat)
    ev.append(Event(f"seat {seat} did not defend: seats {a} and {seat} exchanged 1 building card taken at random"))
    ev.append(Event(f"Negociación: seat {a} gave {cn(mine)} and received {cn(theirs)} from seat {seat}", (a, seat)))


def _block(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Bloqueo Regulatorio (market-fortune/cartas/bloqueo-regulatorio): ``seat`` may not Arriesgar next turn."""
    state.risk_ban[seat] = True
    ev.append(Event(f"seat {seat} did not defend: it may not Arriesgar on its next turn"))


def _inflation(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Inflación (market-fortune/cartas/inflacion): ``seat`` discards 1 building card of its hand at random
    (face down and blocked under Campeonato)."""
    hand = state.hands[seat]
    c = hand.pop(state.rng.below(len(hand)))
    shown, _ = discard_by_strategy(state, [c], seat)
    if shown:
        ev.append(Event(f"seat {seat} did not defend against Inflación and discarded {cn(c)} at random"))
        return
    obscure_hand(state, seat)
    ev.append(
        Event(
            f"seat {seat} did not defend against Inflación and discarded 1 building card at random, "
            "face down on its pile, blocked (Campeonato)"
        )
    )
    ev.append(Event(f"Inflación took your {cn(c)}", (seat,)))


def _systemic(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Riesgo Sistémico (market-fortune/cartas/riesgo-sistemico): ``seat`` rolls the Fortune die; on a − its
    newest face-down investment returns to its hand (face-up ones are final: ruling inversiones-volteadas)."""
    if die_plus(state):
        ev.append(Event(f"seat {seat} did not defend against Riesgo Sistémico, rolled + and keeps its portfolio"))
        return
    k = max(k for k, i in enumerate(state.invs[seat]) if not i.face_up)
    inv = return_investment(state, seat, k)
    ev.append(
        Event(
            f"seat {seat} did not defend against Riesgo Sistémico, rolled − and its newest "
            f"face-down investment #{k} returns to its hand"
        )
    )
    ev.append(Event(f"your investment {inv_text(inv)} returned to your hand", (seat,)))


Hit = Callable[[State, Attack, int, Events], None]
_HITS: dict[Effect, Hit] = {
    Effect.STEAL_STRATEGY: _steal,
    Effect.MARKET_COLLAPSE: _collapse,
    Effect.CORRECTION: _correction,
    Effect.FEDERAL_AUDIT: _audit,
    Effect.TRADE: _trade,
    Effect.REGULATORY_BLOCK: _block,
    Effect.INFLATION: _inflation,
    Effect.SYSTEMIC_RISK: _systemic,
}
"""What each red attack does to a seat that did not defend, by the attack's effect."""


def hit(state: State, atk: Attack, seat: int, ev: Events) -> None:
    """Apply the attack's effect to ``seat``, who did not defend (one named step per red attack: :data:`_HITS`)."""
    found = _HITS.get(strategy(atk.card).effect)
    if found is not None:
        found(state, atk, seat, ev)
