"""The text of a spectator's view in Spanish, said from the view's data (the page's *La vista en texto*).

The engines' ``render(view)`` writes the compact English text models read; the English page shows it as
written. The Spanish page shows this text instead: the same facts, line for line, written here from the
spectator's view (``game.view(state, None)``) with the rulebooks' terms. The few English phrases the views
carry as values (a money pile, a negotiation's last change and history, a stop card's target, why the game
ends after this round) are read by patterns, the history lines by the event patterns of :mod:`.events`; the
decision is :meth:`.words.Words.prompt`'s and the result :meth:`.words.Words.result`'s.

:func:`spectator_text` raises :class:`~.events.Unread` for a value no pattern reads; the page then shows
the engine's English text marked ``lang="en"``, and ``tests/clubhouse/test_textview.py`` fails on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from club_agentes.mcp_server.clubhouse.events import Unread, event_in_spanish

View = Mapping[str, Any]


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _amount(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _seats(seats: list[int]) -> str:
    return ", ".join(str(s) for s in seats) or "—"


# --------------------------------------------------------------------------- Market Fortune

_MF_COLOURS = {"red": "roja", "blue": "azul", "green": "verde", "yellow": "amarilla"}
_MF_HITS = {
    "the cards in hand": "golpea las cartas en mano",
    "investments": "golpea las inversiones",
    "the next turn": "golpea el próximo turno",
}


def _mf_card(c: Mapping[str, Any]) -> str:
    if c.get("kind") == "estrategia":
        colour = _MF_COLOURS.get(str(c.get("colour")))
        if colour is None:
            raise Unread(str(c.get("colour")))
        return f"{c['name']} [{c['id']}, {colour}]"
    return f"{c['name']} [{c['id']}]"


def _mf_investment(inv: Mapping[str, Any]) -> str:
    if "value" not in inv:
        return f"#{inv['index']} boca abajo{' +verde' if inv['has_green'] else ''}"
    text = f"#{inv['index']} {inv['stock']['industry']} {inv['stock']['value']}M+{inv['return']['value']}M"
    text += f"={inv['value']}M"
    if "green" in inv:
        text += f" +{inv['green']['name']}({inv['green_bonus']}M)"
    return text + (" (boca arriba)" if inv["face_up"] else "")


def _mf_text(v: View, prompt: str, result: Mapping[str, Any] | None) -> list[str]:
    t = v["turn"]
    lines = [
        f"Market Fortune, modo {v['mode']}, {v['seats']} asientos, turno {t['number']} de {t['limit']} como máximo."
    ]
    if "match" in v:
        m = v["match"]
        totals = ", ".join(f"asiento {s}: {x}M" for s, x in enumerate(m["totals"]))
        lines.append(
            f"Campeonato: partida {m['game']} (el campeonato termina al llegar a {m['target']}M o tras "
            f"{m['game_limit']} partidas); totales: {totals}."
        )
    if result is None:
        lines.append(f"Decisión del asiento {_seats(v['decision']['seats'])}: {prompt}")
    piles = []
    for key, label in (("stock", "mazo $"), ("return", "mazo +R"), ("strategy", "mazo de Estrategias")):
        p = v["piles"][key]
        top = _mf_card(p["discard_top"]) if p["discard_top"] else ("bloqueado" if p.get("blocked") else "vacío")
        down = f", {p['face_down']} boca abajo" if p.get("face_down") else ""
        piles.append(f"{label} {p['deck']}, descarte {p['discard_size']} (arriba: {top}{down})")
    lines.append("Pilas: " + "; ".join(piles) + ".")
    for p in v["players"]:
        invs = ", ".join(_mf_investment(i) for i in p["investments"]) or "ninguna"
        extra = ""
        if "match_total" in p:
            won = _count(p["games_won"], "partida ganada", "partidas ganadas")
            extra += f", total del campeonato {p['match_total']}M ({won})"
        extra += ", no puede Arriesgar el próximo turno" if p.get("no_risk_next_turn") else ""
        lines.append(
            f"Asiento {p['seat']}: {_count(p['hand'], 'carta de construcción', 'cartas de construcción')} en la mano "
            f"({p['hand_stock']} $, {p['hand_return']} +R; {p['building_cards']} con las inversiones), "
            f"{_count(p['strategies'], 'estrategia', 'estrategias')}, inversiones: {invs}{extra}."
        )
        if "known_to_all" in p:
            known = [*p["known_to_all"]["hand"], *p["known_to_all"]["strategies"]]
            lines.append("  a la vista de todos: " + ", ".join(_mf_card(c) for c in known) + ".")
    if "attack" in v:
        a = v["attack"]
        hits = _MF_HITS.get(str(a["attacks"]))
        if hits is None:
            raise Unread(str(a["attacks"]))
        lines.append(
            f"Ataque: el asiento {a['attacker']} juega {_mf_card(a['card'])} contra los asientos "
            f"{_seats(a['targets'])} ({hits}); resueltos: {_seats(a['resolved'])}; responde ahora: el asiento "
            f"{a['polled']}."
        )
    if result is not None:
        lines += _result_lines(result)
    return lines


def _result_lines(result: Mapping[str, Any]) -> list[str]:
    """Return a result (as :meth:`.words.Words.result` says it) as text lines."""
    if result.get("reason_lang") != "es" or any(
        line.get("label_lang") != "es" for b in result.get("breakdown", []) for line in b.get("lines", [])
    ):
        raise Unread(str(result.get("reason")))
    lines = [f"Resultado: {result['reason']}"]
    for b in result.get("breakdown", []):
        parts = ", ".join(f"{ln['label']} ({_amount(ln['amount'])})" for ln in b["lines"]) or "nada"
        lines.append(f"- asiento {b['seat']}: {_amount(b['total'])} {b['unit']} = {parts}.")
    return lines


# --------------------------------------------------------------------------- Se Vende

_SV_GOODS = {
    "novedad": "novedad",
    "elementos-raros": "elementos raros",
    "genes": "genes",
    "tecnologia-alienigena": "tecnología alienígena",
}
_SV_STEPS = {
    "setup_discard": "preparación",
    "choose_action": "elección de acciones",
    "explore_keep": "Explorar",
    "develop_place": "Desarrollar, elegir",
    "develop_pay": "Desarrollar, pagar",
    "settle_place": "Asentar, elegir",
    "settle_pay": "Asentar, pagar",
    "consume": "Consumir",
    "produce": "Producir",
    "hand_limit": "fin de ronda",
    "over": "partida terminada",
}


def _sv_card(card: Mapping[str, Any]) -> str:
    bits = [card["description"], f"{card['vp']} PV"]
    bits.extend(card.get("powers", []))
    bits.extend(f"especial: {t}" for t in card.get("special", []))
    good = ""
    if "good" in card:
        good = f" [bien: {_SV_GOODS[card['good']]}]" if card["good"] else " [sin bien]"
    new = (
        " [colocada en esta fase: sus poderes cuentan desde la siguiente]"
        if card.get("powers_start_next_phase")
        else ""
    )
    return f"{card['id']} {card['name']}{good}{new} ({'; '.join(bits)})"


def _sv_ending(why: str) -> str:
    if why == "the last victory chip has been handed out":
        return "se ha repartido la última ficha de victoria"
    if m := re.fullmatch(r"seat\(s\) ([\d, ]+) have (\d+) or more tableau cards", why):
        return f"el asiento o los asientos {m[1]} tienen {m[2]} o más cartas en su tableau"
    if m := re.fullmatch(r"this is the last round allowed by the turn limit \((\d+)\)", why):
        return f"es la última ronda que permite el límite de rondas ({m[1]})"
    raise Unread(why)


def _sv_text(v: View, prompt: str, result: Mapping[str, Any] | None) -> list[str]:
    step = _SV_STEPS.get(str(v["step"]))
    if step is None:
        raise Unread(str(v["step"]))
    phase = f", fase {v['phase']}" if v.get("phase") else ""
    lines = [f"Se Vende, ronda {v['round']} de {v['turn_limit']} como máximo{phase} ({step}). Vista de espectador."]
    if v["step"] == "over":
        if result is not None:
            lines += _result_lines(result)
    else:
        lines.append(f"Decisión: {prompt}")
    a = v.get("actions", {})
    if "revealed" in a:
        chosen = ", ".join(f"asiento {s}: {x['name']}" for s, x in a["revealed"].items())
        lines.append(f"Acciones reveladas: {chosen}. Fases pendientes: {', '.join(a['phases_left']) or 'ninguna'}.")
    elif v["step"] == "choose_action" and "previous_round" in a:
        prev = ", ".join(f"asiento {s}: {x['name']}" for s, x in a["previous_round"].items())
        lines.append(f"Ronda anterior: {prev}.")
    ends = v.get("game_ends_after_this_round") or []
    if ends:
        lines.append("La partida termina después de esta ronda: " + "; ".join(_sv_ending(e) for e in ends) + ".")
    lines.append(
        f"Suministro {v['supply_size']} cartas, pila de descarte {v['discard_size']}, reserva de fichas "
        f"{v['chip_pool']} PV" + (" (ya con las fichas de 10)." if v["tens_added"] else ".")
    )
    for p in v["players"]:
        goods = ", ".join(f"{n} {_SV_GOODS[k]}" for k, n in p["goods_by_kind"].items()) or "ninguno"
        lines.append(
            f"Asiento {p['seat']}: {p['score']} PV ({p['chips']} en fichas), mano {p['hand_size']}, "
            f"Militar {p['military']}, bienes {goods}, tableau {p['tableau_size']}:"
        )
        lines.extend("  " + _sv_card(card) for card in p["tableau"])
    return lines


# --------------------------------------------------------------------------- Yo soy el jefe

_YSJ_PILES = {
    "no money": "sin dinero",
    "a small pile (1M to 19M)": "un montón pequeño (1M a 19M)",
    "a medium pile (20M to 49M)": "un montón mediano (20M a 49M)",
    "a large pile (50M to 99M)": "un montón grande (50M a 99M)",
    "a huge pile (100M or more)": "un montón enorme (100M o más)",
}
_YSJ_KINDS = {"family": "familia", "travel": "viaje", "boss": "jefe", "hire": "empleo", "stop": "parada"}
_YSJ_STATUS = {"asked": "pedido", "proposed": "propuesto", "agreed": "acordado"}
_YSJ_PAID = {"investor": "inversor", "family": "familia", "forced": "obligado"}


def _ysj_needs(needs: str) -> str:
    return re.sub(r"(\d+) of ", r"\1 de ", needs)


def _ysj_label(label: str) -> str:
    """Return a card label of the views (``family azul``, ``hire``) in Spanish (``familia azul``, ``empleo``)."""
    kind, _, colour = label.partition(" ")
    said = _YSJ_KINDS.get(kind)
    if said is None:
        raise Unread(label)
    return f"{said} {colour}" if colour else said


def _ysj_counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{_ysj_label(label)} x{k}" if k > 1 else _ysj_label(label) for label, k in counts.items())


def _ysj_stop(what: str) -> str:
    if m := re.fullmatch(r"seat (\d+)'s boss card \(to become the boss\)", what):
        return f"la carta de jefe del asiento {m[1]} (para ser el jefe)"
    if m := re.fullmatch(r"seat (\d+)'s hire set to take the (\w+) investor beside the board", what):
        return f"el juego de empleo del asiento {m[1]} para tomar el inversor {m[2]} de junto al tablero"
    if m := re.fullmatch(r"seat (\d+)'s hire set to take the (\w+) investor of seat (\d+)", what):
        return f"el juego de empleo del asiento {m[1]} para tomar el inversor {m[2]} del asiento {m[3]}"
    if m := re.fullmatch(r"seat (\d+)'s travel card on seat (\d+)'s (\w+) (family card|investor)", what):
        target = f"la carta de familia {m[3]}" if m[4] == "family card" else f"el inversor {m[3]}"
        return f"la carta de viaje del asiento {m[1]} sobre {target} del asiento {m[2]}"
    raise Unread(what)


def _ysj_change(what: str) -> str:
    """Return a negotiation's last change (``NegotiationState.last_act``) in Spanish."""
    who = r"seat (\d+)( \(the boss\))?"
    boss = lambda m: f"el asiento {m[1]}" + (" (el jefe)" if m[2] else "")  # noqa: E731
    if what == "the start of the negotiation":
        return "el comienzo de la negociación"
    if m := re.fullmatch(r"seat (\d+)'s '¡Vamos a negociar!'", what):
        return f"el '¡Vamos a negociar!' del asiento {m[1]}"
    if m := re.fullmatch(who + r" placed a (\w+) family card", what):
        return f"{boss(m)} colocó una carta de familia {m[3]}"
    if m := re.fullmatch(who + r" accepted (\d+)M for seat (\d+)'s (\w+)", what):
        return f"{boss(m)} aceptó {m[3]}M por el {m[5]} del asiento {m[4]}"
    if m := re.fullmatch(r"seat (\d+)'s stop card against (.+)", what):
        return f"la carta de parada del asiento {m[1]} contra {_ysj_stop(m[2])}"
    if m := re.fullmatch(r"seat (\d+)'s hire set, which took the (\w+) investor", what):
        return f"el juego de empleo del asiento {m[1]}, que tomó el inversor {m[2]}"
    if m := re.fullmatch(r"seat (\d+)'s travel card on seat (\d+)'s (\w+) (family card|investor)", what):
        target = f"la carta de familia {m[3]}" if m[4] == "family card" else f"el inversor {m[3]}"
        return f"la carta de viaje del asiento {m[1]} sobre {target} del asiento {m[2]}"
    if m := re.fullmatch(r"seat (\d+)'s boss card: it is the boss now", what):
        return f"la carta de jefe del asiento {m[1]}: ahora es el jefe"
    said = event_in_spanish("yo-soy-el-jefe", what)
    if said is None:
        raise Unread(what)
    return said[:1].lower() + said[1:]


