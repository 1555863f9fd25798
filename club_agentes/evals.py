"""inspect-ai evaluations of Club de Agentes (the ``club-agentes[eval]`` extra).

Two kinds of task:

* **Rules comprehension, one task per game** (``market_fortune_rules``, ``se_vende_rules``,
  ``yo_soy_el_jefe_rules``): the dataset is the game's public practice pool as
  ``club-agentes quiz export`` writes it (:func:`club_agentes.quizzes.evaluate.export_records`:
  hand-written items and samples of ``entry=False`` generators, never the entry pool); choice
  items keep their letters (the prompt lists ``A) ...`` and the sample's ``choices`` are in letter
  order); the model reads the game's corpus in its system message; the scorer is this project's
  grader (:func:`club_agentes.quizzes.grading.grade`: Spanish numbers, synonyms, an answer stated
  in a sentence). Every sample's metadata carries its cited sections and its ``rule_area``, and
  the accuracy is reported per rule area.
* **The entry quiz through the MCP server** (``entry_quiz``): for each sample the model gets the
  server's rules and club tools over stdio (``python -m club_agentes serve --db <fresh file>
  --agent <name>``, one server process and one database per sample), is asked to study the rules
  and pass a game's entry quiz, and the scorer reads the outcome the solver recorded from the
  server's own database (a graded entry attempt with ``passed`` and a club pass covering the game),
  never the model's own account of it.

The package registers this module in inspect-ai's entry points (group ``inspect_ai``, name
``club_agentes``), so installed tasks are named ``club_agentes/<task>``::

    inspect eval club_agentes/market_fortune_rules --model openai/gpt-4o
    inspect eval club_agentes/entry_quiz -T games=se-vende --model anthropic/claude-sonnet-4-0

It also registers the model API ``mockllm-offline`` (:class:`OfflineMockLLM`), to try a task with no
model and no network: ``--model mockllm-offline/model``.
"""

from __future__ import annotations

import re
import secrets
import shutil
import sys
import tempfile
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, get_args

import anyio.to_thread
from inspect_ai import Task, task
from inspect_ai.agent import AgentPrompt, as_solver, react
from inspect_ai.dataset import Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    grouped,
    scorer,
    stderr,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.solver import generate as generate_solver
from inspect_ai.tool import ToolChoice, ToolInfo, mcp_server_stdio, mcp_tools

from club_agentes.quizzes.bank import default_bank
from club_agentes.quizzes.evaluate import export_records, practice_item
from club_agentes.quizzes.grading import MAX_ANSWER_CHARS, grade
from club_agentes.quizzes.model import CHOICE_LETTERS
from club_agentes.rules_corpus import load_corpus

Context = Literal["corpus", "sections", "none"]
"""What the model reads before a rules question: the game's whole corpus, the item's cited sections, or nothing."""

CONTEXTS: tuple[str, ...] = get_args(Context)

FINAL_MARKER = "Respuesta final:"
"""The line the model is asked to end with; the grader reads what follows it as the stated answer."""

_MARKER_RE = re.compile(r"(respuesta\s+final|final\s+answer|answer)\s*:", re.IGNORECASE)

ENTRY_TOOLS: tuple[str, ...] = (
    "list_games",
    "rules_toc",
    "read_rules",
    "search_rules",
    "practice_question",
    "start_quiz",
    "submit_quiz",
    "verify_club_pass",
)
"""The server's tools an ``entry_quiz`` model gets: the rules tutor and the club (not the tables)."""

MAX_PAPERS = 1_000_000
"""More entry papers than any sample can start (the server allows ``attempts`` per hour)."""

OUTCOME_KEY = "club_agentes_entry_quiz"
"""Key, in the sample's store, of the outcome :func:`club_entry_quiz` reads from the server's database."""


class EvalSettingError(ValueError):
    """A task argument is not one this module accepts (the message says which values are)."""


# --------------------------------------------------------------------------- a model for trial runs

OFFLINE_MOCK_ANSWER = "No lo sé."
"""What :class:`OfflineMockLLM` answers unless ``-M answer=...`` says otherwise."""


