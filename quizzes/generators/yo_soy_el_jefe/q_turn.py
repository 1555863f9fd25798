"""Entry questions on setup, the turn, the board, the deck and the end of the game (Yo soy el jefe).

Each generator is a situation maker (registered in :data:`.common.SITUATIONS`) and a
builder that states the whole situation in the prompt. Where the engine can be asked,
the maker plays a real table (:mod:`.table`) and records what the engine did; otherwise
the builder applies a named rule function of :mod:`.rules` to the engine's component
data, and the tests rebuild the situation on a real table to check the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from club_agentes.engine.core.rng import Rng
from club_agentes.engine.yo_soy_el_jefe.components import BOSS, FAMILY, GREY, HIRE, STOP, TRAVEL
from club_agentes.quizzes.generators.yo_soy_el_jefe import rules
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import TABLE_SEEDS, choice_item, in_rulebook, item, register
from club_agentes.quizzes.generators.yo_soy_el_jefe.facts import (
    colours,
    deal_cards,
    die_faces,
    influence_total,
    kind_total,
    rule_numbers,
    spaces,
)
from club_agentes.quizzes.generators.yo_soy_el_jefe.table import Table
from club_agentes.quizzes.generators.yo_soy_el_jefe.words import (
    ACCIONES,
    CIERRE_CARTAS,
    COMP_INFLUENCIA,
    DADO_FIN,
    DADO_FIN_EJEMPLO,
    EJEMPLO_FIN,
    EMPLEO,
    FAMILIA_COLOCADA,
    FAMILIA_JEFE,
    FIN_TURNO,
    FRACASO,
    FRACASO_REFERENCIA,
    INVERSORES_JEFE,
    JEFE,
    NEGOCIAR,
    PAGO,
    PAGO_EJEMPLO,
    PARADA,
    PREP_INFLUENCIA,
    PRIMER_JUGADOR,
    R_MAZO,
    R_PRIMER,
    R_RAPIDA,
    R_VARIANTES,
    TABLERO,
    TABLERO_EJEMPLO,
    TIRAR_DADO,
    TOMAR,
    TRAS_PAGO,
    V_LIMITE_10,
    V_MINIMO,
    V_OBLIGATORIA,
    V_ROBO,
    VARIANTES,
    VIAJE,
    board_ring,
    count,
    fem,
    join,
    money,
    numbered_seating,
    ordinal,
    people,
    seating,
)
from club_agentes.quizzes.model import Item


def _sample(rng: Rng, pool: list[str] | tuple[str, ...], k: int) -> list[str]:
    """Return ``k`` distinct members of ``pool``, kept in the pool's order."""
    picked = list(pool)
    rng.shuffle(picked)
    chosen = set(picked[:k])
    return [c for c in pool if c in chosen]


# --------------------------------------------------------------------------- setup and turn order


@dataclass(frozen=True)
class DeckDeal:
    """A real table's first turns: who did what, and the deck count the engine shows after them."""

    players: int
    names: tuple[str, ...]
    first: int
    marker: int
    seed: int
    turns: tuple[tuple[int, str], ...]  # (seat, "draw" | "roll-fail" | "fail")
    draws: int
    left: int


def draw_deck_deal(rng: Rng) -> DeckDeal:
    """Play a few turns of draws and failed negotiations on a real table and read its deck."""
    players = 3 + rng.below(4)
    names = tuple(people(rng, players))
    first, marker, seed = rng.below(players), 1 + rng.below(len(spaces())), rng.below(TABLE_SEEDS)
    table = Table(players, seed, {"first_player": first, "marker_start": marker})
    turns: list[tuple[int, str]] = []
    for _ in range(2 + rng.below(7)):
        seat = table.turn_seat()
        step = rng.below(4)
        if step <= 1:
            table.roll()
            table.draw()
            turns.append((seat, "draw"))
        elif step == 2:
            table.roll()
            table.fail_here()
            turns.append((seat, "roll-fail"))
        else:
            table.fail_here()
            turns.append((seat, "fail"))
    draws = sum(1 for _, what in turns if what == "draw")
    return DeckDeal(players, names, first, marker, seed, tuple(turns), draws, int(table.view()["deck_count"]))


_TURN_WORDS = {
    "draw": "{} tiró el dado y tomó cartas",
    "roll-fail": "{} tiró el dado y comenzó una negociación donde llegó el marcador, que fracasó",
    "fail": "{} comenzó una negociación en la casilla del marcador, que fracasó",
}


