"""The engines' public event sentences in Spanish, one pattern per sentence.

The engines write each event as one English sentence (for models) and most events carry no structured data
(``Event.data``) to say them from, so a Spanish page reads the sentence back: :data:`EVENTS` holds, per game,
one anchored pattern per sentence the game's steps write, with its Spanish. Card names, card ids, sectors,
colours, goods and action names are the rulebooks' Spanish already and pass through as written; the rest is
said with the rulebooks' own terms (Construir, Arriesgar, Dominar, Explorar, Desarrollar, Asentar, Consumir,
Producir, portafolio, mazo, pila de descarte, trato, jefe, casilla...).

A sentence no pattern reads raises :class:`~.words.Untranslated`; the page then shows it as written, marked
``lang="en"``, and ``tests/clubhouse/test_events.py`` plays seeded games of every game with every sample
configuration and fails on any public event sentence without a Spanish rendering (so a reworded or new engine
sentence is caught by the tests, not by a reader).
"""

from __future__ import annotations

import re
from collections.abc import Callable

Say = Callable[[re.Match[str]], str]
Rule = tuple[re.Pattern[str], Say]


class Unread(LookupError):
    """A part of a sentence (a list, a portfolio, a loss) that no pattern reads."""


def _rule(pattern: str, say: Say) -> Rule:
    return re.compile(pattern + "$"), say


def _n(count: str, one: str, many: str) -> str:
    """Return ``count`` followed by the singular or plural word."""
    return f"{count} {one if count == '1' else many}"


def _seat_list(text: str) -> str:
    """Return an English list of seats ("seat 0 and seat 2", "seats 0, 2", "seat 1") in Spanish."""
    numbers = re.findall(r"\d+", text)
    if not numbers or re.sub(r"seats?|and|,|\d+|\s", "", text):
        raise Unread(text)
    if len(numbers) == 1:
        return f"el asiento {numbers[0]}"
    return "los asientos " + ", ".join(numbers[:-1]) + " y " + numbers[-1]


PILE = {"$": "$", "+R": "+R"}


# --------------------------------------------------------------------------- Market Fortune


def _mf_investment(item: str) -> str:
    """Return one investment of a portfolio listing in Spanish (``#0 Salud 3M + 2M with Card (+2M)``)."""
    m = re.fullmatch(r"#(\d+) (.+?) (\d+)M \+ (\d+)M(?: with (.+) \((\+\d+M|criteria not met)\))?", item)
    if m:
        said = f"#{m[1]} {m[2]} {m[3]}M + {m[4]}M"
        if m[5]:
            said += f" con {m[5]} ({'criterio no cumplido' if m[6] == 'criteria not met' else m[6]})"
        return said
    m = re.fullmatch(r"yellows: (.+)", item)
    if m:
        return f"amarillas: {m[1]}"
    m = re.fullmatch(r"total (\d+)M", item)
    if m:
        return f"total {m[1]}M"
    if item == "no investments":
        return "ninguna inversión"
    raise Unread(item)


def _mf_portfolio(text: str) -> str:
    """Return a portfolio listing (investments, yellows and total separated by ``; ``) in Spanish."""
    return "; ".join(_mf_investment(part) for part in text.split("; "))


_BLOCKED = r"(\d+) cards? face down on the (\$|\+R) discard pile, blocked \(Campeonato\)"


def _mf_discarded(text: str) -> str:
    """Return what a Market Fortune take-and-discard left on the pile: a card, or a blocked face-down card."""
    m = re.fullmatch(_BLOCKED, text)
    if m:
        return f"{_n(m[1], 'carta', 'cartas')} boca abajo en la pila de descarte {m[2]}, bloqueada (Campeonato)"
    return text


def _mf_loss(text: str) -> str:
    """Return investments going to the discard piles (an attack, or the end of a Campeonato game) in Spanish."""
    m = re.fullmatch(
        r"(\d+) investments? of seat (\d+) goe?s? to the discard piles(?: \((.+?\))\))?"
        r"(?:; (\d+) cards lie face down on top, blocked \(Campeonato\))?(?:; green strategies discarded: (.+))?",
        text,
    )
    if m is None:
        raise Unread(text)
    many = m[1] != "1"
    said = (
        f"{_n(m[1], 'inversión', 'inversiones')} del asiento {m[2]} {'van' if many else 'va'} a las pilas de descarte"
    )
    if m[3]:
        said += f" ({m[3]})"
    if m[4]:
        said += f"; {m[4]} cartas quedan boca abajo encima, bloqueadas (Campeonato)"
    if m[5]:
        said += f"; estrategias verdes descartadas: {m[5]}"
    return said


def _mf_inv_text(text: str) -> str:
    """Return an investment as the engine names it in a sentence (its cards, or ``#0 face down +green``)."""
    return text.replace("face down", "boca abajo").replace("face up", "boca arriba").replace("+green", "+verde")


def _mf_first_roll(m: re.Match[str]) -> str:
    rolls = re.sub(r"seat (\d+) ", r"asiento \1 ", m[2])
    if "seat" in rolls:
        raise Unread(m[2])
    tail = m[3]
    if tail == "nobody rolled −, so everyone rolls again":
        said = "nadie sacó −, así que todos vuelven a tirar"
    elif t := re.fullmatch(r"nobody rolled −, so seats ([\d, ]+) roll again", tail):
        said = f"nadie sacó −, así que {_seat_list('seats ' + t[1])} vuelven a tirar"
    elif t := re.fullmatch(r"seat (\d+) rolled the only − and starts", tail):
        said = f"el asiento {t[1]} sacó el único − y empieza"
    elif t := re.fullmatch(r"seats ([\d, ]+) rolled − and roll again", tail):
        said = f"{_seat_list('seats ' + t[1])} sacaron − y vuelven a tirar"
    else:
        raise Unread(tail)
    return f"tirada de primer jugador {m[1]}: {rolls}; {said}"


def _mf_attack(m: re.Match[str]) -> str:
    on = f" en la inversión #{m[4]}" if m[4] else ""
    return (
        f"el asiento {m[1]} juega {m[2]} contra {_seat_list(m[3])}{on}; cada uno puede responder con una estrategia "
        f"azul, en el sentido de las agujas del reloj desde el asiento {m[5]}"
    )


def _strategies(count: str) -> str:
    return _n(count, "estrategia", "estrategias")


