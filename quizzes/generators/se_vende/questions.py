"""Se Vende's entry questions: each drawn from a real game, answered by the engine.

Every generator deals a game (2 to 4 seats, a seed from the item's stream), plays it until
the situation it asks about arises, states that situation in the prompt (the revealed action
cards, the cards whose powers matter, hand sizes, goods...), plays the move the question is
about and reads the answer from the engine's views. The explanation shows the same answer
worked out by a function of :mod:`.rules` from the prompt's facts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.cards import CardDef, PowerName
from club_agentes.quizzes.generators.se_vende import rules
from club_agentes.quizzes.generators.se_vende import sections as S
from club_agentes.quizzes.generators.se_vende import text as T
from club_agentes.quizzes.generators.se_vende.cases import Case, case_generator, choice, item
from club_agentes.quizzes.generators.se_vende.rules import ACTION_CODES, CHIPS_PER_SEAT, HAND_MAX
from club_agentes.quizzes.generators.se_vende.table import (
    Chooser,
    Move,
    NoSituation,
    Summary,
    Table,
    at_choice,
    choose_all,
    design,
    kind,
    round_start,
    rounds,
)

X = TypeVar("X")

EXPLORE_CARDS = ("explorar-5", "explorar-1-1")
GROWTH = ("desarrollar", "asentar", "asentar", "explorar-1-1")
"""The action cards of the policy that grows tableaus fast (games that reach the 12-card end)."""
LONG_GAMES = 16
"""Games dealt per seat count for situations only long games reach (the 12-card end, an empty chip pool)."""
NAMES = T.NAMES


def _random_actions(rng: Rng, seats: int) -> dict[int, str]:
    return {s: rng.choice(ACTION_CODES) for s in range(seats)}


def _seats(rng: Rng) -> int:
    return 2 + rng.below(3)


# --------------------------------------------------------------------------- setup


@case_generator(
    "question", "suministro-inicial", (S.PASO_3, S.PASO_4, S.PASO_5, S.PASO_6, S.PASO_7, S.PASO_8, S.R_ERRATA_MUNDO)
)
def supply_after_setup(rng: Rng) -> Case:
    """Cards left in the supply once setup is done, given the start worlds dealt."""
    seats = _seats(rng)
    table = Table.deal(seats, rng)
    starts = [table.tableau_cards(s)[0] for s in range(seats)]
    alfa = any(d.key == "alfa-centauro" for d in starts)
    table.advance(at_choice)
    supply = rules.supply_after_setup(seats, alfa)
    discards = rules.SETUP_DISCARD * seats
    with_discards = rng.below(2) == 0
    engine = table.supply_size() + (table.discard_size() if with_discards else 0)
    rule = supply + (discards if with_discards else 0)
    total = rules.game_cards()
    dealt = "; ".join(f"{NAMES[s]}, {T.name(d)}" for s, d in enumerate(starts))
    question = (
        "¿Cuántas cartas hay entre el suministro y el montón de descartes al terminar la preparación?"
        if with_discards
        else "¿Cuántas cartas quedan en el suministro al terminar la preparación?"
    )
    prompt = (
        f"Preparas una partida de {seats} jugadores con las {total} cartas de juego de este servidor (los cinco "
        f"mundos iniciales incluidos), siguiendo los pasos 1 a 8 de la preparación. Los mundos iniciales "
        f"repartidos son: {dealt}. {question}"
    )
    alfa_text = "; Alfa Centauro, que está en juego, toma del suministro su bien inicial (paso 7)" if alfa else ""
    tail = f"; con los {discards} descartes del paso 5, {supply} + {discards} = {rule}" if with_discards else ""
    explanation = (
        f"Cada jugador recibe un solo mundo inicial (el paso 8 no reparte otro) y seis cartas; los dos "
        f"descartes del paso 5 van al montón de descartes{alfa_text}: quedan en el suministro {total} - {seats} - "
        f"{rules.SETUP_DEAL * seats}{' - 1' if alfa else ''} = {supply}{tail}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.PASO_3, S.PASO_4, S.PASO_5, S.PASO_6, S.PASO_7, S.PASO_8, S.R_ERRATA_MUNDO),
            "supply_after_setup",
            explanation,
        ),
        engine,
        rule,
    )


# --------------------------------------------------------------------------- the round: secret choice and phases


def _first_round(rng: Rng) -> tuple[list[str], dict[int, str]]:
    seats = _seats(rng)
    table = Table.deal(seats, rng)
    table.advance(at_choice)
    actions = _random_actions(rng, seats)
    return choose_all(table, actions), actions


@case_generator("question", "fases-ejecutadas", (S.ELECCION, S.FASES, S.VARIOS, S.PASO_2, S.R_ACCIONES))
def phases_run_count(rng: Rng) -> Case:
    """How many phases run in a round, given every player's revealed action card."""
    engine_run, actions = _first_round(rng)
    engine = len(engine_run)
    run = rules.phases_run(actions.values())
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. ¿Cuántas fases se ejecutan en la ronda?"
    )
    explanation = (
        "Solo se ejecutan las fases elegidas por al menos un jugador, cada una una sola vez (las dos cartas de "
        f"Explorar eligen Explorar y las dos de Consumir eligen Consumir): {T.join(list(run))}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.ELECCION, S.FASES, S.VARIOS, S.PASO_2, S.R_ACCIONES),
            "phases_run_count",
            explanation,
        ),
        engine,
        len(run),
    )


@case_generator("question", "orden-de-fases", (S.ELECCION, S.FASES, S.PASO_2, S.R_ACCIONES))
def phase_order(rng: Rng) -> Case | None:
    """Which phase runs first, last, second, or right after another one, given the revealed cards."""
    engine_run, actions = _first_round(rng)
    run = list(rules.phases_run(actions.values()))
    if len(run) < 2:
        return None
    which = rng.below(4)
    if which == 0:
        ask, index = "se ejecuta primero", 0
    elif which == 1:
        ask, index = "se ejecuta en último lugar", len(run) - 1
    elif which == 2:
        ask, index = "se ejecuta en segundo lugar", 1
    else:
        index = 1 + rng.below(len(run) - 1)
        ask = f"se ejecuta justo después de la fase de {run[index - 1]}"
    prompt = f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. ¿Qué fase {ask}?"
    explanation = f"Las fases elegidas se ejecutan una vez cada una, en orden numérico I a V: {T.join(run)}."
    return Case(
        item(
            "question",
            "term",
            prompt,
            engine_run[index],
            (S.ELECCION, S.FASES, S.PASO_2, S.R_ACCIONES),
            "phases_run",
            explanation,
            vocabulary="fases",
        ),
        engine_run[index],
        run[index],
    )


# --------------------------------------------------------------------------- phase I: Explorar


def _explore_round(rng: Rng, max_round: int) -> tuple[Table, int, dict[int, str], int, int] | None:
    """A round where Explorar runs: the table after the reveal, a focal seat, the actions, supply and discards."""
    seats = _seats(rng)
    table = round_start(rng, seats, 1, max_round)
    focal = rng.below(seats)
    actions = _random_actions(rng, seats)
    actions[focal] = rng.choice((*EXPLORE_CARDS, *EXPLORE_CARDS, *ACTION_CODES))
    if not any(a in EXPLORE_CARDS for a in actions.values()):
        actions[(focal + 1 + rng.below(seats - 1)) % seats] = rng.choice(EXPLORE_CARDS)
    supply, discards = table.supply_size(), table.discard_size()
    choose_all(table, actions)
    if table.step() != "explore_keep":
        return None
    return table, focal, actions, supply, discards


EXPLORE_POWERS = (PowerName.EXPLORE_DRAW, PowerName.EXPLORE_KEEP)


