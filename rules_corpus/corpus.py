"""The rules corpus: three verbatim rulebooks split into sections, plus authored areas.

Data lives in ``rules_corpus/data/<game>/``:

* ``rulebook.txt``: the rulebook, byte for byte as received (``shared/seeds``).
* ``sections.toml``: the game's facts and the section map. Each section names its
  first line; it runs to the line before the next section's first line, so every
  line of the rulebook belongs to exactly one section.
* ``glossary.toml``: terms with their synonyms (used by search and readable as a
  section).
* ``authored/*.toml``: this project's own texts, clearly apart from the rulebook:
  rulings (``<game>/rulings/...``) and the component data the rulebook leaves out.

:func:`load_corpus` reads and checks everything once; errors name the file and
the section.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from club_agentes.manifest import game_ids, manifest

SectionKind = Literal["rulebook", "ruling", "component", "glossary"]

GAME_IDS: tuple[str, ...] = game_ids()
"""The installed games, in display order (from the game manifests, :mod:`club_agentes.manifest`)."""


class CorpusError(Exception):
    """The packaged corpus data is inconsistent (a defect of the data, found at load)."""


class UnknownGameId(LookupError):
    """A game id that the corpus does not know; the message lists the valid ids."""


class UnknownSection(LookupError):
    """A section id that the corpus does not know; the message suggests the closest ids."""

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


@dataclass(frozen=True)
class GameFacts:
    """What a rulebook states about its game (player count, duration, age, modes)."""

    id: str
    name: str
    summary: str
    players_text: str
    min_players: int
    max_players: int
    duration_text: str
    age_text: str
    modes: tuple[str, ...]
    source_file: str
    source_sha256: str
    facts_section: str


@dataclass(frozen=True)
class Section:
    """One readable part of the corpus.

    Attributes:
        id: stable id, e.g. ``"market-fortune/cap-2/regla-8-cartas"``.
        game: the game id.
        title: the heading's words (or a short title for an unheaded paragraph).
        kind: ``"rulebook"`` (verbatim rulebook text), ``"ruling"`` (a written
            ruling of this implementation), ``"component"`` (component data this
            implementation designs) or ``"glossary"``.
        text: the section's own text; verbatim for ``"rulebook"`` sections.
        parent: the parent section id, or ``None`` at the top.
        children: child section ids, in order.
        prev: the previous section id in reading order, or ``None``.
        next: the next section id in reading order, or ``None``.
        lines: for rulebook sections, the 1-based inclusive line range it owns in
            the rulebook file (``None`` for a grouping section and authored text).
        refs: for rulings, the sections the ruling is about.
    """

    id: str
    game: str
    title: str
    kind: SectionKind
    text: str
    parent: str | None
    children: tuple[str, ...]
    prev: str | None
    next: str | None
    lines: tuple[int, int] | None = None
    refs: tuple[str, ...] = ()

    @property
    def verbatim(self) -> bool:
        """Whether the text is quoted verbatim from the rulebook."""
        return self.kind == "rulebook"

    @property
    def depth(self) -> int:
        """Nesting depth: 0 for a top-level section."""
        return self.id.count("/") - 1


@dataclass(frozen=True)
class Term:
    """A glossary term with its synonyms (all Spanish, as the rulebook writes them)."""

    term: str
    synonyms: tuple[str, ...]
    definition: str
    sections: tuple[str, ...]

    @property
    def forms(self) -> tuple[str, ...]:
        """The term and all its synonyms."""
        return (self.term, *self.synonyms)


@dataclass
class Corpus:
    """Every game's facts, sections and glossary, loaded once."""

    games: dict[str, GameFacts]
    sections: dict[str, Section]
    glossaries: dict[str, tuple[Term, ...]]
    rulebooks: dict[str, str]
    _order: dict[str, list[str]] = field(default_factory=dict)

    def game(self, game_id: str) -> GameFacts:
        """Return a game's facts.

        Raises:
            UnknownGameId: the id is not one of the corpus's games.
        """
        try:
            return self.games[game_id]
        except KeyError:
            raise UnknownGameId(f"unknown game {game_id!r}; valid game ids are: {', '.join(self.games)}") from None

    def toc(self, game_id: str) -> list[Section]:
        """Return every section of a game in reading order.

        Raises:
            UnknownGameId: the id is not one of the corpus's games.
        """
        self.game(game_id)
        return [self.sections[s] for s in self._order[game_id]]

    def resolve(self, game_id: str, section: str) -> Section:
        """Return a section by full id or by the part after ``"<game>/"``.

        Raises:
            UnknownGameId: unknown game.
            UnknownSection: unknown section; ``suggestions`` holds the closest ids.
        """
        self.game(game_id)
        wanted = section.strip().strip("/")
        if wanted.startswith("rules://"):
            wanted = wanted[len("rules://") :]
        full = wanted if wanted.startswith(game_id + "/") or wanted == game_id else f"{game_id}/{wanted}"
        found = self.sections.get(full)
        if found is not None and found.game == game_id:
            return found
        ids = self._order[game_id]
        close = difflib.get_close_matches(full, ids, n=5, cutoff=0.5)
        if not close:
            tail = full.rsplit("/", 1)[-1]
            close = [i for i in ids if tail and tail in i][:5]
        if not close:
            close = [i for i in ids if self.sections[i].parent is None][:5]
        raise UnknownSection(
            f"unknown section {section!r} in {game_id}; closest ids: {', '.join(close)} (rules_toc lists them all)",
            close,
        )

    def get(self, section_id: str) -> Section:
        """Return a section by its full id.

        Raises:
            UnknownGameId: the id does not start with a known game id.
            UnknownSection: no such section.
        """
        game_id = section_id.split("/", 1)[0]
        return self.resolve(game_id, section_id)

    def has(self, section_id: str) -> bool:
        """Return whether a full section id exists."""
        return section_id in self.sections

    def glossary(self, game_id: str) -> tuple[Term, ...]:
        """Return a game's glossary terms.

        Raises:
            UnknownGameId: unknown game.
        """
        self.game(game_id)
        return self.glossaries[game_id]


