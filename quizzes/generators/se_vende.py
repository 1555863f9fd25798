"""Se Vende: the rules as small functions, and the parametric questions and riddles built on them.

Every number here is the rulebook's (``rules_corpus/data/se-vende/rulebook.txt``);
each constant names the section it comes from. The rule functions answer the
hand-written items whose answers are computed (their ``computed`` field calls one
with the item's own numbers, e.g. ``"club_agentes.quizzes.generators.se_vende:hand_discard(13)"``)
and the registered generators, which make unlimited fresh items from a seeded ``Rng``.

The generator ``comercio-carta`` also uses the Se Vende engine's card data when that
package is complete and publishes its cards in the corpus; every other generator
rests only on the rulebook.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.model import CHOICE_LETTERS, AnswerType, Item, ItemKind, computed_item, generator
from club_agentes.rules_corpus import load_corpus

GAME = "se-vende"
_MODULE = "club_agentes.quizzes.generators.se_vende"

# se-vende/resumen/eleccion-secreta lists the phases; se-vende/resumen/fases-elegidas
# runs them "en orden numérico I a V", which is the order of that list.
PHASES: tuple[str, ...] = ("Explorar", "Desarrollar", "Asentar", "Consumir", "Producir")
ROMAN: tuple[str, ...] = ("I", "II", "III", "IV", "V")

# What a player may choose: a phase, or one of the two Consumir action cards the
# rulebook names (se-vende/preguntas/comercio, se-vende/preguntas/bonus-2x-pv).
COMERCIO = "Consumir: Comercio"
DOUBLE_VP = "Consumir: 2x PV"
CHOICE_PHASE: dict[str, str] = {**{p: p for p in PHASES}, COMERCIO: "Consumir", DOUBLE_VP: "Consumir"}

# se-vende/preguntas/comercio: "5 por tecnología alienígena, 4 por genes, 3 por
# elementos raros o 2 por novedad".
TRADE_DRAW: dict[str, int] = {"tecnología alienígena": 5, "genes": 4, "elementos raros": 3, "novedad": 2}

HAND_LIMIT = 10  # se-vende/resumen/limite-de-mano, se-vende/preguntas/limite-de-mano
TABLEAU_END = 12  # se-vende/resumen/fin, se-vende/fin-de-la-partida
START_WORLDS = 5  # se-vende/preparacion/paso-3-mundos-iniciales
SETUP_DEAL = 6  # se-vende/preparacion/paso-4-reparto
SETUP_DISCARD = 2  # se-vende/preparacion/paso-5-descarte
DEVELOP_DISCOUNT = 1  # se-vende/preguntas/fase-elegida-por-varios: "descartan una carta menos"
DOUBLE_FACTOR = 2  # se-vende/preguntas/bonus-2x-pv

# se-vende/rulings/explorar and se-vende/rulings/cartas-de-accion (this implementation's
# rulings; the rulebook says only that choosers draw "cartas adicionales").
EXPLORE_DRAW = 2
EXPLORE_KEEP = 1
EXPLORE_BONUS: dict[str, tuple[int, int]] = {"Explorar +5": (5, 0), "Explorar +1/+1": (1, 1)}
ACTION_CARDS: tuple[str, ...] = (
    "Explorar +5",
    "Explorar +1/+1",
    "Desarrollar",
    "Asentar",
    COMERCIO,
    DOUBLE_VP,
    "Producir",
)

NAMES: tuple[str, ...] = ("Ana", "Bruno", "Carla", "David")

# Sections the generators rest on.
S_ELECCION = "se-vende/resumen/eleccion-secreta"
S_BONUS = "se-vende/resumen/bonus"
S_FASES = "se-vende/resumen/fases-elegidas"
S_VARIOS = "se-vende/preguntas/fase-elegida-por-varios"
S_COMERCIO = "se-vende/preguntas/comercio"
S_LIMITE = "se-vende/preguntas/limite-de-mano"
S_LIMITE_RESUMEN = "se-vende/resumen/limite-de-mano"
S_MILITAR = "se-vende/preguntas/mundos-militares"
S_HASTA = "se-vende/preguntas/poderes-hasta-n-bienes"
S_2X = "se-vende/preguntas/bonus-2x-pv"
S_PRODUCIR = "se-vende/preguntas/producir"
S_FIN = "se-vende/fin-de-la-partida"
S_FIN_RESUMEN = "se-vende/resumen/fin"
S_MUNDOS_INICIALES = "se-vende/preparacion/paso-3-mundos-iniciales"
S_REPARTO = "se-vende/preparacion/paso-4-reparto"
S_DESCARTE = "se-vende/preparacion/paso-5-descarte"
R_EXPLORAR = "se-vende/rulings/explorar"
R_ACCIONES = "se-vende/rulings/cartas-de-accion"


# ---------------------------------------------------------------------------
# The rules as functions
# ---------------------------------------------------------------------------


def phase_number(phase: str) -> int:
    """Return the number (1 to 5) of a phase in the order I to V.

    Raises:
        ValueError: ``phase`` is not one of the five phases.
    """
    try:
        return PHASES.index(phase) + 1
    except ValueError:
        raise ValueError(f"unknown phase {phase!r}; the phases are {', '.join(PHASES)}") from None


def phases_run(choices: Iterable[str]) -> tuple[str, ...]:
    """Return the phases that run in a round where the players chose ``choices``, in order I to V.

    Only phases chosen by at least one player run, each once, in numeric order
    (se-vende/resumen/fases-elegidas, se-vende/preguntas/fase-elegida-por-varios);
    both Consumir action cards select the Consumir phase.

    Raises:
        ValueError: a choice is neither a phase nor a Consumir action card.
    """
    chosen: set[str] = set()
    for choice in choices:
        if choice not in CHOICE_PHASE:
            raise ValueError(f"unknown choice {choice!r}; a choice is one of {', '.join(CHOICE_PHASE)}")
        chosen.add(CHOICE_PHASE[choice])
    return tuple(p for p in PHASES if p in chosen)


def phase_count() -> int:
    """Return how many phases a player can choose from (the list of se-vende/resumen/eleccion-secreta)."""
    return len(PHASES)


def phases_run_count(choices: Iterable[str]) -> int:
    """Return how many phases run in a round where the players chose ``choices``.

    Raises:
        ValueError: a choice is neither a phase nor a Consumir action card.
    """
    return len(phases_run(choices))


def first_phase_run(choices: Iterable[str]) -> str:
    """Return the first phase that runs in a round where the players chose ``choices``.

    Raises:
        ValueError: an unknown choice, or no choice at all.
    """
    run = phases_run(choices)
    if not run:
        raise ValueError("a round needs at least one chosen phase")
    return run[0]


def phases_after_count(choices: Iterable[str], phase: str) -> int:
    """Return how many phases still run in the round after ``phase``, given the round's choices.

    Raises:
        ValueError: an unknown choice, or ``phase`` is not a phase.
    """
    return len(phases_after(choices, phase))


def phases_after(choices: Iterable[str], phase: str) -> tuple[str, ...]:
    """Return the phases that still run in the round after ``phase``, given the round's choices.

    Raises:
        ValueError: an unknown choice, or ``phase`` is not a phase.
    """
    number = phase_number(phase)
    return tuple(p for p in phases_run(choices) if phase_number(p) > number)


def explore_counts(chosen: str | None) -> tuple[int, int]:
    """Return (cards drawn, cards kept) in Explorar for a seat with no explore powers.

    ``chosen`` is the seat's action card this round (``None`` or any card other than
    the two Explorar cards gives no bonus). Everyone exploring draws 2 and keeps 1;
    Explorar +5 draws 5 more; Explorar +1/+1 draws 1 more and keeps 1 more
    (se-vende/rulings/explorar, se-vende/rulings/cartas-de-accion).
    """
    bonus_draw, bonus_keep = EXPLORE_BONUS.get(chosen or "", (0, 0))
    return EXPLORE_DRAW + bonus_draw, EXPLORE_KEEP + bonus_keep


def explore_draw(chosen: str | None) -> int:
    """Return the cards drawn in Explorar (see :func:`explore_counts`)."""
    return explore_counts(chosen)[0]


def explore_keep(chosen: str | None) -> int:
    """Return the cards kept in Explorar (see :func:`explore_counts`)."""
    return explore_counts(chosen)[1]


def trade_draw(kind: str) -> int:
    """Return the cards drawn for selling one good of ``kind`` with Consumir: Comercio.

    Raises:
        ValueError: ``kind`` is not one of the four kinds of good.
    """
    try:
        return TRADE_DRAW[kind]
    except KeyError:
        raise ValueError(f"unknown kind of good {kind!r}; the kinds are {', '.join(TRADE_DRAW)}") from None


def hand_discard(hand: int) -> int:
    """Return how many cards a player with ``hand`` cards discards at the end of the round.

    Raises:
        ValueError: ``hand`` is negative.
    """
    if hand < 0:
        raise ValueError(f"a hand cannot hold {hand} cards")
    return max(0, hand - HAND_LIMIT)


def hand_discard_after_trade(hand: int, kind: str) -> int:
    """Return the cards discarded at the end of a round in which a player only sold one good.

    The player starts the round's Consumir phase with ``hand`` cards, sells one good of
    ``kind`` with Consumir: Comercio (the good lies on a world, not in the hand), and
    nothing else changes the hand before the end of the round.

    Raises:
        ValueError: a negative hand or an unknown kind of good.
    """
    return hand_discard(hand + trade_draw(kind))


def develop_payment(cost: int, chose_develop: bool) -> int:
    """Return the cards a player discards to place a development of ``cost``.

    Everyone pays the full cost; those who chose Desarrollar discard one card less
    (se-vende/preguntas/fase-elegida-por-varios).

    Raises:
        ValueError: ``cost`` is negative.
    """
    if cost < 0:
        raise ValueError(f"a development cannot cost {cost}")
    return max(0, cost - DEVELOP_DISCOUNT) if chose_develop else cost


def can_place_military(military: int, defence: int) -> bool:
    """Return whether a Military total of ``military`` places a military world of ``defence``.

    Raises:
        ValueError: a negative Military or defence.
    """
    if military < 0 or defence < 0:
        raise ValueError("Military and defence are never negative")
    return military >= defence


def military_shortfall(military: int, defence: int) -> int:
    """Return the least extra Military needed to place a military world of ``defence``.

    Raises:
        ValueError: a negative Military or defence.
    """
    if can_place_military(military, defence):
        return 0
    return defence - military


def consume_power_use(goods: int, limit: int) -> int:
    """Return how many goods a consume power for "hasta ``limit`` bienes" takes when invoked.

    Whoever invokes it uses it on as many of the right goods as it allows; no part
    can be kept for a later power (se-vende/preguntas/poderes-hasta-n-bienes).

    Raises:
        ValueError: a negative count of goods or a limit below one.
    """
    if goods < 0 or limit < 1:
        raise ValueError("goods cannot be negative and a power takes at least one good")
    return min(goods, limit)


def consume_power_vp(goods: int, limit: int, vp_each: int, double: bool) -> int:
    """Return the victory points a "hasta ``limit`` bienes para ``vp_each`` PV cada uno" power gives.

    With the 2x PV bonus, points from discarding goods with consume powers are
    doubled (se-vende/preguntas/bonus-2x-pv).

    Raises:
        ValueError: a negative count of goods or points, or a limit below one.
    """
    if vp_each < 0:
        raise ValueError("a power never gives negative points")
    points = consume_power_use(goods, limit) * vp_each
    return points * DOUBLE_FACTOR if double else points


def consume_total_vp(goods_vp: int, hand_vp: int, double: bool) -> int:
    """Return the points of a Consumir phase: ``goods_vp`` from goods, ``hand_vp`` from hand cards.

    2x PV doubles only the points from goods discarded with consume powers, never
    those from discarding hand cards (se-vende/preguntas/bonus-2x-pv).

    Raises:
        ValueError: negative points.
    """
    if goods_vp < 0 or hand_vp < 0:
        raise ValueError("points are never negative")
    return goods_vp * (DOUBLE_FACTOR if double else 1) + hand_vp


def goods_produced(empty_production: int, empty_windfall: int, chose_produce: bool) -> int:
    """Return the most goods a player gets in Producir.

    One on each production world without a good; whoever chose Producir may also
    produce on one windfall world without a good (se-vende/preguntas/producir).

    Raises:
        ValueError: negative counts of worlds.
    """
    if empty_production < 0 or empty_windfall < 0:
        raise ValueError("world counts are never negative")
    return empty_production + (1 if chose_produce and empty_windfall > 0 else 0)


def start_hand_size() -> int:
    """Return the cards in each player's hand once setup is done (six dealt, two discarded)."""
    return SETUP_DEAL - SETUP_DISCARD


