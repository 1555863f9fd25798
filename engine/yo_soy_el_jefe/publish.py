"""Publish the component data in the rules corpus.

``rules_corpus/data/yo-soy-el-jefe/authored/components.toml`` is generated from
``engine/yo_soy_el_jefe/components.toml`` (the single source of truth)::

    python -m club_agentes.engine.yo_soy_el_jefe.publish          # rewrite the corpus file
    python -m club_agentes.engine.yo_soy_el_jefe.publish --check  # exit 1 if it is out of date

A test checks that the committed file equals :func:`render_corpus_toml`.
"""

from __future__ import annotations

import json
from pathlib import Path

from club_agentes.engine.core.publish import CorpusFile
from club_agentes.engine.yo_soy_el_jefe.components import (
    BOSS,
    FAMILY,
    HIRE,
    KIND_LABELS,
    STOP,
    TRAVEL,
    Components,
    components,
)

AREA = "yo-soy-el-jefe/componentes"
G = "yo-soy-el-jefe"


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _block(text: str) -> str:
    if '"""' in text or "\\" in text:
        raise ValueError("component text must not contain triple quotes or backslashes")
    return '"""\n' + text.strip("\n") + '\n"""'


def _section(sid: str, title: str, refs: list[str], text: str) -> str:
    refs_text = ", ".join(_q(r) for r in refs)
    return (
        f"[[section]]\nid = {_q(f'{AREA}/{sid}')}\ntitle = {_q(title)}\nrefs = [{refs_text}]\ntext = {_block(text)}\n"
    )


def _plural(kind: str) -> str:
    return KIND_LABELS[kind].replace(" card ", " cards ")


def _families(c: Components) -> str:
    lines = [
        "Six families (colours), each with one investor card (carta de inversor) and four family cards (carta de",
        "familia, also called tribu or clan). Colour ids are the Spanish names used in moves; English names are",
        "accepted too.",
        "",
    ]
    for f in c.families:
        lines.append(f"- {f.id} ({f.english}): investor card {f.investor_id}")
    lines += [
        "",
        "Investor cards are dealt at random: three each with 2 players, two each with 3, one each with 4, 5 or 6;",
        "with 4 or 5 players the cards left over lie beside the board (see the rulings errata-reparto-de-inversores",
        "and dos-jugadores).",
    ]
    return "\n".join(lines)


def _influence(c: Components) -> str:
    n = c.influence_counts
    by_kind: dict[str, list[str]] = {}
    for card in c.cards:
        by_kind.setdefault(card.kind, []).append(card.id)
    lines = [f"{len(c.cards)} influence cards (cartas de influencia), each with its own id:", ""]
    effects = {card.kind + (card.colour or ""): card.effect for card in c.cards}
    fam = n["family_per_colour"]
    first = c.families[0].id
    lines.append(
        f"- {fam * len(c.families)} {_plural(FAMILY)}: {fam} per colour, ids YSJ-FAM-<COL>-1 to -{fam} "
        f"(e.g. {by_kind[FAMILY][0]}). Effect: {effects[FAMILY + first].replace(first, '<colour>')}"
    )
    trav = n["travel_per_colour"]
    lines.append(
        f"- {trav * len(c.families) + n['travel_grey']} {_plural(TRAVEL)}: {trav} per colour (YSJ-VIA-<COL>-1 "
        f"to -{trav}) and {n['travel_grey']} grey (YSJ-VIA-GRI-1 to -{n['travel_grey']}) usable on any colour. "
        f"Effect: {effects[TRAVEL + c.families[0].id].replace(c.families[0].id, '<colour>')}"
    )
    for kind, code in ((BOSS, "JEF"), (HIRE, "EMP"), (STOP, "PAR")):
        k = n[kind]
        lines.append(f"- {k} {_plural(kind)}: ids YSJ-{code}-01 to -{k:02d}. Effect: {effects[kind]}")
    lines += ["", "Colour codes in ids: " + ", ".join(f"{f.code} = {f.id}" for f in c.families) + "."]
    return "\n".join(lines)


