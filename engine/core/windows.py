"""Building blocks for the two non-trivial kinds of decision.

* :class:`SealedChoices`: several seats choose at once; nothing is revealed until
  every seat has chosen (Se Vende's phase selection).
* :class:`ReactionWindow`: after an act, seats are polled one at a time in a fixed
  order and each may react or pass (a blue defence in Market Fortune, a "parada"
  or any influence card in Yo soy el jefe).

Both are plain mutable objects meant to live inside a game's state; both copy
cheaply and serialise with :meth:`to_json`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class SealedChoices(Generic[T]):
    """Collects one sealed choice per seat and reveals them only when all are in.

    Example:
        >>> s = SealedChoices([0, 1]); s.submit(1, "b"); s.waiting
        (0,)
        >>> s.submit(0, "a"); s.complete, s.reveal()
        (True, {0: 'a', 1: 'b'})
    """

    __slots__ = ("_choices", "seats")

    def __init__(self, seats: Iterable[int]) -> None:
        self.seats: tuple[int, ...] = tuple(sorted(seats))
        self._choices: dict[int, T] = {}

    @property
    def waiting(self) -> tuple[int, ...]:
        """Seats that still have to choose, ascending."""
        return tuple(s for s in self.seats if s not in self._choices)

    @property
    def done(self) -> tuple[int, ...]:
        """Seats that have chosen (what they chose stays sealed), ascending."""
        return tuple(s for s in self.seats if s in self._choices)

    @property
    def complete(self) -> bool:
        """Whether every seat has chosen."""
        return len(self._choices) == len(self.seats)

    def has_chosen(self, seat: int) -> bool:
        """Return whether ``seat`` has already chosen."""
        return seat in self._choices

    def submit(self, seat: int, choice: T) -> None:
        """Record ``seat``'s sealed choice.

        Raises:
            ValueError: the seat is not part of this choice or has already chosen
                (games check this first and raise their own ``IllegalMove``).
        """
        if seat not in self.seats:
            raise ValueError(f"seat {seat} takes no part in this choice")
        if seat in self._choices:
            raise ValueError(f"seat {seat} has already chosen")
        self._choices[seat] = choice

    def own(self, seat: int) -> T | None:
        """Return ``seat``'s own choice (for its own view), or ``None``."""
        return self._choices.get(seat)

    def reveal(self) -> dict[int, T]:
        """Return every choice, by seat.

        Raises:
            RuntimeError: some seat has not chosen yet; revealing now would leak.
        """
        if not self.complete:
            raise RuntimeError(f"cannot reveal while seats {self.waiting} are still choosing")
        return dict(sorted(self._choices.items()))

    def copy(self) -> SealedChoices[T]:
        """Return an independent copy."""
        c: SealedChoices[T] = SealedChoices(self.seats)
        c._choices = dict(self._choices)
        return c

    def to_json(self) -> dict[str, Any]:
        """Return the full contents (sealed choices included) for snapshots."""
        return {"seats": list(self.seats), "choices": {str(k): v for k, v in sorted(self._choices.items())}}


class ReactionWindow:
    """Polls seats one at a time, in a fixed order, after an act that may be answered.

    The order is fixed when the window opens (for instance clockwise from the
    attacker). The polled seat either passes (the poll moves on) or reacts; what
    a reaction does is the game's business: it may :meth:`close` the window, or
    :meth:`reopen` it so every seat gets a chance to answer the new act.

    Example:
        >>> w = ReactionWindow([2, 3, 0]); w.current
        2
        >>> w.pass_turn(2); w.current
        3
        >>> w.pass_turn(3); w.pass_turn(0); w.is_open
        False
    """

    __slots__ = ("index", "order")

    def __init__(self, order: Iterable[int]) -> None:
        self.order: tuple[int, ...] = tuple(order)
        self.index = 0

    @property
    def is_open(self) -> bool:
        """Whether some seat is still to be polled."""
        return self.index < len(self.order)

    @property
    def current(self) -> int | None:
        """The seat being polled now, or ``None`` when the window is closed."""
        return self.order[self.index] if self.index < len(self.order) else None

    def pass_turn(self, seat: int) -> None:
        """Record that the polled seat passes; the poll moves to the next seat.

        Raises:
            ValueError: ``seat`` is not the seat being polled.
        """
        if seat != self.current:
            raise ValueError(f"seat {seat} is not being polled (seat {self.current} is)")
        self.index += 1

    def close(self) -> None:
        """Close the window: no further seat is polled."""
        self.index = len(self.order)

    def reopen(self, order: Iterable[int]) -> None:
        """Start polling again from the first seat of a new order."""
        self.order = tuple(order)
        self.index = 0

    def copy(self) -> ReactionWindow:
        """Return an independent copy."""
        w = ReactionWindow(self.order)
        w.index = self.index
        return w

    def to_json(self) -> dict[str, Any]:
        """Return the order and position for snapshots."""
        return {"order": list(self.order), "index": self.index}


def clockwise_from(first: int, seats: int, *, include_first: bool = True) -> tuple[int, ...]:
    """Return seat numbers clockwise (ascending, wrapping) starting at ``first``.

    Example:
        >>> clockwise_from(2, 4), clockwise_from(2, 4, include_first=False)
        ((2, 3, 0, 1), (3, 0, 1))
    """
    order = tuple((first + i) % seats for i in range(seats))
    return order if include_first else order[1:]
