"""Se Vende's entry riddles: parametric puzzles drawn from real games, each needing two rules at once.

Like the questions (:mod:`.questions`), each riddle plays a real game to the situation it sets,
plays the moves it asks about and reads the answer from the engine; it cites the two sections
whose rules the answer needs together (and the rulings it leans on where the rulebook is silent).
"""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.engine.core import Rng
from club_agentes.engine.se_vende.cards import CardDef, PowerName
from club_agentes.quizzes.generators.se_vende import rules
from club_agentes.quizzes.generators.se_vende import sections as S
from club_agentes.quizzes.generators.se_vende import text as T
from club_agentes.quizzes.generators.se_vende.cases import Case, case_generator, item
from club_agentes.quizzes.generators.se_vende.questions import (
    EXPLORE_CARDS,
    GROWTH,
    LONG_GAMES,
    NAMES,
    TRADE_TEXT,
    _end_of_round,
    _finish_placing,
    _finish_power,
    _goods_listing,
    _has,
    _owed,
    _place,
    _placeable,
    _production_worlds,
    _reach,
    _seats,
    _until_place,
    _until_sell,
    _until_use,
    _use,
    candidates,
)
from club_agentes.quizzes.generators.se_vende.table import (
    Move,
    Summary,
    Table,
    at_choice,
    choose_all,
    design,
    kind,
    rounds,
)

NOT_PLACING_OR_PRODUCING: tuple[str, ...] = ("explorar-5", "explorar-1-1", "comercio", "2x-pv")


# --------------------------------------------------------------------------- the last round


@case_generator("riddle", "ronda-final", (S.FIN, S.FASES, S.FIN_RESUMEN))
def last_round(rng: Rng) -> Case | None:
    """Phases still to run after a player places their twelfth tableau card (the game ends with the round)."""
    seats = _seats(rng)
    pool = ("desarrollar", "asentar", "desarrollar", "asentar", *rules.ACTION_CODES)

    def near_the_end(summary: Summary) -> bool:
        return 10 <= max(summary.tableau_sizes) < 12

    for table in rounds(
        rng, seats, 6, 14, place_rate=100, action_pool=GROWTH, extra=16, where=near_the_end, deals=LONG_GAMES
    ):
        actions = {s: rng.choice(pool) for s in range(seats)}
        run = choose_all(table, actions)
        found = _watch_for_twelve(table)
        if found is not None:
            break
    else:
        return None
    seat, phase = found
    left = len(run) - 1 - run.index(phase)
    _to_next_choice(table)
    if not table.over():
        return None
    rule = rules.phases_after_count(actions.values(), phase)
    prompt = (
        f"Acertijo: esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de {phase}, "
        f"{NAMES[seat]} coloca la duodécima carta de su tableau. ¿Cuántas fases más se ejecutan antes del recuento "
        "final de puntos?"
    )
    after = rules.phases_after(actions.values(), phase)
    explanation = (
        "El juego termina al final de la ronda en la que un jugador tiene 12 o más cartas en su tableau, no en el "
        "acto; y solo se ejecutan las fases elegidas, en orden I a V: "
        + (f"aún quedan {T.join(list(after))}." if after else "no queda ninguna fase elegida por ejecutar.")
    )
    return Case(
        item(
            "riddle",
            "integer",
            prompt,
            str(left),
            (S.FIN, S.FASES, S.FIN_RESUMEN),
            "phases_after_count",
            explanation,
        ),
        left,
        rule,
    )


def _watch_for_twelve(table: Table) -> tuple[int, str] | None:
    """Play the round until a placement gives some seat a twelfth tableau card; return (seat, phase)."""
    phase = ""
    while True:
        waiting = table.waiting()
        if not waiting:
            return None
        seat = waiting[0]
        moves = table.moves(seat)
        if moves and kind(moves[0]) == "action":
            return None
        placing = bool(moves) and kind(moves[0]) == "place"
        if placing and not table.chosen_so_far():
            phase = "Desarrollar" if table.step() == "develop_place" else "Asentar"
        table.play(seat, table.auto(seat, moves))
        if placing and not table.chosen_so_far():  # every seat has chosen: the placements are revealed
            grown = [s for s in range(table.seats) if table.tableau_size(s) >= 12]
            if grown:
                return grown[0], phase


