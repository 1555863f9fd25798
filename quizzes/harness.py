"""The entry quiz and practice questions, as a service the MCP tools call.

:class:`QuizService` serves a fresh entry paper of three questions and one riddle per attempt,
grades it once (the attempt is single-use and expires), and on a pass (all four right) issues a
club pass. Practice papers hold one item, are graded through the same
:meth:`QuizService.submit_quiz`, show the right answer and its citation afterwards and never
yield a pass.

**Two pools.** Entry papers are drawn only from the *entry pool*: the parametric generators
registered with ``entry=True`` (a fresh situation per draw, its answer computed from the rules)
and the items of an operator's private bank (:class:`~club_agentes.quizzes.bank.PrivateBank`),
which is never exported or shown in practice. The public hand-written items and the
``entry=False`` generators form the *practice pool*, which practice and export use; so no
amount of practice, and no exported file, holds an entry item. Within one agent's attempts at
a game, no prompt repeats within :data:`RECENT_PAPERS` papers.

**Shuffled options.** Each paper shows the options of a choice item in a fresh order with the
letters re-assigned; the order is stored with the attempt and grading reads letters as shown.

**Identity and limits.** Every attempt belongs to an agent (the normalised name of the connection
that asked for it, see :func:`normalize_agent_name`); only that agent can submit it. Entry
quizzes and practice questions are taken from a :class:`Limiter` (the server's shared limits;
by default :class:`AttemptLimiter`, which counts the store's attempts).

What an agent sees of an item is a :class:`PaperItem`: an opaque key (``"q1"``..``"q3"``,
``"r1"``, ``"p1"``), the prompt, options or terms, unit and the JSON schema of a valid
answer. Never the answer, the internal item id, or a generator seed (the seed would let
anyone regenerate a parametric item's answer); those stay in the store.
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from club_agentes.engine.core.rng import Rng
from club_agentes.engine.core.text import fold
from club_agentes.quizzes.bank import Bank, GameBank, PrivateBank, UnknownBankGame, UnknownItem
from club_agentes.quizzes.clubpass import DEFAULT_PASS_TTL_SECONDS, ClubPasses, PassCheck, iso_utc
from club_agentes.quizzes.grading import MAX_ANSWER_CHARS, display_answer, grade
from club_agentes.quizzes.model import CHOICE_LETTERS, Generator, Item, ItemKind
from club_agentes.quizzes.store import Attempt, QuizStore
from club_agentes.rules_corpus import Corpus, UnknownSection, load_corpus

from club_agentes.errors import Refused

QUESTION_KEYS = ("q1", "q2", "q3")
RIDDLE_KEY = "r1"
PRACTICE_KEY = "p1"
HOUR = 3600.0
MAX_AGENT_CHARS = 64
MAX_RAW_AGENT_CHARS = 200
MAX_QUIZ_ID_CHARS = 128
RECENT_PAPERS = 10
"""No prompt of an agent's new entry paper was asked in its last this-many papers of that game."""
ENTRY_QUIZ = "entry_quiz"
"""The :class:`Limiter` kind of an entry quiz."""
PRACTICE = "practice"
"""The :class:`Limiter` kind of a practice question."""
_GENERATOR_TRIES = 64
_DRAW_TRIES = 400


# --------------------------------------------------------------------------- errors


class QuizError(Refused):
    """Base of the harness's refusals; the message is one sentence saying what was wrong and what is accepted."""


class UnknownQuizGame(QuizError):
    """The game id has no question bank."""


class EntryPoolTooSmall(QuizError):
    """The game's entry pool cannot fill a paper (an operator's matter: add generators or a private bank)."""


class InvalidAgent(QuizError):
    """The agent name is empty, too long, or has no letter or digit."""


class NotYourQuiz(QuizError):
    """The attempt belongs to another agent."""


class UnknownQuiz(QuizError):
    """No attempt has this quiz id."""


class QuizExpired(QuizError):
    """The attempt's time ran out before it was submitted."""


class QuizAlreadyUsed(QuizError):
    """The attempt was already graded; each quiz id is graded once."""


class RateLimited(QuizError):
    """The agent used up its attempts for the hour.

    Attributes:
        retry_after: whole seconds until the next attempt is allowed.
    """

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class MalformedAnswers(QuizError):
    """The answers are not an object of one answer per key; the attempt stays open."""


class UnknownQuizSection(QuizError):
    """The practice section is not a section of the game's corpus.

    Attributes:
        suggestions: the closest section ids.
    """

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


