"""Ranked full-text search over corpus sections (Okapi BM25).

Text is folded before indexing and querying: lower case, accents removed, light
Spanish plural folding ("inversiones" -> "inversion", "jugadores" -> "jugador",
"fases" -> "fase"), Spanish stop words dropped. Query terms are expanded through
the game's glossary, so "clan" also finds "familia" and "tribu".
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from club_agentes.engine.core.text import fold
from club_agentes.rules_corpus.corpus import Corpus, Section, Term

MAX_QUERY_CHARS = 300

STOPWORDS = frozenset(
    [
        "a",
        "al",
        "algo",
        "ante",
        "antes",
        "como",
        "con",
        "cual",
        "cuando",
        "de",
        "del",
        "desde",
        "donde",
        "e",
        "el",
        "ella",
        "ellas",
        "ellos",
        "en",
        "entre",
        "es",
        "esa",
        "ese",
        "eso",
        "esta",
        "este",
        "esto",
        "estas",
        "estos",
        "fue",
        "ha",
        "hay",
        "la",
        "las",
        "le",
        "les",
        "lo",
        "los",
        "mas",
        "me",
        "mi",
        "mis",
        "muy",
        "ni",
        "nos",
        "o",
        "os",
        "para",
        "pero",
        "por",
        "que",
        "se",
        "si",
        "sin",
        "sobre",
        "son",
        "su",
        "sus",
        "te",
        "ti",
        "tu",
        "tus",
        "u",
        "un",
        "una",
        "unas",
        "uno",
        "unos",
        "y",
        "ya",
        "yo",
    ]
)

# Words too common in card-game text to carry a synonym group's meaning.
_GENERIC = frozenset({"carta", "tarjeta", "mazo"})

_TOKEN = re.compile(r"[0-9]+(?:[.,][0-9]+)*[a-z]*|[a-z]+|\$|\+r", re.UNICODE)


def singular(word: str) -> str:
    """Fold a Spanish plural to its singular, lightly and consistently.

    Example:
        >>> [singular(w) for w in ["inversiones", "jugadores", "fases", "cartas", "veces", "mes"]]
        ['inversion', 'jugador', 'fase', 'carta', 'vez', 'mes']
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ces"):
        return word[:-3] + "z"
    if word.endswith("iones"):
        return word[:-2]
    if word.endswith("es") and word[-3] in "rlndj":
        return word[:-2]
    if word.endswith("s") and word[-2] in "aeiou":
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Return the folded, singularised, stop-word-free tokens of ``text``."""
    return [singular(t) for t in _TOKEN.findall(fold(text)) if t not in STOPWORDS]


@dataclass(frozen=True)
class Hit:
    """One search result."""

    section: Section
    score: float
    snippet: str
    matched: tuple[str, ...]


class SearchIndex:
    """BM25 index of every section of a corpus (title words count twice).

    Synonyms are scored as one term: the term frequency of a concept is the sum of
    its names' frequencies and its document frequency counts sections naming any.
    """

    K1 = 1.4
    B = 0.75

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.docs: dict[str, Counter[str]] = {}
        self.lengths: dict[str, int] = {}
        for sid, section in corpus.sections.items():
            toks = tokens(section.title) * 2 + tokens(section.text)
            counts = Counter(toks)
            self.docs[sid] = counts
            self.lengths[sid] = len(toks)
        self.n = len(self.docs)
        self.avg_len = sum(self.lengths.values()) / max(self.n, 1)
        self.synonyms = {g: _synonym_map(corpus.glossaries[g]) for g in corpus.games}
        self._folded: dict[str, str] = {}  # section id -> its folded text, made on its first snippet
        self._idfs: dict[frozenset[str], float] = {}  # the corpus never changes: each concept's idf once

    def concepts(self, query_tokens: list[str], game: str | None) -> list[frozenset[str]]:
        """Group the query's tokens into concepts: each token with its glossary synonyms.

        A concept counts as one term when scoring, so a section that names a thing
        by any of its names ("clan", "tribu", "familia") matches it equally.
        """
        games = [game] if game else list(self.synonyms)
        out: list[frozenset[str]] = []
        for tok in query_tokens:
            group = {tok}
            for g in games:
                group |= self.synonyms[g].get(tok, set())
            concept = frozenset(group)
            if concept not in out:
                out.append(concept)
        return out

    def search(self, query: str, game: str | None = None, limit: int = 10) -> list[Hit]:
        """Return the best sections for ``query``, best first.

        Args:
            query: free text, Spanish or English; at most ``MAX_QUERY_CHARS`` characters.
            game: restrict to one game id, or ``None`` for all games.
            limit: the largest number of hits to return.

        Raises:
            ValueError: the query is empty, has no searchable word, or is too long.
        """
        if not query.strip():
            raise ValueError("the query is empty; give one or more words, e.g. 'regla de las 8 cartas'")
        if len(query) > MAX_QUERY_CHARS:
            raise ValueError(f"the query has {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
        q = tokens(query)
        if not q:
            raise ValueError("the query has only stop words or punctuation; give a meaningful word")
        concepts = self.concepts(q, game)
        idf = [self._idf(c) for c in concepts]
        scored: list[tuple[float, str, list[str]]] = []
        for sid, counts in self.docs.items():
            if game and not sid.startswith(game + "/"):
                continue
            score = 0.0
            matched: list[str] = []
            norm = self.K1 * (1 - self.B + self.B * self.lengths[sid] / self.avg_len)
            for concept, w in zip(concepts, idf, strict=True):
                tf = 0
                for term in concept:
                    n = counts.get(term, 0)
                    if n:
                        tf += n
                        matched.append(term)
                if tf:
                    score += w * tf * (self.K1 + 1) / (tf + norm)
            if score > 0:
                scored.append((score, sid, matched))
        scored.sort(key=lambda x: (-x[0], x[1]))
        hits = []
        for score, sid, matched in scored[:limit]:
            section = self.corpus.sections[sid]
            folded = self._folded.get(sid)
            if folded is None:
                folded = self._folded[sid] = fold(section.text)
            hits.append(Hit(section, round(score, 4), snippet(section.text, matched, folded=folded), tuple(matched)))
        return hits

    def _idf(self, concept: frozenset[str]) -> float:
        idf = self._idfs.get(concept)
        if idf is None:
            df = sum(1 for counts in self.docs.values() if any(t in counts for t in concept))
            idf = self._idfs[concept] = math.log(1 + (self.n - df + 0.5) / (df + 0.5))
        return idf


def _synonym_map(terms: Iterable[Term]) -> dict[str, set[str]]:
    """Map each one-word name of a glossary group to the group's other one-word names.

    Generic words ("carta", "tarjeta") are dropped first, so "tarjeta de clan" is
    the one word "clan"; names of several words ("jefe de la negociación") are not
    used for expansion, since their words mean other things alone.
    """
    out: dict[str, set[str]] = {}
    for term in terms:
        group: set[str] = set()
        for form in term.forms:
            words = [t for t in tokens(form) if t not in _GENERIC]
            if len(words) == 1:
                group.add(words[0])
        for tok in group:
            out.setdefault(tok, set()).update(group - {tok})
    return out


def snippet(text: str, matched: Iterable[str], width: int = 160, *, folded: str | None = None) -> str:
    """Return about ``width`` characters of ``text`` around the first matched token.

    ``folded`` is ``fold(text)`` when the caller has it already.
    """
    if folded is None:
        folded = fold(text)
    wanted = set(matched)
    first = len(text)
    for m in _TOKEN.finditer(folded):
        if singular(m.group()) in wanted:
            first = m.start()
            break
    if first == len(text):
        first = 0
    start = max(0, first - width // 3)
    end = min(len(text), start + width)
    piece = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")