def _to_next_choice(table: Table) -> None:
    """Play on to the next secret choice of action cards, or to the end of the game."""
    while True:
        waiting = table.waiting()
        if not waiting:
            return
        moves = table.moves(waiting[0])
        if moves and kind(moves[0]) == "action":
            return
        table.play(waiting[0], table.auto(waiting[0], moves))


# --------------------------------------------------------------------------- a card's powers start in the next phase

SETTLE_POWERS = (PowerName.SETTLE_DISCOUNT, PowerName.SETTLE_MILITARY, PowerName.SETTLE_DRAW)


def _besides(sentence: str) -> str:
    """Turn "Ninguna carta del tableau..." into "Aparte de esa carta, ninguna carta del tableau..."."""
    return "Aparte de esa carta, " + sentence[0].lower() + sentence[1:]


def _settle_power(card: CardDef) -> bool:
    return card.is_development and any(p.name in SETTLE_POWERS for p in card.powers)


@case_generator("riddle", "desarrollo-y-asentar", (S.NUEVOS, S.R_ASENTAR, S.MILITARES, S.R_PAGAR, S.R_DESARROLLAR))
def develop_then_settle(rng: Rng) -> Case | None:
    """A development placed in Desarrollar already helps in Asentar of the same round (the next phase)."""
    for table, focal in candidates(rng, 1, 6, lambda t, s: any(_settle_power(design(c)) for c in t.hand(s))):
        seats = table.seats
        actions = {s: rng.choice(("explorar-5", "explorar-1-1", "desarrollar", "asentar")) for s in range(seats)}
        actions[focal] = rng.choice(("desarrollar", "asentar"))
        other = (focal + 1 + rng.below(seats - 1)) % seats
        actions[other] = "asentar" if actions[focal] == "desarrollar" else "desarrollar"
        choose_all(table, actions)
        if not _reach(table, _until_place(focal, "develop")):
            continue
        devs = [d for d in _placeable(table, focal) if _settle_power(d)]
        if not devs:
            continue
        dev = rng.choice(devs)
        _place(table, focal, dev)
        _finish_placing(table, "develop")
        if _reach(table, _until_place(focal, "settle")):
            break
    else:
        return None
    before = table.tableau_cards(focal)
    others = [d for d in before if d is not dev]
    worlds = [d for d in _placeable(table, focal) if d.is_world]
    power = rng.choice([p for p in dev.powers if p.name in SETTLE_POWERS]).name
    who = NAMES[focal]
    intro = (
        f"Acertijo: esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Desarrollar, "
        f"{who} coloca {T.card(dev)}. "
    )
    if power is PowerName.SETTLE_MILITARY:
        engine = table.military(focal)
        rule = rules.military(before)
        prompt = (
            intro
            + _besides(T.power_cards(who, others, "poderes de Militar", [power]))
            + " "
            + f"¿Cuál es el Militar de {who} en la fase de Asentar de esta misma ronda?"
        )
        explanation = (
            f"Los poderes de una carta se aplican desde la fase siguiente a la que la colocaste: {T.name(dev)}, "
            f"colocada en Desarrollar, ya cuenta en Asentar, y el Militar suma todos los poderes de Militar: {rule}."
        )
        computed = "military"
    elif power is PowerName.SETTLE_DISCOUNT:
        paying = [d for d in worlds if not d.military and d.cost > 0]
        if not paying:
            return None
        world = rng.choice(paying)
        _place(table, focal, world)
        _finish_placing(table, "settle")
        engine = _owed(table, focal, "settle_pay")
        rule = rules.settle_payment(world, before)
        prompt = (
            intro
            + _besides(T.power_cards(who, others, "poderes que abaratan los mundos", [power]))
            + " "
            + f"En la fase de Asentar de esta misma ronda coloca {T.card(world)}. ¿Cuántas cartas de la mano descarta "
            "para pagarlo?"
        )
        explanation = (
            f"Los poderes de {T.name(dev)}, colocada en Desarrollar, ya se aplican en Asentar (la fase siguiente), "
            f"así que abarata el mundo como los demás poderes: paga {rule}."
        )
        computed = "settle_payment"
    else:
        if not worlds:
            return None
        world = rng.choice(worlds)
        hand = table.hand_size(focal)
        _place(table, focal, world)
        _finish_placing(table, "settle")
        paid = _owed(table, focal, "settle_pay")
        table.to_end_of_round()
        engine = table.hand_size(focal) - (hand - 1 - paid)
        rule = rules.settle_draws(actions[focal] == "asentar", before)
        prompt = (
            intro
            + _besides(T.power_cards(who, others, "poderes que roban al colocar un mundo", [power]))
            + " "
            + f"En la fase de Asentar de esta misma ronda coloca {T.card(world)}. ¿Cuántas cartas roba después de "
            "colocarlo?"
        )
        explanation = (
            f"{T.name(dev)}, colocada en Desarrollar, ya aplica su poder en Asentar (la fase siguiente); el bonus de "
            f"Asentar es solo para quien lo eligió: roba {rule}."
        )
        computed = "settle_draws"
    return Case(
        item(
            "riddle",
            "integer",
            prompt,
            str(engine),
            (S.NUEVOS, S.R_ASENTAR, S.MILITARES, S.R_PAGAR, S.R_DESARROLLAR),
            computed,
            explanation,
        ),
        engine,
        rule,
    )