@modelapi(name="mockllm-offline")
class OfflineMockLLM(ModelAPI):
    """A stand-in model for trying a task end to end with no model, no key and no network.

    It answers every turn with the same text (``-M answer="Respuesta final: 3"``; default
    :data:`OFFLINE_MOCK_ANSWER`) and calls no tool. Unlike inspect-ai's own ``mockllm``, every
    answer carries its token usage (estimated as a quarter of the characters), so inspect-ai never
    counts tokens with tiktoken, whose ``o200k_base`` encoding is downloaded on first use.
    Use it as ``--model mockllm-offline/model``.
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008  # inspect-ai's own default
        answer: str = OFFLINE_MOCK_ANSWER,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        self.answer = str(answer)

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        """Return :attr:`answer` with a usage estimated from the characters read and written (never raises)."""
        read = sum(len(message.text) for message in input)
        output = ModelOutput.from_content(model=self.model_name, content=self.answer)
        output.usage = ModelUsage(
            input_tokens=read // 4 + 1,
            output_tokens=len(self.answer) // 4 + 1,
            total_tokens=read // 4 + len(self.answer) // 4 + 2,
        )
        return output


# --------------------------------------------------------------------------- rules comprehension


def lettered_options(options: dict[str, str]) -> list[str]:
    """Return a record's options as the lines ``"A) ..."`` in letter order."""
    return [f"{letter}) {options[letter]}" for letter in CHOICE_LETTERS if letter in options]


def record_input(record: dict[str, Any]) -> str:
    """Return the user prompt of an exported record: the Spanish prompt, lettered options or terms, the answer format.

    Raises:
        KeyError: the record lacks a field of the ``club-agentes.quiz/1`` format.
    """
    lines = [record["prompt"]]
    if record["options"]:
        lines += ["", *lettered_options(record["options"])]
    if record["terms"]:
        lines += ["", f"Terms: {', '.join(record['terms'])}"]
    unit = {"M": " The number counts millions.", "%": " The number is a percentage."}.get(record["unit"], "")
    lines += [
        "",
        f"Answer format: {record['answer_format']}{unit}",
        f"Reason as you need, then end your reply with one line '{FINAL_MARKER} <your answer>'.",
    ]
    return "\n".join(lines)


def record_sample(record: dict[str, Any]) -> Sample:
    """Return an inspect-ai :class:`Sample` for one exported record (exported ``with_answers``).

    The sample's id is the item id (the scorer rebuilds the item from it), ``target`` the canonical
    answer (digits, a letter or a term), ``choices`` the option texts in letter order (so inspect's
    choice tools letter them as the record does), and ``metadata`` the record's descriptive fields:
    ``game``, ``kind``, ``type``, ``unit``, ``vocabulary``, ``terms``, ``sections``, ``section`` (the
    first cited), ``rule_area``, ``rule_area_title``, ``parametric``, ``generator`` and ``answer_format``.

    Raises:
        KeyError: the record lacks a field of the format, or its answer (export it ``with_answers``).
    """
    options: dict[str, str] = record["options"]
    return Sample(
        id=record["id"],
        input=record_input(record),
        target=record["answer"],
        choices=[options[letter] for letter in CHOICE_LETTERS if letter in options] or None,
        metadata={
            "game": record["game"],
            "kind": record["kind"],
            "type": record["type"],
            "unit": record["unit"],
            "vocabulary": record["vocabulary"],
            "terms": record["terms"],
            "sections": record["sections"],
            "section": record["sections"][0] if record["sections"] else "",
            "rule_area": record["rule_area"],
            "rule_area_title": record["rule_area_title"],
            "parametric": record["parametric"],
            "generator": record["generator"],
            "answer_format": record["answer_format"],
            "format": record["format"],
        },
    )


def rules_samples(game: str, *, samples: int = 0, seed: int = 0) -> list[Sample]:
    """Return a game's practice pool as samples: every hand-written item, plus ``samples`` per practice generator.

    Raises:
        quizzes.bank.UnknownBankGame: no bank for ``game``.
        ValueError: ``samples`` is negative or above 10,000, or ``seed`` is negative.
    """
    return [record_sample(r) for r in export_records(game, with_answers=True, samples=samples, seed=seed)]


