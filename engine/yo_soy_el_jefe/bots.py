"""The heuristic bot of Yo soy el jefe. It decides only from its seat's view (``Observation.view``).

As boss it gathers the missing colours cheaply (its family cards, hire sets, one fair proposal per seat and
colour), accepts reasonable demands, waits while others may still answer, and closes as soon as it may. As
another seat it accepts fair proposals, states one fair demand for a colour the deal still needs, backs an
agreed investor with a family card, travels against the deals of a seat that looks richer, takes over rich
deals with a boss card when it could close them itself, and protects its own deals with stops.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from club_agentes.engine.core.model import ViewBot, moves_by_type
from club_agentes.engine.yo_soy_el_jefe.moves import (
    DIVIDENDS,
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
    Withdraw,
)

_PILE_RANK = {"no money": 0, "a small pile": 1, "a medium pile": 2, "a large pile": 3, "a huge pile": 4}
_DISCARD_ORDER = ("hire", "family", "travel", "boss", "stop")
FAIR_ASK = 1.15  # a seat asks this share of an even split of the payout
FAIR_BID = 0.8  # the boss proposes this share
ACCEPT_UP_TO = 1.25  # the boss accepts a demand up to this share, if it keeps more than that seat gets
ACCEPT_FROM = 0.6  # a seat accepts a proposal from this share (else it counters with its own demand)


def _pile_rank(text: str) -> int:
    for prefix, rank in _PILE_RANK.items():
        if text.startswith(prefix):
            return rank
    return 0


def _my_rank(money: int) -> int:
    return 0 if money <= 0 else 1 if money < 20 else 2 if money < 50 else 3 if money < 100 else 4


class HeuristicBot(ViewBot):
    """A simple, honest player: it reads only its own view."""

    strength = "rule-of-thumb play from its own view: beats random bots almost always, easily read by a careful agent"

    def decide(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        """Return one of ``moves``, decided from ``view`` only."""
        kinds = {type(m) for m in moves}
        if view["card_waiting_for_stops"] is not None:
            return self._stop(view, seat, moves)
        if PlaceMarker in kinds:
            return self._marker(view, moves)
        if Price in kinds:
            return self._price(view, seat, moves)
        neg = view["negotiation"]
        if neg is not None:
            if neg["boss"] == seat:
                return self._as_boss(view, seat, moves, neg)
            return self._as_other(view, seat, moves, neg)
        if Discard in kinds:
            return self._discard(view, moves)
        if Negotiate in kinds or Roll in kinds or Draw in kinds:
            return self._turn(view, seat, moves)
        return moves[0]

    # -- helpers ---------------------------------------------------------------------------

    def _hand(self, view: dict[str, Any]) -> Counter[tuple[str, str | None]]:
        return Counter((c["kind"], c["colour"]) for c in view["hand"])

    def _mine(self, view: dict[str, Any], seat: int) -> set[str]:
        return set(view["players"][seat]["investors"])

    def _prospect(self, view: dict[str, Any], seat: int, space: dict[str, Any]) -> float:
        """Estimate what negotiating on ``space`` would earn (millions), from the view alone."""
        card = view["next_deal_card"]
        if card is None:
            return -1.0
        hand = self._hand(view)
        mine = self._mine(view, seat)
        have = {c for c in space["mandatory"] + space["optional"] if c in mine or hand[("family", c)]}
        missing = [c for c in space["mandatory"] if c not in have]
        opt_have = sum(1 for c in space["optional"] if c in have)
        need = len(missing) + max(0, space["optional_needed"] - opt_have)
        payout = space["dividends"] * card["dividend"]
        share = payout / max(1, space["investors_needed"])
        if need > 2:
            return -1.0
        return payout - need * share * 1.2

    def _share(self, neg: dict[str, Any]) -> float:
        return float(neg["payout"]) / max(1, neg["space"]["investors_needed"])

    def _wanted(self, neg: dict[str, Any]) -> set[str]:
        """The colours the deal still lacks (mandatory ones, and optional ones while some are needed)."""
        space = neg["space"]
        covered = {p["colour"] for p in neg["group_if_closed_now"]}
        wanted = {c for c in space["mandatory"] if c not in covered}
        if space["optional_needed"] > sum(1 for c in space["optional"] if c in covered):
            wanted |= {c for c in space["optional"] if c not in covered}
        return wanted

    def _named(self, neg: dict[str, Any], by: int, seat: int, colour: str) -> int:
        return sum(
            len(p["millions"])
            for p in neg["prices_named_under_this_boss"]
            if p["by"] == by and p["seat"] == seat and p["colour"] == colour
        )

    # -- decisions -------------------------------------------------------------------------

    def _marker(self, view: dict[str, Any], moves: Sequence[Any]) -> Any:
        spaces = {b["space"]: b for b in view["board"]}
        # The first player (to our left) negotiates first: leave it a poor space.
        return min(moves, key=lambda m: (spaces[m.space]["dividends"], m.space))

    def _turn(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        value = self._prospect(view, seat, view["marker_space"])
        hand_size = len(view["hand"])
        want = (value >= 3 and hand_size >= 4) or hand_size >= 10
        for m in moves:
            if isinstance(m, Negotiate) and (want or not any(isinstance(x, (Roll, Draw)) for x in moves)):
                return m
        for m in moves:
            if isinstance(m, (Roll, Draw)):
                return m
        return moves[0]

    def _discard(self, view: dict[str, Any], moves: Sequence[Any]) -> Any:
        hires = [m for m in moves if isinstance(m, Hire)]
        if hires:
            return self._best_hire(view, hires)
        hand = self._hand(view)
        discards = [m for m in moves if isinstance(m, Discard)]

        def keep_value(m: Discard) -> tuple[int, int]:
            order = _DISCARD_ORDER.index(m.kind)
            if m.kind == "hire" and sum(v for (k, _), v in hand.items() if k == "hire") >= 3:
                order = 3
            return (order, -hand[(m.kind, m.colour)])

        return min(discards, key=keep_value)

    def _best_hire(self, view: dict[str, Any], hires: Sequence[Hire]) -> Hire:
        demand: Counter[str] = Counter()
        for b in view["board"]:
            if not b["covered_by"]:
                for c in view["investors"]:
                    if c["colour"] in b["needs"]:
                        demand[c["colour"]] += b["dividends"]
        return max(hires, key=lambda h: (demand[h.colour], h.colour))

    def _stop(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        stops = [m for m in moves if isinstance(m, Stop)]
        waiting = view["card_waiting_for_stops"]
        passing = next(m for m in moves if isinstance(m, Pass))
        if not stops:
            return passing
        neg = view["negotiation"]
        hurts_me = False
        if waiting["kind"] == "hire":
            hurts_me = waiting["colour"] in self._mine(view, seat)
        elif neg is not None:
            mine_agreed = any(p["seat"] == seat and p["status"] == "agreed" for p in neg["prices"])
            hurts_me = neg["boss"] == seat or (waiting["kind"] == "travel" and waiting["seat"] == seat and mine_agreed)
        return stops[0] if hurts_me else passing

    def _price(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        neg = view["negotiation"]
        share = self._share(neg)
        boss = neg["boss"] == seat
        target = share * (FAIR_BID if boss else FAIR_ASK)
        value = neg["dividend_value"]

        def millions(m: Price) -> int:
            return m.amount if m.unit == MILLIONS else m.amount * value

        return min(moves, key=lambda m: (abs(millions(m) - target), m.unit == DIVIDENDS, m.amount))

    def _affordable(self, neg: dict[str, Any], prices: dict[tuple[int, str], Any], m: Accept) -> bool:
        """Whether a demand is fair and the boss still keeps more of the payout than that seat would get from
        this deal in all."""
        price = prices[(m.seat, m.colour)]["millions"]
        if price > max(self._share(neg) * ACCEPT_UP_TO, 1.0):
            return False
        to_seat = price + sum(p["millions"] for p in neg["prices"] if p["seat"] == m.seat and p["status"] == "agreed")
        kept = neg["payout"] - neg["promised"] - price
        return kept > to_seat

    def _as_boss(self, view: dict[str, Any], seat: int, moves: Sequence[Any], neg: dict[str, Any]) -> Any:
        by_type = moves_by_type(moves)
        if Close in by_type:
            return by_type[Close][0]
        wanted = self._wanted(neg)
        prices = {(p["seat"], p["colour"]): p for p in neg["prices"]}
        for m in by_type.get(Accept, []):
            if m.close and self._affordable(neg, prices, m):
                return m
        for m in by_type.get(PlaceFamily, []):
            if m.colour in wanted:
                return m
        for m in by_type.get(Accept, []):
            if not m.close and m.colour in wanted and self._affordable(neg, prices, m):
                return m
        for m in by_type.get(Hire, []):
            if m.colour in wanted:
                return m
        for m in by_type.get(Refuse, []):
            if m.colour not in wanted or not self._affordable(neg, prices, Accept(m.seat, m.colour)):
                return m
        for m in by_type.get(Bid, []):
            if m.colour in wanted and (m.seat, m.colour) not in prices and not self._named(neg, seat, m.seat, m.colour):
                return m
        if Pass in by_type:  # the others may still answer: let them
            return by_type[Pass][0]
        return by_type.get(Fail, [moves[-1]])[0]

    def _as_other(self, view: dict[str, Any], seat: int, moves: Sequence[Any], neg: dict[str, Any]) -> Any:
        """As a seat other than the boss: the first of the named steps below that finds a move, else pass."""
        by_type = moves_by_type(moves)
        share = self._share(neg)
        prices = {(p["seat"], p["colour"]): p for p in neg["prices"]}
        move = self._answer(by_type, prices, share)
        if move is not None:
            return move
        mine = self._mine(view, seat)
        wanted = self._wanted(neg)
        move = self._offer_colour(by_type, seat, neg, prices, share, mine, wanted)
        if move is not None:
            return move
        agreed_mine = any(p["seat"] == seat and p["status"] == "agreed" for p in neg["prices"])
        if not agreed_mine:
            move = self._travel(view, seat, by_type, neg)
            if move is None:
                move = self._take_over(view, by_type, neg, mine)
            if move is not None:
                return move
        for m in by_type.get(Withdraw, []):
            if m.colour not in wanted:  # the deal no longer needs it: nothing to gain by leaving it
                return m
        return by_type.get(Pass, [moves[-1]])[0]

    def _answer(self, by_type: dict[type, list[Any]], prices: dict[tuple[int, str], Any], share: float) -> Any:
        """Accept a fair proposal, or refuse one below half of that; ``None`` when neither applies."""
        for m in by_type.get(Accept, []):
            if prices[(m.seat, m.colour)]["millions"] >= ACCEPT_FROM * share:
                return m
        for m in by_type.get(Refuse, []):
            if prices[(m.seat, m.colour)]["millions"] < ACCEPT_FROM * share / 2:
                return m
        return None

    def _offer_colour(
        self,
        by_type: dict[type, list[Any]],
        seat: int,
        neg: dict[str, Any],
        prices: dict[tuple[int, str], Any],
        share: float,
        mine: set[str],
        wanted: set[str],
    ) -> Any:
        """Back an agreed investor with a family card, state a fair demand for a wanted colour, or place a family
        card for one; ``None`` when none applies."""
        placed = {(f["seat"], f["colour"]) for f in neg["placed_family_cards"]}
        for m in by_type.get(PlaceFamily, []):  # a backup for an agreed investor, against a travel card
            p = prices.get((seat, m.colour))
            if p is not None and p["status"] == "agreed" and m.colour in mine:
                return m
        for m in by_type.get(Offer, []):
            p = prices.get((seat, m.colour))
            standing = p is not None and (p["status"] != "proposed" or p["millions"] >= ACCEPT_FROM * share)
            if m.colour in wanted and not standing and self._named(neg, seat, seat, m.colour) < 2:
                return m
        for m in by_type.get(PlaceFamily, []):
            if m.colour in wanted and m.colour not in mine and (seat, m.colour) not in placed:
                return m
        return None

    def _travel(self, view: dict[str, Any], seat: int, by_type: dict[type, list[Any]], neg: dict[str, Any]) -> Any:
        """Travel against the investor of a rich deal of a boss that looks richer; ``None`` otherwise."""
        boss = neg["boss"]
        richer = _pile_rank(view["players"][boss]["money_pile"]) >= _my_rank(view["players"][seat]["money"])
        if not richer or neg["payout"] < 8:
            return None
        travels = [m for m in by_type.get(Travel, []) if m.target == INVESTOR and m.seat != seat]
        if travels and (neg["complete"] or len((neg["missing"] or "").split(",")) <= 1):
            return min(travels, key=lambda m: m.grey)
        return None

    def _take_over(
        self, view: dict[str, Any], by_type: dict[type, list[Any]], neg: dict[str, Any], mine: set[str]
    ) -> Any:
        """Take a rich deal over with a boss card when it could close it itself; ``None`` otherwise."""
        if neg["payout"] < 12 or PlayBoss not in by_type:
            return None
        hand = self._hand(view)
        space = neg["space"]
        needed = set(space["mandatory"]) | set(space["optional"])
        have = sum(1 for c in needed if c in mine or hand[("family", c)])
        if have >= space["investors_needed"] - 1:
            return next(m for m in by_type[PlayBoss] if not m.restart)
        return None
