"""Se Vende's rules as small functions over the engine's component data, one per quiz question.

Every number comes from the engine: card data, trade prices and kinds of good from
:mod:`club_agentes.engine.se_vende.cards`; the action cards and phases from
:mod:`club_agentes.engine.se_vende.actions`; the hand limit, the setup deal and discards, the
12-card end and the victory chips from :mod:`club_agentes.engine.se_vende.state`; the draws and
keeps of Explorar from :mod:`club_agentes.engine.se_vende.steps.explore`. The action cards'
bonuses (Explorar +5, Explorar +1/+1, Desarrollar, Asentar) and the 2x PV factor are literals in
the engine's code and are published only in its rulings: they are named below with their section,
and ``tests/quizzes/test_bank_se_vende.py`` holds each to the engine by playing it.

The parametric items take their answers from the engine itself (they play the move a question
asks about and read the result); these functions compute the same answers from the facts a
prompt states, for the explanations and for the test that holds the two to each other. The
hand-written items whose answers are computed call them with their own numbers (e.g.
``"club_agentes.quizzes.generators.se_vende:hand_discard(13)"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import permutations

from club_agentes.engine.se_vende.actions import (
    ACTION_CODES,
    ACTION_NAMES,
    PHASE_NAMES,
    PHASE_NUMERALS,
    PHASE_OF_ACTION,
)
from club_agentes.engine.se_vende.cards import GOOD_NAMES, TRADE_PRICE, CardDef, PowerName, load_designs
from club_agentes.engine.se_vende.state import CHIPS_PER_SEAT, HAND_MAX, SETUP_DEAL, TABLEAU_END, TENS
from club_agentes.engine.se_vende.state import SETUP_DISCARDS as SETUP_DISCARD
from club_agentes.engine.se_vende.steps.explore import BASE_DRAW as EXPLORE_DRAW
from club_agentes.engine.se_vende.steps.explore import BASE_KEEP as EXPLORE_KEEP

# The action cards' bonuses, literals in the engine's code (engine/se_vende/steps/, table.py), named here
# with the section that states them; tests/quizzes/test_bank_se_vende.py plays the engine to check each.
START_WORLDS = sum(d.copies for d in load_designs() if d.start)
"""se-vende/preparacion/paso-3-mundos-iniciales: "Baraja los cinco mundos iniciales" (counted in the card data)."""
EXPLORE_BONUS: Mapping[str, tuple[int, int]] = {"explorar-5": (5, 0), "explorar-1-1": (1, 1)}
"""(more draws, more keeps) of the two Explorar cards (se-vende/rulings/cartas-de-accion)."""
DEVELOP_BONUS = 1
"""se-vende/preguntas/fase-elegida-por-varios: "solo esos dos descartan una carta menos como bonus"."""
SETTLE_BONUS = 1
"""se-vende/rulings/cartas-de-accion: "Asentar: draw 1 card after placing a world"."""
DOUBLE = 2
"""se-vende/preguntas/bonus-2x-pv: 2x PV doubles the points from consuming goods with powers."""

PHASES: tuple[str, ...] = tuple(PHASE_NAMES[p] for p in sorted(PHASE_NAMES))
"""The five phases in their order I to V (se-vende/resumen/fases-elegidas)."""
ROMAN: tuple[str, ...] = tuple(PHASE_NUMERALS[p] for p in sorted(PHASE_NUMERALS))
PHASE_OF_CARD: Mapping[str, str] = {code: PHASE_NAMES[PHASE_OF_ACTION[code]] for code in ACTION_CODES}
"""The phase each action card selects (both Explorar cards select Explorar, both Consumir cards Consumir)."""
CARD_OF_NAME: Mapping[str, str] = {ACTION_NAMES[code]: code for code in ACTION_CODES}
"""Action card codes by printed name ("Consumir: Comercio" -> "comercio")."""
KIND_OF_NAME: Mapping[str, str] = {name: key for key, name in GOOD_NAMES.items()}
"""Kinds of good by their Spanish name ("elementos raros" -> "elementos-raros")."""


def _code(choice: str) -> str:
    """Return the action code of a code or a printed action card name; a phase name stands for its card.

    Raises:
        ValueError: neither an action card nor a phase.
    """
    if choice in PHASE_OF_CARD:
        return choice
    if choice in CARD_OF_NAME:
        return CARD_OF_NAME[choice]
    for code, phase in PHASE_OF_CARD.items():
        if phase == choice:
            return code
    names = ", ".join(ACTION_NAMES[c] for c in ACTION_CODES)
    raise ValueError(f"unknown action card {choice!r}; the action cards are {names}")


def _kind(good: str) -> str:
    """Return the key of a kind of good given by key or by Spanish name.

    Raises:
        ValueError: not a kind of good.
    """
    if good in TRADE_PRICE:
        return good
    if good in KIND_OF_NAME:
        return KIND_OF_NAME[good]
    raise ValueError(f"unknown kind of good {good!r}; the kinds are {', '.join(GOOD_NAMES.values())}")


def power_sum(cards: Iterable[CardDef], name: PowerName) -> int:
    """Return the sum of the ``n`` of every power called ``name`` on ``cards``."""
    return sum(card.total(name) for card in cards)


# --------------------------------------------------------------------------- setup


def game_cards() -> int:
    """Return the number of game cards (start worlds included) of the engine's card set."""
    return sum(d.copies for d in load_designs())