def _section_block(section_id: str) -> str:
    corpus = load_corpus()
    section = corpus.sections[section_id]
    text = section.text.strip()
    return f"## {section.id} · {section.title}" + (f"\n{text}" if text else "")


@lru_cache(maxsize=8)
def corpus_text(game: str) -> str:
    """Return every section of a game's corpus in reading order, each headed ``## <id> · <title>``.

    Raises:
        rules_corpus.UnknownGameId: unknown game.
    """
    return "\n\n".join(_section_block(s.id) for s in load_corpus().toc(game))


def context_message(game: str, context: Context, sections: Sequence[str] = ()) -> str:
    """Return the system message of a rules question: who the model is and, per ``context``, what it reads.

    Raises:
        EvalSettingError: ``context`` is not one of ``corpus``, ``sections`` or ``none``.
        rules_corpus.UnknownGameId: unknown game.
    """
    if context not in CONTEXTS:
        raise EvalSettingError(f"context must be one of {', '.join(CONTEXTS)}, not {context!r}")
    name = load_corpus().game(game).name
    head = (
        f"You are examined on the rules of the card game {name}. The questions are in Spanish; answer in "
        "Spanish or English."
    )
    if context == "none":
        return head
    if context == "sections":
        blocks = "\n\n".join(_section_block(s) for s in sections if s in load_corpus().sections)
        return f"{head} The rulebook sections the question rests on follow, each headed by its id.\n\n{blocks}"
    return (
        f"{head} The game's rules follow, section by section, each headed by its id: the rulebook quoted "
        f"verbatim, then this implementation's rulings and component data.\n\n{corpus_text(game)}"
    )


@solver
def rules_answer(context: Context = "corpus") -> Solver:
    """Show the model the rules (per ``context``) in a system message, then ask the sample's question once.

    Raises:
        EvalSettingError: ``context`` is not one of ``corpus``, ``sections`` or ``none``.
    """
    if context not in CONTEXTS:
        raise EvalSettingError(f"context must be one of {', '.join(CONTEXTS)}, not {context!r}")
    answer = generate_solver()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        message = context_message(state.metadata["game"], context, state.metadata.get("sections", ()))
        state.messages.insert(0, ChatMessageSystem(content=message))
        return await answer(state, generate)

    return solve


def stated_answer(completion: str) -> str:
    """Return the part of a reply the grader should read: from the last answer marker on, else the reply.

    A marker is ``Respuesta final:``, ``Final answer:`` or ``Answer:`` (any case). Without one, a
    reply longer than the grader reads (500 characters) is cut to its last non-blank line, since a
    model that reasons at length states its answer last. Never raises.
    """
    markers = list(_MARKER_RE.finditer(completion))
    if markers:
        return completion[markers[-1].start() :].strip()
    text = completion.strip()
    if len(text) <= MAX_ANSWER_CHARS:
        return text
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


@scorer(metrics=[grouped(accuracy(), "rule_area", all_label="accuracy"), stderr()])
def club_grader() -> Scorer:
    """Score a reply with this project's grader against the practice item named by the sample id.

    The score is ``C`` or ``I``; its ``answer`` is the grader's reading of the reply (digits, a
    letter or a term), its ``explanation`` the grader's reason for a wrong answer. Accuracy is
    reported overall and per ``rule_area``.
    """
    bank = default_bank()

    async def score(state: TaskState, target: Target) -> Score:
        """Grade the sample's output.

        Raises:
            quizzes.bank.UnknownItem: the sample id is not an item of the practice pool.
        """
        item = practice_item(bank, str(state.sample_id))
        stated = stated_answer(state.output.completion)
        result = grade(item, stated, bank.vocabulary(item))
        return Score(
            value=CORRECT if result.correct else INCORRECT,
            answer=result.normalized if result.normalized is not None else "",
            explanation=result.reason or "right",
            metadata={"stated": stated, "target": target.text},
        )

    return score


