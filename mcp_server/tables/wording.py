"""The text of table tool results, written for a model: move lists in plain words, events, results, the
decision and its clock, refusals and the forms a step accepts (:mod:`.presenter` builds the results)."""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from club_agentes.engine.core.errors import EngineError
from club_agentes.engine.core.moves import MoveCodec
from club_agentes.engine.core.registry import get_game
from club_agentes.engine.core.text import counted, fold
from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.tables.eventfold import keep_own
from club_agentes.mcp_server.tables.facts import (
    DecisionFacts,
    MoveFacts,
    RefusalFacts,
    SeatFacts,
    SeatState,
    TableFacts,
)

TEXT_EVENTS = 2
"""The most events of other seats the text lists (the newest); the seat's own are all listed, and the
structured content has every event since ``since``."""
RULE_TEXT = 320
"""The most characters of a rule's words the text of a refusal quotes (the structured content has all)."""
LOG_TEXT_EVENTS = 60
"""The most events the text of a game_log page lists."""
PROMPT_QUOTE = 70
"""The most characters of another seat's prompt the text quotes."""


def iso(t: float | None) -> str | None:
    """Return a UNIX time as ISO 8601 UTC, to the second (``None`` stays ``None``). Raises nothing for a time
    from 1970 on; ``OverflowError``/``OSError`` as ``time.gmtime`` for one out of range."""
    return None if t is None else _iso_of(t)


@lru_cache(maxsize=1024)
def _iso_of(t: float) -> str:
    """:func:`iso` of a time (remembered: a decision's deadline is written in every answer until it ends).

    ``time.gmtime`` and ``time.strftime`` write what ``datetime.fromtimestamp(t, UTC).strftime`` writes, in a
    third of its time (a new deadline comes with every decision)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _clock(seconds: float) -> str:
    s = max(0, int(seconds))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def _num(x: float) -> str:
    return f"{x:g}"


# --------------------------------------------------------------------------- models


_CARD_ID = re.compile(r" \([A-Z]{2,4}(?:-[A-Z0-9]+)+\)")
"""A card id in parentheses after a card's name, `` (SV-C004)``: the move list names cards, its text forms give ids."""


_fold_word = lru_cache(maxsize=1024)(fold)
""":func:`fold` of one word, remembered: the move list folds the same verbs and first words answer after answer."""


def _plain_words(m: MoveFacts, prefix: str, verbs: Mapping[str, frozenset[str]]) -> str:
    """The move's plain words for the move list: without the seat's own label in front (``prefix``: the label
    and a space, worked out once per list), nor card ids in parentheses (``Puerto Marea (SV-C004)`` -> ``Puerto
    Marea``; the text form beside it gives the ids it needs), nor a first word that repeats the text form's verb:
    ``Discard Acción Tecnología 1M`` (before a name) or the label ``Construir:`` (``verbs`` maps a move type to
    its verb and aliases, folded: ``build`` -> construir)."""
    says = m.says.strip() or m.text
    if says.startswith(prefix):
        says = says[len(prefix) :]
    if " (" in says:  # every card id the pattern removes starts so
        says = _CARD_ID.sub("", says)
    first, _, rest = says.partition(" ")
    if first.endswith(":"):  # a label: the verb or one of its aliases ("Construir: take ...")
        named = verbs.get(str(m.move.get("type", "")))
        if named is None:
            named = frozenset({_fold_word(m.text.split(" ", 1)[0])})
        if _fold_word(first[:-1]) in named:
            says = rest
    elif rest[:1].isupper() and _fold_word(first).startswith(_fold_word(m.text.split(" ", 1)[0])):
        says = rest  # the verb before a name ("Discard Acción ...")
    return says


def _codec(game: str) -> MoveCodec | None:
    """The game's move codec (``None`` for a game without one, or a test's toy no longer registered)."""
    try:
        codec = getattr(get_game(game), "moves", None)
    except EngineError:
        return None
    return codec if isinstance(codec, MoveCodec) else None


@lru_cache(maxsize=16)
def move_verbs(game: str) -> dict[str, frozenset[str]]:
    """Each move type's verb and aliases, folded (``{"build": {"build", "construir"}}``); ``{}`` without a codec."""
    codec = _codec(game)
    if codec is None:
        return {}
    return {tag: frozenset(fold(v) for v in (mt.verb, *mt.aliases)) for tag, mt in codec.types.items()}


_PHRASE_END = re.compile(r"[);,:] ")
_TAIL_MIN = 24
"""The fewest characters an ending neighbouring moves share must have to be written once (:func:`move_lines`)."""


def _common_suffix(a: str, b: str) -> str:
    """Return the longest ending ``a`` and ``b`` share, character-wise.

    A binary search on the length (endings of one length are equal only if every shorter one is), so the
    characters are compared by string comparisons, not one by one in Python.
    """
    if a.endswith(b):
        return b
    lo, hi = 0, min(len(a), len(b))  # the ending of length lo is shared; that of hi + 1 is not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return a[len(a) - lo :] if lo else ""