@case_generator("question", "explorar", (S.R_EXPLORAR, S.R_ACCIONES, S.BONUS, S.R_PODERES))
def explore(rng: Rng) -> Case | None:
    """Cards drawn, or kept, in Explorar by one player, given the action cards and the explore powers."""
    found = _explore_round(rng, 6)
    if found is None:
        return None
    table, focal, actions, supply, _ = found
    if supply < 30 or focal not in table.waiting():
        return None
    cards = table.tableau_cards(focal)
    mine = table.mine(focal)
    drawn, keep = len(mine["drawn"]), int(mine["keep_left"])
    rule_draw, rule_keep = rules.explore_counts(actions[focal], cards)
    who = NAMES[focal]
    ask_keep = rng.below(2) == 0
    question = (
        f"En la fase de Explorar, ¿con cuántas de las cartas que roba se queda {who}?"
        if ask_keep
        else f"¿Cuántas cartas roba {who} en la fase de Explorar?"
    )
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. "
        f"{T.power_cards(who, cards, 'poderes de Explorar', EXPLORE_POWERS)} {question}"
    )
    more_draw, more_keep = rules.EXPLORE_BONUS.get(actions[focal], (0, 0))
    bonus = (
        f"{T.action(actions[focal])} le da {more_draw} más para robar y {more_keep} más para conservar"
        if actions[focal] in EXPLORE_CARDS
        else f"{who} no eligió una carta de Explorar, así que no tiene bonus"
    )
    explanation = (
        f"Todos exploran: cada jugador roba {rules.EXPLORE_DRAW} y conserva {rules.EXPLORE_KEEP}; {bonus}; "
        f"los poderes de Explorar de su tableau suman el resto: roba {rule_draw} y conserva {rule_keep}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(keep if ask_keep else drawn),
            (S.R_EXPLORAR, S.R_ACCIONES, S.BONUS, S.R_PODERES),
            "explore_counts",
            explanation,
        ),
        keep if ask_keep else drawn,
        rule_keep if ask_keep else rule_draw,
    )


@case_generator("question", "suministro-tras-explorar", (S.PASO_6, S.R_MAZO, S.R_EXPLORAR, S.R_ACCIONES))
def supply_after_explore(rng: Rng) -> Case | None:
    """Cards left in the supply once every player has drawn in Explorar (the discards reshuffled if it runs out)."""
    found = _explore_round(rng, 10)
    if found is None:
        return None
    table, _, actions, supply, discards = found
    seats = table.seats
    owners = [(NAMES[s], table.tableau_cards(s)) for s in range(seats)]
    draws = sum(rules.explore_counts(actions[s], cards)[0] for s, (_, cards) in enumerate(owners))
    rule = rules.supply_after_draws(supply, discards, draws)
    engine = table.supply_size()
    prompt = (
        f"Al empezar la ronda quedan {T.cards(supply)} en el suministro y {discards} en el montón de descartes. "
        f"Se revelan estas cartas de acción: {T.revealed(actions)}. "
        f"{T.table_power_cards(owners, 'poderes de Explorar', EXPLORE_POWERS)} "
        "¿Cuántas cartas quedan en el suministro cuando todos los jugadores han robado en la fase de Explorar?"
    )
    reshuffle = (
        f"; como el suministro se agota, el montón de descartes se baraja y pasa a ser el suministro: "
        f"{supply} + {discards} - {draws} = {rule}"
        if draws > supply
        else f": {supply} - {draws} = {rule}"
    )
    explanation = (
        f"Todos exploran (cada uno roba {rules.EXPLORE_DRAW}, más los bonus de sus cartas de Explorar y sus "
        f"poderes): entre todos roban {draws} cartas{reshuffle}. Las cartas que no conservan van al montón de "
        "descartes, no al suministro."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.PASO_6, S.R_MAZO, S.R_EXPLORAR, S.R_ACCIONES),
            "supply_after_draws",
            explanation,
        ),
        engine,
        rule,
    )


# --------------------------------------------------------------------------- phases II and III: placing

DEVELOP_DISCOUNT_TEXT = "poderes que abaratan los desarrollos"
WORLD_DISCOUNT_TEXT = "poderes que abaratan los mundos"
MILITARY_TEXT = "poderes de Militar"


def _until_place(focal: int, phase: str) -> Callable[[Table, int, Sequence[Move]], bool]:
    """An ``until`` for ``focal``'s placement decision in ``phase`` (``"develop"`` or ``"settle"``)."""

    def reached(t: Table, seat: int, moves: Sequence[Move]) -> bool:
        if seat != focal or not moves or kind(moves[0]) != "place":
            return False
        for m in moves:
            if m[0].get("card"):
                return design(m[0]["card"]).is_development == (phase == "develop")
        return t.step() == f"{phase}_place"

    return reached


def _placing_round(
    rng: Rng,
    phase: str,
    pool: Sequence[str],
    focal_chooses: bool | None,
    pick: Callable[[Table, int], X | None],
    max_round: int = 6,
    holds: Callable[[CardDef], bool] | None = None,
) -> tuple[Table, int, dict[int, str], X] | None:
    """A round where ``phase`` (``"develop"``/``"settle"``) runs, stopped at a focal seat's placement decision.

    Every seat's action card comes from ``pool``; the focal seat chose the phase's card when
    ``focal_chooses`` (at random when ``None``), and another seat chose it otherwise. The focal
    seat holds, at the start of the round, a card for which ``holds`` is true (by default a card
    of the phase), and ``pick`` finds what the question needs at its decision (``None``: try the
    next round of the same game).
    """
    card = "desarrollar" if phase == "develop" else "asentar"
    wanted = holds or ((lambda d: d.is_development) if phase == "develop" else (lambda d: d.is_world))
    others = [c for c in pool if c != card]
    seats = _seats(rng)
    for table in rounds(rng, seats, 1, max_round):

        def holds_wanted(s: int, t: Table = table) -> bool:
            return any(wanted(design(c)) for c in t.hand(s))

        focal = _first_accepted(rng, seats, holds_wanted)
        if focal is None:
            continue
        actions = {s: rng.choice(pool) for s in range(seats)}
        chooses = rng.below(2) == 0 if focal_chooses is None else focal_chooses
        actions[focal] = card if chooses else rng.choice(others)
        if card not in actions.values():
            actions[(focal + 1 + rng.below(seats - 1)) % seats] = card
        choose_all(table, actions)
        if not _reach(table, _until_place(focal, phase)):
            continue
        picked = pick(table, focal)
        if picked is not None:
            return table, focal, actions, picked
    return None


def _reach(table: Table, until: Callable[[Table, int, Sequence[Move]], bool], chooser: Chooser | None = None) -> bool:
    """Play this round until ``until`` holds; return ``False`` when the round (or the game) ends first."""
    try:
        table.advance(until, chooser, this_round=True)
    except NoSituation:
        return False
    return True


def candidates(
    rng: Rng,
    first: int,
    last: int,
    accept: Callable[[Table, int], bool],
    **policy: object,
) -> Iterator[tuple[Table, int]]:
    """Yield (table, focal seat) at the secret choice of successive rounds of one game, for a seat ``accept`` takes.

    The seat is drawn among the accepted ones; rounds with none are played through. The caller may
    play the round (or give up on it) before asking for the next (see :func:`.table.rounds`).
    """
    seats = _seats(rng)
    for table in rounds(rng, seats, first, last, **policy):  # type: ignore[arg-type]

        def accepted(s: int, t: Table = table) -> bool:
            return accept(t, s)

        focal = _first_accepted(rng, seats, accepted)
        if focal is not None:
            yield table, focal


def _first_accepted(rng: Rng, seats: int, accept: Callable[[int], bool]) -> int | None:
    """Return a seat drawn at random among those ``accept`` takes (asking about as few seats as it can), or ``None``."""
    order = list(range(seats))
    rng.shuffle(order)
    return next((s for s in order if accept(s)), None)


def _own_round(table: Table) -> bool:
    """Play the round the table is at with the item's own policy; return whether the game goes on.

    Items whose question is about a game's state take it one round after the shared game's
    round, so that what they describe is their own.
    """
    table.next_choice(table.round())
    return not table.over()


def _pick(rng: Rng, options: Sequence[X]) -> X | None:
    """Return one of ``options`` at random, or ``None`` when there is none."""
    return rng.choice(options) if options else None


def _placeable(table: Table, seat: int) -> list[CardDef]:
    """Return the designs of the cards ``seat`` may place now (its legal ``place`` moves), ids kept in order."""
    return [design(m[0]["card"]) for m in table.moves(seat) if kind(m) == "place" and m[0].get("card")]


def _place(table: Table, seat: int, card: CardDef) -> None:
    """Play ``seat``'s placement of a card of design ``card`` (its first copy in hand)."""
    cid = next(m[0]["card"] for m in table.moves(seat) if m[0].get("card") and design(m[0]["card"]) is card)
    table.play_json(seat, {"type": "place", "card": cid})


def _finish_placing(table: Table, phase: str) -> None:
    """Let every other seat choose its placement of ``phase`` (the policy), up to the reveal."""
    table.finish_sealed("place")


def _owed(table: Table, seat: int, pay_step: str) -> int:
    """Return what ``seat`` owes for its placement right after the reveal (0 when nobody owes anything)."""
    if table.step() != pay_step:
        return 0
    return int(table.mine(seat).get("pay_left", 0))


ALL_ACTIONS: tuple[str, ...] = ACTION_CODES
EARLY_ACTIONS: tuple[str, ...] = ("explorar-5", "explorar-1-1", "desarrollar", "asentar")


