"""The entry quiz and practice questions, as a service the MCP tools call.

:class:`QuizService` serves a fresh paper of three questions and one riddle per attempt
(at least one item parametric), grades it once (the attempt is single-use and expires),
and on a pass (all four right) issues a club pass. Practice papers hold one item, are
graded through the same :meth:`QuizService.submit_quiz`, show the right answer and its
citation afterwards, never yield a pass and do not count against the attempt limit.

What an agent sees of an item is a :class:`PaperItem`: an opaque key (``"q1"``..``"q3"``,
``"r1"``, ``"p1"``), the prompt, options or terms, unit and the JSON schema of a valid
answer. Never the answer, the internal item id, or a generator seed (the seed would let
anyone regenerate a parametric item's answer); those stay in the store.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.bank import Bank, GameBank, UnknownBankGame, UnknownItem
from club_agentes.quizzes.clubpass import DEFAULT_PASS_TTL_SECONDS, ClubPasses, PassCheck, iso_utc
from club_agentes.quizzes.grading import MAX_ANSWER_CHARS, display_answer, grade
from club_agentes.quizzes.model import Generator, Item
from club_agentes.quizzes.store import Attempt, QuizStore
from club_agentes.rules_corpus import Corpus, UnknownSection, load_corpus

QUESTION_KEYS = ("q1", "q2", "q3")
RIDDLE_KEY = "r1"
PRACTICE_KEY = "p1"
HOUR = 3600.0
MAX_AGENT_CHARS = 64
MAX_QUIZ_ID_CHARS = 128
_AGENT_RE = re.compile(r"\w[\w .:@+/-]*")
_GENERATOR_TRIES = 64


# --------------------------------------------------------------------------- errors


class QuizError(Exception):
    """Base of the harness's refusals; the message is one sentence saying what was wrong and what is accepted."""


class UnknownQuizGame(QuizError):
    """The game id has no question bank."""


class InvalidAgent(QuizError):
    """The agent name is empty, too long or holds characters that are not accepted."""


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
    """No hand-written item or generator cites the requested practice section."""


