"""Entry riddles of Yo soy el jefe: parametric puzzles that each need two rules at once (both cited).

Same shape as the questions (:mod:`.q_turn`): a situation maker kept in
:data:`.common.SITUATIONS` and a builder; the answer comes from a real table where the
engine can be asked, otherwise from the named rule functions of :mod:`.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.generators.yo_soy_el_jefe import rules
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import choice_item, item, name_options, register
from club_agentes.quizzes.generators.yo_soy_el_jefe.facts import colours, deal_cards, die_faces, rule_numbers, spaces
from club_agentes.quizzes.generators.yo_soy_el_jefe.q_deal import boss_run_words
from club_agentes.quizzes.generators.yo_soy_el_jefe.q_turn import covered_clause, covered_spaces, played_board
from club_agentes.quizzes.generators.yo_soy_el_jefe.words import (
    CONTRAPRESTACION,
    DADO_FIN,
    DOS_JUGADORES,
    EJEMPLO,
    EJEMPLO_OFERTAS,
    EJEMPLO_VIAJES,
    FIN_TURNO,
    FRACASO_REFERENCIA,
    INTRO,
    JEFE,
    PAGO,
    PAGO_EJEMPLO,
    PARADA,
    PARADA_EJEMPLO,
    R_FIN,
    R_RAPIDA,
    R_VARIANTES,
    TABLERO,
    TIRAR_DADO,
    TRAS_PAGO,
    V_JEFE_TURNO,
    V_LIMITE_10,
    V_PARTICIPANTES,
    VIAJE,
    board_ring,
    boss_word,
    count,
    join,
    money,
    numbered_seating,
    ordinal,
    people,
    seating,
)
from club_agentes.quizzes.model import Item

# The deals whose dividend value the rulebook itself gives, with the section that gives it.
STATED_VALUES = {6: PAGO_EJEMPLO, 13: EJEMPLO}


def _shuffled(rng: Rng, items: list) -> list:
    out = list(items)
    rng.shuffle(out)
    return out


# --------------------------------------------------------------------------- money


@dataclass(frozen=True)
class Keeps:
    """A closed deal and the prices its boss agreed: (player, colour, amount, amount counts dividends?)."""

    boss: str
    card: int
    space: int
    recall: bool  # the prompt asks to recall the dividend value the rulebook gives for this deal
    promises: tuple[tuple[str, str, int, bool], ...]


def draw_keeps(rng: Rng) -> Keeps:
    """Draw a deal and one to three prices, in millions or in whole dividends (each within half the payout)."""
    boss, *others = people(rng, 4)
    card = rng.choice(deal_cards())
    space = rng.choice([s for s in spaces() if s.dividends >= 3 and len(s.colours) >= 3])
    payout = card.dividend * space.dividends
    promises: list[tuple[str, str, int, bool]] = []
    left = payout
    for who, hue in zip(others[: 1 + rng.below(3)], _shuffled(rng, list(space.colours)), strict=False):
        if rng.below(2) and left >= card.dividend:
            k = 1 + rng.below(max(1, min(left // card.dividend, space.dividends // 2)))
            promises.append((who, hue, k, True))
            left -= k * card.dividend
        elif left >= 1:
            amount = 1 + rng.below(max(1, min(left, payout // 2)))
            promises.append((who, hue, amount, False))
            left -= amount
    recall = card.number in STATED_VALUES and rng.below(2) == 0
    return Keeps(boss, card.number, space.number, recall, tuple(promises))


@register(
    "riddle", "lo-que-queda-al-jefe", (PAGO, CONTRAPRESTACION, PAGO_EJEMPLO, EJEMPLO, EJEMPLO_OFERTAS), draw_keeps
)
def build_keeps(s: Keeps, rng: Rng) -> Item:
    """What the boss keeps: the banker's payout (3-3) less the promises, in millions or in dividends (3-2-1)."""
    value = rules.dividend_value(s.card)
    dividends = spaces()[s.space - 1].dividends
    payout = rules.banker_payout(s.card, dividends)
    told = [
        f"aceptó que {w} exigiera {count(a, 'dividendo', 'dividendos')} por su inversor {h}"
        if d
        else f"prometió {money(a)} a {w} por su inversor {h}"
        for w, h, a, d in s.promises
    ]
    promised = [a * value if d else a for _, _, a, d in s.promises]
    answer = rules.keeps_of(payout, promised)
    clause = (
        "El valor de un dividendo en esa transacción es el que da el reglamento en sus ejemplos."
        if s.recall
        else f"En esa transacción cada dividendo vale {money(value)}."
    )
    return item(
        "riddle",
        "integer",
        f"{s.boss} es {boss_word(s.boss)} de la {ordinal(s.card)} transacción de la partida, en una casilla de "
        f"{dividends} dividendos. {clause} Para reunir a los inversores, {join(told)}. Se cierra el trato. ¿Cuánto "
        f"dinero se queda {s.boss}?",
        answer,
        (PAGO, CONTRAPRESTACION, EJEMPLO_OFERTAS, *((STATED_VALUES[s.card],) if s.recall else ())),
        "boss_keeps",
        f"El banquero paga {dividends} × {money(value)} = {money(payout)}; un dividendo exigido vale {money(value)}, "
        f"y tras pagar lo acordado ({money(sum(promised))}) quedan {money(answer)}.",
        unit="M",
    )


