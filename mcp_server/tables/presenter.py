"""The presenter: the table service's plain data as tool results (output models and compact text).

The text content of every table tool result is written for a model to read: a header line (table,
version, your seat, and its version when it differs); when the decision is yours, your seat's state in
the game's own line format (``Game.state_text``: your holdings, what the others show, the piles); what
changed since the version the answer starts from (your own events always, other seats' newest ones,
older ones counted); and the decision: when it is yours, the time left on its clock and the legal
moves by id and text form with their plain words (``m3 pay SV-C053: discards Puerto de Trasbordo …``),
otherwise whom the table waits for. A refusal of a move that names no legal move, or of a move of
another step, lists the forms the step accepts. The full data (the engine's view, every event, the
JSON forms) is in ``structuredContent``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from club_agentes.engine.core.errors import EngineError
from club_agentes.engine.core.moves import MoveCodec
from club_agentes.engine.core.registry import get_game
from club_agentes.engine.core.text import counted, fold
from club_agentes.mcp_server.models_tables import (
    Decision,
    EventInfo,
    GameLog,
    LegalMove,
    LoggedMove,
    MoveOutcome,
    Refusal,
    ResultInfo,
    ScoreLineInfo,
    SeatInfo,
    SeatJoined,
    SeatScoreInfo,
    TableCreated,
    TableList,
    TableRules,
    TableSummary,
    TableView,
    WaitResult,
)
from club_agentes.mcp_server.store.tables import EventRow
from club_agentes.mcp_server.tables.config import MAX_WAIT_S
from club_agentes.mcp_server.tables.eventfold import keep_own
from club_agentes.mcp_server.tables.facts import (
    Created,
    DecisionFacts,
    Joined,
    LogPage,
    MoveFacts,
    MoveResult,
    RefusalFacts,
    SeatFacts,
    SeatState,
    TableFacts,
    TablePage,
    WaitOutcome,
)
from club_agentes.mcp_server.toolkit import compact
from mcp_types import CallToolResult

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
    """Return a UNIX time as ISO 8601 UTC (``None`` stays ``None``)."""
    return None if t is None else datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _clock(seconds: float) -> str:
    s = max(0, int(seconds))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def _num(x: float) -> str:
    return f"{x:g}"


# --------------------------------------------------------------------------- models


def seat_info(s: SeatFacts) -> SeatInfo:
    """Return a seat as its output model."""
    return SeatInfo(
        seat=s.seat,
        kind=s.kind,
        agent=s.agent,
        open=s.open,
        played_by=f"bot:{s.played_by}" if s.played_by else None,
        timeouts=s.timeouts,
    )


def table_rules(t: TableFacts) -> TableRules:
    """Return a table's own options as their output model."""
    o = t.table_options
    return TableRules(
        require_club_pass=bool(o.get("require_club_pass", t.require_club_pass)),
        decision_timeout_s=o.get("decision_timeout_s"),
        max_timeouts=int(o.get("max_timeouts", 3)),
        seats_per_agent=int(o.get("seats_per_agent", 1)),
    )


def decision(d: DecisionFacts, now: float) -> Decision:
    """Return a decision as its output model (with the seconds left on the clock)."""
    return Decision(
        kind=d.kind,  # type: ignore[arg-type]  # the engine's kinds are a subset of DecisionKind
        seats=d.seats,
        done=d.done,
        prompt=d.prompt,
        yours=d.yours,
        deadline_at=iso(d.deadline_at),
        seconds_left=round(max(0.0, d.deadline_at - now), 1) if d.deadline_at is not None else None,
    )


def legal_move(m: MoveFacts) -> LegalMove:
    """Return a legal move as its output model."""
    return LegalMove(id=m.id, text=m.text, move=m.move, says=m.says, note=m.note)


def event_info(e: EventRow, *, full: bool = False) -> EventInfo:
    """Return an event as its output model (in the full log, a private event names its audience)."""
    private = e.audience is not None
    text = e.text
    if full and private:
        text = f"[to seats {list(e.audience or ())}] {text}"
    return EventInfo(index=e.idx, version=e.version, text=text, private=private, data=e.data)


