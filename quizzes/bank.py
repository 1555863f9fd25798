"""The question bank: hand-written items, vocabularies and coverage notes, loaded and checked.

Data lives in ``quizzes/data/<game>/`` (each file documents its format in a header
comment):

* ``questions.toml`` and ``riddles.toml``: one ``[[item]]`` table per item with the
  fields of :class:`~quizzes.model.Item`; ``game`` and ``kind`` may be omitted
  (they follow from the folder and the file) and must match when given. Ids are
  ``"<game>/q/<slug>"`` in ``questions.toml`` and ``"<game>/r/<slug>"`` in
  ``riddles.toml``. An ``integer`` answer is written as digits (a string such as
  ``"25"`` or a TOML integer). ``computed`` names the function that computes an
  answer not written in the cited text: ``"package.module:function"`` called with
  no arguments, or ``"package.module:function(8, 6, 5)"`` with literal arguments.
* ``vocabularies.toml``: ``[vocabulary.<name>]`` tables with a ``description`` and
  ``[[vocabulary.<name>.term]]`` entries (``term``, ``synonyms``).
* ``coverage.toml``: one ``[[section]]`` (``id``, ``reason``) per rulebook section
  that has no rule content (a title line, credits, links) and so needs no question.

An operator's **private bank** (:func:`load_private_bank`, ``serve --private-bank PATH``) is one
TOML file of ``[[item]]`` tables in the same format, for any games: each item names its ``game``
and ``kind``; ids are ``"<game>/q/<slug>"`` or ``"<game>/r/<slug>"`` and differ from the public
bank's. Its items serve entry papers only: they are never exported nor shown in practice.

:func:`load_bank` fails with :class:`BankError` naming the file, the item and the
field. Parametric items are not stored: :meth:`Bank.item` rebuilds them from their
id (``"<game>/gen/<generator>/<seed>"``) with the registered generator.
"""

from __future__ import annotations

import ast
import importlib
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from club_agentes.quizzes.grading import (
    Vocabulary,
    VocabularyTerm,
    find_terms,
    grade,
    normalize,
    numbers_in_text,
    text_contains,
)
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Generator, Item, ItemKind
from club_agentes.rules_corpus import GAME_IDS, Corpus, load_corpus

from club_agentes.manifest import manifest

UNITS = ("", "M", "%")
ITEM_FIELDS = frozenset(
    {
        "id",
        "game",
        "kind",
        "type",
        "prompt",
        "answer",
        "sections",
        "options",
        "unit",
        "vocabulary",
        "computed",
        "explanation",
        "support",
        "ruling",
    }
)
_FILES: dict[ItemKind, tuple[str, str]] = {"question": ("questions.toml", "q"), "riddle": ("riddles.toml", "r")}
_COMPUTED_RE = re.compile(r"^(?P<path>[A-Za-z_][\w.]*(?::[A-Za-z_]\w*)?)\s*(?:\((?P<args>.*)\))?$", re.DOTALL)
_SEED_LIMIT = 1 << 64


class BankError(Exception):
    """The packaged bank data is inconsistent; the message names the file, the item and the field."""


class UnknownItem(LookupError):
    """No item (hand-written or parametric) has the requested id."""


class UnknownBankGame(LookupError):
    """The bank holds no items for the requested game; the message lists the games it holds."""


@dataclass(frozen=True)
class GameBank:
    """Everything the bank holds about one game."""

    game: str
    questions: tuple[Item, ...]
    riddles: tuple[Item, ...]
    vocabularies: Mapping[str, Vocabulary]
    uncovered: Mapping[str, str]

    @property
    def items(self) -> tuple[Item, ...]:
        """Every hand-written item: questions, then riddles."""
        return self.questions + self.riddles

    def generators(self, kind: ItemKind | None = None) -> list[Generator]:
        """Return the registered generators of this game (of one kind, or all), sorted by name."""
        gens = [g for g in GENERATORS.values() if g.game == self.game and kind in (None, g.kind)]
        return sorted(gens, key=lambda g: g.name)


