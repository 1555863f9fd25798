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

from typing import Any

from club_agentes.engine.core.text import counted
from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.models_tables import (
    Decision,
    EventInfo,
    GameLog,
    LegalMove,
    LoggedMove,
    MoveOutcome,
    ResultInfo,
    SeatInfo,
    SeatJoined,
    TableCreated,
    TableList,
    TableRules,
    TableSummary,
    TableView,
    WaitResult,
)
from club_agentes.mcp_server.tables.config import MAX_WAIT_S
from club_agentes.mcp_server.tables.facts import (
    Created,
    DecisionFacts,
    Joined,
    LogPage,
    MoveFacts,
    MoveResult,
    SeatFacts,
    SeatState,
    TableFacts,
    TablePage,
    WaitOutcome,
)
from club_agentes.mcp_server.tables.wording import (
    LOG_TEXT_EVENTS,
    _num,
    decision_lines,
    forms_now,
    iso,
    refusal_lines,
    result_lines,
    seat_text,
)
from club_agentes.mcp_server.toolkit import compact, compact_dict
from mcp_types import CallToolResult

# The parts as output models, for the answers that build models (create_table, join_table, the log, the table
# list): each validates the dict the hot answers below write, so the facts reach JSON one way only.


def seat_info(s: SeatFacts) -> SeatInfo:
    """Return a seat as its output model."""
    return SeatInfo.model_validate(_seat_json(s))


def table_rules(t: TableFacts) -> TableRules:
    """Return a table's own options as their output model."""
    return TableRules.model_validate(_rules_json(t))


def decision(d: DecisionFacts, now: float) -> Decision:
    """Return a decision as its output model (with the seconds left on the clock)."""
    return Decision.model_validate(_decision_json(d, now))


def legal_move(m: MoveFacts) -> LegalMove:
    """Return a legal move as its output model."""
    return LegalMove.model_validate(_move_json(m))


def event_info(e: EventRow, *, full: bool = False) -> EventInfo:
    """Return an event as its output model (in the full log, a private event names its audience)."""
    return EventInfo.model_validate(_event_json(e, full=full))


def result_info(r: dict[str, Any] | None) -> ResultInfo | None:
    """Return a stored result as its output model."""
    data = _result_json(r)
    return None if data is None else ResultInfo.model_validate(data)


# --------------------------------------------------------------------------- hot answers, as JSON dicts
#
# get_view, play_move and wait_for_turn answer on every move: their structured content is written directly as
# the dict that ``model_dump(mode="json", by_alias=True)`` of their output model would write (same keys in the
# models' field order, ``None`` s, floats where a field is ``float``), without building and validating the
# models; :func:`~club_agentes.mcp_server.toolkit.compact_dict` marks the result as written for that model.
# tests/mcp/test_presenter_dicts.py checks, over many real states, that each dict is its model's own dump and
# the same JSON as the model-building code wrote. The engine's JSON (views, moves, event data) is passed on as
# is (JSON types already; not copied: the SDK dumps the result as soon as the tool returns).


def _seat_json(s: SeatFacts) -> dict[str, Any]:
    """A seat as :class:`SeatInfo` dumps it."""
    return {
        "seat": s.seat,
        "kind": s.kind,
        "agent": s.agent,
        "open": s.open,
        "played_by": f"bot:{s.played_by}" if s.played_by else None,
        "timeouts": s.timeouts,
    }


def _rules_json(t: TableFacts) -> dict[str, Any]:
    """A table's own options as :class:`TableRules` dumps them."""
    o = t.table_options
    timeout = o.get("decision_timeout_s")
    return {
        "require_club_pass": bool(o.get("require_club_pass", t.require_club_pass)),
        "decision_timeout_s": float(timeout) if timeout is not None else None,
        "max_timeouts": int(o.get("max_timeouts", 3)),
        "seats_per_agent": int(o.get("seats_per_agent", 1)),
    }


def _decision_json(d: DecisionFacts, now: float) -> dict[str, Any]:
    """A decision as :class:`Decision` dumps it (with the seconds left on the clock)."""
    return {
        "kind": d.kind,
        "seats": d.seats,
        "done": d.done,
        "prompt": d.prompt,
        "yours": d.yours,
        "deadline_at": iso(d.deadline_at),
        "seconds_left": float(round(max(0.0, d.deadline_at - now), 1)) if d.deadline_at is not None else None,
    }


def _move_json(m: MoveFacts) -> dict[str, Any]:
    """A legal move as :class:`LegalMove` dumps it."""
    return {"id": m.id, "text": m.text, "move": m.move, "says": m.says, "note": m.note}