@register("question", "mazo-tras-el-reparto", (COMP_INFLUENCIA, PREP_INFLUENCIA, TOMAR, FRACASO), draw_deck_deal)
def build_deck_deal(s: DeckDeal, rng: Rng) -> Item:
    """Influence cards left in the deck after the deal and a few turns (the engine's count)."""
    told = "; ".join(_TURN_WORDS[what].format(s.names[seat]) for seat, what in s.turns)
    numbers = rule_numbers()
    return item(
        "question",
        "integer",
        f"Partida de {s.players} jugadores con las reglas estándar, recién preparada. En los primeros turnos, por "
        f"orden: {told}. En esas negociaciones nadie jugó ninguna carta. ¿Cuántas cartas quedan en el mazo de "
        "cartas de influencia?",
        s.left,
        (COMP_INFLUENCIA, PREP_INFLUENCIA, TOMAR, FRACASO),
        "deck_after_setup",
        f"Hay {influence_total()} cartas de influencia; se reparten {numbers.hand_size} a cada uno de los "
        f"{s.players} jugadores y cada vez que alguien toma cartas se lleva {numbers.draw} ({s.draws} veces); "
        f"negociar no roba cartas: quedan {s.left}.",
    )


@dataclass(frozen=True)
class TurnOrder:
    """A real table: the first player, and either who placed the marker or who played the n-th turn."""

    players: int
    names: tuple[str, ...]
    first: int
    seed: int
    turn: int  # 0: ask who places the marker; otherwise the turn asked about
    answer: int  # the engine's seat


def draw_turn_order(rng: Rng) -> TurnOrder:
    """Deal a real table; read who places the marker, or play turns and read who is on turn."""
    players = 4 + rng.below(3)
    names = tuple(people(rng, players))
    first, seed = rng.below(players), rng.below(TABLE_SEEDS)
    table = Table(players, seed, {"first_player": first})
    if rng.below(3) == 0:
        return TurnOrder(players, names, first, seed, 0, table.deciding()[0])
    table.until(table.deciding()[0], f"marker {1 + rng.below(len(spaces()))}")
    turn = 2 + rng.below(10)
    for _ in range(turn - 1):
        if rng.below(2):
            table.roll()
            table.draw()
        else:
            table.fail_here()
    return TurnOrder(players, names, first, seed, turn, table.turn_seat())


@register("question", "orden-de-turnos", (PRIMER_JUGADOR, FIN_TURNO, FRACASO_REFERENCIA, R_PRIMER), draw_turn_order)
def build_turn_order(s: TurnOrder, rng: Rng) -> Item:
    """Who places the dollar marker (the first player's right), or who plays the n-th turn (to the left)."""
    answer = s.names[s.answer]
    head = f"{seating(s.names)}. Se decide que {s.names[s.first]} comenzará la partida."
    if s.turn == 0:
        prompt = f"{head} ¿Quién coloca el marcador de dólares en la casilla que desee?"
        explanation = f"El jugador a la derecha del primero coloca el marcador: {answer}."
        sections: tuple[str, ...] = (PRIMER_JUGADOR, R_PRIMER)
        computed = "marker_placer"
    else:
        prompt = (
            f"{head} En cada turno, el jugador de turno toma cartas o comienza una negociación que fracasa; nadie "
            f"juega cartas de jefe. ¿Quién juega el {s.turn}.º turno de la partida?"
        )
        explanation = (
            "El juego continúa en sentido horario: tras tomar cartas o tras una negociación fracasada, el turno pasa "
            f"al jugador a la izquierda; el {s.turn}.º turno es de {answer}."
        )
        sections = (PRIMER_JUGADOR, FIN_TURNO, FRACASO_REFERENCIA)
        computed = "turn_player"
    wrong = [n for n in s.names if n != answer]
    rng.shuffle(wrong)
    return choice_item(rng, "question", prompt, answer, wrong[:3], sections, computed, explanation)


# --------------------------------------------------------------------------- the board and the marker


def played_board(rng: Rng, low: int, high: int) -> Table:
    """Return a 3-seat table on which ``low`` to ``high`` deals (at most 9: no end roll yet) have been closed.

    The two-player rules are on so that every deal can close at once; the questions ask only
    about the board, which those rules do not change.
    """
    options = {"two_player_rules": True, "first_player": rng.below(3), "marker_start": 1 + rng.below(len(spaces()))}
    table = Table(3, rng.below(TABLE_SEEDS), options)
    closes = low + rng.below(high - low + 1)
    while closes:
        step = rng.below(3)
        if step == 0:
            table.close_here()
            closes -= 1
        else:
            table.roll()
            if step == 1:
                table.close_here()
                closes -= 1
            else:
                table.draw()
    return table