def check_agent_name(agent: str) -> str:
    """Return the agent name, stripped, as quizzes, passes and tables all accept it.

    Raises:
        InvalidAgent: empty, longer than 64 characters, or holding characters other than letters,
            digits, spaces and ``. _ : @ + / -`` (it must start with a letter, digit or underscore).
    """
    if not isinstance(agent, str) or not agent.strip():
        raise InvalidAgent("the agent name is empty; give the name you will play under (1-64 characters)")
    name = agent.strip()
    if len(name) > MAX_AGENT_CHARS or not _AGENT_RE.fullmatch(name):
        raise InvalidAgent(
            f"the agent name {name[:80]!r} is not accepted; use 1-{MAX_AGENT_CHARS} letters, digits, spaces "
            "and . _ : @ + / -, starting with a letter, digit or underscore"
        )
    return name


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
        passed: whether every item was right on an entry quiz (always ``False`` for practice).
        correct: how many items were right.
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
    correct: int
    total: int
    items: tuple[ItemResult, ...]
    club_pass: str | None = None
    pass_games: tuple[str, ...] = ()
    pass_expires_at: float | None = None

    @property
    def summary(self) -> str:
        """One English sentence summarising the result."""
        if self.practice:
            return f"Practice graded: {self.correct} of {self.total} right."
        if self.passed:
            return f"Passed: all {self.total} right; the club pass covers {', '.join(self.pass_games)}."
        return f"Not passed: {self.correct} of {self.total} right; re-read the cited sections and start a new quiz."

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready data."""
        return {
            "quiz_id": self.quiz_id,
            "game": self.game,
            "practice": self.practice,
            "passed": self.passed,
            "correct": self.correct,
            "total": self.total,
            "summary": self.summary,
            "items": [r.to_dict() for r in self.items],
            "club_pass": self.club_pass,
            "pass_games": list(self.pass_games),
            "pass_expires_at": self.pass_expires_at,
            "pass_expires_at_iso": iso_utc(self.pass_expires_at) if self.pass_expires_at is not None else None,
        }


# --------------------------------------------------------------------------- answer formats


def answer_format(item: Item, terms: tuple[str, ...] = ()) -> str:
    """Return one English sentence on how to write an answer to ``item``. Never raises."""
    if item.type == "integer":
        if item.unit == "M":
            return "One whole number of millions, in digits or Spanish words: 25, 25M, 25 millones or 25.000.000."
        if item.unit == "%":
            return "One whole percentage, in digits or Spanish words: 40, 40 % or cuarenta por ciento."
        return "One whole number, in digits or in Spanish words (for example 7 or siete)."
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


# --------------------------------------------------------------------------- the service


class QuizService:
    """Entry quizzes, practice questions and club passes over a :class:`~quizzes.store.QuizStore`."""

    def __init__(
        self,
        bank: Bank,
        store: QuizStore,
        *,
        clock: Callable[[], float] = time.time,
        secret: bytes | None = None,
        attempts_per_hour: int = 5,
        ttl_seconds: float = 900,
        pass_ttl_seconds: float = DEFAULT_PASS_TTL_SECONDS,
        practice_per_hour: int | None = None,
        corpus: Corpus | None = None,
    ) -> None:
        """Build the service.

        ``secret`` overrides the pass-signing key (else ``CLUB_SECRET`` or the store's key);
        ``attempts_per_hour`` limits entry quizzes per agent; ``practice_per_hour`` limits
        practice papers per agent (``None``: unlimited).

        Raises:
            ValueError: a limit or lifetime is not positive.
            quizzes.clubpass.SecretTooShort: the signing key is shorter than 32 bytes.
        """
        if attempts_per_hour < 1 or ttl_seconds <= 0 or (practice_per_hour is not None and practice_per_hour < 1):
            raise ValueError("attempt limits and lifetimes must be positive")
        self.bank = bank
        self.store = store
        self.clock = clock
        self.attempts_per_hour = attempts_per_hour
        self.practice_per_hour = practice_per_hour
        self.ttl_seconds = ttl_seconds
        self.corpus = corpus or load_corpus()
        self.passes = ClubPasses(store, clock=clock, secret=secret, ttl_seconds=pass_ttl_seconds)

    # ----- helpers

    def _game(self, game: str) -> GameBank:
        try:
            return self.bank.game(game)
        except UnknownBankGame:
            valid = ", ".join(self.bank.games)
            raise UnknownQuizGame(f"unknown game {game!r}; the games with a quiz are: {valid}") from None

    @staticmethod
    def _agent(agent: str) -> str:
        return check_agent_name(agent)

    def _check_rate(self, agent: str, practice: bool) -> None:
        limit = self.practice_per_hour if practice else self.attempts_per_hour
        if limit is None:
            return
        now = self.clock()
        times = [t for t in self.store.attempt_times(agent, now - HOUR, practice=practice) if t > now - HOUR]
        if len(times) >= limit:
            oldest = times[len(times) - limit]
            retry_after = max(1, math.ceil(oldest + HOUR - now))
            what = "practice questions" if practice else "entry quizzes"
            raise RateLimited(
                f"{agent} has started {len(times)} {what} in the last hour (the limit is {limit}); "
                f"retry after {retry_after} seconds",
                retry_after,
            )

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

    def _save(self, agent: str, game: str, practice: bool, keyed: list[tuple[str, Item]]) -> QuizPaper:
        now = self.clock()
        attempt = Attempt(
            quiz_id=secrets.token_urlsafe(24),
            agent=agent,
            game=game,
            practice=practice,
            item_ids=tuple(item.id for _, item in keyed),
            created_at=now,
            expires_at=now + self.ttl_seconds,
        )
        self.store.save_attempt(attempt)
        return QuizPaper(
            quiz_id=attempt.quiz_id,
            game=game,
            agent=agent,
            practice=practice,
            items=tuple(self._paper_item(k, it) for k, it in keyed),
            expires_at=attempt.expires_at,
        )

    @staticmethod
    def _generate(gen: Generator, section: str | None = None) -> Item | None:
        """Make a fresh item (seed from ``secrets``), citing ``section`` when given (else ``None``)."""
        for _ in range(_GENERATOR_TRIES if section else 1):
            item = gen.make(secrets.randbits(63))
            if section is None or section in item.sections:
                return item
        return None

    def _sample(self, gb: GameBank) -> list[tuple[str, Item]]:
        """Draw three questions and one riddle, at least one of them parametric."""
        rng = Rng(secrets.randbits(64))
        slots = [(k, "question") for k in QUESTION_KEYS] + [(RIDDLE_KEY, "riddle")]
        pools = {
            "question": (list(gb.questions), gb.generators("question")),
            "riddle": (list(gb.riddles), gb.generators("riddle")),
        }
        with_gens = [i for i, (_, kind) in enumerate(slots) if pools[kind][1]]
        forced = rng.choice(with_gens) if with_gens else -1
        used_items: set[str] = set()
        used_gens: set[str] = set()
        out: list[tuple[str, Item]] = []
        for i, (key, kind) in enumerate(slots):
            hand, gens = pools[kind]
            free_gens = [g for g in gens if g.name not in used_gens]
            free_hand = [it for it in hand if it.id not in used_items]
            parametric = bool(free_gens) and (i == forced or rng.below(3) == 0 or not free_hand)
            if parametric:
                gen = rng.choice(free_gens)
                used_gens.add(gen.name)
                item = gen.make(secrets.randbits(63))
            elif free_hand:
                item = rng.choice(free_hand)
                used_items.add(item.id)
            else:
                raise UnknownQuizGame(f"the bank of {gb.game} holds no {kind} to ask; no quiz can be served for it")
            out.append((key, item))
        return out

    # ----- the public surface

    def start_quiz(self, game: str, agent: str) -> QuizPaper:
        """Start an entry quiz: three questions and one riddle drawn fresh, at least one parametric.

        Raises:
            UnknownQuizGame: no bank for ``game``.
            InvalidAgent: the agent name is not accepted.
            RateLimited: the agent used up its entry quizzes for the hour (``retry_after`` set).
        """
        gb = self._game(game)
        name = self._agent(agent)
        self._check_rate(name, practice=False)
        return self._save(name, game, False, self._sample(gb))

    def practice_question(self, game: str, section: str | None = None, *, agent: str | None = None) -> QuizPaper:
        """Serve one practice item (hand-written or parametric), citing ``section`` when given.

        The paper is answered through :meth:`submit_quiz` under the key ``"p1"``.

        Raises:
            UnknownQuizGame: no bank for ``game``.
            InvalidAgent: ``agent`` is given but not accepted.
            UnknownQuizSection: ``section`` is not a section of the game.
            NoItemForSection: no item or generator cites ``section``.
            RateLimited: ``practice_per_hour`` is set and used up.
        """
        gb = self._game(game)
        name = self._agent(agent) if agent is not None else ""
        sid: str | None = None
        if section is not None:
            try:
                sid = self.corpus.resolve(game, section).id
            except UnknownSection as exc:
                raise UnknownQuizSection(str(exc), exc.suggestions) from None
        if name:
            self._check_rate(name, practice=True)
        rng = Rng(secrets.randbits(64))
        hand = [it for it in gb.items if sid is None or sid in it.sections]
        gens = [g for g in gb.generators() if sid is None or sid in g.sections]
        item: Item | None = None
        if gens and (not hand or rng.below(2) == 0):
            rng.shuffle(gens)
            for gen in gens:
                item = self._generate(gen, sid)
                if item is not None:
                    break
        if item is None and hand:
            item = rng.choice(hand)
        if item is None:
            raise NoItemForSection(
                f"no practice question of {game} cites {sid}; pick a section with rule content from rules_toc, "
                "or omit the section"
            )
        return self._save(name, game, True, [(PRACTICE_KEY, item)])

    def _check_answers(self, keys: tuple[str, ...], answers: Any) -> dict[str, str | int]:
        listed = ", ".join(keys)
        if not isinstance(answers, Mapping):
            raise MalformedAnswers(f"answers must be an object mapping each key ({listed}) to one answer")
        extra = [str(k) for k in answers if k not in keys]
        if extra:
            raise MalformedAnswers(f"answers hold unknown keys {', '.join(extra)}; the keys of this paper are {listed}")
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

    def submit_quiz(self, quiz_id: str, answers: Mapping[str, str | int]) -> QuizResult:
        """Grade a paper once; on an entry-quiz pass, issue a club pass.

        Raises:
            UnknownQuiz: no attempt has this id.
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
            items = [self.bank.item(i) for i in attempt.item_ids]
        except UnknownItem:
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
                    "sections": list(item.sections),
                    "correct": g.correct,
                    "answer_given": str(given[key])[:MAX_ANSWER_CHARS],
                }
            )
        correct = sum(r.correct for r in results)
        passed = not attempt.practice and correct == len(results)
        jti = secrets.token_urlsafe(18) if passed else None
        pass_games = tuple(sorted(self._valid_games(attempt.agent, now) | {attempt.game})) if passed else ()
        record = {
            "passed": passed,
            "practice": attempt.practice,
            "correct": correct,
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
            correct=correct,
            total=len(results),
            items=tuple(results),
            club_pass=token,
            pass_games=pass_games,
            pass_expires_at=expires,
        )

    def verify_club_pass(self, token: str, game: str | None = None) -> PassCheck:
        """Check a club pass (signature, audience, issuer, expiry, revocation, coverage of ``game``).

        Never raises: a refused pass comes back with ``valid=False`` and a reason.
        """
        return self.passes.verify(token, game)

    def revoke_pass(self, jti: str) -> bool:
        """Revoke a pass by its unique id; ``False`` if no such pass was issued."""
        return self.passes.revoke(jti)
