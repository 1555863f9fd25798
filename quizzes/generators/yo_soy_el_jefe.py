"""Yo soy el jefe: the rules as small functions, and the parametric questions and riddles built on them.

Every number here is the rulebook's (``rules_corpus/data/yo-soy-el-jefe/rulebook.txt``)
or a written ruling's; each constant names the section it comes from. The rule
functions answer the hand-written items whose answers are computed (their
``computed`` field calls one with the item's numbers, e.g.
``"club_agentes.quizzes.generators.yo_soy_el_jefe:boss_keeps(13, 6, [10, 10])"``) and the
registered generators, which make unlimited fresh items from a seeded ``Rng``.

Deal cards. The rulebook gives only some of the 15 deal cards: a dividend is worth
3M on the 6th deal (3-3-cierre/pago/ejemplo) and 5M on the 13th (6-ejemplos); no
die is rolled before the 10th deal; after the 11th a 1 or a 2 ends the game
(4-finalizacion/ejemplo); after the 13th a 5 does not (6-ejemplos/fin-del-ejemplo);
the 15th ends the game without a roll. Once the Yo soy el jefe engine publishes its
deal cards (a ``dividend_value(deal_number)`` function and the die numbers on each
card's back), :func:`dividend_value` and :func:`roll_ends_game` use them, and the
generators ``pago-del-banquero``, ``lo-que-queda-al-jefe``, ``pago-a-dos-jugadores``
and ``dado-de-fin`` range over every deal; until then they use only the stated facts.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.model import CHOICE_LETTERS, AnswerType, Item, ItemKind, computed_item, generator
from club_agentes.rules_corpus import load_corpus

GAME = "yo-soy-el-jefe"
_MODULE = "club_agentes.quizzes.generators.yo_soy_el_jefe"

DEALS = 15  # 1-componentes/otros-componentes: "Cartas de negociación: 15"
FIRST_DIE_DEAL = 10  # 4-finalizacion/dado-de-fin: "A partir del décimo acuerdo"
BOARD_SPACES = 16  # 1-componentes/tablero: "16 casillas de negociación"
INVESTOR_CARDS = 6  # 1-componentes/otros-componentes: "Cartas de inversor: 6"
HAND_LIMIT = 12  # 3-desarrollo/tomar-cartas: "hasta 12 cartas de influencia"
DRAW = 3  # 3-desarrollo/tomar-cartas: "Tomar 3 cartas"
HIRE_SET = 3  # 3-2-2-cartas-de-influencia/empleo: "en conjuntos de 3 cartas"
DIE_FACES = 6

# Stated deal-card facts (see the module docstring).
STATED_DIVIDEND_VALUES: dict[int, int] = {6: 3, 13: 5}
STATED_ENDING_ROLLS: dict[int, frozenset[int]] = {11: frozenset({1, 2})}
STATED_NOT_ENDING_ROLLS: dict[int, frozenset[int]] = {13: frozenset({5})}

# 5-variantes/robo-segun-inversores: 0 investors -> 4 cards, 1 -> 3, 2 -> 2, 3 or more -> 1.
VARIANT_DRAW: tuple[int, ...] = (4, 3, 2, 1)

COLOURS: tuple[str, ...] = ("rojo", "azul", "amarillo", "rosa", "naranja", "verde")
NAMES: tuple[str, ...] = ("Ana", "Bruno", "Carla", "David", "Elena", "Fermín")

# The four outcomes of a completed deal for the end of the game (4-finalizacion/dado-de-fin).
NO_ROLL_CONTINUES = "No se tira el dado y la partida continúa"
ENDS_WITHOUT_ROLL = "La partida termina sin tirar el dado"
ROLL_ENDS = "Se tira el dado y la partida termina"
ROLL_CONTINUES = "Se tira el dado y la partida continúa"
END_OUTCOMES: tuple[str, ...] = (NO_ROLL_CONTINUES, ROLL_CONTINUES, ROLL_ENDS, ENDS_WITHOUT_ROLL)

S_PAGO = "yo-soy-el-jefe/3-3-cierre/pago"
S_PAGO_EJEMPLO = "yo-soy-el-jefe/3-3-cierre/pago/ejemplo"
S_EJEMPLO = "yo-soy-el-jefe/6-ejemplos"
S_CONTRAPRESTACION = "yo-soy-el-jefe/3-2-1-participacion/contraprestacion"
S_DADO = "yo-soy-el-jefe/4-finalizacion/dado-de-fin"
S_DADO_EJEMPLO = "yo-soy-el-jefe/4-finalizacion/ejemplo"
S_FIN_EJEMPLO = "yo-soy-el-jefe/6-ejemplos/fin-del-ejemplo"
S_INVERSORES = "yo-soy-el-jefe/2-preparacion/cartas-de-inversor"
R_INVERSORES = "yo-soy-el-jefe/rulings/errata-reparto-de-inversores"
R_DOS = "yo-soy-el-jefe/rulings/dos-jugadores"
S_ROBO_VARIANTE = "yo-soy-el-jefe/5-variantes/robo-segun-inversores"
S_TOMAR = "yo-soy-el-jefe/3-desarrollo/tomar-cartas"
S_DOS = "yo-soy-el-jefe/5-variantes/dos-jugadores"
S_DADO_MOVER = "yo-soy-el-jefe/3-desarrollo/tirar-el-dado"
S_TABLERO = "yo-soy-el-jefe/1-componentes/tablero"
S_TRAS_PAGO = "yo-soy-el-jefe/3-3-cierre/tras-el-pago"
S_JEFE = "yo-soy-el-jefe/3-2-2-cartas-de-influencia/jefe"
S_FIN_TURNO = "yo-soy-el-jefe/3-desarrollo/fin-del-turno"
S_PRIMER = "yo-soy-el-jefe/2-preparacion/primer-jugador"
S_JEFE_VARIANTE = "yo-soy-el-jefe/5-variantes/jefe-sin-cambio-de-turno"

_ENGINE_MODULES: tuple[str, ...] = (
    "club_agentes.engine.yo_soy_el_jefe",
    "club_agentes.engine.yo_soy_el_jefe.components",
    "club_agentes.engine.yo_soy_el_jefe.deals",
    "club_agentes.engine.yo_soy_el_jefe.rules",
)


# ---------------------------------------------------------------------------
# The engine's deal cards, when they exist
# ---------------------------------------------------------------------------


@cache
def _engine_function(*names: str) -> Callable[..., Any] | None:
    """Return the first plain function of the engine package with one of ``names``, or ``None``.

    ``None`` while the engine package is missing or incomplete, so that this module
    always imports and falls back on the rulebook's stated facts.
    """
    for module_name in _ENGINE_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in names:
            fn = getattr(module, name, None)
            if callable(fn):
                return fn
    return None


def engine_dividend_value(deal: int) -> int | None:
    """Return the engine's dividend value (millions) for deal ``deal``, or ``None`` without engine data."""
    fn = _engine_function("dividend_value")
    if fn is None:
        return None
    value = fn(deal)
    return int(value) if isinstance(value, int) else None