class NoItemForSection(QuizError):
    """No item of the practice pool cites the requested practice section."""


# --------------------------------------------------------------------------- agent names


def normalize_agent_name(agent: object) -> str:
    """Return the normalised form of an agent name, under which quizzes, passes, keys and seats are kept.

    Look-alike names are one name: case, accents and punctuation are folded, and every run of
    characters other than ASCII letters and digits becomes one ``-`` (``"Same-Name"``,
    ``"same_name"`` and ``"same-name."`` are all ``"same-name"``; ``"Íñigo López"`` is
    ``"inigo-lopez"``).

    Raises:
        InvalidAgent: not a string, empty, longer than 200 characters as given or 64 once
            normalised, or without any letter or digit.
    """
    if not isinstance(agent, str) or not agent.strip():
        raise InvalidAgent("the agent name is empty; give a name of 1-64 letters or digits (e.g. 'claude-7')")
    if len(agent) > MAX_RAW_AGENT_CHARS:
        raise InvalidAgent(f"the agent name is longer than {MAX_RAW_AGENT_CHARS} characters; use 1-64")
    folded = fold(agent).casefold()
    folded = folded.replace("ø", "o").replace("æ", "ae").replace("œ", "oe").replace("ł", "l")
    name = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")
    if not name:
        raise InvalidAgent(
            f"the agent name {agent[:60]!r} has no letter or digit (a-z, 0-9, accents folded); "
            "give a name such as 'claude-7'"
        )
    if len(name) > MAX_AGENT_CHARS:
        raise InvalidAgent(
            f"the agent name {agent[:60]!r} is {len(name)} characters once normalised; use at most {MAX_AGENT_CHARS}"
        )
    return name


check_agent_name = normalize_agent_name
"""The name the tables service imports (same function)."""


def prompt_key(prompt: str) -> str:
    """Return the fingerprint of a prompt: equal for prompts that differ only in case, accents or spacing.

    Never raises.
    """
    folded = fold(prompt).casefold()
    return hashlib.sha256(" ".join(folded.split()).encode("utf-8")).hexdigest()[:16]


# --------------------------------------------------------------------------- limits


class Limiter(Protocol):
    """Takes one unit of a per-agent limit, or refuses."""

    def take(self, kind: str, subject: str) -> object:
        """Count one ``kind`` request (:data:`ENTRY_QUIZ` or :data:`PRACTICE`) by ``subject`` (what it returns,
        e.g. a receipt, is not used here).

        Raises:
            Refused: the limit is used up; ``retry_after`` says when to retry.
        """
        ...


class AttemptLimiter:
    """A :class:`Limiter` over the store's own attempts: at most N entry quizzes (and practice papers) per hour."""

    def __init__(
        self,
        store: QuizStore,
        *,
        clock: Callable[[], float] = time.time,
        entry_per_hour: int | None = 5,
        practice_per_hour: int | None = None,
    ) -> None:
        """Build the limiter (``None``: no limit of that kind).

        Raises:
            ValueError: a limit is not positive.
        """
        if any(v is not None and v < 1 for v in (entry_per_hour, practice_per_hour)):
            raise ValueError("attempt limits must be positive")
        self.store = store
        self.clock = clock
        self.limits = {ENTRY_QUIZ: entry_per_hour, PRACTICE: practice_per_hour}

    def take(self, kind: str, subject: str) -> None:
        """Refuse when ``subject`` already started its hourly number of ``kind`` attempts.

        Raises:
            RateLimited: the limit is used up (``retry_after`` set).
        """
        limit = self.limits.get(kind)
        if limit is None:
            return
        practice = kind == PRACTICE
        now = self.clock()
        times = [t for t in self.store.attempt_times(subject, now - HOUR, practice=practice) if t > now - HOUR]
        if len(times) >= limit:
            oldest = times[len(times) - limit]
            retry_after = max(1, math.ceil(oldest + HOUR - now))
            what = "practice questions" if practice else "entry quizzes"
            raise RateLimited(
                f"{subject} has started {len(times)} {what} in the last hour (the limit is {limit}); "
                f"retry after {retry_after} seconds",
                retry_after,
            )


# --------------------------------------------------------------------------- what agents see