@dataclass
class Bank:
    """The hand-written items of every loaded game, with lookup of any item by id."""

    games: dict[str, GameBank]
    _by_id: dict[str, Item] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for gb in self.games.values():
            for it in gb.items:
                self._by_id[it.id] = it

    def game(self, game_id: str) -> GameBank:
        """Return one game's bank.

        Raises:
            UnknownBankGame: the bank holds no such game; the message lists the valid ids.
        """
        try:
            return self.games[game_id]
        except KeyError:
            valid = ", ".join(self.games)
            raise UnknownBankGame(f"unknown game {game_id!r}; valid game ids are: {valid}") from None

    def item(self, item_id: str) -> Item:
        """Return a hand-written item by id, or rebuild a parametric one from its id.

        Raises:
            UnknownItem: no such hand-written item, no such generator, or a malformed seed.
        """
        found = self._by_id.get(item_id)
        if found is not None:
            return found
        parts = item_id.split("/")
        if len(parts) == 4 and parts[1] == "gen" and parts[0] in self.games:
            gen = GENERATORS.get(f"{parts[0]}/{parts[2]}")
            if gen is not None and parts[3].isdigit() and int(parts[3]) < _SEED_LIMIT:
                return gen.make(int(parts[3]))
        raise UnknownItem(f"no item has the id {item_id!r}")

    def vocabulary(self, item: Item) -> Vocabulary | None:
        """Return the vocabulary a ``term`` item is graded against (``None`` for other types).

        Raises:
            UnknownBankGame: the item's game is not in the bank.
            UnknownItem: the item names a vocabulary its game does not declare.
        """
        if item.type != "term":
            return None
        vocab = self.game(item.game).vocabularies.get(item.vocabulary)
        if vocab is None:
            raise UnknownItem(f"item {item.id} names the unknown vocabulary {item.vocabulary!r}")
        return vocab

    def citing(self, section_id: str) -> list[Item]:
        """Return the hand-written items that cite ``section_id``, in bank order."""
        game = section_id.split("/", 1)[0]
        gb = self.games.get(game)
        return [it for it in gb.items if section_id in it.sections] if gb else []


# --------------------------------------------------------------------------- computed answers


def parse_computed(spec: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """Resolve a ``computed`` field to the function it names and its literal arguments.

    Accepts ``"package.module:function"``, ``"package.module.function"`` and either
    followed by ``"(literal, arguments)"``.

    Raises:
        ValueError: the text is malformed, the arguments are not Python literals, or the
            module or function does not exist (or is not callable).
    """
    m = _COMPUTED_RE.match(spec.strip())
    if m is None:
        raise ValueError(f"{spec!r} is not 'package.module:function' optionally followed by '(arguments)'")
    path = m.group("path")
    module_name, _, attr = path.partition(":") if ":" in path else path.rpartition(".")
    if not module_name or not attr:
        raise ValueError(f"{spec!r} does not name a module and a function")
    args: tuple[Any, ...] = ()
    if m.group("args") is not None and m.group("args").strip():
        try:
            args = ast.literal_eval("(" + m.group("args") + ",)")
        except (ValueError, SyntaxError) as exc:
            raise ValueError(f"the arguments of {spec!r} are not Python literals: {exc}") from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"{spec!r} names the module {module_name!r}, which cannot be imported: {exc}") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise ValueError(f"{spec!r} names {attr!r}, which is not a function of {module_name}")
    return fn, args


def computed_value(spec: str) -> Any:
    """Call the function a ``computed`` field names and return its result.

    Raises:
        ValueError: as :func:`parse_computed`.
        Exception: whatever the named function raises.
    """
    fn, args = parse_computed(spec)
    return fn(*args)