@case_generator("riddle", "desarrollo-y-robo", (S.NUEVOS, S.R_DESARROLLAR, S.VARIOS, S.R_PAGAR))
def develop_and_draw(rng: Rng) -> Case | None:
    """A player's hand after Desarrollar: the card placed, its cost paid, and the develop-draw powers that count."""
    wanted = _has(PowerName.DEVELOP_DRAW)
    for table, focal in candidates(rng, 1, 7, lambda t, s: True):
        seats = table.seats
        actions = {s: rng.choice(("explorar-5", "explorar-1-1", "desarrollar")) for s in range(seats)}
        if "desarrollar" not in actions.values():
            actions[focal] = "desarrollar"
        choose_all(table, actions)
        if _reach(table, _until_place(focal, "develop")):
            devs = _placeable(table, focal)
            if devs:
                break
    else:
        return None
    drawing = [d for d in devs if wanted(d)]
    dev = rng.choice(drawing) if drawing and rng.below(2) else rng.choice(devs)
    cards = table.tableau_cards(focal)
    hand = table.hand_size(focal)
    _place(table, focal, dev)
    _finish_placing(table, "develop")
    _end_of_round(table)
    engine = table.hand_size(focal)
    chose = actions[focal] == "desarrollar"
    pay = rules.develop_payment(dev.cost, chose, cards)
    draws = rules.develop_draws(cards)
    rule = hand - 1 - pay + draws
    who = NAMES[focal]
    prompt = (
        f"Acertijo: esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. Al empezar la fase de "
        f"Desarrollar, {who} tiene {T.cards(hand)} en la mano, y coloca {T.card(dev)}. "
        f"{T.power_cards(who, cards, 'poderes de Desarrollar', [PowerName.DEVELOP_DISCOUNT, PowerName.DEVELOP_DRAW])} "
        f"¿Cuántas cartas tiene {who} en la mano al terminar la fase?"
    )
    explanation = (
        f"Sale de la mano la carta colocada (1) y paga {pay} (el costo, menos 1 si eligió Desarrollar y menos sus "
        f"poderes que abaratan); después roba {draws} por los poderes de su tableau, no por los del desarrollo recién "
        f"colocado, que solo se aplican desde la fase siguiente: {hand} - 1 - {pay} + {draws} = {rule}."
    )
    return Case(
        item(
            "riddle",
            "integer",
            prompt,
            str(engine),
            (S.NUEVOS, S.R_DESARROLLAR, S.VARIOS, S.R_PAGAR),
            "develop_payment",
            explanation,
        ),
        engine,
        rule,
    )


# --------------------------------------------------------------------------- goods: windfall, trade, points