def rules_task(game: str, *, samples: int = 0, seed: int = 0, context: Context = "corpus") -> Task:
    """Return the rules-comprehension task of one game.

    Raises:
        quizzes.bank.UnknownBankGame: no bank for ``game``.
        ValueError: ``samples`` is negative or above 10,000, or ``seed`` is negative.
        EvalSettingError: ``context`` is not one of ``corpus``, ``sections`` or ``none``.
    """
    return Task(
        dataset=rules_samples(game, samples=samples, seed=seed),
        solver=rules_answer(context),
        scorer=club_grader(),
        name=f"{game.replace('-', '_')}_rules",
        metadata={"game": game, "samples_per_generator": samples, "seed": seed, "context": context},
    )


@task
def market_fortune_rules(samples: int = 0, seed: int = 0, context: Context = "corpus") -> Task:
    """Market Fortune's practice pool, graded by the club's grader (see :func:`rules_task`)."""
    return rules_task("market-fortune", samples=samples, seed=seed, context=context)


@task
def se_vende_rules(samples: int = 0, seed: int = 0, context: Context = "corpus") -> Task:
    """Se Vende's practice pool, graded by the club's grader (see :func:`rules_task`)."""
    return rules_task("se-vende", samples=samples, seed=seed, context=context)


@task
def yo_soy_el_jefe_rules(samples: int = 0, seed: int = 0, context: Context = "corpus") -> Task:
    """Yo soy el jefe's practice pool, graded by the club's grader (see :func:`rules_task`)."""
    return rules_task("yo-soy-el-jefe", samples=samples, seed=seed, context=context)


# --------------------------------------------------------------------------- the entry quiz over MCP


def entry_games(games: str | Iterable[str]) -> list[str]:
    """Return the game ids named by ``games``: ``"all"``, one id, ids separated by commas, or a list of ids.

    Raises:
        EvalSettingError: a name is not a game id of the corpus.
    """
    known = list(load_corpus().games)
    names = [g.strip() for g in games.split(",")] if isinstance(games, str) else [str(g).strip() for g in games]
    names = [g for g in names if g]
    if names == ["all"]:
        return known
    unknown = [g for g in names if g not in known]
    if unknown or not names:
        raise EvalSettingError(
            f"games must be 'all' or game ids separated by commas ({', '.join(known)}), not {games!r}"
        )
    return list(dict.fromkeys(names))


def entry_instructions(game: str, agent: str, attempts: int) -> str:
    """Return the task given to the model in an ``entry_quiz`` sample."""
    name = load_corpus().game(game).name
    quizzes = "one entry quiz" if attempts == 1 else f"at most {attempts} entry quizzes"
    return (
        f"You are connected to the Club de Agentes MCP server as the agent '{agent}'. Your goal: pass the club's "
        f"entry quiz for the card game {name} (game id '{game}').\n\n"
        "1. Study the rules with the tools: rules_toc, read_rules and search_rules (the rulebook is in Spanish); "
        "practice_question gives practice items, answered with submit_quiz, whose results show the right answer.\n"
        f"2. Take the entry quiz: start_quiz(game='{game}') returns three questions and an acertijo (a riddle), "
        "in Spanish. Answer all four at once with submit_quiz(quiz_id, answers), one answer per item key (q1, q2, "
        "q3, r1). All four right passes and earns a club pass.\n\n"
        f"You may start {quizzes}. When you are done, say in one sentence whether you passed."
    )


def entry_samples(games: str | Iterable[str], *, agent: str, attempts: int) -> list[Sample]:
    """Return one ``entry_quiz`` sample per game (id: the game id; metadata: game, name, agent, attempts).

    Raises:
        EvalSettingError: a game is unknown.
    """
    corpus = load_corpus()
    return [
        Sample(
            id=game,
            input=entry_instructions(game, agent, attempts),
            target="passed",
            metadata={"game": game, "game_name": corpus.game(game).name, "agent": agent, "attempts": attempts},
        )
        for game in entry_games(games)
    ]


