"""The rules tutor's data: three verbatim rulebooks in sections, glossaries, rulings,
component data, and ranked search over all of it.

Use :func:`load_corpus` for sections and :func:`search_index` for search; both are
loaded once per process.
"""

from functools import lru_cache

from club_agentes.rules_corpus.corpus import (
    GAME_IDS,
    Corpus,
    CorpusError,
    GameFacts,
    Section,
    Term,
    UnknownGameId,
    UnknownSection,
    load_corpus,
)
from club_agentes.rules_corpus.search import MAX_QUERY_CHARS, Hit, SearchIndex


@lru_cache(maxsize=1)
def search_index() -> SearchIndex:
    """Return the search index of the packaged corpus, built once per process.

    Raises:
        CorpusError: the packaged data is inconsistent.
    """
    return SearchIndex(load_corpus())


__all__ = [
    "GAME_IDS",
    "MAX_QUERY_CHARS",
    "Corpus",
    "CorpusError",
    "GameFacts",
    "Hit",
    "SearchIndex",
    "Section",
    "Term",
    "UnknownGameId",
    "UnknownSection",
    "load_corpus",
    "search_index",
]