@dataclass(frozen=True)
class TwoPlayers:
    """Two-player rules: a deal (card and space) and how many of the opponent's investor cards the boss uses."""

    boss: str
    other: str
    card: int
    space: int
    used: int


def draw_two_players(rng: Rng) -> TwoPlayers:
    """Draw a deal whose payout splits into whole millions per investor, and 1 to all-but-one cards used."""
    combos = [
        (card.number, space.number)
        for card in deal_cards()
        for space in spaces()
        if space.investors_needed >= 2 and rules.exact_share(card.dividend * space.dividends, space.investors_needed)
    ]
    card, space = rng.choice(combos)
    boss, other = people(rng, 2)
    return TwoPlayers(boss, other, card, space, 1 + rng.below(spaces()[space - 1].investors_needed - 1))


@register("riddle", "pago-a-dos-jugadores", (DOS_JUGADORES, PAGO, TABLERO), draw_two_players)
def build_two_players(s: TwoPlayers, rng: Rng) -> Item:
    """Two-player rules (5) and the payout (3-3): what the boss pays for the opponent's investor cards it uses."""
    space = spaces()[s.space - 1]
    total = rules.banker_payout(s.card, space.dividends)
    required = space.investors_needed
    answer = rules.two_player_payment(total, required, s.used)
    return item(
        "riddle",
        "integer",
        f"Partida con las reglas para dos jugadores. {s.boss} completa la {ordinal(s.card)} transacción en una "
        f"casilla de {space.dividends} dividendos que requiere {required} inversores; en ella cada dividendo vale "
        f"{money(rules.dividend_value(s.card))}. Sin el consentimiento de {s.other}, usa "
        f"{count(s.used, 'carta', 'cartas')} de inversor de {s.other}, con quien no había acordado ningún precio. "
        "¿Cuánto debe pagarle?",
        answer,
        (DOS_JUGADORES, PAGO),
        "two_player_payment",
        f"La cantidad total de dividendos es {money(total)}; dividida entre {required} inversores son "
        f"{money(total // required)} por cada carta de inversor usada: {money(answer)}.",
        unit="M",
    )


# --------------------------------------------------------------------------- bosses and turns


@dataclass(frozen=True)
class NextTurn:
    """Numbered players; the turn's player starts a deal; boss cards by ``sequence``; failed or closed; variant."""

    players: int
    turn: int
    sequence: tuple[int, ...]
    variant: bool
    failed: bool


def draw_next_turn(rng: Rng) -> NextTurn:
    """Draw 3 to 6 players, the turn, zero to three boss cards (none stopped), the ending and the variant."""
    players = 3 + rng.below(4)
    turn = 1 + rng.below(players)
    sequence: list[int] = []
    boss = turn
    for _ in range(rng.below(4)):
        boss = rng.choice([p for p in range(1, players + 1) if p != boss])
        sequence.append(boss)
    return NextTurn(players, turn, tuple(sequence), rng.below(3) == 0, rng.below(3) == 0)


