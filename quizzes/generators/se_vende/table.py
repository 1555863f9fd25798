"""Se Vende tables played through the engine's public ``Game`` API, to find real quiz situations.

Every parametric item of Se Vende starts from a real game: :class:`Table` deals a game with
``new_game``, plays it with ``legal_moves`` and ``apply`` (a plain policy for every seat, which a
generator can steer), and reads what a seat knows with ``view``. A generator takes a copy of a
round of a game (:func:`round_start`), plays on until the situation it asks about arises, writes
the prompt from the views, then plays the move the question is about and reads the answer from the
views that follow: the answer is the engine's.

The games an item starts from are shared: :data:`DEALS` deals per seat count and policy, each
played once per process and kept round by round (``Game.clone``), so that an item costs the round
it plays rather than the whole game before it. What the item plays is its own: its action cards,
its seats' choices and its policy's random stream.

Moves are told apart by their JSON form (``{"type": "place", ...}``) and built back with
``parse_move``; cards are read from the views by id and looked up in the engine's card data
(:func:`club_agentes.engine.se_vende.cards.load_deck`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from club_agentes.engine.core import Event, Game, Pending, Rng, get_game
from club_agentes.engine.se_vende.cards import CardDef, load_deck

GAME_ID = "se-vende"


class Move:
    """A legal move: ``move[0]`` is its JSON form (built when first asked for), ``move[1]`` the engine's value."""

    __slots__ = ("_json", "value")

    def __init__(self, value: Any) -> None:
        self.value = value
        self._json: dict[str, Any] | None = None

    def __getitem__(self, index: int) -> Any:
        if index == 1:
            return self.value
        if index != 0:
            raise IndexError(index)
        if self._json is None:
            self._json = self.value.to_json()
        return self._json


Chooser = Callable[["Table", int, Sequence[Move]], Any | None]
"""Steers a decision: returns the move to play for ``seat``, or ``None`` to let the plain policy play."""

Until = Callable[["Table", int, Sequence[Move]], bool]
"""Says whether the situation a generator wants has arisen, at ``seat``'s decision with these moves."""


class NoSituation(RuntimeError):
    """The game ended (or ran past its move budget) before the wanted situation arose."""


@cache
def engine() -> Game:
    """Return the Se Vende engine (through the game registry)."""
    return get_game(GAME_ID)


def design(card_id: str) -> CardDef:
    """Return the design of the physical card ``card_id`` (e.g. ``"SV-C012"``).

    Raises:
        KeyError: no card has that id.
    """
    deck = load_deck()
    return deck.defs[deck.index[card_id]]


def kind(move: Move) -> str:
    """Return the JSON ``type`` of a move (``"action"``, ``"place"``, ``"sell"``...)."""
    return str(move[0]["type"])