def computed_agrees(item: Item, value: Any) -> bool:
    """Whether a computed ``value`` is the item's answer.

    An ``integer`` answer agrees with an equal number; a ``choice`` with its letter or its
    option's text; a ``term`` with the canonical term. Never raises.
    """
    if item.type == "integer":
        if isinstance(value, bool) or not isinstance(value, int | Fraction | str):
            return False
        try:
            return Fraction(value) == Fraction(int(item.answer))
        except (ValueError, ZeroDivisionError):
            return False
    if item.type == "choice":
        if not isinstance(value, str):
            return False
        if value == item.answer:
            return True
        index = CHOICE_LETTERS.index(item.answer)
        return normalize(value) == normalize(item.options[index])
    return value == item.answer


# --------------------------------------------------------------------------- checks


def _frame_problems(item: Item, corpus: Corpus) -> list[tuple[str, str]]:
    """Id, kind, prompt and cited sections."""
    out: list[tuple[str, str]] = []
    if not item.id.startswith(f"{item.game}/"):
        out.append(("id", f"must start with {item.game}/"))
    if item.kind not in ("question", "riddle"):
        out.append(("kind", f"must be 'question' or 'riddle', not {item.kind!r}"))
    if not item.prompt.strip():
        out.append(("prompt", "is empty"))
    if not item.sections:
        out.append(("sections", "must cite at least one section"))
    for sid in item.sections:
        if not corpus.has(sid):
            out.append(("sections", f"cites {sid!r}, which is not a corpus section"))
        elif corpus.sections[sid].game != item.game:
            out.append(("sections", f"cites {sid!r}, which belongs to another game"))
    if item.ruling and item.ruling not in item.sections:
        out.append(("ruling", f"names {item.ruling!r}, which the item does not cite"))
    return out


def _integer_problems(item: Item) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if item.type == "integer":
        if not re.fullmatch(r"\d+", item.answer):
            out.append(("answer", f"an integer answer must be digits, not {item.answer!r}"))
        if item.unit not in UNITS:
            out.append(("unit", f"must be one of {UNITS}, not {item.unit!r}"))
    elif item.unit:
        out.append(("unit", "is only for integer answers"))
    return out


def _choice_problems(item: Item) -> list[tuple[str, str]]:
    if item.type != "choice":
        return [("options", "are only for choice answers")] if item.options else []
    out: list[tuple[str, str]] = []
    if len(item.options) != 4:
        out.append(("options", f"a choice needs exactly 4 options, not {len(item.options)}"))
    normalized = [normalize(o) for o in item.options]
    if any(not n for n in normalized):
        out.append(("options", "an option is empty once normalised"))
    if len(set(normalized)) != len(normalized):
        out.append(("options", "two options are the same once normalised"))
    if item.answer not in CHOICE_LETTERS[: len(item.options)]:
        out.append(("answer", f"a choice answer is one of the letters A-D, not {item.answer!r}"))
    return out


def _term_problems(item: Item, vocabularies: Mapping[str, Vocabulary]) -> list[tuple[str, str]]:
    if item.type != "term":
        return [("vocabulary", "is only for term answers")] if item.vocabulary else []
    vocab = vocabularies.get(item.vocabulary)
    if vocab is None:
        return [("vocabulary", f"{item.vocabulary!r} is not declared in vocabularies.toml")]
    if vocab.find(item.answer) is None:
        return [("answer", f"{item.answer!r} is not a term of the vocabulary {item.vocabulary!r}")]
    return []


def item_problems(item: Item, corpus: Corpus, vocabularies: Mapping[str, Vocabulary]) -> list[tuple[str, str]]:
    """Return what is wrong with one item, as ``(field, message)`` pairs (empty when well formed).

    Checks: id shape, answer type, non-empty prompt, sections that exist in the game's
    corpus (the ruling, if any, among them), exactly four distinct options and a letter answer
    for ``choice``, digits for ``integer`` and a known unit, a declared vocabulary and one of its
    terms for ``term``, and a ``computed`` function that exists. Never raises.
    """
    out = _frame_problems(item, corpus) + _integer_problems(item) + _choice_problems(item)
    out += _term_problems(item, vocabularies)
    if item.type not in ("integer", "choice", "term"):
        out.append(("type", f"must be integer, choice or term, not {item.type!r}"))
    if item.computed:
        try:
            parse_computed(item.computed)
        except ValueError as exc:
            out.append(("computed", str(exc)))
    return out