@case_generator("riddle", "caida-y-comercio", (S.CAIDA, S.COMERCIO, S.NUEVOS, S.R_ASENTAR))
def windfall_then_trade(rng: Rng) -> Case | None:
    """Cards drawn for selling, in Consumir, the windfall good of a world placed in Asentar of the same round."""
    for table, focal in candidates(rng, 1, 6, lambda t, s: any(design(c).world == "windfall" for c in t.hand(s))):
        seats = table.seats
        pool = ("explorar-5", "explorar-1-1", "desarrollar", "asentar", "2x-pv")
        actions = {s: rng.choice(pool) for s in range(seats)}
        actions[focal] = "comercio"
        actions[(focal + 1 + rng.below(seats - 1)) % seats] = "asentar"
        choose_all(table, actions)
        if not _reach(table, _until_place(focal, "settle")):
            continue
        worlds = [d for d in _placeable(table, focal) if d.world == "windfall"]
        if not worlds:
            continue
        world = rng.choice(worlds)
        cards = table.tableau_cards(focal)
        _place(table, focal, world)
        _finish_placing(table, "settle")
        if not _reach(table, _until_sell(focal)):
            continue
        sells = [m for m in table.moves(focal) if kind(m) == "sell" and design(m[0]["world"]) is world]
        if sells:
            break
    else:
        return None
    hand = table.hand_size(focal)
    table.play(focal, sells[0][1])
    engine = table.hand_size(focal) - hand
    rule = rules.trade_draw(world.good or "", [*cards, world])
    who = NAMES[focal]
    prompt = (
        f"Acertijo: esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Asentar, {who} "
        f"coloca {T.card(world)}. {T.power_cards(who, cards, TRADE_TEXT, [PowerName.TRADE_BONUS])} En la fase de "
        f"Consumir, {who} vende el bien que hay sobre {T.name(world)}. ¿Cuántas cartas roba por esa venta?"
    )
    explanation = (
        f"Al colocar un mundo de caída recibe su bien de caída, de {T.good(world.good or '')} (el color del halo); "
        f"venderlo con Comercio da {rules.trade_draw(world.good or '')} cartas, más los poderes que dan cartas al "
        f"vender, incluidos los del mundo nuevo, que ya cuentan en la fase siguiente a la de colocarlo: {rule}."
    )
    return Case(
        item(
            "riddle",
            "integer",
            prompt,
            str(engine),
            (S.CAIDA, S.COMERCIO, S.NUEVOS, S.R_ASENTAR),
            "trade_draw",
            explanation,
        ),
        engine,
        rule,
    )


@case_generator("riddle", "consumir-con-2x", (S.DOBLE, S.HASTA_N, S.R_CONSUMIR))
def double_points(rng: Rng) -> Case | None:
    """Points from a "hasta N bienes" power invoked by the 2x PV chooser: every good it can take, points doubled."""
    wanted = _has(PowerName.CONSUME_GOODS)

    def holds(t: Table, seat: int) -> bool:
        return t.goods(seat) > 0 and any(wanted(d) for d in t.tableau_cards(seat))

    for table, focal in candidates(rng, 1, 7, holds):
        seats = table.seats
        pool = ("explorar-5", "explorar-1-1", "desarrollar", "asentar", "comercio")
        actions = {s: rng.choice(pool) for s in range(seats)}
        actions[focal] = "2x-pv"
        choose_all(table, actions)
        if _reach(table, _until_use(focal, PowerName.CONSUME_GOODS)):
            break
    else:
        return None
    goods = table.good_kinds(focal)
    listing = _goods_listing(table, focal)
    chips = table.chips(focal)
    card, index = _use(table, focal, PowerName.CONSUME_GOODS, rng)
    _finish_power(table, focal, rng)
    engine = table.chips(focal) - chips
    power = card.powers[index]
    taken, rule, _ = rules.consume_goods(card, index, goods, double=True)
    who = NAMES[focal]
    prompt = (
        f"Acertijo: esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. En la fase de Consumir, "
        f"{who} tiene bienes sobre {listing}, e invoca el poder de {T.name(card)} que dice «{power.text()}» "
        f"¿Cuántos puntos de victoria gana {who} con ese poder?"
    )
    explanation = (
        f"Invocado, el poder debe tomar todos los bienes que acepta hasta su límite ({taken}), lo que da "
        f"{taken * power.vp} PV; {who} eligió 2x PV, que duplica los puntos de descartar bienes con poderes: {rule}."
    )
    return Case(
        item(
            "riddle", "integer", prompt, str(engine), (S.DOBLE, S.HASTA_N, S.R_CONSUMIR), "consume_goods", explanation
        ),
        engine,
        rule,
    )