def start_hand_size() -> int:
    """Return the cards in each hand once setup is done (dealt, then discarded at step 5)."""
    return SETUP_DEAL - SETUP_DISCARD


def start_worlds_shuffled_in(players: int) -> int:
    """Return how many start worlds are shuffled into the deck with ``players`` players.

    Raises:
        ValueError: fewer than one player, or more than start worlds.
    """
    if not 1 <= players <= START_WORLDS:
        raise ValueError(f"there are {START_WORLDS} start worlds, one per player; {players} players is not possible")
    return START_WORLDS - players


def supply_after_setup(players: int, alfa_dealt: bool, total: int | None = None) -> int:
    """Return the cards left in the supply after setup steps 1 to 8.

    Each player gets one start world (step 3; step 8 deals no second one), the rest are
    shuffled in (step 4), six are dealt to each (step 4), the step-5 discards go to the
    discard pile, and Alfa Centauro, if dealt, takes its starting good from the supply (step 7).

    Raises:
        ValueError: an impossible number of players.
    """
    start_worlds_shuffled_in(players)
    cards = game_cards() if total is None else total
    return cards - players - SETUP_DEAL * players - (1 if alfa_dealt else 0)


def chips_in_pool(players: int, handed_out: Iterable[int]) -> int:
    """Return the points of 1 and 5 chips still in the pool (se-vende/rulings/fichas: 12 per player).

    Raises:
        ValueError: more points handed out than the pool held.
    """
    left = CHIPS_PER_SEAT * players - sum(handed_out)
    if left < 0:
        raise ValueError("more points were handed out than the 1 and 5 chips hold")
    return left


def pool_after_award(pool: int, points: int, tens_added: bool) -> tuple[int, bool]:
    """Return (points left in the pool, whether the 10s have joined) after paying ``points``.

    When a payment takes the last point of the 1s and 5s, the four 10s (40 points) join and
    change is made, so the whole payment is made (se-vende/preguntas/fichas-de-10,
    se-vende/rulings/fichas).

    Raises:
        ValueError: negative points or pool.
    """
    if points < 0 or pool < 0:
        raise ValueError("points and pools are never negative")
    if points == 0:
        return pool, tens_added
    if tens_added:
        return max(0, pool - points), True
    if points < pool:
        return pool - points, False
    return max(0, TENS - (points - pool)), True


# --------------------------------------------------------------------------- the round


def phase_count() -> int:
    """Return how many phases a player can choose from (se-vende/resumen/eleccion-secreta)."""
    return len(PHASES)


def phase_number(phase: str) -> int:
    """Return the number (1 to 5) of a phase.

    Raises:
        ValueError: not a phase.
    """
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}; the phases are {', '.join(PHASES)}")
    return PHASES.index(phase) + 1