def _tail_at_boundary(first: str, n: int, minimum: int) -> str:
    """Return the last ``n`` characters of ``first`` from a phrase boundary or word on (``""`` if under ``minimum``)."""
    tail = first[len(first) - n :] if n else ""
    # Start after a phrase boundary (") ", "; ", ", ", ": ") if there is one, else at a word.
    boundary = _PHRASE_END.search(tail)
    cut = boundary.start() + 1 if boundary is not None else -1
    space = cut if cut >= 0 and len(tail[cut:].strip()) >= minimum else tail.find(" ")
    tail = tail[space:] if space >= 0 else ""
    return tail if len(tail.strip()) >= minimum else ""


def common_tail(texts: Sequence[str], minimum: int = 24) -> str:
    """Return the longest ending that every text shares, starting at a word (``""`` if under ``minimum``)."""
    if len(texts) < 2:
        return ""
    shared = texts[0]
    for t in texts[1:]:
        shared = _common_suffix(shared, t)
    return _tail_at_boundary(texts[0], len(shared), minimum)


def move_lines(
    moves: Sequence[MoveFacts], me: SeatFacts, verbs: Mapping[str, frozenset[str]] | None = None
) -> list[str]:
    """The legal moves as ``m3 pay SV-C053: <plain words>``, an ending that neighbouring moves share written once.

    Each line gives the move's id and its text form (either may be sent to play_move, and the text
    form parses back to that move), then its plain words. A run of neighbours grows while the ending
    they all share (kept as one running suffix, so each move is compared once) still makes a tail of
    at least 24 characters.
    """
    prefix, named = me.label + " ", verbs or {}
    says = [_plain_words(m, prefix, named) for m in moves]
    out: list[str] = []
    i = 0
    while i < len(moves):
        j = i
        tail = ""
        shared = says[i]  # the ending says[i..j+1] share; always an ending of says[i]
        while j + 1 < len(moves):
            after = says[j + 1]
            if after.endswith(shared):  # the group's ending holds (its tail, worked out before, too)
                if not tail:
                    tail = _tail_at_boundary(says[i], len(shared), _TAIL_MIN)
                    if not tail:
                        break
                j += 1
                continue
            if after[-_TAIL_MIN:] != shared[-_TAIL_MIN:]:  # they share under _TAIL_MIN characters: no tail
                break
            shared = _common_suffix(shared, after)
            longer = _tail_at_boundary(says[i], len(shared), _TAIL_MIN)
            if not longer:
                break
            j, tail = j + 1, longer
        for m, words in zip(moves[i : j + 1], says[i : j + 1], strict=True):
            if tail:
                words = words[: len(words) - len(tail)].rstrip(" ;,") + " …"
            line = f"{m.id} {m.text}: {words}" if m.text else f"{m.id}: {words}"
            out.append(f"{line} [{m.note}]" if m.note else line)
        if tail:
            first, last = moves[i].id, moves[j].id
            out.append(f"({first}-{last} each …{tail.rstrip()})")
        i = j + 1
    return out


def _event_line(e: EventRow) -> str:
    """``- [you] <text>`` for an event told to the seat alone (or a few seats), else ``- <text>``; card ids in
    parentheses after a name are left to the structured content."""
    text = _CARD_ID.sub("", e.text)
    return f"- [you] {text}" if e.audience is not None else f"- {text}"


def breakdown_parts(lines: Sequence[dict[str, Any]]) -> list[str]:
    """A seat's score lines as ``label amount``; lines whose labels share a head before ": " (three or more,
    as Se Vende's ``tableau: world Alfa Centauro``) are summed as one, ``tableau (12 lines) 14``."""
    heads = Counter(str(x["label"]).split(": ", 1)[0] for x in lines if ": " in str(x["label"]))
    sums: dict[str, list[float]] = {}
    parts: list[tuple[str, str]] = []  # ("line", text) or ("sum", head)
    for x in lines:
        label, amount = str(x["label"]), float(x["amount"])
        head = label.split(": ", 1)[0] if ": " in label else ""
        if head and heads[head] > 2:
            if head not in sums:
                sums[head] = [0.0, 0.0]
                parts.append(("sum", head))
            sums[head][0] += 1
            sums[head][1] += amount
        else:
            parts.append(("line", f"{_CARD_ID.sub('', label)} {_num(amount)}"))
    return [
        text if kind == "line" else f"{text} ({counted(int(sums[text][0]), 'line')}) {_num(sums[text][1])}"
        for kind, text in parts
    ]


def result_lines(t: TableFacts) -> list[str]:
    """Return the text of a finished game's result: the reason, the rule, and each seat's breakdown."""
    r = t.result
    if t.status == "aborted":
        return [f"Stopped by the server: {t.note or 'no reason given'}."]
    if r is None:
        return ["Game over."]
    rule = f" (rule {r['rule_id']})" if r.get("rule_id") else ""
    out = [f"Game over: {r.get('reason', '')}{rule}"]
    for b in r.get("breakdown", []):
        seat = int(b["seat"])
        label = t.seats[seat].label if seat < len(t.seats) else f"seat {seat}"
        parts = breakdown_parts(b.get("lines", []))
        if len(parts) > 10:
            parts = [*parts[:10], f"… {len(parts) - 10} more"]
        out.append(f"  {label}: {_num(float(b['total']))} {b.get('unit', '')} = {'; '.join(parts) or 'nothing'}")
    return out


