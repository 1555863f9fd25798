"""A compact result goes on the wire as the SDK would have dumped it, without a second walk of its data."""

from __future__ import annotations

import json
from typing import Any

import pytest
from club_agentes.mcp_server.toolkit import CompactResult, compact, wire_result
from mcp_types import CallToolResult, TextContent
from mcp_types import methods as wire_methods
from pydantic import BaseModel, Field


class Inner(BaseModel):
    kind: str
    seconds_left: float | None = None
    seats: list[int] = Field(default_factory=list)


class Outer(BaseModel):
    table_id: str
    note: str | None = None
    decision: Inner
    legal_moves: list[dict[str, Any]]
    from_: str = Field(default="x", alias="from")


def _sdk_dump(result: CallToolResult) -> dict[str, Any]:
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)


@pytest.mark.parametrize("version", ["2026-07-28", "2025-11-25", "2025-06-18"])
def test_wire_result_matches_the_sdk_dump_after_the_version_sieve(version: str) -> None:
    data = Outer(
        table_id="t-1",
        decision=Inner(kind="turn", seconds_left=300, seats=[1]),
        legal_moves=[{"id": "m1", "text": "build A · ñ", "move": {"a": None, "b": [1, 2.5]}}],
    )
    result = compact(data, "t-1 v0 · seat 0\nm1: build A")
    assert isinstance(result, CompactResult)
    ours = wire_methods.serialize_server_result("tools/call", version, wire_result(result))
    theirs = wire_methods.serialize_server_result("tools/call", version, _sdk_dump(result))
    assert json.dumps(ours, ensure_ascii=False) == json.dumps(theirs, ensure_ascii=False)
    assert ours["structuredContent"]["note"] is None  # nulls inside the data stay, as before
    assert ours["structuredContent"]["decision"]["seconds_left"] == 300.0


def test_wire_result_keeps_an_error_flag_and_meta() -> None:
    result = CompactResult(
        content=[TextContent(type="text", text="no")],
        structured_content={"a": 1},
        is_error=True,
        _meta={"k": "v"},
    )
    assert wire_result(result) == _sdk_dump(result)