def engine_ending_rolls(deal: int) -> frozenset[int] | None:
    """Return the die numbers on the back of the engine's deal card ``deal``, or ``None`` without engine data."""
    fn = _engine_function("deal_card")
    if fn is None:
        return None
    numbers = getattr(fn(deal), "end_numbers", None)
    if numbers is None:
        return None
    return frozenset(int(v) for v in numbers)


def engine_spaces() -> tuple[tuple[int, int], ...]:
    """Return (dividends, investors needed) of each of the engine's board spaces; empty without engine data."""
    fn = _engine_function("board_spaces")
    if fn is None:
        return ()
    out: list[tuple[int, int]] = []
    for space in fn():
        dividends = getattr(space, "dividends", None)
        needed = getattr(space, "investors_needed", None)
        if isinstance(dividends, int) and isinstance(needed, int):
            out.append((dividends, needed))
    return tuple(out)


def uses_engine_deal_cards() -> bool:
    """Whether the engine publishes its deal cards (dividend values and die numbers)."""
    return _engine_function("dividend_value") is not None and _engine_function("deal_card") is not None


# ---------------------------------------------------------------------------
# The rules as functions
# ---------------------------------------------------------------------------


def _check_deal(deal: int) -> None:
    if not 1 <= deal <= DEALS:
        raise ValueError(f"there are {DEALS} deal cards; deal {deal} does not exist")


def dividend_value(deal: int) -> int:
    """Return the value in millions of one dividend on the ``deal``-th deal (the top deal card then).

    Raises:
        ValueError: ``deal`` is not 1 to 15.
        LookupError: neither the rulebook nor the engine's deal cards give that value.
    """
    _check_deal(deal)
    value = engine_dividend_value(deal)
    if value is not None:
        return value
    if deal in STATED_DIVIDEND_VALUES:
        return STATED_DIVIDEND_VALUES[deal]
    raise LookupError(f"the rulebook does not give the dividend value of deal {deal}, and the engine has no deal cards")


