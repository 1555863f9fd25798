"""What every phase of Se Vende uses: card names, the powers in play, drawing, discarding and chips.

Queries (``power_total``, ``military``, discounts) read the state; effects (``draw_to_hand``,
``to_discard``, ``award``) change it and append the events they cause. Nothing here decides
whether a move is legal: that is each step's check (:mod:`club_agentes.engine.se_vende.steps`).
"""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.se_vende.actions import DEVELOP, SETTLE
from club_agentes.engine.se_vende.cards import CardDef, PowerName, load_deck
from club_agentes.engine.se_vende.state import NO_CARD, TENS, Board, State, stamp

DECK = load_deck()
DEFS: tuple[CardDef, ...] = DECK.defs
IDS: tuple[str, ...] = DECK.ids
INDEX: dict[str, int] = DECK.index
POWER_SUMS: dict[PowerName, tuple[int, ...]] = {name: tuple(d.total(name) for d in DEFS) for name in PowerName}


# ---------------------------------------------------------------------- words


NAMES: tuple[str, ...] = tuple(f"{d.name} ({i})" for d, i in zip(DEFS, IDS, strict=True))


def name(c: int) -> str:
    """Return a card's printed name with its id, e.g. ``"Cometa Confeti (SV-C040)"``."""
    return NAMES[c]


