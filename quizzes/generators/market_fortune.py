"""Parametric questions and riddles of Market Fortune, computed from the rulebook's numbers.

The rules used (section ids in brackets): a card of Acciones ($) is worth 1M to 5M and
a Rendimiento (+R) +1M to +5M [cap-1]; an investment is 1 $ + 1 +R of the same logo
after a "+" on the Fortune die, worth $ + R, so 2M to 10M [cap-3, referencia-rapida/
valores-clave]; you keep 8 building cards between hand and investments [cap-2/
regla-8-cartas]; Fortuna is won with 4 investments and 25M or more, and a failed
declaration returns one investment to the hand [cap-2/condicion-de-victoria,
cap-5/declarar-victoria]; Campeonato adds the totals of won games up to 100M
[cap-6/campeonato]; group attacks are defended clockwise from the attacker
[cap-4/sistema-de-combate]; whoever rolls "−" at setup starts [cap-1/preparacion];
the market terms líder, ir de último and igual o más avanzado [cap-5/terminos-del-mercado].

The plain functions below are the rules arithmetic; hand-written riddles name them in
their ``computed`` field, and the generators build items from them. Each raises
``ValueError`` for a situation the rules do not allow, so no generator can ask about one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from club_agentes.engine.core.rng import Rng
from club_agentes.engine.market_fortune.components import RULEBOOK_NAMES
from club_agentes.quizzes.model import CHOICE_LETTERS, Item, ItemKind, generator

GAME = "market-fortune"
CARD_VALUES = range(1, 6)
INVESTMENT_MIN = 2
INVESTMENT_MAX = 10
INVESTMENTS_TO_WIN = 4
FORTUNA_TARGET = 25
CHAMPIONSHIP_TARGET = 100
BUILDING_CARDS = 8
NOBODY = "Nadie"
# A player holds 4 investments only in the instant before declaring victory (in Fortuna a
# failed declaration returns one), so situations between turns use 0 to 3 investments.
STEADY_MAX = INVESTMENTS_TO_WIN - 1
NAMES = ("Ana", "Beto", "Carla", "Darío", "Elena", "Fede", "Gabi", "Hugo")
# The colour table of the rulebook (market-fortune/cap-4/<colour>), colour -> card names, as the engine holds it.
STRATEGY_COLOURS: dict[str, tuple[str, ...]] = {colour.capitalize(): names for colour, names in RULEBOOK_NAMES.items()}
_COLOUR_SECTION = {"Roja": "roja", "Azul": "azul", "Verde": "verde", "Amarilla": "amarilla"}


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


def wins_fortuna(*values: int) -> bool:
    """Whether investment values (in millions) win in Fortuna: 4 investments and 25M or more.

    Raises:
        ValueError: an investment value outside 2..10.
    """
    _check_values(values)
    return len(values) == INVESTMENTS_TO_WIN and sum(values) >= FORTUNA_TARGET


def _check_values(values: Sequence[int]) -> None:
    for v in values:
        if not INVESTMENT_MIN <= v <= INVESTMENT_MAX:
            raise ValueError(f"an investment is worth 2M to 10M, not {v}M")


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
        ValueError: several players share the most investments (the text names no líder then).
    """
    top = max(counts.values())
    leaders = [n for n, c in counts.items() if c == top]
    if len(leaders) != 1:
        raise ValueError(f"{', '.join(leaders)} share the most investments; the text names one líder")
    return leaders[0]