@register("riddle", "siguiente-turno", (JEFE, FIN_TURNO, FRACASO_REFERENCIA, V_JEFE_TURNO), draw_next_turn)
def build_next_turn(s: NextTurn, rng: Rng) -> Item:
    """Who plays next: the boss cards (3-2-2) and the end of the turn (3), or the variant that keeps the turn."""
    last = s.sequence[-1] if s.sequence else s.turn
    answer = rules.next_turn_seat(s.players, s.turn, last, s.variant)
    if s.sequence:
        who = f"juegan cartas de jefe, por este orden, {'el jugador' if len(s.sequence) == 1 else 'los jugadores'} "
        who += join([str(p) for p in s.sequence]) + ", y nadie las para"
    else:
        who = "nadie juega cartas de jefe"
    end = "declara que la transacción ha fracasado" if s.failed else "cierra la transacción"
    rule = (
        " Jugáis con la variante en que, si se usa una carta de jefe para cambiar al jefe, el turno no cambia."
        if s.variant
        else " Jugáis con las reglas estándar."
    )
    sections = [JEFE, FIN_TURNO, *((FRACASO_REFERENCIA,) if s.failed else ()), *((V_JEFE_TURNO,) if s.variant else ())]
    return item(
        "riddle",
        "integer",
        f"{numbered_seating(s.players)}.{rule} Es el turno del jugador {s.turn}, que comienza una negociación. "
        f"Durante ella {who}; al final, el último jefe {end}. ¿Qué jugador tiene el siguiente turno?",
        answer,
        sections,
        "next_turn_seat",
        (
            "Con esa variante el turno no cambia: sigue el jugador a la izquierda de quien tenía el turno."
            if s.variant
            else "El turno continúa desde la persona a la izquierda de quien usó la última carta de jefe (o del jefe "
            "que empezó, si nadie la usó), tanto si la transacción se completa como si fracasa."
        ),
    )


@dataclass(frozen=True)
class BossStops:
    """Seated players; the turn's player starts a deal; boss cards (player, stopper or ""); the variant."""

    names: tuple[str, ...]
    turn: int
    cards: tuple[tuple[str, str], ...]
    variant: bool


def draw_boss_stops(rng: Rng) -> BossStops:
    """Draw 4 to 6 players and one to four boss cards, at least one of them stopped."""
    names = tuple(people(rng, 4 + rng.below(3)))
    turn = rng.below(len(names))
    boss = names[turn]
    cards: list[tuple[str, str]] = []
    for i in range(1 + rng.below(4)):
        player = rng.choice([n for n in names if n != boss])
        stopped = rng.below(3) == 0 or (i == 0 and rng.below(2) == 0)
        stopper = rng.choice([n for n in names if n != player]) if stopped else ""
        cards.append((player, stopper))
        boss = player if not stopper else boss
    if not any(st for _, st in cards):
        player = rng.choice([n for n in names if n != boss])
        cards.append((player, rng.choice([n for n in names if n != player])))
    return BossStops(names, turn, tuple(cards), rng.below(4) == 0)


@register("riddle", "jefe-y-paradas", (JEFE, PARADA, FIN_TURNO, V_JEFE_TURNO), draw_boss_stops)
def build_boss_stops(s: BossStops, rng: Rng) -> Item:
    """Who plays next after boss cards, some cancelled by stop cards: 3-2-2 jefe and parada."""
    starter = s.names[s.turn]
    last = rules.final_boss(starter, [(p, bool(st)) for p, st in s.cards])
    seat = rules.next_turn_seat(len(s.names), s.turn + 1, s.names.index(last) + 1, s.variant)
    answer = s.names[seat - 1]
    rule = (
        "Jugáis con la variante en que, si se usa una carta de jefe para cambiar al jefe, el turno no cambia."
        if s.variant
        else "Jugáis con las reglas estándar."
    )
    mentioned = [starter, *(p for p, _ in s.cards), *(st for _, st in s.cards if st)]
    return choice_item(
        rng,
        "riddle",
        f"{seating(s.names)}. {rule} Es el turno de {starter}, que comienza una negociación. Durante ella, por este "
        f"orden: {boss_run_words(s.cards)}. Nadie juega más cartas y el jefe cierra la transacción. ¿Quién juega el "
        "siguiente turno?",
        answer,
        name_options(rng, answer, mentioned, s.names),
        (JEFE, PARADA, FIN_TURNO, *((V_JEFE_TURNO,) if s.variant else ())),
        "next_turn_seat",
        "Una carta de jefe cancelada con una parada no cambia al jefe; el turno sigue a la izquierda del último jefe"
        + (" (o, con la variante, a la izquierda de quien tenía el turno)" if s.variant else "")
        + f": {answer}.",
    )


# --------------------------------------------------------------------------- travel cards and stops


