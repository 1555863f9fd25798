"""The result path: the SDK's second validation is skipped only for a result the tool's own model built.

A tool annotated ``Annotated[CallToolResult, Model]`` that returns :func:`compact` of a ``Model`` goes out
as built; a hand-built result, or one built from another model, is still validated against ``Model``;
the text content and the wire form are those of a plain ``CallToolResult``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import jsonschema
import pytest
from club_agentes.mcp_server.app import build_app
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.toolkit import ClubServer, ModelResult, TrustedOutputMetadata, compact
from mcp import Client
from mcp_types import CallToolResult, JSONRPCResponse, TextContent
from pydantic import BaseModel, Field

pytestmark = pytest.mark.anyio


class Score(BaseModel):
    points: int = Field(ge=0)
    who: str


class Other(BaseModel):
    label: str


def server() -> ClubServer:
    mcp = ClubServer("result-path")

    @mcp.tool()
    def built(points: int) -> Annotated[CallToolResult, Score]:
        """Our own model builds the result."""
        return compact(Score(points=points, who="ana"), f"ana has {points} points")

    @mcp.tool()
    def tampered() -> Annotated[CallToolResult, Score]:
        """A result of our own model, changed after it was built (shows that no second validation runs)."""
        result = compact(Score(points=1, who="ana"), "ana has 1 point")
        assert result.structured_content is not None
        result.structured_content["points"] = -5
        return result

    @mcp.tool()
    def by_hand(points: int) -> Annotated[CallToolResult, Score]:
        """A hand-built result: validated against Score."""
        return CallToolResult(
            content=[TextContent(type="text", text="by hand")], structured_content={"points": points, "who": "bea"}
        )

    @mcp.tool()
    def other_model() -> Annotated[CallToolResult, Score]:
        """A result built from another model: validated against Score."""
        return compact(Other(label="x"), "another model")

    mcp.skip_output_validation("built", "tampered", "by_hand", "other_model")
    return mcp


async def test_our_own_models_result_is_not_validated_twice_and_others_are() -> None:
    mcp = server()
    for name in ("built", "tampered", "by_hand", "other_model"):
        tool = mcp._tool_manager.get_tool(name)
        assert tool is not None and isinstance(tool.fn_metadata, TrustedOutputMetadata)
        assert tool.output_schema is not None and set(tool.output_schema["properties"]) == {"points", "who"}
    async with Client(mcp) as client:
        ok = await client.call_tool("built", {"points": 3})
        assert not ok.is_error and ok.structured_content == {"points": 3, "who": "ana"}
        assert [c.text for c in ok.content if isinstance(c, TextContent)] == ["ana has 3 points"]
        # Hand-built: validated; a good one passes, a bad one is refused as a defect.
        good = await client.call_tool("by_hand", {"points": 2})
        assert not good.is_error and good.structured_content == {"points": 2, "who": "bea"}
        bad = await client.call_tool("by_hand", {"points": -1})
        assert bad.is_error
        wrong = await client.call_tool("other_model", {})
        assert wrong.is_error
    # Built by Score, then changed: the server passes it as is (the SDK did not validate it again; the
    # client, which validates against the published schema, would refuse it).
    passed = await mcp.call_tool("tampered", {})
    assert isinstance(passed, CallToolResult) and passed.structured_content == {"points": -5, "who": "ana"}


def test_a_compact_result_is_a_plain_call_tool_result_on_the_wire() -> None:
    score = Score(points=4, who="ana")
    ours = compact(score, "ana has 4 points")
    plain = CallToolResult(
        content=[TextContent(type="text", text="ana has 4 points")],
        structured_content=score.model_dump(mode="json", by_alias=True),
    )
    assert isinstance(ours, ModelResult) and ours.model_class is Score
    assert ours.model_dump(mode="json", by_alias=True, exclude_none=True) == plain.model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    wire = [
        JSONRPCResponse(jsonrpc="2.0", id=1, result=r.model_dump(mode="json", by_alias=True, exclude_none=True))
        for r in (ours, plain)
    ]
    assert wire[0].model_dump_json(by_alias=True) == wire[1].model_dump_json(by_alias=True)


async def test_the_clubs_tools_still_answer_results_that_fit_their_schema(tmp_path: Path) -> None:
    """The club's table and rules tools skip the second validation; their results still fit their schema."""
    app = build_app(Store(tmp_path / "club.sqlite3"))
    try:
        async with Client(app.server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            games = await client.call_tool("list_games", {})
            assert not games.is_error and games.content
            jsonschema.validate(games.structured_content, tools["list_games"].output_schema)
            args = {"game": "market-fortune", "seats": ["agent", "bot:random"], "options": {"require_club_pass": False}}
            created = await client.call_tool("create_table", args)
            assert not created.is_error
            jsonschema.validate(created.structured_content, tools["create_table"].output_schema)
    finally:
        await app.tables.aclose()
        app.store.close()
