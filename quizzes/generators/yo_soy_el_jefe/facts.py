"""The rule numbers and component data of Yo soy el jefe, read from the engine (never a second copy).

Component data (the six families, the 98 influence cards by kind, the 15 deal cards, the
16 board spaces, the die) comes from :mod:`club_agentes.engine.yo_soy_el_jefe.components`,
the engine's single source of truth.

The engine keeps a few rule numbers as literals inside its setup and turn code, not in its
component data: the influence cards dealt to each player, the cards taken by a draw, the
hand limits, the investor cards dealt per seat count and the draws of the variant
"robo según inversores". :func:`rule_numbers` reads them the one way the public ``Game``
API allows: it plays short games on a real table and observes the engine (see each
``_observe_*`` function). Once the engine publishes these numbers beside its components,
read them from there instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from club_agentes.engine.yo_soy_el_jefe.components import (
    BOSS,
    FAMILY,
    GREY,
    HIRE,
    STOP,
    TRAVEL,
    Components,
    DealCard,
    Space,
    components,
)
from club_agentes.quizzes.generators.yo_soy_el_jefe.table import GAME_ID as GAME
from club_agentes.quizzes.generators.yo_soy_el_jefe.table import Table, TableError
from club_agentes.rules_corpus import load_corpus

# Searching for a table where the first player holds a hire set (three hire cards) in its
# first five cards: about one seed in six qualifies, so this bound is never reached while
# the engine deals as the rulebook says.
_SEED_SEARCH = 500


@dataclass(frozen=True)
class RuleNumbers:
    """Rule numbers observed on the engine.

    Attributes:
        hand_size: influence cards dealt to each player at setup (2-preparacion/cartas-de-influencia).
        draw: influence cards a draw takes (3-desarrollo/tomar-cartas).
        hand_limit: the hand limit checked after drawing (3-desarrollo/tomar-cartas).
        late_hand_limit: the limit under the variant 5-variantes/limite-10-y-partida-rapida.
        late_limit_after: deals closed after which the late limit applies (ruling
            dado-de-fin-y-partida-rapida: "the lower limit applies once nine deals are closed").
        investors_each: seat count -> investor cards dealt to each seat (2-preparacion and the rulings).
        draw_by_investors: cards drawn under 5-variantes/robo-segun-inversores, indexed by the
            investor cards held (0, 1, 2, 3; the last entry holds for 3 or more).
        quick_deck: the deal cards of the quick game, top first (5-variantes/limite-10-y-partida-rapida).
        hire_set: hire cards a hire set uses (3-2-2-cartas-de-influencia/empleo: "en conjuntos de 3 cartas").
    """

    hand_size: int
    draw: int
    hand_limit: int
    late_hand_limit: int
    late_limit_after: int
    investors_each: dict[int, int]
    draw_by_investors: tuple[int, ...]
    quick_deck: tuple[int, ...]
    hire_set: int


def comp() -> Components:
    """Return the engine's components (loaded once by the engine)."""
    return components()


def colours() -> tuple[str, ...]:
    """Return the six family colours in the engine's fixed order (rojo, azul, amarillo, naranja, rosa, verde)."""
    return comp().colours


def spaces() -> tuple[Space, ...]:
    """Return the 16 board spaces, clockwise from space 1."""
    return comp().spaces


def deal_cards() -> tuple[DealCard, ...]:
    """Return the 15 deal cards, #1 first."""
    return comp().deal_cards


def die_faces() -> int:
    """Return the number of faces of the die (its faces are 1 to this number)."""
    return comp().die_faces


def influence_total() -> int:
    """Return how many influence cards the box holds (98)."""
    return len(comp().cards)


def kind_total(kind: str, colour: str | None = None) -> int:
    """Return how many influence cards of ``kind`` (and ``colour``: a family, or ``"gris"``) the box holds.

    For a family or travel card without a colour, every colour is counted.

    Raises:
        ValueError: an unknown kind or colour.
    """
    if kind not in (FAMILY, TRAVEL, BOSS, HIRE, STOP):
        raise ValueError(f"unknown influence card kind {kind!r}")
    if colour is not None and colour not in (*colours(), GREY):
        raise ValueError(f"unknown colour {colour!r}")
    return sum(1 for c in comp().cards if c.kind == kind and (colour is None or c.colour == colour))


def first_rolling_card() -> int:
    """Return the number of the first deal card whose back shows die numbers (the 10th: "A partir del décimo")."""
    return next(c.number for c in deal_cards() if c.end_numbers)


def _observe_deal() -> tuple[int, dict[int, int]]:
    """Deal tables of 2 to 6 seats; return (cards in a hand, investor cards per seat by seat count).

    Raises:
        TableError: the seats of one table were dealt different numbers of cards.
    """
    each: dict[int, int] = {}
    hand_sizes: set[int] = set()
    for seats in range(2, 7):
        players = Table(seats, seed=seats).view()["players"]
        hand_sizes.update(p["hand_count"] for p in players)
        counts = {len(p["investors"]) for p in players}
        if len(counts) != 1:
            raise TableError(f"a {seats}-seat table dealt different investor counts: {sorted(counts)}")
        each[seats] = counts.pop()
    if len(hand_sizes) != 1:
        raise TableError(f"the engine dealt hands of different sizes: {sorted(hand_sizes)}")
    return hand_sizes.pop(), each


def _drawn_by_turn_seat(table: Table) -> int:
    """The seat on turn rolls and draws; return how many cards it took."""
    seat = table.turn_seat()
    before = table.view()["players"][seat]["hand_count"]
    table.roll()
    table.until(seat, "draw")
    return table.view()["players"][seat]["hand_count"] - before