@dataclass(frozen=True)
class Travels:
    """A deal on a space; who holds each investor; travel cards (player, colour, stopper or "", stop answered?)."""

    players: int
    names: tuple[str, ...]
    space: int
    owner: tuple[tuple[str, str], ...]
    travels: tuple[tuple[str, str, str, bool], ...]


def draw_travels(rng: Rng) -> Travels:
    """Draw 3 or 6 players holding all six investors, a space of three or more colours, and two to four travels."""
    players = 3 if rng.below(2) else 6
    names = tuple(people(rng, players))
    space = rng.choice([s for s in spaces() if len(s.colours) >= 3])
    owner = {c: names[i % players] for i, c in enumerate(_shuffled(rng, list(colours())))}
    travelled: set[str] = set()
    travels: list[tuple[str, str, str, bool]] = []
    for _ in range(2 + rng.below(3)):
        free = [c for c in space.colours if c not in travelled]
        if not free:
            break
        colour = rng.choice(free)
        player = rng.choice([n for n in names if n != owner[colour]])
        stopper = rng.choice([n for n in names if n != player]) if rng.below(2) == 0 else ""
        travels.append((player, colour, stopper, bool(stopper) and rng.below(2) == 0))
        if not stopper:
            travelled.add(colour)
    return Travels(players, names, space.number, tuple(owner.items()), tuple(travels))


@register("riddle", "viajes-y-paradas", (VIAJE, PARADA, PARADA_EJEMPLO, EJEMPLO_VIAJES, TABLERO), draw_travels)
def build_travels(s: Travels, rng: Rng) -> Item:
    """How many of a space's investors can still take part after travel cards, some stopped (viaje and parada)."""
    space = spaces()[s.space - 1]
    owner = dict(s.owner)
    told = []
    for player, colour, stopper, answered in s.travels:
        text = f"{player} juega una carta de viaje sobre el inversor {colour} de {owner[colour]}"
        if stopper:
            text += f" y {stopper} la cancela con una carta de parada"
            if answered:
                text += f"; {player} quiere cancelar esa parada con otra carta de parada"
        else:
            text += " y nadie la para"
        told.append(text)
    answer = rules.investors_still_in(space.colours, [(c, bool(st)) for _, c, st, _ in s.travels])
    helped = any(st and st != owner[c] for _, c, st, _ in s.travels)  # a stop card played for another's investor
    again = any(  # a travel card on an investor whose earlier travel card was stopped, as in the example
        any(c2 == c and st2 for _, c2, st2, _ in s.travels[:i]) for i, (_, c, _, _) in enumerate(s.travels)
    )
    holders = join([f"{owner[c]} el {c}" for c in space.colours])
    return item(
        "riddle",
        "integer",
        f"Partida de {s.players} jugadores. Se negocia en la casilla {s.space}, en la que aparecen los colores "
        f"{join(space.colours)}. Tienen esos inversores: {holders}. Durante la negociación, por este orden: "
        f"{'; '.join(told)}. ¿Cuántas de esas {len(space.colours)} cartas de inversor pueden todavía participar en "
        "la transacción?",
        answer,
        (VIAJE, PARADA, *((PARADA_EJEMPLO,) if helped else ()), *((EJEMPLO_VIAJES,) if again else ())),
        "investors_still_in",
        "Un inversor bajo una carta de viaje no puede participar en la transacción actual; una parada cancela el "
        "viaje, y no se puede usar una carta de bloqueo para cancelar el efecto de otra carta de bloqueo: "
        f"{answer}.",
    )


# --------------------------------------------------------------------------- the end of the game


@dataclass(frozen=True)
class QuickEnd:
    """The quick game: the deal just completed and the roll the die would show."""

    deal: int
    roll: int


def draw_quick_end(rng: Rng) -> QuickEnd:
    """Draw a deal of the quick game and a roll."""
    return QuickEnd(1 + rng.below(len(rule_numbers().quick_deck)), 1 + rng.below(die_faces()))