def known_dividend_deals() -> tuple[int, ...]:
    """Return the deal numbers whose dividend value is known (all 15 with the engine's deal cards)."""
    if _engine_function("dividend_value") is not None:
        return tuple(range(1, DEALS + 1))
    return tuple(sorted(STATED_DIVIDEND_VALUES))


def banker_payout(deal: int, dividends: int) -> int:
    """Return what the banker pays the boss (millions) for the ``deal``-th deal on a space of ``dividends``.

    Raises:
        ValueError: a deal number outside 1 to 15 or fewer than one dividend.
        LookupError: the deal's dividend value is unknown (see :func:`dividend_value`).
    """
    if dividends < 1:
        raise ValueError(f"a deal space shows at least one dividend, not {dividends}")
    return dividend_value(deal) * dividends


def boss_keeps(deal: int, dividends: int, promises: Sequence[int]) -> int:
    """Return what the boss keeps (millions) after paying the amounts promised during the negotiation.

    Only the deal's dividends can be offered (3-2-1-participacion/contraprestacion), so
    the promises never add up to more than the payout.

    Raises:
        ValueError: a negative promise, promises above the payout, or a bad deal or dividend count.
        LookupError: the deal's dividend value is unknown.
    """
    if any(p < 0 for p in promises):
        raise ValueError("a promised payment is never negative")
    payout = banker_payout(deal, dividends)
    promised = sum(promises)
    if promised > payout:
        raise ValueError(f"promises of {promised}M exceed the payout of {payout}M; only the dividends can be offered")
    return payout - promised


def die_rolled_after(deal: int) -> bool:
    """Return whether the boss rolls the end die after completing the ``deal``-th deal.

    Raises:
        ValueError: ``deal`` is not 1 to 15.
    """
    _check_deal(deal)
    return FIRST_DIE_DEAL <= deal < DEALS


def roll_ends_game(deal: int, roll: int) -> bool:
    """Return whether rolling ``roll`` after the ``deal``-th deal ends the game.

    Raises:
        ValueError: a deal outside 10 to 14 (no die is rolled then) or a roll outside 1 to 6.
        LookupError: neither the rulebook nor the engine's deal cards say.
    """
    if not die_rolled_after(deal):
        raise ValueError(f"no die is rolled after deal {deal}")
    if not 1 <= roll <= DIE_FACES:
        raise ValueError(f"a die shows 1 to 6, not {roll}")
    rolls = engine_ending_rolls(deal)
    if rolls is not None:
        return roll in rolls
    if deal in STATED_ENDING_ROLLS:
        return roll in STATED_ENDING_ROLLS[deal]
    if roll in STATED_NOT_ENDING_ROLLS.get(deal, frozenset()):
        return False
    raise LookupError(f"the rulebook does not say whether a {roll} ends the game after deal {deal}")


def end_outcome(deal: int, roll: int | None = None) -> str:
    """Return what happens for the end of the game once the ``deal``-th deal is completed.

    One of :data:`END_OUTCOMES`. ``roll`` is the die result when one is rolled.

    Raises:
        ValueError: a bad deal number, or a roll missing or out of range where one is rolled.
        LookupError: as :func:`roll_ends_game`.
    """
    _check_deal(deal)
    if deal == DEALS:
        return ENDS_WITHOUT_ROLL
    if deal < FIRST_DIE_DEAL:
        return NO_ROLL_CONTINUES
    if roll is None:
        raise ValueError(f"after deal {deal} the boss rolls the die; give the roll")
    return ROLL_ENDS if roll_ends_game(deal, roll) else ROLL_CONTINUES


def known_end_cases() -> tuple[tuple[int, int | None], ...]:
    """Return every (deal, roll) whose end-of-game outcome is known; ``roll`` is ``None`` where none is rolled."""
    cases: list[tuple[int, int | None]] = [(d, None) for d in range(1, FIRST_DIE_DEAL)]
    for deal in range(FIRST_DIE_DEAL, DEALS):
        for roll in range(1, DIE_FACES + 1):
            try:
                roll_ends_game(deal, roll)
            except LookupError:
                continue
            cases.append((deal, roll))
    cases.append((DEALS, None))
    return tuple(cases)


def investor_cards_each(players: int) -> int:
    """Return the investor cards dealt to each player.

    Two each with 3 players and one each with 4 to 6 (2-preparacion/cartas-de-inversor and
    the ruling errata-reparto-de-inversores); three each with 2 players (ruling dos-jugadores).

    Raises:
        ValueError: a player count outside 2 to 6.
    """
    if players == 2:
        return 3
    if players == 3:
        return 2
    if 4 <= players <= 6:
        return 1
    raise ValueError(f"investor cards are dealt for 2 to 6 players, not {players}")


