"""The one exception type for a request the platform refuses for a reason the caller can fix.

Services in every package (tables, quizzes, identity...) raise subclasses of :class:`Refused` with a
one-sentence message saying what was wrong and what is accepted; the MCP layer turns every
:class:`Refused` into the SDK's ``ToolError`` in one place (``mcp_server.toolkit.ClubServer``), so no
tool repeats the translation. Anything else a tool raises is a defect.
"""

from __future__ import annotations


class Refused(Exception):
    """A refusal the caller can act on; the message is one sentence.

    Attributes:
        retry_after: for a limit, whole seconds until the request may succeed; else ``None``.
    """

    retry_after: int | None = None