@dataclass
class Table:
    """One game of Se Vende in progress, with the policy that plays its seats.

    Attributes:
        seats: 2 to 4.
        state: the engine's state (never read directly: only through the ``Game`` API).
        rng: the policy's random stream (the game's own draws come from its seed).
        actions: action cards to play at the next secret choice, by seat (``"comercio"``...);
            each is used once and removed.
        place_rate: the chance, out of 100, that the plain policy places a card when it may.
        action_pool: the action cards the plain policy picks from (all seven when empty).
    """

    seats: int
    state: Any
    rng: Rng
    actions: dict[int, str] = field(default_factory=dict)
    place_rate: int = 85
    action_pool: tuple[str, ...] = ()
    _views: dict[int | None, dict[str, Any]] = field(default_factory=dict, repr=False)
    _rounds_begun: int = 0
    _pending: Pending | None = field(default=None, repr=False)

    @classmethod
    def deal(cls, seats: int, rng: Rng) -> Table:
        """Deal a new game of ``seats`` seats with a seed drawn from ``rng``; the policy forks ``rng``.

        Raises:
            ConfigError: ``seats`` is not 2 to 4.
        """
        game = engine()
        config = game.make_config(seats, {"turn_limit": 60})
        state = game.new_game(config, rng.next64())
        return cls(seats, state, rng.fork(1))

    # ------------------------------------------------------------------ reading
    # Every fact is read from the engine's views; the key names live only here.

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Return what ``seat`` knows (``None``: the public view); built once between two moves."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = engine().view(self.state, seat)
        return found

    def pending(self) -> Pending:
        """Return who must decide now (built once between two moves)."""
        if self._pending is None:
            self._pending = engine().pending(self.state)
        return self._pending

    def waiting(self) -> tuple[int, ...]:
        """Return the seats that must decide now (empty once the game is over)."""
        return tuple(self.pending().seats)

    def chosen_so_far(self) -> tuple[int, ...]:
        """Return the seats that have already made the sealed choice being asked (never what)."""
        return tuple(self.pending().done)

    def over(self) -> bool:
        """Whether the game has ended."""
        return engine().result(self.state) is not None

    def moves(self, seat: int) -> list[Move]:
        """Return ``seat``'s legal moves now, each with its JSON form."""
        return [Move(m) for m in engine().legal_moves(self.state, seat)]

    def step(self) -> str:
        """Return the name of the current step (``"choose_action"``, ``"explore_keep"``, ``"over"``...)."""
        return str(self.view()["step"])

    def at_fresh_choice(self) -> bool:
        """Whether the round's secret choice of action cards is open and no seat has chosen yet."""
        waiting = self.waiting()
        if not waiting or self.chosen_so_far():
            return False
        moves = engine().legal_moves(self.state, waiting[0])
        return bool(moves) and moves[0].to_json()["type"] == "action"

    def round(self) -> int:
        """Return the number of the current round (0 during setup), as the views count it.

        Counted from the secret choices played through this table (cheaper than building a view).
        """
        return self._rounds_begun + (1 if self.at_fresh_choice() else 0)

    def player(self, seat: int) -> dict[str, Any]:
        """Return the public entry of ``seat`` in the views (hand size, tableau, chips, score...)."""
        return dict(self.view()["players"][seat])

    def hand_size(self, seat: int) -> int:
        """Return how many cards ``seat`` holds."""
        return int(self.player(seat)["hand_size"])

    def chips(self, seat: int) -> int:
        """Return the points ``seat`` holds in victory chips."""
        return int(self.player(seat)["chips"])

    def goods(self, seat: int) -> int:
        """Return how many goods lie on ``seat``'s worlds."""
        return int(self.player(seat)["goods"])

    def hand(self, seat: int) -> list[str]:
        """Return the ids of the cards in ``seat``'s hand."""
        return [c["id"] for c in self.view(seat)["hand"]]

    def tableau(self, seat: int) -> list[dict[str, Any]]:
        """Return ``seat``'s tableau as the views show it: each card's ``id``, and the ``good`` on goods worlds.

        ``good`` is the kind of the good the world holds, or ``None``.
        """
        return list(self.player(seat)["tableau"])

    def tableau_cards(self, seat: int) -> list[CardDef]:
        """Return the designs of ``seat``'s tableau cards, in tableau order."""
        return [design(c["id"]) for c in self.tableau(seat)]

    def good_kinds(self, seat: int) -> list[str]:
        """Return the kinds of the goods on ``seat``'s worlds, in tableau order."""
        return [c["good"] for c in self.tableau(seat) if c.get("good")]

    def supply_size(self) -> int:
        """Return the cards in the supply."""
        return int(self.view()["supply_size"])

    def discard_size(self) -> int:
        """Return the cards in the discard pile."""
        return int(self.view()["discard_size"])

    def chip_pool(self) -> int:
        """Return the points left in the victory chip pool."""
        return int(self.view()["chip_pool"])

    def tens_added(self) -> bool:
        """Whether the four 10-point chips have joined the pool."""
        return bool(self.view()["tens_added"])

    def phases_this_round(self) -> list[str]:
        """Return the phases the revealed action cards selected this round, in order (empty before the reveal)."""
        return list(self.view()["actions"].get("phases_this_round", []))

    def phases_left(self) -> list[str]:
        """Return the phases of this round still to run after the current one."""
        return list(self.view()["actions"].get("phases_left", []))

    def score(self, seat: int) -> int:
        """Return ``seat``'s victory points now, as the engine counts them (tableau, chips, cost-6 specials)."""
        return int(self.player(seat)["score"])

    def tableau_size(self, seat: int) -> int:
        """Return how many cards ``seat``'s tableau holds."""
        return int(self.player(seat)["tableau_size"])

    def summary(self) -> Summary:
        """Return the public facts :func:`round_start` chooses rounds by."""
        return Summary(tuple(self.tableau_size(s) for s in range(self.seats)), self.chip_pool(), self.tens_added())

    def military(self, seat: int) -> int:
        """Return ``seat``'s Militar for this round's Asentar."""
        return int(self.player(seat)["military"])

    def mine(self, seat: int) -> dict[str, Any]:
        """Return ``seat``'s own decision details (cards drawn exploring, payments owed, discards owed...)."""
        return dict(self.view(seat).get("mine") or {})

    def scores(self) -> list[int]:
        """Return the final scores (the game must be over)."""
        result = engine().result(self.state)
        if result is None:
            raise NoSituation("the game is not over")
        return [int(x) for x in result.scores]

    # ------------------------------------------------------------------ playing

    def play(self, seat: int, move: Any) -> list[Event]:
        """Apply ``move`` for ``seat``; return the events it caused.

        Raises:
            IllegalMove: the move breaks a rule (a defect of the generator that chose it).
        """
        if move.to_json()["type"] == "action" and not self.chosen_so_far():
            self._rounds_begun += 1
        self._views.clear()
        self._pending = None
        return engine().apply(self.state, seat, move)

    def play_json(self, seat: int, data: dict[str, Any]) -> list[Event]:
        """Parse and apply a move given as JSON; return the events it caused.

        Raises:
            InvalidMove: malformed JSON. IllegalMove: the move breaks a rule.
        """
        return self.play(seat, engine().parse_move(data))

    def auto(self, seat: int, moves: Sequence[Move]) -> Any:
        """Return the plain policy's move for ``seat``: random, but it likes to place cards and use powers."""
        rng = self.rng
        first = moves[0][0]["type"]
        if first == "action":
            wanted = self.actions.pop(seat, None)
            if wanted is None and self.action_pool:
                wanted = rng.choice(self.action_pool)
            if wanted is not None:
                return next(m[1] for m in moves if m[0].get("action") == wanted)
            return rng.choice(moves)[1]
        if first == "place":
            cards = [m for m in moves if m[0].get("card") is not None]
            if cards and rng.below(100) < self.place_rate:
                return rng.choice(cards)[1]
            return next(m[1] for m in moves if m[0].get("card") is None)
        if first in ("keep", "pay", "discard", "sell", "consume"):
            return rng.choice(moves)[1]
        chosen = [m for m in moves if m[0]["type"] != "done"]
        if chosen and rng.below(100) < 85:
            return rng.choice(chosen)[1]
        return rng.choice(moves)[1]

    def advance(
        self, until: Until, chooser: Chooser | None = None, budget: int = 3000, *, this_round: bool = False
    ) -> int:
        """Play until ``until`` holds at some seat's decision; return that seat (its move is not played).

        Seats decide in the order the engine lists them as waiting; ``chooser`` may steer any
        decision, the plain policy plays the rest. With ``this_round``, the situation must arise
        before the secret choice of the next round (a choice already open when called is this round's).

        Raises:
            NoSituation: the game ended, the round ended (``this_round``), or ``budget`` moves were played, first.
        """
        for played in range(budget):
            waiting = self.waiting()
            if not waiting:
                raise NoSituation("the game ended before the situation arose")
            seat = waiting[0]
            moves = self.moves(seat)
            if until(self, seat, moves):
                return seat
            if this_round and played and moves and kind(moves[0]) == "action" and not self.chosen_so_far():
                raise NoSituation("the round ended before the situation arose")
            move = chooser(self, seat, moves) if chooser is not None else None
            self.play(seat, move if move is not None else self.auto(seat, moves))
        raise NoSituation(f"no such situation within {budget} moves")

    def finish_sealed(self, move_type: str, chooser: Chooser | None = None) -> None:
        """Let every seat still choosing make the sealed choice being asked (``"place"``), up to the reveal.

        Nothing is played when no seat has chosen yet (a sealed step that has not begun).
        """
        while True:
            waiting = self.waiting()
            if not waiting or not self.chosen_so_far():
                return
            moves = self.moves(waiting[0])
            if not moves or kind(moves[0]) != move_type:
                return
            move = chooser(self, waiting[0], moves) if chooser is not None else None
            self.play(waiting[0], move if move is not None else self.auto(waiting[0], moves))

    def finish_moves(self, move_type: str) -> None:
        """Play (with the policy) every decision whose moves are of ``move_type`` (``"keep"``...), then stop."""
        while True:
            waiting = self.waiting()
            if not waiting:
                return
            moves = self.moves(waiting[0])
            if not moves or kind(moves[0]) != move_type:
                return
            self.play(waiting[0], self.auto(waiting[0], moves))

    def next_choice(self, after: int, chooser: Chooser | None = None, budget: int = 2000) -> None:
        """Play on to the secret choice of a round after round ``after`` (or to the end of the game).

        Raises:
            NoSituation: more than ``budget`` moves.
        """
        for _ in range(budget):
            waiting = self.waiting()
            if not waiting:
                return
            seat = waiting[0]
            moves = self.moves(seat)
            if moves and kind(moves[0]) == "action" and not self.chosen_so_far() and self.round() > after:
                return
            move = chooser(self, seat, moves) if chooser is not None else None
            self.play(seat, move if move is not None else self.auto(seat, moves))
        raise NoSituation(f"the next round did not come within {budget} moves")

    def to_end_of_round(self, chooser: Chooser | None = None, budget: int = 600) -> str:
        """Play the rest of the round: stop at the hand-limit discards (before any) or the next secret choice.

        Returns ``"hand_limit"``, ``"choose_action"`` or ``"over"``: where the game stopped. Told
        apart by the moves asked for: hand-limit discards offer no ``done``, unlike a consume power
        discarding cards from hand.

        Raises:
            NoSituation: more than ``budget`` moves.
        """
        for _ in range(budget):
            waiting = self.waiting()
            if not waiting:
                return "over"
            seat = waiting[0]
            moves = self.moves(seat)
            first = kind(moves[0]) if moves else ""
            if first == "action" and not self.chosen_so_far():
                return "choose_action"
            if first == "discard" and self._rounds_begun and all(kind(m) == "discard" for m in moves):
                return "hand_limit"
            move = chooser(self, seat, moves) if chooser is not None else None
            self.play(seat, move if move is not None else self.auto(seat, moves))
        raise NoSituation(f"the round did not end within {budget} moves")