def covered_spaces(table: Table) -> tuple[int, ...]:
    """Return the board spaces covered by deal cards on ``table``, ascending."""
    return tuple(b["space"] for b in table.view()["board"] if b["covered_by"])


def covered_clause(covered: tuple[int, ...]) -> str:
    """Say which spaces are covered: "La casilla 3 ya está cubierta..." or "Las casillas 2 y 7 ya están..."."""
    if len(covered) == 1:
        return f"La casilla {covered[0]} ya está cubierta por una carta de negociación"
    return f"Las casillas {join([str(c) for c in covered])} ya están cubiertas por cartas de negociación"


@dataclass(frozen=True)
class MarkerMove:
    """A real table's board: the covered spaces, the marker, the roll and where the engine moved the marker."""

    covered: tuple[int, ...]
    position: int
    roll: int
    land: int


def draw_marker_move(rng: Rng) -> MarkerMove:
    """Close a few deals on a real table, then roll."""
    table = played_board(rng, 2, 8)
    covered, position = covered_spaces(table), int(table.view()["marker"])
    roll, land = table.roll()
    return MarkerMove(covered, position, roll, land)


@register("question", "movimiento-del-marcador", (TIRAR_DADO, TABLERO), draw_marker_move)
def build_marker_move(s: MarkerMove, rng: Rng) -> Item:
    """Where the marker lands after a roll, skipping covered spaces (the engine's move)."""
    return item(
        "question",
        "integer",
        f"{board_ring(len(spaces()))} {covered_clause(s.covered)}, y el marcador de dólares está en la casilla "
        f"{s.position}. El jugador de turno tira el dado y sale un {s.roll}. ¿En qué casilla queda el marcador?",
        s.land,
        (TIRAR_DADO, TABLERO),
        "marker_destination",
        "El marcador avanza en sentido horario tantas casillas como indica el dado, sin contar las casillas "
        f"cubiertas por cartas de negociación: llega a la {s.land}.",
    )


@dataclass(frozen=True)
class NextSpace:
    """A real table's board before a deal closes on ``position``, and where the engine then put the marker."""

    covered: tuple[int, ...]
    position: int
    land: int


def draw_next_space(rng: Rng) -> NextSpace:
    """Close a few deals on a real table, then one more on the marker's space."""
    table = played_board(rng, 2, 8)
    covered, position = covered_spaces(table), int(table.view()["marker"])
    table.close_here()
    return NextSpace(covered, position, int(table.view()["marker"]))


@register("question", "espacio-tras-el-pago", (TRAS_PAGO, TABLERO), draw_next_space)
def build_next_space(s: NextSpace, rng: Rng) -> Item:
    """Where the marker goes after a deal is paid: the next empty space (the engine's move)."""
    return item(
        "question",
        "integer",
        f"{board_ring(len(spaces()))} {covered_clause(s.covered)}. Se completa una transacción en la casilla "
        f"{s.position} y, tras el pago, se coloca allí la carta de transacción. ¿A qué casilla mueve el jefe el "
        "marcador de dólares, avanzando en el sentido de juego?",
        s.land,
        (TRAS_PAGO, TABLERO),
        "next_empty_space",
        "Tras el pago se cubre la casilla con la carta de transacción y el marcador pasa al siguiente espacio "
        f"vacío en sentido horario: la casilla {s.land}.",
    )


@dataclass(frozen=True)
class Completion:
    """A board space, the boss's own investors, and four groups of other players' investors (one completes)."""

    space: int
    boss: str
    owned: tuple[str, ...]
    right: tuple[str, ...]
    wrong: tuple[tuple[str, ...], ...]


def draw_completion(rng: Rng) -> Completion:
    """Pick a space and some investors of the boss that leave it short; find one group that completes it.

    Every group names at least two families, so that no option is a single colour the
    prompt's own listing of the space names, and none is a phrase of the rulebook.
    """
    for _ in range(100):
        space = rng.choice(spaces())
        owned = tuple(_sample(rng, colours(), rng.below(4)))
        missing = rules.missing_investors(space.number, owned)
        others = [c for c in colours() if c not in owned]
        if missing == 0:
            continue
        sizes = range(max(2, missing - 1), min(len(others), max(2, missing + 1)) + 1)
        groups = [g for k in sizes for g in combinations(others, k) if not in_rulebook(_group_words(g))]
        complete = [g for g in groups if rules.missing_investors(space.number, (*owned, *g)) == 0]
        short = [g for g in groups if rules.missing_investors(space.number, (*owned, *g)) > 0]
        if complete and len(short) >= 3:
            rng.shuffle(short)
            return Completion(space.number, people(rng, 1)[0], owned, rng.choice(complete), tuple(short[:3]))
    raise RuntimeError("no board space gave a completion question in 100 draws")