def investor_cards_beside_board(players: int) -> int:
    """Return the investor cards left beside the board after dealing for ``players`` players.

    Raises:
        ValueError: as :func:`investor_cards_each`.
    """
    return INVESTOR_CARDS - players * investor_cards_each(players)


def variant_draw(investors: int) -> int:
    """Return the influence cards drawn under the variant 5-variantes/robo-segun-inversores.

    Raises:
        ValueError: a negative count of investor cards.
    """
    if investors < 0:
        raise ValueError(f"a player cannot hold {investors} investor cards")
    return VARIANT_DRAW[min(investors, len(VARIANT_DRAW) - 1)]


def hand_discard(hand: int, drawn: int = DRAW, hire_sets: int = 0, limit: int = HAND_LIMIT) -> int:
    """Return the influence cards discarded at the end of a turn in which the player drew cards.

    The player holds ``hand`` cards, draws ``drawn`` and, before discarding, plays
    ``hire_sets`` sets of 3 hire cards (3-desarrollo/tomar-cartas); the hand limit is
    ``limit`` (12, or 10 under the variant 5-variantes/limite-10-y-partida-rapida).

    Raises:
        ValueError: negative counts, or more hire cards played than the hand holds.
    """
    if hand < 0 or drawn < 0 or hire_sets < 0 or limit < 0:
        raise ValueError("card counts are never negative")
    held = hand + drawn - HIRE_SET * hire_sets
    if held < 0:
        raise ValueError(f"{hire_sets} sets of hire cards need {HIRE_SET * hire_sets} cards; the hand holds fewer")
    return max(0, held - limit)


def variant_draw_discard(hand: int, investors: int) -> int:
    """Return the cards discarded after drawing under the variant 5-variantes/robo-segun-inversores.

    Raises:
        ValueError: negative counts.
    """
    return hand_discard(hand, variant_draw(investors))


def two_player_payment(total: int, investors_required: int, cards_used: int) -> int:
    """Return what the boss pays (millions) for using ``cards_used`` of the opponent's investor cards.

    Two-player rules (5-variantes/dos-jugadores): each card is paid "la cantidad total de
    dividendos dividida por el número de inversores".

    Raises:
        ValueError: non-positive counts, more cards than investors required, or a share
            that is not a whole number of millions.
    """
    if total < 0 or investors_required < 1 or not 0 <= cards_used <= investors_required:
        raise ValueError("the total is not negative and at most the required investors are used")
    share = Fraction(total, investors_required) * cards_used
    if share.denominator != 1:
        raise ValueError(f"{total}M shared among {investors_required} investors is not whole millions per card")
    return int(share)


def two_player_payment_for_deal(deal: int, dividends: int, investors_required: int, cards_used: int) -> int:
    """Return :func:`two_player_payment` for the ``deal``-th deal on a space of ``dividends``.

    Raises:
        ValueError: as :func:`two_player_payment` and :func:`banker_payout`.
        LookupError: the deal's dividend value is unknown.
    """
    return two_player_payment(banker_payout(deal, dividends), investors_required, cards_used)


def _check_spaces(position: int, covered: Collection[int], spaces: int) -> None:
    if not 1 <= position <= spaces or any(not 1 <= c <= spaces for c in covered):
        raise ValueError(f"board spaces are numbered 1 to {spaces}")
    if len(set(covered)) >= spaces:
        raise ValueError("at least one board space must be free")


def marker_destination(position: int, roll: int, covered: Collection[int], spaces: int = BOARD_SPACES) -> int:
    """Return the space the dollar marker reaches from ``position`` with a roll of ``roll``.

    Spaces are numbered 1 to ``spaces`` clockwise; the marker moves clockwise and
    spaces covered by deal cards are not counted (3-desarrollo/tirar-el-dado).

    Raises:
        ValueError: spaces out of range, a roll outside 1 to 6, or no free space.
    """
    _check_spaces(position, covered, spaces)
    if not 1 <= roll <= DIE_FACES:
        raise ValueError(f"a die shows 1 to 6, not {roll}")
    blocked = set(covered)
    here, left = position, roll
    while left:
        here = here % spaces + 1
        if here not in blocked:
            left -= 1
    return here


def next_empty_space(position: int, covered: Collection[int], spaces: int = BOARD_SPACES) -> int:
    """Return the next empty space clockwise after a deal completed on ``position`` (3-3-cierre/tras-el-pago).

    ``covered`` lists the spaces covered by deal cards, including ``position`` itself.

    Raises:
        ValueError: spaces out of range, or no empty space left.
    """
    _check_spaces(position, covered, spaces)
    blocked = set(covered) | {position}
    if len(blocked) >= spaces:
        raise ValueError("no empty space is left")
    here = position
    while True:
        here = here % spaces + 1
        if here not in blocked:
            return here