def result_info(r: dict[str, Any] | None) -> ResultInfo | None:
    """Return a stored result as its output model."""
    if r is None:
        return None
    return ResultInfo(
        winners=list(r.get("winners", [])),
        scores=[float(x) for x in r.get("scores", [])],
        reason=str(r.get("reason", "")),
        rule_id=r.get("rule_id"),
        breakdown=[
            SeatScoreInfo(
                seat=int(b["seat"]),
                total=float(b["total"]),
                unit=str(b.get("unit", "")),
                lines=[
                    ScoreLineInfo(label=x["label"], amount=float(x["amount"]), rule_id=x.get("rule_id"))
                    for x in b.get("lines", [])
                ],
            )
            for b in r.get("breakdown", [])
        ],
    )


# --------------------------------------------------------------------------- text


_CARD_ID = re.compile(r" \([A-Z]{2,4}(?:-[A-Z0-9]+)+\)")
"""A card id in parentheses after a card's name, `` (SV-C004)``: the move list names cards, its text forms give ids."""


def _plain(m: MoveFacts, me: SeatFacts, verbs: Mapping[str, frozenset[str]] | None = None) -> str:
    """The move's plain words for the move list: without the seat's own label in front, nor card ids in
    parentheses (``Puerto Marea (SV-C004)`` -> ``Puerto Marea``; the text form beside it gives the ids it needs),
    nor a first word that repeats the text form's verb: ``Discard Acción Tecnología 1M`` (before a name) or the
    label ``Construir:`` (``verbs`` maps a move type to its verb and aliases, folded: ``build`` -> construir)."""
    says = m.says.strip() or m.text
    prefix = me.label + " "
    says = _CARD_ID.sub("", says[len(prefix) :] if says.startswith(prefix) else says)
    first, _, rest = says.partition(" ")
    verb = fold(m.text.split(" ", 1)[0])
    if first.endswith(":"):  # a label: the verb or one of its aliases ("Construir: take ...")
        if fold(first[:-1]) in (verbs or {}).get(str(m.move.get("type", "")), frozenset({verb})):
            says = rest
    elif rest[:1].isupper() and fold(first).startswith(verb):  # the verb before a name ("Discard Acción ...")
        says = rest
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


def _common_suffix(a: str, b: str) -> str:
    """Return the longest ending ``a`` and ``b`` share, character-wise."""
    n = min(len(a), len(b))
    k = 0
    while k < n and a[-1 - k] == b[-1 - k]:
        k += 1
    return a[len(a) - k :] if k else ""


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
    says = [_plain(m, me, verbs) for m in moves]
    out: list[str] = []
    i = 0
    while i < len(moves):
        j = i
        tail = ""
        shared = says[i]
        while j + 1 < len(moves):
            shared = _common_suffix(shared, says[j + 1])
            longer = _tail_at_boundary(says[i], len(shared), 24)
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


# --------------------------------------------------------------------------- results


def _view_model(s: SeatState) -> TableView:
    t = s.table
    return TableView(
        table_id=t.table_id,
        game=t.game,
        status=t.status,  # type: ignore[arg-type]
        version=t.version,
        seat_version=s.seat_version,
        seat=s.seat,
        seats=[seat_info(x) for x in t.seats],
        decision=decision(s.decision, s.now),
        view=s.view,
        since=s.since,
        events=[event_info(e) for e in s.events],
        events_omitted=s.events_omitted,
        legal_moves=[legal_move(m) for m in s.moves],
        result=result_info(t.result),
        table_rules=table_rules(t),
        note=t.note,
    )


def view(s: SeatState) -> CallToolResult:
    """Return get_view's result."""
    return compact(_view_model(s), seat_text(s))


def outcome(r: MoveResult) -> CallToolResult:
    """Return play_move's result."""
    s, t = r.state, r.state.table
    refusal = None
    head: list[str] = []
    if r.refusal is not None:
        f = r.refusal
        forms = forms_now(f, s)
        refusal = Refusal(
            kind=f.kind,  # type: ignore[arg-type]
            reason=f.reason,
            rule_id=f.rule_id,
            rule_title=f.rule_title,
            rule_text=f.rule_text,
            current_version=t.version,
            seat_version=s.seat_version,
            closest=[legal_move(m) for m in f.closest],
            examples=f.examples,
            forms_now=forms,
        )
        head = refusal_lines(f, forms)
    elif r.overtaken is not None:
        head = [f"Overtaken: {r.overtaken}"]
    model = MoveOutcome(
        accepted=r.accepted,
        table_id=t.table_id,
        status=t.status,  # type: ignore[arg-type]
        version=t.version,
        seat_version=s.seat_version,
        played=legal_move(r.played) if r.played is not None else None,
        played_version=r.played_version,
        refusal=refusal,
        overtaken=r.overtaken,
        since=s.since,
        events=[event_info(e) for e in s.events],
        events_omitted=s.events_omitted,
        decision=decision(s.decision, s.now),
        legal_moves=[legal_move(m) for m in s.moves],
        result=result_info(t.result),
    )
    return compact(model, seat_text(s, head))


