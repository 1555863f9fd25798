"""The heuristic bot of Yo soy el jefe. It decides only from ``game.view(state, seat)``.

As boss it gathers the missing colours cheaply (its family cards, hire sets, fair
bids), accepts reasonable asks and closes as soon as it can. As another seat it
asks a fair share for what the deal needs, accepts reasonable bids, travels
against the deals of a seat that looks richer, takes over rich deals with a boss
card when it could close them itself, and protects its own deals with stops.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from club_agentes.engine.core import Game, Rng
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
)

_PILE_RANK = {"no money": 0, "a small pile": 1, "a medium pile": 2, "a large pile": 3, "a huge pile": 4}
_DISCARD_ORDER = ("hire", "family", "travel", "boss", "stop")


def _pile_rank(text: str) -> int:
    for prefix, rank in _PILE_RANK.items():
        if text.startswith(prefix):
            return rank
    return 0


def _my_rank(money: int) -> int:
    return 0 if money <= 0 else 1 if money < 20 else 2 if money < 50 else 3 if money < 100 else 4


class HeuristicBot:
    """A simple, honest player: it reads only its own view."""

    name = "heuristic"

    def choose(self, game: Game, state: Any, seat: int, moves: Sequence[Any], rng: Rng) -> Any:
        """Return one of ``moves`` for ``seat``, decided from the seat's view.

        Raises:
            IndexError: if ``moves`` is empty.
        """
        if len(moves) == 1:
            return moves[0]
        view = game.view(state, seat)
        kinds = {type(m) for m in moves}
        if Stop in kinds or (view["card_waiting_for_stops"] is not None and kinds <= {Pass, Stop}):
            return self._stop(view, seat, moves)
        if PlaceMarker in kinds:
            return self._marker(view, seat, moves)
        if Price in kinds:
            return self._price(view, seat, moves)
        neg = view["negotiation"]
        if neg is not None:
            if neg["boss"] == seat:
                return self._as_boss(view, seat, moves, neg)
            return self._as_other(view, seat, moves, neg)
        if Discard in kinds:
            return self._discard(view, seat, moves)
        if Negotiate in kinds or Roll in kinds or Draw in kinds:
            return self._turn(view, seat, moves)
        return moves[0]

    # -- helpers ---------------------------------------------------------------------------

    def _hand(self, view: dict[str, Any]) -> Counter:
        return Counter((c["kind"], c["colour"]) for c in view["hand"])

    def _my_investors(self, view: dict[str, Any], seat: int) -> set[str]:
        return set(view["players"][seat]["investors"])

    def _prospect(self, view: dict[str, Any], seat: int, space: dict[str, Any]) -> float:
        """Estimate what negotiating on ``space`` would earn (millions), from the view alone."""
        card = view["next_deal_card"]
        if card is None:
            return -1.0
        hand = self._hand(view)
        mine = self._my_investors(view, seat)
        have = {c for c in space["mandatory"] + space["optional"] if c in mine or hand[("family", c)]}
        missing = [c for c in space["mandatory"] if c not in have]
        opt_have = sum(1 for c in space["optional"] if c in have)
        missing_opt = max(0, space["optional_needed"] - opt_have)
        need = len(missing) + missing_opt
        payout = space["dividends"] * card["dividend"]
        share = payout / max(1, space["investors_needed"])
        if need > 2:
            return -1.0
        return payout - need * share * 1.2

    def _rich_rank(self, view: dict[str, Any], seat: int) -> int:
        return _pile_rank(view["players"][seat]["money_pile"])

    # -- decisions -------------------------------------------------------------------------

    def _marker(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        spaces = {b["space"]: b for b in view["board"]}
        # The first player (to our left) negotiates first: leave it a poor space.
        return min(moves, key=lambda m: (spaces[m.space]["dividends"], m.space))

    def _turn(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        space = view["marker_space"]
        value = self._prospect(view, seat, space)
        hand_size = len(view["hand"])
        want = value >= 3 and hand_size >= 4
        for m in moves:
            if isinstance(m, Negotiate) and (want or not any(isinstance(x, (Roll, Draw)) for x in moves)):
                return m
        for m in moves:
            if isinstance(m, (Roll, Draw)):
                return m
        return moves[0]

    def _discard(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        hires = [m for m in moves if isinstance(m, Hire)]
        if hires:
            return self._best_hire(view, seat, hires)
        hand = self._hand(view)
        discards = [m for m in moves if isinstance(m, Discard)]

        def keep_value(m: Discard) -> tuple[int, int]:
            count = hand[(m.kind, m.colour)]
            order = _DISCARD_ORDER.index(m.kind)
            if m.kind == "hire" and sum(v for (k, _), v in hand.items() if k == "hire") >= 3:
                order = 3
            return (order, -count)

        return min(discards, key=keep_value)

    def _best_hire(self, view: dict[str, Any], seat: int, hires: Sequence[Hire]) -> Hire:
        demand = Counter()
        for b in view["board"]:
            if not b["covered_by"]:
                for c in view["investors"]:
                    if c["colour"] in b["needs"]:
                        demand[c["colour"]] += b["dividends"]
        return max(hires, key=lambda h: (demand[h.colour], h.colour))

    def _stop(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        stop_moves = [m for m in moves if isinstance(m, Stop)]
        waiting = view["card_waiting_for_stops"]
        if not stop_moves or waiting is None:
            return next(m for m in moves if isinstance(m, Pass))
        neg = view["negotiation"]
        hurts_me = False
        if waiting["kind"] == "hire":
            hurts_me = waiting["colour"] in self._my_investors(view, seat)
        elif neg is not None:
            agreed = any(p["seat"] == seat and p["status"] == "agreed" for p in neg["prices"])
            hurts_me = neg["boss"] == seat or (waiting["kind"] == "travel" and agreed)
        return stop_moves[0] if hurts_me else next(m for m in moves if isinstance(m, Pass))

    def _price(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        neg = view["negotiation"]
        share = neg["payout"] / max(1, neg["space"]["investors_needed"])
        boss = neg["boss"] == seat
        target = share * (0.8 if boss else 1.3)
        value = neg["dividend_value"]

        def millions(m: Price) -> int:
            return m.amount if m.unit == MILLIONS else m.amount * value

        return min(moves, key=lambda m: (abs(millions(m) - target), m.unit == DIVIDENDS, m.amount))

    def _as_boss(self, view: dict[str, Any], seat: int, moves: Sequence[Any], neg: dict[str, Any]) -> Any:
        by_type: dict[type, list[Any]] = {}
        for m in moves:
            by_type.setdefault(type(m), []).append(m)
        if Close in by_type:
            return by_type[Close][0]
        space = neg["space"]
        covered = {p["colour"] for p in neg["group_if_closed_now"]}
        missing_m = [c for c in space["mandatory"] if c not in covered]
        opt_needed = space["optional_needed"] - sum(1 for c in space["optional"] if c in covered)
        wanted = set(missing_m) | ({c for c in space["optional"] if c not in covered} if opt_needed > 0 else set())
        for m in by_type.get(PlaceFamily, []):
            if m.colour in wanted:
                return m
        share = neg["payout"] / max(1, space["investors_needed"])
        room = neg["room_left"]
        asks = {(p["seat"], p["colour"]): p for p in neg["prices"]}
        for m in by_type.get(Accept, []):
            p = asks[(m.seat, m.colour)]
            if m.colour in wanted and p["millions"] <= max(share * 1.6, 1) and p["millions"] <= room:
                return m
        for m in by_type.get(Hire, []):
            if m.colour in wanted:
                return m
        for m in by_type.get(Refuse, []):
            p = asks[(m.seat, m.colour)]
            if m.colour not in wanted or p["millions"] > share * 1.6:
                return m
        asked = {(p["seat"], p["colour"]) for p in neg["prices"]}
        for m in by_type.get(Bid, []):
            if m.colour in wanted and (m.seat, m.colour) not in asked:
                return m
        for m in by_type.get(Bid, []):
            if m.colour in wanted:
                return m
        if Pass in by_type:  # the others acted this round: give them another one
            return by_type[Pass][0]
        return by_type.get(Fail, [moves[0]])[0]

    def _as_other(self, view: dict[str, Any], seat: int, moves: Sequence[Any], neg: dict[str, Any]) -> Any:
        by_type: dict[type, list[Any]] = {}
        for m in moves:
            by_type.setdefault(type(m), []).append(m)
        space = neg["space"]
        share = neg["payout"] / max(1, space["investors_needed"])
        prices = {(p["seat"], p["colour"]): p for p in neg["prices"]}
        for m in by_type.get(Accept, []):
            if prices[(m.seat, m.colour)]["millions"] >= 0.7 * share:
                return m
        covered = {p["colour"] for p in neg["group_if_closed_now"]}
        needed = set(space["mandatory"]) | set(space["optional"])
        open_colours = {c for c in needed if c not in covered}
        for m in by_type.get(Offer, []):
            if m.colour in open_colours and (seat, m.colour) not in prices:
                return m
        mine = set(self._my_investors(view, seat))
        for m in by_type.get(PlaceFamily, []):
            if m.colour in open_colours and m.colour not in mine and (seat, m.colour) not in prices:
                return m
        agreed_mine = any(p["seat"] == seat and p["status"] == "agreed" for p in neg["prices"])
        boss = neg["boss"]
        richer = self._rich_rank(view, boss) >= _my_rank(view["players"][seat]["money"])
        if not agreed_mine and richer and neg["payout"] >= 8:
            travels = [m for m in by_type.get(Travel, []) if m.target == INVESTOR and m.seat != seat]
            if travels and (neg["complete"] or len((neg["missing"] or "").split(",")) <= 1):
                return min(travels, key=lambda m: m.grey)
        if neg["payout"] >= 12 and not agreed_mine and PlayBoss in by_type:
            hand = self._hand(view)
            have = sum(1 for c in needed if c in mine or hand[("family", c)])
            if have >= space["investors_needed"] - 1:
                return next(m for m in by_type[PlayBoss] if not m.restart)
        return by_type.get(Pass, [moves[-1]])[0]