def _holding(owned: tuple[str, ...]) -> str:
    """Say which investor cards the boss has in front of it ("no tiene frente a sí ningún inversor" when none)."""
    return f"tiene frente a sí {investor_words(owned)}" if owned else "no tiene frente a sí ningún inversor"


def _group_words(group: tuple[str, ...]) -> str:
    """Name a group of investors in the reverse of the fixed colour order, unlike the prompt's listing."""
    return join([f"el {c}" for c in reversed(group)])


def needs_words(space: int) -> str:
    """Say what a board space asks for: "pide obligatoriamente los inversores rojo y azul y, además, 1 de entre ..."."""
    mandatory, optional, needed = rules.space_needs(space)
    text = f"pide obligatoriamente {'el inversor' if len(mandatory) == 1 else 'los inversores'} {join(mandatory)}"
    if needed:
        text += f" y, además, {needed} de entre {join(optional, 'o')}"
    return text


def investor_words(held: tuple[str, ...] | list[str], article: str = "los") -> str:
    """Name investor cards: "ningún inversor", "el inversor rojo", "los inversores rojo y azul"."""
    if not held:
        return "ningún inversor"
    return f"{'el inversor' if len(held) == 1 else f'{article} inversores'} {join(list(held))}"


@register("question", "casilla-completa", (TABLERO, TABLERO_EJEMPLO, NEGOCIAR, INVERSORES_JEFE), draw_completion)
def build_completion(s: Completion, rng: Rng) -> Item:
    """Which group of other players' investors completes the deal with the boss's own (the engine's spaces)."""
    dividends = spaces()[s.space - 1].dividends
    return choice_item(
        rng,
        "question",
        f"La casilla {s.space} del tablero muestra {dividends} dividendos y {needs_words(s.space)}. {s.boss} comienza "
        f"una negociación en ella; {_holding(s.owned)}, y no hay cartas de familia en juego. "
        f"¿Con cuál de estos grupos de inversores de otros jugadores se completaría la negociación?",
        _group_words(s.right),
        [_group_words(g) for g in s.wrong],
        (TABLERO, TABLERO_EJEMPLO, NEGOCIAR, INVERSORES_JEFE),
        "completes",
        f"Los inversores de {s.boss} se consideran de acuerdo automáticamente; con {_group_words(s.right)} quedan "
        "cubiertos los colores obligatorios y tantos adicionales como indica el cuadro blanco.",
    )


# --------------------------------------------------------------------------- drawing and the hand limit


@dataclass(frozen=True)
class HandLimit:
    """A hand before drawing, its hire cards, the hire sets played before discarding, and the limit in force."""

    hand: int
    hires: int
    sets: int
    late: bool
    deals: int


def draw_hand_limit(rng: Rng) -> HandLimit:
    """Pick a hand and a limit; hire sets are played only while the hand is still over the limit."""
    numbers = rule_numbers()
    hand = 5 + rng.below(8)
    hires = rng.below(min(hand, 7) + 1)
    late = rng.below(3) == 0
    deals = 4 + rng.below(10)
    limit = rules.hand_limit(deals, late)
    held, possible = hand + numbers.draw, 0
    while held - numbers.hire_set * possible > limit and numbers.hire_set * (possible + 1) <= hires:
        possible += 1
    return HandLimit(hand, hires, rng.below(possible + 1), late, deals)