MARKET_FORTUNE: list[Rule] = [
    _rule(r"turn (\d+): seat (\d+) is on turn", lambda m: f"turno {m[1]}: juega el asiento {m[2]}"),
    _rule(
        r"turn (\d+): seat (\d+) is on turn \((.+): no Arriesgar this turn\)",
        lambda m: f"turno {m[1]}: juega el asiento {m[2]} ({m[3]}: sin Arriesgar este turno)",
    ),
    _rule(
        r"each seat is dealt (\d+) \$ and (\d+) \+R cards; the three decks lie face down",
        lambda m: f"cada asiento recibe {m[1]} cartas $ y {m[2]} cartas +R; los tres mazos quedan boca abajo",
    ),
    _rule(
        r"game (\d+) of the Campeonato match: each seat is dealt (\d+) \$ and (\d+) \+R cards",
        lambda m: f"partida {m[1]} del Campeonato: cada asiento recibe {m[2]} cartas $ y {m[3]} cartas +R",
    ),
    _rule(r"first-player roll (\d+): (.+?); (.+)", _mf_first_roll),
    _rule(
        r"seat (\d+) won the previous game and opens this one",
        lambda m: f"el asiento {m[1]} ganó la partida anterior y abre esta",
    ),
    _rule(
        r"match totals after game (\d+): (.+)",
        lambda m: f"totales del Campeonato tras la partida {m[1]}: " + re.sub(r"seat (\d+) ", r"asiento \1: ", m[2]),
    ),
    _rule(
        r"seat (\d+) chose Construir and took a card from the (\$|\+R) deck",
        lambda m: f"el asiento {m[1]} eligió Construir y tomó una carta del mazo {m[2]}",
    ),
    _rule(
        r"seat (\d+) chose Construir and took (.+) from the (\$|\+R) discard pile",
        lambda m: f"el asiento {m[1]} eligió Construir y tomó {m[2]} de la pila de descarte {m[3]}",
    ),
    _rule(
        r"seat (\d+) took \((.+?)\) a card from the (\$|\+R) deck",
        lambda m: f"el asiento {m[1]} tomó ({m[2]}) una carta del mazo {m[3]}",
    ),
    _rule(
        r"seat (\d+) took \((.+?)\) (.+) from the (\$|\+R) discard pile",
        lambda m: f"el asiento {m[1]} tomó ({m[2]}) {m[3]} de la pila de descarte {m[4]}",
    ),
    _rule(
        r"seat (\d+) chose Dominar and took (\d+) strateg(?:y|ies)",
        lambda m: f"el asiento {m[1]} eligió Dominar y tomó {_strategies(m[2])}",
    ),
    _rule(
        r"seat (\d+) chose Arriesgar: the die shows \+ and investment #(\d+) is formed face down "
        r"\((\d+) investments?\)",
        lambda m: (
            f"el asiento {m[1]} eligió Arriesgar: el dado muestra + y la inversión #{m[2]} se forma boca abajo "
            f"({_n(m[3], 'inversión', 'inversiones')})"
        ),
    ),
    _rule(
        r"seat (\d+) chose Arriesgar: (.+?) makes it succeed without the die and investment #(\d+) is formed face "
        r"down \((\d+) investments?\)",
        lambda m: (
            f"el asiento {m[1]} eligió Arriesgar: {m[2]} hace que salga adelante sin el dado y la inversión #{m[3]} "
            f"se forma boca abajo ({_n(m[4], 'inversión', 'inversiones')})"
        ),
    ),
    _rule(
        r"seat (\d+) chose Arriesgar: the die shows −, the investment fails and both cards return to its hand",
        lambda m: (
            f"el asiento {m[1]} eligió Arriesgar: el dado muestra −, la inversión fracasa y las dos cartas vuelven "
            "a su mano"
        ),
    ),
    _rule(
        r"seat (\d+) attached a green strategy face down to its investment #(\d+)",
        lambda m: f"el asiento {m[1]} unió una estrategia verde boca abajo a su inversión #{m[2]}",
    ),
    _rule(r"seat (\d+) keeps the strategy it took", lambda m: f"el asiento {m[1]} se guarda la estrategia que tomó"),
    _rule(
        r"seat (\d+) takes (\d+) strateg(?:y|ies) \(Momentum\)",
        lambda m: f"el asiento {m[1]} toma {_strategies(m[2])} (Momentum)",
    ),
    _rule(
        r"seat (\d+) discarded (\d+) (\$|\+R) cards? face down on the (\$|\+R) discard pile "
        r"\(a strategy orders it\): blocked \(Campeonato\)",
        lambda m: (
            f"el asiento {m[1]} descartó {_n(m[2], 'carta', 'cartas')} {m[3]} boca abajo en la pila de descarte "
            f"{m[4]} (lo ordena una estrategia): bloqueada (Campeonato)"
        ),
    ),
    _rule(
        r"seat (\d+) discarded (.+) \(down to (\d+), as the strategy played this turn orders\)",
        lambda m: (
            f"el asiento {m[1]} descartó {m[2]} (hasta quedarse con {m[3]}, como ordena la estrategia jugada este "
            "turno)"
        ),
    ),
    _rule(r"seat (\d+) discarded (.+)", lambda m: f"el asiento {m[1]} descartó {m[2]}"),
    _rule(
        r"seat (\d+) holds (\d+) building cards again, so Construir needs no further discard",
        lambda m: (
            f"el asiento {m[1]} vuelve a tener {m[2]} cartas de construcción, así que Construir no pide más descartes"
        ),
    ),
    _rule(
        r"seat (\d+) holds (\d+) building cards and discards down to (\d+) \(a strategy played this turn orders it\)",
        lambda m: (
            f"el asiento {m[1]} tiene {m[2]} cartas de construcción y descarta hasta quedarse con {m[3]} (lo ordena "
            "una estrategia jugada este turno)"
        ),
    ),
    _rule(
        r"seat (\d+) holds (\d+) building cards, not more than (\d+), and discards nothing",
        lambda m: f"el asiento {m[1]} tiene {m[2]} cartas de construcción, no más de {m[3]}, y no descarta nada",
    ),
    _rule(
        r"seat (\d+) optimises investment #(\d+): swaps its (\$|\+R) card with one from its hand and now discards "
        r"(\d+) building cards? as the cost",
        lambda m: (
            f"el asiento {m[1]} optimiza la inversión #{m[2]}: cambia su carta {m[3]} por una de su mano y ahora "
            f"descarta {_n(m[4], 'carta', 'cartas')} de construcción como coste"
        ),
    ),
    _rule(
        r"seat (\d+) paid the optimisation by discarding (.+)",
        lambda m: f"el asiento {m[1]} pagó la optimización descartando {m[2]}",
    ),
    _rule(
        r"seat (\d+) plays (.+?) against (seats? [\d, ]+?)(?: on investment #(\d+))?; each may answer with a blue "
        r"strategy, clockwise from seat (\d+)",
        _mf_attack,
    ),
    _rule(r"seat (\d+) plays (.+)", lambda m: f"el asiento {m[1]} juega {m[2]}"),
    _rule(
        r"seat (\d+) defends with (.+? \([^)]+\)): (.+) is cancelled against seat (\d+)",
        lambda m: f"el asiento {m[1]} se defiende con {m[2]}: {m[3]} queda anulada contra el asiento {m[4]}",
    ),
    _rule(
        r"(.+?): (.+) is cancelled for (seats [\d, ]+) too",
        lambda m: f"{m[1]}: {m[2]} queda anulada también para {_seat_list(m[3])}",
    ),
    _rule(
        r"seat (\d+) did not defend against (.+?) and discarded (\d+) building cards? at random, face down on its "
        r"pile, blocked \(Campeonato\)",
        lambda m: (
            f"el asiento {m[1]} no se defendió de {m[2]} y descartó {_n(m[3], 'carta', 'cartas')} de construcción "
            "al azar, boca abajo en su pila, bloqueada (Campeonato)"
        ),
    ),
    _rule(
        r"seat (\d+) did not defend against (.+?) and discarded (.+) at random",
        lambda m: f"el asiento {m[1]} no se defendió de {m[2]} y descartó {m[3]} al azar",
    ),
    _rule(
        r"seat (\d+) did not defend against (.+?), rolled \+ and keeps its portfolio",
        lambda m: f"el asiento {m[1]} no se defendió de {m[2]}, sacó + y conserva su portafolio",
    ),
    _rule(
        r"seat (\d+) did not defend against (.+?), rolled − and its newest face-down investment #(\d+) returns to "
        r"its hand",
        lambda m: (
            f"el asiento {m[1]} no se defendió de {m[2]}, sacó − y su inversión boca abajo más reciente, la #{m[3]}, "
            "vuelve a su mano"
        ),
    ),
    _rule(
        r"seat (\d+) did not defend against ([^:]+): (.+)",
        lambda m: f"el asiento {m[1]} no se defendió de {m[2]}: {_mf_loss(m[3])}",
    ),
    _rule(
        r"seat (\d+) did not defend: (.+?) flips its portfolio face up: (.+)",
        lambda m: f"el asiento {m[1]} no se defendió: {m[2]} pone su portafolio boca arriba: {_mf_portfolio(m[3])}",
    ),
    _rule(
        r"seat (\d+) did not defend: (.+?) returns investment #(\d+) to seat (\d+)'s hand",
        lambda m: (
            f"el asiento {m[1]} no se defendió: {m[2]} devuelve la inversión #{m[3]} a la mano del asiento {m[4]}"
        ),
    ),
    _rule(
        r"seat (\d+) did not defend: it may not Arriesgar on its next turn",
        lambda m: f"el asiento {m[1]} no se defendió: no podrá Arriesgar en su próximo turno",
    ),
    _rule(
        r"seat (\d+) did not defend: seat (\d+) took (\d+) of seat (\d+)'s strategies at random",
        lambda m: (
            f"el asiento {m[1]} no se defendió: el asiento {m[2]} tomó {m[3]} de las estrategias del asiento {m[4]} "
            "al azar"
        ),
    ),
    _rule(
        r"seat (\d+) did not defend: seats (\d+) and (\d+) exchanged (\d+) building cards? taken at random",
        lambda m: (
            f"el asiento {m[1]} no se defendió: los asientos {m[2]} y {m[3]} intercambiaron "
            f"{_n(m[4], 'carta', 'cartas')} de construcción {'tomada' if m[4] == '1' else 'tomadas'} al azar"
        ),
    ),
    _rule(
        r"(.+?): if seat (\d+) risks this turn, its investment succeeds without the die",
        lambda m: f"{m[1]}: si el asiento {m[2]} arriesga este turno, su inversión sale adelante sin el dado",
    ),
    _rule(
        r"(.+?): seat (\d+) rolled \+ and took (\d+) strateg(?:y|ies)( \(it goes last\))?",
        lambda m: f"{m[1]}: el asiento {m[2]} sacó + y tomó {_strategies(m[3])}" + (" (va el último)" if m[4] else ""),
    ),
    _rule(
        r"(.+?): seat (\d+) rolled − and takes nothing", lambda m: f"{m[1]}: el asiento {m[2]} sacó − y no toma nada"
    ),
    _rule(
        r"(.+?): seat (\d+) takes (\d+) strateg(?:y|ies)",
        lambda m: f"{m[1]}: el asiento {m[2]} toma {_strategies(m[3])}",
    ),
    _rule(
        r"(.+?): seat (\d+) swapped the \+R of its investment #(\d+) for a \+R from its hand",
        lambda m: f"{m[1]}: el asiento {m[2]} cambió el +R de su inversión #{m[3]} por un +R de su mano",
    ),
    _rule(
        r"(.+?): seat (\d+) took (.+) from the (\$|\+R) discard pile and discarded (.+)",
        lambda m: (
            f"{m[1]}: el asiento {m[2]} tomó {m[3]} de la pila de descarte {m[4]} y descartó {_mf_discarded(m[5])}"
        ),
    ),
    _rule(
        r"at the end of the game seat (\d+) turns its portfolio face up: (.+)",
        lambda m: f"al final de la partida el asiento {m[1]} pone su portafolio boca arriba: {_mf_portfolio(m[2])}",
    ),
    _rule(
        r"investments worth (\d+)M or less are discarded: (.+)",
        lambda m: f"las inversiones de {m[1]}M o menos se descartan: {_mf_loss(m[2])}",
    ),
    _rule(
        r"seat (\d+) declares victory with (\d+) investments",
        lambda m: f"el asiento {m[1]} declara la victoria con {m[2]} inversiones",
    ),
    _rule(
        r"seat (\d+) flips its portfolio: (.+)",
        lambda m: f"el asiento {m[1]} descubre su portafolio: {_mf_portfolio(m[2])}",
    ),
    _rule(r"seat (\d+) reveals: (.+)", lambda m: f"el asiento {m[1]} revela: {_mf_portfolio(m[2])}"),
    _rule(
        r"seat (\d+) returns investment #(\d+) \((.+)\) to its hand; play goes on",
        lambda m: f"el asiento {m[1]} devuelve la inversión #{m[2]} ({m[3]}) a su mano; la partida sigue",
    ),
    _rule(
        r"seat (\d+)'s declaration fails with (\d+)M, under (\d+)M: it returns one investment to its hand",
        lambda m: (
            f"la declaración del asiento {m[1]} fracasa con {m[2]}M, por debajo de {m[3]}M: devuelve una inversión "
            "a su mano"
        ),
    ),
    _rule(
        r"the (\$|\+R) deck was empty: its discard pile except the top card was shuffled into a new (\$|\+R) deck",
        lambda m: (
            f"el mazo {m[1]} estaba vacío: su pila de descarte, salvo la carta de arriba, se barajó como nuevo "
            f"mazo {m[2]}"
        ),
    ),
    _rule(
        r"the strategy deck was empty: the strategy discard pile was shuffled into a new strategy deck",
        lambda m: "el mazo de Estrategias estaba vacío: su pila de descarte se barajó como nuevo mazo de Estrategias",
    ),
    _rule(
        r"seat (\d+) can take no action and passes",
        lambda m: f"el asiento {m[1]} no puede hacer ninguna acción y pasa",
    ),
    _rule(
        r"seats ([\d, ]+) shared the win: they roll to decide who opens the next game",
        lambda m: (
            f"{_seat_list('seats ' + m[1])} comparten la victoria: tiran el dado para decidir quién abre la partida "
            "siguiente"
        ),
    ),
    _rule(
        r"no strategy is left to take for Momentum",
        lambda m: "no queda ninguna estrategia que tomar con Momentum",
    ),
    # what only the seats concerned were told (a finished game's replay shows it)
    _rule(r"Inflación took your (.+)", lambda m: f"Inflación te quitó {m[1]}"),
    _rule(
        r"Momentum: you took (.+); you cannot use it this turn",
        lambda m: f"Momentum: tomaste {m[1]}; no puedes usarla este turno",
    ),
    _rule(
        r"Movimiento Astuto: you discarded (.+) face down",
        lambda m: f"Movimiento Astuto: descartaste {m[1]} boca abajo",
    ),
    _rule(
        r"Negociación: seat (\d+) gave (.+) and received (.+) from seat (\d+)",
        lambda m: f"Negociación: el asiento {m[1]} dio {m[2]} y recibió {m[3]} del asiento {m[4]}",
    ),
    _rule(
        r"Robo: seat (\d+) took (.+) from seat (\d+)",
        lambda m: f"Robo: el asiento {m[1]} tomó {m[2]} del asiento {m[3]}",
    ),
    _rule(r"you attached (.+) to investment #(\d+)", lambda m: f"uniste {m[1]} a la inversión #{m[2]}"),
    _rule(r"you discarded (.+) face down", lambda m: f"descartaste {m[1]} boca abajo"),
    _rule(r"you lost (.+)", lambda m: f"perdiste {m[1]}"),
    _rule(
        r"you put (.+) into investment #(\d+) and took (.+) back",
        lambda m: f"pusiste {m[1]} en la inversión #{m[2]} y recuperaste {m[3]}",
    ),
    _rule(r"you took (.+) from the (\$|\+R) deck", lambda m: f"tomaste {m[1]} del mazo {m[2]}"),
    _rule(r"you took (.+) from the (\$|\+R) discard pile", lambda m: f"tomaste {m[1]} de la pila de descarte {m[2]}"),
    _rule(r"you took (.+)", lambda m: f"tomaste {m[1]}"),
    _rule(r"your hand: (.+)", lambda m: f"tu mano: {m[1]}"),
    _rule(r"your investment #(\d+): (.+) = (\d+)M", lambda m: f"tu inversión #{m[1]}: {m[2]} = {m[3]}M"),
    _rule(
        r"your investment (.+) returned to your hand",
        lambda m: f"tu inversión {_mf_inv_text(m[1])} volvió a tu mano",
    ),
    _rule(r"your (.+\)) and (.+) returned to your hand", lambda m: f"tus {m[1]} y {m[2]} volvieron a tu mano"),
    _rule(
        r"the card seat (\d+) discarded before on the (\$|\+R) pile, (.+), is covered and turns face up",
        lambda m: (
            f"la carta que el asiento {m[1]} descartó antes en la pila {m[2]}, {m[3]}, queda cubierta y se pone boca "
            "arriba"
        ),
    ),
]