def _ysj_history(line: str) -> str:
    said = event_in_spanish("yo-soy-el-jefe", line)
    if said is None:
        raise Unread(line)
    return said


def _ysj_negotiation(neg: Mapping[str, Any]) -> list[str]:
    sp = neg["space"]
    lines = [
        f"Negociación en la casilla {sp['space']}: {neg['dividends']} × {neg['dividend_value']}M = {neg['payout']}M; "
        f"jefe el asiento {neg['boss']}; prometido {neg['promised']}M; "
        + ("completa ahora." if neg["complete"] else f"falta {_ysj_needs(str(neg['missing']))}.")
    ]
    if neg["travelled_investors"]:
        lines.append(
            "De viaje: "
            + ", ".join(f"{t['colour']} del asiento {t['holder']}" for t in neg["travelled_investors"])
            + "."
        )
    if neg["placed_family_cards"]:
        lines.append(
            "Cartas de familia colocadas: "
            + ", ".join(f"{f['colour']} del asiento {f['seat']}" for f in neg["placed_family_cards"])
            + "."
        )
    if neg["prices"]:
        prices = []
        for p in neg["prices"]:
            status = _YSJ_STATUS.get(str(p["status"]))
            if status is None:
                raise Unread(str(p["status"]))
            prices.append(f"asiento {p['seat']} {p['colour']} {p['named_as']} ({status})")
        lines.append("Precios: " + "; ".join(prices) + ".")
    passed = ", ".join(f"asiento {s}" for s in neg["passed"]) or "nadie"
    lines.append(
        f"Último cambio: {_ysj_change(neg['last_change']['what'])} (del asiento {neg['last_change']['by']}); "
        f"han pasado desde entonces: {passed}; "
        + ("el jefe puede cerrar." if neg["boss_may_close"] else "el jefe aún no puede cerrar.")
    )
    if neg["history"]:
        lines.append("Reciente: " + " / ".join(_ysj_history(h) for h in neg["history"][-5:]))
    return lines