def waited(w: WaitOutcome) -> CallToolResult:
    """Return wait_for_turn's result."""
    s, t = w.state, w.state.table
    model = WaitResult(
        table_id=t.table_id,
        ready=w.ready,
        reason=w.reason,  # type: ignore[arg-type]
        status=t.status,  # type: ignore[arg-type]
        version=t.version,
        seat_version=s.seat_version,
        decision=decision(s.decision, s.now),
        legal_moves=[legal_move(m) for m in s.moves],
        since=s.since,
        events=[event_info(e) for e in s.events],
        events_omitted=s.events_omitted,
        result=result_info(t.result),
        waited_s=w.waited_s,
    )
    head = [] if w.ready else [f"Still waiting after {_num(w.waited_s)} s."]
    return compact(model, seat_text(s, head))


def created(c: Created) -> CallToolResult:
    """Return create_table's result."""
    t = c.table
    if t.status == "waiting":
        step = "Each agent calls join_table(table_id) to take an open seat and get its token" + (
            " (with its club pass)." if t.require_club_pass else "."
        )
    else:
        step = "Only bots sit here: they play in the background; game_log(table_id) shows the game as it goes."
    model = TableCreated(
        table_id=t.table_id,
        game=t.game,
        status=t.status,  # type: ignore[arg-type]
        seats=[seat_info(x) for x in t.seats],
        options=t.options,
        table_rules=table_rules(t),
        require_club_pass=t.require_club_pass,
        seeded=t.seeded,
        creator=t.creator,
        options_schema=c.options_schema,
        next_step=step,
    )
    seats = ", ".join(x.label for x in t.seats)
    text = (
        f"Created {t.game} table {t.table_id} ({t.status}): {seats}"
        f"{'; seed chosen by the creator' if t.seeded else ''}.\n"
        f"Options (value now, accepted values): {'; '.join(option_words(t, c.options_schema))}.\n{step}"
    )
    return compact(model, text)