# --------------------------------------------------------------------------- Se Vende

_SV_DRAW_REASONS = {
    "Asentar bonus": "bonificación de Asentar",
    "consume power": "poder de consumo",
    "develop-draw powers": "poderes de robo al Desarrollar",
    "produce-draw powers": "poderes de robo al Producir",
    "settle-draw powers": "poderes de robo al Asentar",
    "explore-draw powers": "poderes de robo al Explorar",
    "Comercio": "Comercio",
}


def _sv_draw(m: re.Match[str]) -> str:
    reason = _SV_DRAW_REASONS.get(m[3])
    if reason is None:
        raise Unread(m[3])
    return f"el asiento {m[1]} roba {_n(m[2], 'carta', 'cartas')} ({reason})"


def _sv_you_drew(m: re.Match[str]) -> str:
    reason = _SV_DRAW_REASONS.get(m[2])
    if reason is None:
        raise Unread(m[2])
    return f"robaste {m[1]} ({reason})"


def _sv_production(item: str) -> str:
    m = re.fullmatch(r"(.+?) on (.+?\))(?: with the Producir bonus| with (.+\)))?", item)
    if m is None:
        raise Unread(item)
    said = f"{m[1]} en {m[2]}"
    if item.endswith(" with the Producir bonus"):
        said += " con la bonificación de Producir"
    elif m[3]:
        said += f" con {m[3]}"
    return said