@case_generator(
    "question", "coste-de-desarrollo", (S.VARIOS, S.R_DESARROLLAR, S.R_PAGAR, S.R_ACCIONES, S.NUEVOS, S.R_PODERES)
)
def develop_cost(rng: Rng) -> Case | None:
    """Cards discarded to pay for a development, given who chose Desarrollar and the discount powers."""
    found = _placing_round(rng, "develop", ALL_ACTIONS, None, lambda t, f: _pick(rng, _placeable(t, f)))
    if found is None:
        return None
    table, focal, actions, dev = found
    cards = table.tableau_cards(focal)
    hand = table.hand_size(focal)
    _place(table, focal, dev)
    _finish_placing(table, "develop")
    engine = _owed(table, focal, "develop_pay")
    rule = rules.develop_payment(dev.cost, actions[focal] == "desarrollar", cards)
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Desarrollar, {who}, "
        f"con {T.cards(hand)} en la mano, coloca {T.card(dev)}. "
        f"{T.power_cards(who, cards, DEVELOP_DISCOUNT_TEXT, [PowerName.DEVELOP_DISCOUNT])} "
        f"¿Cuántas cartas de la mano descarta {who} para pagarlo?"
    )
    bonus = (
        "eligió Desarrollar y descarta una carta menos"
        if actions[focal] == "desarrollar"
        else ("no eligió Desarrollar: paga el costo completo, sin bonus")
    )
    explanation = (
        f"{who} {bonus}; los poderes de su tableau que abaratan los desarrollos restan lo suyo, nunca por debajo de "
        f"0, y los del desarrollo que coloca aún no cuentan: paga {rule}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.VARIOS, S.R_DESARROLLAR, S.R_PAGAR, S.R_ACCIONES, S.NUEVOS),
            "develop_payment",
            explanation,
        ),
        engine,
        rule,
    )


def _place_all(table: Table, phase: str, rng: Rng) -> dict[int, CardDef]:
    """Play every seat's placement in ``phase``: a random legal card, or none; return what each placed."""
    placed: dict[int, CardDef] = {}
    first = True
    while True:
        waiting = table.waiting()
        if not waiting or (not first and not table.chosen_so_far()):
            break
        seat = waiting[0]
        moves = table.moves(seat)
        if not moves or kind(moves[0]) != "place":
            break
        first = False
        options = _placeable(table, seat)
        if options and rng.below(100) < 85:
            card = rng.choice(options)
            placed[seat] = card
            _place(table, seat, card)
        else:
            table.play_json(seat, {"type": "place", "card": None})
    return placed


@case_generator("question", "pago-entre-varios", (S.VARIOS, S.NO_COLOCAR, S.R_DESARROLLAR, S.R_PAGAR, S.R_ACCIONES))
def develop_costs_together(rng: Rng) -> Case | None:
    """Cards discarded by all players together to pay for the developments they place in one Desarrollar."""
    seats = _seats(rng)
    for table in rounds(rng, seats, 1, 5):
        actions = {s: rng.choice(("desarrollar", "desarrollar", *ALL_ACTIONS)) for s in range(seats)}
        if "desarrollar" not in actions.values():
            actions[rng.below(seats)] = "desarrollar"
        choose_all(table, actions)
        if not _reach(table, lambda t, seat, moves: bool(moves) and kind(moves[0]) == "place"):
            continue
        if table.step() != "develop_place":
            continue
        tableaus = {s: table.tableau_cards(s) for s in range(seats)}
        placed = _place_all(table, "develop", rng)
        if len(placed) >= 2:
            break
    else:
        return None
    engine = sum(_owed(table, s, "develop_pay") for s in placed)
    parts = {s: rules.develop_payment(d.cost, actions[s] == "desarrollar", tableaus[s]) for s, d in placed.items()}
    rule = sum(parts.values())
    placing = "; ".join(f"{NAMES[s]}, {T.name(d)} (costo {d.cost})" for s, d in sorted(placed.items()))
    owners = [(NAMES[s], tableaus[s]) for s in sorted(placed)]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Desarrollar colocan "
        f"un desarrollo: {placing}; nadie más coloca nada. "
        f"{T.table_power_cards(owners, DEVELOP_DISCOUNT_TEXT, [PowerName.DEVELOP_DISCOUNT])} "
        "¿Cuántas cartas de la mano descartan entre todos para pagar esos desarrollos?"
    )
    explanation = (
        "La fase se ejecuta una vez: todos pagan el costo completo de su desarrollo, pero solo quienes eligieron "
        "Desarrollar descartan una carta menos (y los poderes que abaratan restan lo suyo): "
        + " + ".join(f"{parts[s]} de {NAMES[s]}" for s in sorted(parts))
        + f" = {rule}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.VARIOS, S.NO_COLOCAR, S.R_DESARROLLAR, S.R_PAGAR, S.R_ACCIONES),
            "develop_payment",
            explanation,
        ),
        engine,
        rule,
    )


def _settling(
    rng: Rng, want: Callable[[CardDef], bool], pool: Sequence[str] = ALL_ACTIONS
) -> tuple[Table, int, dict[int, str], CardDef, list[CardDef], list[CardDef]] | None:
    """A focal seat about to place, in Asentar, a world it may place for which ``want`` holds.

    Returns the table (at that decision), the seat, the actions, the world, its tableau and its hand.
    """
    found = _placing_round(rng, "settle", pool, None, lambda t, f: _pick(rng, [d for d in _placeable(t, f) if want(d)]))
    if found is None:
        return None
    table, focal, actions, world = found
    hand = [design(c) for c in table.hand(focal)]
    return table, focal, actions, world, table.tableau_cards(focal), hand


@case_generator("question", "coste-de-mundo", (S.R_ASENTAR, S.R_PAGAR, S.MILITARES, S.NUEVOS, S.R_PODERES))
def world_cost(rng: Rng) -> Case | None:
    """Cards discarded to place a world in Asentar (a military world is free), given the discount powers."""
    military_wanted = rng.below(4) == 0
    found = _settling(rng, lambda d: d.military == military_wanted)
    if found is None:
        return None
    table, focal, actions, world, cards, hand = found
    _place(table, focal, world)
    _finish_placing(table, "settle")
    engine = _owed(table, focal, "settle_pay")
    rule = rules.settle_payment(world, cards)
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Asentar, {who}, con "
        f"{T.cards(len(hand))} en la mano, coloca {T.card(world)}. "
        f"{T.power_cards(who, cards, WORLD_DISCOUNT_TEXT, [PowerName.SETTLE_DISCOUNT])} "
        f"¿Cuántas cartas de la mano descarta {who} para colocarlo?"
    )
    if world.military:
        why = "Un mundo militar no se paga con cartas: si el Militar llega a su defensa, se coloca gratis"
    else:
        why = (
            "Un mundo se paga descartando tantas cartas de la mano como su costo, menos lo que restan los poderes "
            "que abaratan los mundos (nunca por debajo de 0); los poderes del mundo que se coloca aún no cuentan"
        )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.R_ASENTAR, S.R_PAGAR, S.MILITARES, S.NUEVOS),
            "settle_payment",
            f"{why}: {rule}.",
        ),
        engine,
        rule,
    )


def _military_case(rng: Rng) -> tuple[Table, int, dict[int, str], CardDef, list[CardDef], int] | None:
    """A focal seat at its Asentar decision holding a military world; return it with its Militar (the engine's)."""
    found = _placing_round(
        rng,
        "settle",
        ALL_ACTIONS,
        None,
        lambda t, f: _pick(rng, [d for d in (design(c) for c in t.hand(f)) if d.military]),
        max_round=8,
        holds=lambda d: d.military,
    )
    if found is None:
        return None
    table, focal, actions, world = found
    return table, focal, actions, world, table.tableau_cards(focal), table.military(focal)


@case_generator("question", "mundo-militar", (S.MILITARES, S.R_ASENTAR, S.NUEVOS))
def military_world(rng: Rng) -> Case | None:
    """Whether a player's Militar places a military world from their hand."""
    found = _military_case(rng)
    if found is None:
        return None
    table, focal, actions, world, cards, _ = found
    engine = world in _placeable(table, focal)
    rule = rules.can_place_military(rules.military(cards), world.defence)
    who = NAMES[focal]
    yes = f"Sí, y {who} lo coloca gratis"
    no = f"No, el Militar de {who} no llega a la defensa de ese mundo"
    correct, other = (yes, no) if engine else (no, yes)
    options, letter = choice(
        rng,
        correct,
        [
            other,
            "Sí, pagando con cartas de la mano la diferencia entre su Militar y la defensa",
            "No, porque solo quien eligió Asentar puede colocar mundos militares",
        ],
    )
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. Es la fase de Asentar. "
        f"{T.power_cards(who, cards, MILITARY_TEXT, [PowerName.SETTLE_MILITARY])} "
        f"{who} tiene en la mano {T.card(world)}. ¿Puede colocarlo en esta fase?"
    )
    explanation = (
        f"El Militar de {who} en esta fase es {rules.military(cards)} (los poderes del mundo que quiere colocar no "
        f"cuentan para colocarlo), y la defensa de {T.name(world)} es {world.defence}: un mundo militar no se paga "
        "con cartas y solo se coloca, gratis, con un Militar igual o superior a su defensa."
    )
    return Case(
        item(
            "question",
            "choice",
            prompt,
            letter,
            (S.MILITARES, S.R_ASENTAR, S.NUEVOS),
            "can_place_military",
            explanation,
            options=options,
        ),
        engine,
        rule,
    )


