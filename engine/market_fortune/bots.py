"""Market Fortune's heuristic bot: plays to win, deciding only from its seat's view.

It completes pairs ($ and +R of one industry), risks its best pair, builds toward
pairs (or, with 4 investments, toward better cards for its industries and optimises
them in), attacks the leader, defends its investments, attaches greens whose criteria
are met and declares only when its count reaches 25M.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

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


class _Aim(NamedTuple):
    """What a red strategy is rated against: the leading rival, its investments, and whether a pair can be risked."""

    leader: int | None
    lead_n: int
    can_risk: bool


def _rate_collapse(s: _Seen, m: Any, aim: _Aim) -> float:
    hit = sum(len(p["investments"]) for p in s.players if p["seat"] != s.me)
    return 10 + hit if aim.lead_n >= 2 else 0


def _rate_systemic(s: _Seen, m: Any, aim: _Aim) -> float:
    return 4 + aim.lead_n if aim.lead_n >= 2 else 0


def _rate_correction(s: _Seen, m: Any, aim: _Aim) -> float:
    return 6 + aim.lead_n + m.investment * 0.1 if m.target == aim.leader and aim.lead_n >= 2 else 0.0


def _rate_audit(s: _Seen, m: Any, aim: _Aim) -> float:
    return 5 + aim.lead_n if m.target == aim.leader and aim.lead_n >= 2 else 0.0


def _rate_block(s: _Seen, m: Any, aim: _Aim) -> float:
    return 5 if m.target == aim.leader and aim.lead_n >= 3 else 0.0


def _rate_steal(s: _Seen, m: Any, aim: _Aim) -> float:
    n = s.players[m.target]["strategies"]
    return 2 + n * 0.5 if n >= 2 else 0


def _rate_free_swap(s: _Seen, m: Any, aim: _Aim) -> float:
    inv = s.invs[m.investment]
    card = next(c for c in s.hand if c["id"] == m.swap)
    gain = card["value"] - inv["return"]["value"]
    return 5 + gain if gain > 0 else 0


def _rate_discard_swap(s: _Seen, m: Any, aim: _Aim) -> float:
    pile = s.v["piles"]["stock" if m.source == "stock-discard" else "return"]["discard_top"]
    give = next(c for c in s.hand if c["id"] == m.swap)
    return 3 if pile is not None and s.usefulness(pile) - s.usefulness(give) >= 8 else 0.0


_PLAY_SCORES: dict[Effect, Callable[[_Seen, Any, _Aim], float]] = {
    Effect.MARKET_COLLAPSE: _rate_collapse,
    Effect.SYSTEMIC_RISK: _rate_systemic,
    Effect.CORRECTION: _rate_correction,
    Effect.FEDERAL_AUDIT: _rate_audit,
    Effect.REGULATORY_BLOCK: _rate_block,
    Effect.STEAL_STRATEGY: _rate_steal,
    Effect.LUCKY_INVESTOR: lambda s, m, aim: 8 if aim.can_risk else 0,
    Effect.FORTUNE_ROLL: lambda s, m, aim: 3,
    Effect.RESCUE: lambda s, m, aim: 9,
    Effect.EXTRA_BUILD: lambda s, m, aim: 4 if not aim.can_risk else 0,
    Effect.LIQUIDITY: lambda s, m, aim: 4 if not aim.can_risk else 0,
    Effect.FREE_RETURN_SWAP: _rate_free_swap,
    Effect.DISCARD_SWAP: _rate_discard_swap,
    Effect.INFLATION: lambda s, m, aim: 1,
}
"""How much the bot wants to play a red strategy now, per effect (0: not now); effects not listed: never."""


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
        aim = _Aim(leader, len(s.players[leader]["investments"]) if leader is not None else 0, bool(by.get(Risk)))
        scored = []
        for m in plays:
            rate = _PLAY_SCORES.get(_strategy(m.card).effect)
            score = rate(s, m, aim) if rate is not None else 0.0
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