@case_generator("riddle", "comercio-y-limite", (S.COMERCIO, S.LIMITE, S.R_CONSUMIR))
def trade_then_hand_limit(rng: Rng) -> Case | None:
    """Cards discarded at the end of a round in which a player's only change of hand after Explorar was one sale."""

    def holds(t: Table, seat: int) -> bool:
        return t.goods(seat) > 0 and t.hand_size(seat) >= 5

    for table, focal in candidates(rng, 2, 8, holds, place_rate=25):
        seats = table.seats
        actions = {s: rng.choice(("explorar-5", "explorar-1-1", "comercio", "2x-pv")) for s in range(seats)}
        actions[focal] = "comercio"
        choose_all(table, actions)
        if _reach(table, _until_sell(focal)):
            break
    else:
        return None
    hand = table.hand_size(focal)
    cards = table.tableau_cards(focal)
    sells = [m for m in table.moves(focal) if kind(m) == "sell"]
    move = rng.choice(sells)
    world = design(move[0]["world"])
    table.play(focal, move[1])

    def finish(t: Table, seat: int, moves: Sequence[Move]) -> object | None:
        if seat == focal and moves and kind(moves[0]) in ("use", "done"):
            return next(m[1] for m in moves if kind(m) == "done")
        return None

    stop = table.to_end_of_round(finish)
    engine = int(table.mine(focal).get("discard_left", 0)) if stop == "hand_limit" else 0
    rule = rules.hand_discard(hand + rules.trade_draw(world.good or "", cards))
    who = NAMES[focal]
    prompt = (
        f"Acertijo: esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. Al empezar la fase de "
        f"Consumir, {who} tiene {T.cards(hand)} en la mano; vende el bien que hay sobre {T.name(world)} "
        f"({world.kind_text()}) y no usa ningún poder de consumir. "
        f"{T.power_cards(who, cards, TRADE_TEXT, [PowerName.TRADE_BONUS])} ¿Cuántas cartas descarta {who} al final de "
        "la ronda?"
    )
    drawn = rules.trade_draw(world.good or "", cards)
    explanation = (
        f"La venta le da {drawn} cartas ({hand} + {drawn} = {hand + drawn}) y no se ejecuta Producir; al final de la "
        f"ronda reduce su mano a un máximo de diez cartas: descarta {rule}."
    )
    return Case(
        item(
            "riddle", "integer", prompt, str(engine), (S.COMERCIO, S.LIMITE, S.R_CONSUMIR), "hand_discard", explanation
        ),
        engine,
        rule,
    )


@case_generator("riddle", "produccion-tardia", (S.FASES, S.COMERCIO, S.PRODUCIR, S.R_PRODUCIR))
def produce_after_trade(rng: Rng) -> Case | None:
    """Goods on a player's worlds at the end of a round in which they sold one good and Producir ran after Consumir."""

    def holds(t: Table, seat: int) -> bool:
        cards = t.tableau_cards(seat)
        return (
            t.goods(seat) > 0
            and t.supply_size() >= 25
            and any(d.world == "production" for d in cards)
            and not any(_has(PowerName.PRODUCE_WINDFALL)(d) for d in cards)
        )

    for table, focal in candidates(rng, 1, 6, holds):
        seats = table.seats
        actions = {s: rng.choice(("explorar-5", "explorar-1-1", "2x-pv", "producir", "comercio")) for s in range(seats)}
        actions[focal] = "comercio"
        if "producir" not in actions.values():
            actions[(focal + 1 + rng.below(seats - 1)) % seats] = "producir"
        choose_all(table, actions)
        if _reach(table, _until_sell(focal)):
            break
    else:
        return None
    empty_p, full_p, empty_w, full_w = _production_worlds(table, focal)
    sells = [m for m in table.moves(focal) if kind(m) == "sell"]
    move = rng.choice(sells)
    world = design(move[0]["world"])
    before = table.goods(focal)
    table.play(focal, move[1])

    def finish(t: Table, seat: int, moves: Sequence[Move]) -> object | None:
        if seat == focal and moves and kind(moves[0]) in ("use", "done"):
            return next(m[1] for m in moves if kind(m) == "done")
        return None

    table.to_end_of_round(finish)
    engine = table.goods(focal)
    refill = len(empty_p) + (1 if world.world == "production" else 0)
    rule = before - 1 + refill
    who = NAMES[focal]
    prompt = (
        f"Acertijo: esta ronda se revelan estas cartas de acción: {T.revealed(actions)}. Al empezar la fase de "
        f"Consumir, {_worlds_line(who, empty_p, full_p, empty_w, full_w)} En Consumir, {who} vende el bien que hay "
        f"sobre {T.name(world)} y no usa ningún poder de consumir. ¿Cuántos bienes hay en los mundos de {who} al "
        "terminar la ronda?"
    )
    explanation = (
        f"Consumir (IV) se ejecuta antes que Producir (V): {who} vende un bien y queda con {before - 1}; luego cada "
        f"mundo de producción sin bien recibe uno ({refill}, contando el que se vació al vender si era de producción), "
        f"y {who} no eligió Producir, así que no produce en mundos de caída: {rule}."
    )
    return Case(
        item(
            "riddle",
            "integer",
            prompt,
            str(engine),
            (S.FASES, S.COMERCIO, S.PRODUCIR, S.R_PRODUCIR),
            "goods_produced",
            explanation,
        ),
        engine,
        rule,
    )