@register("question", "descarte-por-limite", (TOMAR, V_LIMITE_10, R_RAPIDA), draw_hand_limit)
def build_hand_limit(s: HandLimit, rng: Rng) -> Item:
    """Cards discarded after a draw, with hire sets played first and the late limit variant."""
    numbers = rule_numbers()
    limit = rules.hand_limit(s.deals, s.late)
    answer = rules.hand_discard(s.hand, numbers.draw, s.sets, limit)
    variant = (
        " Jugáis con la variante que rebaja el límite de cartas de influencia en la mano a partir del décimo "
        f"negocio, y ya se han completado {s.deals} transacciones."
        if s.late
        else " Jugáis con las reglas estándar."
    )
    hires = f", {s.hires} de ellas de empleo" if s.hires else ""
    plays = (
        f" Antes de descartar, usas {count(s.sets, 'conjunto', 'conjuntos')} de {numbers.hire_set} cartas de empleo."
        if s.sets
        else ""
    )
    return item(
        "question",
        "integer",
        f"Tienes {s.hand} cartas de influencia{hires}.{variant} En tu turno tiras el dado y eliges tomar cartas del "
        f"mazo; ninguna de las que tomas es de empleo.{plays} ¿Cuántas cartas debes descartar antes de terminar "
        "tu turno?",
        answer,
        (TOMAR, V_LIMITE_10, R_RAPIDA) if s.late else (TOMAR,),
        "hand_discard",
        f"Tomas {numbers.draw} cartas y el límite es de {limit}; cada conjunto de empleo usado antes de descartar "
        f"reduce la mano en {numbers.hire_set}: descartas {answer}.",
    )


@dataclass(frozen=True)
class VariantDraw:
    """Under the investor-count draw variant: the investors held and the hand before drawing."""

    held: tuple[str, ...]
    hand: int


def draw_variant_draw(rng: Rng) -> VariantDraw:
    """Pick 0 to 4 investor cards and a hand of 2 to 12 cards."""
    return VariantDraw(tuple(_sample(rng, colours(), rng.below(5))), 2 + rng.below(11))


def _card_words(held: tuple[str, ...]) -> str:
    """Name the investor cards one holds: "ninguna carta de inversor", "las cartas de inversor rojo y azul"."""
    if not held:
        return "ninguna carta de inversor"
    return f"{'la carta de inversor' if len(held) == 1 else 'las cartas de inversor'} {join(list(held))}"


@register("question", "robo-segun-inversores", (V_ROBO, TOMAR), draw_variant_draw)
def build_variant_draw(s: VariantDraw, rng: Rng) -> Item:
    """Cards held at the end of the turn: the variant's draw, then the hand limit."""
    drawn = rules.variant_draw(len(s.held))
    answer = rules.hand_after_draw(s.hand, drawn)
    return item(
        "question",
        "integer",
        "Jugáis con la variante en la que las cartas de influencia que se reciben al tomar cartas dependen de las "
        f"cartas de inversor que uno tiene. Tienes {s.hand} cartas de influencia en la mano y {_card_words(s.held)}."
        " Tiras el dado y eliges tomar cartas. ¿Con cuántas cartas de influencia en la mano terminas tu turno?",
        answer,
        (V_ROBO, TOMAR),
        "hand_after_draw",
        f"Con {count(len(s.held), 'inversor', 'inversores')} recibes {count(drawn, 'carta', 'cartas')}, y el límite "
        f"de {rule_numbers().hand_limit} obliga a descartar el exceso: terminas con {answer}.",
    )


_START_OPTIONS = {
    frozenset({rules.NEGOTIATE, rules.ROLL}): "Puede negociar en la casilla del marcador o tirar el dado",
    frozenset({rules.ROLL}): "Solo puede tirar el dado",
    frozenset({rules.NEGOTIATE}): "Solo puede negociar en la casilla del marcador",
    frozenset({rules.DRAW}): "Solo puede tomar cartas, sin tirar el dado",
}
_AFTER_ROLL_OPTIONS = {
    frozenset({rules.NEGOTIATE, rules.DRAW}): "Puede negociar en la casilla a la que llegó o tomar cartas",
    frozenset({rules.NEGOTIATE}): "Solo puede negociar en la casilla a la que llegó",
    frozenset({rules.DRAW}): "Solo puede tomar cartas",
    frozenset({rules.ROLL}): "Debe volver a tirar el dado",
}


@dataclass(frozen=True)
class TurnOptions:
    """The variants in play, the hand at the start of the turn, and the moment of the turn."""

    name: str
    mandatory: bool
    minimum: bool
    hand: int
    moment: str


def draw_turn_options(rng: Rng) -> TurnOptions:
    """Pick the variants (none, either or both), a hand of 1 to 14 cards and a moment."""
    name = people(rng, 1)[0]
    mode = rng.below(4)
    return TurnOptions(
        name, mode in (1, 3), mode in (2, 3), 1 + rng.below(14), rules.START if rng.below(2) else rules.AFTER_ROLL
    )


