"""Rules tutor: list_games, rules_toc, read_rules, search_rules, the rules:// resources (each game's
table of contents listed, every section through a template), completions for game and section
ids, and the learn_game prompt.

Every tool result's text is a compact rendering for a model (the games in a few lines, the
table of contents as indented ids and titles, a section's markdown, the hits with their
snippets); the full data is the structured content.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Annotated, Any

from club_agentes.engine.core.registry import all_games
from club_agentes.mcp_server.models_rules import (
    BotKind,
    GameList,
    GameSummary,
    PlayerCount,
    RulesSection,
    RulesToc,
    SearchHit,
    SearchResults,
    SectionLink,
    TocEntry,
)
from club_agentes.mcp_server.toolkit import READ_ONLY, ClubServer, compact
from club_agentes.rules_corpus import MAX_QUERY_CHARS, Corpus, SearchIndex, Section, UnknownGameId, UnknownSection
from club_agentes.rules_corpus.search import tokens
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolResult,
    Completion,
    CompletionArgument,
    CompletionContext,
    PromptReference,
    ResourceTemplateReference,
)
from pydantic import Field

from club_agentes.errors import Refused
from club_agentes.manifest import game_ids

RESOURCE_TEMPLATE = "rules://{game}/{+section}"
TOC_RESOURCE = "rules://{game}/toc"
"""The URI of each game's table of contents, listed by resources/list."""


class RulesRefused(Refused):
    """An unknown game or section id, or a search query that cannot be run."""


@contextlib.contextmanager
def _refusing() -> Iterator[None]:
    """Turn the corpus's lookup and query errors into one-sentence refusals."""
    try:
        yield
    except (UnknownGameId, UnknownSection, ValueError) as exc:
        raise RulesRefused(str(exc)) from None


GameArg = Annotated[
    str,
    Field(description=f"Game id: {', '.join(repr(g) for g in game_ids())} (list_games lists them)."),
]


def section_uri(section: Section) -> str:
    """Return the ``rules://`` resource URI of a section."""
    return f"rules://{section.game}/{section.id.split('/', 1)[1]}"


def _link(corpus: Corpus, section_id: str | None) -> SectionLink | None:
    if section_id is None:
        return None
    s = corpus.sections[section_id]
    return SectionLink(id=s.id, title=s.title)


def _resolve(corpus: Corpus, game: str, section: str) -> Section:
    with _refusing():
        return corpus.resolve(game, section)


def render_section_markdown(corpus: Corpus, s: Section) -> str:
    """Return a section as markdown: title, provenance, text, and links to its neighbours."""
    origin = {
        "rulebook": "Verbatim text of the printed rulebook.",
        "ruling": "A written ruling of this implementation (not rulebook text).",
        "component": "Component data designed by this implementation (not rulebook text).",
        "glossary": "This project's glossary (not rulebook text).",
    }[s.kind]
    parts = [f"# {s.title}", "", f"*{s.id}* · {origin}", "", s.text or "(This section groups the ones below.)"]
    if s.children:
        parts += ["", "## Sub-sections", *[f"- {c}: {corpus.sections[c].title}" for c in s.children]]
    nav = [f"{label}: {sid}" for label, sid in (("parent", s.parent), ("prev", s.prev), ("next", s.next)) if sid]
    if nav:
        parts += ["", " · ".join(nav)]
    return "\n".join(parts)


def toc_markdown(corpus: Corpus, game: str) -> str:
    """Return a game's table of contents as markdown: every section id and title, indented by depth.

    Raises:
        UnknownGameId: no such game.
    """
    facts = corpus.game(game)
    lines = [f"# {facts.name}: table of contents", ""]
    lines += [f"{'  ' * s.depth}- {s.id}: {s.title}" for s in corpus.toc(game)]
    lines += ["", f"Read a section with read_rules('{game}', id) or the resource rules://{game}/<id after the game>."]
    return "\n".join(lines)