def _sv_setup(m: re.Match[str]) -> str:
    step, what = m[1], m[2]
    if w := re.fullmatch(
        r"(\d+) victory points of chips per seat \((\d+) VP\) form the chip supply; the four (\d+)-point chips "
        r"\((\d+) VP\) are set aside for the last round",
        what,
    ):
        said = (
            f"{w[1]} puntos de victoria en fichas por asiento ({w[2]} PV) forman la reserva de fichas; las cuatro "
            f"fichas de {w[3]} puntos ({w[4]} PV) se apartan para la última ronda"
        )
    elif what == "every seat takes its seven action cards":
        said = "cada asiento toma sus siete cartas de acción"
    elif w := re.fullmatch(r"the start worlds are shuffled and dealt face up: (.+)", what):
        said = "los mundos iniciales se barajan y se reparten boca arriba: " + re.sub(
            r"(^|, )seat (\d+) ", r"\1asiento \2: ", w[1]
        )
    elif w := re.fullmatch(
        r"the remaining start worlds \((\d+)\) are shuffled into the game cards; every seat is dealt (\d+) cards "
        r"face down",
        what,
    ):
        said = (
            f"los mundos iniciales restantes ({w[1]}) se barajan con las cartas del juego; cada asiento recibe "
            f"{w[2]} cartas boca abajo"
        )
    elif w := re.fullmatch(
        r"every seat looks at its (\d+) cards and discards (\d+) face down; the supply holds (\d+) cards", what
    ):
        said = f"cada asiento mira sus {w[1]} cartas y descarta {w[2]} boca abajo; el suministro tiene {w[3]} cartas"
    elif w := re.fullmatch(r"(.+) gets its starting good, face down from the supply", what):
        said = f"{w[1]} recibe su bien inicial, boca abajo del suministro"
    else:
        raise Unread(what)
    return f"preparación, paso {step}: {said}"


def _sv_revealed(m: re.Match[str]) -> str:
    chosen = re.sub(r"(^|, )seat (\d+) ", r"\1asiento \2: ", m[1])
    if "seat" in chosen:
        raise Unread(m[1])
    return f"cartas de acción reveladas: {chosen}; fases de esta ronda: {m[2]}"