def phases_run(choices: Iterable[str]) -> tuple[str, ...]:
    """Return the phases that run in a round where the action cards ``choices`` were revealed, in order I to V.

    A choice is an action code, a printed action card name or a phase name. Only phases
    chosen by at least one player run, each once (se-vende/resumen/fases-elegidas,
    se-vende/preguntas/fase-elegida-por-varios).

    Raises:
        ValueError: an unknown choice.
    """
    chosen = {PHASE_OF_CARD[_code(c)] for c in choices}
    return tuple(p for p in PHASES if p in chosen)


def phases_run_count(choices: Iterable[str]) -> int:
    """Return how many phases run in a round with these choices.

    Raises:
        ValueError: an unknown choice.
    """
    return len(phases_run(choices))


def first_phase_run(choices: Iterable[str]) -> str:
    """Return the first phase that runs in a round with these choices.

    Raises:
        ValueError: an unknown choice, or none at all.
    """
    run = phases_run(choices)
    if not run:
        raise ValueError("a round needs at least one chosen phase")
    return run[0]


def phases_after(choices: Iterable[str], phase: str) -> tuple[str, ...]:
    """Return the phases that still run in the round after ``phase``.

    Raises:
        ValueError: an unknown choice or phase.
    """
    number = phase_number(phase)
    return tuple(p for p in phases_run(choices) if phase_number(p) > number)


def phases_after_count(choices: Iterable[str], phase: str) -> int:
    """Return how many phases still run in the round after ``phase``.

    Raises:
        ValueError: an unknown choice or phase.
    """
    return len(phases_after(choices, phase))


# --------------------------------------------------------------------------- phase I: Explorar


def explore_counts(action: str | None, cards: Iterable[CardDef] = ()) -> tuple[int, int]:
    """Return (cards drawn, cards kept) in Explorar by a seat that chose ``action`` and owns ``cards``.

    Everyone draws 2 and keeps 1; Explorar +5 draws 5 more; Explorar +1/+1 draws 1 more and
    keeps 1 more; explore powers of ``cards`` add their draws and keeps
    (se-vende/rulings/explorar, se-vende/rulings/cartas-de-accion). ``action`` is a code, a
    name or ``None``.

    Raises:
        ValueError: an unknown action card.
    """
    code = _code(action) if action else ""
    more_draw, more_keep = EXPLORE_BONUS.get(code, (0, 0))
    owned = list(cards)
    draw = EXPLORE_DRAW + more_draw + power_sum(owned, PowerName.EXPLORE_DRAW)
    keep = EXPLORE_KEEP + more_keep + power_sum(owned, PowerName.EXPLORE_KEEP)
    return draw, min(draw, keep)


def explore_draw(action: str | None) -> int:
    """Return the cards drawn in Explorar without explore powers (see :func:`explore_counts`).

    Raises:
        ValueError: an unknown action card.
    """
    return explore_counts(action)[0]


def explore_keep(action: str | None) -> int:
    """Return the cards kept in Explorar without explore powers (see :func:`explore_counts`).

    Raises:
        ValueError: an unknown action card.
    """
    return explore_counts(action)[1]


def supply_after_draws(supply: int, discards: int, draws: int) -> int:
    """Return the supply left after ``draws`` cards are drawn from ``supply`` with ``discards`` in the discard pile.

    When the supply runs out, the discard pile is shuffled and becomes the supply
    (se-vende/rulings/mazo-agotado); with both empty, no more cards are drawn.

    Raises:
        ValueError: negative counts.
    """
    if min(supply, discards, draws) < 0:
        raise ValueError("card counts are never negative")
    if draws <= supply:
        return supply - draws
    return max(0, supply + discards - draws)


# --------------------------------------------------------------------------- phases II and III: placing


def develop_payment(cost: int, chose_develop: bool, cards: Iterable[CardDef] = ()) -> int:
    """Return the cards discarded to place a development of ``cost``.

    Everyone pays the full cost; those who chose Desarrollar discard one card less
    (se-vende/preguntas/fase-elegida-por-varios); develop-discount powers of ``cards`` lower it
    too, never below 0 (se-vende/rulings/desarrollar).

    Raises:
        ValueError: a negative cost.
    """
    if cost < 0:
        raise ValueError(f"a development cannot cost {cost}")
    discount = (DEVELOP_BONUS if chose_develop else 0) + power_sum(cards, PowerName.DEVELOP_DISCOUNT)
    return max(0, cost - discount)


