"""The compact text of legal moves: the one-pass shared-ending search says what the plain definition says.

:func:`~club_agentes.mcp_server.tables.presenter.move_lines` groups neighbouring moves whose plain
words share a long ending and writes that ending once. It keeps one running suffix per group; these
tests hold it to the plain definition (the common prefix of the reversed texts, recomputed for every
window) on real-looking and random move lists.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest
from club_agentes.mcp_server.tables.facts import MoveFacts, SeatFacts
from club_agentes.mcp_server.tables.wording import common_tail, iso, move_lines
from hypothesis import given
from hypothesis import strategies as st


def reference_tail(texts: Sequence[str], minimum: int = 24) -> str:
    """The plain definition of a shared ending, starting at a phrase boundary or a word."""
    if len(texts) < 2:
        return ""
    first = texts[0]
    n = len(os.path.commonprefix([t[::-1] for t in texts]))  # noqa: RUF071 - character-wise is meant
    tail = first[len(first) - n :] if n else ""
    cuts = [k for k in range(1, len(tail)) if tail[k] == " " and tail[k - 1] in ");,:"]
    space = cuts[0] if cuts and len(tail[cuts[0] :].strip()) >= minimum else tail.find(" ")
    tail = tail[space:] if space >= 0 else ""
    return tail if len(tail.strip()) >= minimum else ""


def reference_lines(says: Sequence[str], ids: Sequence[str], forms: Sequence[str]) -> list[str]:
    """move_lines by the plain definition: every window's ending recomputed from scratch."""
    out: list[str] = []
    i = 0
    while i < len(says):
        j, tail = i, ""
        while j + 1 < len(says):
            longer = reference_tail(says[i : j + 2])
            if not longer:
                break
            j, tail = j + 1, longer
        for k in range(i, j + 1):
            words = says[k]
            if tail:
                words = words[: len(words) - len(tail)].rstrip(" ;,") + " …"
            out.append(f"{ids[k]} {forms[k]}: {words}")
        if tail:
            out.append(f"({ids[i]}-{ids[j]} each …{tail.rstrip()})")
        i = j + 1
    return out


ENDINGS = [
    "",
    " and pay 2 coins to the bank",
    "; then draw 1 card (the deck has 12 left), keep it",
    ", discard 1 $ or +R card: your hand is full",
    ": Construir (build) with the cards you hold; pay 3",
    " (a red strategy: it costs nothing this turn)",
]
HEADS = ["build A", "play card 7", "discard 1 $", "risk: 2", "pass", "Arriesgar (risk)", "sell to seat 1"]


def _texts(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        if rng.random() < 0.2:
            out.append("".join(rng.choice("ab ;:,()") for _ in range(rng.randint(0, 40))))
        else:
            out.append(rng.choice(HEADS) + rng.choice(ENDINGS) + rng.choice(["", "", " now", ")"]))
    return out


@pytest.mark.parametrize("seed", range(200))
def test_common_tail_matches_the_plain_definition(seed: int) -> None:
    rng = random.Random(seed)
    texts = _texts(rng, rng.randint(0, 6))
    minimum = rng.choice([0, 5, 24])
    assert common_tail(texts, minimum) == reference_tail(texts, minimum)


@pytest.mark.parametrize("seed", range(200))
def test_move_lines_match_the_plain_definition(seed: int) -> None:
    rng = random.Random(seed)
    says = _texts(rng, rng.randint(0, 14))
    me = SeatFacts(seat=0, kind="agent", agent="ana", open=False)
    moves = [MoveFacts(id=f"m{k + 1}", text=f"t{k}", move={}, says=s) for k, s in enumerate(says)]
    ids, forms = [m.id for m in moves], [m.text for m in moves]
    expected = reference_lines([m.says.strip() or m.text for m in moves], ids, forms)
    # A says that starts with the seat's label loses it; none of these do, so the plain words are the says.
    assert all(not (m.says.strip() or m.text).startswith(me.label + " ") for m in moves)
    assert move_lines(moves, me) == expected


@pytest.mark.parametrize(
    "says",
    [
        # Market Fortune's discards: after the first pair, every neighbour ends with the whole group's ending
        [f"Acción {x} face up on its discard pile to finish Construir." for x in ("Consumo 3M", "Salud 1M", "Oro 2M")]
        + ["take the top strategy of the strategy deck (59 left)."],
        # a neighbour that is the group's first move again (it ends with all of it), then one ending otherwise
        ["build A and pay 2 coins to the bank", "build A and pay 2 coins to the bank", "build B and pay 2 coins"],
        # equal texts that share fewer characters than a tail needs
        ["pass", "pass", "pass"],
        # the ending shrinks at the third move, below a tail's length at the fourth
        ["x; then draw 1 card (the deck has 12 left), keep it", "y; then draw 1 card (the deck has 12 left), keep it",
         "z, keep it (the deck has 12 left), keep it", "w keep it"],
    ],
)  # fmt: skip
def test_move_lines_of_groups_whose_neighbours_end_with_the_whole_ending(says: list[str]) -> None:
    me = SeatFacts(seat=0, kind="agent", agent="ana", open=False)
    moves = [MoveFacts(id=f"m{k + 1}", text=f"t{k}", move={}, says=s) for k, s in enumerate(says)]
    assert move_lines(moves, me) == reference_lines(says, [m.id for m in moves], [m.text for m in moves])


def test_a_shared_ending_is_written_once() -> None:
    me = SeatFacts(seat=0, kind="agent", agent="ana", open=False)
    says = ["build A and pay 2 coins to the bank", "build B and pay 2 coins to the bank", "pass"]
    moves = [MoveFacts(id=f"m{k + 1}", text="x", move={}, says=s) for k, s in enumerate(says)]
    assert move_lines(moves, me) == [
        "m1 x: build A …",
        "m2 x: build B …",
        "(m1-m2 each … and pay 2 coins to the bank)",
        "m3 x: pass",
    ]


@given(st.floats(min_value=0, max_value=253402300799.0))  # 1970 to the end of year 9999
def test_iso_writes_what_datetime_writes(t: float) -> None:
    assert iso(t) == datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert iso(None) is None