def _worlds_line(
    who: str, empty_p: list[CardDef], full_p: list[CardDef], empty_w: list[CardDef], full_w: list[CardDef]
) -> str:
    """Describe every goods world of a player, with or without its good."""
    bits = [f"{T.name(d)} (producción, sin bien)" for d in empty_p]
    bits += [f"{T.name(d)} (producción, con un bien)" for d in full_p]
    bits += [f"{T.name(d)} (caída, sin bien)" for d in empty_w]
    bits += [f"{T.name(d)} (caída, con un bien)" for d in full_w]
    if len(bits) == 1:
        return f"el único mundo de {who} con bienes o que los produce es {bits[0]}."
    return f"los mundos de {who} con bienes o que los producen son {T.join(bits)}."


# --------------------------------------------------------------------------- setup and the first round


@case_generator("riddle", "primera-ronda", (S.PASO_4, S.PASO_5, S.R_EXPLORAR, S.R_ACCIONES))
def first_round(rng: Rng) -> Case | None:
    """A player's hand after Explorar in the first round: the hand setup leaves, plus the cards kept."""
    seats = _seats(rng)
    table = Table.deal(seats, rng)
    table.advance(at_choice)
    focal = rng.below(seats)
    actions = {s: rng.choice(rules.ACTION_CODES) for s in range(seats)}
    actions[focal] = rng.choice((*EXPLORE_CARDS, *EXPLORE_CARDS, *rules.ACTION_CODES))
    if not any(a in EXPLORE_CARDS for a in actions.values()):
        actions[(focal + 1 + rng.below(seats - 1)) % seats] = rng.choice(EXPLORE_CARDS)
    start = table.tableau_cards(focal)
    choose_all(table, actions)
    table.finish_moves("keep")
    engine = table.hand_size(focal)
    rule = rules.start_hand_size() + rules.explore_counts(actions[focal], start)[1]
    who = NAMES[focal]
    prompt = (
        f"Acertijo: terminada la preparación, en la primera ronda se revelan estas cartas de acción: "
        f"{T.revealed(actions)}. El mundo inicial de {who} es {T.card(start[0])}. ¿Cuántas cartas tiene {who} en la "
        "mano al terminar la fase de Explorar?"
    )
    draw, keep = rules.explore_counts(actions[focal], start)
    explanation = (
        f"Tras la preparación cada jugador tiene {rules.start_hand_size()} cartas (recibe seis y descarta dos); en "
        f"Explorar {who} roba {draw} y se queda con {keep}: {rules.start_hand_size()} + {keep} = {rule}."
    )
    return Case(
        item(
            "riddle",
            "integer",
            prompt,
            str(engine),
            (S.PASO_4, S.PASO_5, S.R_EXPLORAR, S.R_ACCIONES),
            "explore_counts",
            explanation,
        ),
        engine,
        rule,
    )