def support_problem(item: Item, corpus: Corpus, vocabularies: Mapping[str, Vocabulary]) -> str | None:
    """Return why a hand-written answer is not supported by its cited text, or ``None`` if it is.

    Supported means: the integer appears in the cited text as digits or words; the term
    or one of its synonyms appears there; the correct option's normalised text appears in
    the normalised cited text. An item with ``computed`` is supported when the named
    function returns the answer.

    Raises:
        KeyError: the item cites a section the corpus does not have (check
            :func:`item_problems` first).
    """
    if item.computed:
        try:
            value = computed_value(item.computed)
        except Exception as exc:  # the named function is data-driven; any failure is a finding
            return f"computed function {item.computed!r} failed: {exc!r}"
        if computed_agrees(item, value):
            return None
        return f"computed function {item.computed!r} returns {value!r}, not the answer {item.answer!r}"
    text = "\n".join(corpus.sections[s].text for s in item.sections)
    if item.type == "integer":
        if Fraction(int(item.answer)) in numbers_in_text(text, item.unit):
            return None
        return f"the number {item.answer} does not appear in the cited sections"
    if item.support:
        if text_contains(text, item.support):
            return None
        return f"the support quote {item.support!r} does not appear in the cited sections"
    if item.type == "choice":
        option = item.options[CHOICE_LETTERS.index(item.answer)]
        if text_contains(text, option):
            return None
        return f"the text of option {item.answer} ({option!r}) does not appear in the cited sections"
    vocab = vocabularies[item.vocabulary]
    entry = vocab.find(item.answer)
    only = Vocabulary(vocab.name, vocab.description, (entry,) if entry else ())
    if item.answer in find_terms(text, only):
        return None
    return f"neither the term {item.answer!r} nor a synonym appears in the cited sections"


MIN_VOCABULARY_TERMS = 4
MAX_QUOTED_RUN = 7
"""An entry prompt shares at most this many consecutive words with the text of a section it cites."""


def longest_shared_run(prompt: str, text: str) -> int:
    """Return the longest run of consecutive words that ``prompt`` and ``text`` share, both normalised.

    An entry item's prompt must not quote the rule that decides it: the tests hold this run at most
    :data:`MAX_QUOTED_RUN` for every section the item cites. Never raises.
    """
    a, b = normalize(prompt).split(), normalize(text).split()
    best = 0
    previous = [0] * (len(b) + 1)
    for word in a:
        current = [0] * (len(b) + 1)
        for j, other in enumerate(b, 1):
            if word == other:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best


@lru_cache(maxsize=8)
def _spaced_normal_form(text: str) -> str:
    """Return ``text`` normalised (:func:`normalize`) between two spaces, for whole-token search.

    Cached: a rulebook is searched once per option of every item checked, and normalising a
    whole rulebook costs far more than the search.
    """
    return f" {normalize(text)} "


def verbatim_options(item: Item, rulebook: str) -> list[str]:
    """Return the letters of the options of a choice item whose text appears word for word in ``rulebook``.

    "Word for word" is :func:`text_contains` (accents, case and punctuation folded): the option's
    normalised tokens occur as a contiguous run of the rulebook's. Both normal forms are tokens
    joined by single spaces, so that is a substring test between spaces, on the rulebook's
    normal form computed once per rulebook. Never raises.
    """
    haystack = _spaced_normal_form(rulebook)
    found = []
    for i, option in enumerate(item.options):
        needle = normalize(option)
        if needle and f" {needle} " in haystack:
            found.append(CHOICE_LETTERS[i])
    return found


