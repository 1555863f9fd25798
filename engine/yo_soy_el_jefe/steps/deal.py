"""What a deal needs and who takes part when it closes (rulings ``composicion-del-cierre`` and ``promesas``).

Pure computations on the state: which colours each board space asks for, whether a seat can give a
colour now, the group that would take part if the boss closed now, what is still missing, and the
prices and agreements that lapse when a seat can no longer give its colour.
"""

from __future__ import annotations

from typing import NamedTuple

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import kept_while
from club_agentes.engine.yo_soy_el_jefe.state import AGREED, ASKED, COLOURS, SPACES, Negotiation, State

FAMILY_PART = "family"
INVESTOR_PART = "investor"
FORCED_PART = "forced"

SPACE_MAND: tuple[tuple[int, ...], ...] = tuple(tuple(COLOURS.index(c) for c in s.mandatory) for s in SPACES)
SPACE_OPT: tuple[tuple[int, ...], ...] = tuple(tuple(COLOURS.index(c) for c in s.optional) for s in SPACES)
SPACE_COLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(m + o)) for m, o in zip(SPACE_MAND, SPACE_OPT, strict=True)
)
SPACE_COLSET: tuple[frozenset[int], ...] = tuple(frozenset(c) for c in SPACE_COLS)
SPACE_OPT_NEEDED: tuple[int, ...] = tuple(s.optional_needed for s in SPACES)


class Part(NamedTuple):
    """One colour taking part in a close: ``seat`` gives ``colour`` as ``how`` for ``price`` millions.

    ``how`` is ``"investor"``, ``"family"`` or ``"forced"`` (another seat's investor used under the
    two-player rules). A named tuple: the group is worked out after every change of a negotiation.
    """

    seat: int
    colour: int
    how: str
    price: int


_PARTS: dict[tuple[int, int, str, int], Part] = {}


def _part(seat: int, colour: int, how: str, price: int) -> Part:
    """Return ``Part(seat, colour, how, price)``, built once for each (a named tuple is immutable)."""
    key = (seat, colour, how, price)
    part = _PARTS.get(key)
    if part is None:
        part = _PARTS[key] = Part(seat, colour, how, price)
    return part


def represents(state: State, neg: Negotiation, seat: int, colour: int) -> bool:
    """Return whether ``seat`` can give ``colour`` now: its investor card, not travelled, or its placed family card."""
    return (state.owner[colour] == seat and colour not in neg.travelled) or (seat, colour) in neg.placed


def group(state: State, neg: Negotiation) -> tuple[list[Part], bool]:
    """Return the parts that would take part if the boss closed now, and whether the deal is complete.

    Formed in the order of ruling ``composicion-del-cierre``, one named step per point of it: the agreements
    (:func:`_agreements`), the boss's investor cards (:func:`_boss_investors`), the boss's placed family cards for
    the colours still missing (:func:`_boss_family`), and under the two-player rules the other seats' investor
    cards (:func:`_forced`); the deal is complete when :func:`_covers_needs`.
    """
    parts: list[Part] = []
    covered: set[int] = set()
    if neg.quotes:
        _agreements(state, neg, parts, covered)
    _boss_investors(state, neg, parts, covered)
    need = _boss_family(neg, parts, covered)
    if state.cfg.two_player_rules:
        need = _forced(state, neg, parts, covered, need)
    return parts, _covers_needs(neg, covered, need)


def _agreements(state: State, neg: Negotiation, parts: list[Part], covered: set[int]) -> None:
    """Point 1 of ruling ``composicion-del-cierre``: every agreement that can still be kept takes part, its seat
    giving its investor card of that colour if it holds it untravelled, else the family card it placed."""
    owner = state.owner
    travelled = neg.travelled
    placed = neg.placed
    quotes = neg.quotes
    for key in sorted(quotes):  # the keys: cheaper to sort than the items
        quote = quotes[key]
        if quote.status != AGREED:
            continue
        s, c = key
        if owner[c] == s and c not in travelled:
            parts.append(_part(s, c, INVESTOR_PART, quote.millions))
            covered.add(c)
        elif key in placed:
            parts.append(_part(s, c, FAMILY_PART, quote.millions))
            covered.add(c)


def _boss_investors(state: State, neg: Negotiation, parts: list[Part], covered: set[int]) -> None:
    """Point 2 of ruling ``composicion-del-cierre``: the boss's own investor cards of the space's colours take part
    unless travelled (3-1, "se consideran automáticamente de acuerdo"), at no cost."""
    boss = neg.boss
    owner = state.owner
    travelled = neg.travelled
    for c in SPACE_COLS[neg.space]:
        if owner[c] == boss and c not in travelled and c not in covered:
            parts.append(_part(boss, c, INVESTOR_PART, 0))
            covered.add(c)