def first_round_discard(drawn: int) -> int:
    """Return the cards discarded at the end of the first round by a player who only drew ``drawn`` cards.

    The player starts with the hand setup leaves (six dealt, two discarded) and
    neither plays nor discards a card before the end of the round.

    Raises:
        ValueError: ``drawn`` is negative.
    """
    if drawn < 0:
        raise ValueError(f"a player cannot draw {drawn} cards")
    return hand_discard(start_hand_size() + drawn)


def start_worlds_shuffled_in(players: int) -> int:
    """Return how many start worlds are shuffled into the deck with ``players`` players.

    Raises:
        ValueError: more players than start worlds, or fewer than one.
    """
    if not 1 <= players <= START_WORLDS:
        raise ValueError(f"there are {START_WORLDS} start worlds, one per player; {players} players is not possible")
    return START_WORLDS - players


def game_ends(tableau_sizes: Sequence[int], last_chip_handed_out: bool) -> bool:
    """Return whether the game ends at the end of this round.

    Raises:
        ValueError: a negative tableau size.
    """
    if any(n < 0 for n in tableau_sizes):
        raise ValueError("a tableau never holds a negative number of cards")
    return last_chip_handed_out or any(n >= TABLEAU_END for n in tableau_sizes)


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


def _choice(rng: Rng, correct: str, wrong: Sequence[str]) -> tuple[tuple[str, ...], str]:
    """Shuffle one correct and three wrong option texts; return the options and the correct letter."""
    if len(wrong) != 3 or correct in wrong:
        raise ValueError("a choice needs one correct option and three distinct wrong ones")
    options = [correct, *wrong]
    rng.shuffle(options)
    return tuple(options), CHOICE_LETTERS[options.index(correct)]


