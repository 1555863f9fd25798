"""Market Fortune's components as data: industries, the building decks, the 60 strategies, the die.

The card list lives in ``components.toml`` beside this module (its header documents
the format). :func:`load_components` reads and checks it: every strategy name must be
one the rulebook lists under its colour, every effect must be a member of the closed
:class:`Effect` list with exactly the parameters that effect needs, and the copies
must add up to 60. Errors name the file, the card and the field.

Card numbering used by the engine (fast integer indices; ids are for the outside):

* ``0..59``: Acciones ($), industry ``i`` value ``v`` at ``i * 5 + v - 1``; id ``MF-A-ENE-3``.
* ``60..119``: Rendimientos (+R), at ``60 + i * 5 + v - 1``; id ``MF-R-ENE-3``.
* ``120..179``: Estrategias in file order, copies together; id ``MF-E-ROBO-1``.
"""

from __future__ import annotations

import re
import string
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("components.toml")
DATA_NAME = "engine/market_fortune/components.toml"

# The strategy names the rulebook's colour table lists (market-fortune/cap-4), by colour.
RULEBOOK_NAMES: dict[str, tuple[str, ...]] = {
    "roja": (
        "Robo",
        "Colapso de Mercado",
        "Corrección",
        "Fortuna",
        "Interés Compuesto",
        "Comprar Más",
        "Movimiento Astuto",
        "Auditoría Federal",
        "Negociación",
        "Bloqueo Regulatorio",
        "Liquidez",
        "Inflación",
        "Rescate",
        "Inversor Suertudo",
        "Riesgo Sistémico",
    ),
    "azul": (
        "Control del Riesgo",
        "Moneda Estable",
        "Manos de Diamante",
        "Experiencia",
        "Analista Errado",
        "Plan de Contingencia",
    ),
    "verde": ("Innovación", "Rendimiento Máximo", "Inversión a la Baja"),
    "amarilla": ("Industria en Auge", "Rey Diversificación", "Dividendos"),
}

COLOURS: tuple[str, ...] = ("roja", "azul", "verde", "amarilla")
COLOUR_ENGLISH = {"roja": "red", "azul": "blue", "verde": "green", "amarilla": "yellow"}

STOCK, RETURN, STRATEGY = 0, 1, 2  # card types
N_INDUSTRIES = 12
N_VALUES = 5
N_BUILDING = 2 * N_INDUSTRIES * N_VALUES  # 120
N_STRATEGIES = 60
N_CARDS = N_BUILDING + N_STRATEGIES  # 180


class ComponentError(Exception):
    """The component data file is inconsistent; the message names the file, the card and the field."""


class Effect(StrEnum):
    """The closed list of strategy effects this engine implements."""

    # red (instant, on your turn)
    STEAL_STRATEGY = "steal_strategy"
    MARKET_COLLAPSE = "market_collapse"
    CORRECTION = "correction"
    FORTUNE_ROLL = "fortune_roll"
    FREE_RETURN_SWAP = "free_return_swap"
    EXTRA_BUILD = "extra_build"
    DISCARD_SWAP = "discard_swap"
    FEDERAL_AUDIT = "federal_audit"
    TRADE = "trade"
    REGULATORY_BLOCK = "regulatory_block"
    LIQUIDITY = "liquidity"
    INFLATION = "inflation"
    RESCUE = "rescue"
    LUCKY_INVESTOR = "lucky_investor"
    SYSTEMIC_RISK = "systemic_risk"
    # blue (reactive, when attacked)
    CANCEL_ANY = "cancel_any"
    CANCEL_CARDS = "cancel_cards"
    CANCEL_INVESTMENTS = "cancel_investments"
    CANCEL_AND_DRAW = "cancel_and_draw"
    CANCEL_FOR_ALL = "cancel_for_all"
    # green (one per investment, at forming or at the end)
    BONUS_LOW_STOCK = "bonus_low_stock"
    BONUS_HIGH_RETURN = "bonus_high_return"
    BONUS_LOW_TOTAL = "bonus_low_total"
    # yellow (revealed when declaring victory)
    BONUS_SAME_INDUSTRY = "bonus_same_industry"
    BONUS_DIVERSIFIED = "bonus_diversified"
    BONUS_DIVIDENDS = "bonus_dividends"


