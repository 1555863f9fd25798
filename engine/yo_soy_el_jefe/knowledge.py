"""Yo soy el jefe's one visibility rule: every card's zone and who knows it (:func:`visibility`).

The views show cards only through it and the leak tests read the same record; determinization
(:mod:`.determinize`) deals anew exactly the cards it leaves unknown to a seat (the hands' unseen cards
and the deck, by epoch).
"""

from __future__ import annotations

from club_agentes.engine.core.steps import kept
from club_agentes.engine.core.visibility import NOBODY, PUBLIC, Visibility, Zone, seats
from club_agentes.engine.yo_soy_el_jefe.components import components
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, State

INVESTOR_IDS: tuple[str, ...] = tuple(f.investor_id for f in components().families)
DEAL_IDS: dict[int, str] = {c.number: c.id for c in components().deal_cards}
CARD_IDS: tuple[str, ...] = tuple(c.id for c in CARDS)


def visibility(state: State) -> Visibility:
    """Return who knows each card now, worked out once per state version (core :func:`.steps.kept`)."""
    return kept(state, _visibility)


def _visibility(state: State) -> Visibility:
    """Return who knows each card now.

    Zones: each hand (its owner; every seat also knows a card taken back face up after a deal), the deck
    (nobody: not even which reshuffled card lies where), and the public zones: discards, family cards
    placed in the open deal, travel cards on investors, cards waiting for stops, investor cards and deal
    cards.
    """
    ids = CARD_IDS
    zones = [Zone(f"hand/{s}", [ids[c] for c in state.hands[s]], seats(s)) for s in range(state.n)]
    zones.append(Zone("deck", [ids[c] for c in state.deck], NOBODY))
    zones.append(Zone("discard", [ids[c] for c in state.discard], PUBLIC))
    neg = state.neg
    if neg is not None:
        zones.append(Zone("placed", [ids[k] for _, k in sorted(neg.placed.items())], PUBLIC))
        zones.append(Zone("travel", [ids[t] for _, t in sorted(neg.travelled.items())], PUBLIC))
    if state.stop is not None:
        zones.append(Zone("waiting", [ids[c] for c in state.stop.cards], PUBLIC))
    zones.append(Zone("investors", INVESTOR_IDS, PUBLIC))
    zones.append(Zone("deal_cards", [DEAL_IDS[c.number] for c in state.deal_deck], PUBLIC))
    zones.append(Zone("board", [DEAL_IDS[c] for c in state.covered if c], PUBLIC))
    everyone = tuple(range(state.n))
    return Visibility.of(zones, {ids[c]: everyone for c in state.known})
