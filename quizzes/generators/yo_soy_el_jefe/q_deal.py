"""Entry questions on negotiating, the influence cards, closing or failing a deal, and money (Yo soy el jefe).

As in :mod:`.q_turn`: a situation maker per generator (kept in :data:`.common.SITUATIONS`),
a builder that states the whole situation, answers read from a real table where the
engine can be asked and otherwise computed by the named rule functions of :mod:`.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

from club_agentes.engine.core.rng import Rng
from club_agentes.engine.yo_soy_el_jefe.components import FAMILY
from club_agentes.quizzes.generators.yo_soy_el_jefe import rules
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import (
    TABLE_SEEDS,
    choice_item,
    item,
    name_options,
    register,
)
from club_agentes.quizzes.generators.yo_soy_el_jefe.facts import colours, deal_cards, rule_numbers, spaces
from club_agentes.quizzes.generators.yo_soy_el_jefe.q_turn import investor_words, needs_words
from club_agentes.quizzes.generators.yo_soy_el_jefe.table import Table
from club_agentes.quizzes.generators.yo_soy_el_jefe.words import (
    BANQUERO,
    CIERRE,
    CIERRE_CARTAS,
    COMP_OTROS,
    CONTRAPRESTACION,
    DOS_JUGADORES,
    DOS_PARA_TODOS,
    EJEMPLO_CIERRE,
    EJEMPLO_CONTRATACION,
    EJEMPLO_FAMILIAS,
    EJEMPLO_INICIO,
    EJEMPLO_JEFES,
    EMPLEO,
    FAMILIA_COLOCADA,
    FAMILIA_JEFE,
    FRACASO,
    INFLUENCIA,
    INVERSORES_JEFE,
    JEFE,
    NEGOCIACION,
    NEGOCIAR,
    NEGOCIAR_CON_OTROS,
    PAGO,
    PARADA,
    PARTICIPACION,
    PREP_INVERSORES,
    R_COMPOSICION,
    R_DOS,
    R_MOMENTO_PARADA,
    R_PROMESAS,
    R_REPARTO,
    R_VARIANTES,
    TABLERO,
    V_PARTICIPANTES,
    VIAJE,
    G,
    boss_word,
    capital,
    count,
    fem,
    join,
    money,
    ordinal,
    people,
)
from club_agentes.quizzes.model import Item

EXAMPLE_CARDS = f"{G}/6-ejemplos/pago-y-cartas"


def _families(placed: tuple[str, ...]) -> str:
    return f"{'una carta de familia' if len(placed) == 1 else 'cartas de familia'} {join([fem(c) for c in placed])}"


def _shuffled(rng: Rng, items: list) -> list:
    out = list(items)
    rng.shuffle(out)
    return out


# --------------------------------------------------------------------------- gathering the investors


@dataclass(frozen=True)
class Missing:
    """A real table: the boss's investors and the family cards it placed on a space; the engine's covered colours."""

    players: int
    names: tuple[str, ...]
    space: int
    seed: int
    boss: int
    owned: tuple[str, ...]
    placed: tuple[str, ...]
    covered: tuple[str, ...]


def draw_missing(rng: Rng) -> Missing:
    """Start a deal on a real table; the boss places some of its family cards of the colours still needed."""
    players = 3 + rng.below(4)
    names = tuple(people(rng, players))
    space = rng.choice(spaces())
    seed = rng.below(TABLE_SEEDS)
    table = Table(players, seed, {"first_player": rng.below(players), "marker_start": space.number})
    boss = table.negotiate()
    view = table.view(boss)
    owned = tuple(view["players"][boss]["investors"])
    in_hand = {k["colour"] for k in view["hand"] if k["kind"] == FAMILY}
    families = _shuffled(rng, [c for c in space.colours if c not in owned and c in in_hand])
    chosen = set(families[: rng.below(len(families) + 1)])
    placed = tuple(c for c in colours() if c in chosen)
    for colour in placed:
        table.until(boss, f"family {colour}")
    group = table.view()["negotiation"]["group_if_closed_now"]
    covered = tuple(c for c in colours() if any(p["seat"] == boss and p["colour"] == c for p in group))
    return Missing(players, names, space.number, seed, boss, owned, placed, covered)


@register(
    "question",
    "inversores-que-faltan",
    (NEGOCIAR, INVERSORES_JEFE, FAMILIA_JEFE, NEGOCIAR_CON_OTROS, TABLERO, EJEMPLO_INICIO, EJEMPLO_FAMILIAS),
    draw_missing,
)
def build_missing(s: Missing, rng: Rng) -> Item:
    """How many more investors the boss needs after its own investors and family cards (the engine's group)."""
    answer = rules.missing_investors(s.space, s.covered)
    name = s.names[s.boss]
    lays = f" y coloca {_families(s.placed)}" if s.placed else ", y no coloca ninguna carta de familia"
    return item(
        "question",
        "integer",
        f"Partida de {s.players} jugadores. La casilla {s.space} del tablero muestra "
        f"{spaces()[s.space - 1].dividends} dividendos y {needs_words(s.space)}. {name} dice «¡Vamos a negociar!» "
        f"en ella. {name} tiene frente a sí {investor_words(s.owned)}{lays}. ¿Cuántos inversores más necesita "
        f"reunir {name} para completar la negociación?",
        answer,
        (NEGOCIAR, INVERSORES_JEFE, FAMILIA_JEFE, NEGOCIAR_CON_OTROS, TABLERO, EJEMPLO_INICIO)
        + ((EJEMPLO_FAMILIAS,) if s.placed else ()),
        "missing_investors",
        "Los inversores del jefe se consideran de acuerdo automáticamente y sus cartas de familia sustituyen a los "
        f"inversores del mismo color; para lo que pide la casilla le faltan {answer}, que tendrá que negociar con "
        "otros jugadores.",
    )


@dataclass(frozen=True)
class Opponent:
    """A real table with the two-player rules (two seats, or three by the variant): everyone's investors, the
    boss's placed family cards, and how many other seats' investor cards the engine uses at the close."""

    names: tuple[str, ...]
    space: int
    seed: int
    boss: int
    held: tuple[tuple[str, ...], ...]
    placed: tuple[str, ...]
    forced: int

    @property
    def owned(self) -> tuple[str, ...]:
        """The boss's own investors."""
        return self.held[self.boss]


def draw_opponent(rng: Rng) -> Opponent:
    """Start a deal on a real table with the two-player rules; the boss places some family cards; read the group."""
    seats = 3 if rng.below(3) == 0 else 2
    names = tuple(people(rng, seats))
    space = rng.choice(spaces())
    seed = rng.below(TABLE_SEEDS)
    options = {"first_player": rng.below(seats), "marker_start": space.number, "two_player_rules": True}
    table = Table(seats, seed, options)
    boss = table.negotiate()
    view = table.view(boss)
    held = tuple(tuple(p["investors"]) for p in view["players"])
    in_hand = {k["colour"] for k in view["hand"] if k["kind"] == FAMILY}
    families = _shuffled(rng, [c for c in space.colours if c not in held[boss] and c in in_hand])
    chosen = set(families[: rng.below(len(families) + 1)])
    placed = tuple(c for c in colours() if c in chosen)
    for colour in placed:
        table.until(boss, f"family {colour}")
    group = table.view()["negotiation"]["group_if_closed_now"]
    forced = sum(1 for p in group if p["as"] == "forced")
    return Opponent(names, space.number, seed, boss, held, placed, forced)


@register(
    "question",
    "inversores-ajenos-necesarios",
    (DOS_JUGADORES, DOS_PARA_TODOS, R_DOS, INVERSORES_JEFE, FAMILIA_JEFE),
    draw_opponent,
)
def build_opponent(s: Opponent, rng: Rng) -> Item:
    """The two-player rules: how many of the other seats' investor cards the boss must use (the engine's count)."""
    boss = s.names[s.boss]
    others = [i for i in range(len(s.names)) if i != s.boss]
    holdings = "; ".join(f"{s.names[i]}, {investor_words(s.held[i])}" for i in others)
    lays = f" y coloca {_families(s.placed)}" if s.placed else ", sin colocar ninguna carta de familia"
    if len(s.names) == 2:
        head = "Partida de dos jugadores, con las reglas para dos jugadores."
        whose = f"de {s.names[others[0]]}"
        sections: tuple[str, ...] = (DOS_JUGADORES, R_DOS, INVERSORES_JEFE, FAMILIA_JEFE)
    else:
        head = "Partida de tres jugadores que, para tener menos competencia, juegan con las reglas para dos jugadores."
        whose = "de los otros jugadores"
        sections = (DOS_JUGADORES, DOS_PARA_TODOS, R_DOS, INVERSORES_JEFE, FAMILIA_JEFE)
    return item(
        "question",
        "integer",
        f"{head} {boss} tiene {investor_words(s.owned)}; {holdings}. La casilla {s.space} del tablero "
        f"{needs_words(s.space)}. {boss} comienza una negociación en ella{lays}. ¿Cuántas cartas de inversor {whose} "
        f"tiene que usar {boss}, como mínimo, para completar la transacción?",
        s.forced,
        sections,
        "missing_investors",
        "Con las reglas para dos jugadores el jefe puede usar los inversores del oponente sin su consentimiento; "
        f"solo le hacen falta los que no cubren sus inversores ni sus cartas de familia: {s.forced}.",
    )


@dataclass(frozen=True)
class Candidate:
    """A player who is not the boss, as far as one colour is concerned."""

    name: str
    investor: str | None  # the investor card it holds (its own colour), if any
    travelled: bool  # a travel card lies on that investor card
    families: tuple[str, ...]  # family cards of these colours in its hand
    travels: tuple[str, ...]  # travel cards of these colours in its hand
    lost: bool  # it held the target colour's investor, taken by a hire set


@dataclass(frozen=True)
class TakePart:
    """A negotiation asking for ``target``; four candidates (``right`` is the one who can offer it)."""

    boss: str
    player: str  # who played the travel card or the hire set that the descriptions mention
    target: str
    candidates: tuple[Candidate, ...]
    right: int


def draw_take_part(rng: Rng) -> TakePart:
    """Make one player able to offer the colour (investor, or a family card) and three unable, in varied ways."""
    boss, player, *names = people(rng, 6)
    target, *rest = _shuffled(rng, list(colours()))
    kind = rng.below(3)
    if kind == 0:
        right = Candidate(names[0], target, False, (), (), False)
        pool = ["fam", "travel", "inv"]
    elif kind == 1:
        right = Candidate(names[0], target, True, (target,), (), False)
        pool = ["fam", "travel", "inv"]
    else:
        right = Candidate(names[0], None, False, (target,), (), False)
        pool = ["fam", "travel", "inv", rng.choice(["travelled", "lost"])]
    rng.shuffle(pool)
    cands = [right]
    for name, what, other in zip(names[1:], pool[:3], rest, strict=False):
        if what == "fam":
            cands.append(Candidate(name, None, False, (other,), (), False))
        elif what == "travel":
            cands.append(Candidate(name, other, False, (), (target,), False))
        elif what == "inv":
            cands.append(Candidate(name, other, False, (), (), False))
        elif what == "travelled":
            cands.append(Candidate(name, target, True, (), (), False))
        else:
            cands.append(Candidate(name, None, False, (), (), True))
    order = list(range(4))
    rng.shuffle(order)
    shuffled = tuple(cands[i] for i in order)
    return TakePart(boss, player, target, shuffled, order.index(0))


def _candidate_words(c: Candidate, s: TakePart) -> str:
    t = s.target
    if c.lost:
        return f"{c.name} tenía el inversor {t}, pero {s.player} se lo llevó antes con un conjunto de cartas de empleo"
    if c.investor == t and c.travelled:
        text = f"{s.player} jugó una carta de viaje sobre el inversor {t} de {c.name} y nadie la paró"
        if c.families:
            return text + f", pero {c.name} tiene en la mano una carta de familia {fem(t)}"
        return text + f"; {c.name} no tiene cartas de familia {fem(t)}"
    if c.investor == t:
        return f"{c.name} tiene frente a sí el inversor {t}"
    if c.families == (t,):
        return f"{c.name} no tiene el inversor {t}, pero guarda en la mano una carta de familia {fem(t)}"
    if c.families:
        return f"{c.name} tiene en la mano una carta de familia {fem(c.families[0])}, pero ninguna {fem(t)}"
    if c.travels:
        return f"{c.name} tiene en la mano una carta de viaje {fem(t)} y frente a sí el inversor {c.investor}"
    return f"{c.name} tiene frente a sí el inversor {c.investor}"


@register("question", "quien-puede-participar", (PARTICIPACION, NEGOCIACION, VIAJE, EMPLEO), draw_take_part)
def build_take_part(s: TakePart, rng: Rng) -> Item:
    """Which player can propose a colour to the boss: an investor card not travelled, or a family card."""
    answer = s.candidates[s.right].name
    text = "; ".join(_candidate_words(c, s) for c in s.candidates)
    assert [
        rules.can_take_part(c.investor == s.target and not c.lost, c.travelled, s.target in c.families)
        for c in s.candidates
    ].count(True) == 1
    lost = any(c.lost for c in s.candidates)
    return choice_item(
        rng,
        "question",
        f"{s.boss} es {boss_word(s.boss)} de una negociación en una casilla que pide, entre otros, el inversor "
        f"{s.target}. {capital(text)}. ¿Cuál de estos jugadores puede proponer a {s.boss} participar en la "
        f"negociación aportando el color {s.target}?",
        answer,
        [c.name for c in s.candidates if c.name != answer],
        (PARTICIPACION, NEGOCIACION, VIAJE, *((EMPLEO,) if lost else ())),
        "can_take_part",
        "Pueden negociar con el jefe quienes tienen la carta de inversor necesaria frente a ellos (sin un viaje "
        f"encima) o una carta de la familia de ese color: {answer}.",
    )


# --------------------------------------------------------------------------- influence cards


@dataclass(frozen=True)
class HireChoice:
    """The investor cards as dealt, an earlier hire set that took one from beside the board, and the hirer."""

    players: int
    names: tuple[str, ...]
    dealt: tuple[tuple[str, str | None], ...]  # (colour, holder or None beside the board)
    earlier: tuple[str, str] | None  # (taker, colour taken from beside the board)
    hirer: str


def draw_hire_choice(rng: Rng) -> HireChoice:
    """Deal the investor cards for 3 to 6 players; sometimes one was already hired from beside the board."""
    players = 3 + rng.below(4)
    names = tuple(people(rng, players))
    each = rules.investor_cards_each(players)
    pool = _shuffled(rng, list(colours()))
    holders: dict[str, str | None] = dict.fromkeys(colours())
    for i, colour in enumerate(pool[: each * players]):
        holders[colour] = names[i % players]
    hirer = rng.choice(names)
    left = [c for c in colours() if holders[c] is None]
    earlier = None
    if left and rng.below(2):
        earlier = (rng.choice([n for n in names if n != hirer]), rng.choice(left))
    return HireChoice(players, names, tuple(holders.items()), earlier, hirer)


@register("question", "empleo-elecciones", (EMPLEO, PREP_INVERSORES, R_REPARTO, COMP_OTROS), draw_hire_choice)
def build_hire_choice(s: HireChoice, rng: Rng) -> Item:
    """Among how many investor cards a hire set lets a player choose (cards beside the board come first)."""
    holders = dict(s.dealt)
    dealt = "; ".join(f"{n}, {join([c for c in colours() if holders[c] == n])}" for n in s.names)
    left = [c for c in colours() if holders[c] is None]
    side = ""
    if left:
        side = (
            f"; al lado del tablero {'quedó el inversor' if len(left) == 1 else 'quedaron los inversores'} {join(left)}"
        )
    earlier = ""
    if s.earlier is not None:
        taker, taken = s.earlier
        earlier = (
            f" Hace unos turnos, {taker} usó un conjunto de cartas de empleo y se llevó el inversor {taken}, que "
            "estaba al lado del tablero."
        )
        holders[taken] = taker
    answer = rules.hire_choices(s.hirer, holders)
    return item(
        "question",
        "integer",
        f"Partida de {s.players} jugadores. Al preparar la partida, las cartas de inversor se repartieron así: "
        f"{dealt}{side}.{earlier} Ahora {s.hirer} juega un conjunto de {rule_numbers().hire_set} cartas de empleo y "
        "nadie lo para. ¿Entre cuántas cartas de inversor puede elegir la que se lleva?",
        answer,
        (EMPLEO, PREP_INVERSORES, R_REPARTO, COMP_OTROS),
        "hire_choices",
        "Mientras queden cartas de inversor al lado del tablero hay que tomar una de esas; si no queda ninguna, se "
        f"puede robar la de cualquier otro jugador: {answer}.",
    )


FAMILY_PLACED = rules.FAMILY_PLACED
OFFER = rules.OFFER


@dataclass(frozen=True)
class Play:
    """One play in a negotiation: ``kind`` (a :mod:`.rules` play kind, or a family card, an offer, a stop)."""

    kind: str
    player: str
    owner: str  # whose investor or family card it aims at (empty when none)
    colour: str
    amount: int  # for an offer
    stopped_by: str  # who cancelled it with a stop card (empty when nobody did)


def _play_words(p: Play) -> str:
    stop = f", y {p.stopped_by} la cancela con una carta de parada" if p.stopped_by else ""
    if p.kind == rules.TRAVEL_ON_INVESTOR:
        return f"{p.player} juega una carta de viaje sobre el inversor {p.colour} de {p.owner}" + (
            stop or ", y nadie la para"
        )
    if p.kind == rules.TRAVEL_ON_FAMILY:
        return f"{p.player} juega una carta de viaje sobre la carta de familia {fem(p.colour)} que colocó {p.owner}" + (
            stop or ", y nadie la para"
        )
    if p.kind == rules.HIRE_SET:
        text = f"{p.player} juega un conjunto de cartas de empleo para llevarse el inversor {p.colour} de {p.owner}"
        return text + (stop.replace("la cancela", "lo cancela") or ", y nadie lo para")
    if p.kind == rules.BOSS_CARD:
        return f"{p.player} juega una carta de jefe" + (stop or ", y nadie la para")
    if p.kind == FAMILY_PLACED:
        return f"{p.player} coloca una carta de familia {fem(p.colour)} para participar"
    return f"{p.player} ofrece al jefe su inversor {p.colour} por {money(p.amount)}"


def _random_plays(
    rng: Rng, names: list[str], kinds: tuple[str, ...], low: int, high: int
) -> tuple[tuple[tuple[str, str], ...], tuple[Play, ...]]:
    """Tell ``low`` to ``high`` plays of ``kinds`` in a negotiation of six players, ``names[0]`` the boss.

    Each player holds one investor card; every play is one the rules allow at that point
    (a travel card on an investor not travelled yet or on a family card still on the
    table, a hire set aimed at another player's investor, a boss card by a player who is
    not the boss, an offer by the holder of that investor), and half the travel cards,
    boss cards and hire sets are cancelled by another player's stop card. Returns who held
    each investor card before the plays, and the plays.
    """
    owner = dict(zip(_shuffled(rng, list(colours())), names, strict=True))
    first = tuple(owner.items())
    boss = names[0]
    travelled: set[str] = set()
    placed: list[tuple[str, str]] = []
    plays: list[Play] = []
    for _ in range(200):
        if len(plays) >= high or (len(plays) >= low and rng.below(3) == 0):
            break
        kind = rng.choice(kinds)
        player = rng.choice(names)
        stopper = rng.choice([n for n in names if n != player])
        stopped = stopper if kind in rules.STOPPABLE and rng.below(2) == 0 else ""
        target, colour = "", ""
        if kind == rules.TRAVEL_ON_INVESTOR:
            free = [c for c in colours() if c not in travelled and owner[c] != player]
            colour = rng.choice(free)
            target = owner[colour]
            if not stopped:
                travelled.add(colour)
        elif kind == rules.TRAVEL_ON_FAMILY:
            aims = [p for p in placed if p[0] != player]
            if not aims:
                continue
            target, colour = rng.choice(aims)
            if not stopped:
                placed.remove((target, colour))
        elif kind == rules.HIRE_SET:
            colour = rng.choice([c for c in colours() if owner[c] != player])
            target = owner[colour]
            if not stopped:
                owner[colour] = player
        elif kind == rules.BOSS_CARD:
            if player == boss:
                continue
            if not stopped:
                boss = player
        elif kind == FAMILY_PLACED:
            colour = rng.choice(colours())
            if (player, colour) in placed:
                continue
            placed.append((player, colour))
        else:
            offers = [c for c in colours() if owner[c] != boss and c not in travelled]
            if not offers:
                continue
            colour = rng.choice(offers)
            player = owner[colour]
        plays.append(Play(kind, player, target, colour, 2 + rng.below(9), stopped))
    return first, tuple(plays)


@dataclass(frozen=True)
class Stoppable:
    """A negotiation of 6 players (``names[0]`` the boss): the deal's number, the investors, the plays in order."""

    names: tuple[str, ...]
    deal: int
    owners: tuple[tuple[str, str], ...]
    plays: tuple[Play, ...]

    @property
    def boss(self) -> str:
        """The boss of the negotiation."""
        return self.names[0]


_ALL_PLAYS = (
    rules.TRAVEL_ON_INVESTOR,
    rules.TRAVEL_ON_FAMILY,
    rules.HIRE_SET,
    rules.BOSS_CARD,
    FAMILY_PLACED,
    OFFER,
)


def draw_stoppable(rng: Rng) -> Stoppable:
    """Draw four to six plays of every kind."""
    names = people(rng, 6)
    deal = 1 + rng.below(15)
    return Stoppable(tuple(names), deal, *_random_plays(rng, names, _ALL_PLAYS, 4, 6))


@register("question", "jugadas-cancelables", (PARADA, R_MOMENTO_PARADA, FAMILIA_COLOCADA, INFLUENCIA), draw_stoppable)
def build_stoppable(s: Stoppable, rng: Rng) -> Item:
    """How many plays of a negotiation a stop card could have cancelled: travel cards, boss cards, hire sets."""
    answer = sum(1 for p in s.plays if rules.can_stop(p.kind))
    stops = sum(1 for p in s.plays if p.stopped_by)
    return item(
        "question",
        "integer",
        f"Partida de 6 jugadores. {s.boss} dirige la negociación de la {ordinal(s.deal)} transacción. Por este orden: "
        f"{'; '.join(_play_words(p) for p in s.plays)}. Entre todas estas jugadas, también las cartas de parada, "
        "¿cuántas podían cancelarse con una carta de parada justo después de hacerse?",
        answer,
        (PARADA, R_MOMENTO_PARADA, FAMILIA_COLOCADA, INFLUENCIA),
        "can_stop",
        "La carta de parada se usa inmediatamente después de una carta de viaje, una carta de jefe o un conjunto de "
        "cartas de empleo; no sirve contra ofertas ni cartas de familia, y no se puede usar una carta de bloqueo "
        f"para cancelar el efecto de otra ({stops} jugadas fueron paradas): {answer}.",
    )


@dataclass(frozen=True)
class Discards:
    """A negotiation of 6 players (``names[0]`` the boss): the deal's number, the investors, the plays in order."""

    names: tuple[str, ...]
    deal: int
    owners: tuple[tuple[str, str], ...]
    plays: tuple[Play, ...]


def draw_discards(rng: Rng) -> Discards:
    """Draw two to four travel cards and hire sets."""
    names = people(rng, 6)
    kinds = (rules.TRAVEL_ON_INVESTOR, rules.TRAVEL_ON_FAMILY, rules.HIRE_SET, FAMILY_PLACED)
    deal = 1 + rng.below(15)
    return Discards(tuple(names), deal, *_random_plays(rng, names, kinds, 3, 5))


@register("question", "descartes-inmediatos", (VIAJE, EMPLEO, PARADA), draw_discards)
def build_discards(s: Discards, rng: Rng) -> Item:
    """How many cards go to the discard pile at once after a few plays in a negotiation."""
    answer = rules.immediate_discards((p.kind, bool(p.stopped_by)) for p in s.plays)
    return item(
        "question",
        "integer",
        f"Partida de 6 jugadores, negociación de la {ordinal(s.deal)} transacción. Un conjunto de empleo es de "
        f"{rule_numbers().hire_set} cartas. Por este orden: {'; '.join(_play_words(p) for p in s.plays)}. Antes "
        "no se había descartado ninguna carta en esta negociación. ¿Cuántas cartas de estas jugadas están ya en el "
        "montón de descarte, antes de que termine la transacción?",
        answer,
        (VIAJE, EMPLEO, PARADA),
        "immediate_discards",
        "Un viaje sobre un inversor se queda hasta que termina la transacción; sobre una carta de familia, ambas se "
        "descartan inmediatamente; las cartas de empleo usadas se descartan inmediatamente, y una parada se descarta "
        f"junto con la carta que cancela: {answer}.",
    )


@dataclass(frozen=True)
class BossRun:
    """Who starts a negotiation and the boss cards played after, in order (some stopped)."""

    names: tuple[str, ...]
    starter: str
    cards: tuple[tuple[str, str], ...]  # (player, stopper or "")


def draw_boss_run(rng: Rng) -> BossRun:
    """Draw two to four boss cards by players other than the boss of the moment; a third are stopped."""
    names = tuple(people(rng, 5))
    boss = names[0]
    cards: list[tuple[str, str]] = []
    for _ in range(2 + rng.below(3)):
        player = rng.choice([n for n in names if n != boss])
        stopper = rng.choice([n for n in names if n != player]) if rng.below(3) == 0 else ""
        cards.append((player, stopper))
        boss = player if not stopper else boss
    return BossRun(names, names[0], tuple(cards))


def boss_run_words(cards: tuple[tuple[str, str], ...]) -> str:
    """Tell a run of boss cards: "Bruno juega una carta de jefe y nadie la para; ..."."""
    return "; ".join(
        f"{p} juega una carta de jefe y {s} la cancela con una carta de parada"
        if s
        else f"{p} juega una carta de jefe y nadie la para"
        for p, s in cards
    )


@register("question", "quien-cierra", (JEFE, PARADA, CIERRE, EJEMPLO_JEFES, EJEMPLO_CIERRE), draw_boss_run)
def build_boss_run(s: BossRun, rng: Rng) -> Item:
    """Who finishes the deal after boss cards, some of them stopped."""
    answer = rules.final_boss(s.starter, [(p, bool(st)) for p, st in s.cards])
    mentioned = [s.starter, *(p for p, _ in s.cards), *(st for _, st in s.cards if st)]
    return choice_item(
        rng,
        "question",
        f"{s.starter} comienza una negociación. Durante ella, por este orden: {boss_run_words(s.cards)}. Después "
        "nadie juega más cartas. ¿Quién finaliza la transacción?",
        answer,
        name_options(rng, answer, mentioned, s.names),
        (JEFE, PARADA, CIERRE, EJEMPLO_JEFES, EJEMPLO_CIERRE),
        "final_boss",
        "La transacción se finaliza por la última persona que utiliza una carta de jefe; una carta de jefe cancelada "
        f"con una parada no tiene efecto: {answer}.",
    )


@dataclass(frozen=True)
class Holder:
    """An investor card, who held it first, and the hire sets aimed at it in order (some stopped)."""

    players: int
    names: tuple[str, ...]
    colour: str
    first: str
    hires: tuple[tuple[str, str], ...]  # (player, stopper or "")


def draw_holder(rng: Rng) -> Holder:
    """Draw one to three hire sets aimed at one investor card, by players other than its holder of the moment."""
    players = 3 if rng.below(2) else 6
    names = tuple(people(rng, players))
    colour = rng.choice(colours())
    holder = first = rng.choice(names)
    hires: list[tuple[str, str]] = []
    for _ in range(1 + rng.below(3)):
        player = rng.choice([n for n in names if n != holder])
        stopper = rng.choice([n for n in names if n != player]) if rng.below(3) == 0 else ""
        hires.append((player, stopper))
        holder = player if not stopper else holder
    return Holder(players, names, colour, first, tuple(hires))


@register("question", "dueno-del-inversor", (EMPLEO, PARADA, PREP_INVERSORES, EJEMPLO_CONTRATACION), draw_holder)
def build_holder(s: Holder, rng: Rng) -> Item:
    """Who holds an investor card after hire sets aimed at it, some of them stopped."""
    answer = rules.holder_after_hires(s.first, [(p, bool(st)) for p, st in s.hires])
    told = "; ".join(
        f"{p} juega un conjunto de cartas de empleo para llevarse el inversor {s.colour}, "
        + (f"y {st} lo cancela con una carta de parada" if st else "y nadie lo para")
        for p, st in s.hires
    )
    mentioned = [s.first, *(p for p, _ in s.hires), *(st for _, st in s.hires if st)]
    wrong = [*name_options(rng, answer, mentioned, s.names, 2), "Nadie: vuelve al lado del tablero"]
    return choice_item(
        rng,
        "question",
        f"Partida de {s.players} jugadores: todas las cartas de inversor se repartieron y no queda ninguna al lado "
        f"del tablero. {s.first} tiene el inversor {s.colour}. Después, por este orden: {told}. ¿Quién tiene ahora el "
        f"inversor {s.colour}?",
        answer,
        wrong,
        (EMPLEO, PARADA, PREP_INVERSORES, *((EJEMPLO_CONTRATACION,) if any(not st for _, st in s.hires) else ())),
        "holder_after_hires",
        "Un conjunto de cartas de empleo roba la carta de inversor de otro jugador, salvo que una parada lo "
        f"cancele: ahora la tiene {answer}.",
    )


# --------------------------------------------------------------------------- closing, failing, and the cards left

FATE_STORIES = 8


@dataclass(frozen=True)
class Fate:
    """One of the card-fate stories (see :func:`build_fate`) on a board space, with its players and colour."""

    story: int
    boss: str
    seat: str
    other: str
    traveller: str
    space: int
    colour: str
    price: int
    closes: bool


def draw_fate(rng: Rng) -> Fate:
    """Pick a story, a space and one of its mandatory colours."""
    boss, seat, other, traveller = people(rng, 4)
    space = rng.choice(spaces())
    return Fate(
        rng.below(FATE_STORIES),
        boss,
        seat,
        other,
        traveller,
        space.number,
        rng.choice(space.mandatory),
        2 + rng.below(9),
        rng.below(2) == 0,
    )


@register(
    "question",
    "destino-de-las-cartas",
    (CIERRE_CARTAS, FRACASO, VIAJE, FAMILIA_COLOCADA, R_COMPOSICION, EXAMPLE_CARDS),
    draw_fate,
)
def build_fate(s: Fate, rng: Rng) -> Item:
    """Where a placed family card or a travel card ends up when the deal closes or fails."""
    boss, seat, c, price = s.boss, s.seat, s.colour, money(s.price)
    family = f"la carta de familia {fem(c)}"
    sections = [CIERRE_CARTAS]
    if s.story == 0:
        story = f"{seat}, que no tiene el inversor {c}, coloca una carta de familia {fem(c)} y pide {price}; {boss} "
        story += "acepta y completa la transacción con ese acuerdo."
        what, answer = f"{family} de {seat}", rules.family_fate(True, True)
        sections += [R_COMPOSICION, EXAMPLE_CARDS]
    elif s.story == 1:
        story = f"{seat} tiene frente a sí el inversor {c} y, además, coloca una carta de familia {fem(c)}; pide "
        story += f"{price} por el color {c} y {boss} acepta. Nadie juega cartas de viaje, y {boss} completa la "
        story += "transacción con ese acuerdo."
        what, answer = f"{family} de {seat}", rules.family_fate(True, False)
        sections += [R_COMPOSICION, EXAMPLE_CARDS]
    elif s.story == 2:
        story = f"{seat} coloca una carta de familia {fem(c)} y pide {price}, pero {boss} no acepta y llega a un "
        story += f"acuerdo con {s.other}, que tiene el inversor {c}. {boss} completa la transacción."
        what, answer = f"{family} de {seat}", rules.family_fate(True, False)
        sections += [R_COMPOSICION]
    elif s.story == 3:
        story = f"{boss} tiene frente a sí el inversor {c} y, aun así, coloca también una carta de familia {fem(c)}. "
        story += f"Nadie juega cartas de viaje, y {boss} completa la transacción."
        what, answer = f"{family} de {boss}", rules.family_fate(True, False)
        sections += [R_COMPOSICION]
    elif s.story == 4:
        story = f"Nadie tiene frente a sí el inversor {c}; por eso {boss} coloca una carta de familia {fem(c)} para "
        story += "sustituirlo, y completa la transacción."
        what, answer = f"{family} de {boss}", rules.family_fate(True, True)
        sections += [R_COMPOSICION]
    elif s.story == 5:
        story = f"{seat} coloca una carta de familia {fem(c)} para participar, pero no se logra reunir a todos los "
        story += f"inversores y {boss} declara que la transacción ha fracasado."
        what, answer = f"{family} de {seat}", rules.family_fate(False, False)
        sections += [FRACASO, FAMILIA_COLOCADA]
    elif s.story == 6:
        story = (
            f"{seat} coloca una carta de familia {fem(c)} para participar. Enseguida {s.traveller} juega sobre ella "
        )
        story += "una carta de viaje, y nadie la para."
        what, answer = f"{family} de {seat}", rules.family_fate(False, False, travelled=True)
        sections += [VIAJE]
    else:
        end = "completa la transacción" if s.closes else "declara que la transacción ha fracasado"
        story = f"{s.traveller} juega una carta de viaje sobre el inversor {c} de {seat}, y nadie la para. Al final, "
        story += f"{boss} {end}."
        what, answer = "esa carta de viaje", rules.FATE_DISCARD
        sections += [VIAJE, *(() if s.closes else (FRACASO,))]
    return choice_item(
        rng,
        "question",
        f"{boss} dirige una negociación en una casilla que {needs_words(s.space)}. {story} ¿Qué ocurre con {what}?",
        answer,
        [f for f in rules.FATES if f != answer],
        sections,
        "family_fate",
        "Las cartas de familia que participaron se descartan y las que no participaron vuelven a la mano de quien "
        "las colocó; si la transacción fracasa vuelven todas. Un viaje sobre una carta de familia descarta ambas al "
        "instante, y las demás cartas usadas se descartan.",
    )


@dataclass(frozen=True)
class AfterFailure:
    """What one seat played in a failed negotiation, and its hand when the negotiation began."""

    name: str
    hand: int
    families: int
    travels: int
    sets: int
    stops: int
    travelled: int


def draw_after_failure(rng: Rng) -> AfterFailure:
    """Draw the plays (at most two family cards, a seat names at most two prices under one boss) and a hand."""
    hire = rule_numbers().hire_set
    families, travels, sets, stops = rng.below(3), rng.below(3), rng.below(2), rng.below(2)
    travelled = rng.below(families + 1) if families and rng.below(2) else 0
    hand = families + travels + hire * sets + stops + 1 + rng.below(5)
    return AfterFailure(people(rng, 1)[0], hand, families, travels, sets, stops, travelled)


@register("question", "mano-tras-el-fracaso", (FRACASO, VIAJE, EMPLEO, PARADA), draw_after_failure)
def build_after_failure(s: AfterFailure, rng: Rng) -> Item:
    """Cards in a seat's hand after a failed deal: family cards come back, the other used cards are discarded."""
    answer = rules.hand_after_failure(s.hand, s.families, s.travels, s.sets, s.stops, s.travelled)
    plays = []
    # Counts in digits: the prompt then names several numbers, none of which it could be read as answering.
    if s.families:
        plays.append(f"colocó {count(s.families, 'carta de familia', 'cartas de familia')}")
    if s.travels:
        plays.append(f"jugó {count(s.travels, 'carta de viaje', 'cartas de viaje')}")
    if s.sets:
        plays.append(f"usó un conjunto de {rule_numbers().hire_set} cartas de empleo")
    if s.stops:
        plays.append("jugó una carta de parada")
    if not plays:
        plays.append("no jugó ninguna carta")
    hit = ""
    if s.travelled:
        which = "una de sus cartas de familia" if s.travelled == 1 else f"{s.travelled} de sus cartas de familia"
        hit = f" Otro jugador envió de viaje {which}, y nadie lo paró."
    return item(
        "question",
        "integer",
        f"Al empezar una negociación, {s.name} tenía {s.hand} cartas de influencia en la mano. Durante la "
        f"negociación {join(plays)}.{hit} Al final, el jefe declara que la transacción ha fracasado. ¿Cuántas cartas "
        f"de influencia tiene {s.name} en la mano después?",
        answer,
        (FRACASO, VIAJE, EMPLEO, PARADA),
        "hand_after_failure",
        "Cuando una transacción fracasa, las cartas de familia que quedan en la mesa regresan a la mano de quien las "
        f"utilizó y todas las demás cartas usadas se descartan: {answer}.",
    )


@dataclass(frozen=True)
class AfterClose:
    """A seat's family cards in a closed deal: per colour, how it stood (0 agreed, 1 agreed with its investor too,
    2 refused because the boss holds that investor), its stop cards played and its hand when the deal began."""

    boss: str
    name: str
    space: int
    placed: tuple[tuple[str, int], ...]
    stops: int
    hand: int


def draw_after_close(rng: Rng) -> AfterClose:
    """Draw one or two family cards of a space's colours and how each stood, some stop cards and a hand."""
    boss, name = people(rng, 2)
    space = rng.choice([s for s in spaces() if len(s.colours) >= 3])
    picked = set(_shuffled(rng, list(space.colours))[: 1 + rng.below(2)])
    chosen = [c for c in colours() if c in picked]
    placed = tuple((c, rng.below(3)) for c in chosen)
    stops = rng.below(3)
    return AfterClose(boss, name, space.number, placed, stops, len(placed) + stops + rng.below(6))


@register(
    "question",
    "mano-tras-el-cierre",
    (CIERRE_CARTAS, R_COMPOSICION, EXAMPLE_CARDS, FAMILIA_COLOCADA),
    draw_after_close,
)
def build_after_close(s: AfterClose, rng: Rng) -> Item:
    """Cards in a seat's hand after a closed deal: family cards that took part are discarded, the others come back."""
    holders: dict[str, str | None] = dict.fromkeys(colours())
    agreements: list[tuple[str, str]] = []
    told: list[str] = []
    for colour, how in s.placed:
        if how == 0:
            told.append(f"colocó una carta de familia {fem(colour)} y {s.boss} aceptó su precio por el color {colour}")
            agreements.append((s.name, colour))
        elif how == 1:
            holders[colour] = s.name
            told.append(
                f"colocó una carta de familia {fem(colour)} aunque tiene el inversor {colour}, y {s.boss} aceptó su "
                f"precio por el color {colour}"
            )
            agreements.append((s.name, colour))
        else:
            holders[colour] = s.boss
            told.append(
                f"colocó una carta de familia {fem(colour)}, pero {s.boss} no aceptó su precio, pues tiene el inversor "
                f"{colour}"
            )
    group = rules.closing_group(s.space, s.boss, holders, (), [(s.name, c) for c, _ in s.placed], agreements)
    taking_part = sum(1 for c, _ in s.placed if group.get(c) == (s.name, "familia"))
    answer = rules.hand_after_close(s.hand, taking_part, len(s.placed) - taking_part, s.stops)
    extra = f" Además jugó {count(s.stops, 'carta de parada', 'cartas de parada')}." if s.stops else ""
    return item(
        "question",
        "integer",
        f"{s.boss} dirige una negociación en la casilla {s.space}, que {needs_words(s.space)}. Al empezar, {s.name} "
        f"tenía {s.hand} cartas de influencia en la mano. Durante la negociación, {s.name} {'; '.join(told)}.{extra} "
        f"Nadie juega cartas de viaje y {s.boss} completa la transacción. ¿Cuántas cartas de influencia tiene "
        f"{s.name} en la mano después?",
        answer,
        (CIERRE_CARTAS, R_COMPOSICION, EXAMPLE_CARDS, FAMILIA_COLOCADA),
        "hand_after_close",
        "Las cartas de familia que participaron se descartan; las que no participaron (porque el inversor del mismo "
        "color participó, o porque no hubo acuerdo) vuelven a la mano; las demás cartas usadas se descartan: "
        f"{answer}.",
    )


# --------------------------------------------------------------------------- money


@dataclass(frozen=True)
class Room:
    """A deal (its card and space) and the prices the boss already accepted: (player, amount, in dividends?)."""

    boss: str
    asked: str
    card: int
    space: int
    agreed: tuple[tuple[str, int, bool], ...]


def draw_room(rng: Rng) -> Room:
    """Draw a deal and one or two accepted prices, in millions or in whole dividends, within half the payout each."""
    boss, x, y, z = people(rng, 4)
    card = rng.choice(deal_cards())
    space = rng.choice([s for s in spaces() if s.dividends >= 2])
    payout = card.dividend * space.dividends
    agreed: list[tuple[str, int, bool]] = []
    for who in (x, y)[: 1 + rng.below(2)]:
        left = payout - sum(a * (card.dividend if d else 1) for _, a, d in agreed)
        if rng.below(2) and space.dividends >= 4:
            k = 1 + rng.below(space.dividends // 4)
            if k * card.dividend <= left:
                agreed.append((who, k, True))
                continue
        amount = 1 + rng.below(max(1, min(left, payout // 2)))
        if amount <= left:
            agreed.append((who, amount, False))
    return Room(boss, z, card.number, space.number, tuple(agreed))


@register("question", "margen-para-prometer", (CONTRAPRESTACION, PAGO, R_PROMESAS), draw_room)
def build_room(s: Room, rng: Rng) -> Item:
    """The most the boss can still promise: the payout less what it already agreed."""
    value = rules.dividend_value(s.card)
    dividends = spaces()[s.space - 1].dividends
    payout = rules.banker_payout(s.card, dividends)
    millions = [a * value if d else a for _, a, d in s.agreed]
    answer = rules.promise_room(payout, millions)
    told = [f"{count(a, 'dividendo', 'dividendos')} a {w}" if d else f"{money(a)} a {w}" for w, a, d in s.agreed]
    agreed = f"Ya ha aceptado pagar {join(told)}." if told else "Todavía no ha aceptado pagar nada a nadie."
    return item(
        "question",
        "integer",
        f"{s.boss} dirige la {ordinal(s.card)} transacción, en una casilla de {dividends} dividendos; en esta "
        f"transacción cada dividendo vale {money(value)}. {agreed} ¿Cuánto puede prometer, como máximo, a {s.asked} "
        "por su inversor?",
        answer,
        (CONTRAPRESTACION, PAGO, R_PROMESAS),
        "promise_room",
        f"Solo se pueden ofrecer los dividendos obtenidos en la negociación ({money(payout)}); descontando lo ya "
        f"acordado queda {money(answer)}.",
        unit="M",
    )


_USES = (
    "colocó además una carta de familia {fc}",
    "jugó una carta de parada para proteger el trato",
    "jugó una carta de viaje sobre un inversor de otro jugador",
    "jugó un conjunto de cartas de empleo",
)


@dataclass(frozen=True)
class WhoGetsPaid:
    """The variant "dividendos solo para participantes": three agreements, one seat that used a card."""

    boss: str
    paid: str
    unused: tuple[str, str]
    outsider: str
    hues: tuple[str, str, str]
    amounts: tuple[int, int, int]
    use: int
    order: tuple[int, int, int, int]


def draw_who_gets_paid(rng: Rng) -> WhoGetsPaid:
    """Draw the players, their colours and prices, the card the paid seat used, and the order they are told in."""
    boss, paid, a, b, outsider = people(rng, 5)
    hues = _shuffled(rng, list(colours()))[:3]
    amounts = (2 + rng.below(8), 2 + rng.below(8), 2 + rng.below(8))
    order = _shuffled(rng, [0, 1, 2, 3])
    return WhoGetsPaid(
        boss, paid, (a, b), outsider, (hues[0], hues[1], hues[2]), amounts, rng.below(len(_USES)), (*order,)
    )


@register("question", "quien-cobra", (V_PARTICIPANTES, PAGO, R_VARIANTES), draw_who_gets_paid)
def build_who_gets_paid(s: WhoGetsPaid, rng: Rng) -> Item:
    """Under the variant, who is paid what was agreed: a seat that used an influence card."""
    a, b = s.unused
    h = s.hues
    parts = [
        f"{s.paid} aportó su inversor {h[0]} por {money(s.amounts[0])} y {_USES[s.use].format(fc=fem(h[0]))}",
        f"{a} aportó su inversor {h[1]} por {money(s.amounts[1])} sin jugar ninguna carta",
        f"{b} aportó su inversor {h[2]} por {money(s.amounts[2])} sin jugar ninguna carta",
        f"{s.outsider} jugó una carta de viaje que alguien canceló, pero no llegó a ningún acuerdo con {s.boss}",
    ]
    return choice_item(
        rng,
        "question",
        "Jugáis con la variante en la que, para ganar dinero en una negociación, hay que ser el jefe o haber "
        f"utilizado al menos una carta de influencia. {s.boss} completa una transacción. "
        f"{capital('; '.join(parts[i] for i in s.order))}. ¿A cuál de estos jugadores tiene que pagar {s.boss} lo "
        "acordado?",
        s.paid,
        [a, b, s.outsider],
        (V_PARTICIPANTES, PAGO, R_VARIANTES),
        "paid_to_participants",
        f"Con esta variante solo cobra quien es el jefe o usó al menos una carta de influencia; {s.outsider} no tiene "
        f"nada acordado: solo {s.paid} cobra.",
    )


@dataclass(frozen=True)
class Deal:
    """One closed deal: its number (deal card), the boss, the space's dividends and the promises paid."""

    number: int
    boss: str
    space: int
    promises: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class MoneySoFar:
    """The first deals of a game, and whose money is asked."""

    names: tuple[str, ...]
    deals: tuple[Deal, ...]
    asked: str


def draw_money_so_far(rng: Rng) -> MoneySoFar:
    """Draw two to four deals, each with up to two promises of at most half of what is left of the payout."""
    names = tuple(people(rng, 3 + rng.below(3)))
    deals: list[Deal] = []
    for number in range(1, 3 + rng.below(3)):
        space = rng.choice(spaces())
        left = rules.banker_payout(number, space.dividends)
        boss = rng.choice(names)
        promises: list[tuple[str, int]] = []
        for who in _shuffled(rng, [n for n in names if n != boss])[: rng.below(3)]:
            if left < 2:
                break
            amount = 1 + rng.below(left // 2)
            promises.append((who, amount))
            left -= amount
        deals.append(Deal(number, boss, space.number, tuple(promises)))
    return MoneySoFar(names, tuple(deals), rng.choice(names))


def money_after(s: MoneySoFar) -> dict[str, int]:
    """Return everyone's money after the deals of ``s`` (every player starts with none)."""
    money_of = dict.fromkeys(s.names, 0)
    for d in s.deals:
        payout = rules.banker_payout(d.number, spaces()[d.space - 1].dividends)
        money_of[d.boss] += rules.keeps_of(payout, [a for _, a in d.promises])
        for who, amount in d.promises:
            money_of[who] += amount
    return money_of


@register("question", "dinero-acumulado", (BANQUERO, PAGO), draw_money_so_far)
def build_money_so_far(s: MoneySoFar, rng: Rng) -> Item:
    """A player's money after a few deals: every player starts with none; bosses keep what they do not promise."""
    told = []
    for d in s.deals:
        paid = (
            f" y pagó {join([f'{money(a)} a {w}' for w, a in d.promises])}"
            if d.promises
            else " y no había prometido nada a nadie"
        )
        told.append(
            f"la {ordinal(d.number)} la completó {d.boss} en una casilla de {spaces()[d.space - 1].dividends} "
            f"dividendos, a {money(rules.dividend_value(d.number))} cada uno,{paid}"
        )
    answer = money_after(s)[s.asked]
    return item(
        "question",
        "integer",
        f"Partida de {len(s.names)} jugadores: {join(list(s.names))}. Hasta ahora se han completado "
        f"{len(s.deals)} transacciones: {'; '.join(told)}. Nadie ha recibido dinero de ninguna otra forma. ¿Cuánto "
        f"dinero tiene {s.asked}?",
        answer,
        (BANQUERO, PAGO),
        "keeps_of",
        "Cada jugador comienza con las manos vacías de dinero; el banquero paga al jefe los dividendos y el jefe "
        f"paga lo acordado a los demás: {s.asked} tiene {money(answer)}.",
        unit="M",
    )