def _clock_note(d: DecisionFacts, now: float) -> str:
    """``; 4m59s left`` on the decision clock, or ``; no clock`` on a table without one."""
    return f"; {_clock(d.deadline_at - now)} left" if d.deadline_at is not None else "; no clock"


def decision_lines(s: SeatState) -> list[str]:
    """Return the text of whom the table waits for, and the legal moves when the decision is the seat's."""
    t, d, me = s.table, s.decision, s.me
    if t.status in ("finished", "aborted"):
        return result_lines(t)
    if t.status == "waiting":
        return [f"Waiting for players: agent seats {t.open_seats} are open; the game starts when they are taken."]
    if d.yours and s.moves:
        done = f"; chosen: seat{'s' if len(d.done) > 1 else ''} {', '.join(str(x) for x in d.done)}" if d.done else ""
        out = [f"Your decision ({d.kind}{done}{_clock_note(d, s.now)}): {d.prompt}"]
        out += move_lines(s.moves, me, move_verbs(t.game))
        return out
    if me.played_by:
        return [f"bot:{me.played_by} plays your seat for the rest of the game (your clock ran out too often)."]
    who = ", ".join(t.seats[x].label for x in d.seats if x < len(t.seats)) or "nobody"
    if d.kind == "simultaneous" and me.seat in d.done:
        return [f"You have chosen; waiting for {who}{_clock_note(d, s.now)}. Call wait_for_turn."]
    asked = d.prompt if len(d.prompt) <= PROMPT_QUOTE else d.prompt[: PROMPT_QUOTE - 1] + "…"
    return [f'Waiting for {who} ({d.kind}: "{asked}"){_clock_note(d, s.now)}. Call wait_for_turn.']


def seat_text(s: SeatState, head: Sequence[str] = ()) -> str:
    """Return the compact text of a seat's answer (the same for get_view, play_move and wait_for_turn)."""
    t = s.table
    status = "" if t.status == "playing" else f" · {t.status}"
    seat_version = f" · seat_version {s.seat_version}" if s.seat_version != t.version else ""
    lines = [f"{t.table_id} v{t.version} · {s.me.label}{seat_version}{status}"]
    if s.render:
        lines.append(s.render)
    elif t.status == "playing":
        lines.append(s.brief)  # the seat's state lines (get_view(full) has it all)
    else:
        lines.append(s.brief.split("\n", 1)[0])
    lines += head
    if s.events:
        shown, folded = keep_own(s.events, s.seat, TEXT_EVENTS)
        hidden = s.events_omitted + folded
        more = f" (+{hidden} earlier: game_log)" if hidden else ""
        lines.append(f"Since v{s.since}{more}:" if s.since >= 0 else f"From the deal{more}:")
        lines += [_event_line(e) for e in shown]
    lines += decision_lines(s)
    return "\n".join(x for x in lines if x)


def step_forms(game: str, moves: Sequence[MoveFacts]) -> list[str]:
    """The text forms the legal moves take now, one per move type in listing order, each with one of them as
    example: ``pay <card>, e.g. pay SV-C053`` (the form as the game's move codec declares it)."""
    codec = _codec(game)
    types = codec.types if codec is not None else {}
    forms: dict[str, str] = {}
    for m in moves:
        tag = str(m.move.get("type", ""))
        if tag not in forms:
            mt = types.get(tag)
            form = mt.form if mt is not None else m.text
            forms[tag] = form if form == m.text else f"{form}, e.g. {m.text}"
    return list(forms.values())


def forms_now(r: RefusalFacts, s: SeatState) -> list[str]:
    """The step's text forms for a refusal of a move that names no legal move or belongs to another step."""
    if not s.moves:
        return []
    if r.kind == "unparsed" or (r.kind == "rule" and r.move_type not in {m.move.get("type") for m in s.moves}):
        return step_forms(s.table.game, s.moves)
    return []


def refusal_lines(r: RefusalFacts, forms: Sequence[str] = ()) -> list[str]:
    """Return the text of a refusal: the reason, the rule's words, the closest moves and the forms accepted now."""
    out = [f"Not applied ({r.kind}): {r.reason}"]
    if r.rule_id:
        words = (r.rule_text or "").strip().replace("\n", " ")
        if len(words) > RULE_TEXT:
            words = words[: RULE_TEXT - 1] + "…"
        title = f" «{r.rule_title}»" if r.rule_title else ""
        out.append(f"Rule {r.rule_id}{title}: {words}" if words else f"Rule {r.rule_id}{title}.")
    if r.closest:
        out.append("Closest legal moves: " + "; ".join(f"{m.id} {m.text}" for m in r.closest))
    if forms:
        out.append("Accepted now (a move id, or a text form): " + " | ".join(forms))
    elif r.examples:
        out.append("Move forms: " + " | ".join(r.examples))
    return out
