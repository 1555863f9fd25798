"""Se Vende's rules: setup, the secret phase selection and the five phases.

One round: every seat chooses an action card, sealed; all are revealed at once;
the chosen phases run in order I to V and every seat performs each of them, with
the bonus only for the seats that chose it; hands are cut to ten; the game ends
at the end of the round in which a tableau reaches 12 cards or the last victory
chip is handed out. Decisions the physical game makes at the same time (what to
keep when exploring, what to place) are sealed too; see
``se-vende/rulings/decisiones`` for how every decision is asked.

Every check that refuses a move is also the check that builds ``legal_moves``,
so the two cannot disagree; every refusal names a rulebook section or a ruling.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from club_agentes.engine.core import (
    ConfigError,
    Event,
    Game,
    GameInfo,
    IllegalMove,
    InvalidMove,
    Pending,
    RandomBot,
    Result,
)
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.bots import HeuristicBot
from club_agentes.engine.se_vende.cards import GOOD_NAMES, TRADE_PRICE, CardDef, Power, PowerName, load_deck
from club_agentes.engine.se_vende.moves import (
    ACTION_CODES,
    ACTION_NAMES,
    ACTION_TAGS,
    MOVE_TYPES,
    ChooseAction,
    ConsumeGood,
    Discard,
    Done,
    Keep,
    Pay,
    Place,
    PlaceNone,
    Produce,
    Sell,
    UsePower,
    move_schema,
    parse_move,
)
from club_agentes.engine.se_vende.state import (
    CONSUME,
    CONSUMING,
    DEVELOP,
    DEVELOP_PAY,
    DEVELOP_PLACE,
    EXPLORE,
    EXPLORE_KEEP,
    HAND_LIMIT,
    HAND_MAX,
    NO_CARD,
    OVER,
    PHASE_NAMES,
    PHASE_OF_ACTION,
    PRODUCE,
    PRODUCING,
    SELECT,
    SETTLE,
    SETTLE_PAY,
    SETTLE_PLACE,
    SETUP,
    TENS,
    ConsumeSeat,
    SeVendeConfig,
    SeVendeState,
    stamp,
)

DEFAULT_TURN_LIMIT = 40
MAX_TURN_LIMIT = 999

_DECK = load_deck()
_DEFS: tuple[CardDef, ...] = _DECK.defs
_IDS: tuple[str, ...] = _DECK.ids
_INDEX: dict[str, int] = _DECK.index
_ACTION_MOVES: tuple[ChooseAction, ...] = tuple(ChooseAction(c) for c in ACTION_CODES)
_CONSUME_POWERS = (PowerName.CONSUME_GOODS, PowerName.CONSUME_HAND)
_POWER_SUMS: dict[PowerName, tuple[int, ...]] = {name: tuple(d.total(name) for d in _DEFS) for name in PowerName}

PROMPTS: dict[int, str] = {
    SETUP: "Setup step 5: discard two of your six cards face down, one at a time.",
    SELECT: "Choose your action card in secret: " + ", ".join(ACTION_CODES) + ".",
    EXPLORE_KEEP: "Explorar: keep cards from those you drew, one at a time; the rest are discarded face down.",
    DEVELOP_PLACE: "Desarrollar: choose in secret a development from your hand to place, or place none.",
    DEVELOP_PAY: "Desarrollar: pay for your development by discarding cards from your hand, one at a time.",
    SETTLE_PLACE: "Asentar: choose in secret a world from your hand to place, or place none.",
    SETTLE_PAY: "Asentar: pay for your world by discarding cards from your hand, one at a time.",
    CONSUMING: "Consumir: sell one good if you chose Comercio, then use your consume powers or finish with done.",
    PRODUCING: "Producir: choose an empty windfall world to produce a good on, or done to decline.",
    HAND_LIMIT: "End of round: discard down to ten cards in hand, one at a time.",
}


def action_token(round_no: int, seat: int, code: str) -> str:
    """Return the id of ``seat``'s action card ``code`` as played in ``round_no`` (e.g. ``SV-R007-S2-E5``).

    The id is per round, so a card revealed last round never matches a sealed choice of this round.
    """
    return f"SV-R{round_no:03d}-S{seat}-{ACTION_TAGS[code]}"


def _name(c: int) -> str:
    return f"{_DEFS[c].name} ({_IDS[c]})"


def _seats(seats: list[int] | tuple[int, ...]) -> str:
    if not seats:
        return "no seat"
    words = [f"seat {s}" for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def active_cards(state: SeVendeState, seat: int, phase: int) -> list[int]:
    """Return the cards of ``seat``'s tableau whose powers count in ``phase`` of this round.

    A card's powers count from the phase after the one in which it was placed
    (se-vende/preguntas/poderes-nuevos).
    """
    now = stamp(state.round, phase)
    st = state.stamps
    return [c for c in state.tableau[seat] if st[c] < now]


def power_total(state: SeVendeState, seat: int, phase: int, name: PowerName) -> int:
    """Return the sum of ``n`` of ``seat``'s active powers called ``name`` in ``phase``."""
    now = stamp(state.round, phase)
    st = state.stamps
    sums = _POWER_SUMS[name]
    return sum(sums[c] for c in state.tableau[seat] if st[c] < now)


def military(state: SeVendeState, seat: int) -> int:
    """Return ``seat``'s Militar in this round's Asentar phase (it lasts only until that phase ends)."""
    return power_total(state, seat, SETTLE, PowerName.SETTLE_MILITARY)


def develop_discount(state: SeVendeState, seat: int) -> int:
    """Return how many cards less ``seat`` pays for a development now (chooser bonus included)."""
    bonus = 1 if state.chosen is not None and state.chosen.get(seat) == "desarrollar" else 0
    return bonus + power_total(state, seat, DEVELOP, PowerName.DEVELOP_DISCOUNT)


def settle_discount(state: SeVendeState, seat: int) -> int:
    """Return how many cards less ``seat`` pays for a non-military world now."""
    return power_total(state, seat, SETTLE, PowerName.SETTLE_DISCOUNT)


def special_points(tableau: list[int], goods: Mapping[int, int]) -> int:
    """Return the special points that the cost-6 developments of a tableau score (se-vende/puntuacion)."""
    total = 0
    for c in tableau:
        for term in _DEFS[c].special:
            count = 0
            for x in tableau:
                d = _DEFS[x]
                if term.per == "development":
                    count += d.is_development
                elif term.per == "cost6_development":
                    count += d.is_development and d.cost == 6
                elif term.per == "good":
                    count += x in goods
                elif d.is_world and (term.good == "any" or d.good == term.good):
                    if term.per == "world":
                        count += 1
                    elif term.per == "military_world":
                        count += d.military
                    elif term.per == "production_world":
                        count += d.world == "production"
                    elif term.per == "windfall_world":
                        count += d.world == "windfall"
            total += term.vp * count
    return total