def at_choice(table: Table, seat: int, moves: Sequence[Move]) -> bool:
    """An ``until`` that holds at any secret choice of action cards, before the first seat chooses."""
    return bool(moves) and kind(moves[0]) == "action" and not table.chosen_so_far()


DEALS = 48
"""Games dealt per seat count and policy: situations branch from these games' rounds (see :func:`round_start`)."""
_KEPT = 256
"""Games kept in memory (about 13 KB per stored round): the least recently used are dropped."""
_TRAJECTORIES: OrderedDict[tuple[Any, ...], _Trajectory] = OrderedDict()
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Summary:
    """Public facts of a stored round, to choose rounds without copying them.

    Attributes:
        tableau_sizes: each seat's tableau size. chip_pool: the points left in chips.
        tens_added: whether the four 10s have joined the pool.
    """

    tableau_sizes: tuple[int, ...]
    chip_pool: int
    tens_added: bool


@dataclass
class _Trajectory:
    """One dealt game played on by a fixed policy, with a copy of its state at each round's secret choice."""

    table: Table
    chooser: Chooser | None
    rounds: list[Any] = field(default_factory=list)
    summaries: list[Summary] = field(default_factory=list)

    def reach(self, round_no: int) -> bool:
        """Play the game on to round ``round_no`` (storing each round); return whether the game got there."""
        while len(self.rounds) < round_no:
            t = self.table
            if t.over():
                return False
            if self.rounds:
                t.next_choice(t.round(), self.chooser)
            else:
                t.advance(at_choice, self.chooser)
            if t.over():
                return False
            self.rounds.append(engine().clone(t.state))
            self.summaries.append(t.summary())
        return True