def _count(n: int, singular: str, plural: str) -> str:
    """Spanish count of a masculine noun: "ningún mundo", "1 mundo", "3 mundos"."""
    if n == 0:
        return f"ningún {singular}"
    return f"1 {singular}" if n == 1 else f"{n} {plural}"


def _join(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " y " + words[-1]


def _round_choices(rng: Rng, players: int) -> list[str]:
    choices = list(CHOICE_PHASE)
    return [rng.choice(choices) for _ in range(players)]


def _describe_choices(choices: Sequence[str]) -> str:
    return "; ".join(f"{NAMES[i]} elige {c}" for i, c in enumerate(choices))


@generator(GAME, "question", "comercio-cartas", (S_COMERCIO,))
def gen_trade_cards(rng: Rng) -> Item:
    """Cards drawn when selling one good of a given kind with Consumir: Comercio."""
    kind = rng.choice(tuple(TRADE_DRAW))
    n = trade_draw(kind)
    return _item(
        "question",
        "integer",
        f"Elegiste Consumir: Comercio y vendes un bien de {kind}. ¿Cuántas cartas robas por esa venta?",
        str(n),
        (S_COMERCIO,),
        "trade_draw",
        f"Al vender con Comercio se roban cartas según el tipo del bien: {n} por {kind}.",
        unit="",
    )


@dataclass(frozen=True)
class TradeCard:
    """A card of the engine's card set that holds a good of a known kind."""

    name: str
    kind: str
    section: str


def engine_trade_cards() -> tuple[TradeCard, ...]:
    """Return the engine's worlds that hold a good of a known kind, each with the corpus section publishing it.

    Cards with a power that draws extra cards when selling are left out, so that the
    count depends on the kind of good alone. Returns an empty tuple while the Se Vende
    engine package is incomplete (no card data) or its cards are not published in the
    corpus, so that this module always imports and never asks about a card a reader
    cannot look up.
    """
    try:
        from club_agentes.engine.se_vende import cards as engine_cards
    except ImportError:
        return ()
    load = getattr(engine_cards, "load_designs", None)
    if load is None:
        return ()
    published = {_fold(s.title): s.id for s in load_corpus().toc(GAME) if s.kind == "component"}
    found: list[TradeCard] = []
    for card in load():
        kind = _good_kind_of(card)
        name = getattr(card, "name", None)
        if kind is None or not isinstance(name, str) or _has_trade_bonus(card):
            continue
        section = published.get(_fold(name))
        if section is not None:
            found.append(TradeCard(name, kind, section))
    return tuple(found)


def _has_trade_bonus(card: object) -> bool:
    for power in getattr(card, "powers", ()):
        name = getattr(power, "name", None)
        if getattr(name, "value", name) == "trade_bonus":
            return True
    return False


def _good_kind_of(card: object) -> str | None:
    for attr in ("good", "good_kind", "goods", "kind_of_good"):
        value = getattr(card, attr, None)
        text = getattr(value, "value", value)
        if isinstance(text, str):
            wanted = _fold(text)
            for kind in TRADE_DRAW:
                if _fold(kind) == wanted:
                    return kind
    return None


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("_", " ").replace("-", " ").strip()


def _slug(text: str) -> str:
    return "-".join(_fold(text).split())


_TRADE_CARDS = engine_trade_cards()


@generator(GAME, "question", "comercio-carta", (S_COMERCIO, *sorted({c.section for c in _TRADE_CARDS})))
def gen_trade_named_card(rng: Rng) -> Item:
    """Cards drawn when selling the good on a named card of the engine's card set.

    Falls back to the kind of good alone while the engine's card data is not published.
    """
    if not _TRADE_CARDS:
        return gen_trade_cards(rng)
    card = rng.choice(_TRADE_CARDS)
    n = trade_draw(card.kind)
    return _item(
        "question",
        "integer",
        f"Elegiste Consumir: Comercio y vendes el bien que está sobre tu carta «{card.name}»; ninguna carta "
        "de tu tableau te da cartas extra al vender. ¿Cuántas cartas robas por esa venta?",
        str(n),
        (S_COMERCIO, card.section),
        "trade_draw",
        f"Los bienes de «{card.name}» son de {card.kind}, y vender uno con Comercio da {n} cartas.",
        unit="",
    )


@generator(GAME, "question", "limite-de-mano", (S_LIMITE, S_LIMITE_RESUMEN))
def gen_hand_limit(rng: Rng) -> Item:
    """Cards discarded, or cards kept, at the end of a round with a given hand."""
    hand = 4 + rng.below(15)
    discard = hand_discard(hand)
    if rng.below(2):
        prompt = (
            f"Al final de la ronda, después de completar todas las fases elegidas, tienes {hand} cartas en la mano. "
            "¿Cuántas cartas debes descartar?"
        )
        answer = discard
    else:
        prompt = (
            f"Al final de la ronda, después de completar todas las fases elegidas, tienes {hand} cartas en la mano. "
            "¿Con cuántas cartas en la mano te quedas al recuperar tu carta de acción?"
        )
        answer = hand - discard
    return _item(
        "question",
        "integer",
        prompt,
        str(answer),
        (S_LIMITE, S_LIMITE_RESUMEN),
        "hand_discard",
        f"La mano se reduce a un máximo de {HAND_LIMIT} cartas: con {hand} se descartan {discard}.",
        unit="",
    )


@generator(GAME, "riddle", "fases-ejecutadas", (S_ELECCION, S_FASES, S_VARIOS))
def gen_phases_run(rng: Rng) -> Item:
    """How many phases run in a round, given every player's choice."""
    players = 2 + rng.below(3)
    choices = _round_choices(rng, players)
    run = phases_run(choices)
    return _item(
        "riddle",
        "integer",
        f"En una partida de {players} jugadores, esta ronda {_describe_choices(choices)}. "
        "¿Cuántas fases se ejecutan en la ronda?",
        str(len(run)),
        (S_ELECCION, S_FASES, S_VARIOS),
        "phases_run",
        f"Solo se ejecutan las fases elegidas, cada una una sola vez: {_join(list(run))}.",
        unit="",
    )


@generator(GAME, "riddle", "orden-de-fases", (S_ELECCION, S_FASES))
def gen_phase_order(rng: Rng) -> Item:
    """Which phase runs first, or last, given every player's choice."""
    players = 2 + rng.below(3)
    choices = _round_choices(rng, players)
    run = phases_run(choices)
    first = rng.below(2) == 0
    which = "primero" if first else "en último lugar"
    answer = run[0] if first else run[-1]
    return _item(
        "riddle",
        "term",
        f"En una partida de {players} jugadores, esta ronda {_describe_choices(choices)}. "
        f"¿Qué fase se ejecuta {which}?",
        answer,
        (S_ELECCION, S_FASES),
        "phases_run",
        f"Las fases elegidas se ejecutan en orden numérico I a V: {_join(list(run))}.",
        vocabulary="fases",
    )


@generator(GAME, "question", "coste-de-desarrollo", (S_VARIOS,))
def gen_develop_payment(rng: Rng) -> Item:
    """Cards discarded to place a development, for its chooser or another player."""
    cost = 1 + rng.below(6)
    chose = rng.below(2) == 0
    paid = develop_payment(cost, chose)
    who = "Tú elegiste Desarrollar" if chose else "Otro jugador eligió Desarrollar; tú elegiste otra fase"
    return _item(
        "question",
        "integer",
        f"{who}. En esa fase colocas un desarrollo de costo {cost}, y ninguna carta de tu tableau abarata los "
        "desarrollos. ¿Cuántas cartas de la mano descartas para pagarlo?",
        str(paid),
        (S_VARIOS,),
        "develop_payment",
        "Todos pagan el costo completo del desarrollo; solo quienes eligieron Desarrollar descartan una carta menos.",
        unit="",
    )


@generator(GAME, "question", "mundo-militar", (S_MILITAR,))
def gen_military(rng: Rng) -> Item:
    """Whether a Military total places a military world of a given defence."""
    defence = 1 + rng.below(7)
    military = rng.below(8)
    ok = can_place_military(military, defence)
    yes, no = "Sí, y lo colocas gratis", "No, tu Militar no llega a su defensa"
    correct = yes if ok else no
    wrong = [
        no if ok else yes,
        "Sí, pero pagando su defensa con cartas de la mano",
        "No, los mundos militares solo se colocan en la fase de Desarrollar",
    ]
    options, letter = _choice(rng, correct, wrong)
    return _item(
        "question",
        "choice",
        f"En la fase de Asentar tu Militar total es {military}. ¿Puedes colocar un mundo militar "
        f"con número de defensa {defence}?",
        letter,
        (S_MILITAR,),
        "can_place_military",
        "Un mundo militar no se paga con cartas: se coloca gratis si tu Militar total es igual o superior "
        "a su número de defensa.",
        options=options,
    )


@generator(GAME, "riddle", "poder-de-consumir", (S_HASTA, S_2X))
def gen_consume_power(rng: Rng) -> Item:
    """Victory points from a 'hasta N bienes' consume power, with or without 2x PV."""
    limit = 2 + rng.below(3)
    goods = 1 + rng.below(6)
    vp_each = 1 + rng.below(2)
    double = rng.below(2) == 0
    vp = consume_power_vp(goods, limit, vp_each, double)
    action = "Elegiste Consumir: 2x PV" if double else "Elegiste Consumir: Comercio y ya vendiste tu bien"
    return _item(
        "riddle",
        "integer",
        f"{action}. Tienes {_count(goods, 'bien', 'bienes')} del tipo correcto para un poder de consumir que dice "
        f"«descarta hasta {limit} bienes para {vp_each} PV cada uno», y lo invocas. "
        "¿Cuántos puntos de victoria obtienes con ese poder?",
        str(vp),
        (S_HASTA, S_2X),
        "consume_power_vp",
        f"Al invocarlo lo usas para {consume_power_use(goods, limit)} bienes"
        + (", y el bonus de 2x PV duplica esos puntos." if double else "; sin 2x PV los puntos no se duplican."),
        unit="",
    )


@generator(GAME, "riddle", "bonus-2x-pv", (S_2X,))
def gen_double_vp(rng: Rng) -> Item:
    """Total points of a Consumir phase with 2x PV, from goods and from hand cards."""
    goods_vp = 1 + rng.below(6)
    hand_vp = 1 + rng.below(4)
    total = consume_total_vp(goods_vp, hand_vp, double=True)
    return _item(
        "riddle",
        "integer",
        f"Elegiste Consumir: 2x PV. Sin contar ese bonus, tus poderes de consumir te dan {goods_vp} PV por "
        "descartar bienes, y un poder "
        f"que da puntos por descartar cartas de la mano (como el de Mundo Mercader) te da {hand_vp} PV. "
        "¿Cuántos puntos de victoria ganas en total en esa fase?",
        str(total),
        (S_2X,),
        "consume_total_vp",
        "2x PV duplica solo los puntos obtenidos al descartar bienes con poderes de consumir, "
        "no los de descartar cartas de la mano.",
        unit="",
    )


@generator(GAME, "riddle", "producir", (S_PRODUCIR,))
def gen_produce(rng: Rng) -> Item:
    """The most goods produced in Producir, given empty and full worlds and whether you chose it."""
    empty = rng.below(4)
    full = rng.below(3)
    windfall = rng.below(3)
    chose = rng.below(2) == 0
    n = goods_produced(empty, windfall, chose)
    who = "Elegiste Producir" if chose else "Otro jugador eligió Producir; tú no"
    return _item(
        "riddle",
        "integer",
        f"{who}. Tienes {_count(empty, 'mundo de producción sin bien', 'mundos de producción sin bien')}, "
        f"{_count(full, 'mundo de producción que ya tiene un bien', 'mundos de producción que ya tienen un bien')} "
        f"y {_count(windfall, 'mundo de caída sin bien', 'mundos de caída sin bien')}; ninguna carta de tu "
        "tableau tiene poderes de Producir. ¿Cuántos bienes puedes producir como máximo en esa fase?",
        str(n),
        (S_PRODUCIR,),
        "goods_produced",
        "Se produce un bien en cada mundo de producción sin bien; quien eligió Producir puede además "
        "producir en uno de sus mundos de caída sin bien.",
        unit="",
    )


@generator(GAME, "riddle", "ronda-final", (S_FIN, S_FIN_RESUMEN, S_FASES))
def gen_last_round(rng: Rng) -> Item:
    """Phases that still run after a player reaches 12 tableau cards."""
    players = 2 + rng.below(3)
    choices = _round_choices(rng, players)
    placing = [p for p in phases_run(choices) if p in ("Desarrollar", "Asentar")]
    if not placing:
        choices[0] = rng.choice(("Desarrollar", "Asentar"))
        placing = [p for p in phases_run(choices) if p in ("Desarrollar", "Asentar")]
    phase = rng.choice(placing)
    after = phases_after(choices, phase)
    return _item(
        "riddle",
        "integer",
        f"En una partida de {players} jugadores, esta ronda {_describe_choices(choices)}. "
        f"En la fase de {phase}, {NAMES[0]} coloca su duodécima carta en su tableau. "
        "¿Cuántas fases más se ejecutan antes del recuento final de puntos?",
        str(len(after)),
        (S_FIN, S_FIN_RESUMEN, S_FASES),
        "phases_after",
        "El juego termina al final de la ronda en la que alguien llega a 12 cartas en su tableau, así que "
        + (f"aún se ejecutan {_join(list(after))}." if after else "no queda ninguna fase elegida por ejecutar."),
        unit="",
    )


@generator(GAME, "question", "fin-de-partida", (S_FIN, S_FIN_RESUMEN))
def gen_game_end(rng: Rng) -> Item:
    """Whether the game ends at the end of the round, given tableau sizes."""
    players = 2 + rng.below(3)
    sizes = [6 + rng.below(8) for _ in range(players)]
    ends = game_ends(sizes, last_chip_handed_out=False)
    correct = "Sí, al final de esta ronda" if ends else "No, la partida continúa"
    wrong = [
        "No, la partida continúa" if ends else "Sí, al final de esta ronda",
        "Sí, pero solo si además se han agotado las fichas de victoria",
        "No, hasta que todos los jugadores tengan 12 cartas en su tableau",
    ]
    options, letter = _choice(rng, correct, wrong)
    listing = "; ".join(f"{NAMES[i]}: {n}" for i, n in enumerate(sizes))
    return _item(
        "question",
        "choice",
        "Quedan fichas de victoria en la reserva. Al terminar las fases de esta ronda, las cartas en el tableau "
        f"de cada jugador son: {listing}. ¿Termina la partida?",
        letter,
        (S_FIN, S_FIN_RESUMEN),
        "game_ends",
        f"El juego termina al final de la ronda en la que un jugador tiene {TABLEAU_END} o más cartas en su tableau.",
        options=options,
    )


@generator(GAME, "question", "mundos-iniciales", (S_MUNDOS_INICIALES, S_REPARTO))
def gen_start_worlds(rng: Rng) -> Item:
    """Start worlds shuffled into the deck for a given number of players."""
    players = 2 + rng.below(3)
    n = start_worlds_shuffled_in(players)
    return _item(
        "question",
        "integer",
        f"En una partida de {players} jugadores, cada uno recibe un mundo inicial. "
        "¿Cuántos mundos iniciales se barajan con las cartas del juego?",
        str(n),
        (S_MUNDOS_INICIALES, S_REPARTO),
        "start_worlds_shuffled_in",
        f"Hay {START_WORLDS} mundos iniciales; se reparte uno a cada jugador y los restantes "
        "se barajan con las cartas del juego.",
        unit="",
    )


@generator(GAME, "question", "explorar", (R_EXPLORAR, R_ACCIONES, S_BONUS))
def gen_explore(rng: Rng) -> Item:
    """Cards drawn or kept in Explorar, given the seat's action card (this implementation's rulings)."""
    chosen = rng.choice(ACTION_CARDS)
    if not chosen.startswith("Explorar"):
        other = rng.choice(("Explorar +5", "Explorar +1/+1"))
        situation = f"Otro jugador eligió {other}; tú elegiste {chosen}"
    else:
        situation = f"Elegiste {chosen}"
    keep = rng.below(2) == 0
    draw_n, keep_n = explore_counts(chosen)
    question = "¿cuántas cartas conservas?" if keep else "¿cuántas cartas robas del suministro?"
    return _item(
        "question",
        "integer",
        f"{situation}. No tienes ninguna carta con poderes de Explorar. En la fase de Explorar, {question}",
        str(keep_n if keep else draw_n),
        (R_EXPLORAR, R_ACCIONES, S_BONUS),
        "explore_keep" if keep else "explore_draw",
        f"Quien explora roba {EXPLORE_DRAW} y conserva {EXPLORE_KEEP}; Explorar +5 roba 5 más y Explorar +1/+1 "
        "roba 1 más y conserva 1 más, solo para quien eligió esa carta.",
        unit="",
    )