# Whom a red effect targets: "self", "one" rival (chosen) or a "group" of rivals.
# What it attacks decides which blue cards can cancel it: "cards" in hand,
# "investments" or the rival's "turn".
@dataclass(frozen=True)
class EffectSpec:
    """What an effect kind needs: its colour, its parameters and, for reds, its target and attack category."""

    colour: str
    params: tuple[str, ...] = ()
    target: str = "self"
    attacks: str = ""
    defends: tuple[str, ...] = ()


_ALL = ("cards", "investments", "turn")
EFFECT_SPECS: dict[Effect, EffectSpec] = {
    Effect.STEAL_STRATEGY: EffectSpec("roja", (), "one", "cards"),
    Effect.MARKET_COLLAPSE: EffectSpec("roja", (), "group", "investments"),
    Effect.CORRECTION: EffectSpec("roja", (), "one", "investments"),
    Effect.FORTUNE_ROLL: EffectSpec("roja", ("draw", "draw_last")),
    Effect.FREE_RETURN_SWAP: EffectSpec("roja"),
    Effect.EXTRA_BUILD: EffectSpec("roja"),
    Effect.DISCARD_SWAP: EffectSpec("roja"),
    Effect.FEDERAL_AUDIT: EffectSpec("roja", ("max_value",), "one", "investments"),
    Effect.TRADE: EffectSpec("roja", (), "one", "cards"),
    Effect.REGULATORY_BLOCK: EffectSpec("roja", (), "one", "turn"),
    Effect.LIQUIDITY: EffectSpec("roja"),
    Effect.INFLATION: EffectSpec("roja", (), "group", "cards"),
    Effect.RESCUE: EffectSpec("roja"),
    Effect.LUCKY_INVESTOR: EffectSpec("roja"),
    Effect.SYSTEMIC_RISK: EffectSpec("roja", (), "group", "investments"),
    Effect.CANCEL_ANY: EffectSpec("azul", defends=_ALL),
    Effect.CANCEL_CARDS: EffectSpec("azul", defends=("cards",)),
    Effect.CANCEL_INVESTMENTS: EffectSpec("azul", defends=("investments",)),
    Effect.CANCEL_AND_DRAW: EffectSpec("azul", ("draw",), defends=_ALL),
    Effect.CANCEL_FOR_ALL: EffectSpec("azul", defends=_ALL),
    Effect.BONUS_LOW_STOCK: EffectSpec("verde", ("max_stock", "bonus")),
    Effect.BONUS_HIGH_RETURN: EffectSpec("verde", ("min_return", "bonus")),
    Effect.BONUS_LOW_TOTAL: EffectSpec("verde", ("max_total", "bonus")),
    Effect.BONUS_SAME_INDUSTRY: EffectSpec("amarilla", ("bonus",)),
    Effect.BONUS_DIVERSIFIED: EffectSpec("amarilla", ("bonus", "industries")),
    Effect.BONUS_DIVIDENDS: EffectSpec("amarilla", ("min_return", "per")),
}


@dataclass(frozen=True)
class Industry:
    """One of the 12 industries (the logo on building cards)."""

    index: int
    code: str
    name: str


@dataclass(frozen=True)
class StrategyDef:
    """One strategy name with its colour, copies, effect and Spanish text."""

    index: int
    name: str
    slug: str
    code: str
    colour: str
    copies: int
    effect: Effect
    params: dict[str, int]
    text: str

    @property
    def spec(self) -> EffectSpec:
        """The effect kind's needs (target, attack category, defended categories)."""
        return EFFECT_SPECS[self.effect]

    @property
    def section(self) -> str:
        """The compendium section id of this card."""
        return f"market-fortune/cartas/{self.slug}"

    def card_ids(self) -> list[str]:
        """Return the ids of every copy, e.g. ``["MF-E-ROBO-1", "MF-E-ROBO-2"]``."""
        return [f"MF-E-{self.code}-{k}" for k in range(1, self.copies + 1)]


@dataclass(frozen=True)
class Components:
    """Everything the data file defines, checked."""

    industries: tuple[Industry, ...]
    values: tuple[int, ...]
    strategies: tuple[StrategyDef, ...]
    plus_faces: int
    minus_faces: int


def _fail(where: str, message: str) -> ComponentError:
    return ComponentError(f"{DATA_NAME}: {where}: {message}")


