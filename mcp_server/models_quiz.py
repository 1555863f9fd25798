"""Output models of the club tools: quizzes, practice, club passes and agent registration."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class QuizItemOut(BaseModel):
    """One quiz item as the agent sees it (never its answer)."""

    key: str = Field(description="Key to answer under in submit_quiz: 'q1', 'q2', 'q3', 'r1' (riddle) or 'p1'.")
    kind: str = Field(description="'question' or 'riddle' (acertijo: needs reasoning over the rules).")
    type: str = Field(
        description="'integer' (one whole number), 'choice' (one letter A-D or the option's text) or 'term' "
        "(one word of the list in 'terms')."
    )
    prompt: str = Field(description="The question, in Spanish.")
    options: list[str] = Field(description="For 'choice': the four options as 'A) ...' to 'D) ...'; else empty.")
    terms: list[str] = Field(description="For 'term': the closed vocabulary to answer from; else empty.")
    unit: str = Field(
        description="For 'integer': 'M' when the number counts millions (N, NM or N millones all mean N), '%' for a "
        "percentage, or '' for a plain count."
    )
    answer_format: str = Field(description="How to write the answer, one English sentence.")
    answer_schema: dict[str, Any] = Field(description="JSON schema of a valid answer to this item.")


class QuizPaperOut(BaseModel):
    """An entry quiz (three questions and a riddle) or a practice paper (one item)."""

    quiz_id: str = Field(description="Secret id of this attempt; pass it to submit_quiz (single use).")
    game: str = Field(description="Game id.")
    agent: str = Field(description="The agent this paper belongs to (your connection's agent); only it can submit it.")
    practice: bool = Field(description="True for a practice paper: it shows the answer after grading, never a pass.")
    items: list[QuizItemOut] = Field(description="The items to answer, in key order.")
    answers_schema: dict[str, Any] = Field(description="JSON schema of the 'answers' object for submit_quiz.")
    expires_at: str = Field(description="When the paper can no longer be submitted, ISO 8601 UTC.")
    instructions: str = Field(description="How to answer, in English.")


class ItemGrade(BaseModel):
    """How one item was graded."""

    key: str = Field(description="The item's key on the paper.")
    correct: bool = Field(description="Whether your answer was right.")
    reason: str = Field(description="For a wrong answer, why it was not read as right (never the right answer).")
    sections: list[str] = Field(description="Section ids to re-read (read_rules) for this item.")
    answer: str | None = Field(description="Practice only: the right answer; null on an entry quiz.")
    citation: list[str] = Field(description="Practice only: the cited sections with their titles.")
    explanation: str | None = Field(description="Practice only: a Spanish sentence explaining the answer, or null.")


class QuizResultOut(BaseModel):
    """The grading of a paper. An entry quiz's result says whether it passed; a practice result has no
    'passed' (practice never yields a pass), only whether the answer was correct."""

    quiz_id: str = Field(description="The paper's id (now used up).")
    game: str = Field(description="Game id.")
    practice: bool = Field(description="Whether it was a practice paper.")
    passed: bool | None = Field(
        default=None,
        description="Entry quiz only (absent for practice): true when all four items were right.",
    )
    correct: bool = Field(description="Whether every item of the paper was right (for practice: your one answer).")
    right: int = Field(description="How many items were right.")
    total: int = Field(description="How many items the paper held.")
    summary: str = Field(description="One English sentence on the result and what to do next.")
    items: list[ItemGrade] = Field(description="Per-item results, in key order.")
    club_pass: str | None = Field(
        description="On a pass: your signed club pass (a JWT) for join_table's club_pass argument; else null."
    )
    pass_games: list[str] = Field(description="The games the new pass admits you to (empty without a pass).")
    pass_expires_at: str | None = Field(description="The pass's expiry, ISO 8601 UTC, or null.")


class PassCheckOut(BaseModel):
    """Whether a club pass is valid, and why not."""

    valid: bool = Field(description="True when the pass is genuine, unexpired, not revoked (and covers 'game').")
    reason: str = Field(description="One English sentence: why it is refused, or what it admits to.")
    agent: str | None = Field(description="The agent the pass was issued to (null unless the signature is good).")
    games: list[str] = Field(description="The games the pass covers (empty unless the signature is good).")
    expires_at: str | None = Field(description="Expiry, ISO 8601 UTC (null unless the signature is good).")
    pass_id: str | None = Field(
        description="The pass's unique id (its jti; null unless the signature is good), e.g. for an operator's "
        "'club-agentes pass revoke'."
    )


class AgentRegistered(BaseModel):
    """A new agent and its secret key (shown this once)."""

    agent: str = Field(description="Your agent name as the club keeps it (lowercase, accents and punctuation folded).")
    key: str = Field(
        description="Your secret agent key: send it on every HTTP request as 'Authorization: Bearer <key>'. "
        "It is shown only now and cannot be recovered."
    )
    how_to_use: str = Field(description="How to connect with the key, in English.")
