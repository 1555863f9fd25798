"""Club tools: start_quiz, submit_quiz, practice_question, verify_club_pass; and the pass check of tables."""

from __future__ import annotations

from typing import Annotated, Any

from club_agentes.mcp_server.models_quiz import ItemGrade, PassCheckOut, QuizItemOut, QuizPaperOut, QuizResultOut
from club_agentes.mcp_server.toolkit import READ_ONLY, WRITES
from club_agentes.quizzes.bank import default_bank
from club_agentes.quizzes.clubpass import iso_utc
from club_agentes.quizzes.harness import QuizError, QuizPaper, QuizService
from club_agentes.quizzes.store import QuizStore
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

__all__ = ["ClubPassVerifier", "QuizService", "quiz_service", "register_quiz_tools"]


def quiz_service(store: QuizStore) -> QuizService:
    """Return the quiz service over the packaged bank and ``store``.

    Raises:
        quizzes.bank.BankError: the packaged bank is inconsistent.
        quizzes.clubpass.SecretTooShort: ``CLUB_SECRET`` is set but too short.
    """
    return QuizService(default_bank(), store)


class ClubPassVerifier:
    """Admits an agent to a table when its club pass is valid, covers the game and names the agent."""

    def __init__(self, quizzes: QuizService) -> None:
        self.quizzes = quizzes

    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        """Return ``None`` to admit, or one sentence saying why the pass is refused."""
        if not club_pass:
            return (
                f"this table requires a club pass for {game}: pass the entry quiz (start_quiz, submit_quiz) "
                "and give the pass as club_pass"
            )
        check = self.quizzes.verify_club_pass(club_pass, game)
        if not check.valid:
            return f"the club pass is refused: {check.reason}"
        if check.agent != agent:
            return f"the club pass was issued to {check.agent!r}, not to {agent!r}; join under the name it names"
        return None


def _paper(p: QuizPaper) -> QuizPaperOut:
    d = p.to_dict()
    return QuizPaperOut(
        quiz_id=d["quiz_id"],
        game=d["game"],
        practice=d["practice"],
        items=[QuizItemOut(**{k: it[k] for k in QuizItemOut.model_fields}) for it in d["items"]],
        answers_schema=d["answers_schema"],
        expires_at=d["expires_at_iso"],
        instructions=d["instructions"],
    )


def register_quiz_tools(mcp: MCPServer, quizzes: QuizService) -> None:
    """Register the club tools on ``mcp``."""

    @mcp.tool(annotations=WRITES, title="Start the entry quiz")
    def start_quiz(
        game: Annotated[str, Field(description="Game id: 'market-fortune', 'se-vende' or 'yo-soy-el-jefe'.")],
        agent: Annotated[str, Field(description="Your agent name (1-64 characters); the club pass will name it.")],
    ) -> QuizPaperOut:
        """Start the club's entry ritual for a game: three questions about the rulebook and one riddle
        (acertijo), in Spanish, drawn fresh for this attempt. Answer all four at once with submit_quiz
        before the paper expires; all four right earns a signed club pass for join_table. Attempts per
        agent are limited per hour (a refusal says how many seconds to wait).
        """
        try:
            return _paper(quizzes.start_quiz(game, agent))
        except QuizError as exc:
            raise ToolError(str(exc)) from None

    @mcp.tool(annotations=WRITES, title="Get a practice question")
    def practice_question(
        game: Annotated[str, Field(description="Game id, e.g. 'se-vende'.")],
        section: Annotated[
            str | None,
            Field(description="A section id to practise (e.g. 'cap-2/regla-8-cartas'); omit for any section."),
        ] = None,
    ) -> QuizPaperOut:
        """Serve one practice item (question or riddle) for tutoring. Answer it with submit_quiz like a quiz:
        the result also shows the right answer and its citation. Practice never yields a club pass.
        """
        try:
            return _paper(quizzes.practice_question(game, section))
        except QuizError as exc:
            raise ToolError(str(exc)) from None

    @mcp.tool(annotations=WRITES, title="Submit quiz answers")
    def submit_quiz(
        quiz_id: Annotated[str, Field(description="The quiz_id from start_quiz or practice_question.")],
        answers: Annotated[
            dict[str, str | int],
            Field(
                description="One answer per item key, e.g. {'q1': '25M', 'q2': 'B', 'q3': 'Dominar', 'r1': 7}. "
                "Numbers may be digits or Spanish words; choices a letter or the option's text."
            ),
        ],
    ) -> QuizResultOut:
        """Grade a paper once (a quiz id cannot be reused). Returns per-item correctness with the sections
        to re-read; on an entry-quiz pass (all four right) the signed club pass.
        """
        try:
            r = quizzes.submit_quiz(quiz_id, answers)
        except QuizError as exc:
            raise ToolError(str(exc)) from None
        d: dict[str, Any] = r.to_dict()
        return QuizResultOut(
            quiz_id=d["quiz_id"],
            game=d["game"],
            practice=d["practice"],
            passed=d["passed"],
            correct=d["correct"],
            total=d["total"],
            summary=d["summary"],
            items=[ItemGrade(**it) for it in d["items"]],
            club_pass=d["club_pass"],
            pass_games=d["pass_games"],
            pass_expires_at=d["pass_expires_at_iso"],
        )

    @mcp.tool(annotations=READ_ONLY, title="Verify a club pass")
    def verify_club_pass(
        token: Annotated[str, Field(description="The club pass (JWT) to check.")],
        game: Annotated[
            str | None, Field(description="Also check that the pass covers this game id; omit to skip.")
        ] = None,
    ) -> PassCheckOut:
        """Check a club pass: signature, audience, issuer, expiry, revocation and (optionally) coverage of a
        game. A refused pass comes back with valid=false and the reason.
        """
        c = quizzes.verify_club_pass(token, game)
        return PassCheckOut(
            valid=c.valid,
            reason=c.reason,
            agent=c.agent,
            games=list(c.games),
            expires_at=iso_utc(c.expires_at) if c.expires_at is not None else None,
        )
