"""How long a Se Vende table can last: an upper bound on its decisions, derived from the card set.

The game always ends at the end of round ``turn_limit`` at the latest (se-vende/rulings/limite-de-rondas),
so a table's decisions are bounded by ``turn_limit x seats x`` (the decisions one seat can make in
one round) plus the setup discards. One seat, in one round, decides at most:

* its action card: 1;
* in Explorar, one keep per card it may keep: 1, +1 for Explorar +1/+1, + every explore-keep power;
* in Desarrollar and in Asentar, what to place (1) and one card per point of cost paid (at most 6);
* in Consumir, one sale, one use per consume power, one good per good a power may take, one card
  per card a hand power may discard, and "done";
* in Producir, the bonus windfall production and one per windfall-production power;
* at the hand limit, one discard per card drawn this round (a round starts with at most ten cards).

Powers count only from a seat's tableau, which never holds more than 13 cards (a round starts with
fewer than 12, else the game would have ended, and a round places at most two), so each sum takes
the 13 cards of the set that give it most, as if one tableau could hold them all at once: the bound
is loose but safe whatever the seats do. :data:`ROUND_BOUND` is the result for this card set;
:data:`.config.LONGEST_TABLE` is the bound of the largest table the options allow.
"""

from __future__ import annotations

from club_agentes.engine.se_vende.cards import TRADE_PRICE, CardDef, PowerName, load_deck
from club_agentes.engine.se_vende.state import SETUP_DISCARDS, TABLEAU_END

TABLEAU_MAX = TABLEAU_END + 1
"""The most cards a tableau can hold: a round starts with at most 11 and places at most two."""


def _top(values: list[int]) -> int:
    return sum(sorted(values, reverse=True)[:TABLEAU_MAX])


def _sum(defs: tuple[CardDef, ...], name: PowerName, field: str) -> int:
    return _top([sum(getattr(p, field) for p in d.powers if p.name is name) for d in defs])


def _count(defs: tuple[CardDef, ...], *names: PowerName) -> int:
    return _top([sum(1 for p in d.powers if p.name in names) for d in defs])


def round_bound(defs: tuple[CardDef, ...]) -> int:
    """Return an upper bound on the decisions one seat makes in one round with the cards ``defs``."""
    keep = 2 + _sum(defs, PowerName.EXPLORE_KEEP, "n")
    max_cost = max((d.cost for d in defs), default=0)
    place_and_pay = 2 * (1 + max_cost)
    consume = (
        1
        + _count(defs, PowerName.CONSUME_GOODS, PowerName.CONSUME_HAND)
        + _sum(defs, PowerName.CONSUME_GOODS, "up_to")
        + _sum(defs, PowerName.CONSUME_HAND, "up_to")
        + 1
    )
    produce = 1 + _count(defs, PowerName.PRODUCE_WINDFALL)
    worlds_with_goods = min(TABLEAU_MAX, sum(1 for d in defs if d.world in ("production", "windfall")))
    drawn = (
        keep
        + 1  # the Asentar bonus
        + _sum(defs, PowerName.SETTLE_DRAW, "n")
        + _sum(defs, PowerName.DEVELOP_DRAW, "n")
        + max(TRADE_PRICE.values())
        + _sum(defs, PowerName.TRADE_BONUS, "n")
        + _top([sum(p.up_to * p.cards for p in d.powers if p.name is PowerName.CONSUME_GOODS) for d in defs])
        + _sum(defs, PowerName.PRODUCE_DRAW, "n")
        + _sum(defs, PowerName.PRODUCE_DRAW_PER_KIND, "n") * worlds_with_goods
    )
    return 1 + keep + place_and_pay + consume + produce + drawn


ROUND_BOUND = round_bound(load_deck().defs)
"""The most decisions one seat can make in one round with this card set."""


def table_bound(seats: int, turn_limit: int) -> int:
    """Return an upper bound on the decisions of a whole table of ``seats`` seats and ``turn_limit`` rounds."""
    return seats * (SETUP_DISCARDS + turn_limit * ROUND_BOUND)
