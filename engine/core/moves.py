"""One codec for every game's moves: declare a move type once, get its JSON form, text form,
parser and JSON schema.

A move type is a frozen dataclass with a ``type`` tag, registered on its game's
:class:`MoveCodec` with a text template and a one-line description::

    MOVES = MoveCodec("Market Fortune move")

    @MOVES.move("risk {stock} {ret}", "Arriesgar: form an investment from 1 $ and 1 +R of one industry.")
    @dataclass(frozen=True, slots=True)
    class Risk:
        type: ClassVar[str] = "risk"
        stock: str = spec(CARD, "the Acción ($) card id, e.g. MF-A-ENE-3")
        ret: str = spec(CARD, "the Rendimiento (+R) card id, e.g. MF-R-ENE-2", json="return")

Each field's *kind* (:class:`Int`, :class:`Seat`, :class:`Choice`, :class:`Ident`, :class:`Flag`,
:class:`Maybe`, or a game's own :class:`FieldKind`) says how the value is written in JSON and in
text, how it is read back and checked, and its schema. From that one declaration the codec
derives:

* ``move.to_json()`` -> ``{"type": "risk", "stock": "MF-A-ENE-3", "return": "MF-R-ENE-2"}``
* ``move.text()`` -> ``"risk MF-A-ENE-3 MF-R-ENE-2"`` (seats are written ``seat 2``, never a bare number)
* ``MOVES.parse(json_or_text)`` -> the move, or :class:`~club_agentes.engine.core.errors.InvalidMove`
  with one sentence naming what is accepted;
* ``MOVES.schema()`` -> a JSON schema (draft 2020-12) with one branch per move type;
* ``MOVES.examples()`` -> one example text per accepted form (for refusals of free text).

Template grammar: words separated by spaces. ``{field}`` is a field's value (a kind may read
several words, e.g. ``seat 2``); any other word is a literal; ``key={field}`` writes the value
right after ``key=``; ``[ ... ]`` is an optional group, written only when its fields are set
(not ``None``/``False``) and read when present. A run of optional groups at the end of a
template may be given in any order. Literals, choice values and aliases are matched without
accents or case; a codec may also ignore *filler* words (``"the"``, ``"de"``) and rewrite whole
*phrases* (``"vamos a negociar"`` -> ``"negotiate"``) before reading, and a move may accept
*aliases* for its first word (``"negociar"``), so older or Spanish forms keep parsing.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass
from typing import Any, TypeVar

from club_agentes.engine.core.errors import InvalidMove
from club_agentes.engine.core.text import fold

JSON = dict[str, Any]
T = TypeVar("T")

_FIELD_KEY = "club_agentes.move_field"
MAX_MOVE_TEXT = 500


def _plain(text: str) -> str:
    """Return ``text`` as the codec reads it: :func:`fold`-ed, other non-ASCII characters dropped, spaces collapsed."""
    return " ".join(fold(text).encode("ascii", "ignore").decode("ascii").split())


def _short(raw: Any, limit: int = 60) -> str:
    text = repr(raw)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------------- field kinds


class FieldKind:
    """How one field's value is written, read back and described. Subclass for a game's own kinds.

    Attributes:
        description: what the value is, for people and models (the schema's description).
    """

    description: str = ""

    def schema(self) -> JSON:
        """Return the JSON schema of the field's JSON value."""
        raise NotImplementedError

    def from_json(self, raw: Any, where: str) -> Any:
        """Return the value read from its JSON form.

        Raises:
            InvalidMove: not a valid value; the message names ``where`` and what is accepted.
        """
        raise NotImplementedError

    def to_json(self, value: Any) -> Any:
        """Return the JSON form of ``value``."""
        return value

    def from_text(self, words: Sequence[str], i: int) -> tuple[Any, int] | None:
        """Read a value from ``words[i:]`` (folded words); return ``(value, next index)`` or ``None``."""
        raise NotImplementedError

    def to_text(self, value: Any) -> str:
        """Return the text form of ``value`` (one or more words)."""
        return str(value)

    def example(self) -> Any:
        """Return an example value (used to show each accepted text form)."""
        raise NotImplementedError

    def is_set(self, value: Any) -> bool:
        """Return whether ``value`` counts as given (an optional group is written only when it is)."""
        return value is not None


@dataclass(frozen=True)
class Int(FieldKind):
    """A whole number from ``minimum`` to ``maximum`` (an index, a space, an amount)."""

    description: str = "a whole number"
    minimum: int = 0
    maximum: int | None = None
    suffixes: tuple[str, ...] = ()

    def schema(self) -> JSON:
        """Return ``{"type": "integer", ...}`` with the bounds."""
        out: JSON = {"type": "integer", "minimum": self.minimum, "description": self.description}
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out

    def _check(self, value: int, where: str) -> int:
        if value < self.minimum or (self.maximum is not None and value > self.maximum):
            top = f" to {self.maximum}" if self.maximum is not None else " or more"
            raise InvalidMove(f"{where} must be a whole number from {self.minimum}{top}, not {value}")
        return value

    def from_json(self, raw: Any, where: str) -> int:
        """Return the integer (digit strings are accepted too).

        Raises:
            InvalidMove: not a whole number in range.
        """
        if isinstance(raw, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", raw):
            raw = int(raw)
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise InvalidMove(f"{where} must be a whole number, not {_short(raw)}")
        return self._check(raw, where)

    def from_text(self, words: Sequence[str], i: int) -> tuple[int, int] | None:
        """Read ``12`` (or ``12<suffix>``)."""
        if i >= len(words):
            return None
        word = words[i]
        for suffix in self.suffixes:
            if word.endswith(suffix) and word[: -len(suffix)].isdigit():
                word = word[: -len(suffix)]
                break
        if not re.fullmatch(r"\d{1,9}", word):
            return None
        value = int(word)
        if value < self.minimum or (self.maximum is not None and value > self.maximum):
            return None
        return value, i + 1

    def example(self) -> int:
        """Return the minimum."""
        return self.minimum


SEAT_WORDS = ("seat", "asiento", "jugador", "player")


@dataclass(frozen=True)
class Seat(Int):
    """A seat number (0-based). Written ``seat 2``; ``asiento 2``, ``player 2`` and a bare ``2`` are read too."""

    description: str = "a seat number, 0-based (seat 0 is the first seat)"
    maximum: int | None = 5

    def from_text(self, words: Sequence[str], i: int) -> tuple[int, int] | None:
        """Read ``seat 2``, ``asiento 2`` or ``2``."""
        if i < len(words) and words[i] in SEAT_WORDS:
            return super().from_text(words, i + 1)
        if i < len(words):
            m = re.fullmatch(r"(?:seat|asiento)(\d{1,2})", words[i])
            if m:
                return super().from_text([m.group(1)], 0) and (int(m.group(1)), i + 1)
        return super().from_text(words, i)

    def to_text(self, value: Any) -> str:
        """Return ``seat N``."""
        return f"seat {value}"


@dataclass(frozen=True)
class Choice(FieldKind):
    """One of a closed set of words (a pile, a colour, an action), with aliases (Spanish words, old names)."""

    values: tuple[str, ...] = ()
    description: str = ""
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        table = {_plain(v): v for v in self.values}
        for alias, value in self.aliases.items():
            if value not in self.values:
                raise ValueError(f"alias {alias!r} names {value!r}, which is not one of {self.values}")
            table.setdefault(_plain(alias), value)
        object.__setattr__(self, "_table", table)

    def _lookup(self, word: str) -> str | None:
        table: dict[str, str] = self._table  # type: ignore[attr-defined]
        return table.get(_plain(word))

    def schema(self) -> JSON:
        """Return ``{"enum": [...]}``."""
        return {"type": "string", "enum": list(self.values), "description": self.description}

    def from_json(self, raw: Any, where: str) -> str:
        """Return the canonical value.

        Raises:
            InvalidMove: not one of the values (or their aliases).
        """
        value = self._lookup(raw) if isinstance(raw, str) else None
        if value is None:
            raise InvalidMove(f"{where} must be one of {', '.join(self.values)}, not {_short(raw)}")
        return value

    def from_text(self, words: Sequence[str], i: int) -> tuple[str, int] | None:
        """Read one value (a value or alias of several words is read too)."""
        for n in (3, 2, 1):
            if i + n <= len(words):
                value = self._lookup(" ".join(words[i : i + n]))
                if value is not None:
                    return value, i + n
        return None

    def example(self) -> str:
        """Return the first value."""
        return self.values[0]


@dataclass(frozen=True)
class Ident(FieldKind):
    """An identifier such as a card id (``MF-A-ENE-3``), checked against ``pattern`` and, if given, ``known``."""

    pattern: str = r"[A-Za-z0-9_-]+"
    description: str = "an identifier"
    sample: str = "X-1"
    upper: bool = True
    known: Collection[str] | None = None

    def schema(self) -> JSON:
        """Return ``{"type": "string", "pattern": ...}``."""
        return {"type": "string", "pattern": f"^(?:{self.pattern})$", "description": self.description}

    def _read(self, raw: str) -> str | None:
        value = raw.strip().upper() if self.upper else raw.strip()
        if not re.fullmatch(self.pattern, value):
            return None
        if self.known is not None and value not in self.known:
            return None
        return value

    def from_json(self, raw: Any, where: str) -> str:
        """Return the identifier, normalised.

        Raises:
            InvalidMove: malformed or unknown.
        """
        value = self._read(raw) if isinstance(raw, str) else None
        if value is None:
            raise InvalidMove(f"{where} must be {self.description} (for example {self.sample}), not {_short(raw)}")
        return value

    def from_text(self, words: Sequence[str], i: int) -> tuple[str, int] | None:
        """Read one word."""
        if i >= len(words):
            return None
        value = self._read(words[i])
        return (value, i + 1) if value is not None else None

    def example(self) -> str:
        """Return the sample."""
        return self.sample


@dataclass(frozen=True)
class Flag(FieldKind):
    """A yes/no field written as one word when true (``[grey]``) and left out when false."""

    word: str = ""
    description: str = ""
    aliases: tuple[str, ...] = ()

    def schema(self) -> JSON:
        """Return ``{"type": "boolean"}``."""
        return {"type": "boolean", "description": self.description}

    def from_json(self, raw: Any, where: str) -> bool:
        """Return the boolean.

        Raises:
            InvalidMove: not true or false.
        """
        if not isinstance(raw, bool):
            raise InvalidMove(f"{where} must be true or false, not {_short(raw)}")
        return raw

    def to_text(self, value: Any) -> str:
        """Return the word (only called when true)."""
        return self.word

    def from_text(self, words: Sequence[str], i: int) -> tuple[bool, int] | None:
        """Read the word (or an alias)."""
        if i < len(words) and words[i] in {_plain(self.word), *map(_plain, self.aliases)}:
            return True, i + 1
        return None

    def example(self) -> bool:
        """Return ``True``."""
        return True

    def is_set(self, value: Any) -> bool:
        """A flag counts as given when true."""
        return bool(value)


@dataclass(frozen=True)
class Maybe(FieldKind):
    """A value of ``inner`` or nothing: JSON ``null``, text ``none`` (or ``none_word``)."""

    inner: FieldKind = dataclasses.field(default_factory=lambda: Int())
    none_word: str = "none"
    description: str = ""

    def schema(self) -> JSON:
        """Return the inner schema, or null."""
        inner = self.inner.schema()
        return {"anyOf": [inner, {"type": "null"}], "description": self.description or inner.get("description", "")}

    def from_json(self, raw: Any, where: str) -> Any:
        """Return ``None`` for null, else the inner value.

        Raises:
            InvalidMove: the inner kind refuses the value.
        """
        return None if raw is None else self.inner.from_json(raw, where)

    def to_json(self, value: Any) -> Any:
        """Return null or the inner JSON form."""
        return None if value is None else self.inner.to_json(value)

    def from_text(self, words: Sequence[str], i: int) -> tuple[Any, int] | None:
        """Read the none word or an inner value."""
        if i < len(words) and words[i] == _plain(self.none_word):
            return None, i + 1
        return self.inner.from_text(words, i)

    def to_text(self, value: Any) -> str:
        """Return the none word or the inner text."""
        return self.none_word if value is None else self.inner.to_text(value)

    def example(self) -> Any:
        """Return the inner example."""
        return self.inner.example()


@dataclass(frozen=True)
class FieldSpec:
    """A move field's kind, description and JSON key (kept in the dataclass field's metadata)."""

    kind: FieldKind
    description: str
    json: str | None = None
    example: Any = None


def spec(
    kind: FieldKind,
    description: str = "",
    *,
    json: str | None = None,
    default: Any = MISSING,
    example: Any = None,
) -> Any:
    """Declare a move field: its kind, its description for the schema, its JSON key if not the attribute name.

    Use as the dataclass field's default: ``stock: str = spec(CARD, "the $ card id")``. A field with
    a ``default`` is optional in JSON. ``example`` replaces the kind's example value in
    :meth:`MoveCodec.example`.
    """
    meta = {_FIELD_KEY: FieldSpec(kind, description or kind.description, json, example)}
    if default is MISSING:
        return dataclasses.field(metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


# --------------------------------------------------------------------------- templates


@dataclass(frozen=True)
class _Lit:
    word: str  # folded; "key=" for a keyword prefix


@dataclass(frozen=True)
class _Slot:
    attr: str


@dataclass(frozen=True)
class _Group:
    parts: tuple[_Lit | _Slot, ...]


_Part = _Lit | _Slot | _Group


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for word in text.split():
        m = re.fullmatch(r"([^=\s]+=)(.*)", word)
        if m:
            out.append(m.group(1))
            if m.group(2):
                out.append(m.group(2))
        else:
            out.append(word)
    return out


def _parse_template(template: str, attrs: Collection[str]) -> tuple[_Part, ...]:
    parts: list[_Part] = []
    group: list[_Lit | _Slot] | None = None
    for raw in template.replace("[", " [ ").replace("]", " ] ").split():
        if raw == "[":
            if group is not None:
                raise ValueError(f"template {template!r}: optional groups do not nest")
            group = []
            continue
        if raw == "]":
            if not group:
                raise ValueError(f"template {template!r}: empty or unopened optional group")
            parts.append(_Group(tuple(group)))
            group = None
            continue
        pieces: list[_Lit | _Slot] = []
        for tok in _tokens(raw):
            m = re.fullmatch(r"\{(\w+)\}", tok)
            if m:
                if m.group(1) not in attrs:
                    raise ValueError(f"template {template!r}: no field {m.group(1)!r}")
                pieces.append(_Slot(m.group(1)))
            else:
                pieces.append(_Lit(_plain(tok)))
        (group if group is not None else parts).extend(pieces)
    if group is not None:
        raise ValueError(f"template {template!r}: unclosed optional group")
    if not parts or not isinstance(parts[0], _Lit):
        raise ValueError(f"template {template!r}: must start with a literal word")
    return tuple(parts)


@dataclass(frozen=True)
class MoveType:
    """One registered move type: its class, tag, template, description and fields."""

    cls: type
    tag: str
    template: str
    doc: str
    parts: tuple[_Part, ...]
    fields: tuple[tuple[str, FieldSpec, bool], ...]  # (attribute, spec, required)
    aliases: tuple[str, ...]

    @property
    def form(self) -> str:
        """The text form with each field shown by its JSON name, e.g. ``"risk <stock> <return>"``."""
        names = {a: fs.json or a for a, fs, _ in self.fields}
        return re.sub(r"\{(\w+)\}", lambda m: f"<{names.get(m.group(1), m.group(1))}>", self.template)

    @property
    def verb(self) -> str:
        """The first word of the text form."""
        first = self.parts[0]
        assert isinstance(first, _Lit)
        return first.word

    def json_key(self, attr: str) -> str:
        """Return the JSON key of attribute ``attr``."""
        for a, s, _ in self.fields:
            if a == attr:
                return s.json or a
        raise KeyError(attr)


class MoveCodec:
    """The move types of one game, with the parser and schema derived from their declarations."""

    def __init__(
        self,
        title: str,
        *,
        filler: Iterable[str] = (),
        phrases: Mapping[str, str] | None = None,
    ) -> None:
        """Create an empty codec.

        Args:
            title: the schema's title, e.g. ``"Market Fortune move"``.
            filler: words ignored when reading text (``"the"``, ``"de"``).
            phrases: whole phrases rewritten before reading (``{"vamos a negociar": "negotiate"}``).
        """
        self.title = title
        self.filler = frozenset(_plain(w) for w in filler)
        self.phrases = {_plain(k): _plain(v) for k, v in (phrases or {}).items()}
        self.types: dict[str, MoveType] = {}
        self._by_verb: dict[str, list[MoveType]] = {}
        self._classes: set[type] = set()
        self._intern: dict[tuple[Any, ...], Any] = {}
        self._schema: JSON | None = None

    # ----- declaring

    def move(self, template: str, doc: str, *, aliases: Iterable[str] = ()) -> Callable[[type[T]], type[T]]:
        """Register a frozen dataclass as a move type and give it ``to_json`` and ``text``.

        The class must have a ``type`` class attribute (its JSON tag). Fields are declared with
        :func:`spec`.

        Raises:
            ValueError: a malformed template, a duplicate tag, or a field without :func:`spec`.
        """

        def register(cls: type[T]) -> type[T]:
            tag = getattr(cls, "type", None)
            if not isinstance(tag, str) or not dataclasses.is_dataclass(cls):
                raise ValueError(f"{cls.__name__} must be a dataclass with a 'type' class attribute")
            if tag in self.types:
                raise ValueError(f"move type {tag!r} is declared twice")
            fields = []
            for f in dataclasses.fields(cls):
                fs = f.metadata.get(_FIELD_KEY)
                if fs is None:
                    raise ValueError(f"{cls.__name__}.{f.name} has no spec(...)")
                required = f.default is MISSING and f.default_factory is MISSING
                fields.append((f.name, fs, required))
            parts = _parse_template(template, [f[0] for f in fields])
            mt = MoveType(cls, tag, template, doc, parts, tuple(fields), tuple(_plain(a) for a in aliases))
            self.types[tag] = mt
            self._classes.add(cls)
            for verb in (mt.verb, *mt.aliases):
                self._by_verb.setdefault(verb, []).append(mt)
            self._schema = None
            if "to_json" not in cls.__dict__:
                cls.to_json = _json_writer(mt)  # type: ignore[attr-defined]
            if "text" not in cls.__dict__:
                cls.text = _text_writer(mt)  # type: ignore[attr-defined]
            return cls

        return register

    def intern(self, cls: type[T], *args: Any) -> T:
        """Return the shared instance of ``cls(*args)`` (moves are immutable values)."""
        key = (cls, *args)
        m = self._intern.get(key)
        if m is None:
            m = self._intern[key] = cls(*args)
        return m

    def _build(self, mt: MoveType, values: Mapping[str, Any]) -> Any:
        return self.intern(mt.cls, *[values[a] if a in values else _default(mt.cls, a) for a, _, _ in mt.fields])

    def is_move(self, value: Any) -> bool:
        """Return whether ``value`` is a move of this codec."""
        return type(value) in self._classes

    # ----- reading

    def parse(self, data: Mapping[str, Any] | str | Any) -> Any:
        """Turn a move's JSON object or text form (or a move) into the move.

        Raises:
            InvalidMove: malformed input; one sentence naming what is accepted.
        """
        if type(data) in self._classes:
            return data
        if isinstance(data, str):
            return self.parse_text(data)
        if isinstance(data, Mapping):
            return self.parse_json(data)
        raise InvalidMove(f"a move is a JSON object with a 'type', or its text form; not a {type(data).__name__}")

    def parse_json(self, data: Mapping[str, Any]) -> Any:
        """Read a move from its JSON object.

        Raises:
            InvalidMove: unknown type, unknown or missing field, bad value.
        """
        tag = data.get("type")
        mt = self.types.get(tag) if isinstance(tag, str) else None
        if mt is None and isinstance(tag, str):
            mt = self.types.get(tag.strip().lower())
        if mt is None:
            raise InvalidMove(f"unknown move type {_short(tag)}; the move types are: {', '.join(self.types)}")
        keys = {fs.json or a: (a, fs, req) for a, fs, req in mt.fields}
        extra = [k for k in data if k != "type" and k not in keys]
        if extra:
            accepted = ", ".join(keys) or "none"
            raise InvalidMove(f"a {mt.tag!r} move has no field {_short(extra[0])}; its fields are: {accepted}")
        kwargs: dict[str, Any] = {}
        for key, (attr, fs, required) in keys.items():
            if key not in data:
                if required:
                    raise InvalidMove(f"a {mt.tag!r} move needs the field {key!r} ({fs.description})")
                continue
            kwargs[attr] = fs.kind.from_json(data[key], f"field {key!r} of a {mt.tag!r} move")
        return self._build(mt, kwargs)

    def words(self, text: str) -> list[str]:
        """Return the folded words of a move text, phrases rewritten and filler dropped."""
        folded = _plain(re.sub(r"[¡!¿?,;:\"'()\[\]]", " ", text))
        folded = re.sub(r"(?<=\w)\.(?=\s|$)", " ", folded)
        for phrase, repl in self.phrases.items():
            folded = re.sub(rf"(?<!\S){re.escape(phrase)}(?!\S)", repl, folded)
        return [w for w in _tokens(folded) if w not in self.filler]

    def parse_text(self, text: str) -> Any:
        """Read a move from its text form (or an older or Spanish form the codec accepts).

        Raises:
            InvalidMove: no form matches; the message shows the forms of that verb, or the verbs.
        """
        if len(text) > MAX_MOVE_TEXT:
            raise InvalidMove(f"a move text is at most {MAX_MOVE_TEXT} characters; this one has {len(text)}")
        words = self.words(text)
        if not words:
            raise InvalidMove(f"an empty move; the move types are: {', '.join(self.types)}")
        candidates = self._by_verb.get(words[0], [])
        for mt in candidates:
            values = _match(mt, words)
            if values is not None:
                return self.intern(
                    mt.cls, *[values[a] if a in values else _default(mt.cls, a) for a, _, _ in mt.fields]
                )
        if candidates:
            forms = "; ".join(f"'{mt.form}'" for mt in candidates)
            hint = _diagnose(candidates[0], words) if len(candidates) == 1 else None
            detail = f" ({hint})" if hint else ""
            raise InvalidMove(f"cannot read {_short(text)} as a move{detail}; that verb is written {forms}")
        raise InvalidMove(f"unknown move {_short(words[0])}; the move verbs are: {', '.join(self.verbs())}")

    def verbs(self) -> list[str]:
        """Return the first words of the text forms, in declaration order."""
        return list(dict.fromkeys(mt.verb for mt in self.types.values()))

    # ----- describing

    def schema(self) -> JSON:
        """Return the JSON schema (draft 2020-12) of every move's JSON form: one branch per move type."""
        if self._schema is None:
            branches = []
            for mt in self.types.values():
                props: JSON = {"type": {"const": mt.tag}}
                required = ["type"]
                for attr, fs, req in mt.fields:
                    key = fs.json or attr
                    props[key] = {**fs.kind.schema(), "description": fs.description}
                    if req:
                        required.append(key)
                branches.append(
                    {
                        "title": mt.tag,
                        "description": f"{mt.doc} Text form: '{mt.form}', e.g. '{self.example(mt.tag)}'.",
                        "type": "object",
                        "properties": props,
                        "required": required,
                        "additionalProperties": False,
                    }
                )
            self._schema = {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": self.title,
                "description": "A move is an object whose 'type' names it; each type takes the fields of its branch.",
                "type": "object",
                "required": ["type"],
                "properties": {"type": {"enum": list(self.types), "description": "the move type"}},
                "oneOf": branches,
            }
        return self._schema

    def example(self, tag: str) -> str:
        """Return an example text of move type ``tag`` with every optional part shown.

        Raises:
            KeyError: unknown tag.
        """
        mt = self.types[tag]
        values = {a: fs.example if fs.example is not None else fs.kind.example() for a, fs, _ in mt.fields}
        return _render(mt, values, everything=True)

    def examples(self) -> dict[str, str]:
        """Return one example text per move type, by tag."""
        return {tag: self.example(tag) for tag in self.types}


def _default(cls: type, attr: str) -> Any:
    for f in dataclasses.fields(cls):
        if f.name == attr:
            if f.default is not MISSING:
                return f.default
            if f.default_factory is not MISSING:
                return f.default_factory()
    raise KeyError(attr)


def _json_writer(mt: MoveType) -> Callable[[Any], JSON]:
    plan = [(attr, fs.json or attr, fs.kind, req) for attr, fs, req in mt.fields]
    tag = mt.tag

    def to_json(self: Any) -> JSON:
        """Return the move's JSON form (optional fields only when set)."""
        out: JSON = {"type": tag}
        for attr, key, kind, req in plan:
            value = getattr(self, attr)
            if req or kind.is_set(value):
                out[key] = kind.to_json(value)
        return out

    return to_json


def _render(mt: MoveType, values: Mapping[str, Any], *, everything: bool = False) -> str:
    """Return the text form of ``values`` (field -> value) of move type ``mt``; ``everything``: every optional
    group written too (the examples). The same plan and writer as a move's own text form."""
    return _write(_text_plan(mt), values.__getitem__, everything)


_Piece = tuple[str, str, FieldKind | None]
"""A word of a text form: a literal word (``(word, "", None)``) or a field's text (``("", attr, kind)``)."""


def _text_plan(mt: MoveType) -> list[tuple[tuple[tuple[str, FieldKind], ...], tuple[_Piece, ...]]]:
    """Return the template of ``mt`` worked out once: a list of (the fields that must all be set for the pieces
    to be written, none outside a group; the pieces), which :func:`_write` writes."""
    kinds = {a: fs.kind for a, fs, _ in mt.fields}

    def piece(part: _Lit | _Slot) -> _Piece:
        return (part.word, "", None) if isinstance(part, _Lit) else ("", part.attr, kinds[part.attr])

    plan: list[tuple[tuple[tuple[str, FieldKind], ...], tuple[_Piece, ...]]] = []
    for part in mt.parts:
        if isinstance(part, _Group):
            slots = tuple((p.attr, kinds[p.attr]) for p in part.parts if isinstance(p, _Slot))
            plan.append((slots, tuple(piece(p) for p in part.parts)))
        else:
            plan.append(((), (piece(part),)))
    return plan


def _write(
    plan: list[tuple[tuple[tuple[str, FieldKind], ...], tuple[_Piece, ...]]],
    value: Callable[[str], Any],
    everything: bool,
) -> str:
    """Write a text form from a :func:`_text_plan`, reading each field through ``value``: a group is written when
    all its fields are set (or with ``everything``). Raises whatever ``value`` raises for a missing field."""
    out: list[str] = []
    for needed, pieces in plan:
        if needed and not everything and not all(kind.is_set(value(attr)) for attr, kind in needed):
            continue
        for word, attr, kind in pieces:
            out.append(word if kind is None else kind.to_text(value(attr)))
    return " ".join(w for w in out if w).replace("= ", "=")


_TEXTS_KEPT = 50_000
"""How many text forms each move type keeps (:func:`_text_writer`): more than a game lists, few enough that moves
parsed from whatever callers send cannot grow the memory without bound."""


def _text_writer(mt: MoveType) -> Callable[[Any], str]:
    plan = _text_plan(mt)
    texts: dict[Any, str] = {}  # move -> its text form: a move is an immutable value, its text never changes

    def text(self: Any) -> str:
        """Return the move's text form, which the codec parses back (written once per distinct move)."""
        t = texts.get(self)
        if t is None:
            t = _write(plan, functools.partial(getattr, self), False)
            if len(texts) < _TEXTS_KEPT:
                texts[self] = t
        return t

    return text


def _diagnose(mt: MoveType, words: Sequence[str]) -> str | None:
    """Say which part of a text that starts with ``mt``'s verb cannot be read, and what is accepted there."""
    specs = {a: fs for a, fs, _ in mt.fields}
    i = 0
    for part in mt.parts:
        if isinstance(part, _Group):
            return None
        if isinstance(part, _Lit):
            if i < len(words) and (words[i] == part.word or (i == 0 and words[i] in mt.aliases)):
                i += 1
                continue
            return f"expected {part.word!r} after {' '.join(words[:i])!r}"
        fs = specs[part.attr]
        got = fs.kind.from_text(words, i)
        if got is None:
            name = fs.json or part.attr
            seen = f"{words[i]!r}" if i < len(words) else "nothing"
            accepted = ""
            kind = fs.kind.inner if isinstance(fs.kind, Maybe) else fs.kind
            if isinstance(kind, Choice):
                accepted = f"; the accepted values are: {', '.join(kind.values)}"
            return f"<{name}> is {fs.description}, not {seen}{accepted}"
        i = got[1]
    return f"unexpected words after the move: {' '.join(words[i:])!r}" if i < len(words) else None


def _match(mt: MoveType, words: Sequence[str]) -> dict[str, Any] | None:
    kinds = {a: fs.kind for a, fs, _ in mt.fields}
    parts = list(mt.parts)
    # The trailing run of optional groups may come in any order.
    tail_start = len(parts)
    while tail_start > 0 and isinstance(parts[tail_start - 1], _Group):
        tail_start -= 1
    head, tail = parts[:tail_start], parts[tail_start:]

    def seq(items: Sequence[_Lit | _Slot], i: int, values: dict[str, Any]) -> int | None:
        for part in items:
            if isinstance(part, _Lit):
                if i < len(words) and (words[i] == part.word or (i == 0 and words[i] in mt.aliases)):
                    i += 1
                    continue
                return None
            got = kinds[part.attr].from_text(words, i)
            if got is None:
                return None
            values[part.attr], i = got
        return i

    def head_from(k: int, i: int, values: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        if k == len(head):
            return i, values
        part = head[k]
        if isinstance(part, _Group):
            trial = dict(values)
            j = seq(part.parts, i, trial)
            if j is not None:
                done = head_from(k + 1, j, trial)
                if done is not None:
                    return done
            return head_from(k + 1, i, values)
        trial = dict(values)
        j = seq([part], i, trial)
        return head_from(k + 1, j, trial) if j is not None else None

    got = head_from(0, 0, {})
    if got is None:
        return None
    i, values = got
    pending = list(tail)
    while i < len(words):
        for g in pending:
            assert isinstance(g, _Group)
            trial = dict(values)
            j = seq(g.parts, i, trial)
            if j is not None:
                values, i = trial, j
                pending.remove(g)
                break
        else:
            return None
    return values