def server_command(db: Path, agent: str, attempts: int) -> list[str]:
    """Return the command (``argv``) that serves the club over stdio on ``db`` as ``agent``, allowing ``attempts``.

    The server is this interpreter's ``python -m club_agentes serve``, so it runs the installed
    version under evaluation; ``entry_quizzes_per_hour`` is set to ``attempts`` so that the server
    itself refuses a further attempt.
    """
    return [
        sys.executable,
        "-m",
        "club_agentes",
        "serve",
        "--db",
        str(db),
        "--agent",
        agent,
        "--limits",
        f"entry_quizzes_per_hour={attempts}",
    ]


def read_outcome(db: Path, agent: str, game: str) -> dict[str, Any]:
    """Return what the server's database says of ``agent``'s entry quizzes of ``game``.

    The outcome holds ``game``, ``agent``, ``started`` (entry quizzes of the game started), ``submitted``
    (graded), ``passed`` (a graded entry quiz passed and a club pass covering the game was issued),
    ``best_right`` and ``total`` (the best graded paper), ``attempts`` (per graded paper: ``right``,
    ``total``, ``passed`` and its items with ``key``, ``item_id``, ``kind``, ``type``, ``sections``,
    ``correct``) and ``passes`` (club passes issued to the agent that cover the game). A missing
    database (the server never started) is an outcome with nothing started.

    Raises:
        club_agentes.mcp_server.store.StoreError: the database exists but cannot be opened.
    """
    from club_agentes.mcp_server.store import Store
    from club_agentes.quizzes.harness import normalize_agent_name

    name = normalize_agent_name(agent)
    outcome: dict[str, Any] = {
        "game": game,
        "agent": name,
        "started": 0,
        "submitted": 0,
        "passed": False,
        "best_right": 0,
        "total": 0,
        "attempts": [],
        "passes": 0,
    }
    if not db.exists():
        return outcome
    store = Store(db)
    try:
        started = len(store.quizzes.recent_prompt_keys(name, game, MAX_PAPERS))  # one entry per paper of the game
        graded = [
            a
            for a in store.quizzes.graded_attempts(game)
            if a.agent == name and not a.practice and a.result is not None
        ]
        passes = [p for p in store.quizzes.list_passes(name) if game in p.games and not p.revoked]
    finally:
        store.close()
    attempts: list[dict[str, Any]] = []
    for a in graded:
        assert a.result is not None
        items = [
            {k: it.get(k) for k in ("key", "item_id", "kind", "type", "sections", "correct")}
            for it in a.result.get("items", [])
        ]
        attempts.append(
            {
                "right": int(a.result.get("correct", 0)),
                "total": int(a.result.get("total", 0)),
                "passed": bool(a.result.get("passed")),
                "items": items,
            }
        )
    best = max(attempts, key=lambda x: x["right"], default=None)
    outcome.update(
        started=started,
        submitted=len(attempts),
        passed=any(x["passed"] for x in attempts) and bool(passes),
        best_right=best["right"] if best else 0,
        total=best["total"] if best else 0,
        attempts=attempts,
        passes=len(passes),
    )
    return outcome


def _db_name(sample_id: object, epoch: int) -> str:
    slug = re.sub(r"[^a-z0-9-]+", "-", str(sample_id).lower()).strip("-") or "sample"
    return f"{slug}-epoch{epoch}-{secrets.token_hex(4)}.sqlite3"