SE_VENDE: list[Rule] = [
    _rule(r"setup step (\d+): (.+)", _sv_setup),
    _rule(
        r"setup is complete: every seat has a start world and four cards in hand",
        lambda m: "la preparación ha terminado: cada asiento tiene un mundo inicial y cuatro cartas en la mano",
    ),
    _rule(
        r"round (\d+) begins: every seat chooses an action card in secret",
        lambda m: f"empieza la ronda {m[1]}: cada asiento elige en secreto una carta de acción",
    ),
    _rule(r"seat (\d+) has chosen an action card", lambda m: f"el asiento {m[1]} ha elegido una carta de acción"),
    _rule(r"action cards revealed: (.+); phases this round: (.+)", _sv_revealed),
    _rule(
        r"seat (\d+) explores: draws (\d+) cards? and keeps (\d+)",
        lambda m: f"el asiento {m[1]} explora: roba {_n(m[2], 'carta', 'cartas')} y se queda {m[3]}",
    ),
    _rule(
        r"seat (\d+) has kept its cards and discards (\d+) face down",
        lambda m: f"el asiento {m[1]} se ha quedado sus cartas y descarta {m[2]} boca abajo",
    ),
    _rule(
        r"seat (\d+) has discarded two cards face down and keeps four",
        lambda m: f"el asiento {m[1]} ha descartado dos cartas boca abajo y se queda cuatro",
    ),
    _rule(
        r"Desarrollar: every seat chooses in secret a development to place, or none",
        lambda m: "Desarrollar: cada asiento elige en secreto un desarrollo para colocar, o ninguno",
    ),
    _rule(
        r"Asentar: every seat chooses in secret a world to place, or none",
        lambda m: "Asentar: cada asiento elige en secreto un mundo para colocar, o ninguno",
    ),
    _rule(r"seat (\d+) has chosen what to place", lambda m: f"el asiento {m[1]} ha elegido qué colocar"),
    _rule(
        r"seat (\d+) places nothing in (Desarrollar|Asentar)", lambda m: f"el asiento {m[1]} no coloca nada en {m[2]}"
    ),
    _rule(
        r"seat (\d+) places the (development|world) (.+) \(cost (\d+), paying (\d+) cards?\)",
        lambda m: (
            f"el asiento {m[1]} coloca {'el desarrollo' if m[2] == 'development' else 'el mundo'} {m[3]} "
            f"(costo {m[4]}, pagando {_n(m[5], 'carta', 'cartas')})"
        ),
    ),
    _rule(
        r"seat (\d+) places the world (.+) \(with Militar (\d+) against defence (\d+), free\)",
        lambda m: f"el asiento {m[1]} coloca el mundo {m[2]} (con Militar {m[3]} contra defensa {m[4]}, gratis)",
    ),
    _rule(r"seat (\d+) has paid for (.+)", lambda m: f"el asiento {m[1]} ha pagado {m[2]}"),
    _rule(
        r"seat (\d+)'s (.+) gets its windfall good of (.+)",
        lambda m: f"{m[2]}, del asiento {m[1]}, recibe su bien de caída de {m[3]}",
    ),
    _rule(r"seat (\d+) draws (\d+) cards? \((.+)\)", _sv_draw),
    _rule(
        r"Consumir: no seat has a good to sell or a consume power it can use",
        lambda m: "Consumir: ningún asiento tiene un bien que vender ni un poder de consumo que pueda usar",
    ),
    _rule(
        r"seat (\d+) sells the (.+?) good from (.+) for (\d+) \+ (\d+) from trade powers cards",
        lambda m: (
            f"el asiento {m[1]} vende el bien de {m[2]} de {m[3]} por {m[4]} + {m[5]} cartas de los poderes de comercio"
        ),
    ),
    _rule(
        r"seat (\d+) sells the (.+?) good from (.+) for (\d+) cards?",
        lambda m: f"el asiento {m[1]} vende el bien de {m[2]} de {m[3]} por {_n(m[4], 'carta', 'cartas')}",
    ),
    _rule(r"seat (\d+) uses (.+?\)): (.+)", lambda m: f"el asiento {m[1]} usa {m[2]}: {m[3]}"),
    _rule(
        r"seat (\d+) consumes (\d+) goods? with (.+?\)) \(from (.+\))\) for (\d+) VP( \(doubled by (\d+)x PV\))? "
        r"and (\d+) cards?",
        lambda m: (
            f"el asiento {m[1]} consume {_n(m[2], 'bien', 'bienes')} con {m[3]} (de {m[4]}) por {m[5]} PV"
            + (f" (doblados por {m[7]}x PV)" if m[6] else "")
            + f" y {_n(m[8], 'carta', 'cartas')}"
        ),
    ),
    _rule(
        r"seat (\d+) discards (\d+) cards? from hand with (.+) for (\d+) VP \(never doubled by (\d+)x PV\)",
        lambda m: (
            f"el asiento {m[1]} descarta {_n(m[2], 'carta', 'cartas')} de la mano con {m[3]} por {m[4]} PV "
            f"(nunca doblados por {m[5]}x PV)"
        ),
    ),
    _rule(r"seat (\d+) finishes consuming", lambda m: f"el asiento {m[1]} termina de consumir"),
    _rule(r"seat (\d+) has nothing more to consume", lambda m: f"el asiento {m[1]} no tiene nada más que consumir"),
    _rule(
        r"seat (\d+) produces (.+)",
        lambda m: f"el asiento {m[1]} produce " + "; ".join(_sv_production(x) for x in m[2].split("; ")),
    ),
    _rule(
        r"seat (\d+) declines the windfall production of the Producir bonus",
        lambda m: f"el asiento {m[1]} renuncia a la producción de caída de la bonificación de Producir",
    ),
    _rule(
        r"seat (\d+) declines the windfall production of (.+)",
        lambda m: f"el asiento {m[1]} renuncia a la producción de caída de {m[2]}",
    ),
    _rule(
        r"end of round (\d+): (seats? .+?) must discard down to (\d+) cards",
        lambda m: (
            f"fin de la ronda {m[1]}: {_seat_list(m[2])} "
            f"{'deben' if ' and ' in m[2] or ',' in m[2] else 'debe'} descartar hasta quedarse con {m[3]} cartas"
        ),
    ),
    _rule(
        r"seat (\d+) has discarded down to (\d+) cards",
        lambda m: f"el asiento {m[1]} ha descartado hasta quedarse con {m[2]} cartas",
    ),
    _rule(
        r"seat (\d+) took the last victory chip: the four (\d+)-point chips join and change is made so every point "
        r"earned is paid; the game ends at the end of this round",
        lambda m: (
            f"el asiento {m[1]} tomó la última ficha de victoria: se suman las cuatro fichas de {m[2]} puntos y se da "
            "cambio para pagar cada punto ganado; la partida termina al final de esta ronda"
        ),
    ),
    _rule(
        r"the supply and the discard pile are both empty: no more cards can be drawn",
        lambda m: "el suministro y la pila de descarte están vacíos: no se pueden robar más cartas",
    ),
    # what only the seat concerned was told (a finished game's replay shows it)
    _rule(r"you were dealt (.+)", lambda m: f"recibiste {m[1]}"),
    _rule(
        r"you chose (.+); it stays sealed until every seat has chosen",
        lambda m: f"elegiste {m[1]}; queda en secreto hasta que todos los asientos hayan elegido",
    ),
    _rule(r"you drew while exploring: (.+)", lambda m: f"robaste al explorar: {m[1]}"),
    _rule(r"you keep (.+)", lambda m: f"te quedas {m[1]}"),
    _rule(r"you paid with (.+)", lambda m: f"pagaste con {m[1]}"),
    _rule(
        r"you will place nothing this phase \(sealed until every seat has chosen\)",
        lambda m: "no colocarás nada en esta fase (en secreto hasta que todos los asientos hayan elegido)",
    ),
    _rule(
        r"you will place (.+) \(sealed until every seat has chosen\)",
        lambda m: f"colocarás {m[1]} (en secreto hasta que todos los asientos hayan elegido)",
    ),
    _rule(r"you discarded (.+) face down \(hand limit\)", lambda m: f"descartaste {m[1]} boca abajo (límite de mano)"),
    _rule(r"you discarded (.+) face down", lambda m: f"descartaste {m[1]} boca abajo"),
    _rule(r"you discarded (.+) for (\d+) VP", lambda m: f"descartaste {m[1]} por {m[2]} PV"),
    _rule(r"you drew (.+) \((.+)\)", _sv_you_drew),
    _rule(
        r"the supply ran out: the discard pile \((\d+) cards\) is shuffled into it",
        lambda m: f"el suministro se agotó: la pila de descarte ({m[1]} cartas) se baraja en él",
    ),
]