def develop_draws(cards: Iterable[CardDef]) -> int:
    """Return the cards drawn after placing a development with ``cards`` (not the new one) in the tableau."""
    return power_sum(cards, PowerName.DEVELOP_DRAW)


def military(cards: Iterable[CardDef]) -> int:
    """Return the Militar that ``cards`` give in Asentar (se-vende/preguntas/mundos-militares)."""
    return power_sum(cards, PowerName.SETTLE_MILITARY)


def can_place_military(military_total: int, defence: int) -> bool:
    """Return whether a Militar of ``military_total`` places a military world of ``defence``.

    Raises:
        ValueError: a negative Militar or defence.
    """
    if military_total < 0 or defence < 0:
        raise ValueError("Militar and defence are never negative")
    return military_total >= defence


def military_shortfall(military_total: int, defence: int) -> int:
    """Return the least extra Militar needed to place a military world of ``defence``.

    Raises:
        ValueError: a negative Militar or defence.
    """
    return 0 if can_place_military(military_total, defence) else defence - military_total


def settle_payment(world: CardDef, cards: Iterable[CardDef] = ()) -> int:
    """Return the cards discarded to place ``world`` with ``cards`` in the tableau.

    A military world is never paid for with cards; any other world costs its cost less the
    settle-discount powers, never below 0 (se-vende/preguntas/mundos-militares,
    se-vende/rulings/asentar).

    Raises:
        ValueError: ``world`` is not a world.
    """
    if not world.is_world:
        raise ValueError(f"{world.name} is a development, not a world")
    if world.military:
        return 0
    return max(0, world.cost - power_sum(cards, PowerName.SETTLE_DISCOUNT))


def placeable(card: CardDef, phase: str, hand_size: int, discount: int, military_total: int) -> bool:
    """Return whether ``card`` may be placed from a hand of ``hand_size`` cards in ``phase``.

    Only a development in Desarrollar and only a world in Asentar; a military world needs
    Militar at least its defence; any other card needs enough other cards in hand to pay
    its cost after ``discount`` (se-vende/rulings/desarrollar, se-vende/rulings/asentar,
    se-vende/rulings/pagar-costos).

    Raises:
        ValueError: ``phase`` is neither Desarrollar nor Asentar.
    """
    if phase == "Desarrollar":
        return card.is_development and max(0, card.cost - discount) <= hand_size - 1
    if phase != "Asentar":
        raise ValueError(f"cards are placed only in Desarrollar or Asentar, not in {phase!r}")
    if not card.is_world:
        return False
    if card.military:
        return military_total >= card.defence
    return max(0, card.cost - discount) <= hand_size - 1


def settle_draws(chose_settle: bool, cards: Iterable[CardDef]) -> int:
    """Return the cards drawn after placing a world: the Asentar bonus and settle-draw powers of ``cards``.

    ``cards`` are the tableau's cards whose powers count, never the world just placed
    (se-vende/preguntas/poderes-nuevos).
    """
    return (SETTLE_BONUS if chose_settle else 0) + power_sum(cards, PowerName.SETTLE_DRAW)


def goods_after_settling(goods: int, world: CardDef) -> int:
    """Return the goods in a tableau that held ``goods`` once ``world`` is placed.

    Only a windfall world (halo) gets a good when placed (se-vende/preguntas/bienes-de-caida);
    a production world gets its goods in Producir.

    Raises:
        ValueError: ``world`` is not a world.
    """
    if not world.is_world:
        raise ValueError(f"{world.name} is a development, not a world")
    return goods + (1 if world.world == "windfall" else 0)


# --------------------------------------------------------------------------- phase IV: Consumir