@case_generator("question", "militar-que-falta", (S.MILITARES, S.R_ASENTAR, S.NUEVOS))
def military_shortfall(rng: Rng) -> Case | None:
    """How much more Militar a player would need to place a military world from their hand."""
    found = _military_case(rng)
    if found is None:
        return None
    _, focal, actions, world, cards, engine_military = found
    engine = max(0, world.defence - engine_military)
    rule = rules.military_shortfall(rules.military(cards), world.defence)
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. Es la fase de Asentar. "
        f"{T.power_cards(who, cards, MILITARY_TEXT, [PowerName.SETTLE_MILITARY])} "
        f"{who} tiene en la mano {T.card(world)}. ¿Cuánto Militar más necesitaría {who} en esta fase para poder "
        "colocarlo? (0 si ya puede)"
    )
    explanation = (
        f"Su Militar es {rules.military(cards)} (el del mundo que quiere colocar no cuenta todavía) y la defensa es "
        f"{world.defence}: el Militar debe ser igual o superior a la defensa, así que le falta {rule}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.MILITARES, S.R_ASENTAR, S.NUEVOS),
            "military_shortfall",
            explanation,
        ),
        engine,
        rule,
    )


def _option_text(card: CardDef) -> str:
    return f"{T.name(card)}, {card.kind_text()}"


@case_generator("question", "que-puedes-colocar", (S.R_ASENTAR, S.R_DESARROLLAR, S.R_PAGAR, S.MILITARES, S.USOS))
def what_can_be_placed(rng: Rng) -> Case | None:
    """Which one of four cards in hand may be placed in this Desarrollar or Asentar phase."""
    phase = rng.choice(("develop", "settle"))

    def pick(t: Table, f: int) -> tuple[list[CardDef], list[CardDef], list[CardDef]] | None:
        hand = [design(c) for c in t.hand(f)]
        legal = {d.key for d in _placeable(t, f)}
        unique = {d.key: d for d in hand}
        good = [d for d in unique.values() if d.key in legal]
        bad = [d for d in unique.values() if d.key not in legal]
        return (hand, good, bad) if good and len(bad) >= 3 else None

    found = _placing_round(rng, phase, ALL_ACTIONS, None, pick, max_round=7)
    if found is None:
        return None
    table, focal, actions, (hand, good, bad) = found
    mine = table.mine(focal)
    discount = int(mine["development_discount" if phase == "develop" else "world_discount"])
    military = table.military(focal) if phase == "settle" else 0
    right = rng.choice(good)
    rng.shuffle(bad)
    wrong = bad[:3]
    name = "Desarrollar" if phase == "develop" else "Asentar"
    rule_ok = [rules.placeable(d, name, len(hand), discount, military) for d in (right, *wrong)]
    who = NAMES[focal]
    if phase == "develop":
        situation = (
            f"sus desarrollos le cuestan {discount} menos en esta fase"
            if discount
            else "nada le abarata los desarrollos en esta fase"
        )
    else:
        cheaper = f"sus mundos no militares le cuestan {discount} menos" if discount else "nada le abarata los mundos"
        situation = f"su Militar en esta fase es {military} y {cheaper}"
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. Es la fase de {name}. {who} tiene "
        f"{T.cards(len(hand))} en la mano; {situation}. ¿Cuál de estas cartas de su mano puede colocar en esta fase?"
    )
    options, letter = choice(rng, _option_text(right), [_option_text(d) for d in wrong])
    explanation = (
        "En Desarrollar solo se coloca un desarrollo y en Asentar solo un mundo; un mundo militar necesita un "
        "Militar igual o superior a su defensa y no se paga; cualquier otra carta se paga descartando otras cartas "
        f"de la mano, así que hace falta tenerlas. Solo {T.name(right)} cumple."
    )
    return Case(
        item(
            "question",
            "choice",
            prompt,
            letter,
            (S.R_ASENTAR, S.R_DESARROLLAR, S.R_PAGAR, S.MILITARES, S.USOS),
            "placeable",
            explanation,
            options=options,
        ),
        [True, False, False, False],
        rule_ok,
    )


def _end_of_round(table: Table) -> None:
    """Play on to the end of the round: the hand-limit discards (before any is made) or the next secret choice."""
    table.to_end_of_round()


@case_generator("question", "robo-tras-asentar", (S.R_ACCIONES, S.R_ASENTAR, S.BONUS, S.NUEVOS, S.R_PAGAR))
def settle_draws(rng: Rng) -> Case | None:
    """Cards a player draws after placing a world: the Asentar bonus and settle-draw powers (not the new world's)."""
    found = _settling(rng, lambda d: True, EARLY_ACTIONS)
    if found is None:
        return None
    table, focal, actions, world, cards, hand = found
    _place(table, focal, world)
    _finish_placing(table, "settle")
    paid = _owed(table, focal, "settle_pay")
    _end_of_round(table)
    engine = table.hand_size(focal) - (len(hand) - 1 - paid)
    chose = actions[focal] == "asentar"
    rule = rules.settle_draws(chose, cards)
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Asentar, {who} coloca "
        f"{T.card(world)} y paga su costo. "
        f"{T.power_cards(who, cards, 'poderes que roban al colocar un mundo', [PowerName.SETTLE_DRAW])} "
        f"¿Cuántas cartas roba {who} después de colocarlo?"
    )
    bonus = f"{who} eligió Asentar y roba 1 carta como bonus" if chose else f"{who} no eligió Asentar: no hay bonus"
    explanation = (
        f"{bonus}; los poderes de su tableau que roban al colocar un mundo suman lo suyo, pero los del mundo recién "
        f"colocado solo cuentan desde la fase siguiente: roba {rule}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.R_ACCIONES, S.R_ASENTAR, S.BONUS, S.NUEVOS),
            "settle_draws",
            explanation,
        ),
        engine,
        rule,
    )


@case_generator("question", "bienes-tras-asentar", (S.CAIDA, S.PRODUCIR, S.MILITARES, S.R_ASENTAR))
def goods_after_settling(rng: Rng) -> Case | None:
    """Goods on a player's worlds once the world they place in Asentar is down (only a windfall world gets one)."""
    found = _settling(rng, lambda d: True, EARLY_ACTIONS)
    if found is None:
        return None
    table, focal, actions, world, _, _ = found
    before = table.goods(focal)
    _place(table, focal, world)
    _finish_placing(table, "settle")
    _end_of_round(table)
    engine = table.goods(focal)
    rule = rules.goods_after_settling(before, world)
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. Al empezar la fase de Asentar, "
        f"{T.holding(who, before)}. En esa fase {who} coloca {T.card(world)}. "
        f"¿Cuántos bienes hay en los mundos de {who} al terminar la fase de Asentar?"
    )
    if world.world == "windfall":
        why = "es un mundo de caída (con halo): recibe su bien de caída al colocarlo"
    elif world.world == "production":
        why = "es un mundo de producción: recibe bienes en la fase de Producir, no al colocarlo"
    else:
        why = "no tiene halo ni produce bienes: no recibe ninguno"
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.CAIDA, S.PRODUCIR, S.MILITARES, S.R_ASENTAR),
            "goods_after_settling",
            f"{T.name(world)} {why}; {T.holding(who, rule)} al terminar la fase.",
        ),
        engine,
        rule,
    )


# --------------------------------------------------------------------------- phase IV: Consumir

TRADE_TEXT = "poderes que dan cartas al vender"


def _until_sell(focal: int) -> Callable[[Table, int, Sequence[Move]], bool]:
    def reached(t: Table, seat: int, moves: Sequence[Move]) -> bool:
        return seat == focal and bool(moves) and kind(moves[0]) == "sell"

    return reached


NOT_PRODUCE: tuple[str, ...] = tuple(c for c in ACTION_CODES if c != "producir")


