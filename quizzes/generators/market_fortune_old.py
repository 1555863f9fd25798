"""Parametric questions and riddles of Market Fortune, with answers computed from the engine's rules.

Every generator draws a *situation* (cards, seats, investments, modes, turns...) from the
seeded ``Rng`` it is given and states one question about it; the answer is computed by a
small named function of this module from the engine's component data and rule numbers
(:mod:`club_agentes.engine.market_fortune.components` and the engine's state constants),
never from a second copy of a rule number. The situation drawers are public
(:data:`SITUATIONS`): the tests rebuild each situation as a real table of the engine and
check, seed by seed, that the engine computes the same answer.

Entry generators (``entry=True``, the default) feed entry papers: 3 questions and 1
riddle; a riddle needs two rules at once and cites both. The plain rule functions at the
top are also named by hand-written items in their ``computed`` field. Each raises
``ValueError`` for a situation the rules do not allow, so no generator can ask about one.

Rules used (section ids without the ``market-fortune/`` prefix): cap-1 and cap-1/preparacion
(components, the deal, the first player); cap-2 (discards, the rule of 8, the turn's three
actions, Momentum, Fortuna's victory condition); cap-3 (investments, optimisation); cap-4
(the four colours, combat); cap-5 (the final count, declaring, the market terms); cap-6 (the
three modes); the quick reference, the FAQ and the glossary; the printed cards
(``cartas/<slug>``) and the rulings (``rulings/<slug>``) where the rulebook is silent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from club_agentes.engine.core import Rng, get_game
from club_agentes.engine.market_fortune.components import (
    COMPONENTS,
    INDUSTRIES,
    N_INDUSTRIES,
    N_STRATEGIES,
    RULEBOOK_NAMES,
    STRATEGIES,
    Effect,
    StrategyDef,
    strategy_by_name,
)
from club_agentes.engine.market_fortune.state import BUILDING_TARGET, MATCH_TARGET, MAX_INVESTMENTS, MODES, WIN_VALUE
from club_agentes.quizzes.model import CHOICE_LETTERS, Item, ItemKind, generator

GAME = "market-fortune"
CARD_VALUES: tuple[int, ...] = COMPONENTS.values
INVESTMENT_MIN = 2 * min(CARD_VALUES)
INVESTMENT_MAX = 2 * max(CARD_VALUES)
INVESTMENTS_TO_WIN = MAX_INVESTMENTS
FORTUNA_TARGET = WIN_VALUE
CHAMPIONSHIP_TARGET = MATCH_TARGET
BUILDING_CARDS = BUILDING_TARGET
NOBODY = "Ningún jugador"
# A player holds 4 investments only in the instant before declaring victory (in Fortuna a
# failed declaration returns one), so situations between turns use 0 to 3 investments.
STEADY_MAX = INVESTMENTS_TO_WIN - 1
NAMES = ("Ana", "Beto", "Carla", "Darío", "Elena", "Fede", "Gabi", "Hugo")
# The colour table of the rulebook (market-fortune/cap-4/<colour>), colour -> card names, as the engine holds it.
STRATEGY_COLOURS: dict[str, tuple[str, ...]] = {colour.capitalize(): names for colour, names in RULEBOOK_NAMES.items()}
_COLOUR_SECTION = {"Roja": "roja", "Azul": "azul", "Verde": "verde", "Amarilla": "amarilla"}
# The bonuses of green and yellow strategies count in Fortuna's 25M (ruling verdes-y-amarillas),
# so an item about face values says that there are none.
NO_BONUS = "sin Estrategias verdes ni amarillas"

P = "market-fortune/"
S_CAP1 = P + "cap-1"
S_PREPARACION = P + "cap-1/preparacion"
S_DESCARTE = P + "cap-2/regla-critica-de-descarte"
S_OCHO = P + "cap-2/regla-8-cartas"
S_TURNO = P + "cap-2/tu-turno"
S_MOMENTUM = P + "cap-2/regla-de-momentum"
S_VICTORIA = P + "cap-2/condicion-de-victoria"
S_CAP3 = P + "cap-3"
S_OPTIMIZACION = P + "cap-3/optimizacion-del-portafolio"
S_CAP4 = P + "cap-4"
S_ROJA = P + "cap-4/roja"
S_AZUL = P + "cap-4/azul"
S_VERDE = P + "cap-4/verde"
S_AMARILLA = P + "cap-4/amarilla"
S_COMBATE = P + "cap-4/sistema-de-combate"
S_CIERRE = P + "cap-5/cierre-del-mercado"
S_DECLARAR = P + "cap-5/declarar-victoria"
S_LIDER = P + "cap-5/terminos-del-mercado/lider"
S_ULTIMO = P + "cap-5/terminos-del-mercado/ir-de-ultimo"
S_AVANZADO = P + "cap-5/terminos-del-mercado/igual-o-mas-avanzado"
S_CONSTRUCCION = P + "cap-5/terminos-del-mercado/cartas-de-construccion"
S_MANO = P + "cap-5/terminos-del-mercado/mano"
S_FAMILIA = P + "cap-6/familia"
S_FORTUNA = P + "cap-6/fortuna"
S_CAMPEONATO = P + "cap-6/campeonato"
S_RR_TURNO = P + "referencia-rapida/turno"
S_DADO = P + "referencia-rapida/dado-fortune"
S_COMBATE_RR = P + "referencia-rapida/combate"
S_VALORES = P + "referencia-rapida/valores-clave"
S_FAQ_COLAPSO = P + "faq/colapso-de-mercado"
S_FAQ_GUARDADA = P + "faq/estrategia-guardada"
S_FAQ_VERDES = P + "faq/varias-verdes"
S_GLOSARIO_CONSTRUCCION = P + "faq/glosario/construccion"
S_GLOSARIO_MOMENTUM = P + "faq/glosario/momentum"
R_PRIMER = P + "rulings/primer-jugador"
R_CONSTRUIR = P + "rulings/construir-y-descartar"
R_OCHO = P + "rulings/regla-de-8-como-limite"
R_MISMA_INDUSTRIA = P + "rulings/optimizacion-misma-industria"
R_ROJAS = P + "rulings/cuando-usar-rojas"
R_BONOS = P + "rulings/verdes-y-amarillas"
R_TERMINOS = P + "rulings/terminos-del-mercado"
R_FAMILIA = P + "rulings/familia-sin-declaracion"
R_CAMPEONATO = P + "rulings/campeonato-partidas"
R_ATAQUES = P + "rulings/ataques-y-defensas"


def card_section(name: str) -> str:
    """Return the compendium section of the strategy called ``name``.

    Raises:
        KeyError: no strategy has that name.
    """
    return strategy_by_name(name).section


# --------------------------------------------------------------------------- the engine's numbers


@cache
def deal_sizes() -> tuple[int, int]:
    """Return how many Acciones ($) and Rendimientos (+R) the engine deals to each seat, read from a fresh table."""
    engine = get_game(GAME)
    hand = engine.view(engine.new_game(engine.make_config(2), 0), 0)["hand"]
    return sum(1 for c in hand if c["kind"] == "accion"), sum(1 for c in hand if c["kind"] == "rendimiento")


DECK_SIZE = N_INDUSTRIES * len(CARD_VALUES)  # 60 Acciones and 60 Rendimientos (12 industries, 5 values each)


def _strategy(name: str) -> StrategyDef:
    return strategy_by_name(name)


def _param(name: str, key: str) -> int:
    """Return a number printed on a strategy card (its effect's parameter)."""
    return _strategy(name).params[key]


# --------------------------------------------------------------------------- the rules arithmetic


def investment_value(accion: int, rendimiento: int) -> int:
    """Return the value in millions of an investment of a $ card and a +R card.

    Raises:
        ValueError: a card value outside 1..5.
    """
    for label, v in (("$", accion), ("+R", rendimiento)):
        if v not in CARD_VALUES:
            raise ValueError(f"a {label} card is worth 1M to 5M, not {v}M")
    return accion + rendimiento


def portfolio_total(*investments: tuple[int, int]) -> int:
    """Return the total in millions of investments given as ``($, +R)`` pairs.

    Raises:
        ValueError: more than 4 investments, or a card value outside 1..5.
    """
    if len(investments) > INVESTMENTS_TO_WIN:
        raise ValueError(f"a portfolio holds at most {INVESTMENTS_TO_WIN} investments, not {len(investments)}")
    return sum(investment_value(a, r) for a, r in investments)


def _check_values(values: Sequence[int]) -> None:
    for v in values:
        if not INVESTMENT_MIN <= v <= INVESTMENT_MAX:
            raise ValueError(f"an investment is worth 2M to 10M, not {v}M")


def wins_fortuna(*values: int) -> bool:
    """Whether investment values (in millions) win in Fortuna: 4 investments and 25M or more.

    Raises:
        ValueError: an investment value outside 2..10.
    """
    _check_values(values)
    return len(values) == INVESTMENTS_TO_WIN and sum(values) >= FORTUNA_TARGET


def least_fourth_value(*three: int) -> int:
    """Return the least value (millions) a fourth investment needs for 25M, given three values.

    Raises:
        ValueError: not three values, a value outside 2..10, or 25M out of reach (more
            than 10M needed).
    """
    if len(three) != 3:
        raise ValueError(f"give the values of three investments, not {len(three)}")
    _check_values(three)
    need = max(INVESTMENT_MIN, FORTUNA_TARGET - sum(three))
    if need > INVESTMENT_MAX:
        raise ValueError(f"three investments of {sum(three)}M cannot reach 25M with a fourth of at most 10M")
    return need


def building_cards_in_hand(investments: int) -> int:
    """Return the building cards in hand with ``investments`` formed (the rule of 8 cards).

    Raises:
        ValueError: fewer than 0 or more than 4 investments.
    """
    if not 0 <= investments <= INVESTMENTS_TO_WIN:
        raise ValueError(f"a player has 0 to 4 investments, not {investments}")
    return BUILDING_CARDS - 2 * investments


def hand_after_risk(investments: int, face: str) -> int:
    """Return the building cards in hand after Arriesgar with ``investments`` formed before it.

    ``face`` is ``"+"`` (the investment stays) or ``"-"`` (it fails, the cards come back).

    Raises:
        ValueError: an unknown face, or 4 investments already formed (or fewer than 0).
    """
    if face not in ("+", "-", "−"):
        raise ValueError(f"the Fortune die shows '+' or '−', not {face!r}")
    if not 0 <= investments < INVESTMENTS_TO_WIN:
        raise ValueError(f"Arriesgar needs 0 to 3 investments already formed, not {investments}")
    return building_cards_in_hand(investments + (1 if face == "+" else 0))


def championship_missing(*won: int) -> int:
    """Return the millions still missing to reach 100M in Campeonato after won games' totals.

    Raises:
        ValueError: a won game's total below 25M or above 40M (4 investments of 10M).
    """
    for t in won:
        if not FORTUNA_TARGET <= t <= INVESTMENTS_TO_WIN * INVESTMENT_MAX:
            raise ValueError(f"a won game's total is 25M to 40M, not {t}M")
    return max(0, CHAMPIONSHIP_TARGET - sum(won))


def who_leads(counts: Mapping[str, int]) -> str:
    """Return the líder: the only player with the most investments formed.

    Raises:
        ValueError: several players share the most investments, or nobody has one (the
            question then has no single líder; ruling terminos-del-mercado).
    """
    top = max(counts.values())
    leaders = [n for n, c in counts.items() if c == top]
    if len(leaders) != 1 or top == 0:
        raise ValueError(f"{', '.join(leaders)} share the most investments; the text names one líder")
    return leaders[0]


def who_goes_last(counts: Mapping[str, int]) -> str:
    """Return who goes last (the fewest investments), or ``"Ningún jugador"`` on a total tie.

    Raises:
        ValueError: a partial tie for the fewest (several players go last, no single answer).
    """
    low = min(counts.values())
    if all(c == low for c in counts.values()):
        return NOBODY
    last = [n for n, c in counts.items() if c == low]
    if len(last) != 1:
        raise ValueError(f"{', '.join(last)} share the fewest investments without a total tie")
    return last[0]


def equal_or_more_advanced(mine: int, others: Sequence[int]) -> int:
    """Return how many other players are "igual o más avanzado" than you (as many investments or more).

    Raises:
        ValueError: an investment count outside 0..4.
    """
    for c in (mine, *others):
        if not 0 <= c <= INVESTMENTS_TO_WIN:
            raise ValueError(f"a player has 0 to 4 investments, not {c}")
    return sum(1 for c in others if c >= mine)


def defence_order(seats: Sequence[str], attacker: str) -> list[str]:
    """Return the order in which the other seats defend a group attack: clockwise from the attacker.

    ``seats`` lists the players clockwise.

    Raises:
        ValueError: the attacker is not seated.
    """
    if attacker not in seats:
        raise ValueError(f"{attacker} is not seated at the table")
    i = list(seats).index(attacker)
    return [seats[(i + k) % len(seats)] for k in range(1, len(seats))]


def first_defender(seats: Sequence[str], attacker: str) -> str:
    """Return who resolves a defence first against a group attack.

    Raises:
        ValueError: the attacker is not seated, or sits alone.
    """
    order = defence_order(seats, attacker)
    if not order:
        raise ValueError("a group attack needs at least one other player")
    return order[0]


def first_player(rolls: Mapping[str, str]) -> str:
    """Return who starts: the only player who rolled "−" at setup.

    Raises:
        ValueError: no player or several players rolled "−" (the text does not settle it).
    """
    minus = [n for n, face in rolls.items() if face in ("-", "−")]
    if len(minus) != 1:
        raise ValueError(f"{len(minus)} players rolled '−'; the text settles only the case of one")
    return minus[0]


def first_player_after_rounds(rounds: Sequence[Mapping[str, str]]) -> str:
    """Return who starts after setup rolls in rounds (ruling primer-jugador).

    Each round maps the players who roll to their face. Several "−": only they roll again;
    no "−": the same players roll again; a single "−" starts.

    Raises:
        ValueError: a round rolled by the wrong players, or the last round has no single "−".
    """
    if not rounds:
        raise ValueError("at least one round of rolls is needed")
    group = list(rounds[0])
    for k, rolls in enumerate(rounds):
        if list(rolls) != group:
            raise ValueError(f"round {k + 1} is rolled by {list(rolls)}, but the ruling has {group} roll")
        minus = [n for n in group if rolls[n] in ("-", "−")]
        if len(minus) == 1:
            if k != len(rounds) - 1:
                raise ValueError(f"round {k + 1} already decided the first player")
            return minus[0]
        if minus:
            group = minus
    raise ValueError("the last round has no single '−'")


def investments_after_declaring(*values: int) -> int:
    """Return how many investments stay formed after declaring victory with four values.

    All four if they make 25M or more (the declarer wins), else three (one goes back to the hand).

    Raises:
        ValueError: not four values, or a value outside 2..10.
    """
    if len(values) != INVESTMENTS_TO_WIN:
        raise ValueError(f"victory is declared with 4 investments, not {len(values)}")
    return INVESTMENTS_TO_WIN if wins_fortuna(*values) else INVESTMENTS_TO_WIN - 1


def optimized_value(accion: int, rendimiento: int, swapped: str, new_card: int) -> int:
    """Return an investment's value after optimising it: its ``$`` or ``+R`` card swapped for ``new_card``.

    Raises:
        ValueError: ``swapped`` is neither ``"$"`` nor ``"+R"``, or a card value outside 1..5.
    """
    if swapped == "$":
        return investment_value(new_card, rendimiento)
    if swapped == "+R":
        return investment_value(accion, new_card)
    raise ValueError(f"an optimisation swaps '$' for '$' or '+R' for '+R', not {swapped!r}")


def strategy_colour(card: str) -> str:
    """Return the colour of a strategy card named in the rulebook's colour table.

    Raises:
        ValueError: the table names no such card.
    """
    for colour, cards in STRATEGY_COLOURS.items():
        if card in cards:
            return colour
    raise ValueError(f"the colour table names no strategy {card!r}")


def combined_extremes() -> int:
    """Return the sum of the least and the greatest possible investment values (2M + 10M)."""
    return investment_value(1, 1) + investment_value(5, 5)


# --------------------------------------------------------------------------- cards and situations


@dataclass(frozen=True)
class Card:
    """A building card: kind ``"$"`` (Acción) or ``"+R"`` (Rendimiento), industry index, value."""

    kind: str
    industry: int
    value: int

    @property
    def id(self) -> str:
        """The engine's card id, e.g. ``"MF-A-ENE-3"``."""
        letter = "A" if self.kind == "$" else "R"
        return f"MF-{letter}-{INDUSTRIES[self.industry].code}-{self.value}"

    @property
    def name(self) -> str:
        """The card's Spanish name, e.g. ``"Acción Energía 3M"`` or ``"Rendimiento Energía +3M"``."""
        ind = INDUSTRIES[self.industry].name
        return f"Acción {ind} {self.value}M" if self.kind == "$" else f"Rendimiento {ind} +{self.value}M"


@dataclass(frozen=True)
class Inv:
    """An investment: its Acción and Rendimiento (same industry) and an optional green's name."""

    stock: Card
    ret: Card
    green: str = ""

    @property
    def face(self) -> int:
        """Acción + Rendimiento, in millions."""
        return investment_value(self.stock.value, self.ret.value)

    def text(self) -> str:
        """Spanish: ``"Acción Salud 3M + Rendimiento Salud +2M"`` (with its green, if any)."""
        base = f"{self.stock.name} + {self.ret.name}"
        return f"{base} (con {self.green} unida)" if self.green else base


def green_bonus(inv: Inv) -> int:
    """Return the bonus the green strategy attached to ``inv`` gives at the final count (0 if none or unmet).

    Raises:
        ValueError: the attached card is not a green strategy.
    """
    if not inv.green:
        return 0
    s = _strategy(inv.green)
    p = s.params
    if s.effect is Effect.BONUS_LOW_STOCK:
        return p["bonus"] if inv.stock.value <= p["max_stock"] else 0
    if s.effect is Effect.BONUS_HIGH_RETURN:
        return p["bonus"] if inv.ret.value >= p["min_return"] else 0
    if s.effect is Effect.BONUS_LOW_TOTAL:
        return p["bonus"] if inv.face <= p["max_total"] else 0
    raise ValueError(f"{inv.green} is not a green strategy")


def yellow_bonus(name: str, invs: Sequence[Inv]) -> int:
    """Return the bonus the yellow strategy ``name`` gives for a portfolio (0 if its criteria are unmet).

    Raises:
        ValueError: the card is not a yellow strategy.
    """
    s = _strategy(name)
    p = s.params
    industries = [i.stock.industry for i in invs]
    if s.effect is Effect.BONUS_SAME_INDUSTRY:
        return p["bonus"] if len(set(industries)) < len(industries) else 0
    if s.effect is Effect.BONUS_DIVERSIFIED:
        return p["bonus"] if len(set(industries)) >= p["industries"] else 0
    if s.effect is Effect.BONUS_DIVIDENDS:
        return p["per"] * sum(1 for i in invs if i.ret.value >= p["min_return"])
    raise ValueError(f"{name} is not a yellow strategy")


def portfolio_value(invs: Sequence[Inv], yellows: Sequence[str] = ()) -> int:
    """Return a portfolio's value at the final count: faces plus green and yellow bonuses (ruling verdes-y-amarillas).

    Raises:
        ValueError: a green or yellow name that is not of that colour.
    """
    return sum(i.face + green_bonus(i) for i in invs) + sum(yellow_bonus(y, invs) for y in yellows)


def _cards_distinct(cards: Sequence[Card]) -> bool:
    ids = [c.id for c in cards]
    return len(set(ids)) == len(ids)


def _inv_cards(invs: Sequence[Inv]) -> list[Card]:
    return [c for i in invs for c in (i.stock, i.ret)]


def _random_inv(rng: Rng, industry: int | None = None) -> Inv:
    ind = rng.below(N_INDUSTRIES) if industry is None else industry
    return Inv(Card("$", ind, rng.choice(CARD_VALUES)), Card("+R", ind, rng.choice(CARD_VALUES)))


def _random_invs(rng: Rng, k: int, *, avoid: Sequence[Card] = ()) -> list[Inv]:
    """Draw ``k`` investments of distinct cards (and distinct from ``avoid``)."""
    while True:
        invs = [_random_inv(rng) for _ in range(k)]
        if _cards_distinct([*avoid, *_inv_cards(invs)]):
            return invs


# --------------------------------------------------------------------------- Spanish helpers


def _money(v: int) -> str:
    return f"{v}M"


def _investments(n: int) -> str:
    """Return ``"1 inversión formada"`` or ``"<n> inversiones formadas"``."""
    return "1 inversión formada" if n == 1 else f"{n} inversiones formadas"


def _count(n: int, one: str, many: str) -> str:
    return f"1 {one}" if n == 1 else f"{n} {many}"


def _join(parts: Sequence[str]) -> str:
    """Spanish list: ``"a"``, ``"a y b"``, ``"a, b y c"``."""
    parts = list(parts)
    if not parts:
        return ""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " y " + parts[-1]


def _names(rng: Rng, k: int) -> list[str]:
    pool = list(NAMES)
    rng.shuffle(pool)
    return pool[:k]


_ORDINALS = ("primer", "segundo", "tercer", "cuarto", "quinto", "sexto")


def _choice(
    rng: Rng,
    prompt: str,
    correct: str,
    wrong: Sequence[str],
    sections: tuple[str, ...],
    explanation: str,
    kind: ItemKind,
) -> Item:
    """Build a choice item with ``correct`` and three ``wrong`` options in a seeded order.

    Raises:
        ValueError: the four options are not distinct.
    """
    options = [correct, *wrong]
    if len(options) != 4 or len(set(options)) != 4:
        raise ValueError(f"a choice needs four distinct options, got {options}")
    rng.shuffle(options)
    return Item(
        id="",
        game=GAME,
        kind=kind,
        type="choice",
        prompt=prompt,
        answer=CHOICE_LETTERS[options.index(correct)],
        sections=tuple(dict.fromkeys(sections)),
        options=tuple(options),
        explanation=explanation,
    )


def _integer(
    prompt: str, answer: int, sections: tuple[str, ...], explanation: str, kind: ItemKind, unit: str = ""
) -> Item:
    return Item(
        id="",
        game=GAME,
        kind=kind,
        type="integer",
        prompt=prompt,
        answer=str(answer),
        sections=tuple(dict.fromkeys(sections)),
        unit=unit,
        explanation=explanation,
    )


def _term(prompt: str, answer: str, vocabulary: str, sections: tuple[str, ...], explanation: str) -> Item:
    return Item(
        id="",
        game=GAME,
        kind="question",
        type="term",
        prompt=prompt,
        answer=answer,
        sections=tuple(dict.fromkeys(sections)),
        vocabulary=vocabulary,
        explanation=explanation,
    )


# --------------------------------------------------------------------------- registration

# Generator name -> the function that draws its situation from an Rng (the tests rebuild it on the engine).
SITUATIONS: dict[str, Callable[[Rng], Any]] = {}


def _register(
    kind: ItemKind, name: str, sections: tuple[str, ...], draw: Callable[[Rng], Any]
) -> Callable[[Callable[[Any, Rng], Item]], Callable[[Any, Rng], Item]]:
    """Register ``build(draw(rng), rng)`` as the generator ``name`` and keep ``draw`` in :data:`SITUATIONS`."""

    def wrap(build: Callable[[Any, Rng], Item]) -> Callable[[Any, Rng], Item]:
        def make(rng: Rng) -> Item:
            return build(draw(rng), rng)

        make.__name__ = make.__qualname__ = f"gen_{name.replace('-', '_')}"
        generator(GAME, kind, name, sections)(make)
        SITUATIONS[name] = draw
        return build

    return wrap


# =========================================================================== question generators
# --------------------------------------------------------------------------- investments and values


def draw_one_investment(rng: Rng) -> Inv:
    """A $ and a +R of one industry."""
    return _random_inv(rng)


@_register("question", "valor-de-inversion", (S_CAP3, S_CIERRE), draw_one_investment)
def gen_investment_value(inv: Inv, rng: Rng) -> Item:
    """The value of one investment of a given $ and +R."""
    return _integer(
        f"Juntas la {inv.stock.name} y el {inv.ret.name}, las ocultas y el Dado Fortune sale +. "
        "¿Cuántos millones vale la inversión que formas?",
        inv.face,
        (S_CAP3, S_CIERRE),
        "El valor de cada inversión es Acción + Rendimiento.",
        "question",
        unit="M",
    )


def draw_four_investments(rng: Rng) -> list[Inv]:
    """Four investments of distinct cards."""
    return _random_invs(rng, INVESTMENTS_TO_WIN)


@_register("question", "total-del-portafolio", (S_CIERRE,), draw_four_investments)
def gen_portfolio_total(invs: list[Inv], rng: Rng) -> Item:
    """The total of four investments at the final count."""
    return _integer(
        f"Declaras victoria, {NO_BONUS}, y volteas tus 4 inversiones: {'; '.join(i.text() for i in invs)}. "
        "¿Cuántos millones suma tu portafolio?",
        portfolio_value(invs),
        (S_CIERRE,),
        "Se suma Acción + Rendimiento de cada inversión y luego los totales de las 4.",
        "question",
        unit="M",
    )


@dataclass(frozen=True)
class FourthSituation:
    """A player forms a 4th investment in a mode (and declares, outside Familia)."""

    mode: str
    name: str
    invs: tuple[Inv, ...]


OUT_WIN_NOW = "Gana en el acto: en este modo no se cuentan los valores"
OUT_WIN_COUNT = "Gana la partida: su portafolio alcanza la meta de valor"
OUT_BACK = "Devuelve a su mano una inversión que elige y el juego continúa"
OUT_LOSE_ALL = "Pierde todas sus inversiones y el juego continúa"
OUT_REROLL = "Vuelve a lanzar el Dado Fortune para confirmar la victoria"


def fourth_outcome(mode: str, values: Sequence[int]) -> str:
    """Return what happens when a player forms a 4th investment worth ``values`` and, outside Familia, declares.

    Familia: an immediate win without counting values (ruling familia-sin-declaracion); Fortuna
    and Campeonato: a win with 25M or more, else one investment returns to the hand.

    Raises:
        ValueError: an unknown mode, not four values, or a value outside 2..10.
    """
    if mode not in MODES:
        raise ValueError(f"the modes are {', '.join(MODES)}, not {mode!r}")
    if len(values) != INVESTMENTS_TO_WIN:
        raise ValueError(f"a 4th investment makes 4 values, not {len(values)}")
    _check_values(values)
    if mode == "familia":
        return OUT_WIN_NOW
    return OUT_WIN_COUNT if wins_fortuna(*values) else OUT_BACK


def draw_fourth(rng: Rng) -> FourthSituation:
    """A mode, a player and four investments (half of them reach 25M)."""
    mode = rng.choice(MODES)
    win = rng.below(2) == 0
    while True:
        invs = _random_invs(rng, INVESTMENTS_TO_WIN)
        if wins_fortuna(*(i.face for i in invs)) == win:
            return FourthSituation(mode, rng.choice(NAMES), tuple(invs))


_MODE_NAME = {"familia": "Familia", "fortuna": "Fortuna", "campeonato": "Campeonato"}


@_register(
    "question",
    "cuarta-inversion-segun-modo",
    (S_DECLARAR, S_VICTORIA, S_FAMILIA, R_FAMILIA, S_CAMPEONATO),
    draw_fourth,
)
def gen_fourth_by_mode(sit: FourthSituation, rng: Rng) -> Item:
    """What happens when a player forms a 4th investment, by mode."""
    listed = "; ".join(i.text() for i in sit.invs)
    if sit.mode == "familia":
        act = f"forma su 4.ª inversión; sus inversiones son {listed}"
        sections: tuple[str, ...] = (S_FAMILIA, R_FAMILIA)
        wrong = [OUT_BACK, OUT_LOSE_ALL, OUT_REROLL]
    else:
        act = f"forma su 4.ª inversión, declara victoria y voltea: {listed}"
        sections = (S_DECLARAR, S_VICTORIA) + ((S_CAMPEONATO,) if sit.mode == "campeonato" else ())
        correct_now = fourth_outcome(sit.mode, [i.face for i in sit.invs])
        wrong = [OUT_BACK if correct_now == OUT_WIN_COUNT else OUT_WIN_COUNT, OUT_LOSE_ALL, OUT_WIN_NOW]
    correct = fourth_outcome(sit.mode, [i.face for i in sit.invs])
    total = portfolio_value(sit.invs)
    return _choice(
        rng,
        f"En modo {_MODE_NAME[sit.mode]}, {sit.name}, {NO_BONUS}, {act}. ¿Qué ocurre?",
        correct,
        wrong,
        sections,
        f"El portafolio suma {total}M. Familia: gana el primero en formar 4 inversiones, sin contar valores; "
        "Fortuna y Campeonato: 4 inversiones y 25M o más, y si no llegas, regresa una inversión a tu mano.",
        "question",
    )


@dataclass(frozen=True)
class GreenSituation:
    """An investment with a green strategy attached."""

    inv: Inv


def draw_green(rng: Rng) -> GreenSituation:
    """An investment and one of the green strategies attached to it."""
    inv = _random_inv(rng)
    green = rng.choice(RULEBOOK_NAMES["verde"])
    return GreenSituation(Inv(inv.stock, inv.ret, green))


@_register(
    "question",
    "bonificacion-verde",
    (S_VERDE, S_FAQ_VERDES, R_BONOS, *(card_section(n) for n in RULEBOOK_NAMES["verde"])),
    draw_green,
)
def gen_green_bonus(sit: GreenSituation, rng: Rng) -> Item:
    """The value of an investment with a green strategy at the final count."""
    inv = sit.inv
    s = _strategy(inv.green)
    return _integer(
        f"En el conteo final volteas tu inversión {inv.stock.name} + {inv.ret.name}, que lleva unida la verde "
        f"«{inv.green}» («{s.text}»). ¿Cuántos millones vale esa inversión, contando la verde?",
        inv.face + green_bonus(inv),
        (S_VERDE, R_BONOS, s.section),
        "La verde aplica al cumplir sus criterios; la inversión vale Acción + Rendimiento más su bonificación.",
        "question",
        unit="M",
    )


@dataclass(frozen=True)
class YellowSituation:
    """A declared portfolio of four investments and the yellows revealed with it."""

    invs: tuple[Inv, ...]
    yellows: tuple[str, ...]


def draw_yellow(rng: Rng) -> YellowSituation:
    """Four investments (often sharing industries) and one or two yellow strategies."""
    while True:
        pool = [rng.below(N_INDUSTRIES) for _ in range(1 + rng.below(4))]
        invs = [_random_inv(rng, rng.choice(pool)) for _ in range(INVESTMENTS_TO_WIN)]
        if _cards_distinct(_inv_cards(invs)):
            break
    names = list(RULEBOOK_NAMES["amarilla"])
    rng.shuffle(names)
    return YellowSituation(tuple(invs), tuple(names[: 1 + rng.below(2)]))


@_register(
    "question",
    "bonificacion-amarilla",
    (S_AMARILLA, R_BONOS, *(card_section(n) for n in RULEBOOK_NAMES["amarilla"])),
    draw_yellow,
)
def gen_yellow_bonus(sit: YellowSituation, rng: Rng) -> Item:
    """The millions the yellow strategies add to a declared portfolio."""
    cards = "; ".join(f"«{y}» («{_strategy(y).text}»)" for y in sit.yellows)
    these = "esa amarilla" if len(sit.yellows) == 1 else "esas amarillas"
    return _integer(
        f"Declaras victoria sin verdes unidas. Tu portafolio: {'; '.join(i.text() for i in sit.invs)}. "
        f"Revelas {cards}. ¿Cuántos millones suma a tu portafolio {these}, en total?",
        sum(yellow_bonus(y, sit.invs) for y in sit.yellows),
        (S_AMARILLA, R_BONOS, *(_strategy(y).section for y in sit.yellows)),
        "Cada amarilla da su bonificación si cumples sus criterios al declarar victoria.",
        "question",
        unit="M",
    )


# --------------------------------------------------------------------------- hands and the rule of 8


@dataclass(frozen=True)
class HandSituation:
    """A player with ``k`` investments and some strategies kept."""

    k: int
    strategies: tuple[str, ...]


def _strategy_names(rng: Rng, n: int) -> tuple[str, ...]:
    """Draw ``n`` strategy cards by name (copies may repeat a name, up to their copies)."""
    pool = [s.name for s in STRATEGIES for _ in range(s.copies)]
    rng.shuffle(pool)
    return tuple(pool[:n])


def draw_hand(rng: Rng) -> HandSituation:
    """0 to 3 investments and 0 to 5 strategies."""
    return HandSituation(rng.below(STEADY_MAX + 1), _strategy_names(rng, rng.below(6)))


def hand_total(k: int, strategies: int) -> int:
    """Return the cards in hand (building cards and strategies) with ``k`` investments and 8 building cards.

    Raises:
        ValueError: ``k`` outside 0..4 or a negative strategy count.
    """
    if strategies < 0:
        raise ValueError(f"a player holds 0 strategies or more, not {strategies}")
    return building_cards_in_hand(k) + strategies


def _kept(strategies: Sequence[str]) -> str:
    if not strategies:
        return "no guardas ninguna Estrategia"
    return f"guardas {_count(len(strategies), 'Estrategia', 'Estrategias')}: {_join(strategies)}"


@_register("question", "cartas-en-mano", (S_OCHO, S_CONSTRUCCION), draw_hand)
def gen_cards_in_hand(sit: HandSituation, rng: Rng) -> Item:
    """All the cards in hand (building cards and strategies) under the rule of 8."""
    return _integer(
        f"Empieza tu turno. Tienes {_investments(sit.k)} y cumples la regla de las 8 cartas; "
        f"además {_kept(sit.strategies)}. "
        "¿Cuántas cartas tienes en la mano en total, contando también las Estrategias?",
        hand_total(sit.k, len(sit.strategies)),
        (S_OCHO, S_CONSTRUCCION),
        "Entre mano e inversiones hay 8 cartas de construcción (2 por inversión); las Estrategias no cuentan "
        "para ese límite.",
        "question",
    )


@dataclass(frozen=True)
class RiskSituation:
    """A player with ``k`` investments and some strategies Arriesgar and the die shows ``face``."""

    k: int
    strategies: tuple[str, ...]
    face: str
    pair: Inv


def draw_risk(rng: Rng) -> RiskSituation:
    """0 to 3 investments, 0 to 4 strategies (no green, so no attachment is asked), a pair and a face."""
    plain = [s.name for s in STRATEGIES if s.colour != "verde" for _ in range(s.copies)]
    rng.shuffle(plain)
    k = rng.below(STEADY_MAX + 1)
    return RiskSituation(k, tuple(plain[: rng.below(5)]), "+" if rng.below(2) == 0 else "−", _random_inv(rng))


def hand_total_after_risk(k: int, strategies: int, face: str) -> int:
    """Return the cards in hand (building and strategies) after Arriesgar: "+" forms it and Momentum gives 1 Estrategia.

    Raises:
        ValueError: as :func:`hand_after_risk`, or a negative strategy count.
    """
    if strategies < 0:
        raise ValueError(f"a player holds 0 strategies or more, not {strategies}")
    return hand_after_risk(k, face) + strategies + (1 if face == "+" else 0)


@_register("question", "mano-tras-arriesgar", (S_TURNO, S_OCHO, S_MOMENTUM), draw_risk)
def gen_hand_after_risk(sit: RiskSituation, rng: Rng) -> Item:
    """All the cards in hand after Arriesgar, by the die's face (Momentum included)."""
    return _integer(
        f"Tienes {_investments(sit.k)}, {building_cards_in_hand(sit.k)} cartas de construcción en la mano y "
        f"{_kept(sit.strategies)}. Arriesgas con la {sit.pair.stock.name} y el {sit.pair.ret.name} y el Dado Fortune "
        f"sale {sit.face}. Si formas la inversión no unes ninguna verde. Al terminar el turno, ¿cuántas cartas tienes "
        "en la mano, contando las Estrategias?",
        hand_total_after_risk(sit.k, len(sit.strategies), sit.face),
        (S_TURNO, S_OCHO, S_MOMENTUM),
        "Con + las dos cartas quedan boca abajo y tomas 1 Estrategia (Momentum); con − regresan a tu mano.",
        "question",
    )


@dataclass(frozen=True)
class BuildSituation:
    """A player below or at 8 building cards chooses Construir."""

    k: int
    hand: tuple[Card, ...]
    source: str  # "$" or "+R" deck


def draw_build(rng: Rng) -> BuildSituation:
    """0 to 3 investments and a hand that leaves the player 0 to 3 building cards short of 8."""
    k = rng.below(STEADY_MAX + 1)
    size = building_cards_in_hand(k) - rng.below(min(4, building_cards_in_hand(k) + 1))
    while True:
        hand = [Card(rng.choice(("$", "+R")), rng.below(N_INDUSTRIES), rng.choice(CARD_VALUES)) for _ in range(size)]
        invs = _random_invs(rng, k)
        if _cards_distinct([*hand, *_inv_cards(invs)]):
            return BuildSituation(k, tuple(hand), rng.choice(("$", "+R")))


def hand_after_build(k: int, hand: int) -> int:
    """Return the building cards in hand after Construir: take 1, discard 1 only when over 8 (ruling).

    The ruling is market-fortune/rulings/construir-y-descartar.

    Raises:
        ValueError: more building cards than 8, or ``k`` outside 0..4.
    """
    if hand + 2 * k > BUILDING_CARDS or hand < 0:
        raise ValueError(f"{hand} cards in hand and {k} investments break the rule of 8")
    return hand + 1 if hand + 2 * k + 1 <= BUILDING_CARDS else hand


@_register("question", "construir-y-descartar", (S_TURNO, S_OCHO, R_CONSTRUIR, R_OCHO), draw_build)
def gen_build_discard(sit: BuildSituation, rng: Rng) -> Item:
    """Building cards in hand after Construir, when a loss left the player short of 8 or not."""
    total = len(sit.hand) + 2 * sit.k
    cards = _join([c.name for c in sit.hand]) if sit.hand else "ninguna"
    return _integer(
        f"Tienes {_investments(sit.k)} y en la mano estas cartas de construcción: {cards} "
        f"({total} de construcción en total, contando las de tus inversiones). En tu turno eliges Construir y tomas "
        f"la carta superior del mazo {sit.source}. ¿Cuántas cartas de construcción tienes en la mano al terminar "
        "el turno?",
        hand_after_build(sit.k, len(sit.hand)),
        (S_TURNO, R_CONSTRUIR, R_OCHO),
        "Construir toma 1 carta y descarta 1 solo si pasas de 8; quien tiene menos de 8 no descarta y se recupera así.",
        "question",
    )


@dataclass(frozen=True)
class CountSituation:
    """A hand of building cards and strategies, listed in a shuffled order."""

    cards: tuple[str, ...]
    building: int


def draw_mixed_hand(rng: Rng) -> CountSituation:
    """2 to 8 building cards and 1 to 4 strategies, shuffled together."""
    while True:
        building = [
            Card(rng.choice(("$", "+R")), rng.below(N_INDUSTRIES), rng.choice(CARD_VALUES))
            for _ in range(2 + rng.below(7))
        ]
        if _cards_distinct(building):
            break
    cards = [c.name for c in building] + list(_strategy_names(rng, 1 + rng.below(4)))
    rng.shuffle(cards)
    return CountSituation(tuple(cards), len(building))


def building_cards_among(names: Sequence[str]) -> int:
    """Return how many of the named cards are building cards ($ or +R), from the engine's strategy names.

    Raises:
        ValueError: a name that is neither a strategy nor an Acción or Rendimiento.
    """
    strategies = {s.name for s in STRATEGIES}
    count = 0
    for n in names:
        if n in strategies:
            continue
        if not n.startswith(("Acción ", "Rendimiento ")):
            raise ValueError(f"{n!r} is not a Market Fortune card")
        count += 1
    return count


@_register("question", "cuenta-de-construccion", (S_CONSTRUCCION, S_GLOSARIO_CONSTRUCCION, S_OCHO), draw_mixed_hand)
def gen_building_count(sit: CountSituation, rng: Rng) -> Item:
    """How many of the cards in a hand are building cards."""
    return _integer(
        f"Tu mano tiene estas cartas: {_join(sit.cards)}. ¿Cuántas de ellas cuentan como cartas de construcción "
        "para la regla de las 8 cartas?",
        building_cards_among(sit.cards),
        (S_CONSTRUCCION, S_OCHO),
        "Cartas de construcción: solo $ y +R; las Estrategias no cuentan.",
        "question",
    )


# --------------------------------------------------------------------------- decks, discards and turns


@dataclass(frozen=True)
class TurnsSituation:
    """Turns played after the deal: each ``("build", deck, discarded kind)`` or ``("dominate",)``; the pile asked."""

    seats: int
    turns: tuple[tuple[str, ...], ...]
    asked: str  # "$", "+R", "Estrategias", "descarte $", "descarte +R"


def draw_turns(rng: Rng) -> TurnsSituation:
    """2 to 6 seats, 2 to 6 opening turns of Construir from a deck or Dominar, and one pile."""
    seats = 2 + rng.below(5)
    turns: list[tuple[str, ...]] = []
    for _ in range(2 + rng.below(5)):
        if rng.below(3) == 0:
            turns.append(("dominate",))
        else:
            turns.append(("build", rng.choice(("$", "+R")), rng.choice(("$", "+R"))))
    asked = rng.choice(("$", "+R", "Estrategias", "descarte $", "descarte +R"))
    return TurnsSituation(seats, tuple(turns), asked)


def pile_after_turns(seats: int, turns: Sequence[Sequence[str]], asked: str) -> int:
    """Return the cards in a deck or building discard pile after the deal and the given opening turns.

    Raises:
        ValueError: a seat count outside 2..6, an unknown turn or pile.
    """
    if not 2 <= seats <= 6:
        raise ValueError(f"Market Fortune takes 2 to 6 players, not {seats}")
    stock_dealt, return_dealt = deal_sizes()
    piles = {
        "$": DECK_SIZE - stock_dealt * seats,
        "+R": DECK_SIZE - return_dealt * seats,
        "Estrategias": N_STRATEGIES,
        "descarte $": 0,
        "descarte +R": 0,
    }
    for turn in turns:
        if turn[0] == "dominate":
            piles["Estrategias"] -= 1
        elif turn[0] == "build" and turn[1] in ("$", "+R") and turn[2] in ("$", "+R"):
            piles[turn[1]] -= 1
            piles["descarte " + turn[2]] += 1
        else:
            raise ValueError(f"unknown turn {turn!r}")
    if asked not in piles:
        raise ValueError(f"unknown pile {asked!r}; the piles are {', '.join(piles)}")
    return piles[asked]


_PILE_QUESTION = {
    "$": "¿Cuántas cartas quedan en el mazo de Acciones ($)?",
    "+R": "¿Cuántas cartas quedan en el mazo de Rendimientos (+R)?",
    "Estrategias": "¿Cuántas cartas quedan en el mazo de Estrategias?",
    "descarte $": "¿Cuántas cartas hay en el descarte de Acciones ($)?",
    "descarte +R": "¿Cuántas cartas hay en el descarte de Rendimientos (+R)?",
}


@_register("question", "mazos-tras-el-reparto", (S_CAP1, S_PREPARACION, S_TURNO), draw_turns)
def gen_piles_after_turns(sit: TurnsSituation, rng: Rng) -> Item:
    """How many cards a deck or discard pile holds after the deal and a few opening turns."""
    said = []
    for i, t in enumerate(sit.turns):
        if t[0] == "dominate":
            said.append(f"turno {i + 1}: Dominar (guarda la Estrategia)")
        else:
            said.append(f"turno {i + 1}: Construir, toma la carta superior del mazo {t[1]} y descarta un {t[2]}")
    return _integer(
        f"Partida nueva de {sit.seats} jugadores. Se reparte como dice la preparación y se juegan estos turnos: "
        f"{'; '.join(said)}. {_PILE_QUESTION[sit.asked]}",
        pile_after_turns(sit.seats, sit.turns, sit.asked),
        (S_CAP1, S_PREPARACION, S_TURNO),
        "Cada mazo de construcción tiene 60 cartas y cada jugador recibe 4 $ y 4 +R; Construir toma 1 y descarta 1.",
        "question",
    )


@dataclass(frozen=True)
class DiscardSituation:
    """The discard piles (bottom to top) and four cards named as candidates to take."""

    stock: tuple[Card, ...]
    ret: tuple[Card, ...]
    strategy: tuple[str, ...]


def draw_discards(rng: Rng) -> DiscardSituation:
    """Building discard piles of 2 to 4 cards each and a strategy discard of 1 to 3 cards."""
    while True:
        stock = tuple(Card("$", rng.below(N_INDUSTRIES), rng.choice(CARD_VALUES)) for _ in range(2 + rng.below(3)))
        ret = tuple(Card("+R", rng.below(N_INDUSTRIES), rng.choice(CARD_VALUES)) for _ in range(2 + rng.below(3)))
        if _cards_distinct([*stock, *ret]):
            return DiscardSituation(stock, ret, _strategy_names(rng, 1 + rng.below(3)))


def takeable_from_discards(stock: Sequence[Card], ret: Sequence[Card], strategy: Sequence[str]) -> list[str]:
    """Return the names of the discarded cards Construir may take: the top of the $ and +R piles, never a strategy."""
    del strategy  # never: "Nunca tomes del descarte de Estrategias"
    return [pile[-1].name for pile in (stock, ret) if pile]


@_register("question", "tomar-del-descarte", (S_DESCARTE, S_TURNO, P + "faq/descarte-de-estrategias"), draw_discards)
def gen_take_from_discard(sit: DiscardSituation, rng: Rng) -> Item:
    """Which of four discarded cards Construir may take."""
    top_pile = rng.choice(("$", "+R"))
    pile, other = (sit.stock, sit.ret) if top_pile == "$" else (sit.ret, sit.stock)
    correct = pile[-1].name
    wrong = [pile[rng.below(len(pile) - 1)].name, other[rng.below(len(other) - 1)].name, sit.strategy[-1]]
    assert correct in takeable_from_discards(sit.stock, sit.ret, sit.strategy)
    return _choice(
        rng,
        "Los descartes están así, de abajo arriba: Acciones ($): "
        f"{_join([c.name for c in sit.stock])}; Rendimientos (+R): {_join([c.name for c in sit.ret])}; "
        f"Estrategias: {_join(list(sit.strategy))}. Eliges Construir. ¿Cuál de estas cartas puedes tomar?",
        correct,
        wrong,
        (S_DESCARTE, S_TURNO),
        "Solo se toma la carta superior del descarte de $ o de +R; nunca del descarte de Estrategias.",
        "question",
    )


# --------------------------------------------------------------------------- the market terms


@dataclass(frozen=True)
class CountsSituation:
    """Investment counts per player (and, for "igual o más avanzado", your own)."""

    counts: tuple[tuple[str, int], ...]
    mine: int = 0


def draw_last(rng: Rng) -> CountsSituation:
    """Three or four players: a single fewest, or a total tie."""
    n = 3 + rng.below(2)
    names = _names(rng, n)
    if rng.below(4) == 0:
        c = rng.below(STEADY_MAX + 1)
        return CountsSituation(tuple((x, c) for x in names))
    low = rng.below(STEADY_MAX)
    counts = [low] + [low + 1 + rng.below(STEADY_MAX - low) for _ in range(n - 1)]
    pairs = list(zip(names, counts, strict=True))
    rng.shuffle(pairs)
    return CountsSituation(tuple(pairs))


@_register("question", "quien-va-de-ultimo", (S_ULTIMO, R_TERMINOS), draw_last)
def gen_who_goes_last(sit: CountsSituation, rng: Rng) -> Item:
    """Who goes last (a single fewest, or a total tie: nobody)."""
    counts = dict(sit.counts)
    correct = who_goes_last(counts)
    wrong = [n for n, _ in sit.counts if n != correct] + ([NOBODY] if correct != NOBODY else [])
    listed = ", ".join(f"{n} tiene {c}" for n, c in sit.counts)
    return _choice(
        rng,
        f"Inversiones formadas: {listed}. Según los términos del mercado, ¿quién va de último?",
        correct,
        wrong[:3],
        (S_ULTIMO,),
        "Va de último quien tiene menos inversiones; con empate total, nadie lo es.",
        "question",
    )


def draw_leader(rng: Rng) -> CountsSituation:
    """Three players: a single most (at least 1)."""
    names = _names(rng, 3)
    top = 1 + rng.below(STEADY_MAX)
    pairs = [(names[0], top), (names[1], rng.below(top)), (names[2], rng.below(top))]
    rng.shuffle(pairs)
    return CountsSituation(tuple(pairs))


@_register("question", "quien-es-lider", (S_LIDER, R_TERMINOS), draw_leader)
def gen_who_leads(sit: CountsSituation, rng: Rng) -> Item:
    """Who is the líder among three players."""
    correct = who_leads(dict(sit.counts))
    listed = ", ".join(f"{n} tiene {c}" for n, c in sit.counts)
    return _choice(
        rng,
        f"Inversiones formadas: {listed}. Según los términos del mercado, ¿quién es el líder?",
        correct,
        [n for n, _ in sit.counts if n != correct] + [NOBODY],
        (S_LIDER,),
        "El líder es el jugador con más inversiones formadas.",
        "question",
    )


def draw_advanced(rng: Rng) -> CountsSituation:
    """Your investments and 2 to 5 rivals'."""
    while True:
        mine = rng.below(STEADY_MAX + 1)
        names = _names(rng, 2 + rng.below(4))
        counts = tuple((n, rng.below(STEADY_MAX + 1)) for n in names)
        answer = equal_or_more_advanced(mine, [c for _, c in counts])
        if {mine, *(c for _, c in counts)} != {answer}:  # the prompt's numbers alone must not be the answer
            return CountsSituation(counts, mine)


@_register("question", "igual-o-mas-avanzados", (S_AVANZADO, R_TERMINOS), draw_advanced)
def gen_equal_or_more(sit: CountsSituation, rng: Rng) -> Item:
    """How many rivals are "igual o más avanzado" than you."""
    listed = ", ".join(f"{n} tiene {c}" for n, c in sit.counts)
    return _integer(
        f"Tienes {_investments(sit.mine)}. Tus rivales: {listed}. ¿Cuántos de tus rivales son «igual o más "
        "avanzado» que tú?",
        equal_or_more_advanced(sit.mine, [c for _, c in sit.counts]),
        (S_AVANZADO,),
        "Es igual o más avanzado quien tiene el mismo número de inversiones que tú o más.",
        "question",
    )


# --------------------------------------------------------------------------- setup: the first player


@dataclass(frozen=True)
class RollsSituation:
    """Seats clockwise and the rounds of setup rolls (each round: the rollers and their faces)."""

    seats: tuple[str, ...]
    rounds: tuple[tuple[tuple[str, str], ...], ...]


def draw_rolls(rng: Rng) -> RollsSituation:
    """4 or 5 players roll until exactly one rolls "−" (ruling primer-jugador); at most three rounds."""
    while True:
        seats = tuple(_names(rng, 4 + rng.below(2)))
        group = list(seats)
        rounds: list[tuple[tuple[str, str], ...]] = []
        for _ in range(3):
            faces = tuple(
                (n, "+" if rng.below(COMPONENTS.plus_faces + COMPONENTS.minus_faces) < COMPONENTS.plus_faces else "−")
                for n in group
            )
            rounds.append(faces)
            minus = [n for n, f in faces if f == "−"]
            if len(minus) == 1:
                return RollsSituation(seats, tuple(rounds))
            if minus:
                group = minus


@_register("question", "primer-jugador", (S_PREPARACION, R_PRIMER), draw_rolls)
def gen_first_player(sit: RollsSituation, rng: Rng) -> Item:
    """Who starts, given the setup rolls (rounds repeat by ruling primer-jugador)."""
    said = "; ".join(
        f"{'primera' if i == 0 else ('segunda' if i == 1 else 'tercera')} tirada: "
        + ", ".join(f"{n} saca {f}" for n, f in r)
        for i, r in enumerate(sit.rounds)
    )
    correct = first_player_after_rounds([dict(r) for r in sit.rounds])
    wrong = [n for n in sit.seats if n != correct]
    rng.shuffle(wrong)
    return _choice(
        rng,
        f"Al preparar la partida lanzan el Dado Fortune {_join(list(sit.seats))}, y, según la norma "
        f"publicada del club para los empates, repiten la tirada hasta que sale un solo −: {said}. ¿Quién comienza?",
        correct,
        wrong[:3],
        (S_PREPARACION, R_PRIMER),
        "Quien saque − comienza; si varios sacan −, solo ellos vuelven a tirar; si nadie, tiran los mismos otra vez.",
        "question",
    )


# --------------------------------------------------------------------------- the turn's actions


@dataclass(frozen=True)
class ActionSituation:
    """A described step of a turn and the move it is, as the engine's JSON form (the tests play it)."""

    text: str
    term: str
    move: Mapping[str, Any]
    inv: Inv
    hand: tuple[Card, ...]


ACTION_TERMS = ("Construir", "Arriesgar", "Dominar", "Optimizar", "Declarar victoria")


def draw_action(rng: Rng) -> ActionSituation:
    """One scene: Construir, Arriesgar, Dominar, an optimisation or a declaration, with its cards."""
    while True:
        inv = _random_inv(rng)
        other = [v for v in CARD_VALUES if v != inv.stock.value]
        swap = Card("$", inv.stock.industry, rng.choice(other))
        pair = _random_inv(rng)
        extra = Card(rng.choice(("$", "+R")), rng.below(N_INDUSTRIES), rng.choice(CARD_VALUES))
        hand = (swap, pair.stock, pair.ret, extra)
        if _cards_distinct([*hand, inv.stock, inv.ret]):
            break
    kind = rng.below(5)
    deck = rng.choice(("$", "+R"))
    source = "stock-deck" if deck == "$" else "return-deck"
    if kind == 0:
        text = f"Tomas la carta superior del mazo {deck} y después dejas la {extra.name} boca arriba en su descarte."
        return ActionSituation(text, "Construir", {"type": "build", "source": source}, inv, hand)
    if kind == 1:
        text = f"Juntas la {pair.stock.name} y el {pair.ret.name}, las pones boca abajo y lanzas el Dado Fortune."
        return ActionSituation(
            text, "Arriesgar", {"type": "risk", "stock": pair.stock.id, "return": pair.ret.id}, inv, hand
        )
    if kind == 2:
        text = "Robas la carta superior del mazo de Estrategias y no sueltas ninguna carta de construcción."
        return ActionSituation(text, "Dominar", {"type": "dominate"}, inv, hand)
    if kind == 3:
        text = (
            f"Sacas la {inv.stock.name} de tu inversión boca abajo, pones en su lugar la {swap.name} de tu mano y "
            "pagas el costo soltando una carta de construcción."
        )
        return ActionSituation(text, "Optimizar", {"type": "optimise", "investment": 0, "card": swap.id}, inv, hand)
    text = "Con tus cuatro inversiones boca abajo, anuncias que llegas a 25M o más y vas a voltearlas para el conteo."
    return ActionSituation(text, "Declarar victoria", {"type": "declare"}, inv, hand)


def action_term(move: Mapping[str, Any]) -> str:
    """Return the rulebook's name for a move of the turn, by its JSON type.

    Raises:
        ValueError: a move type that is none of the turn's actions, an optimisation or a declaration.
    """
    terms = {
        "build": "Construir",
        "risk": "Arriesgar",
        "dominate": "Dominar",
        "optimise": "Optimizar",
        "declare": "Declarar victoria",
    }
    try:
        return terms[str(move.get("type"))]
    except KeyError:
        raise ValueError(f"{move.get('type')!r} is not an action of the turn") from None


@_register("question", "accion-del-turno", (S_TURNO, S_OPTIMIZACION, S_DECLARAR), draw_action)
def gen_turn_action(sit: ActionSituation, rng: Rng) -> Item:
    """Which action (or free step) a described part of a turn is."""
    return _term(
        f"En tu turno haces esto: «{sit.text}» ¿Cómo se llama lo que has hecho? Responde con su nombre en el "
        "reglamento (una de las tres acciones del turno, la optimización del portafolio o la declaración de victoria).",
        action_term(sit.move),
        "acciones",
        (S_TURNO, S_OPTIMIZACION, S_DECLARAR),
        "Construir toma y descarta; Arriesgar forma una inversión; Dominar toma una Estrategia; optimizar "
        "intercambia una carta de una inversión; declarar voltea el portafolio.",
    )


# --------------------------------------------------------------------------- strategies: colours and use


@dataclass(frozen=True)
class ColourSituation:
    """A colour and four strategy names, exactly one of that colour."""

    colour: str
    cards: tuple[str, ...]


def draw_colour(rng: Rng) -> ColourSituation:
    """A colour, one card of it and three cards of other colours."""
    colour = rng.choice(tuple(STRATEGY_COLOURS))
    right = rng.choice(STRATEGY_COLOURS[colour])
    others = [n for c, names in STRATEGY_COLOURS.items() if c != colour for n in names]
    rng.shuffle(others)
    return ColourSituation(colour, (right, *others[:3]))


@_register("question", "color-de-estrategia", tuple(f"{S_CAP4}/{s}" for s in _COLOUR_SECTION.values()), draw_colour)
def gen_strategy_colour(sit: ColourSituation, rng: Rng) -> Item:
    """Which of four strategy cards has a given colour."""
    right = next(n for n in sit.cards if strategy_colour(n) == sit.colour)
    word = sit.colour.lower()
    return _choice(
        rng,
        f"Según la tabla de colores de las Estrategias, ¿cuál de estas cartas es {word}: "
        f"{_join([f'«{n}»' for n in sit.cards])}?",
        right,
        [n for n in sit.cards if n != right],
        tuple(f"{S_CAP4}/{_COLOUR_SECTION[strategy_colour(n)]}" for n in sit.cards),
        f"La tabla del capítulo IV pone {right} en la fila {sit.colour}.",
        "question",
    )


# Reds a player can always use at the start of a turn in the tests' tables: no target or condition needed.
_FREE_REDS = ("Fortuna", "Comprar Más", "Liquidez", "Inversor Suertudo")


@dataclass(frozen=True)
class UsableSituation:
    """Four kept strategies at the start of your turn: one red needing no target, three of other colours."""

    cards: tuple[str, ...]


def draw_usable(rng: Rng) -> UsableSituation:
    """One red that needs no target and three non-red strategies."""
    others = [n for c in ("azul", "verde", "amarilla") for n in RULEBOOK_NAMES[c]]
    rng.shuffle(others)
    return UsableSituation((rng.choice(_FREE_REDS), *others[:3]))


def usable_on_your_turn(cards: Sequence[str]) -> list[str]:
    """Return the kept strategies you may use on your turn before your action: the instant (red) ones."""
    return [n for n in cards if _strategy(n).colour == "roja"]


@_register(
    "question", "estrategia-en-tu-turno", (S_ROJA, S_AZUL, S_VERDE, S_AMARILLA, S_FAQ_GUARDADA, R_ROJAS), draw_usable
)
def gen_usable_strategy(sit: UsableSituation, rng: Rng) -> Item:
    """Which kept strategy may be used on your turn before your action."""
    (right,) = usable_on_your_turn(sit.cards)
    return _choice(
        rng,
        f"Empieza tu turno y aún no has hecho tu acción. Guardas {_join(list(sit.cards))} (ninguna tomada este "
        "turno). ¿Cuál de ellas puedes usar ahora?",
        right,
        [n for n in sit.cards if n != right],
        (S_ROJA, S_AZUL, S_VERDE, S_AMARILLA, S_FAQ_GUARDADA),
        "En tu turno solo se usan las instantáneas (rojas); las azules esperan un ataque, las verdes una inversión "
        "o el final, y las amarillas la declaración de victoria.",
        "question",
    )


@dataclass(frozen=True)
class DefenceSituation:
    """An attack with a red card and four strategies you hold; exactly one can cancel it."""

    attacker: str
    red: str
    cards: tuple[str, ...]


_ATTACK_REDS = tuple(s.name for s in STRATEGIES if s.colour == "roja" and s.spec.target != "self")
_BLUES = RULEBOOK_NAMES["azul"]


def can_cancel(blue: str, red: str) -> bool:
    """Whether the blue strategy ``blue`` cancels an attack made with the red ``red`` (their printed cards)."""
    b, r = _strategy(blue), _strategy(red)
    return b.colour == "azul" and r.spec.attacks in b.spec.defends


def draw_defence(rng: Rng) -> DefenceSituation:
    """An attacking red, one blue that cancels it, and three cards that do not (blues that do not cover it first)."""
    while True:
        red = rng.choice(_ATTACK_REDS)
        good = [b for b in _BLUES if can_cancel(b, red)]
        bad = [b for b in _BLUES if not can_cancel(b, red)]
        if bad:
            break
    fillers = [n for c in ("roja", "verde", "amarilla") for n in RULEBOOK_NAMES[c] if n != red]
    rng.shuffle(fillers)
    wrong = (bad + fillers)[:3]
    return DefenceSituation(rng.choice(NAMES), red, (rng.choice(good), *wrong))


@_register(
    "question", "defensa-valida", (S_AZUL, S_COMBATE, R_ATAQUES, *(card_section(n) for n in _BLUES)), draw_defence
)
def gen_valid_defence(sit: DefenceSituation, rng: Rng) -> Item:
    """Which of four strategies cancels a given red attack."""
    (right,) = [n for n in sit.cards if can_cancel(n, sit.red)]
    red = _strategy(sit.red)
    return _choice(
        rng,
        f"Fuera de tu turno, {sit.attacker} te ataca con «{sit.red}» («{red.text}»). Guardas {_join(list(sit.cards))}. "
        "¿Con cuál de ellas puedes cancelar el ataque contra ti?",
        right,
        [n for n in sit.cards if n != right],
        (S_AZUL, S_COMBATE, *(_strategy(n).section for n in sit.cards if strategy_colour(n) == "Azul")),
        "Te defiendes con una azul cuyo texto cubre ese ataque: Moneda Estable solo protege las cartas de la mano "
        "y Manos de Diamante solo las inversiones.",
        "question",
    )


# --------------------------------------------------------------------------- forming investments


@dataclass(frozen=True)
class PairSituation:
    """A hand of 4 $ and 4 +R; for the choice, four candidate pairs (exactly one of one industry)."""

    hand: tuple[Card, ...]
    candidates: tuple[tuple[Card, Card], ...] = ()


def _deal_like_hand(rng: Rng, industries: int) -> tuple[Card, ...]:
    """Draw a dealt hand (4 $ and 4 +R) whose cards come from ``industries`` industries."""
    stock_n, ret_n = deal_sizes()
    while True:
        pool = [rng.below(N_INDUSTRIES) for _ in range(industries)]
        hand = [Card("$", rng.choice(pool), rng.choice(CARD_VALUES)) for _ in range(stock_n)]
        hand += [Card("+R", rng.choice(pool), rng.choice(CARD_VALUES)) for _ in range(ret_n)]
        if _cards_distinct(hand):
            return tuple(hand)


def risk_pairs(hand: Sequence[Card]) -> list[tuple[Card, Card]]:
    """Return every ($, +R) pair of the hand that Arriesgar may join: the same industry logo."""
    return [(s, r) for s in hand if s.kind == "$" for r in hand if r.kind == "+R" and r.industry == s.industry]


def draw_pair_choice(rng: Rng) -> PairSituation:
    """A dealt hand with one matching pair among four candidate pairs."""
    while True:
        hand = _deal_like_hand(rng, 3 + rng.below(4))
        good = risk_pairs(hand)
        bad = [(s, r) for s in hand if s.kind == "$" for r in hand if r.kind == "+R" and r.industry != s.industry]
        if good and len(bad) >= 3:
            rng.shuffle(bad)
            return PairSituation(hand, (rng.choice(good), *bad[:3]))


def _pair_text(pair: tuple[Card, Card]) -> str:
    return f"{pair[0].name} con {pair[1].name}"


@_register("question", "pareja-para-arriesgar", (S_CAP3, S_TURNO, P + "faq/glosario/inversion"), draw_pair_choice)
def gen_risk_pair(sit: PairSituation, rng: Rng) -> Item:
    """Which of four pairs of the hand may be joined to Arriesgar."""
    right = _pair_text(sit.candidates[0])
    assert sit.candidates[0] in risk_pairs(sit.hand)
    return _choice(
        rng,
        f"Tu mano: {_join([c.name for c in sit.hand])}. Eliges Arriesgar. ¿Qué pareja puedes juntar?",
        right,
        [_pair_text(p) for p in sit.candidates[1:]],
        (S_CAP3, S_TURNO),
        "Una inversión combina 1 Acción y 1 Rendimiento con el mismo logo de industria.",
        "question",
    )


def draw_pair_count(rng: Rng) -> PairSituation:
    """A dealt hand from 2 to 5 industries."""
    return PairSituation(_deal_like_hand(rng, 2 + rng.below(4)))


@_register("question", "parejas-posibles", (S_CAP3, P + "faq/glosario/inversion"), draw_pair_count)
def gen_pair_count(sit: PairSituation, rng: Rng) -> Item:
    """How many different investments a hand allows."""
    return _integer(
        f"Tu mano: {_join([c.name for c in sit.hand])}. ¿Cuántas parejas distintas de 1 $ y 1 +R podrías juntar "
        "para Arriesgar (cada pareja, una posible inversión)?",
        len(risk_pairs(sit.hand)),
        (S_CAP3,),
        "Cada Acción se puede juntar con cada Rendimiento de su misma industria.",
        "question",
    )


# --------------------------------------------------------------------------- optimisation


@dataclass(frozen=True)
class OptimiseSituation:
    """A face-down investment and the building cards in hand."""

    inv: Inv
    hand: tuple[Card, ...]


def optimisation_swaps(inv: Inv, hand: Sequence[Card]) -> list[Card]:
    """Return the cards of the hand that may replace a card of ``inv``: same type, same industry (ruling)."""
    return [c for c in hand if c.industry == inv.stock.industry and c != inv.stock and c != inv.ret]


def draw_optimise_choice(rng: Rng) -> OptimiseSituation:
    """An investment, a hand with exactly one card of its industry and others that are not."""
    while True:
        inv = _random_inv(rng)
        same = Card(rng.choice(("$", "+R")), inv.stock.industry, rng.choice(CARD_VALUES))
        others = [Card(rng.choice(("$", "+R")), rng.below(N_INDUSTRIES), rng.choice(CARD_VALUES)) for _ in range(3)]
        hand = (same, *others)
        if _cards_distinct([inv.stock, inv.ret, *hand]) and optimisation_swaps(inv, hand) == [same]:
            return OptimiseSituation(inv, hand)


def _swap_text(inv: Inv, card: Card) -> str:
    out = inv.stock if card.kind == "$" else inv.ret
    return f"Cambiar la {out.name} de la inversión por la {card.name}"


@_register("question", "optimizacion-valida", (S_OPTIMIZACION, R_MISMA_INDUSTRIA), draw_optimise_choice)
def gen_valid_optimisation(sit: OptimiseSituation, rng: Rng) -> Item:
    """Which of four swaps is a valid optimisation."""
    (right,) = optimisation_swaps(sit.inv, sit.hand)
    return _choice(
        rng,
        f"Tu inversión boca abajo es {sit.inv.text()}. En la mano tienes {_join([c.name for c in sit.hand])}. "
        "Quieres optimizar el portafolio en tu turno. ¿Qué intercambio puedes hacer?",
        _swap_text(sit.inv, right),
        [_swap_text(sit.inv, c) for c in sit.hand if c != right],
        (S_OPTIMIZACION, R_MISMA_INDUSTRIA),
        "Se cambia una carta del mismo tipo ($ por $, +R por +R) y, por la norma del club, de la misma industria.",
        "question",
    )


def draw_optimise_best(rng: Rng) -> OptimiseSituation:
    """An investment and a hand of 3 to 6 cards, at least one of its industry."""
    while True:
        inv = _random_inv(rng)
        hand = [Card(rng.choice(("$", "+R")), inv.stock.industry, rng.choice(CARD_VALUES))]
        for _ in range(2 + rng.below(4)):
            ind = inv.stock.industry if rng.below(3) == 0 else rng.below(N_INDUSTRIES)
            hand.append(Card(rng.choice(("$", "+R")), ind, rng.choice(CARD_VALUES)))
        rng.shuffle(hand)
        if _cards_distinct([inv.stock, inv.ret, *hand]):
            return OptimiseSituation(inv, tuple(hand))


def best_optimisation(inv: Inv, hand: Sequence[Card]) -> int:
    """Return the highest value ``inv`` can reach with at most one optimisation from ``hand``."""
    best = inv.face
    for c in optimisation_swaps(inv, hand):
        stock, ret = (c, inv.ret) if c.kind == "$" else (inv.stock, c)
        best = max(best, investment_value(stock.value, ret.value))
    return best


@_register("question", "mejor-optimizacion", (S_OPTIMIZACION, R_MISMA_INDUSTRIA, S_CIERRE), draw_optimise_best)
def gen_best_optimisation(sit: OptimiseSituation, rng: Rng) -> Item:
    """The highest value an investment can reach with one optimisation."""
    return _integer(
        f"Tu inversión boca abajo es {sit.inv.text()}. En la mano tienes {_join([c.name for c in sit.hand])}. "
        "Haces como mucho una optimización del portafolio. ¿Cuál es el mayor valor, en millones, que puede "
        "alcanzar esa inversión?",
        best_optimisation(sit.inv, sit.hand),
        (S_OPTIMIZACION, R_MISMA_INDUSTRIA, S_CIERRE),
        "Solo entra una carta del mismo tipo y la misma industria; la inversión vale Acción + Rendimiento.",
        "question",
        unit="M",
    )


# --------------------------------------------------------------------------- red cards and Campeonato


@dataclass(frozen=True)
class AuditSituation:
    """A rival audits your face-down investments; you do not defend."""

    attacker: str
    invs: tuple[Inv, ...]
    ask_value: bool


def draw_audit(rng: Rng) -> AuditSituation:
    """1 to 3 investments; the question asks what remains (count or value)."""
    return AuditSituation(rng.choice(NAMES), tuple(_random_invs(rng, 1 + rng.below(STEADY_MAX))), rng.below(2) == 0)


def after_audit(invs: Sequence[Inv]) -> list[Inv]:
    """Return the investments left after an undefended Auditoría Federal: those worth more than its printed limit."""
    limit = _param("Auditoría Federal", "max_value")
    return [i for i in invs if i.face > limit]


@_register("question", "auditoria-federal", (card_section("Auditoría Federal"), S_COMBATE), draw_audit)
def gen_audit(sit: AuditSituation, rng: Rng) -> Item:
    """What an undefended Auditoría Federal leaves of a portfolio."""
    card = _strategy("Auditoría Federal")
    left = after_audit(sit.invs)
    what = (
        "¿Cuántos millones suman las inversiones que te quedan?" if sit.ask_value else "¿Cuántas inversiones te quedan?"
    )
    return _integer(
        f"{sit.attacker} juega contra ti «Auditoría Federal» («{card.text}») y no te defiendes. Tus inversiones boca "
        f"abajo: {'; '.join(i.text() for i in sit.invs)}. {what}",
        sum(i.face for i in left) if sit.ask_value else len(left),
        (card.section, S_COMBATE),
        "Sin defensa, el ataque te golpea: se voltean tus inversiones y se descarta cada una del valor impreso "
        "o menos.",
        "question",
        unit="M" if sit.ask_value else "",
    )


@dataclass(frozen=True)
class CreditSituation:
    """Campeonato: a player with a match total before this game declares and wins with this portfolio."""

    name: str
    before: int
    invs: tuple[Inv, ...]
    yellows: tuple[str, ...]


def draw_credit(rng: Rng) -> CreditSituation:
    """A winning declaration (25M or more, a yellow at times) and a match total below 100M before it."""
    while True:
        invs = _random_invs(rng, INVESTMENTS_TO_WIN)
        yellows = (rng.choice(RULEBOOK_NAMES["amarilla"]),) if rng.below(2) == 0 else ()
        if portfolio_value(invs, yellows) >= FORTUNA_TARGET:
            break
    before = rng.below(3) * FORTUNA_TARGET + rng.below(CHAMPIONSHIP_TARGET - 2 * FORTUNA_TARGET)
    return CreditSituation(rng.choice(NAMES), before, tuple(invs), yellows)


def championship_after(before: int, invs: Sequence[Inv], yellows: Sequence[str] = ()) -> int:
    """Return a player's Campeonato total after winning a game with this portfolio (ruling campeonato-partidas).

    Raises:
        ValueError: a portfolio that does not win (under 25M with its bonuses) or a negative total.
    """
    value = portfolio_value(invs, yellows)
    if value < FORTUNA_TARGET or before < 0:
        raise ValueError(f"a won game credits 25M or more, not {value}M")
    return before + value


@_register("question", "campeonato-acumulado", (S_CAMPEONATO, R_CAMPEONATO, R_BONOS), draw_credit)
def gen_championship_credit(sit: CreditSituation, rng: Rng) -> Item:
    """How many millions a player still lacks for 100M after winning one more Campeonato game."""
    yellow = f" y revela «{sit.yellows[0]}» («{_strategy(sit.yellows[0]).text}»)" if sit.yellows else ", sin amarillas"
    after = championship_after(sit.before, sit.invs, sit.yellows)
    return _integer(
        f"En modo Campeonato, {sit.name} llevaba {_money(sit.before)} acumulados. Gana esta partida: declara victoria "
        f"sin verdes unidas, voltea {'; '.join(i.text() for i in sit.invs)}{yellow}. ¿Cuántos millones le faltan "
        "ahora para llegar a los 100M? (0 si ya llegó)",
        max(0, CHAMPIONSHIP_TARGET - after),
        (S_CAMPEONATO, R_CAMPEONATO, R_BONOS),
        "En Campeonato se suman los totales de cada partida ganada; gana el primero en llegar a 100M o pasarlos.",
        "question",
        unit="M",
    )


# =========================================================================== riddle generators (two rules each)


@dataclass(frozen=True)
class ThreeValues:
    """The values of three investments."""

    values: tuple[int, ...]


def draw_three_values(rng: Rng) -> ThreeValues:
    """Three investment values from which 25M is still reachable."""
    while True:
        three = tuple(INVESTMENT_MIN + rng.below(INVESTMENT_MAX - INVESTMENT_MIN + 1) for _ in range(3))
        if sum(three) >= FORTUNA_TARGET - INVESTMENT_MAX:
            return ThreeValues(three)


@_register("riddle", "cuarta-inversion-minima", (S_VICTORIA, S_VALORES), draw_three_values)
def gen_least_fourth(sit: ThreeValues, rng: Rng) -> Item:
    """The least value the fourth investment needs for 25M (the victory condition and the least investment)."""
    return _integer(
        f"En modo Fortuna, {NO_BONUS}, tienes tres inversiones que valen {_join([_money(v) for v in sit.values])}. "
        "¿Cuál es el menor valor, en millones, que puede tener tu cuarta inversión para que ganes al declarar "
        "victoria?",
        least_fourth_value(*sit.values),
        (S_VICTORIA, S_VALORES),
        "Se necesitan 25M o más con 4 inversiones, y una inversión vale como mínimo 2M.",
        "riddle",
        unit="M",
    )


@dataclass(frozen=True)
class GroupAttackSituation:
    """Seats clockwise with their investments and hand sizes; the attacker plays a group red."""

    seats: tuple[str, ...]
    investments: tuple[int, ...]
    hands: tuple[int, ...]
    attacker: int
    red: str
    position: int


_GROUP_REDS = tuple(s.name for s in STRATEGIES if s.spec.target == "group")


def group_attack_order(
    seats: Sequence[str], investments: Sequence[int], hands: Sequence[int], attacker: int, red: str
) -> list[str]:
    """Return who is asked to defend a group attack, in order: clockwise from the attacker, only the rivals it reaches.

    Inflación reaches rivals with building cards in hand; Colapso de Mercado and Riesgo Sistémico
    rivals with investments (their printed cards).

    Raises:
        ValueError: the red is not a group attack.
    """
    s = _strategy(red)
    if s.spec.target != "group":
        raise ValueError(f"{red} is not a group attack")
    n = len(seats)
    order = [(attacker + k) % n for k in range(1, n)]
    held = hands if s.effect is Effect.INFLATION else investments
    return [seats[i] for i in order if held[i] > 0]


def draw_group_attack(rng: Rng) -> GroupAttackSituation:
    """4 to 6 seats; some rivals out of the attack's reach; a position among those reached."""
    while True:
        n = 4 + rng.below(3)
        seats = tuple(_names(rng, n))
        invs = tuple(rng.below(STEADY_MAX + 1) for _ in range(n))
        hands = tuple(0 if rng.below(4) == 0 else building_cards_in_hand(invs[i]) for i in range(n))
        attacker = rng.below(n)
        red = rng.choice(_GROUP_REDS)
        reached = group_attack_order(seats, invs, hands, attacker, red)
        if 2 <= len(reached) < n - 1:
            return GroupAttackSituation(seats, invs, hands, attacker, red, rng.below(len(reached)))


@_register(
    "riddle", "orden-de-defensas", (S_COMBATE, S_COMBATE_RR, *(card_section(n) for n in _GROUP_REDS)), draw_group_attack
)
def gen_defence_order(sit: GroupAttackSituation, rng: Rng) -> Item:
    """Who answers a group attack in a given place: the card's reach and the clockwise order."""
    red = _strategy(sit.red)
    order = group_attack_order(sit.seats, sit.investments, sit.hands, sit.attacker, sit.red)
    correct = order[sit.position]
    table = "; ".join(
        f"{name} ({_count(sit.investments[i], 'inversión', 'inversiones')}, "
        f"{_count(sit.hands[i], 'carta', 'cartas')} de construcción en la mano)"
        for i, name in enumerate(sit.seats)
    )
    attacker = sit.seats[sit.attacker]
    # Distractors: the attacker (never asked), rivals out of reach, and the others of the order.
    wrong = [n for n in sit.seats if n != correct]
    rng.shuffle(wrong)
    return _choice(
        rng,
        f"Sentados en sentido horario: {table}. {attacker} juega en su turno «{sit.red}» («{red.text}»). ¿Quién es "
        f"el {_ORDINALS[sit.position]} jugador al que se le pregunta si se defiende?",
        correct,
        wrong[:3],
        (S_COMBATE, red.section),
        "En ataques grupales las defensas se resuelven en sentido horario desde el atacante, y la carta dice a "
        "quién alcanza.",
        "riddle",
    )


@dataclass(frozen=True)
class SwapSituation:
    """An investment and the one card of its industry and type swapped in."""

    inv: Inv
    card: Card


def draw_swap(rng: Rng) -> SwapSituation:
    """An investment and a different card of the same industry and type."""
    inv = _random_inv(rng)
    kind = rng.choice(("$", "+R"))
    old = inv.stock if kind == "$" else inv.ret
    return SwapSituation(inv, Card(kind, inv.stock.industry, rng.choice([v for v in CARD_VALUES if v != old.value])))


@_register("riddle", "optimizacion", (S_OPTIMIZACION, S_CIERRE), draw_swap)
def gen_optimisation(sit: SwapSituation, rng: Rng) -> Item:
    """An investment's value after an optimisation (the swap rule and the value rule)."""
    swapped = "$" if sit.card.kind == "$" else "+R"
    old = sit.inv.stock if swapped == "$" else sit.inv.ret
    return _integer(
        f"Tu inversión boca abajo es {sit.inv.text()}. Optimizas el portafolio: retiras la carta {old.name} y pones "
        f"en su lugar la {sit.card.name} de tu mano, y pagas el costo. ¿Cuántos millones vale ahora la inversión?",
        optimized_value(sit.inv.stock.value, sit.inv.ret.value, swapped, sit.card.value),
        (S_OPTIMIZACION, S_CIERRE),
        "Se intercambia una carta del mismo tipo; el valor de la inversión es Acción + Rendimiento.",
        "riddle",
        unit="M",
    )


@dataclass(frozen=True)
class SequenceSituation:
    """Your turns from the deal: ``("build",)``, ``("dominate",)`` or ``("risk", face)``."""

    turns: tuple[tuple[str, ...], ...]
    ask_strategies: bool


def draw_sequence(rng: Rng) -> SequenceSituation:
    """3 to 6 turns; Arriesgar only while fewer than 4 investments are formed."""
    formed = 0
    turns: list[tuple[str, ...]] = []
    for _ in range(3 + rng.below(4)):
        options = ["build", "dominate"] + (["risk"] * 2 if formed < STEADY_MAX else [])
        action = rng.choice(options)
        if action == "risk":
            face = "+" if rng.below(3) < 2 else "−"
            formed += face == "+"
            turns.append(("risk", face))
        else:
            turns.append((action,))
    return SequenceSituation(tuple(turns), rng.below(2) == 0)


def after_turns(turns: Sequence[Sequence[str]]) -> tuple[int, int]:
    """Return (building cards in hand, strategies kept) after your turns from the deal (no attacks, no reds used).

    Construir takes 1 and discards 1; Arriesgar with "+" lays 2 down and Momentum gives 1
    strategy; with "−" nothing changes; Dominar takes 1 strategy.

    Raises:
        ValueError: an unknown turn, or a fifth investment.
    """
    formed = strategies = 0
    for t in turns:
        if t[0] == "risk" and t[1] == "+":
            formed += 1
            strategies += 1
        elif t[0] == "dominate":
            strategies += 1
        elif t[0] not in ("build", "risk"):
            raise ValueError(f"unknown turn {t!r}")
    return building_cards_in_hand(formed), strategies


_TURN_WORDS = {"build": "Construir (tomas 1 y descartas 1)", "dominate": "Dominar (guardas la Estrategia)"}


@_register("riddle", "secuencia-de-turnos", (S_TURNO, S_OCHO, S_MOMENTUM), draw_sequence)
def gen_turn_sequence(sit: SequenceSituation, rng: Rng) -> Item:
    """Building cards in hand, or strategies kept, after your turns (the actions, the rule of 8, Momentum)."""
    said = "; ".join(
        f"turno {i + 1}: " + (f"Arriesgar (el dado sale {t[1]})" if t[0] == "risk" else _TURN_WORDS[t[0]])
        for i, t in enumerate(sit.turns)
    )
    hand, strategies = after_turns(sit.turns)
    what = "Estrategias guardas" if sit.ask_strategies else "cartas de construcción tienes en la mano"
    return _integer(
        "Empiezas la partida con la mano del reparto, ninguna inversión y ninguna Estrategia; nadie te ataca, no usas "
        f"ninguna Estrategia y cuando Arriesgas siempre tienes un $ y un +R del mismo logo. Tus turnos: {said}. "
        f"¿Cuántas {what} al final?",
        strategies if sit.ask_strategies else hand,
        (S_TURNO, S_MOMENTUM) if sit.ask_strategies else (S_TURNO, S_OCHO),
        "Solo un Arriesgar con dado + baja 2 cartas y da 1 Estrategia (Momentum); Construir toma 1 y descarta 1; "
        "Dominar toma 1 Estrategia.",
        "riddle",
    )


@dataclass(frozen=True)
class TargetSituation:
    """You (with ``mine`` investments) and your rivals' investment counts; a red that targets one rival."""

    mine: int
    rivals: tuple[tuple[str, int], ...]
    red: str


def correction_targets(mine: int, rivals: Sequence[tuple[str, int]]) -> list[str]:
    """Return the rivals Corrección may target: with an investment, and igual o más avanzado."""
    return [n for n, c in rivals if c >= 1 and c >= mine]


def block_targets(mine: int, rivals: Sequence[tuple[str, int]]) -> list[str]:
    """Return the rivals Bloqueo Regulatorio may target: leaders (nobody has more, and at least 1; ruling terminos)."""
    top = max([mine, *(c for _, c in rivals)])
    return [n for n, c in rivals if c == top and c >= 1]


def draw_correction(rng: Rng) -> TargetSituation:
    """Four rivals, exactly one of them igual o más avanzado than you (and with an investment)."""
    while True:
        mine = 1 + rng.below(STEADY_MAX)
        names = _names(rng, 4)
        rivals = tuple((n, rng.below(STEADY_MAX + 1)) for n in names)
        if len(correction_targets(mine, rivals)) == 1:
            return TargetSituation(mine, rivals, "Corrección")


def draw_block(rng: Rng) -> TargetSituation:
    """Four rivals, exactly one of them a líder."""
    while True:
        names = _names(rng, 4)
        rivals = tuple((n, rng.below(STEADY_MAX + 1)) for n in names)
        mine = rng.below(STEADY_MAX + 1)
        if len(block_targets(mine, rivals)) == 1:
            return TargetSituation(mine, rivals, "Bloqueo Regulatorio")


def _target_item(sit: TargetSituation, rng: Rng, correct: str, sections: tuple[str, ...], why: str) -> Item:
    card = _strategy(sit.red)
    listed = ", ".join(f"{n} tiene {c}" for n, c in sit.rivals)
    return _choice(
        rng,
        f"Tienes {_investments(sit.mine)}; inversiones formadas de tus rivales: {listed}. Quieres jugar «{sit.red}» "
        f"(«{card.text}»). ¿A qué rival puedes elegir?",
        correct,
        [n for n, _ in sit.rivals if n != correct],
        sections,
        why,
        "riddle",
    )


@_register("riddle", "objetivo-de-correccion", (card_section("Corrección"), S_AVANZADO, R_TERMINOS), draw_correction)
def gen_correction_target(sit: TargetSituation, rng: Rng) -> Item:
    """Which rival Corrección may target (the card and "igual o más avanzado")."""
    (correct,) = correction_targets(sit.mine, sit.rivals)
    return _target_item(
        sit,
        rng,
        correct,
        (card_section("Corrección"), S_AVANZADO),
        "Corrección elige una inversión de un rival igual o más avanzado: con tantas inversiones como tú o más.",
    )


@_register("riddle", "objetivo-de-bloqueo", (card_section("Bloqueo Regulatorio"), S_LIDER, R_TERMINOS), draw_block)
def gen_block_target(sit: TargetSituation, rng: Rng) -> Item:
    """Which rival Bloqueo Regulatorio may target (the card and the líder)."""
    (correct,) = block_targets(sit.mine, sit.rivals)
    return _target_item(
        sit,
        rng,
        correct,
        (card_section("Bloqueo Regulatorio"), S_LIDER, R_TERMINOS),
        "Bloqueo Regulatorio ataca al líder: el jugador con más inversiones formadas.",
    )


@dataclass(frozen=True)
class FortuneSituation:
    """You play Fortuna and the die shows "+": your investments, rivals', your strategies before."""

    mine: int
    rivals: tuple[tuple[str, int], ...]
    kept: int


def draw_fortune(rng: Rng) -> FortuneSituation:
    """Two to four rivals; you go last about half the time; 1 to 5 strategies kept (Fortuna among them)."""
    names = _names(rng, 2 + rng.below(3))
    while True:
        mine = rng.below(STEADY_MAX + 1)
        rivals = tuple((n, rng.below(STEADY_MAX + 1)) for n in names)
        counts = [mine, *(c for _, c in rivals)]
        last = mine == min(counts) and max(counts) > mine
        if last == (rng.below(2) == 0):
            return FortuneSituation(mine, rivals, 1 + rng.below(5))


def strategies_after_fortune(mine: int, rivals: Sequence[int], kept: int) -> int:
    """Return the strategies you keep after playing Fortuna with "+": Fortuna goes to the discard, you take its draw.

    You take ``draw_last`` instead of ``draw`` if you go last (ruling terminos-del-mercado:
    nobody has fewer, and not a total tie).

    Raises:
        ValueError: you keep no strategy (Fortuna is one of them).
    """
    if kept < 1:
        raise ValueError("Fortuna must be one of your strategies")
    counts = [mine, *rivals]
    last = mine == min(counts) and max(counts) > mine
    return kept - 1 + _param("Fortuna", "draw_last" if last else "draw")


@_register("riddle", "fortuna-y-el-ultimo", (card_section("Fortuna"), S_ULTIMO, R_TERMINOS, S_ROJA), draw_fortune)
def gen_fortune(sit: FortuneSituation, rng: Rng) -> Item:
    """Strategies kept after playing Fortuna with "+" (the card and "ir de último")."""
    card = _strategy("Fortuna")
    listed = ", ".join(f"{n} tiene {c}" for n, c in sit.rivals)
    return _integer(
        f"Tienes {_investments(sit.mine)}; tus rivales: {listed}. "
        f"Guardas {_count(sit.kept, 'Estrategia', 'Estrategias')}, "
        f"una de ellas «Fortuna» («{card.text}»). La juegas en tu turno y el dado sale +. ¿Cuántas Estrategias "
        "guardas después, contando las que tomas?",
        strategies_after_fortune(sit.mine, [c for _, c in sit.rivals], sit.kept),
        (card.section, S_ULTIMO, R_TERMINOS, S_ROJA),
        "La roja se descarta al usarla; Fortuna da más Estrategias a quien va de último (menos inversiones, "
        "sin empate total).",
        "riddle",
    )


@dataclass(frozen=True)
class OpenerSituation:
    """Campeonato: seats clockwise, the winner of the last game, and the turn asked in the next one."""

    seats: tuple[str, ...]
    winner: int
    turn: int


def draw_opener(rng: Rng) -> OpenerSituation:
    """4 to 6 seats, a winner, and the 2nd to 6th turn of the next game."""
    n = 4 + rng.below(3)
    return OpenerSituation(tuple(_names(rng, n)), rng.below(n), 2 + rng.below(5))


def player_of_turn(seats: Sequence[str], opener: int, turn: int) -> str:
    """Return who plays turn number ``turn`` (1 is the opener's) going clockwise.

    Raises:
        ValueError: a turn number below 1 or an opener not seated.
    """
    if turn < 1 or not 0 <= opener < len(seats):
        raise ValueError(f"turn {turn} from seat {opener} is not a turn of this table")
    return seats[(opener + turn - 1) % len(seats)]


@_register("riddle", "campeonato-siguiente-partida", (S_CAMPEONATO, S_PREPARACION, R_CAMPEONATO), draw_opener)
def gen_next_game(sit: OpenerSituation, rng: Rng) -> Item:
    """Who plays a given turn of the next Campeonato game (the opener and the clockwise order)."""
    correct = player_of_turn(sit.seats, sit.winner, sit.turn)
    winner = sit.seats[sit.winner]
    wrong = [n for n in sit.seats if n != correct]
    rng.shuffle(wrong)
    return _choice(
        rng,
        f"Campeonato. Sentados en sentido horario: {_join(list(sit.seats))}. {winner} gana la partida y nadie llega "
        f"todavía a 100M. ¿Quién juega el {_ORDINALS[sit.turn - 1]} turno de la siguiente partida?",
        correct,
        wrong[:3],
        (S_CAMPEONATO, S_PREPARACION),
        "El ganador anterior abre la siguiente partida y se juega en sentido horario.",
        "riddle",
    )


@dataclass(frozen=True)
class CollapseSituation:
    """Colapso de Mercado against the rivals: their investments and the one blue each holds (or none)."""

    attacker: str
    rivals: tuple[tuple[str, int, str], ...]  # name, investments, blue held ("" for none)


def draw_collapse(rng: Rng) -> CollapseSituation:
    """Two to four rivals with investments, each with no blue, a blue that covers it, or Moneda Estable.

    The blues come from the deck's real copies, so no name is held more often than it is printed.
    """
    names = _names(rng, 5)
    pool = ["", "", "", ""] + [
        s.name
        for s in STRATEGIES
        if s.name in ("Moneda Estable", "Manos de Diamante", "Control del Riesgo", "Plan de Contingencia")
        for _ in range(s.copies)
    ]
    while True:
        rng.shuffle(pool)
        rivals = [(n, 1 + rng.below(STEADY_MAX), pool[i]) for i, n in enumerate(names[1 : 3 + rng.below(3)])]
        answer = investments_after_collapse(rivals)
        if {k for _, k, _ in rivals} != {answer}:  # the prompt's numbers alone must not be the answer
            return CollapseSituation(names[0], tuple(rivals))


def investments_after_collapse(rivals: Sequence[tuple[str, int, str]]) -> int:
    """Return the rivals' investments left after Colapso de Mercado when each defends if its blue can cancel it.

    Raises:
        KeyError: a blue name that is no strategy.
    """
    left = 0
    for _, invs, blue in rivals:
        if blue and can_cancel(blue, "Colapso de Mercado"):
            left += invs
    return left


@_register(
    "riddle",
    "colapso-y-defensas",
    (
        card_section("Colapso de Mercado"),
        S_FAQ_COLAPSO,
        S_COMBATE,
        *(card_section(n) for n in _BLUES),
    ),
    draw_collapse,
)
def gen_collapse(sit: CollapseSituation, rng: Rng) -> Item:
    """The rivals' investments left after Colapso de Mercado (the card, the FAQ and which blues cancel it)."""
    held = "; ".join(
        f"{n}: {_count(k, 'inversión', 'inversiones')}, " + (f"guarda «{b}»" if b else "sin azules")
        for n, k, b in sit.rivals
    )
    blues = sorted({b for _, _, b in sit.rivals if b})
    texts = "; ".join(f"«{b}»: «{_strategy(b).text}»" for b in blues)
    return _integer(
        f"{sit.attacker} juega «Colapso de Mercado». Sus rivales: {held}. Cada uno se defiende si su azul puede "
        f"cancelar el ataque{' (' + texts + ')' if texts else ''}. ¿Cuántas inversiones les quedan a los rivales, "
        "entre todos?",
        investments_after_collapse(sit.rivals),
        (card_section("Colapso de Mercado"), S_FAQ_COLAPSO, S_COMBATE, *(_strategy(b).section for b in blues)),
        "Los jugadores sin defensa pierden todas sus inversiones; Moneda Estable solo protege las cartas de la mano.",
        "riddle",
    )


# =========================================================================== numbers the acertijos work out


def least_games_to_match() -> int:
    """Return the fewest won games that reach 100M in Campeonato, each worth at most 4 × 10M (no bonuses)."""
    best = INVESTMENTS_TO_WIN * INVESTMENT_MAX
    return -(-CHAMPIONSHIP_TARGET // best)


def most_investments() -> int:
    """Return how many investments the 8 building cards allow: 2 cards each."""
    return BUILDING_CARDS // 2


def die_faces() -> int:
    """Return the Fortune die's faces: its "+" faces and its "−" faces (the engine's die)."""
    return COMPONENTS.plus_faces + COMPONENTS.minus_faces


def strategy_names_count() -> int:
    """Return how many distinct strategy names the rulebook's colour table lists."""
    return sum(len(names) for names in RULEBOOK_NAMES.values())