def _observe_draws(each: dict[int, int]) -> tuple[int, tuple[int, ...], int]:
    """Return (the cards a draw takes, the variant's draws by investors held 0 to 3, the cards of a hire set).

    One, two and three investors are held from the deal (4, 3 and 2 seats); no investor
    after another seat's hire set took the only one (6 seats, no cards beside the board).

    Raises:
        TableError: the engine could not be driven to one of these situations.
    """
    plain = _drawn_by_turn_seat(Table(3, seed=1, options={"first_player": 0, "marker_start": 1}))
    by_count: dict[int, int] = {}
    for seats, held in sorted(each.items()):
        if held and held not in by_count:
            options = {"first_player": 0, "marker_start": 1, "draw_by_investors": True}
            by_count[held] = _drawn_by_turn_seat(Table(seats, seed=2, options=options))
    for seed in range(_SEED_SEARCH):
        options = {"first_player": 0, "marker_start": 1, "draw_by_investors": True}
        table = Table(6, seed=seed, options=options)
        if sum(1 for c in table.view(0)["hand"] if c["kind"] == HIRE) < 3:
            continue
        victim = 1
        colour = table.view()["players"][victim]["investors"][0]
        table.negotiate()
        before = table.view()["players"][0]["hand_count"]
        table.until(0, f"hire {colour}")
        hire_set = before - table.view()["players"][0]["hand_count"]
        table.fail()
        if table.view()["players"][victim]["investors"] or table.turn_seat() != victim:
            raise TableError("the hire set did not leave the next seat without investors")
        by_count[0] = _drawn_by_turn_seat(table)
        break
    else:
        raise TableError(f"no table of the first {_SEED_SEARCH} seeds deals a hire set to the first player")
    return plain, tuple(by_count[k] for k in range(max(by_count) + 1)), hire_set


def _observe_late_limit() -> tuple[int, int, int]:
    """Close deals under the late-limit variant; return (hand limit, late limit, deals closed before it applies).

    Raises:
        TableError: the limit never changes before the end-die cards.
    """
    options = {"first_player": 0, "marker_start": 1, "two_player_rules": True, "hand_limit_10_from_tenth_deal": True}
    table = Table(3, seed=3, options=options)
    limit = int(table.view()["hand_limit"])
    for _ in range(first_rolling_card()):
        table.close_here()
        view = table.view()
        if view["hand_limit"] != limit:
            return limit, int(view["hand_limit"]), int(view["deals_done"])
    raise TableError("the late hand limit never applied")


def _observe_quick_deck() -> tuple[int, ...]:
    """Close deals in a quick game until the end die; return the quick game's deal cards, top first.

    The cards seen on top before the first end roll are read from the engine; the rest of
    the deck is the higher-numbered cards, as many as the engine says are left.

    Raises:
        TableError: the observed cards and the count left disagree.
    """
    options = {"first_player": 0, "marker_start": 1, "two_player_rules": True, "quick_game": True}
    table = Table(3, seed=4, options=options)
    size = int(table.view()["deal_cards_left"])
    seen: list[int] = []
    rolling = {c.number for c in deal_cards() if c.end_numbers or c.final}
    while True:
        top = table.view()["next_deal_card"]["number"]
        seen.append(int(top))
        if top in rolling:
            break
        table.close_here()
    tail = [c.number for c in deal_cards() if c.number > seen[-1]]
    if len(seen) + len(tail) != size:
        raise TableError(f"the quick game has {size} deal cards, but {seen} + {tail} were expected")
    return (*seen, *tail)


@cache
def rule_numbers() -> RuleNumbers:
    """Return the rule numbers observed on the engine (computed once per process, in a few milliseconds).

    Raises:
        TableError: the engine could not be driven to a situation the observation needs.
    """
    hand_size, each = _observe_deal()
    draw, by_investors, hire_set = _observe_draws(each)
    limit, late, after = _observe_late_limit()
    return RuleNumbers(hand_size, draw, limit, late, after, each, by_investors, _observe_quick_deck(), hire_set)


@dataclass(frozen=True)
class VariantThresholds:
    """The hand sizes two optional rules of section 5 turn on.

    Attributes:
        mandatory_from: a hand of this many cards or more at the start of the turn must
            negotiate (5-variantes/negociacion-obligatoria: "si tiene 10 o más cartas").
        minimum_up_to: a hand of this many cards or fewer cannot negotiate
            (5-variantes/minimo-para-negociar: "Si tienes 3 o menos cartas").
    """

    mandatory_from: int
    minimum_up_to: int


def _number_in(section_id: str, pattern: str) -> int:
    """Return the number the verbatim rulebook ``section_id`` states where ``pattern`` (one group) matches.

    Raises:
        LookupError: the section does not state it (the rulebook copy changed).
    """
    text = load_corpus().get(section_id).text
    found = re.search(pattern, text)
    if found is None:
        raise LookupError(f"{section_id} no longer says {pattern!r}")
    return int(found.group(1))


@cache
def variant_thresholds() -> VariantThresholds:
    """Return the hand-size thresholds of two optional rules, as the verbatim rulebook states them.

    The engine applies them as literals in its turn code and no short game reaches a hand
    of exactly those sizes, so they are read from the rulebook's own sentences (the test
    suite checks on played games that the engine applies the same thresholds).

    Raises:
        LookupError: the rulebook copy no longer states them.
    """
    return VariantThresholds(
        _number_in(f"{GAME}/5-variantes/negociacion-obligatoria", r"si tiene (\d+) o más cartas de influencia"),
        _number_in(f"{GAME}/5-variantes/minimo-para-negociar", r"Si tienes (\d+) o menos cartas de influencia"),
    )