def _boss_family(neg: Negotiation, parts: list[Part], covered: set[int]) -> int:
    """Point 3 of ruling ``composicion-del-cierre``: the boss's placed family cards take part only for colours still
    missing, mandatory ones first, then optional ones in colour order until enough are covered; return how many
    optional colours are still needed."""
    boss = neg.boss
    placed = neg.placed
    if placed:
        for c in SPACE_MAND[neg.space]:
            if c not in covered and (boss, c) in placed:
                parts.append(_part(boss, c, FAMILY_PART, 0))
                covered.add(c)
    opt = SPACE_OPT[neg.space]
    need = SPACE_OPT_NEEDED[neg.space]
    for c in opt:
        if c in covered:
            need -= 1
    if placed:
        for c in opt:
            if need > 0 and c not in covered and (boss, c) in placed:
                parts.append(_part(boss, c, FAMILY_PART, 0))
                covered.add(c)
                need -= 1
    return need


def _forced(state: State, neg: Negotiation, parts: list[Part], covered: set[int], need: int) -> int:
    """Point 4 of ruling ``composicion-del-cierre`` (section ``5-variantes/dos-jugadores``): under the two-player
    rules the other seats' untravelled investor cards fill the colours still missing, mandatory first, each paid
    the payout divided by the investors the space needs; return how many optional colours are still needed."""
    boss = neg.boss
    owner = state.owner
    travelled = neg.travelled
    share = neg.payout // SPACES[neg.space].investors_needed
    for c in SPACE_MAND[neg.space]:
        o = owner[c]
        if c not in covered and o >= 0 and o != boss and c not in travelled:
            parts.append(_part(o, c, FORCED_PART, share))
            covered.add(c)
    for c in SPACE_OPT[neg.space]:
        o = owner[c]
        if need > 0 and c not in covered and o >= 0 and o != boss and c not in travelled:
            parts.append(_part(o, c, FORCED_PART, share))
            covered.add(c)
            need -= 1
    return need


def _covers_needs(neg: Negotiation, covered: set[int], need: int) -> bool:
    """Whether the group covers every mandatory colour and the optional ones the space needs (3-3: otherwise the
    close is refused)."""
    return need <= 0 and covered.issuperset(SPACE_MAND[neg.space])


def _open_group(state: State) -> tuple[list[Part], bool]:
    """:func:`group` of the open negotiation."""
    neg = state.neg
    assert neg is not None
    return group(state, neg)


def current_group(state: State) -> tuple[list[Part], bool]:
    """Return :func:`group` for the open negotiation (worked out once while the deal's terms stand: the core kit's
    :func:`~club_agentes.engine.core.steps.kept_while`)."""
    neg = state.neg
    assert neg is not None
    return kept_while(state, _open_group, neg, neg.terms)


def _open_missing(state: State) -> str:
    """:func:`missing` of the open negotiation."""
    neg = state.neg
    assert neg is not None
    parts, complete = current_group(state)
    return missing(neg, parts, complete)


def current_missing(state: State) -> str:
    """Return :func:`missing` for the open negotiation (worked out once while the deal's terms stand)."""
    neg = state.neg
    assert neg is not None
    return kept_while(state, _open_missing, neg, neg.terms)


def missing(neg: Negotiation, parts: list[Part], complete: bool) -> str:
    """Return what the deal still lacks in words (``""`` when complete), e.g. ``"azul, 1 of rosa/verde"``."""
    if complete:
        return ""
    covered = {p.colour for p in parts}
    words = [COLOURS[c] for c in SPACE_MAND[neg.space] if c not in covered]
    opt = SPACE_OPT[neg.space]
    need = SPACE_OPT_NEEDED[neg.space] - len([c for c in opt if c in covered])
    if need > 0:
        words.append(f"{need} of {'/'.join(COLOURS[c] for c in opt if c not in covered)}")
    return ", ".join(words)


def lapse(state: State, neg: Negotiation) -> list[Event]:
    """Withdraw every price and agreement of a seat that can no longer give its colour (ruling ``promesas``).

    Called after a travel card or a hire set takes effect: a seat gives a colour with its investor card,
    not travelled, or with a family card of that colour it placed; without either, what it asked, was
    proposed or agreed on that colour lapses.
    """
    events: list[Event] = []
    for key in [k for k in sorted(neg.quotes) if not represents(state, neg, k[0], k[1])]:
        seat, colour = key
        quote = neg.quotes.pop(key)
        name = COLOURS[colour]
        why = f"it has no {name} investor able to take part and no {name} family card placed"
        if quote.status == AGREED:
            text = f"seat {seat}'s agreement for its {name} ({quote.millions}M) lapses: {why}."
        else:
            who = "asked by seat" if quote.status == ASKED else "proposed to seat"
            text = f"the {quote.millions}M {who} {seat} for its {name} is withdrawn: {why}."
        neg.history.append(text)
        events.append(Event(text, data={"seat": seat, "colour": name, "millions": quote.millions}))
    return events
