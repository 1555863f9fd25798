"""A real Yo soy el jefe table driven through the engine's public ``Game`` API, for quiz situations.

Generators that ask about something the engine can do (deal, roll, close a deal, draw)
build the situation on a real table and read the answer from the engine's own view.
Only the public API is used: ``get_game``, ``make_config``, ``new_game``, ``pending``,
``legal_moves``, ``apply``, ``parse_move``, ``view`` and ``result``; moves are named by
their text form ("roll", "draw", "negotiate", "close", "fail", "pass", "hire rojo"...),
which the engine parses back whatever its internal layout.

The driver never decides for a seat beyond what the question needs: every seat that is
asked something the question does not care about passes, and a seat over the hand limit
discards its first listed card.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from club_agentes.engine.core import Game, IllegalMove, InvalidMove, get_game
from club_agentes.quizzes.model import Redraw

GAME_ID = "yo-soy-el-jefe"
# A bound on the decisions one driver step may take; a negotiation in which every other
# seat passes ends in a few rounds, so reaching it means the engine no longer behaves as
# the driver expects.
STEP_LIMIT = 400


class TableError(Redraw):
    """The engine did not let the driver reach the situation it was asked for: the template draws again."""


@cache
def engine() -> Game:
    """Return the installed Yo soy el jefe engine.

    Raises:
        UnknownGame: the game is not installed.
    """
    return get_game(GAME_ID)


@cache
def move(text: str) -> Any:
    """Return the engine's move for its text form (cached: moves are immutable values).

    Raises:
        TableError: the engine does not parse the text.
    """
    try:
        return engine().parse_move(text)
    except InvalidMove as exc:
        raise TableError(f"the engine does not parse the move {text!r}: {exc}") from None


class Table:
    """One game of Yo soy el jefe, started from a seed with the given table options."""

    def __init__(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> None:
        """Start a game.

        Raises:
            ConfigError: the engine refuses the seat count or an option.
        """
        self.game = engine()
        self.config = self.game.make_config(seats, dict(options or {}))
        self.state = self.game.new_game(self.config, seed)
        self.seats = seats

    @classmethod
    def adopt(cls, state: Any, seats: int) -> Table:
        """Drive a game state built elsewhere (e.g. by the engine's scenario builder)."""
        table = cls.__new__(cls)
        table.game = engine()
        table.config = None
        table.state = state
        table.seats = seats
        return table

    # -- reading -----------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Return the engine's view for ``seat`` (``None``: the public view)."""
        return self.game.view(self.state, seat)

    def deciding(self) -> tuple[int, ...]:
        """Return the seats that must decide now (empty once the game is over)."""
        pending = self.game.pending(self.state)
        return () if pending.kind == "over" else tuple(pending.seats)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.game.pending(self.state).kind == "over"

    def may(self, seat: int, text: str) -> bool:
        """Whether ``seat`` may play the move written ``text`` now."""
        return move(text) in self.game.legal_moves(self.state, seat)

    def legal_texts(self, seat: int) -> list[str]:
        """Return the text forms of ``seat``'s legal moves now, in the engine's order."""
        return [m.text() for m in self.game.legal_moves(self.state, seat)]

    # -- acting --------------------------------------------------------------------------

    def play(self, seat: int, text: str) -> None:
        """Play one move for ``seat``.

        Raises:
            TableError: the engine refuses the move.
        """
        try:
            self.game.apply(self.state, seat, move(text))
        except IllegalMove as exc:
            raise TableError(f"the engine refused {text!r} for seat {seat}: {exc}") from None

    def _discard_for(self, seat: int) -> bool:
        """Discard the first listed card if ``seat`` must discard now; return whether it did."""
        for text in self.legal_texts(seat):
            if text.startswith("discard"):
                self.play(seat, text)
                return True
        return False

    def until(self, seat: int, text: str) -> None:
        """Let every other decision pass (or discard) until ``seat`` may play ``text``, then play it.

        Raises:
            TableError: the game ends, or a seat that must decide can neither pass nor
                discard, or the step bound is reached, before ``seat`` may play ``text``.
        """
        for _ in range(STEP_LIMIT):
            deciding = self.deciding()
            if not deciding:
                raise TableError(f"the game ended before seat {seat} could play {text!r}")
            if seat in deciding and self.may(seat, text):
                self.play(seat, text)
                return
            first = deciding[0]
            if self.may(first, "pass"):
                self.play(first, "pass")
            elif not self._discard_for(first):
                raise TableError(
                    f"seat {first} must decide but can neither pass nor discard: {self.legal_texts(first)}"
                )
        raise TableError(f"seat {seat} could not play {text!r} within {STEP_LIMIT} decisions")

    def finish_turn(self) -> None:
        """Let the seat over the hand limit discard down to it, if any (nothing else is decided)."""
        for _ in range(STEP_LIMIT):
            deciding = self.deciding()
            if not deciding or not self._discard_for(deciding[0]):
                return
        raise TableError(f"discarding did not end within {STEP_LIMIT} decisions")

    def turn_seat(self) -> int:
        """Return the seat on turn, between turns' actions (to start a deal, roll or draw; not inside a deal).

        Raises:
            TableError: the game is over, or a negotiation or the marker's placing is under way.
        """
        pending = self.game.pending(self.state)
        if pending.kind != "turn" or len(pending.seats) != 1:
            raise TableError(f"no single seat is on turn (the decision is {pending.kind!r})")
        return pending.seats[0]

    def roll(self) -> tuple[int, int]:
        """The seat on turn rolls; return (the roll, the space the marker reached).

        Raises:
            TableError: as :meth:`until`.
        """
        self.until(self.turn_seat(), "roll")
        view = self.view()
        return int(view["last_roll"]), int(view["marker"])

    def draw(self) -> None:
        """The seat on turn (after rolling) takes influence cards and discards down to the limit.

        Raises:
            TableError: as :meth:`until`.
        """
        self.until(self.turn_seat(), "draw")
        self.finish_turn()

    def negotiate(self) -> int:
        """The seat on turn starts a negotiation on the marker's space; return the boss.

        Raises:
            TableError: as :meth:`until`.
        """
        seat = self.turn_seat()
        self.until(seat, "negotiate")
        return seat

    def boss(self) -> int:
        """Return the boss of the open negotiation.

        Raises:
            TableError: no negotiation is open.
        """
        negotiation = self.view().get("negotiation")
        if negotiation is None:
            raise TableError("no negotiation is open")
        return int(negotiation["boss"])

    def close(self) -> None:
        """The boss closes the open negotiation once every other seat has passed.

        Raises:
            TableError: as :meth:`until` (the deal cannot close with what is on the table).
        """
        self.until(self.boss(), "close")

    def fail(self) -> None:
        """The boss declares the open negotiation failed.

        Raises:
            TableError: as :meth:`until`.
        """
        self.until(self.boss(), "fail")

    def close_here(self) -> None:
        """The seat on turn negotiates on the marker's space and closes at once.

        Raises:
            TableError: as :meth:`until` (use a table whose options let any deal close).
        """
        self.negotiate()
        self.close()

    def fail_here(self) -> None:
        """The seat on turn negotiates on the marker's space and declares failure.

        Raises:
            TableError: as :meth:`until`.
        """
        self.negotiate()
        self.fail()
