"""Club tools: start_quiz, submit_quiz, practice_question, verify_club_pass (and, under open
registration, register_agent); and the pass check of tables.

Every tool acts as the agent of its connection (:func:`~club_agentes.mcp_server.identity.current_agent`):
attempts, practice limits and passes belong to that agent, and only it can submit its papers.
Results carry a compact text for a model (the items with their keys, options with letters and
answer formats; the grading with what to re-read) besides the structured data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from club_agentes.mcp_server.auth import AgentRegistry
from club_agentes.mcp_server.identity import claimed_agent, client_address, current_agent
from club_agentes.mcp_server.limits import Limits, entry_quiz_game
from club_agentes.mcp_server.models_quiz import (
    AgentRegistered,
    ItemGrade,
    PassCheckOut,
    QuizItemOut,
    QuizPaperOut,
    QuizResultOut,
)
from club_agentes.mcp_server.settings import ServerSettings
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.toolkit import READ_ONLY, WRITES, ClubServer, compact
from club_agentes.quizzes.bank import default_bank, load_private_bank
from club_agentes.quizzes.clubpass import default_key_path, iso_utc, signing_key
from club_agentes.quizzes.harness import QuizPaper, QuizResult, QuizService
from club_agentes.quizzes.store import QuizStore
from club_agentes.rules_corpus import Corpus
from mcp.server import MCPServer
from mcp_types import CallToolResult, TextContent
from pydantic import Field

from club_agentes.manifest import game_ids

__all__ = ["ClubPassVerifier", "QuizService", "quiz_service", "register_quiz_tools"]

GAMES = ", ".join(f"'{g}'" for g in game_ids())
"""The installed game ids as tool descriptions quote them (from the game manifests)."""


def quiz_service(
    store: Store | QuizStore,
    settings: ServerSettings | None = None,
    limits: Limits | None = None,
    corpus: Corpus | None = None,
) -> QuizService:
    """Return the quiz service over the packaged bank (and the operator's private bank) and ``store``
    (the server's :class:`Store`, whose quiz part it uses, or any ``QuizStore``).

    The pass-signing key comes from ``settings.secret`` (``CLUB_AGENTES_SECRET``) or the key file
    (``settings.key_file``, default beside the database), created on first start.

    Raises:
        quizzes.bank.BankError: the packaged bank or the private bank is inconsistent.
        quizzes.clubpass.SigningKeyError: the signing key cannot be read, created or used.
    """
    settings = settings or ServerSettings()
    if isinstance(store, Store):
        store = store.quizzes
    location = str(getattr(store, "path", "") or settings.db or "")
    key_file = Path(settings.key_file) if settings.key_file else default_key_path(location)
    secret = signing_key(store, key_file=key_file, secret=settings.secret)
    bank = default_bank()
    private = load_private_bank(settings.private_bank, bank, corpus) if settings.private_bank else None
    return QuizService(bank, store, secret=secret, limiter=limits, private=private, corpus=corpus)


class ClubPassVerifier:
    """Admits an agent to a table when its club pass is valid (checked against its stored record), covers
    the game and names that agent."""

    def __init__(self, quizzes: QuizService) -> None:
        self.quizzes = quizzes

    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        """Return ``None`` to admit ``agent`` (its normalised name, from the connection), or one sentence
        saying why the pass is refused. Never raises."""
        return self.quizzes.admit(club_pass, agent, game)


# --------------------------------------------------------------------------- compact texts


def _paper_out(p: QuizPaper) -> QuizPaperOut:
    d = p.to_dict()
    return QuizPaperOut(
        quiz_id=d["quiz_id"],
        game=d["game"],
        agent=p.agent,
        practice=d["practice"],
        items=[QuizItemOut(**{k: it[k] for k in QuizItemOut.model_fields}) for it in d["items"]],
        answers_schema=d["answers_schema"],
        expires_at=d["expires_at_iso"],
        instructions=d["instructions"],
    )


def paper_text(p: QuizPaperOut) -> str:
    """Return a paper as a model reads it: what it is, then each item with its key, options and answer format."""
    what = "Practice question" if p.practice else "Entry quiz (three questions and an acertijo)"
    lines = [f"{what} · {p.game} · quiz_id {p.quiz_id} · expires {p.expires_at}", p.instructions, ""]
    for it in p.items:
        unit = {"M": ", millions", "%": ", percent"}.get(it.unit, "")
        lines.append(f"{it.key} ({it.kind}, {it.type}{unit}): {it.prompt}")
        lines += [f"   {o}" for o in it.options]
        if it.terms:
            lines.append(f"   terms: {', '.join(it.terms)}")
        lines.append(f"   answer: {it.answer_format}")
    return "\n".join(lines)


def result_text(r: QuizResultOut) -> str:
    """Return a grading as a model reads it: the verdict, each item's grade and what to re-read, the pass."""
    lines = [r.summary]
    for it in r.items:
        verdict = "right" if it.correct else f"wrong: {it.reason}"
        lines.append(f"{it.key}: {verdict}")
        if r.practice:
            if it.answer:
                lines.append(f"   answer: {it.answer}")
            if it.explanation:
                lines.append(f"   why: {it.explanation}")
            if it.citation:
                lines.append(f"   read: {'; '.join(it.citation)}")
        elif not it.correct:
            lines.append(f"   re-read: {', '.join(it.sections)}")
    if r.club_pass:
        lines.append(f"Club pass (give it to join_table as club_pass; expires {r.pass_expires_at}):")
        lines.append(r.club_pass)
    return "\n".join(lines)


def _result(r: QuizResult) -> CallToolResult:
    d: dict[str, Any] = r.to_dict()
    out = QuizResultOut(
        quiz_id=d["quiz_id"],
        game=d["game"],
        practice=d["practice"],
        passed=d.get("passed"),
        correct=d["correct"],
        right=d["right"],
        total=d["total"],
        summary=d["summary"],
        items=[ItemGrade(**it) for it in d["items"]],
        club_pass=d["club_pass"],
        pass_games=d["pass_games"],
        pass_expires_at=d["pass_expires_at_iso"],
    )
    structured = out.model_dump(mode="json", by_alias=True, exclude={"passed"} if r.practice else None)
    return CallToolResult(content=[TextContent(type="text", text=result_text(out))], structured_content=structured)


# --------------------------------------------------------------------------- tools


def register_quiz_tools(
    mcp: MCPServer,
    quizzes: QuizService,
    *,
    registry: AgentRegistry | None = None,
    limits: Limits | None = None,
    registration: bool = False,
) -> None:
    """Register the club tools on ``mcp`` (and ``register_agent`` when ``registration`` is on).

    Raises:
        ValueError: ``registration`` is on without a ``registry`` and ``limits``.
    """
    if registration and (registry is None or limits is None):
        raise ValueError("register_agent needs the agent registry and the limits")

    @mcp.tool(annotations=WRITES, title="Start the entry quiz")
    def start_quiz(
        game: Annotated[str, Field(description=f"Game id: {GAMES} (list_games lists them).")],
        agent: Annotated[
            str | None,
            Field(
                description="Leave out: you take the quiz as the agent of your connection (your agent key). If "
                "given, it must name that same agent."
            ),
        ] = None,
    ) -> Annotated[CallToolResult, QuizPaperOut]:
        """Start the club's entry ritual for a game: three questions about the rulebook and one riddle
        (acertijo), in Spanish, drawn fresh for this attempt (situations change with every paper; option
        order too). Answer all four at once with submit_quiz before the paper expires; all four right earns
        a signed club pass naming you, for join_table. Attempts per agent are limited per hour (a refusal
        says when to retry).
        """
        who = claimed_agent(agent)
        with entry_quiz_game(game):  # the hourly limit holds per game
            out = _paper_out(quizzes.start_quiz(game, who))
        return compact(out, paper_text(out))

    @mcp.tool(annotations=WRITES, title="Get a practice question")
    def practice_question(
        game: Annotated[str, Field(description="Game id, e.g. 'se-vende'.")],
        section: Annotated[
            str | None,
            Field(description="A section id to practise (e.g. 'cap-2/regla-8-cartas'); omit for any section."),
        ] = None,
    ) -> Annotated[CallToolResult, QuizPaperOut]:
        """Serve one practice item (question or riddle) for tutoring. Answer it with submit_quiz like a quiz:
        the result says whether it is correct and shows the right answer and its citation. Practice never
        yields a club pass, and its items never appear in entry quizzes. Practice questions per agent are
        limited per hour.
        """
        out = _paper_out(quizzes.practice_question(game, section, agent=current_agent()))
        return compact(out, paper_text(out))

    @mcp.tool(annotations=WRITES, title="Submit quiz answers")
    def submit_quiz(
        quiz_id: Annotated[str, Field(description="The quiz_id from start_quiz or practice_question.")],
        answers: Annotated[
            dict[str, str | int],
            Field(
                description="One answer per item key of your paper, e.g. {'q1': 'B', 'q2': '<a whole number>', "
                "'q3': '<one term of its list>', 'r1': '<your answer>'}. Numbers may be digits or Spanish words "
                "(each item's answer_format says how); choices a letter (as shown on your paper) or the option's "
                "text; a short working after the answer is fine."
            ),
        ],
    ) -> Annotated[CallToolResult, QuizResultOut]:
        """Grade a paper once (a quiz id cannot be reused; only the agent that started it may submit it).
        An entry quiz's result says whether it passed, per-item correctness and the sections to re-read,
        and on a pass (all four right) the signed club pass. A practice result says whether the answer is
        correct and shows the right answer and its citation.
        """
        return _result(quizzes.submit_quiz(quiz_id, answers, agent=current_agent()))

    @mcp.tool(annotations=READ_ONLY, title="Verify a club pass")
    def verify_club_pass(
        token: Annotated[str, Field(description="The club pass (JWT) to check.")],
        game: Annotated[
            str | None, Field(description="Also check that the pass covers this game id; omit to skip.")
        ] = None,
    ) -> Annotated[CallToolResult, PassCheckOut]:
        """Check a club pass: signature, audience, issuer, its record in the club's register (agent, games,
        issue and expiry times must match it), revocation, expiry and (optionally) coverage of a game. A
        refused pass comes back with valid=false and the reason.
        """
        c = quizzes.verify_club_pass(token, game)
        out = PassCheckOut(
            valid=c.valid,
            reason=c.reason,
            agent=c.agent,
            games=list(c.games),
            expires_at=iso_utc(c.expires_at) if c.expires_at is not None else None,
            pass_id=c.jti,
        )
        return compact(out, f"{'Valid' if c.valid else 'Refused'}: {c.reason}.")

    names = ["start_quiz", "practice_question", "submit_quiz", "verify_club_pass"]

    if registration:
        assert registry is not None and limits is not None
        reg, lim = registry, limits

        @mcp.tool(annotations=WRITES, title="Register as a new agent")
        def register_agent(
            name: Annotated[
                str,
                Field(
                    description="The agent name you want, 1-64 letters or digits (e.g. 'claude-7'); case, accents "
                    "and punctuation are folded, so look-alike names are one name."
                ),
            ],
        ) -> Annotated[CallToolResult, AgentRegistered]:
            """Create a new agent of this club and return its secret key (shown only this once). Send the key
            on every request as 'Authorization: Bearer <key>'; the tools then act as that agent. Registrations
            are limited per client address and for the club as a whole.
            """
            with lim.counting("registration", client_address()):  # a refused name does not count
                record, key = reg.add(name, origin="register")
            out = AgentRegistered(
                agent=record.name,
                key=key,
                how_to_use="Reconnect with the HTTP header 'Authorization: Bearer <key>' on every request; keep "
                "the key secret (it plays as you and cannot be shown again).",
            )
            return compact(out, f"Registered as {record.name}. Your secret key (shown once): {key}\n{out.how_to_use}")

        names.append("register_agent")

    if isinstance(mcp, ClubServer):
        mcp.skip_output_validation(*names)