def _ysj_text(v: View, prompt: str, result: Mapping[str, Any] | None) -> list[str]:
    nxt = v["next_deal_card"]
    if nxt:
        deal = f"siguiente carta de negociación #{nxt['number']}: {nxt['dividend']}M por dividendo"
        if nxt["end_numbers"]:
            deal += f", termina con una tirada de {'/'.join(str(x) for x in nxt['end_numbers'])}"
        deal += ", la última carta" if nxt["final"] else ""
    else:
        deal = "no quedan cartas de negociación"
    lines = [
        f"Yo soy el jefe, {v['seats']} asientos, vista de espectador. Tratos cerrados {v['deals_done']} ({deal}); "
        f"fracasos seguidos {v['failed_in_a_row']}/{v['failed_negotiations_limit']}."
    ]
    if v["marker"] is not None:
        sp = v["board"][v["marker"] - 1]
        lines.append(
            f"Marcador en la casilla {v['marker']}: {sp['dividends']} dividendos, necesita {_ysj_needs(sp['needs'])}."
        )
    free = [f"{b['space']} ({b['dividends']}d: {_ysj_needs(b['needs'])})" for b in v["board"] if not b["covered_by"]]
    lines.append(f"Casillas libres: {'; '.join(free) or 'ninguna'}.")
    people = []
    for p in v["players"]:
        money = f"{p['money']}M" if "money" in p else _YSJ_PILES.get(str(p["money_pile"]))
        if money is None:
            raise Unread(str(p["money_pile"]))
        known = ""
        if p["known_cards"]:
            known = "; conocidas en la mano: " + ", ".join(
                _ysj_label(f"{c['kind']} {c['colour']}" if c.get("colour") else str(c["kind"]))
                for c in p["known_cards"]
            )
        used = f"; usadas: {_ysj_counts(p['used'])}" if p["used"] else ""
        people.append(
            f"asiento {p['seat']}: inversores {', '.join(p['investors']) or 'ninguno'}; "
            f"{_count(p['hand_count'], 'carta', 'cartas')}{known}; {money}{used}"
        )
    lines.append("Jugadores: " + " | ".join(people) + ".")
    beside = [i["colour"] for i in v["investors"] if i["holder"] == "beside the board"]
    if beside:
        lines.append(f"Inversores junto al tablero: {', '.join(beside)}.")
    discards = _ysj_counts(v["discard_by_card"])
    lines.append(
        f"Mazo {v['deck_count']} cartas, descarte {v['discard_count']}" + (f" ({discards})." if discards else ".")
    )
    neg = v["negotiation"]
    if neg is not None:
        lines += _ysj_negotiation(neg)
    stop = v["card_waiting_for_stops"]
    if stop is not None:
        left = ", ".join(f"asiento {s}" for s in stop["still_to_answer"])
        lines.append(f"Esperando cartas de parada: {_ysj_stop(stop['what'])} (aún deben responder: {left}).")
    last = v["last_deal"]
    if last is not None and neg is None:
        if last["failed"]:
            lines.append(f"El último trato, en la casilla {last['space']}, fracasó (jefe el asiento {last['boss']}).")
        else:
            paid = []
            for s, _colour, how, amount in last["paid"]:
                if how not in _YSJ_PAID:
                    raise Unread(str(how))
                paid.append(f"{amount}M al asiento {s}")
            lines.append(
                f"Último trato: casilla {last['space']}, el jefe, el asiento {last['boss']}, recibió {last['payout']}M "
                f"y pagó {', '.join(paid) or 'nada a los demás'}."
            )
    if result is not None:
        lines += _result_lines(result)
    else:
        seats = [str(s) for s in v["decision"]["seats"]]
        many = f"a los asientos {', '.join(seats[:-1])} y {seats[-1]}"
        who = f"al asiento {seats[0]}" if len(seats) == 1 else many
        how = " (fuera de turno)" if v["decision"]["kind"] == "reaction" else ""
        lines.append(f"Esperando {who}{how}: «{prompt}»")
    return lines


TEXTS: dict[str, Callable[[View, str, Mapping[str, Any] | None], list[str]]] = {
    "market-fortune": _mf_text,
    "se-vende": _sv_text,
    "yo-soy-el-jefe": _ysj_text,
}
"""Per game, its spectator view's text in Spanish."""


def spectator_text(game: str, view: View, prompt: str, result: Mapping[str, Any] | None) -> str:
    """Return the text of a spectator's ``view`` of ``game`` in Spanish.

    Args:
        game: the game id.
        view: the engine's spectator view (``game.view(state, None)``).
        prompt: the decision in Spanish (:meth:`.words.Words.prompt`).
        result: the game's result in Spanish (:meth:`.words.Words.result`), once it is over, else ``None``.

    Raises:
        Unread: the view carries an English phrase no pattern reads, or the game has no Spanish text.
    """
    say = TEXTS.get(game)
    if say is None:
        raise Unread(game)
    try:
        return "\n".join(say(view, prompt, result))
    except (KeyError, TypeError, IndexError) as exc:  # a view of another shape than this module knows
        raise Unread(f"{game}: {exc!r}") from exc


__all__ = ["TEXTS", "spectator_text"]