@register(
    "question",
    "opciones-del-turno",
    (ACCIONES, TIRAR_DADO, TOMAR, V_OBLIGATORIA, V_MINIMO, R_VARIANTES, VARIANTES),
    draw_turn_options,
)
def build_turn_options(s: TurnOptions, rng: Rng) -> Item:
    """What the player on turn may do, with the variants that force or forbid negotiating."""
    allowed = rules.turn_options(s.hand, s.moment, s.mandatory, s.minimum)
    variants = []
    if s.mandatory:
        variants.append("la variante de la negociación obligatoria para quien empieza su turno con muchas cartas")
    if s.minimum:
        variants.append("la variante que impide intentar una negociación con pocas cartas en la mano")
    rule_text = f"Jugáis con {join(variants)}." if variants else "Jugáis con las reglas estándar, sin variantes."
    options = _START_OPTIONS if s.moment == rules.START else _AFTER_ROLL_OPTIONS
    when = (
        "Todavía no ha hecho nada en este turno."
        if s.moment == rules.START
        else "Tira el dado y el marcador de dólares llega a una casilla libre."
    )
    sections = [ACCIONES, TIRAR_DADO, TOMAR]
    sections += [V_OBLIGATORIA] if s.mandatory else []
    sections += [V_MINIMO] if s.minimum else []
    sections += [R_VARIANTES, VARIANTES] if variants else []
    right = options[allowed]
    return choice_item(
        rng,
        "question",
        f"{rule_text} Al empezar su turno, {s.name} tiene {s.hand} cartas de influencia en la mano. {when} "
        "¿Qué puede hacer ahora?",
        right,
        [text for key, text in options.items() if key != allowed],
        sections,
        "turn_options",
        f"{right}: lo dicen las acciones del turno y las variantes en juego, contando la mano al empezar el turno.",
    )


@dataclass(frozen=True)
class DeckOut:
    """The deck and the discard pile before a draw, and the drawer's investors under the variant (if played)."""

    name: str
    deck: int
    discard: int
    variant: bool
    held: tuple[str, ...]


def draw_deck_out(rng: Rng) -> DeckOut:
    """Pick a nearly empty deck (0 to 3 cards), a discard pile of 4 to 40 and, a third of the time, the variant."""
    name = people(rng, 1)[0]
    return DeckOut(
        name, rng.below(4), 4 + rng.below(37), rng.below(3) == 0, tuple(_sample(rng, colours(), rng.below(4)))
    )


@register("question", "mazo-agotado", (TOMAR, CIERRE_CARTAS, R_MAZO, V_ROBO), draw_deck_out)
def build_deck_out(s: DeckOut, rng: Rng) -> Item:
    """Cards left in the influence deck after a draw that empties it (the discards become a new deck)."""
    drawn = rules.variant_draw(len(s.held)) if s.variant else rule_numbers().draw
    answer = rules.deck_after_draw(s.deck, s.discard, drawn)
    state = (
        "El mazo de cartas de influencia se ha agotado"
        if s.deck == 0
        else f"En el mazo de cartas de influencia {'queda 1 carta' if s.deck == 1 else f'quedan {s.deck} cartas'}"
    )
    rule = (
        "Jugáis con la variante en la que las cartas que se reciben dependen de los inversores de cada uno; "
        f"{s.name} {'tiene' if s.held else 'no tiene'} {_card_words(s.held)}."
        if s.variant
        else "Jugáis con las reglas estándar."
    )
    return item(
        "question",
        "integer",
        f"{state} y en el montón de descarte hay {s.discard} cartas. {rule} {s.name} tira el dado y elige tomar "
        "cartas. ¿Cuántas cartas quedan en el mazo de cartas de influencia justo después?",
        answer,
        (TOMAR, CIERRE_CARTAS, R_MAZO, *((V_ROBO,) if s.variant else ())),
        "deck_after_draw",
        f"{s.name} toma {drawn}: cuando se agotan, se mezclan las cartas descartadas para formar un nuevo mazo y se "
        f"sigue tomando de él; quedan {answer}.",
    )


# --------------------------------------------------------------------------- counting cards


@dataclass(frozen=True)
class CardCount:
    """Counting one kind of influence card: per counted sub-kind, (kind, colour, discarded, in your hand)."""

    what: str
    parts: tuple[tuple[str, str | None, int, int], ...]