# --------------------------------------------------------------------------- Yo soy el jefe

_YSJ_KIND = {"family": "familia", "hire": "empleo", "stop": "parada", "travel": "viaje", "boss": "jefe"}


def _ysj_seat(m: re.Match[str]) -> str:
    """Return the acting seat of a Yo soy el jefe sentence, with "(el jefe)" when the sentence says so."""
    return f"el asiento {m['s']}" + (" (el jefe)" if m["boss"] else "")


def _ysj_needs(text: str) -> str:
    """Return a space's needs ("rojo, azul + 1 of naranja/verde") in Spanish."""
    return re.sub(r" \+ (\d+) of ", r" + \1 de ", text)


def _ysj_card(m: re.Match[str]) -> str:
    """Return an influence card named as ``family card (familia) rojo YSJ-FAM-ROJ-1`` in Spanish."""
    colour = f" {m['colour']}" if m["colour"] else ""
    return f"la carta de {m['es']}{colour} {m['id']}"


def _ysj_stopped(text: str) -> str:
    if w := re.fullmatch(r"seat (\d+)'s boss card \(to become the boss\)", text):
        return f"la carta de jefe del asiento {w[1]} (para ser el jefe)"
    if w := re.fullmatch(r"seat (\d+)'s hire set to take the (\w+) investor beside the board", text):
        return f"el juego de empleo del asiento {w[1]} para tomar el inversor {w[2]} de junto al tablero"
    if w := re.fullmatch(r"seat (\d+)'s hire set to take the (\w+) investor of seat (\d+)", text):
        return f"el juego de empleo del asiento {w[1]} para tomar el inversor {w[2]} del asiento {w[3]}"
    if w := re.fullmatch(r"seat (\d+)'s travel card on seat (\d+)'s (\w+) (family card|investor)", text):
        target = f"la carta de familia {w[3]}" if w[4] == "family card" else f"el inversor {w[3]}"
        return f"la carta de viaje del asiento {w[1]} sobre {target} del asiento {w[2]}"
    raise Unread(text)


def _ysj_dealt(text: str) -> str:
    out = []
    for part in text.split("; "):
        if w := re.fullmatch(r"seat (\d+) (.+)", part):
            out.append(f"asiento {w[1]}: {w[2]}")
        elif w := re.fullmatch(r"beside the board: (.+)", part):
            out.append(f"junto al tablero: {w[1]}")
        else:
            raise Unread(part)
    return "; ".join(out)


def _ysj_cards(text: str) -> str:
    """Return a list of influence cards as the engine names them (``hire card (empleo) YSJ-EMP-3, ...``) in
    Spanish (``carta de empleo YSJ-EMP-3, ...``)."""
    said = re.sub(r"\b(?:family|travel|boss|hire|stop) card \((\w+)\)", r"carta de \1", text)
    if re.search(r"\bcard\b", said):
        raise Unread(text)
    return said


def _ysj_back(text: str) -> str:
    out = []
    for part in text.split(", "):
        w = re.fullmatch(r"(\S+) to seat (\d+)", part)
        if w is None:
            raise Unread(part)
        out.append(f"{w[1]} al asiento {w[2]}")
    return ", ".join(out)


def _ysj_game_over(m: re.Match[str]) -> str:
    from club_agentes.mcp_server.clubhouse.words import translate

    said = translate("yo-soy-el-jefe", m[1] + ".")
    return f"La partida ha terminado: {said.removesuffix('.')}"


_S = r"seat (?P<s>\d+)(?P<boss> \(the boss\))?"
"""The acting seat of a Yo soy el jefe sentence (the boss is named so)."""
_CARD = r"(?P<kind>\w+) card \((?P<es>\w+)\)(?: (?P<colour>[a-z]+))? (?P<id>YSJ-[A-Z0-9-]+)"
"""An influence card as the engine names it: ``travel card (viaje) gris YSJ-VIA-GRI-2``."""