@solver
def club_entry_quiz(
    agent: str = "inspect",
    attempts: int = 1,
    db_dir: str | None = None,
    tools: Sequence[str] = ENTRY_TOOLS,
) -> Solver:
    """Put the model at a fresh club server (stdio) with the given tools, let it work, and record the outcome.

    Each sample gets its own server process and SQLite file (in ``db_dir``, kept for ``club-agentes
    quiz stats --db``, or in a temporary folder removed afterwards), so samples and epochs never
    share attempts, limits or passes. The model works in a ReAct loop without a submit tool: the
    loop ends when it stops calling tools (or at the task's message limit). Whatever happened, the
    outcome read from the server's database (:func:`read_outcome`) is put in the sample's store
    under :data:`OUTCOME_KEY` for the scorer.

    Raises:
        EvalSettingError: ``attempts`` is below 1 or ``agent`` is not a valid agent name.
    """
    from club_agentes.quizzes.harness import InvalidAgent, normalize_agent_name

    if attempts < 1:
        raise EvalSettingError(f"attempts must be a whole number of 1 or more, not {attempts}")
    try:
        normalize_agent_name(agent)
    except InvalidAgent as exc:
        raise EvalSettingError(f"agent: {exc}") from None

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        folder = Path(db_dir) if db_dir else Path(tempfile.mkdtemp(prefix="club-agentes-eval-"))
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / _db_name(state.sample_id, state.epoch)
        command, *args = server_command(db, agent, attempts)
        server = mcp_server_stdio(name="club-agentes", command=command, args=args)
        player = react(
            prompt=AgentPrompt(
                instructions="You are an AI agent visiting Club de Agentes, a club of card games played by agents."
            ),
            tools=[mcp_tools(server, tools=list(tools))],
            submit=False,
        )
        try:
            state = await as_solver(player)(state, generate)
        finally:
            try:
                outcome = await anyio.to_thread.run_sync(read_outcome, db, agent, state.metadata["game"])
                outcome.update(database=str(db), kept=bool(db_dir))
                state.store.set(OUTCOME_KEY, outcome)
            finally:
                if not db_dir:
                    shutil.rmtree(folder, ignore_errors=True)
        return state

    return solve


@scorer(metrics=[accuracy(), stderr()])
def entry_quiz_passed() -> Scorer:
    """Score ``C`` when the server's database shows a passed entry quiz (and its club pass), else ``I``.

    Reads the outcome :func:`club_entry_quiz` recorded; the score's ``answer`` is ``passed``,
    ``failed (right/total)`` or ``no quiz submitted``, and its metadata is the whole outcome.
    """

    async def score(state: TaskState, target: Target) -> Score:
        outcome = state.store.get(OUTCOME_KEY)
        if not isinstance(outcome, dict):
            return Score(
                value=INCORRECT,
                answer="no outcome",
                explanation="no outcome was recorded: the solver must be club_entry_quiz()",
            )
        if outcome["passed"]:
            answer = "passed"
            why = f"passed on submission {next(i for i, a in enumerate(outcome['attempts'], 1) if a['passed'])}"
        elif outcome["submitted"]:
            best = f"{outcome['best_right']}/{outcome['total']}"
            answer = f"failed ({best})"
            why = f"{outcome['submitted']} entry quiz(zes) graded, none passed; the best had {best} right"
        else:
            answer = "no quiz submitted"
            why = f"{outcome['started']} entry quiz(zes) started, none submitted"
        return Score(
            value=CORRECT if outcome["passed"] else INCORRECT, answer=answer, explanation=why, metadata=outcome
        )

    return score


@task
def entry_quiz(
    games: str | list[str] = "all",
    agent: str = "inspect",
    attempts: int = 1,
    message_limit: int = 80,
    db_dir: str | None = None,
) -> Task:
    """Take a game's entry quiz end to end through the MCP server, one sample per game.

    Args:
        games: ``all``, a game id, or game ids separated by commas.
        agent: the agent name the model acts as (``serve --agent``).
        attempts: entry quizzes the model may start per sample (the server enforces it).
        message_limit: messages per sample before the loop is stopped.
        db_dir: a folder to keep each sample's club database in; default, a temporary folder.

    Raises:
        EvalSettingError: an argument is not accepted (the message says which values are).
    """
    if message_limit < 2:
        raise EvalSettingError(f"message_limit must be 2 or more, not {message_limit}")
    return Task(
        dataset=entry_samples(games, agent=agent, attempts=attempts),
        solver=club_entry_quiz(agent=agent, attempts=attempts, db_dir=db_dir),
        scorer=entry_quiz_passed(),
        message_limit=message_limit,
        metadata={"agent": agent, "attempts": attempts},
    )
