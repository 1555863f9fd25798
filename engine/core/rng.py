"""A small seeded random number generator whose output never depends on the Python version.

``random.Random`` is not promised to give the same stream across Python releases;
replaying a stored game must give the same state byte for byte, so the engines use
SplitMix64 (Steele, Lea and Flood, 2014), which is a few lines and fully specified.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_TWO64 = 1 << 64
_MASK = _TWO64 - 1
_GAMMA = 0x9E3779B97F4A7C15


def _limit(n: int) -> int:
    """Return the largest multiple of ``n`` up to 2**64: a draw at or above it is rejected, so that ``x % n`` is
    uniform.

    Raises:
        ValueError: if ``n`` is not positive.
    """
    if n <= 0:
        raise ValueError(f"below() needs a positive bound, got {n}")
    return _TWO64 - _TWO64 % n


_TABLED = 1024
_LIMITS: tuple[int, ...] = (0, *(_limit(n) for n in range(1, _TABLED)))
"""``_LIMITS[n]``: :func:`_limit` of the bounds most draws use (a hand, a deck, a list of moves), worked out once;
``_LIMITS[0]`` is never read (:func:`_limit` refuses a bound of 0 or less)."""


class Rng:
    """Deterministic pseudo-random stream (SplitMix64).

    Example:
        >>> Rng(42).sample_below(6, 5)
        [1, 1, 0, 0, 4]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def copy(self) -> Rng:
        """Return an independent stream at the same point: it draws what this one would draw next."""
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer of the stream."""
        self.state = s = (self.state + _GAMMA) & _MASK
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)``.

        Raises:
            ValueError: if ``n`` is not positive.
        """
        limit = _LIMITS[n] if 0 < n < _TABLED else _limit(n)
        while True:
            # next64() inline: one draw per decision of every random playout comes through here
            self.state = s = (self.state + _GAMMA) & _MASK
            s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
            x = s ^ (s >> 31)
            if x < limit:
                return x % n

    def sample_below(self, n: int, k: int) -> list[int]:
        """Return ``k`` successive draws of :meth:`below` (a convenience for tests)."""
        return [self.below(n) for _ in range(k)]

    def choice(self, seq: Sequence[T]) -> T:
        """Return a uniformly chosen element of a non-empty sequence.

        Raises:
            IndexError: if the sequence is empty.
        """
        if not seq:
            raise IndexError("choice() from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def fork(self, label: int) -> Rng:
        """Return an independent stream derived from this one's state and ``label``.

        The parent stream is not advanced, so forking never changes a game's draws.
        """
        r = Rng(self.state ^ ((label * _GAMMA) & _MASK))
        r.next64()
        return r