def _field(entry: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in entry:
        raise _fail(where, f"field {key!r} is missing")
    value = entry[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise _fail(where, f"field {key!r} must be an integer, not {value!r}")
    if not isinstance(value, kind):
        raise _fail(where, f"field {key!r} must be a {kind.__name__}, not {value!r}")
    return value


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _strategy(index: int, entry: dict[str, Any], seen: dict[str, set[str]]) -> StrategyDef:
    name = entry.get("name", f"#{index + 1}")
    where = f"strategy {name!r}"
    name = _field(entry, "name", str, where)
    slug = _field(entry, "slug", str, where)
    code = _field(entry, "code", str, where)
    colour = _field(entry, "colour", str, where)
    copies = _field(entry, "copies", int, where)
    effect_name = _field(entry, "effect", str, where)
    params = _field(entry, "params", dict, where)
    text = " ".join(_field(entry, "text", str, where).split())
    if colour not in COLOURS:
        raise _fail(where, f"field 'colour' is {colour!r}; accepted: {', '.join(COLOURS)}")
    if name not in RULEBOOK_NAMES[colour]:
        raise _fail(where, f"field 'name': the rulebook lists no {colour} strategy called {name!r}")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug):
        raise _fail(where, f"field 'slug' {slug!r} must be lowercase words joined by hyphens")
    if not re.fullmatch(r"[A-Z]{3,16}", code):
        raise _fail(where, f"field 'code' {code!r} must be 3 to 16 capital letters")
    if not 1 <= copies <= 9:
        raise _fail(where, f"field 'copies' must be 1 to 9, not {copies}")
    for key, value in (("name", name), ("slug", slug), ("code", code)):
        if value in seen[key]:
            raise _fail(where, f"field {key!r}: {value!r} is used by another strategy")
        seen[key].add(value)
    try:
        effect = Effect(effect_name)
    except ValueError:
        accepted = ", ".join(e.value for e in Effect)
        raise _fail(where, f"field 'effect': unknown effect {effect_name!r}; accepted: {accepted}") from None
    spec = EFFECT_SPECS[effect]
    if spec.colour != colour:
        raise _fail(where, f"field 'effect': {effect.value} is a {spec.colour} effect, but the card is {colour}")
    if set(params) != set(spec.params):
        raise _fail(where, f"field 'params' must have exactly {sorted(spec.params)}, not {sorted(params)}")
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _fail(where, f"field 'params.{key}' must be a non-negative integer, not {value!r}")
    unknown = _placeholders(text) - set(params)
    if unknown:
        raise _fail(where, f"field 'text' uses unknown placeholders {sorted(unknown)}")
    return StrategyDef(index, name, slug, code, colour, copies, effect, dict(params), text.format(**params))


def parse_components(data: dict[str, Any]) -> Components:
    """Check parsed component data and return it.

    Raises:
        ComponentError: a missing or wrong field, an unknown effect, a name the rulebook
            does not list, or totals that differ from the rulebook's (names file, card, field).
    """
    die = data.get("die")
    if not isinstance(die, dict):
        raise _fail("[die]", "the table is missing")
    plus = _field(die, "plus_faces", int, "[die]")
    minus = _field(die, "minus_faces", int, "[die]")
    if (plus, minus) != (4, 2):
        raise _fail("[die]", f"the rulebook's die has 4 '+' faces and 2 '−' faces, not {plus} and {minus}")
    building = data.get("building")
    if not isinstance(building, dict):
        raise _fail("[building]", "the table is missing")
    values = tuple(_field(building, "values", list, "[building]"))
    if values != (1, 2, 3, 4, 5):
        raise _fail("[building]", f"field 'values' must be [1, 2, 3, 4, 5] (1M to 5M), not {list(values)}")
    raw_industries = data.get("industry", [])
    if len(raw_industries) != N_INDUSTRIES:
        raise _fail("[[industry]]", f"the rulebook has 12 industries, the file lists {len(raw_industries)}")
    industries = []
    codes: set[str] = set()
    for i, entry in enumerate(raw_industries):
        where = f"industry #{i + 1}"
        code = _field(entry, "code", str, where)
        name = _field(entry, "name", str, where)
        if not re.fullmatch(r"[A-Z]{3}", code) or code in codes:
            raise _fail(where, f"field 'code' {code!r} must be 3 capital letters, unique")
        codes.add(code)
        industries.append(Industry(i, code, name))
    seen: dict[str, set[str]] = {"name": set(), "slug": set(), "code": set()}
    strategies = tuple(_strategy(i, e, seen) for i, e in enumerate(data.get("strategy", [])))
    for colour in COLOURS:
        missing = [n for n in RULEBOOK_NAMES[colour] if n not in seen["name"]]
        if missing:
            raise _fail("[[strategy]]", f"the {colour} strategies {missing} of the rulebook are missing")
    total = sum(s.copies for s in strategies)
    if total != N_STRATEGIES:
        raise _fail("[[strategy]]", f"field 'copies' adds up to {total}; the rulebook's deck has 60 strategies")
    return Components(tuple(industries), values, strategies, plus, minus)


def load_components(path: Path = DATA_FILE) -> Components:
    """Read and check the component data file.

    Raises:
        ComponentError: the file is not valid TOML or its data is inconsistent.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ComponentError(f"{DATA_NAME}: {exc}") from exc
    return parse_components(data)


COMPONENTS = load_components()
INDUSTRIES = COMPONENTS.industries
STRATEGIES = COMPONENTS.strategies

# Flat per-card tables, indexed by card number (see the module docstring).
CARD_ID: list[str] = []
CARD_TYPE: list[int] = []
CARD_IND: list[int] = []
CARD_VAL: list[int] = []
CARD_NAME: list[str] = []
CARD_STRAT: list[StrategyDef | None] = []

for _t, _letter, _noun, _sign in ((STOCK, "A", "Acción", ""), (RETURN, "R", "Rendimiento", "+")):
    for _ind in INDUSTRIES:
        for _v in COMPONENTS.values:
            CARD_ID.append(f"MF-{_letter}-{_ind.code}-{_v}")
            CARD_TYPE.append(_t)
            CARD_IND.append(_ind.index)
            CARD_VAL.append(_v)
            CARD_NAME.append(f"{_noun} {_ind.name} {_sign}{_v}M")
            CARD_STRAT.append(None)
for _s in STRATEGIES:
    for _cid in _s.card_ids():
        CARD_ID.append(_cid)
        CARD_TYPE.append(STRATEGY)
        CARD_IND.append(-1)
        CARD_VAL.append(0)
        CARD_NAME.append(_s.name)
        CARD_STRAT.append(_s)

CARD_INDEX: dict[str, int] = {cid: i for i, cid in enumerate(CARD_ID)}
# Strategy cards by effect colour, for quick tests in the hot path.
IS_RED = [s is not None and s.colour == "roja" for s in CARD_STRAT]
IS_BLUE = [s is not None and s.colour == "azul" for s in CARD_STRAT]
IS_GREEN = [s is not None and s.colour == "verde" for s in CARD_STRAT]
IS_YELLOW = [s is not None and s.colour == "amarilla" for s in CARD_STRAT]


def stock_index(industry: int, value: int) -> int:
    """Return the card number of the Acción of ``industry`` worth ``value``M."""
    return industry * N_VALUES + value - 1


def return_index(industry: int, value: int) -> int:
    """Return the card number of the Rendimiento of ``industry`` worth +``value``M."""
    return N_INDUSTRIES * N_VALUES + industry * N_VALUES + value - 1


def strategy_by_name(name: str) -> StrategyDef:
    """Return the strategy definition called ``name``.

    Raises:
        KeyError: no strategy has that name.
    """
    for s in STRATEGIES:
        if s.name == name:
            return s
    raise KeyError(name)


def card_json(card: int) -> dict[str, Any]:
    """Return a card as the JSON object views show: id, name and what is needed to play it (a new dict, which the
    caller may change: a copy of the card's, built once)."""
    return _CARD_JSON[card].copy()


def _card_json(card: int) -> dict[str, Any]:
    t = CARD_TYPE[card]
    if t == STRATEGY:
        s = CARD_STRAT[card]
        assert s is not None
        return {
            "id": CARD_ID[card],
            "name": s.name,
            "kind": "estrategia",
            "colour": COLOUR_ENGLISH[s.colour],
            "effect": s.text,
            "section": s.section,
        }
    return {
        "id": CARD_ID[card],
        "name": CARD_NAME[card],
        "kind": "accion" if t == STOCK else "rendimiento",
        "industry": INDUSTRIES[CARD_IND[card]].name,
        "value": CARD_VAL[card],
    }


_CARD_JSON: tuple[dict[str, Any], ...] = tuple(_card_json(c) for c in range(N_CARDS))
"""Each card's JSON object (never handed out: :func:`card_json` returns a copy)."""
