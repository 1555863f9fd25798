"""Canned model outputs for inspect's ``mockllm`` model, and Spanish number words for right answers in words.

Every canned output carries its token usage: without it ``mockllm`` counts tokens with tiktoken,
which downloads its encoding at run time (no network here, nor in CI).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ModelOutput, ModelUsage

MODEL = "mockllm/model"

_UNITS = [
    "cero",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
]
_TENS = {3: "treinta", 4: "cuarenta", 5: "cincuenta", 6: "sesenta", 7: "setenta", 8: "ochenta", 9: "noventa"}


def spanish_number(n: int) -> str:
    """Spell a whole number of 0 to 199 in Spanish words ("sesenta y seis", "ciento ochenta").

    Raises:
        ValueError: ``n`` is outside 0-199.
    """
    if not 0 <= n <= 199:
        raise ValueError(f"spanish_number spells 0 to 199, not {n}")
    if n == 100:
        return "cien"
    if n > 100:
        return f"ciento {spanish_number(n - 100)}"
    if n < 30:
        return _UNITS[n]
    tens, unit = divmod(n, 10)
    return _TENS[tens] + (f" y {_UNITS[unit]}" if unit else "")


def _with_usage(output: ModelOutput) -> ModelOutput:
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def text_output(text: str) -> ModelOutput:
    """A reply of plain text (no tool call)."""
    return _with_usage(ModelOutput.from_content(MODEL, text))


def tool_output(tool: str, arguments: dict[str, Any]) -> ModelOutput:
    """A reply that calls one tool."""
    return _with_usage(ModelOutput.for_tool_call(MODEL, tool, arguments))