YO_SOY_EL_JEFE: list[Rule] = [
    _rule(
        r"the influence cards were shuffled and (\d+) dealt to each seat; (\d+) remain in the deck\. Deal card #(\d+) "
        r"lies on top of the (\d+) deal cards",
        lambda m: (
            f"las cartas de influencia se barajaron y se repartieron {m[1]} a cada asiento; quedan {m[2]} en el mazo. "
            f"La carta de negociación #{m[3]} está encima de las {m[4]} cartas de negociación"
        ),
    ),
    _rule(r"investor cards dealt: (.+)", lambda m: f"cartas de inversor repartidas: {_ysj_dealt(m[1])}"),
    _rule(
        r"seat (\d+) plays first \((drawn by the seed|named by the table's options)\); play goes clockwise "
        r"\(seat numbers ascending\)",
        lambda m: (
            f"el asiento {m[1]} juega primero ("
            + ("sorteado por la semilla" if m[2].startswith("drawn") else "lo dicen las opciones de la mesa")
            + "); se juega en el sentido de las agujas del reloj (números de asiento crecientes)"
        ),
    ),
    _rule(r"seat (\d+) plays first", lambda m: f"el asiento {m[1]} juega primero"),
    _rule(
        r"seat (\d+), to the first player's right, places the dollar marker",
        lambda m: f"el asiento {m[1]}, a la derecha del primer jugador, coloca el marcador de dólares",
    ),
    _rule(
        r"seat (\d+) placed the dollar marker on space (\d+) \((\d+) dividends, needs (.+)\)",
        lambda m: (
            f"el asiento {m[1]} colocó el marcador de dólares en la casilla {m[2]} ({m[3]} dividendos, necesita "
            f"{_ysj_needs(m[4])})"
        ),
    ),
    _rule(r"seat (\d+) is on turn", lambda m: f"turno del asiento {m[1]}"),
    _rule(
        r"the dollar marker starts on space (\d+) \((\d+) dividends, needs (.+)\), as the table's options say",
        lambda m: (
            f"el marcador de dólares empieza en la casilla {m[1]} ({m[2]} dividendos, necesita {_ysj_needs(m[3])}), "
            "como dicen las opciones de la mesa"
        ),
    ),
    _rule(
        r"seat (\d+) used no influence card in this deal, so the (\d+)M for its (\w+) stays with seat (\d+)",
        lambda m: (
            f"el asiento {m[1]} no usó ninguna carta de influencia en este trato, así que los {m[2]}M por su {m[3]} "
            f"se quedan con el asiento {m[4]}"
        ),
    ),
    _rule(
        r"seat (\d+) rolled (\d+) and moved the marker to space (\d+) \((\d+) dividends, needs (.+)\)",
        lambda m: (
            f"el asiento {m[1]} sacó un {m[2]} y movió el marcador a la casilla {m[3]} ({m[4]} dividendos, necesita "
            f"{_ysj_needs(m[5])})"
        ),
    ),
    _rule(
        r"seat (\d+) took (\d+) influence card\(s\) and now holds (\d+)",
        lambda m: f"el asiento {m[1]} tomó {_n(m[2], 'carta', 'cartas')} de influencia y ahora tiene {m[3]}",
    ),
    _rule(
        r"seat (\d+) said '¡Vamos a negociar!' on space (\d+): (\d+) dividends of (\d+)M \(deal card #(\d+)\) pay "
        r"(\d+)M and need (.+); seat (\d+) is the boss",
        lambda m: (
            f"el asiento {m[1]} dijo '¡Vamos a negociar!' en la casilla {m[2]}: {m[3]} dividendos de {m[4]}M (carta "
            f"de negociación #{m[5]}) pagan {m[6]}M y necesitan {_ysj_needs(m[7])}; el asiento {m[8]} es el jefe"
        ),
    ),
    _rule(
        _S + r" placed family card \(familia\) (?P<colour>\w+) (?P<id>\S+) in the deal",
        lambda m: f"{_ysj_seat(m)} colocó la carta de familia {m['colour']} {m['id']} en el trato",
    ),
    _rule(
        _S + r" proposes (?P<d>\d+) dividend\(s\) \((?P<v>\d+)M\) to seat (?P<t>\d+) for its (?P<c>\w+)",
        lambda m: (
            f"{_ysj_seat(m)} propone {_n(m['d'], 'dividendo', 'dividendos')} ({m['v']}M) al asiento {m['t']} por "
            f"su {m['c']}"
        ),
    ),
    _rule(
        _S + r" proposes (?P<v>\d+)M to seat (?P<t>\d+) for its (?P<c>\w+)",
        lambda m: f"{_ysj_seat(m)} propone {m['v']}M al asiento {m['t']} por su {m['c']}",
    ),
    _rule(
        _S + r" proposes a price to seat (?P<t>\d+) for its (?P<c>\w+)",
        lambda m: f"{_ysj_seat(m)} propone un precio al asiento {m['t']} por su {m['c']}",
    ),
    _rule(
        _S + r" asks (?P<d>\d+) dividend\(s\) \((?P<v>\d+)M\) of the boss for its (?P<c>\w+)",
        lambda m: f"{_ysj_seat(m)} pide {_n(m['d'], 'dividendo', 'dividendos')} ({m['v']}M) al jefe por su {m['c']}",
    ),
    _rule(
        _S + r" asks (?P<v>\d+)M of the boss for its (?P<c>\w+)",
        lambda m: f"{_ysj_seat(m)} pide {m['v']}M al jefe por su {m['c']}",
    ),
    _rule(
        _S + r" offers its (?P<c>\w+) \((?P<what>family card|investor)\) to the boss and names its price",
        lambda m: (
            f"{_ysj_seat(m)} ofrece su {m['c']} "
            f"({'carta de familia' if m['what'] == 'family card' else 'inversor'}) al jefe y pone su precio"
        ),
    ),
    _rule(
        _S + r" accepted: seat (?P<t>\d+)'s (?P<c>\w+) takes part for (?P<v>\d+)M \(promised so far: (?P<p>\d+)M of "
        r"(?P<pay>\d+)M\)",
        lambda m: (
            f"{_ysj_seat(m)} aceptó: el {m['c']} del asiento {m['t']} participa por {m['v']}M (prometido hasta "
            f"ahora: {m['p']}M de {m['pay']}M)"
        ),
    ),
    _rule(
        _S + r" refused (?P<v>\d+)M for seat (?P<t>\d+)'s (?P<c>\w+)",
        lambda m: f"{_ysj_seat(m)} rechazó {m['v']}M por el {m['c']} del asiento {m['t']}",
    ),
    _rule(
        _S + r" withdrew its price of (?P<v>\d+)M for seat (?P<t>\d+)'s (?P<c>\w+)",
        lambda m: f"{_ysj_seat(m)} retiró su precio de {m['v']}M por el {m['c']} del asiento {m['t']}",
    ),
    _rule(
        _S + r" withdrew its price of (?P<v>\d+)M for its (?P<c>\w+)",
        lambda m: f"{_ysj_seat(m)} retiró su precio de {m['v']}M por su {m['c']}",
    ),
    _rule(_S + r" waits", lambda m: f"{_ysj_seat(m)} espera"),
    _rule(_S + r" passed \(no stop card played\)", lambda m: f"{_ysj_seat(m)} pasó (sin jugar carta de parada)"),
    _rule(_S + r" passed", lambda m: f"{_ysj_seat(m)} pasó"),
    _rule(
        _S + r" declared that the deal on space (?P<sp>\d+) has failed",
        lambda m: f"{_ysj_seat(m)} declaró que el trato de la casilla {m['sp']} ha fracasado",
    ),
    _rule(
        _S + r" said 'Uno, dos, la transacción se ha completado': the bank pays (?P<d>\d+) dividends of (?P<v>\d+)M "
        r"= (?P<p>\d+)M to seat (?P<t>\d+)",
        lambda m: (
            f"{_ysj_seat(m)} dijo 'Uno, dos, la transacción se ha completado': la banca paga {m['d']} dividendos de "
            f"{m['v']}M = {m['p']}M al asiento {m['t']}"
        ),
    ),
    _rule(
        _S + r" discarded " + _CARD + r" over the hand limit",
        lambda m: f"{_ysj_seat(m)} descartó {_ysj_card(m)} por superar el límite de la mano",
    ),
    _rule(
        _S + r" played travel card \(viaje\) (?P<colour>\w+) (?P<id>\S+) on seat (?P<t>\d+)'s (?P<c>\w+) "
        r"(?P<what>family card|investor)",
        lambda m: (
            f"{_ysj_seat(m)} jugó la carta de viaje {m['colour']} {m['id']} sobre "
            + (f"la carta de familia {m['c']}" if m["what"] == "family card" else f"el inversor {m['c']}")
            + f" del asiento {m['t']}"
        ),
    ),
    _rule(
        _S + r" played boss card \(jefe\) (?P<id>\S+): '¡Soy el jefe!' \(it would (?P<what>keep the negotiation as "
        r"it stands|restart the negotiation)\)",
        lambda m: (
            f"{_ysj_seat(m)} jugó la carta de jefe {m['id']}: '¡Soy el jefe!' ("
            + (
                "mantendría la negociación tal como está"
                if m["what"].startswith("keep")
                else "reiniciaría la negociación"
            )
            + ")"
        ),
    ),
    _rule(
        _S + r" played a hire set \((?P<ids>[^)]+)\) to take the (?P<c>\w+) investor from beside the board",
        lambda m: (
            f"{_ysj_seat(m)} jugó un juego de empleo ({m['ids']}) para tomar el inversor {m['c']} de junto al tablero"
        ),
    ),
    _rule(
        _S + r" played a hire set \((?P<ids>[^)]+)\) to take the (?P<c>\w+) investor from seat (?P<t>\d+)",
        lambda m: (
            f"{_ysj_seat(m)} jugó un juego de empleo ({m['ids']}) para tomar el inversor {m['c']} del asiento {m['t']}"
        ),
    ),
    _rule(
        _S + r" played stop card \(parada\) (?P<id>\S+): (?P<what>.+) is cancelled, and the cards are discarded",
        lambda m: (
            f"{_ysj_seat(m)} jugó la carta de parada {m['id']}: se anula {_ysj_stopped(m['what'])}, y las cartas "
            "se descartan"
        ),
    ),
    _rule(
        r"nobody stopped it: seat (\d+) is now the boss instead of seat (\d+) and keeps the negotiation as it stands",
        lambda m: (
            f"nadie lo paró: el asiento {m[1]} es ahora el jefe en lugar del asiento {m[2]} y mantiene la negociación "
            "tal como está"
        ),
    ),
    _rule(
        r"nobody stopped it: seat (\d+) is now the boss instead of seat (\d+) and restarts the negotiation",
        lambda m: (
            f"nadie lo paró: el asiento {m[1]} es ahora el jefe en lugar del asiento {m[2]} y reinicia la negociación"
        ),
    ),
    _rule(
        r"nobody stopped it: seat (\d+) took the (\w+) investor from beside the board",
        lambda m: f"nadie lo paró: el asiento {m[1]} tomó el inversor {m[2]} de junto al tablero",
    ),
    _rule(
        r"nobody stopped it: seat (\d+) took the (\w+) investor from seat (\d+)",
        lambda m: f"nadie lo paró: el asiento {m[1]} tomó el inversor {m[2]} del asiento {m[3]}",
    ),
    _rule(
        r"nobody stopped it: seat (\d+)'s (\w+) family card has travelled; both cards are discarded",
        lambda m: (
            f"nadie lo paró: la carta de familia {m[2]} del asiento {m[1]} se ha ido de viaje; las dos cartas se "
            "descartan"
        ),
    ),
    _rule(
        r"nobody stopped it: seat (\d+)'s (\w+) investor has travelled and cannot take part in this deal",
        lambda m: (
            f"nadie lo paró: el inversor {m[2]} del asiento {m[1]} se ha ido de viaje y no puede participar en este "
            "trato"
        ),
    ),
    _rule(
        r"seat (\d+) paid (\d+)M to seat (\d+) for its (\w+) \((family|investor)\) as agreed",
        lambda m: (
            f"el asiento {m[1]} pagó {m[2]}M al asiento {m[3]} por su {m[4]} "
            f"({'familia' if m[5] == 'family' else 'inversor'}), como se acordó"
        ),
    ),
    _rule(
        r"seat (\d+) paid (\d+)M to seat (\d+) for its (\w+) \(forced\) for using its investor \(two-player rules\)",
        lambda m: (
            f"el asiento {m[1]} pagó {m[2]}M al asiento {m[3]} por su {m[4]} (obligado) por usar su inversor (reglas "
            "para dos jugadores)"
        ),
    ),
    _rule(
        r"seat (\d+) took back its family card (\S+) \(it did not take part\)",
        lambda m: f"el asiento {m[1]} recuperó su carta de familia {m[2]} (no participó)",
    ),
    _rule(
        r"family cards back to their hands: (.+)",
        lambda m: f"cartas de familia de vuelta a sus manos: {_ysj_back(m[1])}",
    ),
    _rule(r"discarded after the deal: (.+)", lambda m: f"descartadas tras el trato: {m[1]}"),
    _rule(r"discarded: (.+)", lambda m: f"descartadas: {m[1]}"),
    _rule(
        r"deal card #(\d+) now covers space (\d+) \(deal (\d+)\); the marker moves to space (\d+)",
        lambda m: (
            f"la carta de negociación #{m[1]} cubre ahora la casilla {m[2]} (trato {m[3]}); el marcador pasa a la "
            f"casilla {m[4]}"
        ),
    ),
    _rule(
        r"seat (\d+) rolled (\d+) for the end: deal card #(\d+) shows ([\d, ]+?)(, so the game goes on)?",
        lambda m: (
            f"el asiento {m[1]} sacó un {m[2]} para el final: la carta de negociación #{m[3]} muestra {m[4]}"
            + (", así que la partida sigue" if m[5] else "")
        ),
    ),
    _rule(
        r"seat (\d+)'s agreement for its (\w+) \((\d+)M\) lapses: it has no (\w+) investor able to take part and no "
        r"(\w+) family card placed",
        lambda m: (
            f"el acuerdo del asiento {m[1]} por su {m[2]} ({m[3]}M) caduca: no tiene ningún inversor {m[4]} que pueda "
            f"participar ni carta de familia {m[5]} colocada"
        ),
    ),
    _rule(
        r"the (\d+)M (asked by|proposed to) seat (\d+) for its (\w+) is withdrawn: it has no (\w+) investor able to "
        r"take part and no (\w+) family card placed",
        lambda m: (
            f"los {m[1]}M {'pedidos por el' if m[2] == 'asked by' else 'propuestos al'} asiento {m[3]} por su {m[4]} "
            "se "
            f"retiran: no tiene ningún inversor {m[5]} que pueda participar ni carta de familia {m[6]} colocada"
        ),
    ),
    _rule(r"The game is over: (.+)", _ysj_game_over),
    # what only the seat concerned was told (a finished game's replay shows it)
    _rule(r"you were dealt (.+)", lambda m: f"recibiste {_ysj_cards(m[1])}"),
    _rule(r"you drew nothing \(both decks are empty\)", lambda m: "no robaste nada (los dos mazos están vacíos)"),
    _rule(r"you drew (.+)", lambda m: f"robaste {_ysj_cards(m[1])}"),
]


EVENTS: dict[str, list[Rule]] = {
    "market-fortune": MARKET_FORTUNE,
    "se-vende": SE_VENDE,
    "yo-soy-el-jefe": YO_SOY_EL_JEFE,
}
"""Per game, one pattern per public event sentence its steps write, each with its Spanish (a game's result
sentences, which also end its log, are read by :data:`~.words.RESULTS`)."""


def event_in_spanish(game: str, text: str) -> str | None:
    """Return an event sentence of ``game`` in Spanish, or ``None`` if no pattern of :data:`EVENTS` reads it."""
    body = text.strip()
    stop = body.endswith(".")
    body = body.removesuffix(".")
    for pattern, say in EVENTS.get(game, ()):
        m = pattern.match(body)
        if m:
            try:
                said = say(m)
            except LookupError:
                continue
            return said[:1].upper() + said[1:] + ("." if stop else "")
    return None


__all__ = ["EVENTS", "Unread", "event_in_spanish"]