def _trading(rng: Rng) -> tuple[Table, int, dict[int, str]] | None:
    """A round where a focal seat chose Consumir: Comercio, stopped when it must sell one good."""
    seats = _seats(rng)
    for table in rounds(rng, seats, 2, 7):
        holders = [s for s in range(seats) if table.goods(s) > 0]
        if not holders:
            continue
        focal = rng.choice(holders)
        actions = {s: rng.choice(NOT_PRODUCE) for s in range(seats)}  # nothing after Consumir changes a hand
        actions[focal] = "comercio"
        choose_all(table, actions)
        if _reach(table, _until_sell(focal)):
            return table, focal, actions
    return None


@case_generator("question", "comercio", (S.COMERCIO, S.R_CONSUMIR, S.R_PODERES))
def trade(rng: Rng) -> Case | None:
    """Cards a player draws for the good they sell with Consumir: Comercio, with the trade powers of their tableau."""
    found = _trading(rng)
    if found is None:
        return None
    table, focal, actions = found
    sells = [m for m in table.moves(focal) if kind(m) == "sell"]
    world_id = rng.choice(sells)[0]["world"]
    world = design(world_id)
    cards = table.tableau_cards(focal)
    before = table.hand_size(focal)
    table.play_json(focal, {"type": "sell", "world": world_id})
    engine = table.hand_size(focal) - before
    rule = rules.trade_draw(world.good or "", cards)
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Consumir, {who} vende "
        f"el bien que hay sobre {T.name(world)} ({world.kind_text()}). "
        f"{T.power_cards(who, cards, TRADE_TEXT, [PowerName.TRADE_BONUS])} ¿Cuántas cartas roba {who} por esa venta?"
    )
    explanation = (
        f"Vender un bien de {T.good(world.good or '')} con Comercio da {rules.trade_draw(world.good or '')} cartas; "
        f"los poderes de {who} que dan cartas al vender ese tipo de bien suman lo suyo: {rule}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.COMERCIO, S.R_CONSUMIR, S.R_PODERES),
            "trade_draw",
            explanation,
        ),
        engine,
        rule,
    )


@case_generator("question", "bien-vendido", (S.COMERCIO, S.R_CONSUMIR))
def good_sold(rng: Rng) -> Case | None:
    """Which kind of good a player sold, given the cards the sale drew and the trade powers of their tableau."""
    found = _trading(rng)
    if found is None:
        return None
    table, focal, actions = found
    sells = [m for m in table.moves(focal) if kind(m) == "sell"]
    world_id = rng.choice(sells)[0]["world"]
    world = design(world_id)
    cards = table.tableau_cards(focal)
    before = table.hand_size(focal)
    table.play_json(focal, {"type": "sell", "world": world_id})
    drawn = table.hand_size(focal) - before
    kinds = rules.kinds_for_draw(drawn, cards)
    if len(kinds) != 1:
        return None
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Consumir, {who} vende "
        f"un bien y roba {T.cards(drawn)} por esa venta. "
        f"{T.power_cards(who, cards, TRADE_TEXT, [PowerName.TRADE_BONUS])} ¿De qué tipo era el bien que vendió?"
    )
    engine = T.good(world.good or "").capitalize()
    rule = T.good(kinds[0]).capitalize()
    explanation = (
        "Con Comercio se roban 5 cartas por tecnología alienígena, 4 por genes, 3 por elementos raros o 2 por "
        f"novedad, más lo que den los poderes de {who} al vender: solo un bien de {T.good(kinds[0])} da {drawn}."
    )
    return Case(
        item(
            "question",
            "term",
            prompt,
            engine,
            (S.COMERCIO, S.R_CONSUMIR),
            "kinds_for_draw",
            explanation,
            vocabulary="bienes",
        ),
        engine,
        rule,
    )


def _goods_listing(table: Table, seat: int) -> str:
    """Return "«A» (genes), «B» (novedad)": the worlds of ``seat`` that hold a good, with the good's kind."""
    return T.join([f"{T.name(design(c['id']))} ({T.good(c['good'])})" for c in table.tableau(seat) if c.get("good")])


def _until_use(focal: int, wanted: PowerName) -> Callable[[Table, int, Sequence[Move]], bool]:
    """An ``until`` for ``focal``'s first Consumir decision at which it may invoke a ``wanted`` power."""

    def reached(t: Table, seat: int, moves: Sequence[Move]) -> bool:
        if seat != focal or not moves or kind(moves[0]) not in ("use", "done"):
            return False
        return any(kind(m) == "use" and design(m[0]["card"]).powers[m[0]["power"]].name is wanted for m in moves)

    return reached


_FAVOURS: dict[str, Chooser] = {}


def _favour(name: str, wanted: Callable[[CardDef], bool]) -> Chooser:
    """A chooser that places a card for which ``wanted`` holds whenever it may (the policy plays the rest).

    One chooser per ``name``, so that games steered the same way are shared (see :func:`.table.round_start`).
    """
    found = _FAVOURS.get(name)
    if found is not None:
        return found

    def chooser(t: Table, seat: int, moves: Sequence[Move]) -> object | None:
        if moves and kind(moves[0]) == "place":
            for m in moves:
                if m[0].get("card") and wanted(design(m[0]["card"])):
                    return m[1]
        return None

    _FAVOURS[name] = chooser
    return chooser


def _has(power: PowerName) -> Callable[[CardDef], bool]:
    return lambda d: any(p.name is power for p in d.powers)


def _consuming(
    rng: Rng, power: PowerName, focal_pool: Sequence[str], min_round: int = 2
) -> tuple[Table, int, dict[int, str]] | None:
    """A round stopped at a focal seat's first Consumir decision at which it may invoke a ``power`` power.

    No seat chose Producir, so nothing after Consumir changes a hand; the focal seat's card comes from ``focal_pool``.
    """
    seats = _seats(rng)
    steer = _favour(power.value, _has(power)) if power is PowerName.CONSUME_HAND else None
    for table in rounds(rng, seats, min_round, 7, chooser=steer):
        holders = [s for s in range(seats) if any(_has(power)(d) for d in table.tableau_cards(s))]
        if power is PowerName.CONSUME_GOODS:
            holders = [s for s in holders if table.goods(s) > 0]
        if not holders:
            continue
        focal = rng.choice(holders)
        actions = {s: rng.choice(NOT_PRODUCE) for s in range(seats)}
        actions[focal] = rng.choice(focal_pool)
        if not {"comercio", "2x-pv"} & set(actions.values()):
            actions[(focal + 1 + rng.below(seats - 1)) % seats] = rng.choice(("comercio", "2x-pv"))
        choose_all(table, actions)
        if _reach(table, _until_use(focal, power)):
            return table, focal, actions
    return None


def _use(table: Table, seat: int, power: PowerName, rng: Rng) -> tuple[CardDef, int]:
    """Invoke one of ``seat``'s usable ``power`` powers (chosen with ``rng``); return its card and index."""
    uses = [
        m for m in table.moves(seat) if kind(m) == "use" and design(m[0]["card"]).powers[m[0]["power"]].name is power
    ]
    data = rng.choice(uses)[0]
    table.play_json(seat, data)
    return design(data["card"]), int(data["power"])


def _finish_power(table: Table, seat: int, rng: Rng, stop_early: bool = False) -> None:
    """Make every choice the power in use asks of ``seat`` (goods or hand cards) until it is done.

    A hand-card power is used to the full unless ``stop_early``.
    """
    while seat in table.waiting():
        moves = table.moves(seat)
        picks = [m for m in moves if kind(m) in ("consume", "discard")]
        if not picks or table.mine(seat).get("consume", {}).get("in_use") is None:
            return
        if stop_early and any(kind(m) == "done" for m in moves):
            table.play_json(seat, {"type": "done"})
            return
        table.play(seat, rng.choice(picks)[1])