def draw_card_count(rng: Rng) -> CardCount:
    """Pick a kind (a family colour, the travel cards usable on a colour, boss, hire or stop) and what was seen."""
    pick = rng.below(5)
    colour = rng.choice(colours())
    if pick == 0:
        kinds: list[tuple[str, str | None]] = [(FAMILY, colour)]
        what = f"cartas de la familia {fem(colour)}"
    elif pick == 1:
        kinds = [(TRAVEL, colour), (TRAVEL, GREY)]
        what = f"cartas de viaje que pueden usarse sobre el inversor {colour}"
    else:
        kind = (BOSS, HIRE, STOP)[pick - 2]
        kinds = [(kind, None)]
        what = {BOSS: "cartas de jefe", HIRE: "cartas de empleo", STOP: "cartas de parada"}[kind]
    parts = []
    for kind, hue in kinds:
        total = kind_total(kind, hue)
        discarded = min(total, rng.below(total // 2 + 2))
        mine = min(total - discarded, rng.below(4))
        parts.append((kind, hue, discarded, mine))
    return CardCount(what, tuple(parts))


_PART_NAMES = {FAMILY: "cartas de familia", BOSS: "cartas de jefe", HIRE: "cartas de empleo", STOP: "cartas de parada"}
_KIND_SECTIONS = {
    FAMILY: (FAMILIA_JEFE, FAMILIA_COLOCADA),
    TRAVEL: (VIAJE,),
    BOSS: (JEFE,),
    HIRE: (EMPLEO,),
    STOP: (PARADA,),
}


def _part_name(kind: str, hue: str | None) -> str:
    if kind == TRAVEL:
        return "cartas de viaje grises" if hue == GREY else f"cartas de viaje de color {hue}"
    return f"cartas de la familia {fem(hue)}" if hue else _PART_NAMES[kind]


@register(
    "question",
    "cuenta-de-cartas",
    (COMP_INFLUENCIA, FAMILIA_JEFE, FAMILIA_COLOCADA, VIAJE, JEFE, EMPLEO, PARADA),
    draw_card_count,
)
def build_card_count(s: CardCount, rng: Rng) -> Item:
    """Card counting: how many cards of a kind can still be unseen, from the engine's card list."""
    total = sum(kind_total(kind, hue) for kind, hue, _, _ in s.parts)
    seen_count = sum(d + m for _, _, d, m in s.parts)
    seen = []
    for kind, hue, discarded, mine in s.parts:
        bits = []
        if discarded:
            bits.append(f"{count(discarded, 'está', 'están')} boca arriba en el montón de descarte")
        if mine:
            bits.append(f"tú tienes {mine} en la mano")
        told = join(bits) if bits else "no has visto ninguna"
        seen.append(f"de las {_part_name(kind, hue)}, {told}" if len(s.parts) > 1 else told)
    answer = total - seen_count
    sections = (COMP_INFLUENCIA, *_KIND_SECTIONS[s.parts[0][0]])
    return item(
        "question",
        "integer",
        f"Llevas la cuenta de las {s.what}. Hasta ahora, {'; '.join(seen)}; el mazo no se ha vuelto a formar y "
        "ninguna está sobre la mesa. ¿Cuántas puede haber, como máximo, entre las manos de los demás jugadores y "
        "el mazo?",
        answer,
        sections,
        "kind_total",
        f"El juego trae {total} {s.what}; descontando las que has visto ({seen_count}), quedan {answer} sin ver.",
    )


# --------------------------------------------------------------------------- deals, payouts and the end


@dataclass(frozen=True)
class Payout:
    """A deal closed with deal card ``card`` on top, on board space ``space``."""

    card: int
    space: int


def draw_payout(rng: Rng) -> Payout:
    """Pick a deal card and a board space from the engine's components."""
    return Payout(rng.choice(deal_cards()).number, rng.choice(spaces()).number)


@register("question", "pago-del-banquero", (PAGO, PAGO_EJEMPLO, TABLERO, PREP_INFLUENCIA), draw_payout)
def build_payout(s: Payout, rng: Rng) -> Item:
    """The banker's payout: a board space's dividends times the value on the top deal card."""
    dividends = spaces()[s.space - 1].dividends
    value = rules.dividend_value(s.card)
    payout = rules.banker_payout(s.card, dividends)
    return item(
        "question",
        "integer",
        f"Se completa la {ordinal(s.card)} transacción de la partida en la casilla {s.space}, que muestra "
        f"{dividends} dividendos. La carta de negociación de arriba del mazo indica que en esta transacción cada "
        f"dividendo vale {money(value)}. ¿Cuánto paga el banquero al jefe?",
        payout,
        (PAGO, PAGO_EJEMPLO, TABLERO, PREP_INFLUENCIA),
        "banker_payout",
        f"El banquero paga al jefe los dividendos de la casilla por el valor de uno: {dividends} × {money(value)} "
        f"= {money(payout)}.",
        unit="M",
    )


def back_clause(card_number: int) -> str:
    """Describe the back of deal card ``card_number`` (nothing for the last card, which the rulebook covers)."""
    card = deal_cards()[card_number - 1]
    if card.final:
        return ""
    if not card.end_numbers:
        return " En el reverso de esa carta de transacción no aparece ningún número."
    return (
        f" En el reverso de esa carta de transacción aparecen los números {join([str(n) for n in card.end_numbers])}."
    )


@dataclass(frozen=True)
class EndDie:
    """The deal just completed (its card is placed) and the roll the die would show."""

    card: int
    roll: int


def draw_end_die(rng: Rng) -> EndDie:
    """A quarter of the time a card with no numbers, a quarter the last card, half a card with numbers."""
    pick = rng.below(4)
    first_roll = next(c.number for c in deal_cards() if c.end_numbers)
    if pick == 0:
        card = 1 + rng.below(first_roll - 1)
    elif pick == 1:
        card = len(deal_cards())
    else:
        card = first_roll + rng.below(len(deal_cards()) - first_roll)
    return EndDie(card, 1 + rng.below(die_faces()))


@register("question", "dado-de-fin", (DADO_FIN, DADO_FIN_EJEMPLO, EJEMPLO_FIN), draw_end_die)
def build_end_die(s: EndDie, rng: Rng) -> Item:
    """What happens for the end of the game after the n-th deal, from the engine's deal cards."""
    outcome = rules.end_outcome(s.card, s.roll)
    sections = [DADO_FIN]
    sections += [DADO_FIN_EJEMPLO] if s.card == 11 else []
    sections += [EJEMPLO_FIN] if s.card == 13 else []
    return choice_item(
        rng,
        "question",
        f"Se acaba de completar la {ordinal(s.card)} transacción de la partida (reglas estándar) y su carta de "
        f"transacción ya está colocada en el tablero.{back_clause(s.card)} Si el jefe tira el dado, sale un "
        f"{s.roll}. ¿Qué ocurre?",
        outcome,
        [o for o in rules.END_OUTCOMES if o != outcome],
        sections,
        "end_outcome",
        "A partir del décimo acuerdo el jefe tira el dado y la partida termina si sale un número del reverso de la "
        "carta de transacción; tras la decimoquinta termina sin tirarlo.",
    )


@dataclass(frozen=True)
class Skipped:
    """Players numbered 1 to ``players``; the turn's player starts a deal; boss cards by ``sequence``, in order."""

    players: int
    turn: int
    sequence: tuple[int, ...]


def draw_skipped(rng: Rng) -> Skipped:
    """Pick 3 to 6 players, the turn's player and one to three boss cards, none stopped."""
    players = 3 + rng.below(4)
    turn = 1 + rng.below(players)
    sequence: list[int] = []
    boss = turn
    for _ in range(1 + rng.below(3)):
        boss = rng.choice([p for p in range(1, players + 1) if p != boss])
        sequence.append(boss)
    return Skipped(players, turn, tuple(sequence))


@register("question", "turnos-omitidos", (JEFE, FIN_TURNO), draw_skipped)
def build_skipped(s: Skipped, rng: Rng) -> Item:
    """How many players lose their turn when boss cards move the deal round the table."""
    last = s.sequence[-1]
    answer = rules.turns_skipped(s.players, s.turn, last)
    who = (
        f"el jugador {s.sequence[0]} juega una carta de jefe"
        if len(s.sequence) == 1
        else f"juegan cartas de jefe, por este orden, los jugadores {join([str(p) for p in s.sequence])}"
    )
    return item(
        "question",
        "integer",
        f"{numbered_seating(s.players)}. Es el turno del jugador {s.turn}, que comienza una negociación. Durante "
        f"ella {who}; nadie usa cartas de parada, y el último jefe cierra la transacción. Con las reglas estándar, "
        "¿cuántos jugadores se quedan sin su turno en esta vuelta?",
        answer,
        (JEFE, FIN_TURNO),
        "turns_skipped",
        f"El turno continúa desde la persona a la izquierda de quien usó la última carta de jefe (el jugador {last}), "
        f"así que se omiten los turnos de {count(answer, 'jugador', 'jugadores')}.",
    )