def who_goes_last(counts: Mapping[str, int]) -> str:
    """Return who goes last (the fewest investments), or ``"Nadie"`` on a total tie.

    Raises:
        ValueError: a partial tie for the fewest (the text does not settle it).
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


# --------------------------------------------------------------------------- helpers for generators


def _money(v: int) -> str:
    return f"{v}M"


def _investments(n: int) -> str:
    """Return ``"1 inversión formada"`` or ``"<n> inversiones formadas"``."""
    return "1 inversión formada" if n == 1 else f"{n} inversiones formadas"


# The bonuses of green and yellow strategies count in Fortuna's 25M (ruling verdes-y-amarillas),
# so a riddle about the face values says that there are none.
NO_BONUS = "sin Estrategias verdes ni amarillas"


def _pair(a: int, r: int) -> str:
    return f"${a}M + +R{r}M"


def _choice(
    rng: Rng,
    prompt: str,
    correct: str,
    wrong: Sequence[str],
    sections: tuple[str, ...],
    explanation: str,
    kind: ItemKind,
) -> Item:
    """Build a choice item with ``correct`` and three ``wrong`` options in a seeded order."""
    options = [correct, *wrong]
    if len(options) != 4 or len(set(options)) != 4:
        raise ValueError(f"a choice needs four distinct options, got {options}")
    rng.shuffle(options)
    letter = CHOICE_LETTERS[options.index(correct)]
    return Item(
        id="",
        game=GAME,
        kind=kind,
        type="choice",
        prompt=prompt,
        answer=letter,
        sections=sections,
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
        sections=sections,
        unit=unit,
        explanation=explanation,
    )


def _random_pair(rng: Rng) -> tuple[int, int]:
    return 1 + rng.below(5), 1 + rng.below(5)


def _names(rng: Rng, k: int) -> list[str]:
    pool = list(NAMES)
    rng.shuffle(pool)
    return pool[:k]


# --------------------------------------------------------------------------- question generators

S_CAP3 = "market-fortune/cap-3"
S_CIERRE = "market-fortune/cap-5/cierre-del-mercado"
S_DECLARAR = "market-fortune/cap-5/declarar-victoria"
S_VICTORIA = "market-fortune/cap-2/condicion-de-victoria"
S_OCHO = "market-fortune/cap-2/regla-8-cartas"
S_TURNO = "market-fortune/cap-2/tu-turno"
S_ULTIMO = "market-fortune/cap-5/terminos-del-mercado/ir-de-ultimo"
S_LIDER = "market-fortune/cap-5/terminos-del-mercado/lider"
S_AVANZADO = "market-fortune/cap-5/terminos-del-mercado/igual-o-mas-avanzado"
S_PREPARACION = "market-fortune/cap-1/preparacion"
S_VALORES = "market-fortune/referencia-rapida/valores-clave"
S_CAMPEONATO = "market-fortune/cap-6/campeonato"
S_COMBATE = "market-fortune/cap-4/sistema-de-combate"
S_COMBATE_RR = "market-fortune/referencia-rapida/combate"
S_OPTIMIZACION = "market-fortune/cap-3/optimizacion-del-portafolio"


@generator(GAME, "question", "valor-de-inversion", (S_CAP3, S_CIERRE))
def gen_investment_value(rng: Rng) -> Item:
    """The value of one investment of a given $ and +R."""
    a, r = _random_pair(rng)
    return _integer(
        f"Juntas una Acción de {_money(a)} y un Rendimiento de +{_money(r)} del mismo logo y el Dado Fortune "
        "sale +. ¿Cuántos millones vale la inversión que formas?",
        investment_value(a, r),
        (S_CAP3, S_CIERRE),
        "El valor de cada inversión es Acción + Rendimiento.",
        "question",
        unit="M",
    )


@generator(GAME, "question", "total-del-portafolio", (S_CIERRE,))
def gen_portfolio_total(rng: Rng) -> Item:
    """The total of four investments given as $ + +R pairs."""
    pairs = [_random_pair(rng) for _ in range(4)]
    listed = "; ".join(_pair(a, r) for a, r in pairs)
    return _integer(
        f"Al declarar victoria volteas tus 4 inversiones: {listed}. ¿Cuántos millones suma tu portafolio?",
        portfolio_total(*pairs),
        (S_CIERRE,),
        "Se suma Acción + Rendimiento de cada inversión y luego los totales de las 4.",
        "question",
        unit="M",
    )


_OUTCOME_WIN = "Gana la partida"
_OUTCOME_BACK = "Regresa una inversión a su mano (la elige) y la partida sigue"
_OUTCOME_WRONG = ("Pierde todas sus inversiones", "Vuelve a lanzar el Dado Fortune")


@generator(GAME, "question", "resultado-de-declarar", (S_DECLARAR, S_VICTORIA))
def gen_declare_outcome(rng: Rng) -> Item:
    """What happens when a player declares victory in Fortuna with four given investments."""
    win = rng.below(2) == 0
    while True:
        pairs = [_random_pair(rng) for _ in range(4)]
        if wins_fortuna(*(a + r for a, r in pairs)) == win:
            break
    name = rng.choice(NAMES)
    listed = "; ".join(_pair(a, r) for a, r in pairs)
    correct = _OUTCOME_WIN if win else _OUTCOME_BACK
    wrong = [_OUTCOME_BACK if win else _OUTCOME_WIN, *_OUTCOME_WRONG]
    return _choice(
        rng,
        f"En modo Fortuna, {name}, {NO_BONUS}, forma su 4.ª inversión, declara victoria y voltea: {listed}. "
        "¿Qué ocurre?",
        correct,
        wrong,
        (S_DECLARAR, S_VICTORIA),
        f"El portafolio suma {portfolio_total(*pairs)}M; se gana con 4 inversiones y 25M o más.",
        "question",
    )


@generator(GAME, "question", "cartas-en-mano", (S_OCHO,))
def gen_cards_in_hand(rng: Rng) -> Item:
    """Building cards in hand with k investments formed."""
    k = rng.below(5)
    return _integer(
        f"Tienes {_investments(k)}. Según la regla de las 8 cartas, ¿cuántas cartas de construcción tienes en la mano?",
        building_cards_in_hand(k),
        (S_OCHO,),
        "Cada inversión tiene 2 cartas de construcción y entre mano e inversiones siempre hay 8.",
        "question",
    )


@generator(GAME, "question", "mano-tras-arriesgar", (S_TURNO, S_OCHO))
def gen_hand_after_risk(rng: Rng) -> Item:
    """Building cards in hand after Arriesgar, by the die's face."""
    k = rng.below(4)
    face = "+" if rng.below(2) == 0 else "−"
    return _integer(
        f"Tienes {_investments(k)} y 8 − {2 * k} = {8 - 2 * k} cartas de construcción en la mano. "
        f"Arriesgas con un $ y un +R del mismo logo y el Dado Fortune sale {face}. ¿Cuántas cartas de "
        "construcción tienes ahora en la mano?",
        hand_after_risk(k, face),
        (S_TURNO, S_OCHO),
        "Con + las dos cartas quedan boca abajo como inversión; con − la inversión falla y regresan a tu mano.",
        "question",
    )