def left_of(seat: int, players: int) -> int:
    """Return the seat to the left of ``seat``: play goes clockwise, so it is the next seat number.

    Raises:
        ValueError: a seat outside 1 to ``players``.
    """
    if not 1 <= seat <= players:
        raise ValueError(f"seats are numbered 1 to {players}, not {seat}")
    return seat % players + 1


def next_turn_seat(players: int, turn_seat: int, last_boss: int, same_turn_variant: bool = False) -> int:
    """Return the seat that plays next after a completed deal.

    Standard rules: the player to the left of the last player to use a boss card (or
    of the boss, if none was used) plays next (3-2-2-cartas-de-influencia/jefe). Under
    the variant 5-variantes/jefe-sin-cambio-de-turno the turn does not change hands:
    the player to the left of the one whose turn it was plays next.

    Raises:
        ValueError: seats outside 1 to ``players``.
    """
    left_of(last_boss, players)
    return left_of(turn_seat if same_turn_variant else last_boss, players)


def turns_skipped(players: int, turn_seat: int, last_boss: int) -> int:
    """Return how many players lose their turn when the last boss card is played by ``last_boss``.

    Counts the seats strictly between the turn's player and the next player, clockwise.

    Raises:
        ValueError: seats outside 1 to ``players``.
    """
    nxt = next_turn_seat(players, turn_seat, last_boss)
    left_of(turn_seat, players)
    return (nxt - turn_seat - 1) % players


# ---------------------------------------------------------------------------
# Generators
# ---------------------------------------------------------------------------


def _item(
    kind: ItemKind,
    type_: AnswerType,
    prompt: str,
    answer: str,
    sections: tuple[str, ...],
    computed: str,
    explanation: str,
    **extra: Any,
) -> Item:
    return computed_item(GAME, _MODULE, kind, type_, prompt, answer, sections, computed, explanation, **extra)


def _ordinal(n: int) -> str:
    return f"{n}.ª"


def _deal_card_sections() -> tuple[str, ...]:
    """The corpus sections where this implementation's deal cards are published (empty until they are)."""
    corpus = load_corpus()
    found = [
        s.id
        for s in corpus.toc(GAME)
        if s.kind == "component" and any(w in s.id for w in ("negociacion", "transaccion", "deal"))
    ]
    return tuple(found[:1])


DEAL_CARD_SECTIONS = _deal_card_sections()


def _deal_sections(deal: int) -> tuple[str, ...]:
    """The sections that give the dividend value of ``deal``: the rulebook's example, or the published deal cards."""
    stated = STATED_DIVIDEND_VALUES.get(deal)
    if stated is not None and engine_dividend_value(deal) in (None, stated):
        return (S_PAGO_EJEMPLO,) if deal == 6 else (S_EJEMPLO,)
    return DEAL_CARD_SECTIONS


def _dividend_counts() -> tuple[int, ...]:
    """Dividend counts to ask about: those of the engine's board spaces if it has them, else 2 to 8."""
    counts = tuple(sorted({d for d, _ in engine_spaces()}))
    return counts or tuple(range(2, 9))


def _space_shapes() -> tuple[tuple[int, int], ...]:
    """(dividends, investors needed) pairs to ask about: the engine's spaces, else 2 to 8 dividends with 2 to 6."""
    shapes = tuple(sorted(set(engine_spaces())))
    return shapes or tuple((d, n) for d in range(2, 9) for n in range(2, 7))


@generator(GAME, "question", "pago-del-banquero", (S_PAGO, S_PAGO_EJEMPLO, S_EJEMPLO, *DEAL_CARD_SECTIONS))
def gen_banker_payout(rng: Rng) -> Item:
    """The banker's payout for a deal number and a count of dividends."""
    deal = rng.choice(known_dividend_deals())
    dividends = rng.choice(_dividend_counts())
    value = dividend_value(deal)
    payout = banker_payout(deal, dividends)
    return _item(
        "question",
        "integer",
        f"Se completa la {_ordinal(deal)} transacción de la partida, en una casilla que muestra {dividends} "
        f"dividendos. {_value_clause(rng, deal)} ¿Cuánto paga el banquero al jefe?",
        str(payout),
        (S_PAGO, S_PAGO_EJEMPLO, *_deal_sections(deal)),
        "banker_payout",
        f"El banquero paga al jefe los dividendos de la casilla por el valor de uno: "
        f"{dividends} × {value}M = {payout}M.",
        unit="M",
    )