def _data_dir(game_id: str) -> Any:
    m = manifest(game_id)
    if m is None:
        raise UnknownGameId(f"unknown game {game_id!r}; valid game ids are: {', '.join(GAME_IDS)}")
    return m.corpus_dir()


def _read_toml(path: Any) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CorpusError(f"{path}: {exc}") from exc


def _req(entry: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in entry:
        raise CorpusError(f"{where}: missing field {key!r}")
    return entry[key]


@dataclass
class _Draft:
    id: str
    title: str
    kind: SectionKind
    text: str
    parent: str | None
    lines: tuple[int, int] | None = None
    refs: tuple[str, ...] = ()


def _split_rulebook(game_id: str, text: str, entries: list[dict[str, Any]], where: str) -> list[_Draft]:
    """Cut the rulebook at each entry's start line; return drafts in document order."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline does not start a line
    drafts: list[_Draft] = []
    starts: list[tuple[int, _Draft]] = []
    cursor = 0
    for entry in entries:
        sid = _req(entry, "id", where)
        here = f"{where}: section {sid}"
        if not sid.startswith(game_id + "/"):
            raise CorpusError(f"{here}: id must start with {game_id}/")
        draft = _Draft(sid, _req(entry, "title", here), "rulebook", "", entry.get("parent"))
        drafts.append(draft)
        start = entry.get("start")
        if start is None:
            continue
        anchor = " ".join(start.split())  # non-breaking spaces in the text match plain ones
        for i in range(cursor, len(lines)):
            if " ".join(lines[i].split()).startswith(anchor):
                starts.append((i, draft))
                cursor = i + 1
                break
        else:
            raise CorpusError(f"{here}: start line {start!r} not found after line {cursor}")
    if not starts or starts[0][0] != 0:
        raise CorpusError(f"{where}: the first section must start on the rulebook's first line")
    for k, (i, draft) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        draft.lines = (i + 1, end)
        draft.text = "\n".join(lines[i:end]).strip("\n")
    return drafts


def _authored(game_id: str, where: str, data: dict[str, Any]) -> list[_Draft]:
    area = _req(data, "area", where)
    area_id = _req(area, "id", where)
    kind = _req(area, "kind", where)
    if kind not in ("ruling", "component"):
        raise CorpusError(f"{where}: area kind must be 'ruling' or 'component', not {kind!r}")
    if not area_id.startswith(game_id + "/"):
        raise CorpusError(f"{where}: area id must start with {game_id}/")
    drafts = [_Draft(area_id, _req(area, "title", where), kind, _req(area, "text", where).strip(), None)]
    for entry in data.get("section", []):
        sid = _req(entry, "id", where)
        here = f"{where}: section {sid}"
        if not sid.startswith(area_id + "/"):
            raise CorpusError(f"{here}: id must start with {area_id}/")
        drafts.append(
            _Draft(
                sid,
                _req(entry, "title", here),
                kind,
                _req(entry, "text", here).strip(),
                entry.get("parent", area_id),
                refs=tuple(entry.get("refs", ())),
            )
        )
    return drafts


def _glossary(game_id: str, where: str, data: dict[str, Any]) -> tuple[tuple[Term, ...], _Draft]:
    terms = []
    for entry in data.get("term", []):
        here = f"{where}: term {entry.get('term')!r}"
        terms.append(
            Term(
                term=_req(entry, "term", here),
                synonyms=tuple(entry.get("synonyms", ())),
                definition=_req(entry, "definition", here).strip(),
                sections=tuple(entry.get("sections", ())),
            )
        )
    lines = [data.get("intro", "").strip(), ""]
    for t in terms:
        syn = f" (sinónimos: {', '.join(t.synonyms)})" if t.synonyms else ""
        lines.append(f"- **{t.term}**{syn}: {t.definition}")
    draft = _Draft(
        f"{game_id}/glosario-del-club",
        data.get("title", "Glosario del Club: términos y sinónimos"),
        "glossary",
        "\n".join(lines).strip(),
        None,
    )
    return tuple(terms), draft


def _link(game_id: str, drafts: list[_Draft], where: str) -> list[Section]:
    ids = [d.id for d in drafts]
    if len(set(ids)) != len(ids):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        raise CorpusError(f"{where}: duplicate section ids {dupes}")
    known = set(ids)
    children: dict[str, list[str]] = {i: [] for i in ids}
    for d in drafts:
        if d.parent is not None:
            if d.parent not in known:
                raise CorpusError(f"{where}: section {d.id} has unknown parent {d.parent}")
            children[d.parent].append(d.id)
    out = []
    for k, d in enumerate(drafts):
        for ref in d.refs:
            if ref not in known:
                raise CorpusError(f"{where}: section {d.id} refers to unknown section {ref}")
        out.append(
            Section(
                id=d.id,
                game=game_id,
                title=d.title,
                kind=d.kind,
                text=d.text,
                parent=d.parent,
                children=tuple(children[d.id]),
                prev=drafts[k - 1].id if k > 0 else None,
                next=drafts[k + 1].id if k + 1 < len(drafts) else None,
                lines=d.lines,
                refs=d.refs,
            )
        )
    return out


def _load_game(game_id: str) -> tuple[GameFacts, list[Section], tuple[Term, ...], str]:
    base = _data_dir(game_id)
    where = f"rules_corpus/data/{game_id}/sections.toml"
    data = _read_toml(base.joinpath("sections.toml"))
    g = _req(data, "game", where)
    facts = GameFacts(
        id=_req(g, "id", where),
        name=_req(g, "name", where),
        summary=_req(g, "summary", where),
        players_text=_req(g, "players_text", where),
        min_players=_req(g, "min_players", where),
        max_players=_req(g, "max_players", where),
        duration_text=_req(g, "duration_text", where),
        age_text=_req(g, "age_text", where),
        modes=tuple(_req(g, "modes", where)),
        source_file=_req(g, "source_file", where),
        source_sha256=_req(g, "source_sha256", where),
        facts_section=_req(g, "facts_section", where),
    )
    if facts.id != game_id:
        raise CorpusError(f"{where}: game id {facts.id!r} does not match its folder {game_id!r}")
    text = base.joinpath("rulebook.txt").read_text(encoding="utf-8")
    drafts = _split_rulebook(game_id, text, data.get("section", []), where)
    gwhere = f"rules_corpus/data/{game_id}/glossary.toml"
    terms, gdraft = _glossary(game_id, gwhere, _read_toml(base.joinpath("glossary.toml")))
    drafts.append(gdraft)
    authored_dir = base.joinpath("authored")
    if authored_dir.is_dir():
        for entry in sorted(authored_dir.iterdir(), key=lambda p: p.name):
            if entry.name.endswith(".toml"):
                awhere = f"rules_corpus/data/{game_id}/authored/{entry.name}"
                drafts.extend(_authored(game_id, awhere, _read_toml(entry)))
    sections = _link(game_id, drafts, f"rules_corpus/data/{game_id}")
    known = {s.id for s in sections}
    for t in terms:
        for s in t.sections:
            if s not in known:
                raise CorpusError(f"{gwhere}: term {t.term!r} cites unknown section {s}")
    if facts.facts_section not in known:
        raise CorpusError(f"{where}: facts_section {facts.facts_section} is not a section")
    return facts, sections, terms, text


def build_corpus(game_ids: Iterable[str] = GAME_IDS) -> Corpus:
    """Load and check the corpus of the given games.

    Raises:
        CorpusError: the packaged data is inconsistent (names the file and section).
    """
    corpus = Corpus(games={}, sections={}, glossaries={}, rulebooks={})
    for game_id in game_ids:
        facts, sections, terms, text = _load_game(game_id)
        corpus.games[game_id] = facts
        corpus.glossaries[game_id] = terms
        corpus.rulebooks[game_id] = text
        corpus._order[game_id] = [s.id for s in sections]
        for s in sections:
            corpus.sections[s.id] = s
    return corpus


@lru_cache(maxsize=1)
def load_corpus() -> Corpus:
    """Return the packaged corpus, loaded and checked once per process.

    Raises:
        CorpusError: the packaged data is inconsistent.
    """
    return build_corpus()