@generator(GAME, "question", "quien-va-de-ultimo", (S_ULTIMO,))
def gen_who_goes_last(rng: Rng) -> Item:
    """Who goes last among three players (a unique fewest, or a total tie: nobody)."""
    names = _names(rng, 3)
    if rng.below(4) == 0:
        counts = dict.fromkeys(names, rng.below(STEADY_MAX + 1))
    else:
        low = rng.below(STEADY_MAX)
        span = STEADY_MAX - low
        counts = {names[0]: low, names[1]: low + 1 + rng.below(span), names[2]: low + 1 + rng.below(span)}
    order = list(names)
    rng.shuffle(order)
    listed = ", ".join(f"{n} tiene {counts[n]}" for n in order)
    correct = who_goes_last(counts)
    wrong = [n for n in order if n != correct] + ([NOBODY] if correct != NOBODY else [])
    return _choice(
        rng,
        f"Inversiones formadas: {listed}. Según los términos del mercado, ¿quién va de último?",
        correct,
        wrong,
        (S_ULTIMO,),
        "Va de último quien tiene menos inversiones; con empate total, nadie lo es.",
        "question",
    )


@generator(GAME, "question", "quien-es-lider", (S_LIDER,))
def gen_who_leads(rng: Rng) -> Item:
    """Who is the líder among three players (a unique most)."""
    names = _names(rng, 3)
    top = 1 + rng.below(STEADY_MAX)
    counts = {names[0]: top, names[1]: rng.below(top), names[2]: rng.below(top)}
    order = list(names)
    rng.shuffle(order)
    listed = ", ".join(f"{n} tiene {counts[n]}" for n in order)
    correct = who_leads(counts)
    wrong = [n for n in order if n != correct] + [NOBODY]
    return _choice(
        rng,
        f"Inversiones formadas: {listed}. Según los términos del mercado, ¿quién es el líder?",
        correct,
        wrong,
        (S_LIDER,),
        "El líder es el jugador con más inversiones formadas.",
        "question",
    )


@generator(GAME, "question", "igual-o-mas-avanzados", (S_AVANZADO,))
def gen_equal_or_more(rng: Rng) -> Item:
    """How many rivals are "igual o más avanzado" than you."""
    mine = rng.below(STEADY_MAX + 1)
    names = _names(rng, 2 + rng.below(4))
    counts = {n: rng.below(STEADY_MAX + 1) for n in names}
    listed = ", ".join(f"{n} tiene {c}" for n, c in counts.items())
    return _integer(
        f"Tienes {_investments(mine)}. Tus rivales: {listed}. ¿Cuántos rivales son «igual o más avanzado» que tú?",
        equal_or_more_advanced(mine, list(counts.values())),
        (S_AVANZADO,),
        "Es igual o más avanzado quien tiene el mismo número de inversiones que tú o más.",
        "question",
    )