def trade_draw(kind: str, cards: Iterable[CardDef] = ()) -> int:
    """Return the cards drawn for selling one good of ``kind`` with Consumir: Comercio.

    The price is the kind's (se-vende/preguntas/comercio), plus the trade powers of ``cards``
    that accept that kind.

    Raises:
        ValueError: not a kind of good.
    """
    key = _kind(kind)
    bonus = sum(p.n for c in cards for p in c.powers if p.name is PowerName.TRADE_BONUS and p.matches(key))
    return TRADE_PRICE[key] + bonus


def kinds_for_draw(drawn: int, cards: Iterable[CardDef] = ()) -> list[str]:
    """Return the kinds of good whose sale draws exactly ``drawn`` cards with ``cards`` in the tableau."""
    owned = list(cards)
    return [k for k in TRADE_PRICE if trade_draw(k, owned) == drawn]


def hand_discard(hand: int) -> int:
    """Return how many cards a hand of ``hand`` cards discards at the end of the round (down to ten).

    Raises:
        ValueError: a negative hand.
    """
    if hand < 0:
        raise ValueError(f"a hand cannot hold {hand} cards")
    return max(0, hand - HAND_MAX)


def hand_discard_after_trade(hand: int, kind: str) -> int:
    """Return the cards discarded at the end of a round in which a hand of ``hand`` only sold one good of ``kind``.

    Raises:
        ValueError: a negative hand or an unknown kind of good.
    """
    return hand_discard(hand + trade_draw(kind))


def first_round_discard(drawn: int) -> int:
    """Return the cards discarded at the end of round 1 by a player who only drew ``drawn`` cards after setup.

    Raises:
        ValueError: a negative draw.
    """
    if drawn < 0:
        raise ValueError(f"a player cannot draw {drawn} cards")
    return hand_discard(start_hand_size() + drawn)


def consume_power_use(goods: int, limit: int) -> int:
    """Return how many goods a power for "hasta ``limit`` bienes" takes when invoked with ``goods`` eligible.

    Once invoked it takes as many as it can (se-vende/preguntas/poderes-hasta-n-bienes).

    Raises:
        ValueError: negative goods or a limit below one.
    """
    if goods < 0 or limit < 1:
        raise ValueError("goods cannot be negative and a power takes at least one good")
    return min(goods, limit)


def consume_power_vp(goods: int, limit: int, vp_each: int, double: bool) -> int:
    """Return the points of a "hasta ``limit`` bienes por ``vp_each`` PV cada uno" power, doubled by 2x PV.

    Raises:
        ValueError: negative goods or points, or a limit below one.
    """
    if vp_each < 0:
        raise ValueError("a power never gives negative points")
    points = consume_power_use(goods, limit) * vp_each
    return points * (DOUBLE if double else 1)


def consume_total_vp(goods_vp: int, hand_vp: int, double: bool) -> int:
    """Return a Consumir phase's points: ``goods_vp`` from goods (doubled by 2x PV), ``hand_vp`` from hand cards.

    Raises:
        ValueError: negative points.
    """
    if goods_vp < 0 or hand_vp < 0:
        raise ValueError("points are never negative")
    return goods_vp * (DOUBLE if double else 1) + hand_vp


def consume_goods(card: CardDef, index: int, goods: Sequence[str], double: bool) -> tuple[int, int, int]:
    """Return (goods taken, points, cards) when power ``index`` of ``card`` is invoked with these goods.

    ``goods`` are the kinds of the goods on the seat's worlds; the power takes every good it
    accepts, up to its limit (se-vende/preguntas/poderes-hasta-n-bienes); 2x PV doubles the
    points, not the cards (se-vende/preguntas/bonus-2x-pv).

    Raises:
        ValueError: that power does not consume goods.
    """
    power = card.powers[index]
    if power.name is not PowerName.CONSUME_GOODS:
        raise ValueError(f"power {index} of {card.name} does not consume goods")
    taken = consume_power_use(sum(1 for g in goods if power.matches(_kind(g))), power.up_to)
    return taken, taken * power.vp * (DOUBLE if double else 1), taken * power.cards