def games_text(out: GameList) -> str:
    """Return the game list as a model reads it: one line per game, then how to start."""
    lines = []
    for g in out.games:
        seats = ", ".join(g.seat_kinds) if g.seat_kinds else "not playable yet"
        lines.append(
            f"{g.id}: {g.name} · {g.players.text} · {g.duration} · {g.age} · modes: {'; '.join(g.modes) or '-'} · "
            f"seats: {seats} · {g.section_count} sections, start at {g.root_sections[0] if g.root_sections else '-'}"
        )
        lines.append(f"   {g.summary}")
        lines += [f"   {b.seat_kind}: {b.strength}" for b in g.bots]
    lines.append(out.how_to_start)
    return "\n".join(lines)


def toc_text(out: RulesToc) -> str:
    """Return a table of contents as a model reads it: indented ``id: title`` lines."""
    lines = [f"{out.name} ({out.game}): {len(out.sections)} sections in reading order"]
    lines += [
        f"{'  ' * s.depth}{s.id}: {s.title}{'' if s.kind == 'rulebook' else f' [{s.kind}]'}" for s in out.sections
    ]
    lines.append(out.hint)
    return "\n".join(lines)


def search_text(out: SearchResults) -> str:
    """Return search hits as a model reads them: one numbered line per hit with its snippet."""
    where = f" in {out.game}" if out.game else ""
    terms = f" (also searched: {', '.join(out.expanded_terms)})" if out.expanded_terms else ""
    lines = [f"{len(out.hits)} hits for {out.query!r}{where}{terms}"]
    for n, h in enumerate(out.hits, 1):
        lines.append(f"{n}. {h.section_id}: {h.title} [{h.kind}]")
        lines.append(f"   {h.snippet}")
    if out.hits:
        lines.append("Read a section with read_rules(game, section_id).")
    return "\n".join(lines)


def bot_kinds(game: Any) -> list[BotKind]:
    """Return a game's bot seat kinds with the strength line of the bot each builds (a tuned bot states its own)."""
    out = []
    for kind, cls in game.bots.items():
        try:
            strength = game.make_bot(kind).strength
        except (TypeError, ValueError, AttributeError):
            strength = getattr(cls, "strength", "")
        out.append(BotKind(seat_kind=f"bot:{kind}", strength=str(strength)))
    return out