@case_generator("question", "poder-de-consumir", (S.HASTA_N, S.R_CONSUMIR))
def consume_power(rng: Rng) -> Case | None:
    """Goods taken, points or cards from one "hasta N bienes" consume power, invoked with the goods a player holds."""
    found = _consuming(rng, PowerName.CONSUME_GOODS, ("explorar-5", "explorar-1-1", "desarrollar", "asentar"))
    if found is None:
        return None
    table, focal, actions = found
    goods = table.good_kinds(focal)
    listing = _goods_listing(table, focal)
    chips, hand, held = table.chips(focal), table.hand_size(focal), table.goods(focal)
    card, index = _use(table, focal, PowerName.CONSUME_GOODS, rng)
    _finish_power(table, focal, rng)
    power = card.powers[index]
    taken, vp, drawn = rules.consume_goods(card, index, goods, double=False)
    got = (held - table.goods(focal), table.chips(focal) - chips, table.hand_size(focal) - hand)
    asks = [0, 1, 2] if power.cards else [0, 1]
    ask = rng.choice(asks)
    question = (
        f"¿Cuántos bienes descarta {NAMES[focal]} con ese poder?",
        f"¿Cuántos puntos de victoria gana {NAMES[focal]} con ese poder?",
        f"¿Cuántas cartas roba {NAMES[focal]} con ese poder?",
    )[ask]
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Consumir, {who} tiene "
        f"bienes sobre {listing}. Invoca el poder de {T.name(card)} que dice «{power.text()}» {question}"
    )
    explanation = (
        f"Si lo invocas, el poder toma todos los bienes que acepta, hasta su límite: {taken}; da {vp} PV"
        + (f" y {T.cards(drawn)}" if power.cards else "")
        + f" ({who} no eligió 2x PV, así que no se duplican)."
    )
    return Case(
        item("question", "integer", prompt, str(got[ask]), (S.HASTA_N, S.R_CONSUMIR), "consume_goods", explanation),
        got[ask],
        (taken, vp, drawn)[ask],
    )


@case_generator("question", "consumir-mano", (S.DOBLE, S.R_MANO, S.R_CONSUMIR))
def consume_hand(rng: Rng) -> Case | None:
    """The most points a power that discards cards from hand gives (never doubled by 2x PV)."""
    found = _consuming(rng, PowerName.CONSUME_HAND, ("2x-pv", "2x-pv", "explorar-5", "desarrollar", "asentar"), 3)
    if found is None:
        return None
    table, focal, actions = found
    chips, hand = table.chips(focal), table.hand_size(focal)
    card, index = _use(table, focal, PowerName.CONSUME_HAND, rng)
    _finish_power(table, focal, rng)
    engine = table.chips(focal) - chips
    power = card.powers[index]
    rule = rules.consume_hand_vp(power.up_to, hand)
    who = NAMES[focal]
    double = actions[focal] == "2x-pv"
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Consumir, {who} tiene "
        f"{T.cards(hand)} en la mano e invoca el poder de {T.name(card)} que dice «{power.text()}» "
        f"¿Cuántos puntos de victoria puede ganar {who} como máximo con ese poder?"
    )
    explanation = f"El poder da 1 PV por cada carta descartada de la mano, hasta {power.up_to}: como máximo {rule}" + (
        "; el bonus de 2x PV no duplica los puntos de descartar cartas de la mano."
        if double
        else f" ({who} no eligió 2x PV, y aunque lo hubiera elegido no duplicaría estos puntos)."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.DOBLE, S.R_MANO, S.R_CONSUMIR),
            "consume_hand_vp",
            explanation,
        ),
        engine,
        rule,
    )


# --------------------------------------------------------------------------- phase V: Producir

PRODUCE_ROUND: tuple[str, ...] = ("explorar-5", "explorar-1-1", "producir")


def _production_worlds(table: Table, seat: int) -> tuple[list[CardDef], list[CardDef], list[CardDef], list[CardDef]]:
    """Return ``seat``'s (empty production, full production, empty windfall, full windfall) worlds."""
    parts: tuple[list[CardDef], list[CardDef], list[CardDef], list[CardDef]] = ([], [], [], [])
    for c in table.tableau(seat):
        d = design(c["id"])
        if d.world in ("production", "windfall"):
            index = (0 if d.world == "production" else 2) + (1 if c.get("good") else 0)
            parts[index].append(d)
    return parts


def _worlds_sentence(who: str, empty: list[CardDef], full: list[CardDef], kind_of: str) -> str:
    """Describe ``who``'s worlds of one kind ("de producción", "de caída"), each with or without its good."""
    if not empty and not full:
        return f"{who} no tiene mundos {kind_of}."
    bits = [f"{T.name(d)} (sin bien)" for d in empty] + [f"{T.name(d)} (con un bien)" for d in full]
    if len(bits) == 1:
        return f"Su único mundo {kind_of} es {bits[0]}."
    return f"Sus mundos {kind_of} son {T.join(bits)}."


def _producing(
    rng: Rng,
    pool: Sequence[str],
    accept: Callable[[Table, int], bool],
    chooser: Chooser | None = None,
) -> tuple[Table, int, dict[int, str]] | None:
    """A round where only Explorar and Producir can run (so tableaus and goods do not change before Producir).

    The focal seat is one for which ``accept`` holds at the start of the round (the first such round of the game).
    """
    seats = _seats(rng)
    for table in rounds(rng, seats, 1, 6, chooser=chooser):
        if not _own_round(table) or table.supply_size() < 25:
            continue
        holders = [s for s in range(seats) if accept(table, s)]
        if not holders:
            continue
        focal = rng.choice(holders)
        actions = {s: rng.choice(pool) for s in range(seats)}
        if "producir" not in actions.values():
            actions[rng.below(seats)] = "producir"
        return table, focal, actions
    return None


def _always_produce(focal: int) -> Callable[[Table, int, Sequence[Move]], object | None]:
    def chooser(t: Table, seat: int, moves: Sequence[Move]) -> object | None:
        if seat == focal and moves and kind(moves[0]) in ("produce", "done"):
            produce = [m for m in moves if kind(m) == "produce"]
            return produce[0][1] if produce else moves[0][1]
        return None

    return chooser


@case_generator("question", "producir-bienes", (S.PRODUCIR, S.R_PRODUCIR, S.R_ACCIONES))
def goods_produced(rng: Rng) -> Case | None:
    """The most goods a player gets in Producir: each empty production world, and one windfall world for the chooser."""

    def accept(t: Table, seat: int) -> bool:
        if any(_has(PowerName.PRODUCE_WINDFALL)(d) for d in t.tableau_cards(seat)):
            return False
        empty_p, _, empty_w, _ = _production_worlds(t, seat)
        return bool(empty_p or empty_w)

    found = _producing(rng, PRODUCE_ROUND, accept)
    if found is None:
        return None
    table, focal, actions = found
    empty_p, full_p, empty_w, full_w = _production_worlds(table, focal)
    before = table.goods(focal)
    choose_all(table, actions)
    table.to_end_of_round(_always_produce(focal))
    engine = table.goods(focal) - before
    chose = actions[focal] == "producir"
    rule = rules.goods_produced(len(empty_p), len(empty_w), chose)
    who = NAMES[focal]
    prompt = (
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. Al empezar la fase de Producir, "
        f"{_worlds_sentence(who, empty_p, full_p, 'de producción')} "
        f"{_worlds_sentence(who, empty_w, full_w, 'de caída')} Ninguna carta del tableau de {who} tiene "
        f"poderes que produzcan en mundos de caída. ¿Cuántos bienes puede producir {who} como máximo en esa fase?"
    )
    bonus = (
        "eligió Producir, así que además puede producir en uno de sus mundos de caída sin bien"
        if chose
        else "no eligió Producir: no produce en mundos de caída"
    )
    explanation = (
        f"Se coloca un bien en cada mundo de producción que no tenga ya uno ({len(empty_p)}); {who} {bonus}: {rule}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.PRODUCIR, S.R_PRODUCIR, S.R_ACCIONES),
            "goods_produced",
            explanation,
        ),
        engine,
        rule,
    )


PRODUCE_DRAW_POWERS = (PowerName.PRODUCE_DRAW, PowerName.PRODUCE_DRAW_PER_KIND)


