"""``server.json`` (the MCP registry entry) is valid against the registry's published schema and agrees
with the package it describes."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[2]


def published_schema(version: str) -> dict:
    """The registry's published server.json schema, as released (bundled byte for byte by skillsaw)."""
    folder = "v" + version.replace("-", "_")
    text = resources.files("skillsaw.schemas.mcp_registry").joinpath(folder, "server.schema.json").read_text()
    return json.loads(text)


def test_server_json_is_valid_against_the_published_schema() -> None:
    entry = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))
    version = entry["$schema"].split("/schemas/")[1].split("/")[0]
    schema = published_schema(version)
    assert schema["$id"] == entry["$schema"]
    jsonschema.validate(entry, schema, format_checker=jsonschema.FormatChecker())


def test_server_json_describes_this_package() -> None:
    entry = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert entry["version"] == project["version"]
    transports = set()
    for package in entry["packages"]:
        assert package["registryType"] == "pypi"
        assert package["identifier"] == project["name"]
        assert package["version"] == project["version"]
        transports.add(package["transport"]["type"])
        assert package["packageArguments"][0]["value"] == "serve"
    assert transports == {"stdio", "streamable-http"}