def register_rules_tools(mcp: MCPServer, corpus: Corpus, index: SearchIndex) -> None:
    """Register the rules tutor's tools, resource template, completions and prompt on ``mcp``.

    The tools only read memory (the corpus and its search index), so they are coroutines: no hop to
    a worker thread per call. The game list and each table of contents never change while the
    server runs, so each is built once and the same answer is returned after.
    """
    answers: dict[str, CallToolResult] = {}

    @mcp.tool(annotations=READ_ONLY, title="List the games")
    async def list_games() -> Annotated[CallToolResult, GameList]:
        """List the three card games of Club de Agentes with their player counts, duration and modes.

        Start here. Each game has a Spanish rulebook split into sections (rules_toc, read_rules,
        search_rules), an entry quiz (start_quiz) and tables where agents play (create_table).
        """
        cached = answers.get("")
        if cached is not None:
            return cached
        engines = {g.id: g for g in all_games()}
        bots = {gid: bot_kinds(g) for gid, g in engines.items()}
        games = []
        for gid, facts in corpus.games.items():
            toc = corpus.toc(gid)
            games.append(
                GameSummary(
                    id=gid,
                    name=facts.name,
                    summary=facts.summary,
                    players=PlayerCount(min=facts.min_players, max=facts.max_players, text=facts.players_text),
                    duration=facts.duration_text,
                    age=facts.age_text,
                    modes=list(facts.modes),
                    facts_section=facts.facts_section,
                    section_count=len(toc),
                    root_sections=[s.id for s in toc if s.parent is None],
                    playable=gid in engines,
                    seat_kinds=["agent", *(f"bot:{k}" for k in engines[gid].bots)] if gid in engines else [],
                    bots=bots.get(gid, []),
                    table_options=engines[gid].config_schema() if gid in engines else {},
                )
            )
        out = GameList(
            games=games,
            how_to_start="Read a game's rules with rules_toc and read_rules (or the learn_game prompt), "
            "practise with practice_question, pass start_quiz/submit_quiz for a club pass, then join a table.",
        )
        answers[""] = compact(out, games_text(out))
        return answers[""]

    @mcp.tool(annotations=READ_ONLY, title="Table of contents of a game's rules")
    async def rules_toc(game: GameArg) -> Annotated[CallToolResult, RulesToc]:
        """Return the table of contents of one game: every section id and title, in reading order.

        Sections follow the rulebook's own headings (chapters, subsections, each FAQ question,
        glossary entry, quick-reference block and variant); after the rulebook come this
        implementation's glossary, written rulings (ids under '<game>/rulings/') and component data
        (card texts, board, deal cards). Read any section with read_rules.
        """
        cached = answers.get(f"toc/{game}") if isinstance(game, str) else None
        if cached is not None:
            return cached
        with _refusing():
            facts = corpus.game(game)
            toc = corpus.toc(game)
        out = RulesToc(
            game=game,
            name=facts.name,
            sections=[
                TocEntry(id=s.id, title=s.title, kind=s.kind, parent=s.parent, depth=s.depth, children=len(s.children))
                for s in toc
            ],
            hint="Call read_rules(game, section) with a full id or the part after the game id, "
            "e.g. read_rules('market-fortune', 'cap-2/regla-8-cartas').",
        )
        answers[f"toc/{game}"] = compact(out, toc_text(out))
        return answers[f"toc/{game}"]

    @mcp.tool(annotations=READ_ONLY, title="Read one section of the rules")
    async def read_rules(
        game: GameArg,
        section: Annotated[
            str,
            Field(
                description="Section id from rules_toc or search_rules: the full id "
                "('market-fortune/cap-2/regla-8-cartas') or the part after the game id ('cap-2/regla-8-cartas')."
            ),
        ],
    ) -> Annotated[CallToolResult, RulesSection]:
        """Return one section's text with its parent, children and neighbours.

        Rulebook sections are quoted verbatim in Spanish ('verbatim': true). Rulings and component
        data are this implementation's own texts and say so. An unknown id is refused with the
        closest valid ids.
        """
        s = _resolve(corpus, game, section)
        out = RulesSection(
            game=s.game,
            id=s.id,
            title=s.title,
            kind=s.kind,
            verbatim=s.verbatim,
            text=s.text,
            uri=section_uri(s),
            parent=_link(corpus, s.parent),
            children=[SectionLink(id=c, title=corpus.sections[c].title) for c in s.children],
            prev=_link(corpus, s.prev),
            next=_link(corpus, s.next),
            lines=list(s.lines) if s.lines else None,
            refs=[SectionLink(id=r, title=corpus.sections[r].title) for r in s.refs],
        )
        return compact(out, render_section_markdown(corpus, s))

    @mcp.tool(annotations=READ_ONLY, title="Search the rules")
    async def search_rules(
        query: Annotated[
            str,
            Field(
                description=f"Words to look for, Spanish works best, 1 to {MAX_QUERY_CHARS} characters, "
                "e.g. 'regla de las 8 cartas' or 'clan'. Case, accents and plurals do not matter; "
                "synonyms from the glossary are included."
            ),
        ],
        game: Annotated[
            str | None,
            Field(description="Restrict to one game id (e.g. 'yo-soy-el-jefe'); omit or null to search all games."),
        ] = None,
        limit: Annotated[int, Field(description="Most hits to return, 1 to 50.", ge=1, le=50)] = 10,
    ) -> Annotated[CallToolResult, SearchResults]:
        """Search every section (rulebook text, rulings, component data, glossary) and rank by relevance.

        Returns section ids with a snippet around the match; read the full text with read_rules.
        """
        with _refusing():
            if game is not None:
                corpus.game(game)
            hits = index.search(query, game, limit)
        concepts = index.concepts(tokens(query), game)
        out = SearchResults(
            query=query,
            game=game,
            expanded_terms=sorted({t for c in concepts for t in c}),
            hits=[
                SearchHit(
                    section_id=h.section.id,
                    game=h.section.game,
                    title=h.section.title,
                    kind=h.section.kind,
                    snippet=h.snippet,
                    score=h.score,
                )
                for h in hits
            ],
        )
        return compact(out, search_text(out))

    if isinstance(mcp, ClubServer):
        mcp.skip_output_validation("list_games", "rules_toc", "read_rules", "search_rules")

    for game_id in corpus.games:
        _register_toc_resource(mcp, corpus, game_id)

    @mcp.resource(
        RESOURCE_TEMPLATE,
        name="rules-section",
        title="A section of a game's rules",
        description="One section of a game's corpus as markdown, e.g. rules://market-fortune/cap-2/regla-8-cartas.",
        mime_type="text/markdown",
    )
    def rules_resource(game: str, section: str) -> str:
        try:
            s = corpus.resolve(game, section)
        except (UnknownGameId, UnknownSection) as exc:
            raise ResourceNotFoundError(str(exc)) from None
        return render_section_markdown(corpus, s)

    @mcp.completion()
    async def complete(
        ref: PromptReference | ResourceTemplateReference,
        argument: CompletionArgument,
        context: CompletionContext | None,
    ) -> Completion | None:
        prefix = argument.value.strip().lower()
        if argument.name == "game":
            values = [g for g in corpus.games if g.startswith(prefix)]
            return Completion(values=values, total=len(values), has_more=False)
        if argument.name == "section" and isinstance(ref, ResourceTemplateReference):
            game = (context.arguments or {}).get("game") if context else None
            games = [game] if game in corpus.games else list(corpus.games)
            values = []
            for g in games:
                for s in corpus.toc(g):
                    rest = s.id.split("/", 1)[1]
                    if rest.startswith(prefix) or s.id.startswith(prefix):
                        values.append(rest if game else s.id)
            return Completion(values=values[:100], total=len(values), has_more=len(values) > 100)
        return None

    @mcp.prompt(title="Learn a game before the quiz and the table")
    def learn_game(
        game: Annotated[str, Field(description="Game id, e.g. 'market-fortune'.")],
    ) -> list[dict[str, Any]]:
        """A step-by-step plan to learn one game's rules, practise, and pass the entry quiz."""
        try:
            facts = corpus.game(game)
        except UnknownGameId as exc:
            raise MCPError(INVALID_PARAMS, str(exc)) from None
        toc = corpus.toc(game)
        roots = [s for s in toc if s.parent is None and s.kind == "rulebook"]
        extra = [s for s in toc if s.parent is None and s.kind != "rulebook"]
        lines = [
            f"You are learning {facts.name} ({game}) at Club de Agentes. {facts.summary}",
            f"Players: {facts.players_text}; duration: {facts.duration_text}; age: {facts.age_text}.",
            "",
            "1. Call rules_toc to see every section. The rulebook is Spanish and quoted verbatim.",
            "2. Read these top-level sections in order with read_rules, then their sub-sections:",
            *[f"   - {s.id}: {s.title}" for s in roots],
            "3. Then read what this implementation adds (not rulebook text):",
            *[f"   - {s.id}: {s.title}" for s in extra],
            "   Rulings settle what the rulebook leaves open; the referee cites them by id.",
            "4. Use search_rules for any term you meet (synonyms are expanded, e.g. a word and its variants).",
            "5. Practise with practice_question(game) and answer it with submit_quiz; wrong answers tell you "
            "which sections to re-read.",
            "6. Take the entry quiz: start_quiz(game) gives three questions and a riddle (acertijo), fresh for "
            "each attempt; answer all four correctly with submit_quiz to receive a signed club pass naming you "
            "(the agent of your connection).",
            "7. Join a table with join_table(table_id, club_pass=...) and play with get_view, play_move "
            "and wait_for_turn. Illegal moves are refused with the rule id and the rulebook's words.",
        ]
        return [{"role": "user", "content": "\n".join(lines)}]


def _register_toc_resource(mcp: MCPServer, corpus: Corpus, game: str) -> None:
    """List ``rules://<game>/toc``: the game's table of contents as markdown."""
    facts = corpus.game(game)

    @mcp.resource(
        TOC_RESOURCE.format(game=game),
        name=f"{game}-toc",
        title=f"{facts.name}: table of contents",
        description=f"Every section id and title of {facts.name}'s rules, in reading order; read a section as "
        f"rules://{game}/<id after the game>.",
        mime_type="text/markdown",
    )
    def toc_resource() -> str:
        return toc_markdown(corpus, game)
