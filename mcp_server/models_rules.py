"""Output models of the rules tutor tools (every field described for the model reading it)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class PlayerCount(BaseModel):
    """How many people play, as the rulebook states it."""

    min: int = Field(description="Fewest players this server seats, e.g. 2.")
    max: int = Field(description="Most players this server seats, e.g. 6.")
    text: str = Field(description="The rulebook's own words on player count, e.g. '2 a 6 jugadores'.")


class BotKind(BaseModel):
    """A bot that can fill a seat of this game, with how strong it is."""

    seat_kind: str = Field(description="The value to put in create_table's seats list, e.g. 'bot:mcts'.")
    strength: str = Field(
        description="One line on how the bot plays and how strong it is, with measured figures where there are "
        "some, e.g. 'uniformly random legal moves: the floor of the ladder'."
    )


class GameSummary(BaseModel):
    """One game the club teaches, examines and referees."""

    id: str = Field(description="Game id to pass to every other tool, e.g. 'market-fortune'.")
    name: str = Field(description="The game's name, e.g. 'Market Fortune'.")
    summary: str = Field(description="One Spanish sentence on what the game is about.")
    players: PlayerCount = Field(description="Player count as stated by the rulebook and as seated here.")
    duration: str = Field(description="Playing time as the rulebook states it (Spanish), e.g. 'de 20 a 60 minutos'.")
    age: str = Field(description="Minimum age as the rulebook states it, e.g. '14+'.")
    modes: list[str] = Field(description="Game modes or rule sets the rulebook names, e.g. ['I · Familia', ...].")
    facts_section: str = Field(description="Section id where the rulebook states these facts.")
    section_count: int = Field(description="Number of readable sections (rulebook, rulings, components, glossary).")
    root_sections: list[str] = Field(description="Top-level section ids in reading order: start reading here.")
    playable: bool = Field(description="Whether tables of this game can be created now (create_table).")
    seat_kinds: list[str] = Field(
        description="Values accepted in create_table's seats list, e.g. ['agent', 'bot:random', 'bot:heuristic']."
    )
    bots: list[BotKind] = Field(
        description="The bot seat kinds of this game (weakest first) with a one-line strength note each; "
        "empty when the game is not playable."
    )
    table_options: dict[str, Any] = Field(
        description="JSON schema of create_table's options for this game (besides require_club_pass), e.g. "
        "{'mode': 'fortuna'} for market-fortune; empty when the game is not playable."
    )


class GameList(BaseModel):
    """The games of the club."""

    games: list[GameSummary] = Field(description="Every game, in the club's order.")
    how_to_start: str = Field(description="What to do next, in one or two English sentences.")


class TocEntry(BaseModel):
    """One line of a table of contents."""

    id: str = Field(description="Full section id, e.g. 'market-fortune/cap-2/regla-8-cartas'.")
    title: str = Field(description="Section title (Spanish for rulebook sections).")
    kind: str = Field(
        description="'rulebook' (verbatim rulebook text), 'ruling' (this implementation's written ruling), "
        "'component' (component data this implementation designs, e.g. card texts) or 'glossary'."
    )
    parent: str | None = Field(description="Parent section id, or null for a top-level section.")
    depth: int = Field(description="Nesting depth: 0 for top-level sections.")
    children: int = Field(description="Number of child sections.")


class RulesToc(BaseModel):
    """The table of contents of one game's corpus."""

    game: str = Field(description="Game id.")
    name: str = Field(description="Game name.")
    sections: list[TocEntry] = Field(description="Every section in reading order (rulebook first, then rulings...).")
    hint: str = Field(description="How to read a section, in one English sentence.")


class SectionLink(BaseModel):
    """A reference to another section."""

    id: str = Field(description="Full section id.")
    title: str = Field(description="Section title.")


class RulesSection(BaseModel):
    """One section of a game's corpus, with its text and neighbours."""

    game: str = Field(description="Game id.")
    id: str = Field(description="Full section id, e.g. 'market-fortune/cap-2/regla-8-cartas'.")
    title: str = Field(description="Section title.")
    kind: str = Field(description="'rulebook', 'ruling', 'component' or 'glossary' (see rules_toc).")
    verbatim: bool = Field(description="True when text is quoted verbatim from the printed rulebook (Spanish).")
    text: str = Field(description="The section's own text (markdown-ish; children are read separately).")
    uri: str = Field(description="The same section as an MCP resource, e.g. 'rules://market-fortune/cap-2/...'.")
    parent: SectionLink | None = Field(description="The enclosing section, or null at the top.")
    children: list[SectionLink] = Field(description="Sub-sections, in order (read them for the details).")
    prev: SectionLink | None = Field(description="Previous section in reading order, or null.")
    next: SectionLink | None = Field(description="Next section in reading order, or null.")
    lines: list[int] | None = Field(
        description="For rulebook sections, [first, last] line numbers (1-based) in the rulebook file; else null."
    )
    refs: list[SectionLink] = Field(description="For rulings: the rulebook sections the ruling is about.")


class SearchHit(BaseModel):
    """One ranked search result."""

    section_id: str = Field(description="Full section id; read it with read_rules.")
    game: str = Field(description="Game id of the section.")
    title: str = Field(description="Section title.")
    kind: str = Field(description="'rulebook', 'ruling', 'component' or 'glossary'.")
    snippet: str = Field(description="About 160 characters of the section around the first match.")
    score: float = Field(description="BM25 relevance score; higher is better; only comparable within one search.")


class SearchResults(BaseModel):
    """Ranked sections for a query."""

    query: str = Field(description="The query as received.")
    game: str | None = Field(description="The game searched, or null for all games.")
    expanded_terms: list[str] = Field(
        description="Folded query terms after synonym expansion, e.g. 'clan' -> ['clan', 'familia', 'tribu']."
    )
    hits: list[SearchHit] = Field(description="Best first; empty when nothing matches.")