@register("riddle", "partida-rapida-fin", (V_LIMITE_10, DADO_FIN, R_RAPIDA), draw_quick_end)
def build_quick_end(s: QuickEnd, rng: Rng) -> Item:
    """The quick game (cards 3, 6 and 9 left out) and the end die (4): what happens after the k-th deal."""
    card = rules.quick_game_card(s.deal)
    outcome = rules.end_outcome(card, s.roll)
    backs = "; ".join(f"la #{c.number}, {join([str(n) for n in c.end_numbers])}" for c in deal_cards() if c.end_numbers)
    last = deal_cards()[-1].number
    return choice_item(
        rng,
        "riddle",
        "Jugáis la partida rápida: al preparar, se apilan las cartas de negociación sin las que el reglamento indica "
        f"para ello. En el reverso de las cartas de negociación aparecen estos números: {backs}; las demás no "
        f"muestran ninguno, y la #{last} es la última. Se acaba de completar la {ordinal(s.deal)} transacción de la "
        f"partida y su carta ya está en el tablero. Si el jefe tira el dado, sale un {s.roll}. ¿Qué ocurre?",
        outcome,
        [o for o in rules.END_OUTCOMES if o != outcome],
        (V_LIMITE_10, DADO_FIN, R_RAPIDA),
        "end_outcome",
        f"Sin las cartas 3, 6 y 9, la {ordinal(s.deal)} transacción coloca la carta #{card}; las condiciones de "
        "finalización son las mismas: se tira el dado tras una carta con números en el reverso, y la última termina "
        "la partida sin tirarlo.",
    )


@dataclass(frozen=True)
class Winner:
    """Money before the last deal, the last deal (card, roll that ends it or None), its boss and promises."""

    before: tuple[tuple[str, int], ...]
    card: int
    roll: int | None
    space: int
    boss: str
    promises: tuple[tuple[str, int], ...]


