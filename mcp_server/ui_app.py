"""The table as an MCP App (SEP-1865, extension ``io.modelcontextprotocol/ui``): a drawn table beside the tool calls.

Hosts that support MCP Apps render a tool's ``_meta.ui.resourceUri`` (a ``ui://`` HTML resource) in a sandboxed
frame and send it the call's arguments and result. ``get_view``, ``wait_for_turn`` and ``play_move`` name
:data:`TABLE_URI`: one self-contained page (the drawing script and stylesheet of the spectator pages, inlined)
that draws the seat's table from the result's ``structuredContent``: the seat's own view, its hand face up and
nothing else hidden, since that is all a seat's view holds. ``play_move`` and ``wait_for_turn`` answers carry no
view; the page then asks the host to call ``get_view`` with the same table and seat token. Hosts without the
extension see no change: the tools answer as before, and ``_meta`` is ignored.

The page loads nothing: no origin is allowed (the resource's ``_meta.ui.csp`` declares none) and its own
``Content-Security-Policy`` admits only its one inline script and stylesheet, by hash.
"""

from __future__ import annotations

import base64
import hashlib
import json
from functools import cache
from typing import Any

from club_agentes.mcp_server.clubhouse import draw
from club_agentes.mcp_server.clubhouse.i18n import DRAW_TEXTS
from mcp.server.apps import Apps, ResourceCsp

TABLE_URI = "ui://club-agentes/table"
"""The table's MCP App resource."""
TABLE_META: dict[str, Any] = {"ui": {"resourceUri": TABLE_URI}}
"""The ``_meta`` of the tools whose results the table draws (get_view, wait_for_turn, play_move)."""
APP_CSS = """
html, body { margin: 0; background: transparent; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto,
  "DejaVu Sans", sans-serif; color: #1d1f24; }
#app .drawn-table { border-radius: .6rem; overflow: hidden; }
#note { margin: .4rem 0; color: #5a5f6b; font-size: .85rem; }
#note:empty { display: none; }
#result:empty { display: none; }
#result { margin-top: .5rem; }
"""


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


@cache
def table_app_html() -> str:
    """Return the table's MCP App page: one HTML document with its script, style and words inlined.

    Raises:
        ValueError: the script or stylesheet holds ``</`` (it would end its element early).
    """
    script = draw.script() + "\n" + (draw.STATIC / "app.js").read_text(encoding="utf-8")
    style = draw.style() + APP_CSS
    if "</" in script or "</" in style:
        raise ValueError("the table app's script or style holds '</', which would close its element")
    labels = json.dumps(DRAW_TEXTS, ensure_ascii=False, separators=(",", ":"))
    labels = labels.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    policy = (
        f"default-src 'none'; script-src {_hash(script)}; style-src {_hash(style)}; img-src data:; "
        "connect-src 'none'; font-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
    )
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>Club de Agentes: table</title>\n"
        f"<style>{style}</style>\n</head>\n<body>\n"
        '<div id="app"></div>\n<div id="result"></div>\n<p id="note"></p>\n'
        f'<script type="application/json" id="draw-labels">{labels}</script>\n'
        f"<script>{script}</script>\n</body>\n</html>\n"
    )


def table_app() -> Apps:
    """Return the MCP Apps extension with the table's resource."""
    apps = Apps()
    apps.add_html_resource(
        TABLE_URI,
        table_app_html(),
        name="table",
        title="The table, drawn",
        description=(
            "The table of get_view, wait_for_turn and play_move drawn as cards, piles and boards for the seat that "
            "called: its own hand face up, the other seats as the rules show them."
        ),
        csp=ResourceCsp(connect_domains=[], resource_domains=[], frame_domains=[], base_uri_domains=[]),
        prefers_border=True,
    )
    return apps