def seats_text(seats: Sequence[int]) -> str:
    """Return ``"seat 0, seat 2 and seat 3"`` (``"no seat"`` when empty)."""
    if not seats:
        return "no seat"
    words = [f"seat {s}" for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plural(n: int, word: str) -> str:
    """Return ``"1 card"`` or ``"3 cards"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ---------------------------------------------------------------------- steps


def open_step(state: State, step: int, part: tuple[int, ...], *, sealed: bool = False) -> None:
    """Start ``step``, in which the seats ``part`` decide at once.

    For a step whose acts are open (not sealed) and in which several seats act, the public table is
    kept as it stands now (:class:`~club_agentes.engine.se_vende.state.Board`): each seat is shown
    the others as they were when the step began until every seat has finished it
    (se-vende/rulings/decisiones).
    """
    state.step = step
    state.part = part
    state.board = None if sealed or len(part) < 2 else Board.of(state)


# ---------------------------------------------------------------------- powers in play


def active_cards(state: State, seat: int, phase: int) -> list[int]:
    """Return the cards of ``seat``'s tableau whose powers count in ``phase`` of this round.

    A card's powers count from the phase after the one in which it was placed
    (se-vende/preguntas/poderes-nuevos).
    """
    now = stamp(state.round, phase)
    st = state.stamps
    out = []
    for c in state.tableau[seat]:  # loops, not comprehensions, in these two: they run several times a decision
        if st[c] < now:
            out.append(c)
    return out


def power_total(state: State, seat: int, phase: int, power: PowerName) -> int:
    """Return the sum of ``n`` of ``seat``'s powers called ``power`` that count in ``phase``."""
    now = stamp(state.round, phase)
    st = state.stamps
    sums = POWER_SUMS[power]
    total = 0
    for c in state.tableau[seat]:
        if st[c] < now:
            total += sums[c]
    return total


def military(state: State, seat: int) -> int:
    """Return ``seat``'s Militar in this round's Asentar phase (it lasts only until that phase ends)."""
    return power_total(state, seat, SETTLE, PowerName.SETTLE_MILITARY)


def develop_discount(state: State, seat: int) -> int:
    """Return how many cards less ``seat`` pays for a development now (chooser bonus included)."""
    bonus = 1 if state.chosen is not None and state.chosen.get(seat) == "desarrollar" else 0
    return bonus + power_total(state, seat, DEVELOP, PowerName.DEVELOP_DISCOUNT)


def settle_discount(state: State, seat: int) -> int:
    """Return how many cards less ``seat`` pays for a non-military world now."""
    return power_total(state, seat, SETTLE, PowerName.SETTLE_DISCOUNT)


def owed(d: CardDef, discount: int) -> int:
    """Return the cards a placement of ``d`` costs after ``discount`` (a military world costs none)."""
    return 0 if d.military else max(0, d.cost - discount)


def drawable(state: State) -> int:
    """Return how many cards can still be drawn (the supply and the discard pile together)."""
    return len(state.supply) + len(state.discard)


# ---------------------------------------------------------------------- cards moving


def not_in_hand(state: State, seat: int, card_id: str | None, rule: str, purpose: str) -> Refusal | None:
    """Return a refusal citing ``rule`` if ``card_id`` is not in ``seat``'s hand, else ``None``."""
    c = INDEX.get(card_id, NO_CARD) if card_id is not None else NO_CARD
    if c not in state.hands[seat]:
        return Refusal(rule, lambda: f"{card_id} is not in seat {seat}'s hand, so you cannot {purpose}")
    return None


def to_discard(state: State, card: int, knower: int | None) -> None:
    """Put ``card`` face down on the discard pile; ``knower`` is the seat that saw it (or ``None``)."""
    state.discard.append(card)
    if knower is not None:
        state.known[card] = knower


def discard_owed(state: State, seat: int, card_id: str, said: str, ev: list[Event]) -> bool:
    """Discard a card from ``seat``'s hand face down, one of those it owes in this step (``s.todo``).

    ``seat`` is told ``said``, in which ``{card}`` stands for the card's name; return whether it owes
    no more cards.
    """
    c = INDEX[card_id]
    state.hands[seat].remove(c)
    to_discard(state, c, seat)
    state.todo[seat] -= 1
    ev.append(Event(said.format(card=name(c)), (seat,)))
    return state.todo[seat] == 0


def draw(state: State, n: int, ev: list[Event]) -> list[int]:
    """Draw up to ``n`` cards from the supply, shuffling the discard pile in when it runs out.

    See se-vende/rulings/mazo-agotado: when both piles are empty, fewer cards are drawn.
    """
    out: list[int] = []
    supply = state.supply
    for _ in range(n):
        if not supply:
            if not state.discard:
                ev.append(Event("the supply and the discard pile are both empty: no more cards can be drawn"))
                break
            supply.extend(state.discard)
            state.discard.clear()
            state.known.clear()
            state.rng.shuffle(supply)
            ev.append(Event(f"the supply ran out: the discard pile ({len(supply)} cards) is shuffled into it"))
        out.append(supply.pop())
    return out


def draw_to_hand(state: State, seat: int, n: int, why: str, ev: list[Event]) -> None:
    """Draw ``n`` cards into ``seat``'s hand (public: how many; private: which)."""
    if n <= 0:
        return
    cards = draw(state, n, ev)
    state.hands[seat].extend(cards)
    ev.append(Event(f"seat {seat} draws {plural(len(cards), 'card')} ({why})"))
    if cards:
        ev.append(Event(f"you drew {', '.join(name(c) for c in cards)} ({why})", (seat,)))


def take_good(state: State, ev: list[Event]) -> int:
    """Return a card drawn unseen to lie on a world as a good (``NO_CARD`` when none is left)."""
    cards = draw(state, 1, ev)
    return cards[0] if cards else NO_CARD


def award(state: State, seat: int, vp: int, ev: list[Event]) -> None:
    """Hand out ``vp`` points of chips; the 10s join and change is made when the last chip goes.

    See se-vende/rulings/fichas and se-vende/preguntas/fichas-de-10.
    """
    if vp <= 0:
        return
    state.chips[seat] += vp
    if state.chips_out:
        state.pool = max(0, state.pool - vp)
        return
    if vp < state.pool:
        state.pool -= vp
        return
    rest = vp - state.pool
    state.chips_out = True
    state.tens_added = True
    state.pool = max(0, TENS - rest)
    ev.append(
        Event(
            f"seat {seat} took the last victory chip: the four 10-point chips join and change is made so "
            f"every point earned is paid; the game ends at the end of this round"
        )
    )