def round_start(
    rng: Rng,
    seats: int,
    min_round: int,
    max_round: int,
    place_rate: int = 85,
    chooser: Chooser | None = None,
    action_pool: tuple[str, ...] = (),
    where: Callable[[Summary], bool] | None = None,
    deals: int = DEALS,
) -> Table:
    """Return a game of ``seats`` seats at the secret choice of a round from ``min_round`` to ``max_round``.

    The game is one of :data:`DEALS` deals per seat count, played up to that round by the plain
    policy (``place_rate``, ``action_pool``) steered by ``chooser``; each such game is played once
    per process and every item that draws it gets its own copy (``Game.clone``) of the round's state,
    which it then plays on with its own random stream. ``chooser`` must be the same object for the
    same steering (the games are kept by it). With ``where``, the round is drawn among that deal's
    rounds whose :class:`Summary` it accepts. ``deals`` (at most :data:`DEALS`) lowers the number of
    games for situations that only long games reach, so that fewer of them are played.

    Raises:
        NoSituation: the game ended before that round, or no round of the deal is accepted (then the
            caller draws again).
    """
    deal = rng.below(min(deals, DEALS))
    target = min_round + rng.below(max_round - min_round + 1)
    key = (seats, deal, place_rate, chooser, action_pool)
    with _LOCK:  # the shared games are played on, and copied, by one thread at a time
        trajectory = _TRAJECTORIES.get(key)
        if trajectory is None:
            table = Table.deal(seats, Rng((seats << 32) + deal * 0x9E37 + place_rate))
            table.place_rate = place_rate
            table.action_pool = action_pool
            trajectory = _TRAJECTORIES[key] = _Trajectory(table, chooser)
            while len(_TRAJECTORIES) > _KEPT:
                _TRAJECTORIES.popitem(last=False)
        else:
            _TRAJECTORIES.move_to_end(key)
        if where is not None:
            trajectory.reach(max_round)
            fits = [r for r in range(min_round, len(trajectory.rounds) + 1) if where(trajectory.summaries[r - 1])]
            if not fits:
                raise NoSituation("no round of this game fits")
            target = rng.choice(fits)
        elif not trajectory.reach(target):
            raise NoSituation("the game ended before that round")
        state = engine().clone(trajectory.rounds[target - 1])
    table = Table(seats, state, rng.fork(2), place_rate=place_rate, action_pool=action_pool)
    table._rounds_begun = target - 1
    return table