@generator(GAME, "question", "primer-jugador", (S_PREPARACION,))
def gen_first_player(rng: Rng) -> Item:
    """Who starts, given the setup rolls (exactly one "−")."""
    names = _names(rng, 4)
    starter = names[rng.below(4)]
    rolls = {n: ("−" if n == starter else "+") for n in names}
    listed = ", ".join(f"{n} saca {rolls[n]}" for n in names)
    correct = first_player(rolls)
    return _choice(
        rng,
        f"Al preparar la partida todos lanzan el Dado Fortune: {listed}. ¿Quién comienza?",
        correct,
        [n for n in names if n != correct],
        (S_PREPARACION,),
        "Quien saque − comienza; después se juega en sentido horario.",
        "question",
    )


# Situations of one turn (Spanish), each an instance of one action of the table in cap-2/tu-turno.
_ACTION_SCENES: tuple[tuple[str, str], ...] = (
    ("Construir", "Tomas la carta superior del descarte de {deck} ({v}M) y descartas un {other} de tu mano."),
    ("Construir", "Tomas 1 carta del mazo {deck} y descartas 1 carta {other}."),
    ("Arriesgar", "Juntas un $ de {v}M y un +R de {w}M del mismo logo, las ocultas y lanzas el Dado Fortune."),
    ("Dominar", "Tomas 1 Estrategia del mazo y no descartas nada; tienes {invs}."),
)


@generator(GAME, "question", "accion-del-turno", (S_TURNO,))
def gen_turn_action(rng: Rng) -> Item:
    """Which of the three actions a described turn is."""
    action, scene = rng.choice(_ACTION_SCENES)
    deck = rng.choice(("$", "+R"))
    v = 1 + rng.below(4)
    text = scene.format(deck=deck, other=rng.choice(("$", "+R")), v=v, w=1 + rng.below(5), invs=_investments(v))
    return Item(
        id="",
        game=GAME,
        kind="question",
        type="term",
        prompt=f"En tu turno haces esto: «{text}» ¿Qué acción del turno has hecho?",
        answer=action,
        sections=(S_TURNO,),
        vocabulary="acciones",
        explanation="En tu turno haces una de tres acciones: Construir, Arriesgar o Dominar.",
    )


_COLOUR_SECTIONS = tuple(f"market-fortune/cap-4/{s}" for s in _COLOUR_SECTION.values())


@generator(GAME, "question", "color-de-estrategia", _COLOUR_SECTIONS)
def gen_strategy_colour(rng: Rng) -> Item:
    """The colour of a strategy card named in the colour table."""
    cards = [c for group in STRATEGY_COLOURS.values() for c in group]
    card = rng.choice(cards)
    colour = strategy_colour(card)
    return Item(
        id="",
        game=GAME,
        kind="question",
        type="term",
        prompt=f"Según la tabla de colores de las Estrategias, ¿de qué color es la carta «{card}»?",
        answer=colour,
        sections=(f"market-fortune/cap-4/{_COLOUR_SECTION[colour]}",),
        vocabulary="colores",
        explanation=f"La tabla del capítulo IV pone {card} en la fila {colour}.",
    )


# --------------------------------------------------------------------------- riddle generators


@generator(GAME, "riddle", "cuarta-inversion-minima", (S_VICTORIA, S_VALORES))
def gen_least_fourth(rng: Rng) -> Item:
    """The least value the fourth investment needs for 25M, given three investments."""
    while True:
        three = [INVESTMENT_MIN + rng.below(INVESTMENT_MAX - INVESTMENT_MIN + 1) for _ in range(3)]
        if sum(three) >= FORTUNA_TARGET - INVESTMENT_MAX:
            break
    listed = ", ".join(_money(v) for v in three)
    return _integer(
        f"En modo Fortuna, {NO_BONUS}, tienes tres inversiones que valen {listed}. ¿Cuál es el menor valor, "
        "en millones, que puede tener tu cuarta inversión para que ganes al declarar victoria?",
        least_fourth_value(*three),
        (S_VICTORIA, S_VALORES),
        "Se necesitan 25M o más con 4 inversiones, y una inversión vale como mínimo 2M.",
        "riddle",
        unit="M",
    )