@dataclass(frozen=True)
class PaperItem:
    """One item as an agent sees it: never its answer, internal id or seed.

    Attributes:
        key: the opaque key to answer it under (``"q1"``..``"q3"``, ``"r1"``, ``"p1"``).
        kind: ``"question"`` or ``"riddle"``.
        type: ``"integer"``, ``"choice"`` or ``"term"``.
        prompt: the question in Spanish.
        options: for ``choice``, the four option texts in A-D order.
        terms: for ``term``, the terms of the closed vocabulary (synonyms are accepted too).
        unit: for ``integer``: ``"M"`` (millions), ``"%"`` or ``""``.
        answer_format: one English sentence on how to write the answer.
        answer_schema: the JSON schema of a valid answer.
    """

    key: str
    kind: str
    type: str
    prompt: str
    options: tuple[str, ...]
    terms: tuple[str, ...]
    unit: str
    answer_format: str
    answer_schema: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """Return the item as JSON-ready data."""
        return {
            "key": self.key,
            "kind": self.kind,
            "type": self.type,
            "prompt": self.prompt,
            "options": [f"{letter}) {text}" for letter, text in zip("ABCD", self.options, strict=False)],
            "terms": list(self.terms),
            "unit": self.unit,
            "answer_format": self.answer_format,
            "answer_schema": self.answer_schema,
        }


