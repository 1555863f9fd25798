"""The engine's public texts in the page's language: decisions, results and options (events: see below).

The engines write their events, prompts and result lines in English (for models). :class:`Words` is the one
door the web app passes them through; the English page shows them as written, the Spanish page in Spanish:

* **decisions** are said again from the view's structured data (the step, the seats, the negotiation), per
  game, not translated from the English prompt;
* **results** (the reason and each breakdown line) are read by the patterns of :data:`RESULTS`, one per
  sentence the games' scoring writes (tests check every result of many played games is covered);
* **options** by their names (:data:`OPTION_NAMES`);
* **events** (the log, the last move's line, the replay's move list) are read back by one pattern per sentence
  the games' steps write (:data:`.events.EVENTS`; result sentences that end a log by :data:`RESULTS`): most
  events carry no structured data (``Event.data``) to say them from. A sentence no pattern reads (a new or
  reworded engine sentence) is shown as written and marked ``lang="en"``; the tests play seeded games of every
  game and configuration so that none is left.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from club_agentes.mcp_server.clubhouse.events import Unread, event_in_spanish
from club_agentes.mcp_server.clubhouse.i18n import TEXTS
from club_agentes.mcp_server.clubhouse.textview import spectator_text
from club_agentes.mcp_server.eventrow import EventRow

Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


def _seats(text: str) -> tuple[str, bool]:
    """Return a seat list of the English texts ("seat 0", "seat 0 and seat 2", "seat 0, 2", "seat 0, seat 1 and
    seat 2") in Spanish, and whether it names more than one seat."""
    numbers = re.findall(r"\d+", text)
    if len(numbers) == 1:
        return f"el asiento {numbers[0]}", False
    return "los asientos " + ", ".join(numbers[:-1]) + " y " + numbers[-1], True


def _rule(pattern: str, say: Callable[[re.Match[str]], str]) -> Rule:
    return re.compile(pattern + r"$"), say


def _criteria(m: re.Match[str], group: int) -> str:
    return " (criterio no cumplido)" if m.group(group) else ""


def _mf_winner(text: str, verb_one: str, verb_many: str) -> str:
    who, many = _seats(text)
    return f"{who} {verb_many if many else verb_one}"


RESULTS: dict[str, list[Rule]] = {
    "market-fortune": [
        _rule(
            r"seat (\d+) declared victory with (\d+)M \(4 investments and 25M or more\) and wins",
            lambda m: f"el asiento {m[1]} declaró la victoria con {m[2]}M (4 inversiones y 25M o más) y gana",
        ),
        _rule(
            r"seat (\d+) formed its 4th investment and wins \(Familia\)",
            lambda m: f"el asiento {m[1]} formó su 4.ª inversión y gana (Familia)",
        ),
        _rule(
            r"seat ([\d, ]+) reached (\d+)M, at least 100M, and wins the Campeonato",
            lambda m: (
                f"{_mf_winner(m[1], 'llegó', 'llegaron')} a {m[2]}M, al menos 100M, y "
                + ("ganan" if _seats(m[1])[1] else "gana")
                + " el Campeonato"
            ),
        ),
        _rule(
            r"the match reached its limit of (\d+) games; seat ([\d, ]+) has the highest total, (\d+)M, "
            r"and wins the Campeonato",
            lambda m: (
                f"el campeonato llegó a su límite de {m[1]} partidas; {_mf_winner(m[2], 'tiene', 'tienen')} "
                f"el total más alto, {m[3]}M, y " + ("ganan" if _seats(m[2])[1] else "gana") + " el Campeonato"
            ),
        ),
        _rule(
            r"the turn limit of (\d+) turns was reached and nobody has an investment: nobody wins this game",
            lambda m: f"se alcanzó el límite de {m[1]} turnos y nadie tiene una inversión: nadie gana esta partida",
        ),
        _rule(
            r"the turn limit of (\d+) turns was reached: seat ([\d, ]+) wins with the most investments \((\d+)\)",
            lambda m: (
                f"se alcanzó el límite de {m[1]} turnos: {_mf_winner(m[2], 'gana', 'ganan')} con más "
                f"inversiones ({m[3]})"
            ),
        ),
        _rule(
            r"the turn limit of (\d+) turns was reached: seat ([\d, ]+) wins with the highest portfolio \((\d+)M\)",
            lambda m: (
                f"se alcanzó el límite de {m[1]} turnos: {_mf_winner(m[2], 'gana', 'ganan')} con la cartera "
                f"más alta ({m[3]}M)"
            ),
        ),
        _rule(
            r"investment #(\d+): (\S+) (\d+)M \+ (\d+)M",
            lambda m: f"inversión #{m[1]}: {m[2]} {m[3]}M + {m[4]}M",
        ),
        _rule(
            r"investment #(\d+): (\S+) \(in Familia values do not count\)",
            lambda m: f"inversión #{m[1]}: {m[2]} (en Familia los valores no cuentan)",
        ),
        _rule(
            r"green (.+?) on investment #(\d+)( \(criteria not met\))?",
            lambda m: f"verde {m[1]} en la inversión #{m[2]}{_criteria(m, 3)}",
        ),
        _rule(r"yellow (.+?)( \(criteria not met\))?", lambda m: f"amarilla {m[1]}{_criteria(m, 2)}"),
        _rule(r"game (\d+) won: (\d+)M credited", lambda m: f"partida {m[1]} ganada: {m[2]}M sumados"),
    ],
    "se-vende": [
        _rule(
            r"the game ended at the end of round (\d+) because (.+?); (.+?); scores: (.+)",
            lambda m: (
                f"la partida terminó al final de la ronda {m[1]} porque {_sv_why(m[2])}; {_sv_outcome(m[3])}; "
                "puntos: " + re.sub(r"seat (\d+) (\d+) VP", r"asiento \1: \2 PV", m[4])
            ),
        ),
        _rule(r"tableau: world (.+)", lambda m: f"tableau: mundo {m[1]}"),
        _rule(r"tableau: military world (.+)", lambda m: f"tableau: mundo militar {m[1]}"),
        _rule(r"tableau: development (.+)", lambda m: f"tableau: desarrollo {m[1]}"),
        _rule(r"special: (.+?\)): (.+)", lambda m: f"especial: {m[1]}: " + re.sub(r" x (\d+)", r" × \1", m[2])),
        _rule(r"victory chips", lambda m: "fichas de victoria"),
    ],
    "yo-soy-el-jefe": [
        _rule(r"(.+?); (seat .+?) (?:has|have) the most money, (\d+)M( \(a shared win\))?\.", lambda m: _ysj_end(m)),
        _rule(
            r"deal (\d+) \(space (\d+)\): payout from the bank as boss",
            lambda m: f"trato {m[1]} (casilla {m[2]}): pago del banco como jefe",
        ),
        _rule(
            r"deal (\d+) \(space (\d+)\): paid seat (\d+) for its (\w+)",
            lambda m: f"trato {m[1]} (casilla {m[2]}): pagó al asiento {m[3]} por su {m[4]}",
        ),
        _rule(
            r"deal (\d+) \(space (\d+)\): paid by seat (\d+) \(the boss\) for (\w+)",
            lambda m: f"trato {m[1]} (casilla {m[2]}): pagado por el asiento {m[3]} (el jefe) por {m[4]}",
        ),
    ],
}
"""Per game, the sentences its result's reason and breakdown lines take, each with its Spanish."""


def _sv_why(why: str) -> str:
    if why == "the last victory chip was handed out":
        return "se repartió la última ficha de victoria"
    m = re.fullmatch(r"(.+) reached (\d+) or more tableau cards", why)
    if m:
        who, many = _seats(m[1])
        return f"{who} {'llegaron' if many else 'llegó'} a {m[2]} o más cartas en su tableau"
    m = re.fullmatch(r"the turn limit of (\d+) rounds was reached", why)
    if m:
        return f"se alcanzó el límite de {m[1]} rondas"
    raise LookupError(why)


def _sv_outcome(outcome: str) -> str:
    m = re.fullmatch(r"seat (\d+) wins with (\d+) VP \((.+)\)", outcome)
    if m:
        return f"gana el asiento {m[1]} con {m[2]} PV ({m[3]})"
    m = re.fullmatch(r"(.+) share the victory with (\d+) VP \(ruling (.+)\)", outcome)
    if m:
        return f"{_seats(m[1])[0]} comparten la victoria con {m[2]} PV (regla {m[3]})"
    raise LookupError(outcome)


def _ysj_end(m: re.Match[str]) -> str:
    why = m[1]
    w = re.fullmatch(r"deal card #(\d+) was the last: the game ends without a roll", why)
    if w:
        said = f"la carta de negociación #{w[1]} era la última: la partida termina sin tirar el dado"
    elif w := re.fullmatch(r"seat (\d+) rolled (\d+) after deal (\d+), a number on card #(\d+)", why):
        said = f"el asiento {w[1]} sacó un {w[2]} tras el trato {w[3]}, un número de la carta #{w[4]}"
    elif w := re.fullmatch(
        r"(\d+) negotiations in a row have failed with no deal closed, the table's safety limit", why
    ):
        said = f"{w[1]} negociaciones seguidas han fracasado sin cerrar ningún trato, el límite de seguridad de la mesa"
    else:
        raise LookupError(why)
    who, many = _seats(m[2])
    shared = " (victoria compartida)" if m[4] else ""
    return f"{said}; {who} {'tienen' if many else 'tiene'} más dinero, {m[3]}M{shared}."


UNITS = {"M": "M", "VP": "PV", "investments": "inversiones"}
"""Result units in Spanish."""

OPTION_NAMES: dict[str, str] = {
    "mode": "modo",
    "turn_limit": "límite de turnos",
    "game_limit": "límite de partidas",
    "failed_negotiations_limit": "límite de negociaciones fallidas seguidas",
    "first_player": "primer jugador",
    "marker_start": "casilla inicial del marcador",
    "two_player_rules": "reglas para dos jugadores",
    "boss_card_keeps_turn": "la carta de jefe conserva el turno",
    "mandatory_negotiation_with_10_cards": "negociación obligatoria con 10 cartas",
    "dividends_only_for_participants": "dividendos solo para los participantes",
    "draw_by_investors": "robar según los inversores",
    "no_negotiation_with_3_cards_or_fewer": "sin negociar con 3 cartas o menos",
    "hand_limit_10_from_tenth_deal": "límite de 10 cartas desde el décimo trato",
    "quick_game": "partida rápida",
}
"""Every game option's name in Spanish (the values are numbers, seats or the rulebooks' Spanish words)."""


class Untranslated(LookupError):
    """An engine sentence no pattern of :data:`RESULTS` reads (a new or reworded sentence)."""


def translate(game: str, text: str) -> str:
    """Return a result reason or breakdown line of ``game`` in Spanish.

    Raises:
        Untranslated: no pattern reads ``text``.
    """
    for pattern, say in RESULTS.get(game, ()):
        m = pattern.match(text)
        if m:
            try:
                return say(m)
            except LookupError:
                break
    raise Untranslated(f"{game}: {text[:200]!r}")


def event_text(game: str, text: str) -> str:
    """Return an event sentence of ``game`` in Spanish (its event patterns, else its result patterns).

    Raises:
        Untranslated: no pattern reads ``text``.
    """
    said = event_in_spanish(game, text)
    if said is not None:
        return said
    said = translate(game, text.strip())
    return said[:1].upper() + said[1:]


class Words:
    """The engine's public texts of one game in one language (``es`` or ``en``)."""

    def __init__(self, game: str, lang: str) -> None:
        self.game = game
        self.lang = lang

    def event_said(self, text: str) -> tuple[str, str]:
        """Return an event's sentence in the page's language and the language it is in (``en`` if unread)."""
        if self.lang == "en":
            return text, "en"
        try:
            return event_text(self.game, text), "es"
        except Untranslated:
            return text, "en"

    def event(self, text: str) -> str:
        """Return an event's sentence in the page's language (as written if no pattern reads it)."""
        return self.event_said(text)[0]

    def event_line(self, e: EventRow) -> dict[str, str]:
        """Return an event's words and their language, marking private ones (replays only) with their audience."""
        t = TEXTS[self.lang]
        text, lang = self.event_said(e.text)
        if e.audience is not None:
            who = ", ".join(f"{t['seat']} {s}" for s in e.audience)
            text = f"[{t['private']} {who}] {text}"
        return {"text": text, "lang": lang}

    def say(self, text: str) -> tuple[str, str]:
        """Return a result sentence in the page's language and the language it is in (``en`` if unread)."""
        if self.lang == "en":
            return text, "en"
        try:
            return translate(self.game, text), "es"
        except Untranslated:
            return text, "en"

    def prompt(self, view: Mapping[str, Any], prompt: str) -> str:
        """Return the decision in the page's language (in Spanish, said from the view's structured data)."""
        if self.lang == "en":
            return prompt
        say = PROMPTS.get(self.game)
        return say(view) if say is not None else prompt

    def text_view(self, view: Mapping[str, Any], text: str, result: Mapping[str, Any] | None) -> tuple[str, str]:
        """Return a spectator view as text in the page's language and the language it is in.

        ``text`` is the engine's English text of ``view``, shown as written on the English page (and on the
        Spanish one if the view carries a phrase :mod:`.textview` does not read, then marked ``en``); ``result``
        is the stored result once the view shows the game over.
        """
        if self.lang == "en":
            return text, "en"
        try:
            prompt = self.prompt(view, str(view.get("decision", {}).get("prompt", "")))
            return spectator_text(self.game, view, prompt, self.result(result) if result else None), "es"
        except Unread:
            return text, "en"

    def result(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """Return a stored result with its reason, units and breakdown lines in the page's language; each text
        comes with its language (``reason_lang``, ``label_lang``) for the few an unread sentence leaves English."""
        reason, reason_lang = self.say(str(result.get("reason", "")))
        breakdown = []
        for b in result.get("breakdown", []):
            lines = []
            for line in b.get("lines", []):
                label, lang = self.say(str(line.get("label", "")))
                lines.append({**line, "label": label, "label_lang": lang})
            unit = str(b.get("unit", ""))
            breakdown.append({**b, "unit": UNITS.get(unit, unit) if self.lang == "es" else unit, "lines": lines})
        return {**result, "reason": reason, "reason_lang": reason_lang, "breakdown": breakdown}

    def options(self, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Return a table's game options as ``(name, value)`` pairs in the page's language."""
        t = TEXTS[self.lang]
        out = []
        for k, v in options.items():
            name = OPTION_NAMES.get(k, k) if self.lang == "es" else k.replace("_", " ")
            value = (t["yes"] if v else t["no"]) if isinstance(v, bool) else ("—" if v is None else str(v))
            out.append((name, value))
        return out


# --------------------------------------------------------------------------- decisions, said from the view


def _seat_words(seats: list[int]) -> str:
    if not seats:
        return "nadie"
    return _seats(" ".join(str(s) for s in seats))[0]


def _mf_prompt(v: Mapping[str, Any]) -> str:
    t = v["turn"]
    s = t["seat"]
    step = t["step"]
    attack = v.get("attack")
    if attack is not None:
        who = _seat_words([attack["polled"]] if attack.get("polled") is not None else [])
        return (
            f"El asiento {attack['attacker']} ataca con {attack['card']['name']}: {who} se defiende con una "
            "estrategia azul o no se defiende."
        )
    if step == "main":
        actions = "Construir o Dominar" if t["no_risk_this_turn"] else "Construir, Arriesgar o Dominar"
        extra = "" if t["red_used"] else " (antes puede jugar 1 estrategia roja u optimizar una inversión boca abajo)"
        return f"El asiento {s} elige su acción: {actions}{extra}."
    said = {
        "build-discard": f"Construir: el asiento {s} descarta 1 carta $ o +R.",
        "optimise-cost": f"El asiento {s} paga la optimización descartando 1 carta de construcción de su mano.",
        "trim": f"Regla de 8: el asiento {s} tiene más de 8 cartas de construcción al final de su turno y descarta 1.",
        "formed": f"El asiento {s} formó una inversión: puede unirle una estrategia verde, o pasar.",
        "closing": f"El asiento {s} declaró la victoria: puede unir estrategias verdes a sus inversiones boca abajo, "
        "o revelar su cartera para contarla.",
        "return": f"La declaración del asiento {s} falló: elige la inversión que vuelve a su mano.",
        "dominated": f"Dominar: el asiento {s} juega ahora la estrategia roja que tomó, o la guarda y termina su "
        "turno.",
        "take": f"El asiento {s} elige de dónde toma 1 carta de construcción extra.",
        "rescue": f"El asiento {s} toma una carta del mazo $ o del mazo +R.",
    }
    return said.get(step, f"Decide el asiento {s}.")


_SV_STEPS = {
    "setup_discard": "Preparación: cada asiento descarta dos de sus seis cartas boca abajo, de una en una.",
    "choose_action": "Cada asiento elige en secreto su carta de acción.",
    "explore_keep": "Explorar: cada asiento se queda cartas de las que robó, de una en una; el resto se descarta "
    "boca abajo.",
    "develop_place": "Desarrollar: cada asiento elige en secreto un desarrollo de su mano para colocar, o ninguno.",
    "develop_pay": "Desarrollar: cada asiento paga su desarrollo descartando cartas de su mano, de una en una.",
    "settle_place": "Asentar: cada asiento elige en secreto un mundo de su mano para colocar, o ninguno.",
    "settle_pay": "Asentar: cada asiento paga su mundo descartando cartas de su mano, de una en una.",
    "consume": "Consumir: quien eligió Comercio vende primero un bien; luego cada asiento usa sus poderes de "
    "consumo o termina.",
    "produce": "Producir: elegir un mundo de caída vacío donde producir un bien, o renunciar.",
    "hand_limit": "Fin de ronda: descartar hasta quedarse con diez cartas en la mano, de una en una.",
    "over": "La partida ha terminado.",
}


def _sv_prompt(v: Mapping[str, Any]) -> str:
    return _SV_STEPS.get(str(v.get("step")), "")


def _ysj_prompt(v: Mapping[str, Any]) -> str:
    deciding = list(v.get("decision", {}).get("seats", []))
    who = _seat_words(deciding)
    phase = v.get("phase")
    stop = v.get("card_waiting_for_stops")
    if stop is not None:
        answer = _seat_words(list(stop["still_to_answer"]))
        return (
            f"Una carta del asiento {stop['played_by']} espera respuesta: {answer} puede jugar una carta de parada "
            "para anularla, o pasar."
        )
    if phase == "marker":
        return (
            f"{who.capitalize()}, a la derecha del primer jugador, coloca el marcador de dólares en una casilla "
            "(1 a 16)."
        )
    if phase == "turn":
        return f"Turno del {who.removeprefix('el ')}: negociar en la casilla {v.get('marker')} o tirar el dado."
    if phase == "after_roll":
        return (
            f"{who.capitalize()} sacó un {v.get('last_roll')} y el marcador está en la casilla {v.get('marker')}: "
            "negociar allí o robar cartas de influencia."
        )
    if phase == "discard":
        return (
            f"{who.capitalize()} supera el límite de {v.get('hand_limit')} cartas de influencia: descarta una, o antes "
            "juega un juego de empleo para tomar un inversor."
        )
    neg = v.get("negotiation")
    if phase == "negotiation" and neg is not None:
        state = "tiene lo que necesita" if neg["complete"] else "aún le faltan inversores"
        naming = neg.get("price_being_named")
        if naming is not None:
            return (
                f"Negociación en la casilla {neg['space']['space']} ({neg['payout']}M): el asiento {naming['by']} "
                f"pone precio al {naming['colour']} del asiento {naming['for_seat']}."
            )
        return (
            f"Negociación en la casilla {neg['space']['space']} ({neg['payout']}M), jefe el asiento {neg['boss']}; "
            f"el trato {state}. Puede responder {who}: actuar (carta de familia, oferta y precio, aceptar, rechazar, "
            "retirar, carta de influencia) o pasar; el jefe puede actuar en cualquier momento y cierra cuando todos "
            "los demás han respondido."
        )
    if phase == "over":
        return "La partida ha terminado."
    return f"Decide {who}."


PROMPTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "market-fortune": _mf_prompt,
    "se-vende": _sv_prompt,
    "yo-soy-el-jefe": _ysj_prompt,
}
"""Per game, the decision said in Spanish from the view's structured data."""