@generator(GAME, "riddle", "campeonato-faltan", (S_CAMPEONATO,))
def gen_championship(rng: Rng) -> Item:
    """The millions still missing in Campeonato after some won games."""
    while True:
        k = 1 + rng.below(3)
        won = [FORTUNA_TARGET + rng.below(16) for _ in range(k)]
        if sum(won) < CHAMPIONSHIP_TARGET:  # at 100M or more the championship is already won
            break
    if k == 1:
        games = f"una partida con un total de {_money(won[0])}"
    else:
        games = f"{k} partidas con totales de {', '.join(_money(v) for v in won[:-1])} y {_money(won[-1])}"
    return _integer(
        f"En modo Campeonato has ganado {games}. ¿Cuántos millones te faltan para llegar a los 100M?",
        championship_missing(*won),
        (S_CAMPEONATO,),
        "En Campeonato se suman los totales de cada partida ganada; gana el primero en llegar a 100M o pasarlos.",
        "riddle",
        unit="M",
    )


@generator(GAME, "riddle", "orden-de-defensas", (S_COMBATE, S_COMBATE_RR))
def gen_defence_order(rng: Rng) -> Item:
    """Who defends in a given position against a group attack (clockwise from the attacker)."""
    seats = _names(rng, 4)
    attacker = rng.choice(seats)
    position = rng.below(3)
    ordinal = ("primer", "segundo", "tercer")[position]
    correct = defence_order(seats, attacker)[position]
    return _choice(
        rng,
        f"Sentados en sentido horario: {', '.join(seats)}. {attacker} juega en su turno una roja que ataca a "
        f"todos sus rivales. ¿Quién resuelve su defensa en {ordinal} lugar?",
        correct,
        [n for n in seats if n != correct],
        (S_COMBATE, S_COMBATE_RR),
        "En ataques grupales las defensas se resuelven en sentido horario desde el atacante.",
        "riddle",
    )


@generator(GAME, "riddle", "optimizacion", (S_OPTIMIZACION, S_CIERRE))
def gen_optimisation(rng: Rng) -> Item:
    """An investment's value after optimising one of its cards."""
    a, r = _random_pair(rng)
    swapped = rng.choice(("$", "+R"))
    old = a if swapped == "$" else r
    new = rng.choice([v for v in CARD_VALUES if v != old])
    label = "Acción ($)" if swapped == "$" else "Rendimiento (+R)"
    return _integer(
        f"Tu inversión es {_pair(a, r)}. Optimizas el portafolio: intercambias su {label} por una carta del "
        f"mismo tipo y del mismo logo de tu mano que vale {_money(new)}. ¿Cuántos millones vale ahora la inversión?",
        optimized_value(a, r, swapped, new),
        (S_OPTIMIZACION, S_CIERRE),
        "Se intercambia una carta del mismo tipo; el valor de la inversión es Acción + Rendimiento.",
        "riddle",
        unit="M",
    )


@generator(GAME, "riddle", "secuencia-de-turnos", (S_TURNO, S_OCHO))
def gen_turn_sequence(rng: Rng) -> Item:
    """Building cards in hand after a sequence of turns (Arriesgar with a die face, Construir, Dominar)."""
    formed = 0
    steps: list[str] = []
    for _ in range(3 + rng.below(3)):
        options = ["Construir", "Dominar"] + (["Arriesgar"] * 2 if formed < INVESTMENTS_TO_WIN - 1 else [])
        action = rng.choice(options)
        if action == "Arriesgar":
            face = "+" if rng.below(3) < 2 else "−"
            formed += 1 if face == "+" else 0
            steps.append(f"Arriesgar (el dado sale {face})")
        else:
            steps.append(action)
    listed = "; ".join(f"turno {i + 1}: {s}" for i, s in enumerate(steps))
    return _integer(
        "Empiezas la partida con 8 cartas de construcción en la mano y ninguna inversión; cuando Arriesgas "
        f"siempre tienes un $ y un +R del mismo logo. Tus turnos: {listed}. ¿Cuántas cartas de construcción "
        "tienes en la mano al final?",
        building_cards_in_hand(formed),
        (S_TURNO, S_OCHO),
        "Solo un Arriesgar con dado + baja 2 cartas; Construir toma 1 y descarta 1; Dominar no toca la mano.",
        "riddle",
    )