def _accepted(spec: dict[str, Any]) -> str:
    """An option's accepted values, from its schema: ``1 to 1000``, ``familia, fortuna or campeonato``,
    ``true or false`` (``or null`` where null is accepted)."""
    types = spec.get("type")
    kinds = set(types) if isinstance(types, list) else {types}
    nullable = " or null" if "null" in kinds else ""
    if "enum" in spec:
        values = [str(v) for v in spec["enum"] if v is not None]
        return (", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else "".join(values)) + nullable
    if "boolean" in kinds:
        return "true, false or null" if nullable else "true or false"
    if "minimum" in spec or "maximum" in spec:
        lo, hi = (_shown(spec.get(k, "…")) for k in ("minimum", "maximum"))
        return f"{lo} to {hi}{nullable}"
    return "see options_schema"


def _shown(value: Any) -> str:
    """An option's value as JSON writes it: ``null``, ``true``, ``400``, ``fortuna``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return _num(value) if isinstance(value, int | float) else str(value)


def option_words(t: TableFacts, schema: dict[str, Any]) -> list[str]:
    """Every option of the table with its value now and its accepted values: ``turn_limit 400 (1 to 1000)``.

    The value is the one the table was created with, else the table's own option, else the schema's default;
    ``mcts_budget_ms`` is listed only at a table with a ``bot:mcts`` seat.
    """
    out = []
    mcts = any(x.kind == "bot:mcts" for x in t.seats)
    for name, spec in schema.get("properties", {}).items():
        if name == "mcts_budget_ms" and not mcts:
            continue
        if name in t.options:
            value = t.options[name]
        elif name in t.table_options:
            value = t.table_options[name]
        else:
            value = spec.get("default")
        out.append(f"{name} {_shown(value)} ({_accepted(spec)})")
    return out


def joined(j: Joined) -> CallToolResult:
    """Return join_table's result."""
    t = j.table
    step = (
        "Keep the token private. Call wait_for_turn(table_id, seat_token, 60): it returns your decision with "
        "the legal moves; answer with play_move."
    )
    model = SeatJoined(
        table_id=t.table_id,
        game=t.game,
        seat=j.seat,
        agent=j.agent,
        seat_token=j.token,
        status=t.status,  # type: ignore[arg-type]
        version=t.version,
        seat_version=j.seat_version,
        next_step=step,
        decision=decision(j.state.decision, j.state.now) if j.state is not None else None,
        legal_moves=[legal_move(m) for m in j.state.moves] if j.state is not None else [],
    )
    waiting = f" Waiting for seats {t.open_seats}." if t.status == "waiting" else " The game has started."
    text = f"You are seat {j.seat} ({j.agent}) at {t.game} table {t.table_id}.{waiting}\nseat_token: {j.token}\n{step}"
    if j.state is not None:
        text += "\n" + seat_text(j.state)
    return compact(model, text)


def log_page(p: LogPage) -> CallToolResult:
    """Return game_log's result."""
    t = p.table
    full = p.scope == "full"
    model = GameLog(
        table_id=t.table_id,
        game=t.game,
        status=t.status,  # type: ignore[arg-type]
        version=t.version,
        scope=p.scope,  # type: ignore[arg-type]
        seat=p.seat,
        after=p.after,
        upto=p.upto,
        events=[event_info(e, full=full) for e in p.events],
        moves=[LoggedMove(version=m.version, seat=m.seat, actor=m.actor, move=m.move) for m in p.moves]
        if p.moves is not None
        else None,
        seed=p.seed,
        options=t.options,
        seats=[seat_info(x) for x in t.seats],
        result=result_info(t.result),
        next_cursor=p.next_cursor,
    )
    lines = [
        f"{t.game} {t.table_id} · {t.status} · v{t.version} · {p.scope} log, versions {max(p.after + 1, 0)}-{p.upto}"
        + (f" · seed {p.seed}" if p.seed is not None else "")
    ]
    shown = p.events[:LOG_TEXT_EVENTS]
    for e in shown:
        who = f"[to seats {list(e.audience)}] " if full and e.audience is not None else ("[you] " if e.audience else "")
        lines.append(f"v{e.version} {who}{e.text}")
    if len(p.events) > len(shown):
        lines.append(f"({counted(len(p.events) - len(shown), 'more event')} of this page in the structured content)")
    if full and p.moves is not None:
        lines.append(
            f"{counted(len(p.moves), 'move')} in the structured content (moves[]), enough to replay with the seed."
        )
    if p.next_cursor:
        lines.append(f"More: game_log(table_id, cursor='{p.next_cursor}').")
    elif t.status in ("finished", "aborted"):
        lines += result_lines(t)
    return compact(model, "\n".join(lines))


def table_page(p: TablePage) -> CallToolResult:
    """Return list_tables's result."""
    summaries = []
    lines = []
    for t in p.tables:
        summaries.append(
            TableSummary(
                table_id=t.table_id,
                game=t.game,
                status=t.status,  # type: ignore[arg-type]
                version=t.version,
                seats=[seat_info(x) for x in t.seats],
                open_seats=t.open_seats,
                options=t.options,
                table_rules=table_rules(t),
                require_club_pass=t.require_club_pass,
                seeded=t.seeded,
                creator=t.creator,
                created_at=iso(t.created_at) or "",
            )
        )
        open_ = f" open seats {t.open_seats}" if t.open_seats else ""
        lines.append(
            f"{t.table_id} {t.game} {t.status} v{t.version}{open_} · {', '.join(x.label for x in t.seats)}"
            f" · by {t.creator or 'unknown'}{' · pass required' if t.require_club_pass else ''}"
        )
    if not lines:
        lines.append("No tables match.")
    if p.next_cursor:
        lines.append(f"More: list_tables(..., cursor='{p.next_cursor}').")
    return compact(TableList(tables=summaries, next_cursor=p.next_cursor), "\n".join(lines))


__all__ = [
    "MAX_WAIT_S",
    "created",
    "decision_lines",
    "iso",
    "joined",
    "log_page",
    "outcome",
    "refusal_lines",
    "result_lines",
    "seat_text",
    "table_page",
    "view",
    "waited",
]