def rounds(
    rng: Rng,
    seats: int,
    first: int,
    last: int,
    *,
    extra: int = 6,
    place_rate: int = 85,
    chooser: Chooser | None = None,
    action_pool: tuple[str, ...] = (),
    where: Callable[[Summary], bool] | None = None,
    deals: int = DEALS,
) -> Iterator[Table]:
    """Yield up to ``extra`` + 1 games at the secret choice of a round from ``first`` to ``last``.

    Each is a fresh copy of a round of a shared game (:func:`round_start`), so a generator
    looking for a situation tries several rounds cheaply; what it plays of one does not touch the next.
    Games that ended before the round drawn are skipped.
    """
    for _ in range(extra + 1):
        try:
            table = round_start(rng, seats, first, last, place_rate, chooser, action_pool, where, deals)
        except NoSituation:
            continue
        yield table


def choose_all(table: Table, actions: dict[int, str]) -> list[str]:
    """Play the secret choice of the round (``actions[seat]`` for every seat); return the phases the engine runs.

    The phases are read from the reveal, as the engine announces it, in the order they run.

    Raises:
        IllegalMove: it is not the secret choice, or a code is not an action card.
        NoSituation: the engine announced no phases.
    """
    events: list[Event] = []
    for seat in range(table.seats):
        events = table.play_json(seat, {"type": "action", "action": actions[seat]})
    for event in events:
        if event.data and "phases" in event.data:
            return [str(p) for p in event.data["phases"]]
    raise NoSituation("the reveal announced no phases")
