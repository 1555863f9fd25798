"""Errors raised by the engines.

Two kinds of refusal are kept apart, as python-chess does: a move that cannot be
understood at all (:class:`InvalidMove`) and a well-formed move that breaks a rule
(:class:`IllegalMove`, which names the rulebook section or ruling it breaks).
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class ConfigError(EngineError):
    """A game configuration (seat count, options) is not acceptable.

    The message is one sentence that says what was wrong and what is accepted.
    """


class UnknownGame(EngineError):
    """No game is registered under the requested id."""


class InvalidMove(EngineError):
    """A move is malformed: unknown type, missing or mistyped field, unparsable text.

    The message is one sentence naming the problem and what is accepted.
    """


class IllegalMove(EngineError):
    """A well-formed move that breaks a rule; the state is left untouched.

    Attributes:
        rule_id: the corpus id of the rulebook section or ruling that forbids the
            move, e.g. ``"market-fortune/cap-2/regla-8-cartas"``.
        message: one English sentence with the facts of the refusal.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{message} [{rule_id}]")
        self.rule_id = rule_id
        self.message = message
