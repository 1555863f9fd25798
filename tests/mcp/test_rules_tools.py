"""The rules tutor tools, resources, completions and prompt, in process through the SDK client."""

from __future__ import annotations

import pytest
from mcp_types import PromptReference, ResourceTemplateReference

from tests.mcp.helpers import Checked, undescribed

pytestmark = pytest.mark.anyio

RULES_TOOLS = {"list_games", "rules_toc", "read_rules", "search_rules"}


async def test_every_tool_has_described_schemas(club: Checked) -> None:
    tools = (await club.client.list_tools()).tools
    names = {t.name for t in tools}
    assert names >= RULES_TOOLS
    for t in tools:
        assert t.description and len(t.description) > 40, t.name
        assert t.output_schema, f"{t.name} has no outputSchema"
        assert not undescribed(t.output_schema), f"{t.name} output: {undescribed(t.output_schema)}"
        assert not undescribed(t.input_schema), f"{t.name} input: {undescribed(t.input_schema)}"
    for name in RULES_TOOLS:
        tool = next(t for t in tools if t.name == name)
        assert tool.annotations is not None and tool.annotations.read_only_hint


async def test_list_games_states_the_facts(club: Checked) -> None:
    games = {g["id"]: g for g in (await club.call("list_games", {}))["games"]}
    assert set(games) == {"market-fortune", "se-vende", "yo-soy-el-jefe"}
    mf = games["market-fortune"]
    assert (mf["players"]["min"], mf["players"]["max"], mf["age"]) == (2, 6, "14+")
    assert len(mf["modes"]) == 3
    assert mf["playable"] and "mode" in mf["table_options"]["properties"]
    assert mf["seat_kinds"] == ["agent", "bot:random", "bot:heuristic", "bot:mcts"]
    assert [b["seat_kind"] for b in mf["bots"]] == mf["seat_kinds"][1:] and all(b["strength"] for b in mf["bots"])
    assert all(g["playable"] and g["table_options"]["type"] == "object" for g in games.values())


async def test_toc_and_read_rules(club: Checked) -> None:
    toc = await club.call("rules_toc", {"game": "yo-soy-el-jefe"})
    ids = [s["id"] for s in toc["sections"]]
    assert "yo-soy-el-jefe/6-ejemplos/pago-y-cartas" in ids
    s = await club.call("read_rules", {"game": "market-fortune", "section": "cap-2/regla-8-cartas"})
    assert s["verbatim"] and s["text"].startswith("### Regla de las 8 cartas\nMantén siempre 8 cartas")
    assert s["prev"]["id"] == "market-fortune/cap-2/regla-critica-de-descarte"
    assert s["uri"] == "rules://market-fortune/cap-2/regla-8-cartas"
    ruling = await club.call("read_rules", {"game": "se-vende", "section": "rulings/errata-creditos"})
    assert ruling["kind"] == "ruling" and not ruling["verbatim"] and ruling["refs"][0]["id"] == "se-vende/creditos"


async def test_search_rules(club: Checked) -> None:
    r = await club.call("search_rules", {"query": "clan", "game": "yo-soy-el-jefe"})
    assert {"clan", "familia", "tribu"} <= set(r["expanded_terms"])
    assert "familia" in r["hits"][0]["snippet"].lower() or "familia" in r["hits"][0]["title"].lower()
    r = await club.call("search_rules", {"query": "dado fortune"})
    assert r["hits"][0]["section_id"] == "market-fortune/referencia-rapida/dado-fortune"


async def test_bad_arguments_give_one_clear_sentence(club: Checked) -> None:
    assert "valid game ids are" in await club.error("rules_toc", {"game": "ajedrez"})
    text = await club.error("read_rules", {"game": "market-fortune", "section": "cap-2/regla-de-ocho"})
    assert "market-fortune/cap-2/regla-8-cartas" in text
    assert "empty" in await club.error("search_rules", {"query": "  "})
    assert "limit" in await club.error("search_rules", {"query": "dado", "limit": 0})
    assert "300" in await club.error("search_rules", {"query": "dado " * 100})
    assert "required" in await club.error("read_rules", {"game": "se-vende"})
    # The server keeps serving after errors.
    assert (await club.call("list_games", {}))["games"]


async def test_resource_template_and_completions(club: Checked) -> None:
    templates = (await club.client.list_resource_templates()).resource_templates
    assert any(t.uri_template == "rules://{game}/{+section}" for t in templates)
    r = await club.client.read_resource("rules://yo-soy-el-jefe/3-2-2-cartas-de-influencia/parada")
    assert "La carta de bloqueo se puede usar inmediatamente" in r.contents[0].text
    ref = ResourceTemplateReference(uri="rules://{game}/{+section}")
    games = await club.client.complete(ref, {"name": "game", "value": "yo"})
    assert games.completion.values == ["yo-soy-el-jefe"]
    sections = await club.client.complete(ref, {"name": "section", "value": "cap-5/"}, {"game": "market-fortune"})
    assert "cap-5/declarar-victoria" in sections.completion.values
    prompt_games = await club.client.complete(PromptReference(name="learn_game"), {"name": "game", "value": "m"})
    assert prompt_games.completion.values == ["market-fortune"]


async def test_learn_game_prompt(club: Checked) -> None:
    p = await club.client.get_prompt("learn_game", {"game": "market-fortune"})
    text = p.messages[0].content.text
    assert "market-fortune/cap-2" in text and "start_quiz" in text and "rulings" in text


async def test_each_games_table_of_contents_is_a_listed_resource(club: Checked) -> None:
    resources = [r for r in (await club.client.list_resources()).resources if not str(r.uri).startswith("ui://")]
    uris = {str(r.uri) for r in resources}  # (ui://club-agentes/table is the MCP App's: tests/clubhouse/test_app.py)
    assert uris == {"rules://market-fortune/toc", "rules://se-vende/toc", "rules://yo-soy-el-jefe/toc"}
    assert all(r.mime_type == "text/markdown" and r.description for r in resources)
    toc = (await club.client.read_resource("rules://yo-soy-el-jefe/toc")).contents[0].text
    assert toc.startswith("# Yo soy el jefe: table of contents")
    assert "- yo-soy-el-jefe/6-ejemplos/pago-y-cartas: " in toc
    section = (await club.client.read_resource("rules://market-fortune/cap-2/regla-8-cartas")).contents[0].text
    assert "Mantén siempre 8 cartas" in section


async def test_results_carry_a_compact_text_not_a_json_dump(club: Checked) -> None:
    async def text_of(name: str, args: dict) -> tuple[dict, str]:
        data = await club.call(name, args)
        r = await club.client.call_tool(name, args)
        (content,) = r.content
        assert not content.text.lstrip().startswith("{"), f"{name} answers with a JSON dump"
        return data, content.text

    games, text = await text_of("list_games", {})
    for g in games["games"]:
        assert text.count(f"{g['id']}: {g['name']}") == 1
    toc, text = await text_of("rules_toc", {"game": "se-vende"})
    assert len(text.splitlines()) == len(toc["sections"]) + 2
    assert "  se-vende/resumen/eleccion-secreta: Elección secreta de fase" in text
    section, text = await text_of("read_rules", {"game": "market-fortune", "section": "cap-2/regla-8-cartas"})
    assert text.startswith("# Regla de las 8 cartas") and section["text"] in text and "Verbatim text" in text
    hits, text = await text_of("search_rules", {"query": "dado fortune", "limit": 3})
    assert text.startswith(f"{len(hits['hits'])} hits for 'dado fortune'")
    assert "1. market-fortune/referencia-rapida/dado-fortune: Dado Fortune [rulebook]" in text