def form_problems(item: Item, rulebook: str, vocabularies: Mapping[str, Vocabulary]) -> list[tuple[str, str]]:
    """Return the ways an item gives its answer away by its form, as ``(field, message)`` pairs.

    ``rulebook`` is the game's whole rulebook text. Found:

    * a choice item whose right option is the only one found verbatim in the rulebook
      (grepping the rulebook would answer it);
    * an item that accepts its own prompt as the answer (the prompt's words name it);
    * a term item over a vocabulary of fewer than four terms (one wrong try gives it away).

    Never raises.
    """
    out: list[tuple[str, str]] = []
    if item.type == "choice" and len(item.options) == 4:
        found = verbatim_options(item, rulebook)
        if found == [item.answer]:
            out.append(("options", "only the right option appears word for word in the rulebook"))
    vocab = vocabularies.get(item.vocabulary) if item.type == "term" else None
    if item.type == "term" and vocab is not None and len(vocab.terms) < MIN_VOCABULARY_TERMS:
        out.append(("vocabulary", f"{vocab.name!r} has {len(vocab.terms)} terms; at least {MIN_VOCABULARY_TERMS}"))
    if _echoed(item, vocab):
        out.append(("prompt", "the prompt's own words are accepted as the answer"))
    return out


def _echoed(item: Item, vocab: Vocabulary | None) -> bool:
    try:
        return grade(item, item.prompt, vocab).correct
    except Exception:  # a grader failure on any string is the grader's defect, reported by its own tests
        return False


@lru_cache(maxsize=8)
def _game_vocabularies(game: str) -> dict[str, Vocabulary]:
    return load_vocabularies(game)


def echoes(item: Item) -> bool:
    """Whether ``item``'s own prompt, given back as the answer, is graded right. Never raises.

    The grader is asked only when the prompt names the answer at all (its number, its term, its
    option's text, or an option letter); a game without packaged vocabularies reads as no echo
    for its term items.
    """
    try:
        vocab = _game_vocabularies(item.game).get(item.vocabulary) if item.type == "term" else None
    except BankError:
        return False
    if item.type == "integer":
        named = Fraction(int(item.answer)) in numbers_in_text(item.prompt, item.unit)
    elif item.type == "term":
        entry = vocab.find(item.answer) if vocab is not None else None
        prompt = f" {normalize(item.prompt)} "
        forms = [normalize(f) for f in entry.forms] if entry else []
        named = any(f" {f}{end} " in prompt for f in forms if f for end in ("", "s", "es"))
    else:
        named = True
    return named and _echoed(item, vocab)


# --------------------------------------------------------------------------- loading


def _data_dir(game: str, root: Path | None) -> tuple[Any, str]:
    """Return a game's data folder and the label used in messages (``quizzes/data/<game>``)."""
    if root is None:
        m = manifest(game)
        folder = m.bank_dir() if m is not None else None
        if folder is None:
            folder = resources.files("club_agentes.quizzes").joinpath("data", "_none_", game)
        return folder, f"quizzes/data/{game}"
    return Path(root) / game, f"{root}/{game}"


