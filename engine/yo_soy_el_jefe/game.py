"""The rules of Yo soy el jefe as a decision state machine (see DESIGN.md and the rulings).

One decision at a time:

* ``marker``: the seat to the first player's right places the dollar marker;
* ``turn``: the seat on turn negotiates on the marker's space or rolls;
* ``after_roll``: it negotiates where the marker arrived or draws;
* ``discard``: over the hand limit, it discards (or first plays a hire set);
* ``negotiation``: an open negotiation in rounds (ruling ``protocolo-de-negociacion``).
  In a round the seats other than the boss are polled one at a time from the boss's
  left; each may act once or pass. Then the boss decides: it acts (a new round), waits
  for another round (only if someone acted), fails, or closes (only after a round in
  which everyone passed). A travel card, a boss card or a hire set opens a stop window
  first: the other seats are polled for a stop card before the card takes effect.

:meth:`YoSoyElJefe.legal_moves` is the single source of truth: ``apply`` accepts a
move only if it is listed, and otherwise explains the refusal with the rule id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from club_agentes.engine.core import Event, Game, GameInfo, IllegalMove, InvalidMove, Pending, RandomBot, Result
from club_agentes.engine.core.windows import clockwise_from
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.bots import HeuristicBot
from club_agentes.engine.yo_soy_el_jefe.components import KIND_LABELS, components
from club_agentes.engine.yo_soy_el_jefe.moves import (
    ACCEPTS,
    BIDS,
    BOSS_KEEP,
    BOSS_RESTART,
    CLOSE,
    DISCARDS,
    DRAW,
    FAIL,
    FAMILY,
    HIRES,
    INVESTOR,
    MARKERS,
    MILLIONS,
    MOVE_TYPES,
    NEGOTIATE,
    OFFERS,
    PASS,
    PLACE_FAMILY,
    PRICES_D,
    PRICES_M,
    REFUSES,
    ROLL,
    STOP_MOVE,
    TRAVELS,
    Accept,
    Bid,
    Close,
    Discard,
    Draw,
    Fail,
    Hire,
    Negotiate,
    Offer,
    Pass,
    PlaceFamily,
    PlaceMarker,
    PlayBoss,
    Price,
    Refuse,
    Roll,
    Stop,
    Travel,
    move_schema,
    parse_move,
)
from club_agentes.engine.yo_soy_el_jefe.state import (
    AGREED,
    ASKED,
    BIDS_PER_SEAT,
    CARDS,
    COLOURS,
    NCOL,
    OFFERS_PER_SEAT,
    PROPOSED,
    SLOT_BOSS,
    SLOT_FAMILY,
    SLOT_GREY,
    SLOT_HIRE,
    SLOT_KIND,
    SLOT_OF_KIND,
    SLOT_STOP,
    SLOT_TRAVEL,
    SPACES,
    JefeConfig,
    Negotiation,
    State,
    StopWindow,
    make_config,
)

# Per space: the colour indexes it can use, mandatory and optional.
SPACE_MAND: tuple[tuple[int, ...], ...] = tuple(tuple(COLOURS.index(c) for c in s.mandatory) for s in SPACES)
SPACE_OPT: tuple[tuple[int, ...], ...] = tuple(tuple(COLOURS.index(c) for c in s.optional) for s in SPACES)
SPACE_COLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(m + o)) for m, o in zip(SPACE_MAND, SPACE_OPT, strict=True)
)
DIE_FACES = components().die_faces

_PRICE_MENUS: dict[tuple[int, int], list[Price]] = {}


def price_menu(payout: int, dividends: int) -> list[Price]:
    """Return the prices a seat may name in a deal paying ``payout`` millions in ``dividends`` dividends.

    Whole millions from 1M to half the payout, then whole dividends from 1 to half
    the dividends (each at least 1), as ruling ``menu-de-precios`` says.
    """
    key = (payout, dividends)
    menu = _PRICE_MENUS.get(key)
    if menu is None:
        menu = [PRICES_M[m] for m in range(1, max(1, payout // 2) + 1)]
        menu += [PRICES_D[k] for k in range(1, max(1, dividends // 2) + 1)]
        _PRICE_MENUS[key] = menu
    return menu


def _card_name(card: int) -> str:
    c = CARDS[card]
    return f"{KIND_LABELS[c.kind]} {c.colour} {c.id}" if c.colour else f"{KIND_LABELS[c.kind]} {c.id}"


def _millions(amount: int) -> str:
    return f"{amount}M"


class YoSoyElJefe(Game):
    """Yo soy el jefe: gather the investors a board space asks for, negotiate openly, interfere with cards."""

    id: ClassVar[str] = "yo-soy-el-jefe"
    name: ClassVar[str] = "Yo soy el jefe"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot, "heuristic": HeuristicBot}

    # -- configuration -------------------------------------------------------------------

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> JefeConfig:
        """Build a configuration from a seat count and table options.

        Raises:
            ConfigError: seat count out of 2-6, unknown option or bad value; the
                message lists what is accepted.
        """
        return make_config(seats, options)

    def config_schema(self) -> dict[str, Any]:
        """Return the JSON schema of the table options (every property described)."""
        from club_agentes.engine.yo_soy_el_jefe.views import config_schema

        return config_schema()

    def sample_configs(self) -> list[tuple[int, dict[str, Any]]]:
        """Return every seat count with the standard rules, and every option on at least once."""
        every = {
            "boss_card_keeps_turn": True,
            "mandatory_negotiation_with_10_cards": True,
            "dividends_only_for_participants": True,
            "draw_by_investors": True,
            "no_negotiation_with_3_cards_or_fewer": True,
            "hand_limit_10_from_tenth_deal": True,
        }
        return [
            (2, {}),
            (3, {}),
            (4, {}),
            (5, {}),
            (6, {}),
            (3, {**every, "quick_game": True}),
            (5, {**every, "two_player_rules": True, "first_player": 2, "marker_start": 8, "turn_limit": 80}),
        ]

    def info(self) -> GameInfo:
        """Return static facts about the game."""
        return GameInfo(
            self.id,
            self.name,
            self.min_seats,
            self.max_seats,
            summary="Negotiation game: gather the investors each board space asks for, share the dividends openly, "
            "and interfere with influence cards; the most money wins.",
            extra={"rulebook_seats": "3-6 (2 with the two-player rules)"},
        )

    def new_game(self, config: JefeConfig, seed: int) -> State:  # type: ignore[override]
        """Return the initial state: investors and five influence cards dealt, deal deck #1 on top."""
        return State(config, seed)

    # -- who decides ----------------------------------------------------------------------

    def pending(self, state: State) -> Pending:  # type: ignore[override]
        """Return who must decide now, with a one-sentence prompt built only from public facts."""
        phase = state.phase
        if phase == "over":
            return Pending("over", (), "The game is over.")
        if state.stop is not None:
            seat = state.stop.window.current
            return Pending("reaction", (seat,), self._stop_prompt(state))  # type: ignore[arg-type]
        if phase == "negotiation":
            neg = state.neg
            assert neg is not None
            if neg.floor == "poll":
                seat = neg.window.current
                return Pending("reaction", (seat,), self._poll_prompt(state, seat))  # type: ignore[arg-type]
            if neg.floor == "boss":
                return Pending("turn", (neg.boss,), self._boss_prompt(state))
            actor = neg.price_ctx[0]  # type: ignore[index]
            kind = "turn" if actor == neg.boss else "reaction"
            return Pending(kind, (actor,), self._price_prompt(state))
        if phase == "turn":
            return Pending("turn", (state.turn,), self._turn_prompt(state))
        if phase == "after_roll":
            space = state.marker + 1
            return Pending(
                "turn",
                (state.turn,),
                f"You rolled {state.last_roll} and the marker is on space {space} "
                f"({self._space_words(state.marker)}): negotiate there or draw influence cards.",
            )
        if phase == "discard":
            seat = state.hand_limit_seat
            return Pending(
                "turn",
                (seat,),
                f"Seat {seat} holds {len(state.hands[seat])} influence cards and the limit is {state.hand_limit()}: "
                "discard one card, or first play a hire set (3 hire cards) to take an investor.",
            )
        placer = (state.first_player - 1) % state.n
        return Pending(
            "turn",
            (placer,),
            f"Seat {state.first_player} plays first: as the seat to its right, place the dollar marker on a board "
            f"space (1 to {len(SPACES)}).",
        )

    def _space_words(self, space: int) -> str:
        s = SPACES[space]
        return f"{s.dividends} dividends, needs {s.describe()}"

    def _turn_prompt(self, state: State) -> str:
        text = (
            f"Your turn, seat {state.turn}: negotiate on space {state.marker + 1} "
            f"({self._space_words(state.marker)}) or roll the die"
        )
        if state.must_negotiate:
            return text + " (you hold 10 or more cards, so you must negotiate here or after rolling)."
        return text + "."

    def _stop_prompt(self, state: State) -> str:
        stop = state.stop
        assert stop is not None
        words = self._stop_card_words(state, stop)
        return f"{words[0].upper()}{words[1:]}: play a stop card (parada) to cancel it, or pass."

    def _stop_card_words(self, state: State, stop: StopWindow) -> str:
        p = stop.player
        if stop.kind == "travel":
            target, seat, colour = stop.payload
            what = f"seat {seat}'s {COLOURS[colour]} {'investor' if target == INVESTOR else 'family card'}"
            return f"seat {p}'s travel card on {what}"
        if stop.kind == "hire":
            colour = stop.payload[0]
            owner = state.owner[colour]
            whose = "beside the board" if owner < 0 else f"of seat {owner}"
            return f"seat {p}'s hire set to take the {COLOURS[colour]} investor {whose}"
        return f"seat {p}'s boss card (to become the boss)"

    def _poll_prompt(self, state: State, seat: int) -> str:
        neg = state.neg
        assert neg is not None
        asks = [
            f"{_millions(v[1])} for your {COLOURS[c]}"
            for (s, c), v in sorted(neg.items.items())
            if s == seat and v[0] == PROPOSED
        ]
        head = (
            f"Your chance this round: seat {neg.boss} is the boss of the deal on space {neg.space + 1} "
            f"({_millions(neg.payout)})"
        )
        can_name = neg.offers_left[seat] > 0
        if asks:
            counter = " or counter with an offer" if can_name else ""
            head += f" and proposes {', '.join(asks)}: accept, refuse{counter}; or"
        else:
            head += ": you may"
        offer = "offer a colour you represent, place a family card, " if can_name else ""
        return head + f" {offer}play a travel card, a hire set or a boss card, or pass."

    def _boss_prompt(self, state: State) -> str:
        neg = state.neg
        assert neg is not None
        missing = self._missing(state)
        acts = (
            "place a family card, bid for a colour, accept or refuse an asked price, play a travel card or a hire set"
        )
        if neg.active:
            status = "the investors are gathered" if not missing else f"still missing: {missing}"
            return (
                f"The other seats acted this round; you are the boss ({status}): act ({acts}), pass to give them "
                "another round, or declare failure; you may close only after a round in which they all passed."
            )
        status = "the investors are gathered, so you may close the deal" if not missing else f"still missing: {missing}"
        return (
            f"Every other seat passed this round; you are the boss ({status}): close ('Uno, dos...'), "
            f"declare failure, or act ({acts})."
        )

    def _price_prompt(self, state: State) -> str:
        neg = state.neg
        assert neg is not None and neg.price_ctx is not None
        actor, seat, colour = neg.price_ctx
        top_m = max(1, neg.payout // 2)
        top_d = max(1, neg.dividends // 2)
        what = f"seat {seat}'s {COLOURS[colour]}" if actor == neg.boss else f"your {COLOURS[colour]}"
        return (
            f"Name the price for {what}: whole millions from 1M to {top_m}M, or 1 to {top_d} dividends "
            f"of {neg.value}M each."
        )

    # -- legal moves ----------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Any]:  # type: ignore[override]
        """Return the legal moves of ``seat`` now, in a stable order (empty if it must not act)."""
        cache = state.legal_cache
        if cache is not None and cache[0] == state.version and cache[1] == seat:
            return list(cache[2])
        moves = self._legal(state, seat)
        state.legal_cache = (state.version, seat, moves)
        return list(moves)

    def _legal(self, state: State, seat: int) -> list[Any]:
        phase = state.phase
        if phase == "over":
            return []
        stop = state.stop
        if stop is not None:
            if seat != stop.window.current:
                return []
            return [STOP_MOVE, PASS] if state.counts[seat][SLOT_STOP] else [PASS]
        if phase == "negotiation":
            neg = state.neg
            assert neg is not None
            floor = neg.floor
            if floor == "poll":
                return self._poll_moves(state, neg, seat) if seat == neg.window.current else []
            if floor == "boss":
                return self._boss_moves(state, neg, seat) if seat == neg.boss else []
            if seat != neg.price_ctx[0]:  # type: ignore[index]
                return []
            return list(price_menu(neg.payout, neg.dividends))
        if phase == "turn":
            if seat != state.turn:
                return []
            return [NEGOTIATE, ROLL] if self._may_negotiate(state, seat) else [ROLL]
        if phase == "after_roll":
            if seat != state.turn:
                return []
            moves = [NEGOTIATE] if self._may_negotiate(state, seat) else []
            if not state.must_negotiate:
                moves.append(DRAW)
            return moves
        if phase == "discard":
            if seat != state.hand_limit_seat:
                return []
            moves = [HIRES[c] for c in self._hire_targets(state, seat)] if state.counts[seat][SLOT_HIRE] >= 3 else []
            counts = state.counts[seat]
            moves += [DISCARDS[SLOT_KIND[i]] for i in range(len(counts)) if counts[i]]
            return moves
        # marker
        return list(MARKERS) if seat == (state.first_player - 1) % state.n else []

    def _may_negotiate(self, state: State, seat: int) -> bool:
        return not (state.cfg.no_negotiation_with_3_cards_or_fewer and len(state.hands[seat]) <= 3)

    def _hire_targets(self, state: State, seat: int) -> list[int]:
        owner = state.owner
        free = [c for c in range(NCOL) if owner[c] < 0]
        if free:
            return free
        return [c for c in range(NCOL) if owner[c] != seat]

    def _represents(self, state: State, neg: Negotiation, seat: int, colour: int) -> bool:
        return (state.owner[colour] == seat and colour not in neg.travelled) or (seat, colour) in neg.placed

    def _poll_moves(self, state: State, neg: Negotiation, seat: int) -> list[Any]:
        counts = state.counts[seat]
        cols = SPACE_COLS[neg.space]
        items = neg.items
        moves: list[Any] = []
        room = neg.payout - neg.agreed_total()
        for c in cols:
            item = items.get((seat, c))
            if item is not None and item[0] == PROPOSED:
                if item[1] <= room:
                    moves.append(ACCEPTS[seat][c])
                moves.append(REFUSES[seat][c])
        if neg.offers_left[seat] > 0:
            for c in cols:
                item = items.get((seat, c))
                if (item is None or item[0] != AGREED) and self._represents(state, neg, seat, c):
                    moves.append(OFFERS[c])
            for c in cols:
                if counts[SLOT_FAMILY + c] and (seat, c) not in neg.placed:
                    item = items.get((seat, c))
                    if item is None or item[0] != AGREED:
                        moves.append(PLACE_FAMILY[c])
        self._influence_moves(state, neg, seat, moves)
        if counts[SLOT_BOSS]:
            moves.append(BOSS_KEEP)
            moves.append(BOSS_RESTART)
        moves.append(PASS)
        return moves

    def _boss_moves(self, state: State, neg: Negotiation, boss: int) -> list[Any]:
        counts = state.counts[boss]
        cols = SPACE_COLS[neg.space]
        moves: list[Any] = []
        closable = self._group(state, neg)[1]
        if closable and not neg.active:
            moves.append(CLOSE)
        for c in cols:
            if counts[SLOT_FAMILY + c] and (boss, c) not in neg.placed:
                moves.append(PLACE_FAMILY[c])
        items = neg.items
        room = neg.payout - neg.agreed_total()
        for s in range(state.n):
            for c in cols:
                item = items.get((s, c))
                if item is not None and item[0] == ASKED:
                    if item[1] <= room:
                        moves.append(ACCEPTS[s][c])
                    moves.append(REFUSES[s][c])
        for s in range(state.n):
            if s != boss and neg.bids_left[s] > 0:
                for c in cols:
                    item = items.get((s, c))
                    if (item is None or item[0] != AGREED) and self._represents(state, neg, s, c):
                        moves.append(BIDS[s][c])
        self._influence_moves(state, neg, boss, moves)
        if neg.active:
            moves.append(PASS)
        if not (closable and state.cfg.two_player_rules):
            moves.append(FAIL)  # last, so that the first move listed is never the one that gives up
        return moves

    def _influence_moves(self, state: State, neg: Negotiation, seat: int, moves: list[Any]) -> None:
        counts = state.counts[seat]
        grey = counts[SLOT_GREY] > 0
        owner = state.owner
        for c in SPACE_COLS[neg.space]:
            own = counts[SLOT_TRAVEL + c] > 0
            if not (own or grey):
                continue
            o = owner[c]
            if o >= 0 and c not in neg.travelled:
                if own:
                    moves.append(TRAVELS[(INVESTOR, o, COLOURS[c], False)])
                if grey:
                    moves.append(TRAVELS[(INVESTOR, o, COLOURS[c], True)])
            for s in range(state.n):
                if (s, c) in neg.placed:
                    if own:
                        moves.append(TRAVELS[(FAMILY, s, COLOURS[c], False)])
                    if grey:
                        moves.append(TRAVELS[(FAMILY, s, COLOURS[c], True)])
        if counts[SLOT_HIRE] >= 3:
            for c in self._hire_targets(state, seat):
                moves.append(HIRES[c])

    # -- the group that closes a deal -------------------------------------------------------

    def _group(self, state: State, neg: Negotiation) -> tuple[list[tuple[int, int, str, int]], bool]:
        """Return the participants ``(seat, colour, how, price)`` of a close now, and whether it is complete.

        ``how`` is ``"investor"``, ``"family"`` or ``"forced"`` (an opponent's
        investor used under the two-player rules). See ruling ``composicion-del-cierre``.
        """
        boss = neg.boss
        owner = state.owner
        travelled = neg.travelled
        placed = neg.placed
        parts: list[tuple[int, int, str, int]] = []
        covered: set[int] = set()
        for (s, c), item in sorted(neg.items.items()):
            if item[0] != AGREED:
                continue
            if owner[c] == s and c not in travelled:
                parts.append((s, c, INVESTOR, item[1]))
                covered.add(c)
            elif (s, c) in placed:
                parts.append((s, c, FAMILY, item[1]))
                covered.add(c)
        cols = SPACE_COLS[neg.space]
        for c in cols:
            if owner[c] == boss and c not in travelled and c not in covered:
                parts.append((boss, c, INVESTOR, 0))
                covered.add(c)
        mand = SPACE_MAND[neg.space]
        opt = SPACE_OPT[neg.space]
        for c in mand:
            if c not in covered and (boss, c) in placed:
                parts.append((boss, c, FAMILY, 0))
                covered.add(c)
        need = SPACES[neg.space].optional_needed - sum(1 for c in opt if c in covered)
        for c in opt:
            if need > 0 and c not in covered and (boss, c) in placed:
                parts.append((boss, c, FAMILY, 0))
                covered.add(c)
                need -= 1
        if state.cfg.two_player_rules:
            share = neg.payout // SPACES[neg.space].investors_needed
            for c in mand:
                o = owner[c]
                if c not in covered and o >= 0 and o != boss and c not in travelled:
                    parts.append((o, c, "forced", share))
                    covered.add(c)
            for c in opt:
                o = owner[c]
                if need > 0 and c not in covered and o >= 0 and o != boss and c not in travelled:
                    parts.append((o, c, "forced", share))
                    covered.add(c)
                    need -= 1
        complete = need <= 0 and all(c in covered for c in mand)
        return parts, complete

    def _missing(self, state: State, group: tuple[list[tuple[int, int, str, int]], bool] | None = None) -> str:
        neg = state.neg
        assert neg is not None
        parts, complete = self._group(state, neg) if group is None else group
        if complete:
            return ""
        covered = {p[1] for p in parts}
        words = [COLOURS[c] for c in SPACE_MAND[neg.space] if c not in covered]
        opt = SPACE_OPT[neg.space]
        need = SPACES[neg.space].optional_needed - sum(1 for c in opt if c in covered)
        if need > 0:
            words.append(f"{need} of {'/'.join(COLOURS[c] for c in opt if c not in covered)}")
        return ", ".join(words)

    # -- apply ----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, move: Any) -> list[Event]:  # type: ignore[override]
        """Validate and apply ``move`` for ``seat``; return the events it caused.

        Raises:
            IllegalMove: the move breaks a rule (the rule id names the section or
                ruling); ``state`` is unchanged.
            InvalidMove: the value is not a well-formed move of this game; ``state``
                is unchanged.
        """
        legal: list[Any] = []
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n:
            cache = state.legal_cache
            if cache is not None and cache[0] == state.version and cache[1] == seat:
                legal = cache[2]
            else:
                legal = self._legal(state, seat)
                state.legal_cache = (state.version, seat, legal)
        if move not in legal:
            self._refuse(state, seat, move)
        state.version += 1
        state.legal_cache = None
        return self._HANDLERS[type(move)](self, state, seat, move)

    # Handlers: each is called with a legal move only.

    def _do_marker(self, state: State, seat: int, move: PlaceMarker) -> list[Event]:
        state.marker = move.space - 1
        events = [
            Event(
                f"seat {seat} placed the dollar marker on space {move.space} ({self._space_words(state.marker)}).",
                data={"space": move.space},
            )
        ]
        self._start_turn(state, state.first_player)
        events.append(Event(f"seat {state.first_player} plays first."))
        return events

    def _start_turn(self, state: State, seat: int) -> None:
        state.phase = "turn"
        state.turn = seat
        state.neg = None
        state.stop = None
        state.must_negotiate = state.cfg.mandatory_negotiation_with_10_cards and len(state.hands[seat]) >= 10

    def _do_negotiate(self, state: State, seat: int, move: Negotiate) -> list[Event]:
        card = state.deal_deck[0]
        neg = Negotiation(state.marker, card, seat, state.n)
        state.neg = neg
        state.phase = "negotiation"
        self._new_round(state, neg)
        text = (
            f"seat {seat} said '¡Vamos a negociar!' on space {state.marker + 1}: {neg.dividends} dividends of "
            f"{neg.value}M (deal card #{card.number}) pay {neg.payout}M and need {SPACES[neg.space].describe()}; "
            f"seat {seat} is the boss."
        )
        neg.history.append(text)
        return [Event(text, data={"space": state.marker + 1, "payout": neg.payout, "boss": seat})]

    def _do_roll(self, state: State, seat: int, move: Roll) -> list[Event]:
        roll = state.rng.below(DIE_FACES) + 1
        state.last_roll = roll
        pos = state.marker
        steps = roll
        while steps:
            pos = (pos + 1) % len(SPACES)
            if not state.covered[pos]:
                steps -= 1
        state.marker = pos
        state.phase = "after_roll"
        return [
            Event(
                f"seat {seat} rolled {roll} and moved the marker to space {pos + 1} ({self._space_words(pos)}).",
                data={"roll": roll, "space": pos + 1},
            )
        ]

    def _do_draw(self, state: State, seat: int, move: Draw) -> list[Event]:
        count = 3
        if state.cfg.draw_by_investors:
            count = (4, 3, 2, 1)[min(len(state.investors_of(seat)), 3)]
        drawn: list[int] = []
        for _ in range(count):
            card = state.draw_card()
            if card is None:
                break
            state.give(seat, card)
            drawn.append(card)
        events = [
            Event(
                f"seat {seat} took {len(drawn)} influence card(s) and now holds {len(state.hands[seat])}.",
                data={"seat": seat, "count": len(drawn)},
            ),
            Event(
                f"you drew {', '.join(_card_name(c) for c in drawn) or 'nothing (both decks are empty)'}.",
                audience=(seat,),
                data={"cards": [CARDS[c].id for c in drawn]},
            ),
        ]
        if len(state.hands[seat]) > state.hand_limit():
            state.phase = "discard"
            state.hand_limit_seat = seat
        else:
            events += self._end_turn(state, (seat + 1) % state.n)
        return events

    def _do_discard(self, state: State, seat: int, move: Discard) -> list[Event]:
        card = state.take(seat, SLOT_OF_KIND[(move.kind, move.colour)])
        state.discard.append(card)
        state.public.add(card)
        events = [
            Event(f"seat {seat} discarded {_card_name(card)} over the hand limit.", data={"card": CARDS[card].id})
        ]
        if len(state.hands[seat]) <= state.hand_limit():
            state.hand_limit_seat = -1
            events += self._end_turn(state, (seat + 1) % state.n)
        return events

    def _do_place_family(self, state: State, seat: int, move: PlaceFamily) -> list[Event]:
        neg = state.neg
        assert neg is not None
        colour = COLOURS.index(move.colour)
        card = state.take(seat, SLOT_FAMILY + colour)
        neg.placed[(seat, colour)] = card
        neg.used.add(seat)
        state.public.add(card)
        if seat == neg.boss:
            text = f"seat {seat} (the boss) placed family card (familia) {move.colour} {CARDS[card].id} in the deal."
            self._after_act(state, neg, seat)
        else:
            text = (
                f"seat {seat} placed family card (familia) {move.colour} {CARDS[card].id} to take part "
                "and will name its price."
            )
            neg.offers_left[seat] -= 1
            neg.floor = "price"
            neg.price_ctx = (seat, seat, colour)
        neg.history.append(text)
        return [Event(text, data={"seat": seat, "colour": move.colour, "card": CARDS[card].id})]

    def _do_offer(self, state: State, seat: int, move: Offer) -> list[Event]:
        neg = state.neg
        assert neg is not None
        colour = COLOURS.index(move.colour)
        neg.offers_left[seat] -= 1
        neg.floor = "price"
        neg.price_ctx = (seat, seat, colour)
        how = "investor" if state.owner[colour] == seat and colour not in neg.travelled else "family card"
        text = f"seat {seat} offers its {move.colour} ({how}) to the boss and will name its price."
        neg.history.append(text)
        return [Event(text)]

    def _do_bid(self, state: State, seat: int, move: Bid) -> list[Event]:
        neg = state.neg
        assert neg is not None
        neg.bids_left[move.seat] -= 1
        neg.floor = "price"
        neg.price_ctx = (seat, move.seat, COLOURS.index(move.colour))
        text = f"seat {seat} (the boss) will propose a price to seat {move.seat} for its {move.colour}."
        neg.history.append(text)
        return [Event(text)]

    def _do_price(self, state: State, seat: int, move: Price) -> list[Event]:
        neg = state.neg
        assert neg is not None and neg.price_ctx is not None
        actor, target, colour = neg.price_ctx
        millions = move.amount if move.unit == MILLIONS else move.amount * neg.value
        named = f"{move.amount}M" if move.unit == MILLIONS else f"{move.amount} dividend(s) ({millions}M)"
        if actor == neg.boss:
            neg.items[(target, colour)] = (PROPOSED, millions, move.unit, move.amount)
            text = f"seat {actor} (the boss) proposes {named} to seat {target} for its {COLOURS[colour]}."
        else:
            neg.items[(target, colour)] = (ASKED, millions, move.unit, move.amount)
            text = f"seat {actor} asks {named} of the boss for its {COLOURS[colour]}."
        neg.history.append(text)
        self._after_act(state, neg, actor)
        return [Event(text, data={"seat": target, "colour": COLOURS[colour], "millions": millions})]

    def _do_accept(self, state: State, seat: int, move: Accept) -> list[Event]:
        neg = state.neg
        assert neg is not None
        colour = COLOURS.index(move.colour)
        item = neg.items[(move.seat, colour)]
        neg.items[(move.seat, colour)] = (AGREED, item[1], item[2], item[3])
        who = f"seat {seat} (the boss)" if seat == neg.boss else f"seat {seat}"
        text = (
            f"{who} accepted: seat {move.seat}'s {move.colour} takes part for {item[1]}M "
            f"(promised so far: {neg.agreed_total()}M of {neg.payout}M)."
        )
        neg.history.append(text)
        self._after_act(state, neg, seat)
        return [Event(text, data={"seat": move.seat, "colour": move.colour, "millions": item[1]})]

    def _do_refuse(self, state: State, seat: int, move: Refuse) -> list[Event]:
        neg = state.neg
        assert neg is not None
        colour = COLOURS.index(move.colour)
        item = neg.items.pop((move.seat, colour))
        who = f"seat {seat} (the boss)" if seat == neg.boss else f"seat {seat}"
        text = f"{who} refused {item[1]}M for seat {move.seat}'s {move.colour}."
        neg.history.append(text)
        self._after_act(state, neg, seat)
        return [Event(text)]

    def _stop_order(self, state: State, player: int) -> tuple[int, ...]:
        first = state.neg.boss if state.neg is not None else player
        return tuple(s for s in clockwise_from((first + 1) % state.n, state.n) if s != player)

    def _do_travel(self, state: State, seat: int, move: Travel) -> list[Event]:
        neg = state.neg
        assert neg is not None
        colour = COLOURS.index(move.colour)
        card = state.take(seat, SLOT_GREY if move.grey else SLOT_TRAVEL + colour)
        state.public.add(card)
        neg.used.add(seat)
        state.stop = StopWindow(seat, "travel", (move.target, move.seat, colour), [card], self._stop_order(state, seat))
        what = "investor" if move.target == INVESTOR else "family card"
        text = f"seat {seat} played {_card_name(card)} on seat {move.seat}'s {move.colour} {what}."
        neg.history.append(text)
        return [Event(text, data={"card": CARDS[card].id, "target": move.target, "seat": move.seat})]

    def _do_hire(self, state: State, seat: int, move: Hire) -> list[Event]:
        colour = COLOURS.index(move.colour)
        cards = [state.take(seat, SLOT_HIRE) for _ in range(3)]
        state.public.update(cards)
        if state.neg is not None:
            state.neg.used.add(seat)
        state.stop = StopWindow(seat, "hire", (colour,), cards, self._stop_order(state, seat))
        owner = state.owner[colour]
        whose = "from beside the board" if owner < 0 else f"from seat {owner}"
        text = (
            f"seat {seat} played a hire set ({', '.join(CARDS[c].id for c in cards)}) to take the "
            f"{move.colour} investor {whose}."
        )
        if state.neg is not None:
            state.neg.history.append(text)
        return [Event(text, data={"colour": move.colour, "cards": [CARDS[c].id for c in cards]})]

    def _do_boss(self, state: State, seat: int, move: PlayBoss) -> list[Event]:
        neg = state.neg
        assert neg is not None
        card = state.take(seat, SLOT_BOSS)
        state.public.add(card)
        neg.used.add(seat)
        state.stop = StopWindow(seat, "boss", (move.restart,), [card], self._stop_order(state, seat))
        plan = "restart the negotiation" if move.restart else "keep the negotiation as it stands"
        text = f"seat {seat} played {_card_name(card)}: '¡Soy el jefe!' (it would {plan})."
        neg.history.append(text)
        return [Event(text, data={"card": CARDS[card].id, "restart": move.restart})]

    def _do_stop(self, state: State, seat: int, move: Stop) -> list[Event]:
        stop = state.stop
        assert stop is not None
        card = state.take(seat, SLOT_STOP)
        state.public.add(card)
        state.discard.extend(stop.cards)
        state.discard.append(card)
        state.stop = None
        text = (
            f"seat {seat} played {_card_name(card)}: {self._stop_card_words(state, stop)} is cancelled, "
            "and the cards are discarded."
        )
        events = [Event(text, data={"card": CARDS[card].id})]
        neg = state.neg
        if neg is not None:
            neg.used.add(seat)
            neg.history.append(text)
            self._after_act(state, neg, stop.player)
        else:
            events += self._after_limit_hire(state)
        return events

    def _do_pass(self, state: State, seat: int, move: Pass) -> list[Event]:
        stop = state.stop
        if stop is not None:
            stop.window.pass_turn(seat)
            events = [Event(f"seat {seat} passed (no stop card played).")]
            if not stop.window.is_open:
                state.stop = None
                events += self._resolve(state, stop)
            return events
        neg = state.neg
        assert neg is not None
        if seat == neg.boss and neg.floor == "boss":
            self._new_round(state, neg)
            return [Event(f"seat {seat} (the boss) waits: the other seats get another round.")]
        neg.window.pass_turn(seat)
        if not neg.window.is_open:
            neg.floor = "boss"
        return [Event(f"seat {seat} passed.")]

    def _resolve(self, state: State, stop: StopWindow) -> list[Event]:
        """Apply a stoppable card that nobody stopped."""
        neg = state.neg
        p = stop.player
        if stop.kind == "hire":
            colour = stop.payload[0]
            old = state.owner[colour]
            state.owner[colour] = p
            state.discard.extend(stop.cards)
            whose = "from beside the board" if old < 0 else f"from seat {old}"
            text = f"nobody stopped it: seat {p} took the {COLOURS[colour]} investor {whose}."
            events = [Event(text, data={"colour": COLOURS[colour], "from": old, "to": p})]
            if neg is None:
                return events + self._after_limit_hire(state)
            neg.history.append(text)
            events += self._lapse(state, neg)
            self._after_act(state, neg, p)
            return events
        assert neg is not None
        if stop.kind == "travel":
            target, seat, colour = stop.payload
            if target == INVESTOR:
                neg.travelled[colour] = stop.cards[0]
                text = (
                    f"nobody stopped it: seat {seat}'s {COLOURS[colour]} investor has travelled and cannot take part "
                    "in this deal."
                )
            else:
                family = neg.placed.pop((seat, colour))
                state.discard.append(family)
                state.discard.extend(stop.cards)
                text = (
                    f"nobody stopped it: seat {seat}'s {COLOURS[colour]} family card has travelled; both cards are "
                    "discarded."
                )
        else:
            restart = stop.payload[0]
            state.discard.extend(stop.cards)
            old = neg.boss
            neg.boss = p
            if restart:
                neg.items.clear()
            else:
                for key in [k for k in neg.items if k[0] == p]:
                    del neg.items[key]
            neg.offers_left = [OFFERS_PER_SEAT] * state.n
            neg.bids_left = [BIDS_PER_SEAT] * state.n
            how = "restarts the negotiation" if restart else "keeps the negotiation as it stands"
            text = f"nobody stopped it: seat {p} is now the boss instead of seat {old} and {how}."
            neg.history.append(text)
            self._new_round(state, neg)
            return [Event(text)]
        neg.history.append(text)
        events = [Event(text), *self._lapse(state, neg)]
        self._after_act(state, neg, p)
        return events

    def _lapse(self, state: State, neg: Negotiation) -> list[Event]:
        """Withdraw every price and agreement of a seat that can no longer give its colour (ruling ``promesas``).

        Called after a travel card or a hire set takes effect: a seat gives a colour
        with its investor card, not travelled, or with a family card of that colour it
        placed; without either, what it asked, was proposed or agreed on that colour lapses.
        """
        events: list[Event] = []
        for key in [k for k in sorted(neg.items) if not self._represents(state, neg, k[0], k[1])]:
            seat, colour = key
            status, millions = neg.items.pop(key)[:2]
            name = COLOURS[colour]
            why = f"it has no {name} investor able to take part and no {name} family card placed"
            if status == AGREED:
                text = f"seat {seat}'s agreement for its {name} ({millions}M) lapses: {why}."
            else:
                who = "asked by seat" if status == ASKED else "proposed to seat"
                text = f"the {millions}M {who} {seat} for its {name} is withdrawn: {why}."
            neg.history.append(text)
            events.append(Event(text, data={"seat": seat, "colour": name, "millions": millions}))
        return events

    def _after_limit_hire(self, state: State) -> list[Event]:
        seat = state.hand_limit_seat
        if len(state.hands[seat]) <= state.hand_limit():
            state.hand_limit_seat = -1
            return self._end_turn(state, (seat + 1) % state.n)
        return []

    def _new_round(self, state: State, neg: Negotiation) -> None:
        """Start a round: the seats other than the boss are polled one at a time from the boss's left."""
        neg.floor = "poll"
        neg.price_ctx = None
        neg.active = False
        neg.window.reopen(clockwise_from((neg.boss + 1) % state.n, state.n)[: state.n - 1])

    def _after_act(self, state: State, neg: Negotiation, actor: int) -> None:
        """An act is complete: after the boss's, a new round; after another seat's, the round goes on."""
        if actor == neg.boss:
            self._new_round(state, neg)
            return
        neg.active = True
        neg.floor = "poll"
        neg.price_ctx = None
        neg.window.pass_turn(actor)
        if not neg.window.is_open:
            neg.floor = "boss"

    def _do_close(self, state: State, seat: int, move: Close) -> list[Event]:
        neg = state.neg
        assert neg is not None
        parts, _ = self._group(state, neg)
        boss = neg.boss
        payout = neg.payout
        state.money[boss] += payout
        events = [
            Event(
                f"seat {boss} (the boss) said 'Uno, dos, la transacción se ha completado': the bank pays "
                f"{neg.dividends} dividends of {neg.value}M = {payout}M to seat {boss}.",
                data={"boss": boss, "payout": payout},
            )
        ]
        room = payout - sum(p[3] for p in parts if p[2] != "forced")
        paid: list[list[Any]] = []
        participating_family: set[tuple[int, int]] = set()
        for s, c, how, price in parts:
            if how == FAMILY:
                participating_family.add((s, c))
            if s == boss:
                continue
            amount = price
            if how == "forced":
                amount = min(price, max(room, 0))
                room -= amount
            if state.cfg.dividends_only_for_participants and s not in neg.used:
                events.append(
                    Event(
                        f"seat {s} used no influence card in this deal, so the {amount}M for its {COLOURS[c]} stays "
                        f"with seat {boss}."
                    )
                )
                continue
            if amount:
                state.money[boss] -= amount
                state.money[s] += amount
            paid.append([s, COLOURS[c], how, amount])
            reason = "as agreed" if how != "forced" else "for using its investor (two-player rules)"
            events.append(Event(f"seat {boss} paid {amount}M to seat {s} for its {COLOURS[c]} ({how}) {reason}."))
        discarded: list[str] = []
        returned: list[list[Any]] = []
        for (s, c), card in sorted(neg.placed.items()):
            if (s, c) in participating_family:
                state.discard.append(card)
                discarded.append(CARDS[card].id)
            else:
                state.give(s, card)
                returned.append([s, CARDS[card].id])
        for _colour, card in sorted(neg.travelled.items()):
            state.discard.append(card)
            discarded.append(CARDS[card].id)
        if discarded:
            events.append(Event(f"discarded after the deal: {', '.join(discarded)}."))
        for s, card_id in returned:
            events.append(Event(f"seat {s} took back its family card {card_id} (it did not take part)."))
        card = state.deal_deck.pop(0)
        state.covered[neg.space] = card.number
        state.deals_done += 1
        state.last_deal = {
            "deal": state.deals_done,
            "space": neg.space + 1,
            "card": card.number,
            "boss": boss,
            "payout": payout,
            "paid": paid,
            "kept_by_boss": payout - sum(p[3] for p in paid),
            "discarded": discarded,
            "returned": returned,
            "failed": False,
        }
        nxt = self._next_free(state, neg.space)
        state.marker = nxt
        events.append(
            Event(
                f"deal card #{card.number} now covers space {neg.space + 1} (deal {state.deals_done}); the marker "
                f"moves to space {nxt + 1}."
            )
        )
        state.neg = None
        if card.final or not state.deal_deck:
            state.last_roll = None
            return events + self._game_over(
                state, f"deal card #{card.number} was the last: the game ends without a roll", R.END_DIE
            )
        if card.end_numbers:
            roll = state.rng.below(DIE_FACES) + 1
            state.last_roll = roll
            faces = ", ".join(str(x) for x in card.end_numbers)
            if roll in card.end_numbers:
                events.append(Event(f"seat {boss} rolled {roll} for the end: deal card #{card.number} shows {faces}."))
                return events + self._game_over(
                    state,
                    f"seat {boss} rolled {roll} after deal {state.deals_done}, a number on card #{card.number}",
                    R.END_DIE,
                )
            events.append(
                Event(
                    f"seat {boss} rolled {roll} for the end: deal card #{card.number} shows {faces}, so the game "
                    "goes on.",
                    data={"roll": roll},
                )
            )
        nxt_seat = (neg.turn_seat if state.cfg.boss_card_keeps_turn else boss) + 1
        return events + self._end_turn(state, nxt_seat % state.n)

    def _next_free(self, state: State, space: int) -> int:
        for step in range(1, len(SPACES) + 1):
            pos = (space + step) % len(SPACES)
            if not state.covered[pos]:
                return pos
        return space

    def _do_fail(self, state: State, seat: int, move: Fail) -> list[Event]:
        neg = state.neg
        assert neg is not None
        returned: list[list[Any]] = []
        for (s, _c), card in sorted(neg.placed.items()):
            state.give(s, card)
            returned.append([s, CARDS[card].id])
        discarded = [CARDS[card].id for _, card in sorted(neg.travelled.items())]
        state.discard.extend(card for _, card in sorted(neg.travelled.items()))
        state.last_deal = {
            "space": neg.space + 1,
            "boss": neg.boss,
            "failed": True,
            "returned": returned,
            "discarded": discarded,
        }
        events = [Event(f"seat {seat} (the boss) declared that the deal on space {neg.space + 1} has failed.")]
        if returned:
            events.append(
                Event(
                    "family cards back to their hands: " + ", ".join(f"{cid} to seat {s}" for s, cid in returned) + "."
                )
            )
        if discarded:
            events.append(Event(f"discarded: {', '.join(discarded)}."))
        state.neg = None
        nxt = (neg.turn_seat if state.cfg.boss_card_keeps_turn else neg.boss) + 1
        return events + self._end_turn(state, nxt % state.n)

    def _end_turn(self, state: State, next_seat: int) -> list[Event]:
        state.turns_played += 1
        state.neg = None
        state.stop = None
        if state.turns_played >= state.cfg.turn_limit:
            return self._game_over(
                state, f"the table's turn limit of {state.cfg.turn_limit} turns was reached", R.R_TURN_LIMIT
            )
        self._start_turn(state, next_seat)
        return [Event(f"seat {next_seat} is on turn.")]

    def _game_over(self, state: State, why: str, rule: str) -> list[Event]:
        state.phase = "over"
        state.neg = None
        state.stop = None
        top = max(state.money)
        winners = [s for s in range(state.n) if state.money[s] == top]
        names = " and ".join(f"seat {s}" for s in winners)
        tie = " (a shared win)" if len(winners) > 1 else ""
        state.end_reason = f"{why}; {names} {'have' if len(winners) > 1 else 'has'} the most money, {top}M{tie}."
        state.end_rule = rule
        return [Event(f"The game is over: {state.end_reason}", data={"money": list(state.money)})]

    _HANDLERS: ClassVar[dict[type, Any]] = {
        PlaceMarker: _do_marker,
        Negotiate: _do_negotiate,
        Roll: _do_roll,
        Draw: _do_draw,
        Discard: _do_discard,
        PlaceFamily: _do_place_family,
        Offer: _do_offer,
        Bid: _do_bid,
        Price: _do_price,
        Accept: _do_accept,
        Refuse: _do_refuse,
        Travel: _do_travel,
        Hire: _do_hire,
        PlayBoss: _do_boss,
        Stop: _do_stop,
        Pass: _do_pass,
        Close: _do_close,
        Fail: _do_fail,
    }

    # -- refusals -------------------------------------------------------------------------

    def _refuse(self, state: State, seat: Any, move: Any) -> None:
        """Raise the error that explains why ``move`` is not among ``seat``'s legal moves.

        Raises:
            InvalidMove: the value is not a well-formed move (or the seat does not exist).
            IllegalMove: always otherwise, naming the rule.
        """
        from club_agentes.engine.yo_soy_el_jefe.refusals import explain

        if type(move) not in MOVE_TYPES:
            raise InvalidMove(f"{move!r} is not a Yo soy el jefe move; use parse_move() on its JSON or text form.")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
            raise InvalidMove(f"seat must be a seat number from 0 to {state.n - 1}, not {seat!r}.")
        rule, message = explain(self, state, seat, move)
        raise IllegalMove(rule, message)

    # -- views, results, ids --------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        """Return what ``seat`` may know (``None``: the public view), as JSON."""
        from club_agentes.engine.yo_soy_el_jefe.views import build_view

        return build_view(self, state, seat)

    def render(self, view: dict[str, Any]) -> str:
        """Return a compact English text of a view, for a language model's context."""
        from club_agentes.engine.yo_soy_el_jefe.views import render

        return render(view)

    def result(self, state: State) -> Result | None:  # type: ignore[override]
        """Return the result once the game is over (the most money wins; ties share), else ``None``."""
        if state.phase != "over":
            return None
        top = max(state.money)
        winners = tuple(s for s in range(state.n) if state.money[s] == top)
        return Result(winners, tuple(float(m) for m in state.money), state.end_reason, state.end_rule)

    def parse_move(self, data: Mapping[str, Any] | str) -> Any:
        """Turn a move's JSON object or text form back into a move.

        Raises:
            InvalidMove: malformed input; the message says what is accepted.
        """
        return parse_move(data)

    def move_schema(self) -> dict[str, Any]:
        """Return the JSON schema (draft 2020-12) of every move's JSON form."""
        return move_schema()

    def snapshot(self, state: State) -> dict[str, Any]:  # type: ignore[override]
        """Return the complete state as JSON, hidden parts included (never send it to a seat)."""
        return state.snapshot()

    def rule_ids(self) -> frozenset[str]:
        """Return every corpus id this engine cites in an ``IllegalMove`` or a result."""
        return R.CITED

    def hidden_ids(self, state: State, seat: int | None) -> frozenset[str]:
        """Return the ids of the cards ``seat`` may not know now: the deck and the others' hands.

        Cards that have been face up on the table (family cards taken back after a
        deal, discards shuffled into a new deck) are known to everyone and are not hidden.
        """
        public = state.public
        hidden = {CARDS[c].id for c in state.deck if c not in public}
        for s in range(state.n):
            if s != seat:
                hidden.update(CARDS[c].id for c in state.hands[s] if c not in public)
        return frozenset(hidden)


GAME = YoSoyElJefe()
"""The Yo soy el jefe engine instance the game manifest names."""