@dataclass(frozen=True)
class QuizPaper:
    """An entry quiz (three questions and a riddle) or a practice paper (one item).

    Attributes:
        quiz_id: the unguessable id to submit the answers under.
        game: the game id.
        agent: the agent who asked for it (``""`` for anonymous practice).
        practice: whether this is a practice paper (it never yields a pass).
        items: the items, in key order.
        expires_at: UNIX time after which the paper can no longer be submitted.
    """

    quiz_id: str
    game: str
    agent: str
    practice: bool
    items: tuple[PaperItem, ...]
    expires_at: float

    @property
    def answers_schema(self) -> dict[str, Any]:
        """The JSON schema of the ``answers`` object that :meth:`QuizService.submit_quiz` takes."""
        return {
            "type": "object",
            "properties": {it.key: it.answer_schema for it in self.items},
            "required": [it.key for it in self.items],
            "additionalProperties": False,
        }

    @property
    def instructions(self) -> str:
        """One English paragraph on how to answer this paper."""
        keys = ", ".join(it.key for it in self.items)
        if self.practice:
            return (
                f"Answer with submit_quiz(quiz_id, answers) where answers maps {keys} to your answer; the result "
                f"shows the right answer and its citation. The paper expires at {iso_utc(self.expires_at)}."
            )
        return (
            f"Answer all four items at once with submit_quiz(quiz_id, answers) where answers maps {keys} to your "
            f"answers; all four must be right to pass, and the quiz can be submitted once, before "
            f"{iso_utc(self.expires_at)}."
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the paper as JSON-ready data (no answer, item id or seed is in it)."""
        return {
            "quiz_id": self.quiz_id,
            "game": self.game,
            "practice": self.practice,
            "items": [it.to_dict() for it in self.items],
            "answers_schema": self.answers_schema,
            "expires_at": self.expires_at,
            "expires_at_iso": iso_utc(self.expires_at),
            "instructions": self.instructions,
        }


@dataclass(frozen=True)
class ItemResult:
    """How one item was graded.

    Attributes:
        key: the item's key on the paper.
        correct: whether the answer was right.
        reason: for a wrong answer, one English sentence on why (never the right answer).
        sections: the corpus section ids to re-read (the item's citations).
        answer: practice only: the right answer (``"25M"``, ``"B) <text>"``, a term).
        citation: practice only: the cited sections with their titles.
        explanation: practice only: one Spanish sentence explaining the answer.
    """

    key: str
    correct: bool
    reason: str
    sections: tuple[str, ...]
    answer: str | None = None
    citation: tuple[str, ...] = ()
    explanation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready data."""
        return {
            "key": self.key,
            "correct": self.correct,
            "reason": self.reason,
            "sections": list(self.sections),
            "answer": self.answer,
            "citation": list(self.citation),
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class QuizResult:
    """The grading of a paper.

    Attributes:
        quiz_id: the paper's id.
        game: the game id.
        practice: whether it was a practice paper.
        passed: whether every item was right on an entry quiz (always ``False`` for practice,
            whose result says only whether it was right).
        right: how many items were right.
        total: how many items the paper held.
        items: per-item results, in key order.
        club_pass: on a pass, the signed club pass (a JWT); else ``None``.
        pass_games: the games the new pass covers (empty without a pass).
        pass_expires_at: the new pass's expiry as UNIX time, or ``None``.
    """

    quiz_id: str
    game: str
    practice: bool
    passed: bool
    right: int
    total: int
    items: tuple[ItemResult, ...]
    club_pass: str | None = None
    pass_games: tuple[str, ...] = ()
    pass_expires_at: float | None = None

    @property
    def correct(self) -> bool:
        """Whether every item was right (for practice: whether the one item was)."""
        return self.right == self.total

    @property
    def summary(self) -> str:
        """One English sentence summarising the result."""
        if self.practice:
            first = self.items[0] if self.items else None
            if self.correct:
                return "Right. The answer and its citation are below; practice never yields a club pass."
            shown = f" The right answer is {first.answer}." if first is not None and first.answer else ""
            return f"Not right.{shown} Re-read the cited sections; practice never yields a club pass."
        if self.passed:
            return f"Passed: all {self.total} right; the club pass covers {', '.join(self.pass_games)}."
        return f"Not passed: {self.right} of {self.total} right; re-read the cited sections and start a new quiz."

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready data (a practice result has no ``passed``, only ``correct``)."""
        out: dict[str, Any] = {
            "quiz_id": self.quiz_id,
            "game": self.game,
            "practice": self.practice,
            "correct": self.correct,
            "right": self.right,
            "total": self.total,
            "summary": self.summary,
            "items": [r.to_dict() for r in self.items],
            "club_pass": self.club_pass,
            "pass_games": list(self.pass_games),
            "pass_expires_at": self.pass_expires_at,
            "pass_expires_at_iso": iso_utc(self.pass_expires_at) if self.pass_expires_at is not None else None,
        }
        if not self.practice:
            out["passed"] = self.passed
        return out


# --------------------------------------------------------------------------- answer formats


def answer_format(item: Item, terms: tuple[str, ...] = ()) -> str:
    """Return one English sentence on how to write an answer to ``item``. Never raises."""
    if item.type == "integer":
        # The examples are numbers no item has as its answer (the leak test checks it).
        if item.unit == "M":
            return (
                "One whole number of millions, in digits or Spanish words; for 1234 millions: 1234, 1234M, "
                "1234 millones or 1.234.000.000."
            )
        if item.unit == "%":
            return "One whole percentage, in digits or Spanish words: e.g. 99, 99 % or noventa y nueve por ciento."
        return "One whole number, in digits or in Spanish words (for example 1234 or mil doscientos treinta y cuatro)."
    if item.type == "choice":
        return "One letter A-D, or the full text of one option."
    return "One term of the list in 'terms' (its usual synonyms are accepted too)."


def answer_schema(item: Item, terms: tuple[str, ...] = ()) -> dict[str, Any]:
    """Return the JSON schema of a valid answer to ``item``. Never raises."""
    text = {"type": "string", "minLength": 1, "maxLength": MAX_ANSWER_CHARS}
    description = answer_format(item, terms)
    if item.type == "integer":
        return {"anyOf": [{"type": "integer", "minimum": 0}, text], "description": description}
    return {**text, "description": description}


# --------------------------------------------------------------------------- shuffled options


def presented(item: Item, order: Sequence[int]) -> Item:
    """Return ``item`` as a paper shows it: options in ``order`` (indices into its own), answer letter re-assigned.

    An empty ``order`` (or an item without options) returns the item unchanged.

    Raises:
        ValueError: ``order`` is not a permutation of the item's option indices.
    """
    if not order or not item.options:
        return item
    if sorted(order) != list(range(len(item.options))):
        raise ValueError(f"{list(order)} is not an order of the {len(item.options)} options of {item.id}")
    options = tuple(item.options[i] for i in order)
    answer = item.answer
    if item.type == "choice" and item.answer in CHOICE_LETTERS[: len(item.options)]:
        answer = CHOICE_LETTERS[list(order).index(CHOICE_LETTERS.index(item.answer))]
    return replace(item, options=options, answer=answer)


def _order_for(item: Item, rng: Rng) -> tuple[int, ...]:
    if not item.options:
        return ()
    order = list(range(len(item.options)))
    rng.shuffle(order)
    return tuple(order)


# --------------------------------------------------------------------------- the service


@dataclass(frozen=True)
class _Candidate:
    """One way to fill an entry slot: a generator (fresh item per draw) or a private item."""

    generator: Generator | None = None
    item: Item | None = None

    def draw(self, rng: Rng) -> Item:
        if self.generator is not None:
            return self.generator.make(rng.next64() >> 1)
        assert self.item is not None
        return self.item


class QuizService:
    """Entry quizzes, practice questions and club passes over a :class:`~quizzes.store.QuizStore`."""

    def __init__(
        self,
        bank: Bank,
        store: QuizStore,
        *,
        secret: bytes,
        clock: Callable[[], float] = time.time,
        limiter: Limiter | None = None,
        attempts_per_hour: int = 5,
        practice_per_hour: int | None = None,
        ttl_seconds: float = 900,
        pass_ttl_seconds: float = DEFAULT_PASS_TTL_SECONDS,
        corpus: Corpus | None = None,
        private: PrivateBank | None = None,
        rng: Rng | None = None,
    ) -> None:
        """Build the service.

        ``secret`` is the pass-signing key (:func:`~club_agentes.quizzes.clubpass.signing_key`).
        ``limiter`` takes entry quizzes and practice questions per agent; without one, an
        :class:`AttemptLimiter` allows ``attempts_per_hour`` entry quizzes (and
        ``practice_per_hour`` practice papers, ``None``: unlimited) per agent. ``private`` is the
        operator's private bank (entry papers only). ``rng`` fixes the draws (tests); by default
        every paper is drawn from a fresh seed from ``secrets``.

        Raises:
            ValueError: a limit or lifetime is not positive.
            quizzes.clubpass.SecretTooShort: the signing key is shorter than 32 bytes.
        """
        if ttl_seconds <= 0:
            raise ValueError("quiz lifetimes must be positive")
        self.bank = bank
        self.store = store
        self.clock = clock
        self.limiter: Limiter = limiter or AttemptLimiter(
            store, clock=clock, entry_per_hour=attempts_per_hour, practice_per_hour=practice_per_hour
        )
        self.ttl_seconds = ttl_seconds
        self.corpus = corpus or load_corpus()
        self.private = private or PrivateBank({})
        self._rng = rng
        self.passes = ClubPasses(store, clock=clock, secret=secret, ttl_seconds=pass_ttl_seconds)

    # ----- helpers

    def _fresh_rng(self) -> Rng:
        return self._rng if self._rng is not None else Rng(secrets.randbits(64))

    def _game(self, game: str) -> GameBank:
        try:
            return self.bank.game(game)
        except UnknownBankGame:
            valid = ", ".join(self.bank.games)
            raise UnknownQuizGame(f"unknown game {str(game)[:60]!r}; the games with a quiz are: {valid}") from None

    def item(self, item_id: str) -> Item:
        """Return an item of the public bank, the private bank, or a generator, by id.

        Raises:
            UnknownItem: no such item.
        """
        found = self.private.get(item_id)
        return found if found is not None else self.bank.item(item_id)

    def entry_candidates(self, game: str, kind: ItemKind) -> list[_Candidate]:
        """Return what can fill an entry slot of ``kind``: the entry generators, then the private items.

        Raises:
            UnknownQuizGame: no bank for ``game``.
        """
        gb = self._game(game)
        gens = [_Candidate(generator=g) for g in gb.generators(kind) if g.entry]
        return gens + [_Candidate(item=it) for it in self.private.items(game, kind)]

    def practice_pool(self, game: str) -> tuple[list[Item], list[Generator]]:
        """Return the practice pool of ``game``: the public hand-written items and the ``entry=False`` generators.

        Raises:
            UnknownQuizGame: no bank for ``game``.
        """
        gb = self._game(game)
        return list(gb.items), [g for g in gb.generators() if not g.entry]

    def _paper_item(self, key: str, item: Item) -> PaperItem:
        vocab = self.bank.vocabulary(item)
        terms = vocab.term_names if vocab else ()
        return PaperItem(
            key=key,
            kind=item.kind,
            type=item.type,
            prompt=item.prompt,
            options=item.options,
            terms=terms,
            unit=item.unit,
            answer_format=answer_format(item, terms),
            answer_schema=answer_schema(item, terms),
        )

    def _save(self, agent: str, game: str, practice: bool, keyed: list[tuple[str, Item]], rng: Rng) -> QuizPaper:
        now = self.clock()
        orders = tuple(_order_for(item, rng) for _, item in keyed)
        attempt = Attempt(
            quiz_id=secrets.token_urlsafe(24),
            agent=agent,
            game=game,
            practice=practice,
            item_ids=tuple(item.id for _, item in keyed),
            created_at=now,
            expires_at=now + self.ttl_seconds,
            orders=orders,
            prompt_keys=tuple(prompt_key(item.prompt) for _, item in keyed),
        )
        self.store.save_attempt(attempt)
        return QuizPaper(
            quiz_id=attempt.quiz_id,
            game=game,
            agent=agent,
            practice=practice,
            items=tuple(
                self._paper_item(k, presented(it, order)) for (k, it), order in zip(keyed, orders, strict=True)
            ),
            expires_at=attempt.expires_at,
        )

    @staticmethod
    def _generate(gen: Generator, rng: Rng, section: str | None = None) -> Item | None:
        """Make a fresh item, citing ``section`` when given (else ``None`` after a few tries)."""
        for _ in range(_GENERATOR_TRIES if section else 1):
            item = gen.make(rng.next64() >> 1)
            if section is None or section in item.sections:
                return item
        return None

    def draw_entry(self, game: str, agent: str | None = None, rng: Rng | None = None) -> list[tuple[str, Item]]:
        """Draw an entry paper's items: three questions and one riddle from the entry pool.

        No two items share a prompt, no two come from the same generator or private item, and
        (given ``agent``) no prompt was asked in the agent's last :data:`RECENT_PAPERS` papers of
        ``game``.

        Raises:
            UnknownQuizGame: no bank for ``game``.
            EntryPoolTooSmall: the entry pool cannot fill a slot under those rules.
        """
        rng = rng or self._fresh_rng()
        recent: set[str] = set()
        if agent is not None:
            for keys in self.store.recent_prompt_keys(agent, game, RECENT_PAPERS):
                recent.update(keys)
        slots: list[tuple[str, ItemKind]] = [(k, "question") for k in QUESTION_KEYS] + [(RIDDLE_KEY, "riddle")]
        used: dict[str, set[int]] = {"question": set(), "riddle": set()}
        out: list[tuple[str, Item]] = []
        for key, kind in slots:
            pool = self.entry_candidates(game, kind)
            if not pool:
                raise EntryPoolTooSmall(
                    f"the entry pool of {game} holds no {kind}, so no entry quiz can be served; the operator must "
                    "add entry generators or a private bank (--private-bank)"
                )
            item: Item | None = None
            for _ in range(_DRAW_TRIES):
                free = [i for i in range(len(pool)) if i not in used[kind]]
                if not free:
                    break
                index = rng.choice(free)
                drawn = pool[index].draw(rng)
                pk = prompt_key(drawn.prompt)
                if pk in recent:
                    if pool[index].generator is None:
                        used[kind].add(index)  # a private item never changes: do not draw it again
                    continue
                item = drawn
                used[kind].add(index)
                recent.add(pk)
                break
            if item is None:
                raise EntryPoolTooSmall(
                    f"the entry pool of {game} has no fresh {kind} for {agent or 'this paper'}: every draw repeats "
                    f"a prompt of the last {RECENT_PAPERS} papers; the operator must add entry generators or "
                    "private items"
                )
            out.append((key, item))
        return out

    # ----- the public surface

    def start_quiz(self, game: str, agent: str) -> QuizPaper:
        """Start an entry quiz for ``agent``: three questions and one riddle from the entry pool.

        Raises:
            UnknownQuizGame: no bank for ``game``.
            InvalidAgent: the agent name is not accepted.
            EntryPoolTooSmall: the game's entry pool cannot fill a paper.
            Refused: the limiter refused (e.g. :class:`RateLimited`, with ``retry_after``).
        """
        self._game(game)
        name = normalize_agent_name(agent)
        rng = self._fresh_rng()
        keyed = self.draw_entry(game, name, rng)
        self.limiter.take(ENTRY_QUIZ, name)
        return self._save(name, game, False, keyed, rng)

    def draw_practice(self, game: str, section: str | None = None, rng: Rng | None = None) -> Item:
        """Draw one item of the practice pool (hand-written or ``entry=False`` parametric), citing ``section``.

        Raises:
            UnknownQuizGame: no bank for ``game``.
            UnknownQuizSection: ``section`` is not a section of the game.
            NoItemForSection: no item of the practice pool cites ``section``.
        """
        rng = rng or self._fresh_rng()
        hand, gens = self.practice_pool(game)
        sid: str | None = None
        if section is not None:
            try:
                sid = self.corpus.resolve(game, section).id
            except UnknownSection as exc:
                raise UnknownQuizSection(str(exc), exc.suggestions) from None
        hand = [it for it in hand if sid is None or sid in it.sections]
        gens = [g for g in gens if sid is None or sid in g.sections]
        item: Item | None = None
        if gens and (not hand or rng.below(len(hand) + len(gens)) < len(gens)):
            rng.shuffle(gens)
            for gen in gens:
                item = self._generate(gen, rng, sid)
                if item is not None:
                    break
        if item is None and hand:
            item = rng.choice(hand)
        if item is None:
            raise NoItemForSection(
                f"no practice question of {game} cites {sid}; pick a section with rule content from rules_toc, "
                "or omit the section"
            )
        return item

    def practice_question(self, game: str, section: str | None = None, *, agent: str | None = None) -> QuizPaper:
        """Serve one practice item for ``agent``, citing ``section`` when given.

        The paper is answered through :meth:`submit_quiz` under the key ``"p1"``. The server always
        passes the connection's agent (so practice counts against that agent's limit); a library
        caller may omit it for an anonymous, unlimited paper that anyone holding its id can submit.

        Raises:
            UnknownQuizGame: no bank for ``game``.
            InvalidAgent: ``agent`` is given but not accepted.
            UnknownQuizSection: ``section`` is not a section of the game.
            NoItemForSection: no item of the practice pool cites ``section``.
            Refused: the limiter refused (e.g. :class:`RateLimited`, with ``retry_after``).
        """
        self._game(game)
        name = normalize_agent_name(agent) if agent is not None else ""
        rng = self._fresh_rng()
        item = self.draw_practice(game, section, rng)
        if name:
            self.limiter.take(PRACTICE, name)
        return self._save(name, game, True, [(PRACTICE_KEY, item)], rng)

    def _check_answers(self, keys: tuple[str, ...], answers: Any) -> dict[str, str | int]:
        listed = ", ".join(keys)
        if not isinstance(answers, Mapping):
            raise MalformedAnswers(f"answers must be an object mapping each key ({listed}) to one answer")
        extra = [str(k)[:20] for k in answers if k not in keys]
        if extra:
            raise MalformedAnswers(
                f"answers hold unknown keys {', '.join(extra[:5])}; the keys of this paper are {listed}"
            )
        missing = [k for k in keys if k not in answers]
        if missing:
            raise MalformedAnswers(f"answers lack {', '.join(missing)}; give one answer for each of {listed}")
        out: dict[str, str | int] = {}
        for k in keys:
            v = answers[k]
            if isinstance(v, bool) or not isinstance(v, str | int):
                raise MalformedAnswers(f"the answer to {k} is a {type(v).__name__}; answers are strings or integers")
            if isinstance(v, str) and not v.strip():
                raise MalformedAnswers(f"the answer to {k} is empty; write one answer for each of {listed}")
            if isinstance(v, str) and len(v) > MAX_ANSWER_CHARS:
                raise MalformedAnswers(f"the answer to {k} is longer than {MAX_ANSWER_CHARS} characters")
            out[k] = v
        return out

    def _valid_games(self, agent: str, now: float) -> set[str]:
        """Games of the agent's passes that are unrevoked and unexpired at ``now``."""
        games: set[str] = set()
        for record in self.store.passes_for(agent):
            if not record.revoked and record.expires_at > now:
                games.update(record.games)
        return games

    def _citation(self, sections: tuple[str, ...]) -> tuple[str, ...]:
        out = []
        for sid in sections:
            sec = self.corpus.sections.get(sid)
            out.append(f"{sid} ({sec.title})" if sec else sid)
        return tuple(out)

    def presented_items(self, attempt: Attempt) -> list[Item]:
        """Return the attempt's items as its paper showed them (options in the shown order, answers re-lettered).

        For graders, statistics and tests; never sent to an agent before grading.

        Raises:
            UnknownItem: the attempt asks an item the current bank no longer holds.
        """
        orders = attempt.orders or tuple(() for _ in attempt.item_ids)
        return [presented(self.item(i), o) for i, o in zip(attempt.item_ids, orders, strict=True)]

    def submit_quiz(self, quiz_id: str, answers: Mapping[str, str | int], *, agent: str | None = None) -> QuizResult:
        """Grade a paper once; on an entry-quiz pass, issue a club pass naming the attempt's agent.

        ``agent`` is the submitting connection's agent; the server always passes it, and an attempt
        can then only be submitted by the agent that started it (an anonymous practice paper by anyone).

        Raises:
            UnknownQuiz: no attempt has this id.
            NotYourQuiz: the attempt was started by another agent.
            QuizAlreadyUsed: the attempt was already graded.
            QuizExpired: the attempt expired.
            MalformedAnswers: the answers are not one string or integer per key (the attempt stays open).
        """
        if not isinstance(quiz_id, str) or not 0 < len(quiz_id) <= MAX_QUIZ_ID_CHARS:
            raise UnknownQuiz(
                "the quiz id is malformed; give the quiz_id string that start_quiz or practice_question returned"
            )
        attempt = self.store.load_attempt(quiz_id)
        if attempt is None:
            raise UnknownQuiz("no quiz has this id; give the quiz_id that start_quiz or practice_question returned")
        if agent is not None and attempt.agent and normalize_agent_name(agent) != attempt.agent:
            raise NotYourQuiz(
                "this quiz was started by another agent; only the agent that started a quiz can submit it"
            )
        if attempt.graded_at is not None:
            raise QuizAlreadyUsed(
                f"this quiz was already graded at {iso_utc(attempt.graded_at)}; each quiz is graded once, "
                "so start a new one"
            )
        now = self.clock()
        if now >= attempt.expires_at:
            raise QuizExpired(f"this quiz expired at {iso_utc(attempt.expires_at)}; start a new one")
        if attempt.practice:
            keys: tuple[str, ...] = (PRACTICE_KEY,)
        else:
            keys = (*QUESTION_KEYS, RIDDLE_KEY)[: len(attempt.item_ids)]
        given = self._check_answers(keys, answers)
        try:
            items = self.presented_items(attempt)
        except (UnknownItem, ValueError):
            raise UnknownQuiz("this quiz asks items the current bank no longer holds; start a new one") from None
        results: list[ItemResult] = []
        stored: list[dict[str, Any]] = []
        for key, item in zip(keys, items, strict=True):
            g = grade(item, given[key], self.bank.vocabulary(item))
            results.append(
                ItemResult(
                    key=key,
                    correct=g.correct,
                    reason=g.reason,
                    sections=item.sections,
                    answer=display_answer(item) if attempt.practice else None,
                    citation=self._citation(item.sections) if attempt.practice else (),
                    explanation=(item.explanation or None) if attempt.practice else None,
                )
            )
            stored.append(
                {
                    "key": key,
                    "item_id": item.id,
                    "type": item.type,
                    "kind": item.kind,
                    "parametric": item.parametric,
                    "private": self.private.get(item.id) is not None,
                    "sections": list(item.sections),
                    "correct": g.correct,
                    "answer_given": str(given[key])[:MAX_ANSWER_CHARS],
                }
            )
        right = sum(r.correct for r in results)
        passed = not attempt.practice and right == len(results)
        jti = secrets.token_urlsafe(18) if passed else None
        pass_games = tuple(sorted(self._valid_games(attempt.agent, now) | {attempt.game})) if passed else ()
        record = {
            "passed": passed,
            "practice": attempt.practice,
            "correct": right,
            "total": len(results),
            "items": stored,
            "pass_jti": jti,
        }
        if not self.store.finish_attempt(quiz_id, now, record):
            raise QuizAlreadyUsed("this quiz was graded by another submission just now; start a new one")
        token: str | None = None
        expires: float | None = None
        if passed and jti is not None:
            token, pass_record = self.passes.issue(attempt.agent, pass_games, jti=jti)
            expires = pass_record.expires_at
        return QuizResult(
            quiz_id=quiz_id,
            game=attempt.game,
            practice=attempt.practice,
            passed=passed,
            right=right,
            total=len(results),
            items=tuple(results),
            club_pass=token,
            pass_games=pass_games,
            pass_expires_at=expires,
        )

    def verify_club_pass(self, token: str, game: str | None = None) -> PassCheck:
        """Check a club pass against its stored record (see :meth:`ClubPasses.verify`).

        Never raises: a refused pass comes back with ``valid=False`` and a reason.
        """
        return self.passes.verify(token, game)

    def admit(self, token: str | None, agent: str, game: str) -> str | None:
        """Return ``None`` when ``token`` admits ``agent`` to a table of ``game``, else why not (one sentence).

        Never raises.
        """
        return self.passes.admit(token, agent, game)

    def revoke_pass(self, jti: str) -> bool:
        """Revoke a pass by its unique id; ``False`` if no such pass was issued."""
        return self.passes.revoke(jti)