def _read_toml(path: Any, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise BankError(f"{where}: {exc}") from exc
    except FileNotFoundError:
        raise BankError(f"{where}: the file is missing") from None


def _str_field(entry: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str:
    if key not in entry:
        if required:
            raise BankError(f"{where}: field {key!r} is missing")
        return ""
    value = entry[key]
    if not isinstance(value, str):
        raise BankError(f"{where}: field {key!r} must be a string, not {type(value).__name__}")
    return value


def _str_list(entry: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BankError(f"{where}: field {key!r} must be a list of strings")
    return tuple(value)


def load_vocabularies(game: str, root: Path | None = None) -> dict[str, Vocabulary]:
    """Load ``quizzes/data/<game>/vocabularies.toml`` (or ``<root>/<game>/vocabularies.toml``).

    Raises:
        BankError: the file is missing or malformed, a vocabulary is empty, or two terms
            of one vocabulary share a form once normalised (names file, vocabulary, term, field).
    """
    folder, label = _data_dir(game, root)
    where = f"{label}/vocabularies.toml"
    data = _read_toml(folder.joinpath("vocabularies.toml"), where)
    unknown = set(data) - {"vocabulary"}
    if unknown:
        raise BankError(f"{where}: unknown top-level keys {sorted(unknown)}; only [vocabulary.<name>] tables")
    out: dict[str, Vocabulary] = {}
    for name, body in data.get("vocabulary", {}).items():
        here = f"{where}: vocabulary {name!r}"
        if not isinstance(body, dict):
            raise BankError(f"{here}: must be a table")
        description = _str_field(body, "description", here)
        entries = body.get("term", [])
        if not isinstance(entries, list) or not entries:
            raise BankError(f"{here}: field 'term' must hold at least one [[vocabulary.{name}.term]]")
        terms: list[VocabularyTerm] = []
        seen: dict[str, str] = {}
        for entry in entries:
            there = f"{here}: term {entry.get('term')!r}"
            extra = set(entry) - {"term", "synonyms"}
            if extra:
                raise BankError(f"{there}: unknown fields {sorted(extra)}")
            term = VocabularyTerm(_str_field(entry, "term", there), _str_list(entry, "synonyms", there))
            for form in term.forms:
                norm = normalize(form)
                if not norm:
                    raise BankError(f"{there}: field 'synonyms' holds {form!r}, which is empty once normalised")
                if norm in seen and seen[norm] != term.term:
                    raise BankError(f"{there}: form {form!r} also names the term {seen[norm]!r}")
                seen[norm] = term.term
            terms.append(term)
        out[name] = Vocabulary(name, description, tuple(terms))
    return out


def load_coverage(game: str, corpus: Corpus, root: Path | None = None) -> dict[str, str]:
    """Load ``quizzes/data/<game>/coverage.toml``: rulebook sections without rule content, with reasons.

    Raises:
        BankError: the file is missing or malformed, or an entry names an unknown or
            non-rulebook section, repeats one, or gives no reason.
    """
    folder, label = _data_dir(game, root)
    where = f"{label}/coverage.toml"
    data = _read_toml(folder.joinpath("coverage.toml"), where)
    unknown = set(data) - {"section"}
    if unknown:
        raise BankError(f"{where}: unknown top-level keys {sorted(unknown)}; only [[section]] entries")
    out: dict[str, str] = {}
    for entry in data.get("section", []):
        sid = _str_field(entry, "id", f"{where}: section")
        here = f"{where}: section {sid!r}"
        extra = set(entry) - {"id", "reason"}
        if extra:
            raise BankError(f"{here}: unknown fields {sorted(extra)}")
        reason = _str_field(entry, "reason", here).strip()
        if not reason:
            raise BankError(f"{here}: field 'reason' is empty")
        if not corpus.has(sid) or corpus.sections[sid].game != game:
            raise BankError(f"{here}: field 'id' names no section of {game}")
        if corpus.sections[sid].kind != "rulebook":
            raise BankError(f"{here}: field 'id' names a {corpus.sections[sid].kind} section; list rulebook ones")
        if sid in out:
            raise BankError(f"{here}: listed twice")
        out[sid] = reason
    return out


def _build_item(game: str, kind: ItemKind, entry: Mapping[str, Any], where: str) -> Item:
    if not isinstance(entry, dict):
        raise BankError(f"{where}: each [[item]] must be a table")
    iid = entry.get("id")
    here = f"{where}: item {iid!r}"
    extra = set(entry) - ITEM_FIELDS
    if extra:
        raise BankError(f"{here}: unknown fields {sorted(extra)}; the fields are those of quizzes.model.Item")
    iid = _str_field(entry, "id", here)
    prefix = f"{game}/{_FILES[kind][1]}/"
    if not iid.startswith(prefix) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", iid[len(prefix) :]):
        raise BankError(f"{here}: field 'id' must be {prefix}<slug> with a lowercase slug of letters, digits, '-'")
    for key, expected in (("game", game), ("kind", kind)):
        if key in entry and entry[key] != expected:
            raise BankError(f"{here}: field {key!r} is {entry[key]!r}, but the file holds {expected!r} items")
    answer = entry.get("answer")
    if isinstance(answer, int) and not isinstance(answer, bool):
        answer = str(answer)
    if not isinstance(answer, str):
        raise BankError(f"{here}: field 'answer' must be a string (or an integer for integer answers)")
    return Item(
        id=iid,
        game=game,
        kind=kind,
        type=_str_field(entry, "type", here),  # type: ignore[arg-type]  # checked by item_problems
        prompt=_str_field(entry, "prompt", here).strip(),
        answer=answer.strip(),
        sections=_str_list(entry, "sections", here),
        options=_str_list(entry, "options", here),
        unit=_str_field(entry, "unit", here, required=False),
        vocabulary=_str_field(entry, "vocabulary", here, required=False),
        computed=_str_field(entry, "computed", here, required=False),
        explanation=_str_field(entry, "explanation", here, required=False).strip(),
        support=_str_field(entry, "support", here, required=False).strip(),
        ruling=_str_field(entry, "ruling", here, required=False).strip(),
    )


def load_items(
    game: str,
    kind: ItemKind,
    corpus: Corpus,
    vocabularies: Mapping[str, Vocabulary],
    root: Path | None = None,
) -> tuple[Item, ...]:
    """Load the hand-written questions or riddles of a game and check each one.

    Raises:
        BankError: the file is missing or malformed, or an item is not well formed
            (see :func:`item_problems`); names the file, the item and the field.
    """
    filename = _FILES[kind][0]
    folder, label = _data_dir(game, root)
    where = f"{label}/{filename}"
    data = _read_toml(folder.joinpath(filename), where)
    unknown = set(data) - {"item"}
    if unknown:
        raise BankError(f"{where}: unknown top-level keys {sorted(unknown)}; only [[item]] entries")
    items = []
    for entry in data.get("item", []):
        item = _build_item(game, kind, entry, where)
        problems = item_problems(item, corpus, vocabularies)
        if problems:
            fld, msg = problems[0]
            raise BankError(f"{where}: item {item.id!r}: field {fld!r} {msg}")
        items.append(item)
    return tuple(items)


def load_game_bank(game: str, corpus: Corpus | None = None, root: Path | None = None) -> GameBank:
    """Load and check one game's bank from ``quizzes/data/<game>/`` (or ``<root>/<game>/``).

    Raises:
        BankError: a file is missing or malformed, an item is not well formed, or two
            items share an id (names the file, the item and the field).
    """
    corpus = corpus or load_corpus()
    vocabularies = load_vocabularies(game, root)
    questions = load_items(game, "question", corpus, vocabularies, root)
    riddles = load_items(game, "riddle", corpus, vocabularies, root)
    seen: set[str] = set()
    for it in questions + riddles:
        if it.id in seen:
            label = _data_dir(game, root)[1]
            raise BankError(f"{label}/{_FILES[it.kind][0]}: item {it.id!r}: field 'id' is used twice")
        seen.add(it.id)
    return GameBank(game, questions, riddles, vocabularies, load_coverage(game, corpus, root))


def available_games() -> list[str]:
    """Return the corpus games that have a bank folder in ``quizzes/data/``, in corpus order."""
    return [g for g in GAME_IDS if _data_dir(g, None)[0].is_dir()]


def load_bank(games: Iterable[str] | None = None, corpus: Corpus | None = None, root: Path | None = None) -> Bank:
    """Load and check the banks of ``games`` (default: every game with a bank folder).

    ``root`` replaces the packaged ``quizzes/data`` folder (for tests of faulty data).

    Also imports :mod:`club_agentes.quizzes.generators`, so that the parametric generators are registered.

    Raises:
        BankError: a game's data is missing or inconsistent (names file, item and field).
    """
    import club_agentes.quizzes.generators  # noqa: F401  (registers the generators)

    corpus = corpus or load_corpus()
    chosen = available_games() if games is None else list(games)
    return Bank({g: load_game_bank(g, corpus, root) for g in chosen})


@lru_cache(maxsize=1)
def default_bank() -> Bank:
    """Return the packaged bank of every game with a bank folder, loaded once per process.

    Raises:
        BankError: the packaged data is inconsistent.
    """
    return load_bank()


# --------------------------------------------------------------------------- the private bank


@dataclass(frozen=True)
class PrivateBank:
    """An operator's private items, by game: entry papers only (never exported, never in practice).

    Attributes:
        by_game: the items of each game, in file order.
    """

    by_game: Mapping[str, tuple[Item, ...]]

    def items(self, game: str, kind: ItemKind | None = None) -> list[Item]:
        """Return the private items of ``game`` (of one kind, or all)."""
        return [it for it in self.by_game.get(game, ()) if kind in (None, it.kind)]

    def get(self, item_id: str) -> Item | None:
        """Return the private item with this id, or ``None``."""
        game = item_id.split("/", 1)[0]
        return next((it for it in self.by_game.get(game, ()) if it.id == item_id), None)

    def __len__(self) -> int:
        return sum(len(v) for v in self.by_game.values())


def load_private_bank(path: str | Path, bank: Bank, corpus: Corpus | None = None) -> PrivateBank:
    """Load and check an operator's private bank file (see the module docstring for its format).

    Each item must be well formed (:func:`item_problems`), supported by its cited text
    (:func:`support_problem`), not give its answer away by its form (:func:`form_problems`), name
    a game of ``bank`` (term items use that game's vocabularies), and have an id the public bank
    does not use.

    Raises:
        BankError: the file is missing or malformed, or an item fails a check (names the file,
            the item and the field).
    """
    corpus = corpus or load_corpus()
    where = str(path)
    data = _read_toml(Path(path), where)
    unknown = set(data) - {"item"}
    if unknown:
        raise BankError(f"{where}: unknown top-level keys {sorted(unknown)}; only [[item]] entries")
    entries = data.get("item", [])
    if not isinstance(entries, list) or not entries:
        raise BankError(f"{where}: the file holds no [[item]]")
    by_game: dict[str, list[Item]] = {}
    seen: set[str] = set()
    kinds: dict[str, ItemKind] = {"question": "question", "riddle": "riddle"}
    for entry in entries:
        if not isinstance(entry, dict):
            raise BankError(f"{where}: each [[item]] must be a table")
        here = f"{where}: item {entry.get('id')!r}"
        game = entry.get("game")
        if game not in bank.games:
            raise BankError(f"{here}: field 'game' must be one of {', '.join(bank.games)}, not {game!r}")
        kind = kinds.get(str(entry.get("kind")))
        if kind is None:
            raise BankError(f"{here}: field 'kind' must be 'question' or 'riddle'")
        item = _build_item(game, kind, entry, where)
        gb = bank.games[game]
        problems = item_problems(item, corpus, gb.vocabularies)
        if not problems:
            support = support_problem(item, corpus, gb.vocabularies)
            if support is not None:
                problems = [("answer", support)]
        if not problems:
            rulebook = "\n".join(s.text for s in corpus.toc(game) if s.kind == "rulebook")
            problems = form_problems(item, rulebook, gb.vocabularies)
        if problems:
            fld, msg = problems[0]
            raise BankError(f"{here}: field {fld!r} {msg}")
        if item.id in seen or item.id in bank._by_id:
            raise BankError(f"{here}: field 'id' is used twice (in this file or in the public bank)")
        seen.add(item.id)
        by_game.setdefault(game, []).append(item)
    return PrivateBank({g: tuple(items) for g, items in by_game.items()})