def _value_clause(rng: Rng, deal: int) -> str:
    """State the dividend value of ``deal``, or (half the time, for a value the rulebook gives) ask to recall it."""
    stated = deal in STATED_DIVIDEND_VALUES and engine_dividend_value(deal) in (None, STATED_DIVIDEND_VALUES[deal])
    if stated and rng.below(2):
        return "El valor de un dividendo en esa transacción es el que da el reglamento."
    return f"En esta partida, un dividendo vale ${dividend_value(deal)}M en la {_ordinal(deal)} transacción."


def _back_clause(deal: int) -> str:
    """Describe the back of deal card ``deal`` from the engine's data (empty without it)."""
    rolls = engine_ending_rolls(deal)
    if rolls is None:
        return ""
    if not rolls:
        return " En el reverso de esa carta de transacción no aparece ningún número."
    listing = ", ".join(str(r) for r in sorted(rolls))
    return f" En el reverso de esa carta de transacción aparecen los números: {listing}."


def _covered_clause(covered: Sequence[int], already: bool = False) -> str:
    """Say, in Spanish and in the right number, that the board spaces ``covered`` are covered by deal cards."""
    ya = "ya " if already else ""
    if len(covered) == 1:
        return f"la casilla {covered[0]} {ya}está cubierta por una carta de negociación"
    listing = ", ".join(str(c) for c in covered[:-1]) + f" y {covered[-1]}"
    return f"las casillas {listing} {ya}están cubiertas por cartas de negociación"