@case_generator("question", "producir-robo", (S.PRODUCIR, S.R_PRODUCIR, S.R_PODERES))
def produce_draws(rng: Rng) -> Case | None:
    """Cards that produce-draw powers give in a Producir phase, given the goods produced."""

    def wanted(d: CardDef) -> bool:
        return any(p.name in PRODUCE_DRAW_POWERS for p in d.powers)

    def accept(t: Table, seat: int) -> bool:
        cards = t.tableau_cards(seat)
        return any(wanted(d) for d in cards) and not any(_has(PowerName.PRODUCE_WINDFALL)(d) for d in cards)

    found = _producing(rng, ("producir",), accept, _favour("produce-draw", wanted))
    if found is None:
        return None
    table, focal, actions = found
    cards = table.tableau_cards(focal)
    empty_p, _, empty_w, _ = _production_worlds(table, focal)
    windfall = rng.choice(empty_w) if empty_w and rng.below(3) else None
    hand = table.hand_size(focal)

    def chooser(t: Table, seat: int, moves: Sequence[Move]) -> object | None:
        if seat == focal and moves and kind(moves[0]) in ("produce", "done"):
            for m in moves:
                if windfall is not None and kind(m) == "produce" and design(m[0]["world"]) is windfall:
                    return m[1]
            return next(m[1] for m in moves if kind(m) == "done")
        return None

    choose_all(table, actions)
    table.to_end_of_round(chooser)
    engine = table.hand_size(focal) - hand
    produced = [d.good or "" for d in empty_p] + ([windfall.good or ""] if windfall is not None else [])
    rule = rules.produce_draws(cards, produced)
    who = NAMES[focal]
    bonus = (
        f"Con su bonus, {who} produce además en {T.name(windfall)} ({windfall.kind_text()})."
        if windfall is not None
        else f"{who} no usa su bonus para producir en un mundo de caída."
    )
    made = T.join([f"{T.name(d)} ({T.good(d.good or '')})" for d in empty_p])
    if not empty_p:
        automatic = f"{who} no tiene mundos de producción sin bien."
    elif len(empty_p) == 1:
        automatic = f"El único mundo de producción sin bien de {who} es {made}."
    else:
        automatic = f"Los mundos de producción sin bien de {who} son {made}."
    ask_total = rng.below(2) == 0
    question = (
        f"{who} tiene {T.cards(hand)} en la mano al empezar la fase. ¿Cuántas tiene al terminarla?"
        if ask_total
        else f"¿Cuántas cartas roba {who} en la fase de Producir?"
    )
    prompt = (
        f"Esta ronda todos eligen Producir, y es la única fase que se ejecuta. {automatic} {bonus} "
        f"{T.power_cards(who, cards, 'poderes que roban en Producir', PRODUCE_DRAW_POWERS)} {question}"
    )
    if ask_total:
        engine, rule = engine + hand, rule + hand
    explanation = (
        "Cada mundo de producción sin bien recibe uno; los poderes de Producir de su tableau roban lo que dicen, "
        f"contando los bienes producidos en la fase: {T.cards(rules.produce_draws(cards, produced))}"
        + (f", y {hand} + {rules.produce_draws(cards, produced)} = {rule} en la mano." if ask_total else ".")
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.PRODUCIR, S.R_PRODUCIR, S.R_PODERES),
            "produce_draws",
            explanation,
        ),
        engine,
        rule,
    )


# --------------------------------------------------------------------------- the end of the round


def _until_hand_limit(t: Table, seat: int, moves: Sequence[Move]) -> bool:
    return bool(moves) and kind(moves[0]) == "discard" and t.step() == "hand_limit"


@case_generator("question", "limite-de-mano", (S.LIMITE_RESUMEN, S.LIMITE))
def hand_limit(rng: Rng) -> Case | None:
    """Cards discarded at the end of a round by one player, or by all together, given every hand."""
    seats = _seats(rng)
    for table in rounds(rng, seats, 2, 8, place_rate=30, extra=10):
        if _reach(table, _until_hand_limit):
            break
    else:
        return None
    sizes = [table.hand_size(s) for s in range(seats)]
    owed = [int(table.mine(s).get("discard_left", 0)) for s in range(seats)]
    over = [s for s in range(seats) if sizes[s] > HAND_MAX]
    ask_all = rng.below(3) == 0
    focal = rng.choice(over) if rng.below(4) else rng.below(seats)
    listing = "; ".join(f"{NAMES[s]}, {T.cards(n)}" for s, n in enumerate(sizes))
    question = (
        "¿Cuántas cartas van en total al montón de descartes por el límite de mano?"
        if ask_all
        else f"¿Cuántas cartas descarta {NAMES[focal]} antes de recuperar su carta de acción?"
    )
    prompt = (
        f"Se han completado todas las fases elegidas de la ronda. Los jugadores tienen en la mano: {listing}. "
        f"{question}"
    )
    rule = sum(rules.hand_discard(n) for n in sizes) if ask_all else rules.hand_discard(sizes[focal])
    engine = sum(owed) if ask_all else owed[focal]
    explanation = (
        f"Al final de cada ronda, cada jugador reduce su mano a un máximo de {HAND_MAX} cartas y descarta el exceso "
        f"boca abajo: {rule}."
    )
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.LIMITE_RESUMEN, S.LIMITE),
            "hand_discard",
            explanation,
        ),
        engine,
        rule,
    )


def _next_round(table: Table) -> None:
    """Play the current round to its end: up to the next secret choice (or the end of the game)."""
    start = table.round()

    def reached(t: Table, seat: int, moves: Sequence[Move]) -> bool:
        return at_choice(t, seat, moves) and t.round() > start

    try:
        table.advance(reached)
    except Exception:
        if not table.over():
            raise


@case_generator("question", "fin-de-partida", (S.FIN_RESUMEN, S.FIN))
def game_end(rng: Rng) -> Case | None:
    """Whether the game ends at the end of a round, given the tableau sizes and the victory chips."""
    seats = _seats(rng)
    threshold = 8 + rng.below(3)
    for table in rounds(
        rng,
        seats,
        6,
        14,
        place_rate=100,
        action_pool=GROWTH,
        extra=12,
        where=lambda m: max(m.tableau_sizes) >= threshold,
        deals=LONG_GAMES,
    ):
        _next_round(table)
        break
    else:
        return None
    sizes = [table.tableau_size(s) for s in range(seats)]
    chips_out = table.tens_added()
    engine = table.over()
    rule = rules.game_ends(sizes, chips_out)
    listing = "; ".join(f"{NAMES[s]}, {T.cards(n)}" for s, n in enumerate(sizes))
    pool = (
        "Ya se ha repartido la última ficha de victoria de 1 y 5."
        if chips_out
        else f"En la reserva quedan fichas de victoria por {table.chip_pool()} PV."
    )
    prompt = (
        f"Se han completado todas las fases de la ronda. Los tableaus tienen: {listing}. {pool} ¿Termina la partida?"
    )
    yes = "Sí, termina con esta ronda y se cuentan los puntos"
    no = "No, se juega otra ronda"
    correct, other = (yes, no) if engine else (no, yes)
    options, letter = choice(
        rng,
        correct,
        [
            other,
            "No, sigue hasta que todos los jugadores tengan 12 cartas en su tableau",
            "Sí, pero antes se juega una ronda más con las fichas de 10",
        ],
    )
    explanation = (
        "El juego termina al final de la ronda en la que un jugador tiene 12 o más cartas en su tableau o se "
        "reparte la última ficha de victoria; después se procede al recuento final de puntos."
    )
    return Case(
        item("question", "choice", prompt, letter, (S.FIN_RESUMEN, S.FIN), "game_ends", explanation, options=options),
        engine,
        rule,
    )


def _tableau_points(cards: Sequence[CardDef]) -> str:
    return T.join([f"{T.name(d)} ({d.vp} PV)" for d in cards])


@case_generator("question", "puntuacion", (S.PUNTUACION, S.FIN_RESUMEN))
def score(rng: Rng) -> Case | None:
    """A player's victory points if the game ended now: the tableau's cards and the chips (no cost-6 development)."""
    seats = _seats(rng)
    table = round_start(rng, seats, 2, 8)
    plain = [s for s in range(seats) if not any(d.special for d in table.tableau_cards(s))]
    if not plain:
        return None
    focal = rng.choice(plain)
    cards = table.tableau_cards(focal)
    chips = table.chips(focal)
    engine = table.score(focal)
    rule = rules.final_score(cards, chips, table.goods(focal))
    who = NAMES[focal]
    prompt = (
        f"Si la partida terminara ahora: el tableau de {who} tiene {_tableau_points(cards)}; ninguna es un desarrollo "
        f"de costo 6, y {who} tiene fichas de victoria por {chips} PV. ¿Cuántos puntos de victoria sumaría {who}?"
    )
    explanation = (
        "Los puntos provienen de las cartas del tableau, las fichas de victoria acumuladas y los puntos especiales "
        f"de los desarrollos de costo 6 (aquí ninguno): {sum(d.vp for d in cards)} + {chips} = {rule}."
    )
    return Case(
        item("question", "integer", prompt, str(engine), (S.PUNTUACION, S.FIN_RESUMEN), "final_score", explanation),
        engine,
        rule,
    )


def _special_facts(cards: Sequence[CardDef], goods: int) -> str:
    """Describe a tableau for special points: each card's kind (and the goods when a formula counts them)."""
    bits = [f"{T.name(d)} ({d.kind_text()})" for d in cards]
    counts_goods = any(t.per == "good" for d in cards for t in d.special)
    tail = f"; sus mundos tienen {T.goods(goods)}" if counts_goods else ""
    return T.join(bits) + tail


