"""Victory points (se-vende/puntuacion) and the explained result of a finished game.

"Los puntos provienen de las cartas en tu tableau (mundos y desarrollos), las fichas de victoria
que has acumulado y los puntos especiales de los desarrollos de costo 6, cuyo valor varía según la
carta." A seat's breakdown lists each tableau card's printed points, each cost-6 development's
special points (citing the card's corpus section, which states its formula) and its chips.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from club_agentes.engine.core import Event, Result
from club_agentes.engine.core.model import ScoreLine, SeatScore
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.cards import CardDef, Special
from club_agentes.engine.se_vende.state import OVER, State
from club_agentes.engine.se_vende.table import DEFS, name, seats_text


def _counts(term: Special, tableau: Sequence[int], goods: Collection[int]) -> int:
    count = 0
    per = term.per
    for x in tableau:
        d = DEFS[x]
        if per == "development":
            count += d.is_development
        elif per == "cost6_development":
            count += d.is_development and d.cost == 6
        elif per == "good":
            count += x in goods
        elif d.is_world and (term.good == "any" or d.good == term.good):
            if per == "world":
                count += 1
            elif per == "military_world":
                count += d.military
            elif per == "production_world":
                count += d.world == "production"
            elif per == "windfall_world":
                count += d.world == "windfall"
    return count


def special_terms(card: int, tableau: Sequence[int], goods: Collection[int]) -> list[tuple[Special, int]]:
    """Return each special term of ``card`` (a cost-6 development) with how many things it counts."""
    return [(term, _counts(term, tableau, goods)) for term in DEFS[card].special]


def special_points(tableau: Sequence[int], goods: Collection[int]) -> int:
    """Return the special points that the cost-6 developments of a tableau score (se-vende/puntuacion)."""
    total = 0
    for c in tableau:
        if DEFS[c].special:
            total += sum(term.vp * n for term, n in special_terms(c, tableau, goods))
    return total


def score(state: State, seat: int) -> int:
    """Return ``seat``'s victory points now: tableau cards + chips + cost-6 specials (se-vende/puntuacion)."""
    return score_of(state.tableau[seat], state.chips[seat], state.goods)


def score_of(tableau: Sequence[int], chips: int, goods: Collection[int]) -> int:
    """Return the victory points of a tableau with ``chips`` and the worlds ``goods`` holding a good."""
    return sum(DEFS[c].vp for c in tableau) + chips + special_points(tableau, goods)


def _kind(d: CardDef) -> str:
    if d.is_development:
        return "development"
    return "military world" if d.military else "world"


_TABLEAU_LABELS = tuple(f"tableau: {_kind(d)} {name(c)}" for c, d in enumerate(DEFS))


def breakdown(state: State, seat: int) -> SeatScore:
    """Return ``seat``'s score with one line per tableau card, per special card and for its chips."""
    tableau = state.tableau[seat]
    lines = [ScoreLine(_TABLEAU_LABELS[c], float(DEFS[c].vp), R.SCORING) for c in tableau]
    for c in tableau:
        d = DEFS[c]
        if not d.special:
            continue
        terms = special_terms(c, tableau, state.goods)
        parts = "; ".join(f"{term.text()} x {n}" for term, n in terms)
        points = sum(term.vp * n for term, n in terms)
        lines.append(ScoreLine(f"special: {name(c)}: {parts}", float(points), R.card_section(d.key)))
    lines.append(ScoreLine("victory chips", float(state.chips[seat]), R.CHIPS))
    return SeatScore(seat, float(sum(x.amount for x in lines)), "VP", tuple(lines))


def finish(state: State, ev: list[Event], why: str, rule: str) -> None:
    """End the game: count every seat's points and record the result (ties share the victory)."""
    state.step = OVER
    state.phase = 0
    seats = tuple(breakdown(state, i) for i in range(state.n))
    scores = tuple(b.total for b in seats)
    top = max(scores)
    winners = tuple(i for i, v in enumerate(scores) if v == top)
    listing = ", ".join(f"seat {i} {int(v)} VP" for i, v in enumerate(scores))
    if len(winners) == 1:
        outcome = f"seat {winners[0]} wins with {int(top)} VP ({R.SCORING})"
    else:
        outcome = f"{seats_text(winners)} share the victory with {int(top)} VP (ruling {R.TIES})"
    reason = f"the game ended at the end of round {state.round} because {why}; {outcome}; scores: {listing}"
    state.result = Result(winners, scores, reason, rule, seats)
    ev.append(
        Event(
            reason,
            data={
                "winners": list(winners),
                "scores": list(scores),
                "breakdown": [summary(b) for b in seats],
            },
        )
    )


def summary(b: SeatScore) -> dict[str, int]:
    """Return a seat's score summed per part: tableau, special and chips points, and the total."""
    tableau = sum(x.amount for x in b.lines if x.label.startswith("tableau:"))
    special = sum(x.amount for x in b.lines if x.label.startswith("special:"))
    chips = sum(x.amount for x in b.lines if x.label == "victory chips")
    return {
        "seat": b.seat,
        "tableau": int(tableau),
        "special": int(special),
        "chips": int(chips),
        "total": int(b.total),
    }