def _promises(rng: Rng, payout: int) -> list[int]:
    count = 1 + rng.below(3)
    out: list[int] = []
    left = payout
    for _ in range(count):
        if left <= 0:
            break
        p = 1 + rng.below(max(1, min(left, payout // 2)))
        out.append(p)
        left -= p
    return out


@generator(
    GAME, "riddle", "lo-que-queda-al-jefe", (S_PAGO, S_CONTRAPRESTACION, S_PAGO_EJEMPLO, S_EJEMPLO, *DEAL_CARD_SECTIONS)
)
def gen_boss_keeps(rng: Rng) -> Item:
    """What the boss keeps after paying the promises of a negotiation."""
    deal = rng.choice(known_dividend_deals())
    dividends = rng.choice(_dividend_counts())
    payout = banker_payout(deal, dividends)
    promises = _promises(rng, payout)
    keeps = boss_keeps(deal, dividends, promises)
    names = NAMES[1 : 1 + len(promises)]
    deals = "; ".join(f"a {n} le prometió ${p}M" for n, p in zip(names, promises, strict=True))
    return _item(
        "riddle",
        "integer",
        f"{NAMES[0]} es el jefe de la {_ordinal(deal)} transacción, en una casilla de {dividends} dividendos. "
        f"{_value_clause(rng, deal)} Para reunir a los inversores, {deals}. "
        "Se cierra el trato. ¿Cuánto dinero se queda el jefe?",
        str(keeps),
        (S_PAGO, S_CONTRAPRESTACION, *_deal_sections(deal)),
        "boss_keeps",
        f"El banquero paga {payout}M al jefe, que paga lo acordado ({sum(promises)}M) y se queda {keeps}M.",
        unit="M",
    )


@generator(GAME, "question", "dado-de-fin", (S_DADO, S_DADO_EJEMPLO, S_FIN_EJEMPLO, *DEAL_CARD_SECTIONS))
def gen_end_die(rng: Rng) -> Item:
    """What happens for the end of the game after the n-th deal (and a roll, when one is rolled)."""
    cases = known_end_cases()
    # One case in four before the 10th deal, one in four the 15th, half with a roll.
    pick = rng.below(4)
    pool = [c for c in cases if (c[0] < FIRST_DIE_DEAL, c[0] == DEALS) == (pick == 0, pick == 1)]
    deal, known_roll = rng.choice(pool)
    roll = known_roll if known_roll is not None else 1 + rng.below(DIE_FACES)
    outcome = end_outcome(deal, roll)
    options = list(END_OUTCOMES)
    rng.shuffle(options)
    rolled = f"{_back_clause(deal)} Si el jefe tira el dado, sale un {roll}."
    sections: tuple[str, ...] = (S_DADO,)
    if deal == 11:
        sections += (S_DADO_EJEMPLO,)
    elif deal == 13:
        sections += (S_FIN_EJEMPLO,)
    if engine_ending_rolls(deal) is not None:
        sections += DEAL_CARD_SECTIONS
    return _item(
        "question",
        "choice",
        f"Se acaba de completar la {_ordinal(deal)} transacción de la partida y su carta de transacción ya está "
        f"colocada en el tablero.{rolled} ¿Qué ocurre?",
        CHOICE_LETTERS[options.index(outcome)],
        sections,
        "end_outcome",
        "A partir del décimo acuerdo el jefe tira el dado y el juego termina si sale un número del reverso de la "
        "carta de transacción; tras la decimoquinta termina sin tirarlo.",
        options=tuple(options),
    )


# The two-player deal rests on a ruling; it is asked about once that ruling is in the corpus.
_TWO_PLAYER_DEAL = load_corpus().has(R_DOS)


@generator(
    GAME, "question", "inversores-por-jugador", (S_INVERSORES, R_INVERSORES, *((R_DOS,) if _TWO_PLAYER_DEAL else ()))
)
def gen_investors_dealt(rng: Rng) -> Item:
    """Investor cards dealt to each player, or left beside the board, for 2 (once ruled) or 3 to 6 players."""
    players = rng.choice(tuple(range(2 if _TWO_PLAYER_DEAL else 3, 7)))
    if rng.below(2):
        answer = investor_cards_each(players)
        prompt = f"En una partida de {players} jugadores, ¿cuántas cartas de inversor recibe cada jugador al preparar?"
        fn = "investor_cards_each"
    else:
        answer = investor_cards_beside_board(players)
        prompt = (
            f"En una partida de {players} jugadores, tras repartir las cartas de inversor, "
            "¿cuántas quedan al lado del tablero?"
        )
        fn = "investor_cards_beside_board"
    return _item(
        "question",
        "integer",
        prompt,
        str(answer),
        (S_INVERSORES, R_INVERSORES, *((R_DOS,) if players == 2 else ())),
        fn,
        "Hay 6 cartas de inversor: con 2 jugadores se reparten 3 a cada uno; con 3, 2 a cada uno; con 4 a 6, una a "
        "cada uno, y con 4 o 5 las restantes quedan al lado del tablero.",
        unit="",
    )


@generator(GAME, "question", "robo-segun-inversores", (S_ROBO_VARIANTE,))
def gen_variant_draw(rng: Rng) -> Item:
    """Cards drawn under the investor-count variant."""
    investors = rng.below(5)
    n = variant_draw(investors)
    return _item(
        "question",
        "integer",
        "Jugáis con la variante en que las cartas de influencia que se reciben dependen de las cartas de inversor "
        f"que uno tiene. Tienes {investors} cartas de inversor y eliges tomar cartas. ¿Cuántas recibes?",
        str(n),
        (S_ROBO_VARIANTE,),
        "variant_draw",
        "Sin inversores se reciben 4 cartas; con 1, 3; con 2, 2; con 3 o más, 1.",
        unit="",
    )


@generator(GAME, "question", "limite-de-cartas", (S_TOMAR,))
def gen_hand_limit(rng: Rng) -> Item:
    """Influence cards discarded after taking 3, with or without a set of hire cards played first."""
    hand = 9 + rng.below(4)
    hires = 1 if hand >= 10 and rng.below(4) == 0 else 0
    n = hand_discard(hand, DRAW, hires)
    extra = " Antes de descartar, juegas un conjunto de 3 cartas de contratación." if hires else ""
    return _item(
        "question",
        "integer",
        f"Tienes {hand} cartas de influencia, tiras el dado y eliges tomar 3 cartas del mazo.{extra} "
        "¿Cuántas cartas debes descartar antes de finalizar tu turno?",
        str(n),
        (S_TOMAR,),
        "hand_discard",
        "Cada jugador puede tener hasta 12 cartas de influencia; antes de descartar el exceso puede usar "
        "3 cartas de contratación para reducir su mano.",
        unit="",
    )


@generator(GAME, "riddle", "pago-a-dos-jugadores", (S_DOS, S_PAGO, S_PAGO_EJEMPLO, S_EJEMPLO, *DEAL_CARD_SECTIONS))
def gen_two_player_payment(rng: Rng) -> Item:
    """What the boss pays for using the opponent's investor cards under the two-player rules."""
    combos = [
        (deal, dividends, required)
        for deal in known_dividend_deals()
        for dividends, required in _space_shapes()
        if required >= 2 and banker_payout(deal, dividends) % required == 0
    ]
    deal, dividends, required = rng.choice(combos)
    total = banker_payout(deal, dividends)
    used = 1 + rng.below(required - 1)
    pay = two_player_payment(total, required, used)
    return _item(
        "riddle",
        "integer",
        f"Partida con las reglas para dos jugadores. El jefe completa la {_ordinal(deal)} transacción, en una "
        f"casilla de {dividends} dividendos que requiere {required} inversores. {_value_clause(rng, deal)} "
        f"Usa {used} {'carta' if used == 1 else 'cartas'} de inversor de su oponente sin su consentimiento. "
        "¿Cuánto debe pagarle?",
        str(pay),
        (S_DOS, S_PAGO, *_deal_sections(deal)),
        "two_player_payment_for_deal",
        f"Se paga la cantidad total de dividendos ({total}M) dividida por el número de inversores ({required}) "
        f"por cada carta: {used} × {total // required}M = {pay}M.",
        unit="M",
    )


@generator(GAME, "riddle", "movimiento-del-marcador", (S_DADO_MOVER, S_TABLERO))
def gen_marker_move(rng: Rng) -> Item:
    """Where the dollar marker lands after a roll, skipping covered spaces."""
    position = 1 + rng.below(BOARD_SPACES)
    others = [s for s in range(1, BOARD_SPACES + 1) if s != position]
    rng.shuffle(others)
    covered = sorted(others[: 1 + rng.below(6)])
    roll = 1 + rng.below(DIE_FACES)
    land = marker_destination(position, roll, covered)
    return _item(
        "riddle",
        "integer",
        "Las 16 casillas de negociación están numeradas del 1 al 16 en sentido horario (tras la 16 viene la 1). "
        f"El marcador de dólares está en la casilla {position}, y {_covered_clause(covered)}. "
        f"Tiras el dado y sale un {roll}. ¿En qué casilla queda el marcador?",
        str(land),
        (S_DADO_MOVER, S_TABLERO),
        "marker_destination",
        "El marcador avanza en sentido horario tantas casillas como indica el dado, sin contar las cubiertas por "
        "cartas de negociación.",
        unit="",
    )


@generator(GAME, "riddle", "siguiente-turno", (S_JEFE, S_FIN_TURNO, S_PRIMER, S_JEFE_VARIANTE))
def gen_next_turn(rng: Rng) -> Item:
    """Who plays next after a deal in which boss cards changed the boss."""
    players = 3 + rng.below(4)
    turn = 1 + rng.below(players)
    last = 1 + rng.below(players)
    variant = rng.below(3) == 0
    nxt = next_turn_seat(players, turn, last, variant)
    rule = (
        " Jugáis con la variante en que, si se usa una carta de jefe para cambiar al jefe, el turno no cambia."
        if variant
        else ""
    )
    who = (
        f"el jugador {last} juega la última carta de jefe y cierra el trato"
        if last != turn
        else f"varios jugadores usan cartas de jefe; el último en usarla es el propio jugador {turn}, "
        "que cierra el trato"
    )
    return _item(
        "riddle",
        "integer",
        f"En una partida de {players} jugadores, sentados en sentido horario del 1 al {players}, es el turno del "
        f"jugador {turn}, que comienza una negociación. Durante la negociación {who}.{rule} "
        "¿Qué jugador tiene el siguiente turno?",
        str(nxt),
        (S_JEFE, S_FIN_TURNO, S_PRIMER, *((S_JEFE_VARIANTE,) if variant else ())),
        "next_turn_seat",
        (
            "Con esa variante el turno no cambia: sigue el jugador a la izquierda de quien tenía el turno."
            if variant
            else "El turno continúa desde la persona a la izquierda de quien usó la última carta de jefe."
        ),
        unit="",
    )


@generator(GAME, "riddle", "siguiente-espacio-vacio", (S_TRAS_PAGO, S_TABLERO))
def gen_next_empty_space(rng: Rng) -> Item:
    """Where the dollar marker moves after a deal is completed, skipping covered spaces."""
    position = 1 + rng.below(BOARD_SPACES)
    others = [s for s in range(1, BOARD_SPACES + 1) if s != position]
    rng.shuffle(others)
    covered = sorted(others[: 1 + rng.below(8)])
    nxt = next_empty_space(position, [*covered, position])
    clause = _covered_clause(covered, already=True)
    return _item(
        "riddle",
        "integer",
        "Las 16 casillas de negociación están numeradas del 1 al 16 en sentido horario (tras la 16 viene la 1). "
        f"{clause[0].upper()}{clause[1:]}. Se completa una transacción en la "
        f"casilla {position} y, tras el pago, se coloca allí la carta de transacción. "
        "¿A qué casilla se mueve el marcador de dólares, que avanza en el sentido de juego?",
        str(nxt),
        (S_TRAS_PAGO, S_TABLERO),
        "next_empty_space",
        "Tras el pago se cubre la casilla con la carta de transacción y el marcador pasa al siguiente espacio vacío.",
        unit="",
    )