def _event_json(e: EventRow, *, full: bool = False) -> dict[str, Any]:
    """An event as :class:`EventInfo` dumps it (in the full log, a private event names its audience)."""
    private = e.audience is not None
    text = f"[to seats {list(e.audience or ())}] {e.text}" if full and private else e.text
    return {"index": e.idx, "version": e.version, "text": text, "private": private, "data": e.data}


def _result_json(r: dict[str, Any] | None) -> dict[str, Any] | None:
    """A stored result as :class:`ResultInfo` dumps it.

    Raises:
        KeyError: a breakdown or one of its lines lacks a required key (a stored result never does).
    """
    if r is None:
        return None
    return {
        "winners": [int(w) for w in r.get("winners", [])],
        "scores": [float(x) for x in r.get("scores", [])],
        "reason": str(r.get("reason", "")),
        "rule_id": r.get("rule_id"),
        "breakdown": [
            {
                "seat": int(b["seat"]),
                "total": float(b["total"]),
                "unit": str(b.get("unit", "")),
                "lines": [
                    {"label": x["label"], "amount": float(x["amount"]), "rule_id": x.get("rule_id")}
                    for x in b.get("lines", [])
                ],
            }
            for b in r.get("breakdown", [])
        ],
    }


def view(s: SeatState) -> CallToolResult:
    """Return get_view's result (structured content as :class:`TableView` dumps it)."""
    t = s.table
    data = {
        "table_id": t.table_id,
        "game": t.game,
        "status": t.status,
        "version": t.version,
        "seat_version": s.seat_version,
        "seat": s.seat,
        "seats": [_seat_json(x) for x in t.seats],
        "decision": _decision_json(s.decision, s.now),
        "view": s.view,
        "since": s.since,
        "events": [_event_json(e) for e in s.events],
        "events_omitted": s.events_omitted,
        "legal_moves": [_move_json(m) for m in s.moves],
        "result": _result_json(t.result),
        "table_rules": _rules_json(t),
        "note": t.note,
    }
    return compact_dict(TableView, data, seat_text(s))


def outcome(r: MoveResult) -> CallToolResult:
    """Return play_move's result (structured content as :class:`MoveOutcome` dumps it)."""
    s, t = r.state, r.state.table
    refusal = None
    head: list[str] = []
    if r.refusal is not None:
        f = r.refusal
        forms = forms_now(f, s)
        refusal = {
            "kind": f.kind,
            "reason": f.reason,
            "rule_id": f.rule_id,
            "rule_title": f.rule_title,
            "rule_text": f.rule_text,
            "current_version": t.version,
            "seat_version": s.seat_version,
            "closest": [_move_json(m) for m in f.closest],
            "examples": f.examples,
            "forms_now": forms,
        }
        head = refusal_lines(f, forms)
    elif r.overtaken is not None:
        head = [f"Overtaken: {r.overtaken}"]
    elif r.queued is not None:
        head = [f"Queued: {r.queued}"]
    data = {
        "accepted": r.accepted,
        "table_id": t.table_id,
        "status": t.status,
        "version": t.version,
        "seat_version": s.seat_version,
        "played": _move_json(r.played) if r.played is not None else None,
        "played_version": r.played_version,
        "refusal": refusal,
        "overtaken": r.overtaken,
        "queued": r.queued,
        "since": s.since,
        "events": [_event_json(e) for e in s.events],
        "events_omitted": s.events_omitted,
        "decision": _decision_json(s.decision, s.now),
        "legal_moves": [_move_json(m) for m in s.moves],
        "result": _result_json(t.result),
    }
    return compact_dict(MoveOutcome, data, seat_text(s, head))


def waited(w: WaitOutcome) -> CallToolResult:
    """Return wait_for_turn's result (structured content as :class:`WaitResult` dumps it)."""
    s, t = w.state, w.state.table
    data = {
        "table_id": t.table_id,
        "ready": w.ready,
        "reason": w.reason,
        "status": t.status,
        "version": t.version,
        "seat_version": s.seat_version,
        "decision": _decision_json(s.decision, s.now),
        "legal_moves": [_move_json(m) for m in s.moves],
        "since": s.since,
        "events": [_event_json(e) for e in s.events],
        "events_omitted": s.events_omitted,
        "result": _result_json(t.result),
        "waited_s": float(w.waited_s),
    }
    head = [] if w.ready else [f"Still waiting after {_num(w.waited_s)} s."]
    return compact_dict(WaitResult, data, seat_text(s, head))


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