def _deal_cards(c: Components) -> str:
    lines = [
        f"{len(c.deal_cards)} deal cards (cartas de negociación), stacked with #1 on top. The front gives the value of",
        "one dividend, in millions, for the deal closed while the card is on top; a deal pays the space's dividends",
        "times that value (payout = dividends x value). The back gives the die faces that end the game when the",
        "card has just been placed on the board.",
        "",
    ]
    for d in c.deal_cards:
        if d.final:
            back = "the last card: placing it ends the game without a roll"
        elif d.end_numbers:
            back = "the game ends on a roll of " + ", ".join(str(x) for x in d.end_numbers)
        else:
            back = "no roll"
        lines.append(f"- #{d.number} ({d.id}): {d.dividend}M per dividend; back: {back}")
    return "\n".join(lines)


def _spaces(c: Components) -> str:
    lines = [
        f"{len(c.spaces)} board spaces (casillas de negociación), numbered clockwise. Each gives the dividends a",
        "deal there pays and the families that must agree: every mandatory one, plus the stated number of the",
        "optional ones.",
        "",
    ]
    for s in c.spaces:
        lines.append(
            f"- space {s.number}: {s.dividends} dividends; needs {s.describe()} ({s.investors_needed} investors)"
        )
    return "\n".join(lines)


def _die_money(c: Components) -> str:
    return "\n".join(
        [
            f"One die with faces 1 to {c.die_faces}. It moves the dollar marker clockwise over the free spaces, and",
            "from the deal cards with numbers on their back it decides the end of the game.",
            f"{c.money_cards} money cards; the engine counts money in whole millions and the bank never runs short",
            "(ruling banquero). Every player starts with no money.",
        ]
    )


def render_corpus_toml(comp: Components | None = None) -> str:
    """Return the text of the corpus file generated from the component data."""
    c = components() if comp is None else comp
    header = (
        "# GENERATED by `python -m club_agentes.engine.yo_soy_el_jefe.publish` from engine/yo_soy_el_jefe/components.toml.\n"  # noqa: E501
        "# Do not edit by hand: change the engine's data file and run the generator again.\n"
    )
    area = (
        "[area]\n"
        f"id = {_q(AREA)}\n"
        f"title = {_q('Component data of this implementation (Yo soy el jefe)')}\n"
        'kind = "component"\n'
        "text = "
        + _block(
            "This is this implementation's component data, not rulebook text. The rulebook lists the\n"
            "components but gives the board's 16 spaces and the 15 deal cards only through examples; the values\n"
            "below were designed to agree with every example of the rulebook (see the ruling\n"
            "yo-soy-el-jefe/rulings/componentes). The engine reads the same data."
        )
        + "\n"
    )
    sections = [
        _section(
            "familias-e-inversores",
            "Families and investor cards",
            [f"{G}/1-componentes/otros-componentes", f"{G}/2-preparacion/cartas-de-inversor"],
            _families(c),
        ),
        _section(
            "cartas-de-influencia",
            "The 98 influence cards",
            [f"{G}/1-componentes/cartas-de-influencia", f"{G}/3-2-2-cartas-de-influencia"],
            _influence(c),
        ),
        _section(
            "cartas-de-negociacion",
            "The 15 deal cards: dividend values and end numbers",
            [f"{G}/2-preparacion/cartas-de-influencia", f"{G}/3-3-cierre/pago", f"{G}/4-finalizacion/dado-de-fin"],
            _deal_cards(c),
        ),
        _section(
            "casillas-del-tablero",
            "The 16 board spaces",
            [f"{G}/1-componentes/tablero", f"{G}/1-componentes/tablero/ejemplo"],
            _spaces(c),
        ),
        _section(
            "dado-y-dinero",
            "The die and the money",
            [f"{G}/1-componentes/otros-componentes", f"{G}/3-desarrollo/tirar-el-dado"],
            _die_money(c),
        ),
    ]
    return header + "\n" + area + "\n" + "\n".join(sections)


CORPUS = CorpusFile(G, "components.toml", render_corpus_toml, "club_agentes.engine.yo_soy_el_jefe.publish")
"""The generated component texts: ``rules_corpus/data/yo-soy-el-jefe/authored/components.toml``."""

main = CORPUS.main


def corpus_path() -> Path:
    """Return the path of the generated corpus file (:attr:`CORPUS`'s)."""
    return CORPUS.path


if __name__ == "__main__":
    raise SystemExit(main())