@case_generator("question", "puntos-especiales", (S.PUNTUACION, S.CARTAS))
def special_points(rng: Rng) -> Case | None:
    """The special points a player's cost-6 development scores at the end, given the tableau."""

    def holds(t: Table, seat: int) -> bool:
        return sum(1 for d in t.tableau_cards(seat) if d.special) == 1

    steer = _favour("special", lambda d: bool(d.special))
    for table, focal in candidates(rng, 2, 7, holds, extra=10, chooser=steer):
        if _own_round(table) and holds(table, focal):
            break
    else:
        return None
    cards = table.tableau_cards(focal)
    goods = table.goods(focal)
    engine = table.score(focal) - table.chips(focal) - sum(d.vp for d in cards)
    rule = rules.special_points(cards, goods)
    dev = next(d for d in cards if d.special)
    who = NAMES[focal]
    formula = "; ".join(t.text() for t in dev.special)
    prompt = (
        f"Al final de la partida, el tableau de {who} tiene {_special_facts(cards, goods)}. Los puntos especiales de "
        f"{T.name(dev)} son: {formula}. ¿Cuántos puntos especiales da {T.name(dev)}?"
    )
    explanation = (
        "Los desarrollos de costo 6 dan puntos especiales cuyo valor varía según la carta; contando lo que pide "
        f"{T.name(dev)} en el tableau de {who}: {rule}."
    )
    return Case(
        item("question", "integer", prompt, str(engine), (S.PUNTUACION, S.CARTAS), "special_points", explanation),
        engine,
        rule,
    )


def _consumer(t: Table, seat: int, moves: Sequence[Move]) -> object | None:
    """Steer a game towards spending its chips: place cards with consume powers, and always use a power."""
    if not moves:
        return None
    first = kind(moves[0])
    if first == "place":
        for m in moves:
            if m[0].get("card") and any(p.name is PowerName.CONSUME_GOODS for p in design(m[0]["card"]).powers):
                return m[1]
    elif first in ("use", "done"):
        return next((m[1] for m in moves if kind(m) == "use"), None)
    return None


CONSUMING_ROUNDS: tuple[str, ...] = ("2x-pv", "producir", "2x-pv", "asentar", "producir", "desarrollar")


@case_generator("question", "fichas-de-10", (S.FICHAS_10, S.R_FICHAS, S.FIN))
def tens_join(rng: Rng) -> Case | None:
    """Points left in the pool after a Consumir phase that may take its last chip (then the four 10s join)."""
    seats = 2  # 24 points of chips: the only pool that real games empty within a few dozen rounds

    def low_pool(summary: Summary) -> bool:
        return not summary.tens_added and summary.chip_pool <= 9

    for table in rounds(
        rng, seats, 12, 26, chooser=_consumer, action_pool=CONSUMING_ROUNDS, extra=24, where=low_pool, deals=32
    ):
        pool = table.chip_pool()
        actions = {s: rng.choice(("2x-pv", "comercio", "2x-pv", "producir", "asentar")) for s in range(seats)}
        if not {"2x-pv", "comercio"} & set(actions.values()):
            actions[rng.below(seats)] = "2x-pv"
        before = [table.chips(s) for s in range(seats)]
        choose_all(table, actions)
        table.to_end_of_round(_consumer)
        gained = [table.chips(s) - before[s] for s in range(seats)]
        if sum(gained):
            break
    else:
        return None
    engine = table.chip_pool()
    rule, joined = rules.pool_after_award(pool, sum(gained), tens_added=False)
    listing = T.join([f"{NAMES[s]} {g} PV" for s, g in enumerate(gained)])
    prompt = (
        f"En una partida de 2 jugadores, la reserva tiene fichas de victoria de 1 y 5 por {pool} PV, y las fichas de "
        f"10 siguen guardadas. Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de "
        f"Consumir ganan: {listing}. ¿Cuántos puntos de victoria quedan en la reserva al terminar la ronda?"
    )
    if joined:
        why = (
            "se reparte la última ficha: se añaden las cuatro fichas de 10 (40 PV) y se hace cambio para pagar todo "
            f"lo ganado, así que quedan 40 - ({sum(gained)} - {pool}) = {rule}; la partida termina al final de la ronda"
        )
    else:
        why = f"no se agotan las fichas de 1 y 5: {pool} - {sum(gained)} = {rule}"
    return Case(
        item(
            "question",
            "integer",
            prompt,
            str(engine),
            (S.FICHAS_10, S.R_FICHAS, S.FIN),
            "pool_after_award",
            f"Entre los dos ganan {sum(gained)} PV; {why}.",
        ),
        engine,
        rule,
    )


@case_generator("question", "fichas-en-reserva", (S.PASO_1, S.R_FICHAS))
def chips_left(rng: Rng) -> Case | None:
    """Points left in 1 and 5 victory chips, given the players, the chips they held and those won this round."""
    seats = _seats(rng)
    for table in rounds(rng, seats, 2, 8, extra=8):
        before = [table.chips(s) for s in range(seats)]
        actions = {s: rng.choice(ACTION_CODES) for s in range(seats)}
        actions[rng.below(seats)] = rng.choice(("2x-pv", "comercio"))
        choose_all(table, actions)
        table.to_end_of_round()
        chips = [table.chips(s) for s in range(seats)]
        if chips != before and not table.tens_added():
            break
    else:
        return None
    engine = table.chip_pool()
    rule = rules.chips_in_pool(seats, chips)
    held = "; ".join(f"{NAMES[s]}, {c} PV" for s, c in enumerate(before))
    won = T.join([f"{NAMES[s]} {chips[s] - before[s]} PV" for s in range(seats)])
    prompt = (
        f"En una partida de {seats} jugadores, al empezar la ronda las fichas de victoria de cada uno suman: {held}. "
        f"Esta ronda se revelan estas cartas de acción: {T.revealed(actions)}, y en la fase de Consumir ganan: {won}. "
        "¿Cuántos puntos de victoria quedan en fichas de 1 y 5 en la reserva al terminar la ronda?"
    )
    explanation = (
        f"Al preparar se colocan 12 fichas de victoria por jugador en valores de 1 y 5 (este servidor lo cuenta "
        f"como {CHIPS_PER_SEAT} PV por jugador); se han repartido {sum(chips)}: "
        f"{CHIPS_PER_SEAT * seats} - {sum(chips)} = {rule}."
    )
    return Case(
        item("question", "integer", prompt, str(engine), (S.PASO_1, S.R_FICHAS), "chips_in_pool", explanation),
        engine,
        rule,
    )


@case_generator("question", "ganador", (S.PUNTUACION, S.R_EMPATES, S.FIN_RESUMEN))
def winner(rng: Rng) -> Case | None:
    """Who wins, given each player's final tableau points, chips and special points (ties share the victory)."""
    seats = _seats(rng)
    want_tie = rng.below(3) > 0  # ties are rare in play; keep them common among the items
    for table in rounds(rng, seats, 1, 6, extra=10):
        if not _own_round(table):
            continue
        engine_scores = [table.score(s) for s in range(seats)]
        if not want_tie or len(rules.winners(engine_scores)) > 1:
            break
    else:
        return None
    parts = []
    for s in range(seats):
        cards = table.tableau_cards(s)
        parts.append((sum(d.vp for d in cards), table.chips(s), rules.special_points(cards, table.goods(s))))
    rule_scores = [sum(p) for p in parts]
    engine_win = rules.winners(engine_scores)
    rule_win = rules.winners(rule_scores)
    lines = "; ".join(
        f"{NAMES[s]}: {a} PV de cartas, {b} PV en fichas y {c} PV especiales" for s, (a, b, c) in enumerate(parts)
    )

    def says(win: tuple[int, ...]) -> str:
        if len(win) == 1:
            return f"Gana {NAMES[win[0]]}"
        return f"{T.join([NAMES[s] for s in win])} comparten la victoria"

    correct = says(engine_win)
    wrong = [says((s,)) for s in range(seats) if (s,) != engine_win]
    wrong += [
        f"{T.join([NAMES[a], NAMES[b]])} desempatan con otra ronda" for a in range(seats) for b in range(a + 1, seats)
    ]
    wrong += ["Gana quien colocó la duodécima carta"]
    picked: list[str] = []
    for w in wrong:
        if w != correct and w not in picked:
            picked.append(w)
    rng.shuffle(picked)
    options, letter = choice(rng, correct, picked[:3])
    prompt = f"La partida ha terminado. Los puntos de cada jugador son: {lines}. ¿Quién gana?"
    explanation = (
        "Gana el jugador con más puntos de victoria al final de la partida, sumando cartas, fichas y puntos "
        "especiales; el reglamento no da desempate, así que los empatados comparten la victoria "
        "(se-vende/rulings/empates)."
    )
    return Case(
        item(
            "question",
            "choice",
            prompt,
            letter,
            (S.PUNTUACION, S.R_EMPATES, S.FIN_RESUMEN),
            "winners",
            explanation,
            options=options,
        ),
        engine_win,
        rule_win,
    )