def draw_winner(rng: Rng) -> Winner:
    """Draw 3 to 5 players' money and an ending deal: the last card, or a card whose back shows the roll."""
    names = people(rng, 3 + rng.below(3))
    before = tuple((n, 10 + rng.below(60)) for n in names)
    if rng.below(2):
        card, roll = deal_cards()[-1], None
    else:
        card = rng.choice([c for c in deal_cards() if c.end_numbers])
        roll = rng.choice(card.end_numbers)
    space = rng.choice(spaces())
    left = card.dividend * space.dividends
    boss = rng.choice(names)
    promises: list[tuple[str, int]] = []
    for who in _shuffled(rng, [n for n in names if n != boss])[: 1 + rng.below(2)]:
        amount = 1 + rng.below(max(1, left // 2))
        promises.append((who, amount))
        left -= amount
    return Winner(before, card.number, roll, space.number, boss, tuple(promises))


def money_at_end(s: Winner) -> dict[str, int]:
    """Return everyone's money once the last deal of ``s`` is paid."""
    money_of = dict(s.before)
    payout = rules.banker_payout(s.card, spaces()[s.space - 1].dividends)
    money_of[s.boss] += rules.keeps_of(payout, [a for _, a in s.promises])
    for who, amount in s.promises:
        money_of[who] += amount
    return money_of


@register("riddle", "quien-gana", (PAGO, DADO_FIN, INTRO, R_FIN), draw_winner)
def build_winner(s: Winner, rng: Rng) -> Item:
    """The last deal's payout (3-3) and the end of the game (4): with how much money the winner wins."""
    money_of = money_at_end(s)
    top = rules.winners(money_of)
    answer = money_of[top[0]]
    dividends = spaces()[s.space - 1].dividends
    had = join([f"{n} tenía {money(m)}" for n, m in s.before])
    paid = join([f"{money(a)} a {w}" for w, a in s.promises])
    deal = (
        f"La {ordinal(s.card)} transacción la completa {s.boss} en una casilla de {dividends} dividendos, a "
        f"{money(rules.dividend_value(s.card))} cada uno, y paga {paid}."
    )
    if s.roll is not None:
        deal += (
            f" Después tira el dado y sale un {s.roll}, uno de los números del reverso de la carta de esa transacción."
        )
    return item(
        "riddle",
        "integer",
        f"Partida de {len(s.before)} jugadores. Antes de la última transacción, {had}. {deal} ¿Con cuánto dinero gana "
        "la partida quien la gana?",
        answer,
        (PAGO, DADO_FIN, INTRO, *((R_FIN,) if len(top) > 1 else ())),
        "winners",
        f"El banquero paga {money(rules.banker_payout(s.card, dividends))} al jefe, que paga lo acordado; la "
        f"partida termina y gana quien tiene más dinero: {join(list(top))}, con {money(answer)}.",
        unit="M",
    )


@dataclass(frozen=True)
class Participants:
    """The variant: a deal (card and space), and per agreed seat (name, colour, amount, card it used or "")."""

    boss: str
    card: int
    space: int
    parts: tuple[tuple[str, str, int, str], ...]


_USES = ("colocó además una carta de familia", "jugó una carta de parada", "jugó una carta de viaje")


def draw_participants(rng: Rng) -> Participants:
    """Draw a deal and two or three agreements, at least one paid and one not."""
    boss, *others = people(rng, 4)
    card = rng.choice(deal_cards())
    space = rng.choice([s for s in spaces() if s.dividends >= 3 and len(s.colours) >= 3])
    left = card.dividend * space.dividends
    parts: list[tuple[str, str, int, str]] = []
    for who, hue in zip(others[: 2 + rng.below(2)], _shuffled(rng, list(space.colours)), strict=False):
        if left < 2:
            break
        amount = 1 + rng.below(left // 2)
        left -= amount
        parts.append((who, hue, amount, rng.choice(_USES) if rng.below(2) == 0 else ""))
    used = [bool(u) for _, _, _, u in parts]
    if all(used) or not any(used):
        who, hue, amount, use = parts[0]
        parts[0] = (who, hue, amount, "" if use else rng.choice(_USES))
    return Participants(boss, card.number, space.number, tuple(parts))


@register("riddle", "solo-participantes", (V_PARTICIPANTES, PAGO, R_VARIANTES), draw_participants)
def build_participants(s: Participants, rng: Rng) -> Item:
    """The variant where only the boss and card players earn (5) and the payout (3-3): what the boss keeps."""
    dividends = spaces()[s.space - 1].dividends
    payout = rules.banker_payout(s.card, dividends)
    paid = rules.paid_to_participants((a, bool(u)) for _, _, a, u in s.parts)
    answer = payout - paid
    told = "; ".join(
        f"{w} aportó su inversor {h} por {money(a)} y {u or 'no jugó ninguna carta'}" for w, h, a, u in s.parts
    )
    return item(
        "riddle",
        "integer",
        "Jugáis con la variante en la que, para ganar dinero en una negociación, hay que ser el jefe o haber "
        f"utilizado al menos una carta de influencia. {s.boss} completa una transacción en una casilla de "
        f"{dividends} dividendos, en la que cada dividendo vale {money(rules.dividend_value(s.card))}. {told}. "
        f"¿Cuánto dinero se queda {s.boss}?",
        answer,
        (V_PARTICIPANTES, PAGO, R_VARIANTES),
        "paid_to_participants",
        f"El banquero paga {money(payout)}; con la variante, quien no usó ninguna carta de influencia no cobra y su "
        f"parte se queda con el jefe: {s.boss} paga {money(paid)} y se queda {money(answer)}.",
        unit="M",
    )


# --------------------------------------------------------------------------- the board


@dataclass(frozen=True)
class DealAndRoll:
    """A real table's board: a deal closes on ``position``, then the next player rolls; where the marker ends."""

    covered: tuple[int, ...]
    position: int
    roll: int
    land: int


def draw_deal_and_roll(rng: Rng) -> DealAndRoll:
    """Close a few deals on a real table, one more on the marker's space, then the next player rolls."""
    table = played_board(rng, 1, 7)
    covered, position = covered_spaces(table), int(table.view()["marker"])
    table.close_here()
    roll, land = table.roll()
    return DealAndRoll(covered, position, roll, land)


@register("riddle", "marcador-tras-el-pago-y-dado", (TRAS_PAGO, TIRAR_DADO, TABLERO), draw_deal_and_roll)
def build_deal_and_roll(s: DealAndRoll, rng: Rng) -> Item:
    """After a deal the marker goes to the next empty space (3-3), then the next player rolls (3): a real board."""
    return item(
        "riddle",
        "integer",
        f"{board_ring(len(spaces()))} {covered_clause(s.covered)}. Se completa una transacción en la casilla "
        f"{s.position} y su carta de transacción se coloca allí; el jefe mueve el marcador de dólares como manda el "
        f"reglamento. El siguiente jugador tira el dado y sale un {s.roll}. ¿En qué casilla queda el marcador?",
        s.land,
        (TRAS_PAGO, TIRAR_DADO, TABLERO),
        "marker_destination",
        "Tras el pago el marcador pasa al siguiente espacio vacío; después avanza en sentido horario tantas casillas "
        f"como indica el dado, sin contar las cubiertas: {s.land}.",
    )