def score(state: SeVendeState, seat: int) -> int:
    """Return ``seat``'s victory points now: tableau cards + chips + cost-6 specials (se-vende/puntuacion)."""
    tableau = state.tableau[seat]
    return sum(_DEFS[c].vp for c in tableau) + state.chips[seat] + special_points(tableau, state.goods)


class SeVende(Game):
    """Se Vende: secret phase selection and a tableau of worlds and developments."""

    id: ClassVar[str] = "se-vende"
    name: ClassVar[str] = "Se Vende"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot, "heuristic": HeuristicBot}

    # ------------------------------------------------------------------ configuration

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> SeVendeConfig:
        """Build a configuration.

        Raises:
            ConfigError: seats outside 2..4 (se-vende/rulings/jugadores), an unknown
                option, or a turn_limit that is not an integer from 1 to 999.
        """
        if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 4:
            raise ConfigError(f"Se Vende is played by 2 to 4 seats (ruling se-vende/rulings/jugadores), not {seats!r}")
        opts = dict(options or {})
        unknown = sorted(set(opts) - {"turn_limit"})
        if unknown:
            raise ConfigError(
                f"unknown option {unknown[0]!r}; Se Vende accepts only 'turn_limit' "
                f"(an integer from 1 to {MAX_TURN_LIMIT}, default {DEFAULT_TURN_LIMIT})"
            )
        limit = opts.get("turn_limit", DEFAULT_TURN_LIMIT)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_TURN_LIMIT:
            raise ConfigError(f"turn_limit must be an integer from 1 to {MAX_TURN_LIMIT} (rounds), not {limit!r}")
        return SeVendeConfig(seats, limit)

    def config_schema(self) -> dict[str, Any]:
        """Return the JSON schema of the table options."""
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Se Vende table options",
            "type": "object",
            "properties": {
                "turn_limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_TURN_LIMIT,
                    "default": DEFAULT_TURN_LIMIT,
                    "description": (
                        "Rounds: the game ends at the end of this round at the latest if neither a 12-card "
                        "tableau nor the last victory chip has ended it (ruling se-vende/rulings/limite-de-rondas). "
                        f"Default {DEFAULT_TURN_LIMIT}; example: 25."
                    ),
                }
            },
            "additionalProperties": False,
        }

    def sample_configs(self) -> list[tuple[int, dict[str, Any]]]:
        """Return every seat count with the default options, and one short turn limit."""
        return [(2, {}), (3, {}), (4, {}), (3, {"turn_limit": 3})]

    def info(self) -> GameInfo:
        """Return static facts about the game."""
        return GameInfo(
            self.id,
            self.name,
            self.min_seats,
            self.max_seats,
            summary=(
                "Phase selection: every round each seat secretly picks an action card (Explorar, Desarrollar, "
                "Asentar, Consumir, Producir); chosen phases run for everyone, choosers get a bonus; build a "
                "tableau of worlds and developments and score the most victory points."
            ),
            extra={"cards": len(_DEFS), "options": ["turn_limit"]},
        )

    def rule_ids(self) -> frozenset[str]:
        """Return every corpus id this engine can cite."""
        return R.CITED

    # ------------------------------------------------------------------ setup

    def new_game(self, config: SeVendeConfig, seed: int) -> SeVendeState:  # type: ignore[override]
        """Return the game after setup steps 1-8, waiting for the step-5 discards.

        Raises:
            ConfigError: ``config`` is not a Se Vende configuration.
        """
        if not isinstance(config, SeVendeConfig):
            raise ConfigError("new_game needs a configuration made by SeVende.make_config")
        s = SeVendeState(config, seed)
        rng = s.rng
        starts = list(_DECK.start_cards)
        rng.shuffle(starts)
        for seat in range(s.n):
            c = starts.pop()
            s.tableau[seat].append(c)
            s.stamps[c] = 0
        supply = [c for c in range(len(_DEFS)) if not _DEFS[c].start] + starts
        rng.shuffle(supply)
        s.supply = supply
        for seat in range(s.n):
            for _ in range(6):
                c = supply.pop()
                s.hands[seat].append(c)
                s.known[seat].add(c)
        if any(_DECK.alfa in t for t in s.tableau):
            s.goods[_DECK.alfa] = supply.pop()
        s.todo = [2] * s.n
        return s

    # ------------------------------------------------------------------ who decides

    def _waiting(self, s: SeVendeState) -> tuple[int, ...]:
        step = s.step
        if step == SELECT:
            return s.actions.waiting
        if step in (DEVELOP_PLACE, SETTLE_PLACE):
            return s.placing.waiting
        if step == CONSUMING:
            return tuple(i for i, c in enumerate(s.consume) if c is not None and not c.finished)
        if step == PRODUCING:
            return tuple(i for i, q in enumerate(s.produce) if q)
        if step == OVER:
            return ()
        return tuple(i for i, t in enumerate(s.todo) if t > 0)

    @staticmethod
    def _is_waiting(s: SeVendeState, seat: int) -> bool:
        """Return whether ``seat`` has a decision to make now (the test ``_waiting`` makes, for one seat)."""
        step = s.step
        if step == SELECT:
            return not s.actions.has_chosen(seat)
        if step in (DEVELOP_PLACE, SETTLE_PLACE):
            return not s.placing.has_chosen(seat)
        if step == CONSUMING:
            cs = s.consume[seat]
            return cs is not None and not cs.finished
        if step == PRODUCING:
            return bool(s.produce[seat])
        if step == OVER:
            return False
        return s.todo[seat] > 0

    def pending(self, state: SeVendeState) -> Pending:  # type: ignore[override]
        """Return who must decide now; every decision of a round is ``"simultaneous"``."""
        s = state
        if s.step == OVER:
            return Pending("over", ())
        waiting = self._waiting(s)
        if s.step == SELECT:
            done = s.actions.done
        elif s.step in (DEVELOP_PLACE, SETTLE_PLACE):
            done = s.placing.done
        else:
            done = ()
        return Pending("simultaneous", waiting, PROMPTS[s.step], done)

    # ------------------------------------------------------------------ legal moves

    def legal_moves(self, state: SeVendeState, seat: int) -> list[Any]:  # type: ignore[override]
        """Return ``seat``'s legal moves now, in a stable order (empty when it has nothing to decide)."""
        s = state
        step = s.step
        if not 0 <= seat < s.n or not self._is_waiting(s, seat):
            return []
        if step == SELECT:
            return list(_ACTION_MOVES)
        if step in (SETUP, HAND_LIMIT):
            return [Discard(_IDS[c]) for c in s.hands[seat]]
        if step == EXPLORE_KEEP:
            return [Keep(_IDS[c]) for c in s.drawn[seat]]
        if step in (DEVELOP_PLACE, SETTLE_PLACE):
            discount, mil = self._place_terms(s, seat)
            moves: list[Any] = [
                Place(_IDS[c]) for c in s.hands[seat] if self._place_check(s, seat, c, discount, mil) == 0
            ]
            moves.append(PlaceNone())
            return moves
        if step in (DEVELOP_PAY, SETTLE_PAY):
            return [Pay(_IDS[c]) for c in s.hands[seat]]
        if step == CONSUMING:
            return self._consume_moves(s, seat)
        if step == PRODUCING:
            kind = s.produce[seat][0][1]
            moves = [Produce(_IDS[w]) for w in self._windfall_targets(s, seat, kind)]
            moves.append(Done())
            return moves
        return []

    # ------------------------------------------------------------------ apply

    def apply(self, state: SeVendeState, seat: int, move: Any) -> list[Event]:  # type: ignore[override]
        """Validate and apply ``seat``'s move; return the events it caused.

        Raises:
            InvalidMove: ``move`` is not a Se Vende move.
            IllegalMove: the move breaks a rule (the rule id names the section or
                ruling); ``state`` is unchanged.
        """
        if not isinstance(move, MOVE_TYPES):
            raise InvalidMove(f"{move!r} is not a Se Vende move; parse it with parse_move first")
        s = state
        if s.step == OVER:
            raise IllegalMove(R.GAME_END, "the game is over; no move can be played")
        if not isinstance(seat, int) or not 0 <= seat < s.n:
            raise IllegalMove(R.DECISIONS, f"seat {seat!r} is not at this table of {s.n} seats")
        if not self._is_waiting(s, seat):
            raise self._not_deciding(s, seat)
        ev: list[Event] = []
        _STEP_HANDLERS[s.step](self, s, seat, move, ev)
        return ev

    def _not_deciding(self, s: SeVendeState, seat: int) -> IllegalMove:
        waiting = _seats(self._waiting(s))
        step = s.step
        if step == SELECT:
            return IllegalMove(
                R.SECRET_CHOICE,
                f"seat {seat} has already chosen its action card this round; {waiting} still choosing, "
                "then all are revealed at once",
            )
        if step == HAND_LIMIT:
            return IllegalMove(
                R.HAND_LIMIT,
                f"seat {seat} holds {len(s.hands[seat])} cards; only seats with more than {HAND_MAX} discard "
                f"at the end of the round ({waiting} now)",
            )
        if step == CONSUMING:
            return IllegalMove(
                R.CONSUME,
                f"seat {seat} has finished consuming or has nothing it can consume; {waiting} still consuming",
            )
        if step == PRODUCING:
            return IllegalMove(
                R.PRODUCE,
                f"seat {seat} has no windfall production to decide (only the Producir chooser and windfall-"
                f"production powers produce on windfall worlds); {waiting} still deciding",
            )
        if step in (DEVELOP_PLACE, SETTLE_PLACE):
            return IllegalMove(
                R.DECISIONS,
                f"seat {seat} has already chosen what to place this phase; {waiting} still choosing, "
                "then all placements are revealed at once",
            )
        if step == SETUP:
            why = "has already discarded its two cards for setup step 5"
        elif step == EXPLORE_KEEP:
            why = "has already kept every card it may keep in this Explorar phase"
        elif step in (DEVELOP_PAY, SETTLE_PAY):
            why = f"owes no card for a placement in this {PHASE_NAMES[s.phase]} phase"
        else:
            why = "has nothing to decide now"
        return IllegalMove(R.DECISIONS, f"seat {seat} {why}; {waiting} must decide")

    @staticmethod
    def _wrong(rule: str, what: str, move: Any) -> IllegalMove:
        return IllegalMove(rule, f"now is {what}, so {move.text()!r} cannot be played")

    # ------------------------------------------------------------------ setup discards

    def _discard_owed(self, s: SeVendeState, seat: int, move: Discard, rule: str, why: str, ev: list[Event]) -> None:
        """Discard one card the seat owes (setup step 5 or the hand limit) face down.

        Raises:
            IllegalMove: the card is not in the seat's hand (cited as ``rule``).
        """
        c = self._hand_card(s, seat, move.card, rule, "discard it")
        s.hands[seat].remove(c)
        s.discard.append(c)
        s.todo[seat] -= 1
        ev.append(Event(f"you discarded {_name(c)} face down{why}", (seat,)))

    def _on_setup(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> None:
        if not isinstance(move, Discard):
            raise self._wrong(R.SETUP_DISCARD, "setup step 5 (discard two of your six cards)", move)
        self._discard_owed(s, seat, move, R.SETUP_DISCARD, "", ev)
        if s.todo[seat] == 0:
            ev.append(Event(f"seat {seat} has discarded two cards face down and keeps four"))
        if not any(s.todo):
            ev.append(Event("setup is complete: every seat has a start world and four cards in hand"))
            self._start_round(s, ev)

    @staticmethod
    def _hand_card(s: SeVendeState, seat: int, cid: str, rule: str, purpose: str) -> int:
        c = _INDEX.get(cid, NO_CARD)
        if c == NO_CARD or c not in s.hands[seat]:
            raise IllegalMove(rule, f"{cid} is not in seat {seat}'s hand, so you cannot {purpose}")
        return c

    # ------------------------------------------------------------------ rounds and action cards

    def _start_round(self, s: SeVendeState, ev: list[Event]) -> None:
        s.round += 1
        s.step = SELECT
        s.phase = 0
        s.chosen = None
        s.actions = type(s.actions)(range(s.n))
        ev.append(Event(f"round {s.round} begins: every seat chooses an action card in secret"))

    def _on_select(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> None:
        if not isinstance(move, ChooseAction):
            raise self._wrong(R.SECRET_CHOICE, "the secret choice of action cards", move)
        s.actions.submit(seat, move.action)
        ev.append(Event(f"seat {seat} has chosen an action card"))
        token = action_token(s.round, seat, move.action)
        ev.append(
            Event(
                f"you chose {ACTION_NAMES[move.action]} ({token}); it stays sealed until every seat has chosen",
                (seat,),
            )
        )
        if s.actions.complete:
            self._reveal_actions(s, ev)

    def _reveal_actions(self, s: SeVendeState, ev: list[Event]) -> None:
        chosen = s.actions.reveal()
        s.chosen = chosen
        s.phases = sorted({PHASE_OF_ACTION[a] for a in chosen.values()})
        listing = ", ".join(f"seat {i} {ACTION_NAMES[a]}" for i, a in chosen.items())
        names = ", ".join(PHASE_NAMES[p] for p in s.phases)
        ev.append(
            Event(
                f"action cards revealed: {listing}; phases this round: {names}",
                data={
                    "actions": {
                        str(i): {"code": a, "name": ACTION_NAMES[a], "id": action_token(s.round, i, a)}
                        for i, a in chosen.items()
                    },
                    "phases": [PHASE_NAMES[p] for p in s.phases],
                },
            )
        )
        self._continue(s, ev)

    def _continue(self, s: SeVendeState, ev: list[Event]) -> None:
        """Run the next chosen phases until one needs decisions; then the end of the round."""
        while s.phases:
            p = s.phases.pop(0)
            s.phase = p
            if _BEGIN[p](self, s, ev):
                return
        s.phase = 0
        s.todo = [max(0, len(h) - HAND_MAX) for h in s.hands]
        if any(s.todo):
            s.step = HAND_LIMIT
            over = [i for i, t in enumerate(s.todo) if t]
            ev.append(Event(f"end of round {s.round}: {_seats(over)} must discard down to {HAND_MAX} cards"))
            return
        self._end_round(s, ev)

    def _end_round(self, s: SeVendeState, ev: list[Event]) -> None:
        s.previous = s.chosen
        big = [i for i, t in enumerate(s.tableau) if len(t) >= 12]
        if big:
            self._finish(s, ev, f"{_seats(big)} reached 12 or more tableau cards", R.GAME_END)
        elif s.chips_out:
            self._finish(s, ev, "the last victory chip was handed out", R.GAME_END)
        elif s.round >= s.turn_limit:
            self._finish(s, ev, f"the turn limit of {s.turn_limit} rounds was reached", R.TURN_LIMIT)
        else:
            self._start_round(s, ev)

    def _finish(self, s: SeVendeState, ev: list[Event], why: str, rule: str) -> None:
        s.step = OVER
        s.phase = 0
        scores = tuple(float(score(s, i)) for i in range(s.n))
        top = max(scores)
        winners = tuple(i for i, v in enumerate(scores) if v == top)
        listing = ", ".join(f"seat {i} {int(v)} VP" for i, v in enumerate(scores))
        if len(winners) == 1:
            outcome = f"seat {winners[0]} wins with {int(top)} VP"
        else:
            outcome = f"{_seats(winners)} share the victory with {int(top)} VP (ruling {R.TIES})"
        reason = f"the game ended at the end of round {s.round} because {why}; {outcome} ({listing})"
        s.result = Result(winners, scores, reason, rule)
        ev.append(Event(reason, data={"winners": list(winners), "scores": list(scores)}))

    # ------------------------------------------------------------------ card draws

    def _draw(self, s: SeVendeState, n: int, ev: list[Event]) -> list[int]:
        out: list[int] = []
        supply = s.supply
        for _ in range(n):
            if not supply:
                if not s.discard:
                    ev.append(Event("the supply and the discard pile are both empty: no more cards can be drawn"))
                    break
                supply.extend(s.discard)
                s.discard.clear()
                s.rng.shuffle(supply)
                ev.append(Event(f"the supply ran out: the discard pile ({len(supply)} cards) is shuffled into it"))
            out.append(supply.pop())
        return out

    def _draw_to_hand(self, s: SeVendeState, seat: int, n: int, why: str, ev: list[Event]) -> None:
        if n <= 0:
            return
        cards = self._draw(s, n, ev)
        s.hands[seat].extend(cards)
        s.known[seat].update(cards)
        ev.append(Event(f"seat {seat} draws {_plural(len(cards), 'card')} ({why})"))
        if cards:
            ev.append(Event(f"you drew {', '.join(_name(c) for c in cards)} ({why})", (seat,)))

    def _take_good(self, s: SeVendeState, ev: list[Event]) -> int:
        cards = self._draw(s, 1, ev)
        return cards[0] if cards else NO_CARD

    def _award(self, s: SeVendeState, seat: int, vp: int, ev: list[Event]) -> None:
        """Hand out ``vp`` points of chips; the 10s join and change is made when the last chip goes."""
        if vp <= 0:
            return
        s.chips[seat] += vp
        if s.chips_out:
            s.pool = max(0, s.pool - vp)
            return
        if vp < s.pool:
            s.pool -= vp
            return
        rest = vp - s.pool
        s.chips_out = True
        s.tens_added = True
        s.pool = max(0, TENS - rest)
        ev.append(
            Event(
                f"seat {seat} took the last victory chip: the four 10-point chips join and change is made so "
                f"every point earned is paid; the game ends at the end of this round"
            )
        )

    # ------------------------------------------------------------------ phase I: Explorar

    def _begin_explore(self, s: SeVendeState, ev: list[Event]) -> bool:
        chosen = s.chosen or {}
        deciding = False
        for seat in range(s.n):
            a = chosen.get(seat)
            draw = 2 + (5 if a == "explorar-5" else 1 if a == "explorar-1-1" else 0)
            keep = 1 + (1 if a == "explorar-1-1" else 0)
            for c in active_cards(s, seat, EXPLORE):
                for p in _DEFS[c].powers:
                    if p.name is PowerName.EXPLORE_DRAW:
                        draw += p.n
                    elif p.name is PowerName.EXPLORE_KEEP:
                        keep += p.n
            cards = self._draw(s, draw, ev)
            s.known[seat].update(cards)
            keep = min(keep, len(cards))
            ev.append(Event(f"seat {seat} explores: draws {_plural(len(cards), 'card')} and keeps {keep}"))
            if cards:
                ev.append(Event(f"you drew while exploring: {', '.join(_name(c) for c in cards)}", (seat,)))
            if keep >= len(cards):
                s.hands[seat].extend(cards)
                s.todo[seat] = 0
            else:
                s.drawn[seat] = cards
                s.todo[seat] = keep
                deciding = True
        if deciding:
            s.step = EXPLORE_KEEP
        return deciding

    def _on_explore(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> None:
        if not isinstance(move, Keep):
            raise self._wrong(R.EXPLORE, "the Explorar phase (keep cards you drew)", move)
        c = _INDEX.get(move.card, NO_CARD)
        drawn = s.drawn[seat]
        if c not in drawn:
            raise IllegalMove(
                R.EXPLORE,
                f"{move.card} is not among the {len(drawn)} cards seat {seat} drew while exploring "
                f"({', '.join(_IDS[x] for x in drawn)})",
            )
        drawn.remove(c)
        s.hands[seat].append(c)
        s.todo[seat] -= 1
        ev.append(Event(f"you keep {_name(c)}", (seat,)))
        if s.todo[seat] == 0:
            s.discard.extend(drawn)
            ev.append(Event(f"seat {seat} has kept its cards and discards {len(drawn)} face down"))
            drawn.clear()
            if not any(s.todo):
                self._continue(s, ev)

    # ------------------------------------------------------------------ phases II and III: placing

    def _begin_develop(self, s: SeVendeState, ev: list[Event]) -> bool:
        return self._begin_placing(s, DEVELOP_PLACE, ev)

    def _begin_settle(self, s: SeVendeState, ev: list[Event]) -> bool:
        return self._begin_placing(s, SETTLE_PLACE, ev)

    def _begin_placing(self, s: SeVendeState, step: int, ev: list[Event]) -> bool:
        s.step = step
        s.placing = type(s.placing)(range(s.n))
        s.placed = [NO_CARD] * s.n
        what = "a development" if step == DEVELOP_PLACE else "a world"
        ev.append(Event(f"{PHASE_NAMES[s.phase]}: every seat chooses in secret {what} to place, or none"))
        return True

    def _place_terms(self, s: SeVendeState, seat: int) -> tuple[int, int]:
        """Return (discount, Militar) that apply to ``seat``'s placement in the current phase."""
        if s.step == DEVELOP_PLACE or s.phase == DEVELOP:
            return develop_discount(s, seat), 0
        return settle_discount(s, seat), military(s, seat)

    @staticmethod
    def _owe(d: CardDef, discount: int) -> int:
        return 0 if d.military else max(0, d.cost - discount)

    # Outcomes of the placement check (one check for legal_moves and apply).
    _PLACE_OK, _NOT_DEVELOPMENT, _NOT_WORLD, _NO_MILITARY, _CANNOT_PAY = 0, 1, 2, 3, 4

    def _place_check(self, s: SeVendeState, seat: int, c: int, discount: int, mil: int) -> int:
        """Return whether ``seat`` may place card ``c`` from its hand now (``_PLACE_OK``) or why not."""
        d = _DEFS[c]
        if s.step == DEVELOP_PLACE:
            if not d.is_development:
                return self._NOT_DEVELOPMENT
        else:
            if not d.is_world:
                return self._NOT_WORLD
            if d.military:
                return self._PLACE_OK if mil >= d.defence else self._NO_MILITARY
        if self._owe(d, discount) > len(s.hands[seat]) - 1:
            return self._CANNOT_PAY
        return self._PLACE_OK

    def _place_error(self, s: SeVendeState, seat: int, c: int, discount: int, mil: int, code: int) -> IllegalMove:
        d = _DEFS[c]
        if code == self._NOT_DEVELOPMENT:
            return IllegalMove(R.DEVELOP, f"{_name(c)} is a world; in Desarrollar you may place only a development")
        if code == self._NOT_WORLD:
            return IllegalMove(R.SETTLE, f"{_name(c)} is a development; in Asentar you may place only a world")
        if code == self._NO_MILITARY:
            return IllegalMove(
                R.MILITARY,
                f"{_name(c)} has defence {d.defence} and seat {seat}'s Militar is {mil}; a military world "
                "needs Militar equal to or above its defence and cannot be paid for with cards",
            )
        return IllegalMove(
            R.PAYING,
            f"{_name(c)} costs {d.cost} and seat {seat} pays {self._owe(d, discount)} after discounts, but would "
            f"hold only {len(s.hands[seat]) - 1} other cards to discard",
        )

    def _on_place(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> None:
        dev = s.step == DEVELOP_PLACE
        rule = R.DEVELOP if dev else R.SETTLE
        if isinstance(move, PlaceNone):
            c = NO_CARD
        elif isinstance(move, Place):
            c = self._hand_card(s, seat, move.card, rule, "place it")
            discount, mil = self._place_terms(s, seat)
            code = self._place_check(s, seat, c, discount, mil)
            if code != self._PLACE_OK:
                raise self._place_error(s, seat, c, discount, mil, code)
        else:
            what = "Desarrollar (place a development or none)" if dev else "Asentar (place a world or none)"
            raise self._wrong(rule, what, move)
        s.placing.submit(seat, c)
        ev.append(Event(f"seat {seat} has chosen what to place"))
        if c == NO_CARD:
            ev.append(Event("you will place nothing this phase (sealed until every seat has chosen)", (seat,)))
        else:
            ev.append(Event(f"you will place {_name(c)} (sealed until every seat has chosen)", (seat,)))
        if s.placing.complete:
            self._reveal_placements(s, ev)

    def _reveal_placements(self, s: SeVendeState, ev: list[Event]) -> None:
        dev = s.step == DEVELOP_PLACE
        now = stamp(s.round, s.phase)
        choices = s.placing.reveal()
        owed = [0] * s.n
        for seat, c in choices.items():
            if c == NO_CARD:
                ev.append(Event(f"seat {seat} places nothing in {PHASE_NAMES[s.phase]}"))
                continue
            d = _DEFS[c]
            owe = self._owe(d, self._place_terms(s, seat)[0])
            s.hands[seat].remove(c)
            s.tableau[seat].append(c)
            s.stamps[c] = now
            s.placed[seat] = c
            owed[seat] = owe
            if d.military:
                how = f"with Militar {military(s, seat)} against defence {d.defence}, free"
            else:
                how = f"cost {d.cost}, paying {_plural(owe, 'card')}"
            kind = "development" if dev else "world"
            ev.append(
                Event(
                    f"seat {seat} places the {kind} {_name(c)} ({how})",
                    data={"seat": seat, "card": dict(_DECK.views[c])},
                )
            )
        s.todo = owed
        if any(owed):
            s.step = DEVELOP_PAY if dev else SETTLE_PAY
            return
        self._after_placing(s, ev)

    def _on_pay(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> None:
        if not isinstance(move, Pay):
            raise self._wrong(R.PAYING, f"paying for the card placed in {PHASE_NAMES[s.phase]}", move)
        c = self._hand_card(s, seat, move.card, R.PAYING, "pay with it")
        s.hands[seat].remove(c)
        s.discard.append(c)
        s.todo[seat] -= 1
        ev.append(Event(f"you paid with {_name(c)}", (seat,)))
        if s.todo[seat] == 0:
            ev.append(Event(f"seat {seat} has paid for {_name(s.placed[seat])}"))
            if not any(s.todo):
                self._after_placing(s, ev)

    def _after_placing(self, s: SeVendeState, ev: list[Event]) -> None:
        dev = s.phase == DEVELOP
        chosen = s.chosen or {}
        for seat in range(s.n):
            c = s.placed[seat]
            if c == NO_CARD:
                continue
            if dev:
                n = power_total(s, seat, DEVELOP, PowerName.DEVELOP_DRAW)
                self._draw_to_hand(s, seat, n, "develop-draw powers", ev)
                continue
            if _DEFS[c].world == "windfall":
                g = self._take_good(s, ev)
                if g != NO_CARD:
                    s.goods[c] = g
                    ev.append(
                        Event(f"seat {seat}'s {_name(c)} gets its windfall good of {GOOD_NAMES[_DEFS[c].good or '']}")
                    )
            bonus = 1 if chosen.get(seat) == "asentar" else 0
            if bonus:
                self._draw_to_hand(s, seat, 1, "Asentar bonus", ev)
            n = power_total(s, seat, SETTLE, PowerName.SETTLE_DRAW)
            self._draw_to_hand(s, seat, n, "settle-draw powers", ev)
        s.placed = [NO_CARD] * s.n
        self._continue(s, ev)

    # ------------------------------------------------------------------ phase IV: Consumir

    def _begin_consume(self, s: SeVendeState, ev: list[Event]) -> bool:
        chosen = s.chosen or {}
        deciding = False
        for seat in range(s.n):
            powers = [
                (c, i, p)
                for c in active_cards(s, seat, CONSUME)
                for i, p in enumerate(_DEFS[c].powers)
                if p.name in _CONSUME_POWERS
            ]
            has_goods = any(w in s.goods for w in s.tableau[seat])
            cs = ConsumeSeat(chosen.get(seat) == "comercio" and has_goods, chosen.get(seat) == "2x-pv", powers)
            s.consume[seat] = cs
            if not self._consume_open(s, seat, cs):
                cs.finished = True
            else:
                deciding = True
        if deciding:
            s.step = CONSUMING
            return True
        s.consume = [None] * s.n
        ev.append(Event("Consumir: no seat has a good to sell or a consume power it can use"))
        return False

    def _eligible_goods(self, s: SeVendeState, seat: int, p: Power) -> list[int]:
        goods = s.goods
        return [w for w in s.tableau[seat] if w in goods and p.matches(_DEFS[w].good or "")]

    def _power_usable(self, s: SeVendeState, seat: int, p: Power) -> bool:
        if p.name is PowerName.CONSUME_HAND:
            return bool(s.hands[seat])
        return bool(self._eligible_goods(s, seat, p))

    def _consume_open(self, s: SeVendeState, seat: int, cs: ConsumeSeat) -> bool:
        if cs.must_sell or cs.active is not None:
            return True
        return any((c, i) not in cs.used and self._power_usable(s, seat, p) for c, i, p in cs.powers)

    def _consume_moves(self, s: SeVendeState, seat: int) -> list[Any]:
        cs = s.consume[seat]
        assert cs is not None
        if cs.must_sell:
            return [Sell(_IDS[w]) for w in s.tableau[seat] if w in s.goods]
        if cs.active is not None:
            p = cs.active[2]
            if p.name is PowerName.CONSUME_GOODS:
                return [ConsumeGood(_IDS[w]) for w in self._eligible_goods(s, seat, p)]
            moves: list[Any] = [Discard(_IDS[c]) for c in s.hands[seat]]
            moves.append(Done())
            return moves
        moves = [
            UsePower(_IDS[c], i) for c, i, p in cs.powers if (c, i) not in cs.used and self._power_usable(s, seat, p)
        ]
        moves.append(Done())
        return moves

    def _on_consume(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> None:
        cs = s.consume[seat]
        assert cs is not None
        chosen = (s.chosen or {}).get(seat, "")
        if isinstance(move, Sell):
            self._sell(s, seat, cs, chosen, move, ev)
        elif isinstance(move, UsePower):
            self._use_power(s, seat, cs, move, ev)
        elif isinstance(move, ConsumeGood):
            self._consume_good(s, seat, cs, move, ev)
        elif isinstance(move, Discard):
            self._consume_card(s, seat, cs, move, ev)
        elif isinstance(move, Done):
            if cs.must_sell:
                raise IllegalMove(
                    R.TRADE,
                    f"seat {seat} chose Consumir: Comercio and holds a good: it must sell exactly one before finishing",
                )
            if cs.active is not None:
                c, i, p = cs.active
                if p.name is PowerName.CONSUME_GOODS:
                    left = len(self._eligible_goods(s, seat, p))
                    raise IllegalMove(
                        R.UP_TO_N,
                        f"the power in use ({_name(c)}, power {i}) must take all the goods it can: choose "
                        f"{cs.remaining} more of your {left} eligible goods",
                    )
                self._end_power(s, seat, cs, ev)
            else:
                cs.finished = True
                ev.append(Event(f"seat {seat} finishes consuming"))
        else:
            raise self._wrong(R.CONSUME, "the Consumir phase", move)
        if not cs.finished and not self._consume_open(s, seat, cs):
            cs.finished = True
            ev.append(Event(f"seat {seat} has nothing more to consume"))
        if all(c is None or c.finished for c in s.consume):
            s.consume = [None] * s.n
            self._continue(s, ev)

    def _sell(self, s: SeVendeState, seat: int, cs: ConsumeSeat, chosen: str, move: Sell, ev: list[Event]) -> None:
        if not cs.must_sell:
            if chosen != "comercio":
                raise IllegalMove(
                    R.TRADE,
                    f"only seats that chose Consumir: Comercio may sell; seat {seat} chose "
                    f"{ACTION_NAMES.get(chosen, 'another action')}",
                )
            raise IllegalMove(R.TRADE, f"seat {seat} has already sold its one good this phase")
        w = _INDEX.get(move.world, NO_CARD)
        if w not in s.tableau[seat] or w not in s.goods:
            raise IllegalMove(R.TRADE, f"{move.world} is not a world of seat {seat}'s tableau holding a good to sell")
        kind = _DEFS[w].good or ""
        bonus = 0
        for c in active_cards(s, seat, CONSUME):
            for p in _DEFS[c].powers:
                if p.name is PowerName.TRADE_BONUS and p.matches(kind):
                    bonus += p.n
        s.discard.append(s.goods.pop(w))
        cs.must_sell = False
        price = TRADE_PRICE[kind]
        extra = f" + {bonus} from trade powers" if bonus else ""
        ev.append(Event(f"seat {seat} sells the {GOOD_NAMES[kind]} good from {_name(w)} for {price}{extra} cards"))
        self._draw_to_hand(s, seat, price + bonus, "Comercio", ev)

    def _use_power(self, s: SeVendeState, seat: int, cs: ConsumeSeat, move: UsePower, ev: list[Event]) -> None:
        if cs.must_sell:
            raise IllegalMove(
                R.TRADE,
                f"seat {seat} chose Consumir: Comercio and must sell exactly one good before using any consume power",
            )
        if cs.active is not None:
            c0, i0, _ = cs.active
            raise IllegalMove(
                R.UP_TO_N if cs.active[2].name is PowerName.CONSUME_GOODS else R.CONSUME_HAND,
                f"finish the power in use ({_name(c0)}, power {i0}) before invoking another",
            )
        c = _INDEX.get(move.card, NO_CARD)
        found = next((p for (x, i, p) in cs.powers if x == c and i == move.power), None)
        if found is None:
            raise IllegalMove(
                R.CONSUME,
                f"{move.card} has no consume power number {move.power} that counts in seat {seat}'s tableau this phase",
            )
        if (c, move.power) in cs.used:
            raise IllegalMove(
                R.CONSUME, f"power {move.power} of {_name(c)} has already been used in this Consumir phase"
            )
        if not self._power_usable(s, seat, found):
            need = "a card in hand" if found.name is PowerName.CONSUME_HAND else "an eligible good"
            raise IllegalMove(R.CONSUME, f"power {move.power} of {_name(c)} needs {need} and seat {seat} has none")
        cs.used.add((c, move.power))
        cs.active = (c, move.power, found)
        cs.remaining = found.up_to
        cs.taken = []
        cs.gained_vp = 0
        ev.append(Event(f"seat {seat} uses {_name(c)}: {found.text()}"))
        if found.name is PowerName.CONSUME_GOODS:
            eligible = self._eligible_goods(s, seat, found)
            if len(eligible) <= found.up_to:
                for w in eligible:
                    self._take(s, seat, cs, w)
                self._end_power(s, seat, cs, ev)

    def _take(self, s: SeVendeState, seat: int, cs: ConsumeSeat, w: int) -> None:
        s.discard.append(s.goods.pop(w))
        cs.taken.append(_IDS[w])
        cs.remaining -= 1

    def _consume_good(self, s: SeVendeState, seat: int, cs: ConsumeSeat, move: ConsumeGood, ev: list[Event]) -> None:
        if cs.active is None or cs.active[2].name is not PowerName.CONSUME_GOODS:
            raise IllegalMove(R.CONSUME, "no goods-consuming power is in use; invoke one with 'use <card> <power>'")
        w = _INDEX.get(move.world, NO_CARD)
        p = cs.active[2]
        if w not in self._eligible_goods(s, seat, p):
            raise IllegalMove(R.UP_TO_N, f"{move.world} holds no good of seat {seat}'s that the power in use accepts")
        self._take(s, seat, cs, w)
        if cs.remaining == 0:
            self._end_power(s, seat, cs, ev)

    def _consume_card(self, s: SeVendeState, seat: int, cs: ConsumeSeat, move: Discard, ev: list[Event]) -> None:
        if cs.active is None or cs.active[2].name is not PowerName.CONSUME_HAND:
            raise IllegalMove(
                R.CONSUME_HAND, "no power that consumes cards from hand is in use; invoke one with 'use <card> <power>'"
            )
        c = self._hand_card(s, seat, move.card, R.CONSUME_HAND, "discard it for a victory point")
        s.hands[seat].remove(c)
        s.discard.append(c)
        cs.remaining -= 1
        cs.gained_vp += 1
        ev.append(Event(f"you discarded {_name(c)} for 1 VP", (seat,)))
        if cs.remaining == 0 or not s.hands[seat]:
            self._end_power(s, seat, cs, ev)

    def _end_power(self, s: SeVendeState, seat: int, cs: ConsumeSeat, ev: list[Event]) -> None:
        assert cs.active is not None
        c, _, p = cs.active
        cs.active = None
        if p.name is PowerName.CONSUME_HAND:
            n = cs.gained_vp
            ev.append(
                Event(
                    f"seat {seat} discards {_plural(n, 'card')} from hand with {_name(c)} for {n} VP "
                    "(never doubled by 2x PV)"
                )
            )
            self._award(s, seat, n, ev)
            return
        goods = len(cs.taken)
        vp = goods * p.vp * (2 if cs.double else 1)
        cards = goods * p.cards
        doubled = " (doubled by 2x PV)" if cs.double and p.vp else ""
        worlds = ", ".join(_name(_INDEX[w]) for w in cs.taken)
        ev.append(
            Event(
                f"seat {seat} consumes {_plural(goods, 'good')} with {_name(c)} (from {worlds}) for {vp} VP"
                f"{doubled} and {_plural(cards, 'card')}"
            )
        )
        self._award(s, seat, vp, ev)
        self._draw_to_hand(s, seat, cards, "consume power", ev)

    # ------------------------------------------------------------------ phase V: Producir

    def _windfall_targets(self, s: SeVendeState, seat: int, kind: str) -> list[int]:
        if not s.supply and not s.discard:
            return []
        goods = s.goods
        return [
            w
            for w in s.tableau[seat]
            if _DEFS[w].world == "windfall" and w not in goods and (kind == "any" or _DEFS[w].good == kind)
        ]

    def _prune(self, s: SeVendeState, seat: int) -> None:
        queue = s.produce[seat]
        while queue and not self._windfall_targets(s, seat, queue[0][1]):
            queue.pop(0)

    def _begin_produce(self, s: SeVendeState, ev: list[Event]) -> bool:
        chosen = s.chosen or {}
        deciding = False
        for seat in range(s.n):
            made: list[str] = []
            where: list[str] = []
            for w in s.tableau[seat]:
                d = _DEFS[w]
                if d.world == "production" and w not in s.goods:
                    g = self._take_good(s, ev)
                    if g == NO_CARD:
                        break
                    s.goods[w] = g
                    made.append(d.good or "")
                    where.append(f"{GOOD_NAMES[d.good or '']} on {_name(w)}")
            s.produced[seat] = made
            if where:
                ev.append(Event(f"seat {seat} produces {'; '.join(where)}"))
            queue: list[tuple[int, str]] = [(NO_CARD, "any")] if chosen.get(seat) == "producir" else []
            for c in active_cards(s, seat, PRODUCE):
                for p in _DEFS[c].powers:
                    if p.name is PowerName.PRODUCE_WINDFALL:
                        queue.append((c, p.good))
            s.produce[seat] = queue
            self._prune(s, seat)
            deciding = deciding or bool(queue)
        if deciding:
            s.step = PRODUCING
            return True
        self._after_produce(s, ev)
        return False

    def _on_produce(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> None:
        queue = s.produce[seat]
        source, kind = queue[0]
        by = "the Producir bonus" if source == NO_CARD else _name(source)
        if isinstance(move, Produce):
            w = _INDEX.get(move.world, NO_CARD)
            if w not in self._windfall_targets(s, seat, kind):
                what = "windfall world" if kind == "any" else f"{GOOD_NAMES[kind]} windfall world"
                raise IllegalMove(
                    R.PRODUCE, f"{move.world} is not an empty {what} of seat {seat}'s tableau, so {by} cannot use it"
                )
            g = self._take_good(s, ev)
            s.goods[w] = g
            s.produced[seat].append(_DEFS[w].good or "")
            ev.append(Event(f"seat {seat} produces {GOOD_NAMES[_DEFS[w].good or '']} on {_name(w)} with {by}"))
        elif isinstance(move, Done):
            ev.append(Event(f"seat {seat} declines the windfall production of {by}"))
        else:
            raise self._wrong(R.PRODUCE, "the Producir phase (produce on a windfall world or done)", move)
        queue.pop(0)
        self._prune(s, seat)
        if not any(s.produce):
            self._after_produce(s, ev)
            self._continue(s, ev)

    def _after_produce(self, s: SeVendeState, ev: list[Event]) -> None:
        for seat in range(s.n):
            n = 0
            made = s.produced[seat]
            for c in active_cards(s, seat, PRODUCE):
                for p in _DEFS[c].powers:
                    if p.name is PowerName.PRODUCE_DRAW:
                        n += p.n
                    elif p.name is PowerName.PRODUCE_DRAW_PER_KIND:
                        n += p.n * made.count(p.good)
            self._draw_to_hand(s, seat, n, "produce-draw powers", ev)
            s.produced[seat] = []

    # ------------------------------------------------------------------ end of round: hand limit

    def _on_hand_limit(self, s: SeVendeState, seat: int, move: Any, ev: list[Event]) -> None:
        if not isinstance(move, Discard):
            raise self._wrong(R.HAND_LIMIT, "the end of the round (discard down to ten cards)", move)
        self._discard_owed(s, seat, move, R.HAND_LIMIT, " (hand limit)", ev)
        if s.todo[seat] == 0:
            ev.append(Event(f"seat {seat} has discarded down to {HAND_MAX} cards"))
            if not any(s.todo):
                self._end_round(s, ev)

    # ------------------------------------------------------------------ views, moves, results

    def view(self, state: SeVendeState, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        """Return what ``seat`` may know (``None``: a spectator); see :mod:`engine.se_vende.views`."""
        from club_agentes.engine.se_vende.views import build_view

        return build_view(self, state, seat)

    def render(self, view: dict[str, Any]) -> str:  # type: ignore[override]
        """Return a compact English text of a view, for a language model."""
        from club_agentes.engine.se_vende.views import render_view

        return render_view(view)

    def hidden_ids(self, state: SeVendeState, seat: int | None) -> frozenset[str]:  # type: ignore[override]
        """Return the ids ``seat`` may not know: unseen cards, goods, and others' sealed action cards."""
        s = state
        public: set[int] = set()
        for t in s.tableau:
            public.update(t)
        known = s.known[seat] if seat is not None and 0 <= seat < s.n else set()
        hidden = {_IDS[c] for c in range(len(_IDS)) if c not in public and c not in known}
        if s.step == SELECT:
            for other in range(s.n):
                if other != seat:
                    hidden.update(action_token(s.round, other, code) for code in ACTION_CODES)
        return frozenset(hidden)

    def result(self, state: SeVendeState) -> Result | None:  # type: ignore[override]
        """Return the result once the game is over, else ``None``."""
        return state.result

    def parse_move(self, data: Mapping[str, Any] | str) -> Any:
        """Turn a move's JSON object or text form into a move.

        Raises:
            InvalidMove: malformed input; the message says what is accepted.
        """
        return parse_move(data, _INDEX)

    def move_schema(self) -> dict[str, Any]:
        """Return the JSON schema of every move's JSON form."""
        return move_schema()

    def snapshot(self, state: SeVendeState) -> dict[str, Any]:  # type: ignore[override]
        """Return the complete state as JSON, hidden parts included (never send it to a seat)."""
        return state.snapshot()


_STEP_HANDLERS: dict[int, Callable[[SeVende, SeVendeState, int, Any, list[Event]], None]] = {
    SETUP: SeVende._on_setup,
    SELECT: SeVende._on_select,
    EXPLORE_KEEP: SeVende._on_explore,
    DEVELOP_PLACE: SeVende._on_place,
    SETTLE_PLACE: SeVende._on_place,
    DEVELOP_PAY: SeVende._on_pay,
    SETTLE_PAY: SeVende._on_pay,
    CONSUMING: SeVende._on_consume,
    PRODUCING: SeVende._on_produce,
    HAND_LIMIT: SeVende._on_hand_limit,
}

_BEGIN: dict[int, Callable[[SeVende, SeVendeState, list[Event]], bool]] = {
    EXPLORE: SeVende._begin_explore,
    DEVELOP: SeVende._begin_develop,
    SETTLE: SeVende._begin_settle,
    CONSUME: SeVende._begin_consume,
    PRODUCE: SeVende._begin_produce,
}


GAME = SeVende()
"""The Se Vende engine instance the game manifest names."""