def consume_hand_vp(limit: int, hand: int) -> int:
    """Return the most points a "descarta hasta ``limit`` cartas de la mano por 1 PV" power gives a hand of ``hand``.

    Never doubled by 2x PV (se-vende/preguntas/bonus-2x-pv, se-vende/rulings/poderes-de-mano).

    Raises:
        ValueError: a negative hand or a limit below one.
    """
    if hand < 0 or limit < 1:
        raise ValueError("a hand cannot be negative and a power takes at least one card")
    return min(limit, hand)


# --------------------------------------------------------------------------- phase V: Producir


def goods_produced(empty_production: int, empty_windfall: int, chose_produce: bool) -> int:
    """Return the most goods produced by a seat without windfall-production powers.

    A good on each production world without one; the chooser may also produce on one
    windfall world without a good (se-vende/preguntas/producir).

    Raises:
        ValueError: negative world counts.
    """
    if empty_production < 0 or empty_windfall < 0:
        raise ValueError("world counts are never negative")
    return empty_production + (1 if chose_produce and empty_windfall > 0 else 0)


def windfall_goods(sources: Sequence[str], empty_windfall: Sequence[str]) -> int:
    """Return the most windfall worlds filled by ``sources`` (each ``"any"`` or a kind) among ``empty_windfall`` kinds.

    Each source fills at most one world, and a world holds one good (se-vende/rulings/producir).
    """
    best = 0
    worlds = list(empty_windfall)
    for order in permutations(range(len(worlds)), min(len(worlds), len(sources))):
        filled = sum(1 for s, w in zip(sources, order, strict=False) if s == "any" or s == worlds[w])
        best = max(best, filled)
    return best


def produce_draws(cards: Iterable[CardDef], produced: Sequence[str]) -> int:
    """Return the cards that produce-draw powers of ``cards`` give when the goods ``produced`` were made."""
    total = 0
    for card in cards:
        for p in card.powers:
            if p.name is PowerName.PRODUCE_DRAW:
                total += p.n
            elif p.name is PowerName.PRODUCE_DRAW_PER_KIND:
                total += p.n * sum(1 for g in produced if _kind(g) == p.good)
    return total


# --------------------------------------------------------------------------- scoring and the end


def special_points(cards: Sequence[CardDef], goods: int = 0) -> int:
    """Return the special points of the cost-6 developments among ``cards`` (a whole tableau holding ``goods`` goods).

    se-vende/puntuacion: "los puntos especiales de los desarrollos de costo 6, cuyo valor
    varía según la carta"; each card's formula is its ``special`` data.
    """
    total = 0
    for card in cards:
        for term in card.special:
            total += term.vp * _special_count(term.per, term.good, cards, goods)
    return total


def _special_count(per: str, good: str, cards: Sequence[CardDef], goods: int) -> int:
    if per == "good":
        return goods
    if per == "development":
        return sum(1 for c in cards if c.is_development)
    if per == "cost6_development":
        return sum(1 for c in cards if c.is_development and c.cost == 6)
    worlds = [c for c in cards if c.is_world and (good == "any" or c.good == good)]
    if per == "military_world":
        return sum(1 for c in worlds if c.military)
    if per == "production_world":
        return sum(1 for c in worlds if c.world == "production")
    if per == "windfall_world":
        return sum(1 for c in worlds if c.world == "windfall")
    return len(worlds)


def final_score(cards: Sequence[CardDef], chips: int, goods: int = 0) -> int:
    """Return the victory points of a tableau of ``cards`` with ``chips`` points in chips and ``goods`` goods.

    se-vende/puntuacion: the cards' points, the chips and the cost-6 developments' special points.
    """
    return sum(c.vp for c in cards) + chips + special_points(cards, goods)


def game_ends(tableau_sizes: Sequence[int], last_chip_handed_out: bool) -> bool:
    """Return whether the game ends at the end of this round (se-vende/fin-de-la-partida).

    Raises:
        ValueError: a negative tableau size.
    """
    if any(n < 0 for n in tableau_sizes):
        raise ValueError("a tableau never holds a negative number of cards")
    return last_chip_handed_out or any(n >= TABLEAU_END for n in tableau_sizes)


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """Return the seats with the most points; several share the victory (se-vende/rulings/empates)."""
    top = max(scores)
    return tuple(i for i, s in enumerate(scores) if s == top)
