"""Nothing on the tool surface names an answer: every example answer string in tools/list and prompts is
checked against the answers of 1,000 drawn entry items of each game.

The surface read is where agents learn how to answer: the club tools' descriptions and schemas (start_quiz,
practice_question, submit_quiz, verify_club_pass: every quoted string, schema example and number) and the
prompts (listed and rendered: every quoted string). An example leaks when it is the answer of an entry item
whose prompt does not state it: an integer answer written as the example writes it, the text of a right
option, or a right term. Choice letters are left out: each paper shuffles its options.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core.rng import Rng
from club_agentes.mcp_server.app import build_app
from club_agentes.mcp_server.store import Store
from club_agentes.quizzes.bank import default_bank
from club_agentes.quizzes.grading import answer_numbers, normalize, text_contains
from club_agentes.quizzes.harness import QuizService
from club_agentes.quizzes.model import CHOICE_LETTERS, Item
from club_agentes.quizzes.store import MemoryQuizStore
from club_agentes.rules_corpus import GAME_IDS
from mcp import Client

pytestmark = pytest.mark.anyio

ITEMS_PER_GAME = 1000
QUICK_ITEMS_PER_GAME = 100
"""The default run checks 100 entry items per game against the surface; the slow set 1,000."""
CLUB_TOOLS = ("start_quiz", "practice_question", "submit_quiz", "verify_club_pass")
QUOTED = re.compile(r"'([^'\n]{1,40})'|\"([^\"\n]{1,40})\"|«([^»\n]{1,40})»")
NUMBER = re.compile(r"(?<![\w.,/-])\d+(?:\s?M)?(?![\w.,/-])")
NUMERIC = re.compile(r"\$?\d[\d.]*\s?(?:M|millones|%)?")
"""An example that is a number and nothing else ("25M", "7"): the only kind an integer answer can leak through."""


def quoted(text: str) -> list[str]:
    return [next(g for g in m.groups() if g) for m in QUOTED.finditer(text)]


def walk(obj: Any, texts: list[str], examples: list[str]) -> None:
    """Collect every string of a tool or prompt listing, and the values of every schema ``examples``."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "examples" and isinstance(value, list):
                examples.extend(str(v) for v in value)
            walk(value, texts, examples)
    elif isinstance(obj, list):
        for value in obj:
            walk(value, texts, examples)
    elif isinstance(obj, str):
        texts.append(obj)


async def surface(tmp_path: Path) -> tuple[set[str], set[str]]:
    """Return (the example strings, the numbers written in the club tools' texts)."""
    app = build_app(Store(tmp_path / "db"))
    club: list[str] = []
    texts: list[str] = []
    examples: list[str] = []
    async with Client(app.server) as client:
        for tool in (await client.list_tools()).tools:
            if tool.name in CLUB_TOOLS:
                walk(tool.model_dump(), club, examples)
        for prompt in (await client.list_prompts()).prompts:
            walk(prompt.model_dump(), texts, examples)
            for game in GAME_IDS:
                walk((await client.get_prompt(prompt.name, {"game": game})).model_dump(), texts, examples)
    app.store.close()
    strings = {q for t in (*club, *texts) for q in quoted(t)} | set(examples)
    return strings, {n for t in club for n in NUMBER.findall(t)}


def entry_items(game: str, count: int) -> list[Item]:
    """``count`` entry items of ``game``, drawn paper by paper as ``start_quiz`` draws them."""
    svc = QuizService(default_bank(), MemoryQuizStore(), secret=b"k" * 32, rng=Rng(24))
    items: list[Item] = []
    while len(items) < count:
        items.extend(item for _, item in svc.draw_entry(game))
    return items


def leaks(item: Item, strings: set[str], numbers: set[str]) -> list[str]:
    """The examples that name ``item``'s answer while its prompt does not."""
    out = []
    if item.type == "integer":
        n = Fraction(int(item.answer))
        for text in {t for t in strings if NUMERIC.fullmatch(t.strip())} | numbers:
            if answer_numbers(text, item.unit) == [n] and not text_contains(item.prompt, text):
                out.append(text)
        return out
    right = item.options[CHOICE_LETTERS.index(item.answer)] if item.type == "choice" else item.answer
    return [t for t in strings if normalize(t) == normalize(right) and not text_contains(item.prompt, t)]


@pytest.mark.parametrize(
    "count", [QUICK_ITEMS_PER_GAME, pytest.param(ITEMS_PER_GAME, marks=pytest.mark.slow)], ids=["100", "1000"]
)
async def test_no_example_on_the_surface_is_an_answer_of_an_entry_item(tmp_path: Path, count: int) -> None:
    strings, numbers = await surface(tmp_path)
    assert {"q1", "r1"} <= strings, "the club tools' examples were read"
    found: dict[str, list[str]] = {}
    for game in GAME_IDS:
        for item in entry_items(game, count):
            bad = leaks(item, strings, numbers)
            if bad:
                found.setdefault(item.id.split("/gen/")[1].split("/")[0], []).extend(bad)
    assert found == {}, {k: sorted(set(v)) for k, v in found.items()}


def test_the_leak_check_finds_the_issue_example() -> None:
    """The old submit_quiz example {'q1': '25M'} named Market Fortune's victory target."""
    item = Item(
        "market-fortune/gen/x/1",
        "market-fortune",
        "riddle",
        "integer",
        "Soy la meta de Fortuna.",
        "25",
        ("market-fortune/s",),
        unit="M",
    )
    assert leaks(item, {"25M"}, set()) == ["25M"]
    assert leaks(item, {"1234M"}, {"99"}) == []
