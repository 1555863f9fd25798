"""Market Fortune's heuristic bot: plays to win, deciding only from its seat's view.

It completes pairs ($ and +R of one industry), risks its best pair, builds toward
pairs (or, with 4 investments, toward better cards for its industries and optimises
them in), attacks the leader, defends its investments, attaches greens whose criteria
are met and declares only when its count reaches 25M.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from club_agentes.engine.core.model import ViewBot, moves_by_type
from club_agentes.engine.market_fortune.components import CARD_INDEX, Effect, StrategyDef
from club_agentes.engine.market_fortune.moves import (
    Attach,
    Build,
    Declare,
    Defend,
    Discard,
    Dominate,
    Optimise,
    Play,
    Return,
    Reveal,
    Risk,
    Skip,
    Take,
)
from club_agentes.engine.market_fortune.scoring import green_bonus_for, strategy

WIN = 25


def _strategy(card_id: str) -> StrategyDef:
    return strategy(CARD_INDEX[card_id])


def _green_bonus(green_id: str, stock: int, ret: int) -> int:
    """Return the bonus of a green strategy (its printed rule, :func:`.scoring.green_bonus_for`) on these values."""
    return green_bonus_for(CARD_INDEX[green_id], stock, ret)


class _Seen:
    """What the bot reads from its view, in handy shapes."""

    def __init__(self, v: dict[str, Any]) -> None:
        self.v = v
        self.me: int = v["you"]
        self.hand: list[dict[str, Any]] = v["hand"]
        self.strats: list[dict[str, Any]] = v["strategies"]
        self.players: list[dict[str, Any]] = v["players"]
        self.invs: list[dict[str, Any]] = self.players[self.me]["investments"]
        self.value: int = v["portfolio_value"]
        self.step: str = v["turn"]["step"]
        self.momentum: str | None = v.get("momentum_card")

    def partners(self, card: dict[str, Any]) -> list[dict[str, Any]]:
        """Cards in hand that pair with ``card`` (same industry, other kind)."""
        return [c for c in self.hand if c["industry"] == card["industry"] and c["kind"] != card["kind"]]

    def usefulness(self, card: dict[str, Any]) -> float:
        """How much a hand card is worth keeping."""
        score = float(card["value"])
        partners = self.partners(card)
        if partners:
            score += 10 + max(p["value"] for p in partners)
        for inv in self.invs:
            if "value" in inv and not inv["face_up"] and inv["stock"]["industry"] == card["industry"]:
                slot = "stock" if card["kind"] == "accion" else "return"
                gain = card["value"] - inv[slot]["value"]
                if gain > 0:
                    score += 4 + gain
        return score

    def leader(self) -> int | None:
        """The rival with the most investments (ties: the lower seat), if any has one."""
        rivals = [p for p in self.players if p["seat"] != self.me and p["investments"]]
        if not rivals:
            return None
        return max(rivals, key=lambda p: (len(p["investments"]), -p["seat"]))["seat"]

    def green_potential(self) -> int:
        """Bonus the greens in hand could still add to investments without one (greedy)."""
        total = 0
        free = [i for i in self.invs if not i["has_green"]]
        for g in self.strats:
            if g["colour"] != "green" or g["id"] == self.momentum:
                continue
            best = None
            for inv in free:
                b = _green_bonus(g["id"], inv["stock"]["value"], inv["return"]["value"])
                if b and (best is None or b > best[0]):
                    best = (b, inv)
            if best is not None:
                total += best[0]
                free.remove(best[1])
        return total


class HeuristicBot(ViewBot):
    """A bot that plays Market Fortune to win (see the module docstring)."""

    strength = "plays to win by simple rules (pairs, attacks on the leader, declares at 25M): beats random bots"

    def decide(self, view: dict[str, Any], seat: int, moves: Sequence[Any]) -> Any:
        """Return one of ``moves``, decided from ``view`` (the seat's view) only."""
        s = _Seen(view)
        by_type = moves_by_type(moves)
        if s.v["decision"]["kind"] == "reaction":
            return self._react(s, by_type) or moves[-1]
        for pick in (
            self._declare,
            self._attach,
            self._optimise,
            self._return,
            self._play,
            self._risk,
            self._take,
            self._build,
            self._discard,
        ):
            m = pick(s, by_type)
            if m is not None:
                return m
        for t in (Skip, Reveal, Dominate):
            if t in by_type:
                return by_type[t][0]
        return moves[0]

    # -- decisions

    def _react(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        defends = by.get(Defend, [])
        if not defends:
            return None
        attack = s.v["attack"]
        blues = sum(1 for c in s.strats if c["colour"] == "blue")
        if (attack["attacks"] == "investments" and s.invs) or blues >= 2:
            # Use the most specific blue first, keeping the all-round ones.
            def rank(m: Defend) -> int:
                e = _strategy(m.card).effect
                return {Effect.CANCEL_CARDS: 0, Effect.CANCEL_INVESTMENTS: 0, Effect.CANCEL_ANY: 1}.get(e, 2)

            return min(defends, key=rank)
        return None

    def _declare(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        if Declare in by and s.value + s.green_potential() >= WIN:
            return by[Declare][0]
        return None

    def _attach(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        best = None
        for m in by.get(Attach, []):
            inv = s.invs[m.investment]
            b = _green_bonus(m.card, inv["stock"]["value"], inv["return"]["value"])
            if b and (best is None or b > best[0]):
                best = (b, m)
        return best[1] if best else None

    def _optimise(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        best = None
        for m in by.get(Optimise, []):
            inv = s.invs[m.investment]
            card = next(c for c in s.hand if c["id"] == m.card)
            slot = "stock" if card["kind"] == "accion" else "return"
            gain = card["value"] - inv[slot]["value"]
            if gain >= 2 and (best is None or gain > best[0]):
                best = (gain, m)
        return best[1] if best else None

    def _return(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        returns = by.get(Return, [])
        if not returns:
            return None
        return min(returns, key=lambda m: s.invs[m.investment].get("value", 0))

    def _play(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        plays = by.get(Play, [])
        if not plays:
            return None
        leader = s.leader()
        lead_n = len(s.players[leader]["investments"]) if leader is not None else 0
        risks = by.get(Risk, [])
        scored = []
        for m in plays:
            e = _strategy(m.card).effect
            score = 0.0
            if e is Effect.MARKET_COLLAPSE:
                hit = sum(len(p["investments"]) for p in s.players if p["seat"] != s.me)
                score = 10 + hit if lead_n >= 2 else 0
            elif e is Effect.SYSTEMIC_RISK:
                score = 4 + lead_n if lead_n >= 2 else 0
            elif e is Effect.CORRECTION:
                if m.target == leader and lead_n >= 2:
                    score = 6 + lead_n + m.investment * 0.1
            elif e is Effect.FEDERAL_AUDIT:
                if m.target == leader and lead_n >= 2:
                    score = 5 + lead_n
            elif e is Effect.REGULATORY_BLOCK:
                if m.target == leader and lead_n >= 3:
                    score = 5
            elif e is Effect.STEAL_STRATEGY:
                n = s.players[m.target]["strategies"]
                score = 2 + n * 0.5 if n >= 2 else 0
            elif e is Effect.LUCKY_INVESTOR:
                score = 8 if risks else 0
            elif e is Effect.FORTUNE_ROLL:
                score = 3
            elif e is Effect.RESCUE:
                score = 9
            elif e in (Effect.EXTRA_BUILD, Effect.LIQUIDITY):
                score = 4 if not risks else 0
            elif e is Effect.FREE_RETURN_SWAP:
                inv = s.invs[m.investment]
                card = next(c for c in s.hand if c["id"] == m.swap)
                gain = card["value"] - inv["return"]["value"]
                score = 5 + gain if gain > 0 else 0
            elif e is Effect.DISCARD_SWAP:
                pile = s.v["piles"]["stock" if m.source == "stock-discard" else "return"]["discard_top"]
                give = next(c for c in s.hand if c["id"] == m.swap)
                if pile is not None and s.usefulness(pile) - s.usefulness(give) >= 8:
                    score = 3
            elif e is Effect.INFLATION:
                score = 1
            if score > 0:
                scored.append((score, m))
        if not scored:
            return None
        return max(scored, key=lambda x: x[0])[1]

    def _risk(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        risks = by.get(Risk, [])
        if not risks:
            return None
        values = {c["id"]: c["value"] for c in s.hand}

        def worth(m: Risk) -> int:
            return values[m.stock] + values[m.ret]

        best = max(risks, key=worth)
        left = 4 - len(s.invs)
        need = WIN - s.value - s.green_potential()
        # Do not lock in a pair too weak to reach 25M when building can still improve it.
        if left == 1 and worth(best) < need and Build in by:
            return None
        return best

    def _source_score(self, s: _Seen, source: str) -> float:
        piles = s.v["piles"]
        if source.endswith("discard"):
            top = piles["stock" if source.startswith("stock") else "return"]["discard_top"]
            if top is None:
                return -1
            return s.usefulness(top) - 9
        # A deck: draw the kind whose partners are missing in hand.
        stocks = [c for c in s.hand if c["kind"] == "accion" and not s.partners(c)]
        rets = [c for c in s.hand if c["kind"] == "rendimiento" and not s.partners(c)]
        if source.startswith("stock"):
            return 0.5 + len(rets) - len(stocks) * 0.1
        return 0.5 + len(stocks) - len(rets) * 0.1

    def _build_like(self, s: _Seen, options: list[Any]) -> Any:
        if not options:
            return None
        return max(options, key=lambda m: self._source_score(s, m.source))

    def _take(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        return self._build_like(s, by.get(Take, []))

    def _build(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        return self._build_like(s, by.get(Build, []))

    def _discard(self, s: _Seen, by: dict[type, list[Any]]) -> Any:
        discards = by.get(Discard, [])
        if not discards:
            return None
        cards = {c["id"]: c for c in s.hand}
        return min(discards, key=lambda m: s.usefulness(cards[m.card]))
