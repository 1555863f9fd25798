"""The rules of Yo soy el jefe as small named functions, for answers the engine cannot be asked directly.

Each function applies one rule of the rulebook (or of a published ruling, named in its
docstring) to a situation given as plain values; every number and every piece of
component data comes from the engine (:mod:`.facts`). The generators call them, the
hand-written items name them in their ``computed`` field (e.g.
``"club_agentes.quizzes.generators.yo_soy_el_jefe:boss_keeps(13, 6, [10, 10])"``), and
the tests check each of them against the engine on played games.

Seats and players are numbered 1 to ``players`` clockwise, so the player "a la
izquierda" of player ``n`` is ``n + 1`` (and of the last, player 1).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from fractions import Fraction

from club_agentes.engine.yo_soy_el_jefe import components as engine_components
from club_agentes.engine.yo_soy_el_jefe.components import GREY, TRAVEL
from club_agentes.quizzes.generators.yo_soy_el_jefe.facts import (
    colours,
    die_faces,
    influence_total,
    kind_total,
    rule_numbers,
    spaces,
    variant_thresholds,
)

# The four outcomes of a completed deal for the end of the game (4-finalizacion/dado-de-fin).
NO_ROLL_CONTINUES = "No se tira el dado y la partida continúa"
ROLL_CONTINUES = "Se tira el dado y la partida continúa"
ROLL_ENDS = "Se tira el dado y la partida termina"
ENDS_WITHOUT_ROLL = "La partida termina sin tirar el dado"
END_OUTCOMES: tuple[str, ...] = (NO_ROLL_CONTINUES, ROLL_CONTINUES, ROLL_ENDS, ENDS_WITHOUT_ROLL)

# What a player may do at a moment of its turn (3-desarrollo and the variants of section 5).
NEGOTIATE = "negociar"
ROLL = "tirar"
DRAW = "tomar"
START = "inicio"
AFTER_ROLL = "tras el dado"

# Where a card ends up (3-2-2 and 3-3): the option texts of the "destino" questions.
FATE_DISCARD = "Va al montón de descarte"
FATE_HAND = "Vuelve a la mano del jugador que la usó"
FATE_TABLE = "Sigue sobre la mesa en la siguiente negociación"
FATE_BOSS = "Pasa a la mano del jefe"
FATES: tuple[str, ...] = (FATE_DISCARD, FATE_HAND, FATE_TABLE, FATE_BOSS)

# The plays a stop card answers (3-2-2-cartas-de-influencia/parada).
TRAVEL_ON_INVESTOR = "viaje sobre inversor"
TRAVEL_ON_FAMILY = "viaje sobre familia"
HIRE_SET = "conjunto de empleo"
BOSS_CARD = "carta de jefe"
STOPPABLE: frozenset[str] = frozenset({TRAVEL_ON_INVESTOR, TRAVEL_ON_FAMILY, HIRE_SET, BOSS_CARD})
# Plays a stop card cannot answer.
FAMILY_PLACED = "familia colocada"
OFFER = "oferta"


def can_stop(play: str) -> bool:
    """Whether a stop card can cancel ``play`` right after it (3-2-2-cartas-de-influencia/parada).

    Only a travel card, a boss card or a set of 3 hire cards; never another stop card,
    nor a family card or a price (ruling momento-de-la-parada).
    """
    return play in STOPPABLE


def _players(players: int) -> None:
    if not 2 <= players <= 6:
        raise ValueError(f"Yo soy el jefe is played by 2 to 6 players, not {players}")


def _seat(seat: int, players: int) -> None:
    if not 1 <= seat <= players:
        raise ValueError(f"players are numbered 1 to {players}, not {seat}")


# --------------------------------------------------------------------------- setup


def investor_cards_each(players: int) -> int:
    """Return the investor cards dealt to each player (2-preparacion/cartas-de-inversor, ruling errata-reparto).

    Raises:
        ValueError: a player count outside 2 to 6.
    """
    _players(players)
    return rule_numbers().investors_each[players]


def investor_cards_beside_board(players: int) -> int:
    """Return the investor cards left beside the board after dealing for ``players`` players.

    Raises:
        ValueError: a player count outside 2 to 6.
    """
    return len(colours()) - players * investor_cards_each(players)


def deck_after_setup(players: int, draws: int = 0) -> int:
    """Return the influence cards left in the deck after the deal and ``draws`` draws of the standard rules.

    Five cards are dealt to each player (2-preparacion/cartas-de-influencia) and each draw
    takes 3 (3-desarrollo/tomar-cartas); the deck is the 98 influence cards.

    Raises:
        ValueError: a bad player count, negative draws, or more cards than the deck holds.
    """
    _players(players)
    if draws < 0:
        raise ValueError(f"draws are never negative, not {draws}")
    numbers = rule_numbers()
    left = influence_total() - players * numbers.hand_size - draws * numbers.draw
    if left < 0:
        raise ValueError(f"{draws} draws need more cards than the deck holds")
    return left


def marker_placer(players: int, first: int) -> int:
    """Return the player who places the dollar marker: the one to the first player's right (2-preparacion).

    Raises:
        ValueError: a bad player count or seat.
    """
    _players(players)
    _seat(first, players)
    return (first - 2) % players + 1


def left_of(seat: int, players: int) -> int:
    """Return the player to the left of ``seat``: play goes clockwise, so it is the next number.

    Raises:
        ValueError: a seat outside 1 to ``players``.
    """
    _seat(seat, players)
    return seat % players + 1


def turn_player(players: int, first: int, turn: int) -> int:
    """Return who plays the ``turn``-th turn when no boss card is played (3-desarrollo/fin-del-turno).

    Raises:
        ValueError: a bad player count or seat, or a turn number below 1.
    """
    _players(players)
    _seat(first, players)
    if turn < 1:
        raise ValueError(f"turns are numbered from 1, not {turn}")
    return (first - 1 + turn - 1) % players + 1


# --------------------------------------------------------------------------- the turn


def marker_destination(position: int, roll: int, covered: Collection[int]) -> int:
    """Return the space the dollar marker reaches from ``position`` with a roll of ``roll``.

    It moves clockwise and the spaces covered by deal cards are not counted (3-desarrollo/tirar-el-dado).

    Raises:
        ValueError: spaces out of range, a roll off the die, or no free space.
    """
    total = len(spaces())
    _check_spaces(position, covered, total)
    if not 1 <= roll <= die_faces():
        raise ValueError(f"a die shows 1 to {die_faces()}, not {roll}")
    blocked = set(covered)
    here, left = position, roll
    while left:
        here = here % total + 1
        if here not in blocked:
            left -= 1
    return here


def next_empty_space(position: int, covered: Collection[int]) -> int:
    """Return where the marker goes after a deal on ``position``: the next empty space (3-3-cierre/tras-el-pago).

    ``covered`` lists the spaces already covered by deal cards; ``position`` is covered now too.

    Raises:
        ValueError: spaces out of range, or no empty space left.
    """
    total = len(spaces())
    _check_spaces(position, covered, total)
    blocked = set(covered) | {position}
    if len(blocked) >= total:
        raise ValueError("no empty space is left")
    here = position
    while True:
        here = here % total + 1
        if here not in blocked:
            return here


def _check_spaces(position: int, covered: Collection[int], total: int) -> None:
    if not 1 <= position <= total or any(not 1 <= c <= total for c in covered):
        raise ValueError(f"board spaces are numbered 1 to {total}")
    if len(set(covered) | {position}) > total or len(set(covered)) >= total:
        raise ValueError("at least one board space must be free")


def hand_limit(deals_done: int = 0, late_limit_variant: bool = False) -> int:
    """Return the hand limit after ``deals_done`` closed deals (12; 10 from the tenth deal under that variant).

    See 3-desarrollo/tomar-cartas, 5-variantes/limite-10-y-partida-rapida and the ruling
    dado-de-fin-y-partida-rapida ("the lower limit applies once nine deals are closed").

    Raises:
        ValueError: a negative count of deals.
    """
    if deals_done < 0:
        raise ValueError(f"deals done are never negative, not {deals_done}")
    numbers = rule_numbers()
    if late_limit_variant and deals_done >= numbers.late_limit_after:
        return numbers.late_hand_limit
    return numbers.hand_limit


def hand_discard(hand: int, drawn: int | None = None, hire_sets: int = 0, limit: int | None = None) -> int:
    """Return the cards discarded at the end of a turn in which the player drew.

    The player holds ``hand`` cards, draws ``drawn`` (3 by default) and, before discarding,
    plays ``hire_sets`` sets of 3 hire cards (3-desarrollo/tomar-cartas); the limit is
    ``limit`` (12 by default).

    Raises:
        ValueError: negative counts, or more hire cards played than the hand holds.
    """
    numbers = rule_numbers()
    drawn = numbers.draw if drawn is None else drawn
    limit = numbers.hand_limit if limit is None else limit
    if min(hand, drawn, hire_sets, limit) < 0:
        raise ValueError("card counts are never negative")
    held = hand + drawn - numbers.hire_set * hire_sets
    if held < 0:
        raise ValueError(f"{hire_sets} hire sets need more cards than the hand holds")
    return max(0, held - limit)


def hand_after_draw(hand: int, drawn: int | None = None, limit: int | None = None) -> int:
    """Return the cards a player holds at the end of a turn in which it drew and discarded down to the limit.

    Raises:
        ValueError: as :func:`hand_discard`.
    """
    numbers = rule_numbers()
    drawn = numbers.draw if drawn is None else drawn
    return hand + drawn - hand_discard(hand, drawn, 0, limit)


def variant_draw(investors: int) -> int:
    """Return the influence cards drawn under the variant 5-variantes/robo-segun-inversores.

    Raises:
        ValueError: a negative count of investor cards.
    """
    if investors < 0:
        raise ValueError(f"a player cannot hold {investors} investor cards")
    table = rule_numbers().draw_by_investors
    return table[min(investors, len(table) - 1)]


def variant_draw_discard(hand: int, investors: int) -> int:
    """Return the cards discarded after drawing under the variant robo-segun-inversores (standard limit).

    Raises:
        ValueError: negative counts.
    """
    return hand_discard(hand, variant_draw(investors))


def deck_after_draw(deck: int, discard: int, drawn: int | None = None) -> int:
    """Return the cards left in the influence deck after taking ``drawn`` (3 by default).

    When the deck runs out, the discards are shuffled into a new deck and the draw goes
    on from it (3-3-cierre/consejo-y-cartas; ruling mazo-agotado: with both empty, the
    draw takes only what there is).

    Raises:
        ValueError: negative counts.
    """
    drawn = rule_numbers().draw if drawn is None else drawn
    if min(deck, discard, drawn) < 0:
        raise ValueError("card counts are never negative")
    if deck >= drawn:
        return deck - drawn
    return max(0, deck + discard - drawn)


def turn_options(hand: int, moment: str, mandatory: bool = False, minimum: bool = False) -> frozenset[str]:
    """Return what the player on turn may do, holding ``hand`` cards at the start of its turn.

    ``moment`` is :data:`START` (negotiate on the marker's space or roll, 3-desarrollo) or
    :data:`AFTER_ROLL` (negotiate where the marker arrived or draw). Variants:
    ``mandatory`` (5-variantes/negociacion-obligatoria: 10 or more cards must negotiate,
    here or after rolling) and ``minimum`` (5-variantes/minimo-para-negociar: 3 or fewer
    cannot negotiate).

    Raises:
        ValueError: an unknown moment or a negative hand.
    """
    if moment not in (START, AFTER_ROLL):
        raise ValueError(f"moment must be {START!r} or {AFTER_ROLL!r}, not {moment!r}")
    if hand < 0:
        raise ValueError(f"a hand never holds {hand} cards")
    limits = variant_thresholds()
    may_negotiate = not (minimum and hand <= limits.minimum_up_to)
    must_negotiate = mandatory and hand >= limits.mandatory_from
    out = {NEGOTIATE} if may_negotiate else set()
    if moment == START:
        out.add(ROLL)
    elif not must_negotiate:
        out.add(DRAW)
    return frozenset(out)


# --------------------------------------------------------------------------- deals and money


def dividend_value(deal: int) -> int:
    """Return the value in millions of one dividend when deal card ``deal`` is on top (the engine's deal cards).

    Raises:
        ValueError: no deal card has that number.
    """
    return engine_components.dividend_value(deal)


def banker_payout(deal: int, dividends: int) -> int:
    """Return what the banker pays the boss (millions): the space's dividends times the top card's value (3-3).

    Raises:
        ValueError: no deal card has that number, or fewer than one dividend.
    """
    if dividends < 1:
        raise ValueError(f"a deal space shows at least one dividend, not {dividends}")
    return engine_components.payout(deal, dividends)


def boss_keeps(deal: int, dividends: int, promises: Sequence[int]) -> int:
    """Return what the boss keeps after paying what it promised (3-3-cierre/pago, 3-2-1 contraprestación).

    Only the deal's dividends can be offered, so the promises never exceed the payout.

    Raises:
        ValueError: a negative promise, promises above the payout, or a bad deal or dividend count.
    """
    return keeps_of(banker_payout(deal, dividends), promises)


def keeps_of(payout: int, promises: Iterable[int]) -> int:
    """Return what the boss keeps of ``payout`` after paying ``promises`` (millions).

    Raises:
        ValueError: a negative promise, or promises above the payout ("Solo se pueden
            ofrecer los dividendos obtenidos a través de la negociación").
    """
    promises = list(promises)
    if any(p < 0 for p in promises):
        raise ValueError("a promised payment is never negative")
    if sum(promises) > payout:
        raise ValueError(f"promises of {sum(promises)}M exceed the payout of {payout}M")
    return payout - sum(promises)


def promise_room(payout: int, agreed: Iterable[int]) -> int:
    """Return the most the boss can still promise: the payout less what is already agreed (ruling promesas).

    Raises:
        ValueError: as :func:`keeps_of`.
    """
    return keeps_of(payout, agreed)


def paid_to_participants(promises: Iterable[tuple[int, bool]]) -> int:
    """Return what the boss pays under the variant dividendos-solo-participantes.

    ``promises`` are (amount, whether that seat used at least one influence card in the
    deal); a seat that used none is not paid and the money stays with the boss (ruling variantes).

    Raises:
        ValueError: a negative amount.
    """
    total = 0
    for amount, used in promises:
        if amount < 0:
            raise ValueError("a promised payment is never negative")
        total += amount if used else 0
    return total


def two_player_payment(total: int, investors_required: int, cards_used: int, agreed: int = 0) -> int:
    """Return what the boss pays for using ``cards_used`` of the opponent's investor cards (two-player rules).

    Each card is paid "la cantidad total de dividendos dividida por el número de
    inversores" (5-variantes/dos-jugadores), rounded down to whole millions, after the
    agreed prices and never more than what is left of the payout (ruling dos-jugadores).

    Raises:
        ValueError: negative amounts, no investors required, or more cards than required.
    """
    if total < 0 or agreed < 0 or investors_required < 1 or not 0 <= cards_used <= investors_required:
        raise ValueError("amounts are not negative and at most the required investors are used")
    share = total // investors_required
    room = total - agreed
    paid = 0
    for _ in range(cards_used):
        amount = min(share, max(room, 0))
        room -= amount
        paid += amount
    return paid


def two_player_payment_for_deal(deal: int, dividends: int, investors_required: int, cards_used: int) -> int:
    """Return :func:`two_player_payment` for deal card ``deal`` on a space of ``dividends`` dividends.

    Raises:
        ValueError: as :func:`two_player_payment` and :func:`banker_payout`.
    """
    return two_player_payment(banker_payout(deal, dividends), investors_required, cards_used)


def exact_share(total: int, investors_required: int) -> bool:
    """Whether ``total`` millions split among ``investors_required`` investors is whole millions each."""
    return Fraction(total, investors_required).denominator == 1


# --------------------------------------------------------------------------- the end


def end_outcome(card: int, roll: int | None = None) -> str:
    """Return what happens for the end of the game once deal card ``card`` is placed on the board.

    One of :data:`END_OUTCOMES` (4-finalizacion/dado-de-fin): no roll on a card whose back
    shows no number; the last card ends the game without a roll; otherwise the boss rolls
    and the game ends if the roll is one of the numbers on the back.

    Raises:
        ValueError: no such card, or a roll missing or off the die where one is rolled.
    """
    found = engine_components.deal_card(card)
    if found.final:
        return ENDS_WITHOUT_ROLL
    if not found.end_numbers:
        return NO_ROLL_CONTINUES
    if roll is None or not 1 <= roll <= die_faces():
        raise ValueError(f"after deal card #{card} the boss rolls the die; give a roll from 1 to {die_faces()}")
    return ROLL_ENDS if roll in found.end_numbers else ROLL_CONTINUES


def quick_game_card(deal: int) -> int:
    """Return the deal card placed by the ``deal``-th deal of the quick game (cards 3, 6 and 9 left out).

    Raises:
        ValueError: the quick game has no such deal.
    """
    deck = rule_numbers().quick_deck
    if not 1 <= deal <= len(deck):
        raise ValueError(f"the quick game has {len(deck)} deals, not {deal}")
    return deck[deal - 1]


def winners(money: Mapping[str, int]) -> tuple[str, ...]:
    """Return the players with the most money: the winner, or several sharing the win (ruling fin-y-empates).

    Raises:
        ValueError: no players.
    """
    if not money:
        raise ValueError("no players")
    top = max(money.values())
    return tuple(name for name, amount in money.items() if amount == top)


# --------------------------------------------------------------------------- turns and bosses


def next_turn_seat(players: int, turn_seat: int, last_boss: int, same_turn_variant: bool = False) -> int:
    """Return who plays next after a deal, closed or failed.

    The player to the left of the last boss (the last to use a boss card, or the one who
    started if nobody did) plays next (3-2-2-cartas-de-influencia/jefe, 3-3-cierre/fracaso/referencia).
    Under 5-variantes/jefe-sin-cambio-de-turno the turn does not change hands: the player
    to the left of the one whose turn it was plays next.

    Raises:
        ValueError: seats outside 1 to ``players``.
    """
    _seat(last_boss, players)
    return left_of(turn_seat if same_turn_variant else last_boss, players)


def turns_skipped(players: int, turn_seat: int, last_boss: int) -> int:
    """Return how many players lose their turn because ``last_boss`` played the last boss card.

    Counts the players strictly between the turn's player and the next player, clockwise.

    Raises:
        ValueError: seats outside 1 to ``players``.
    """
    nxt = next_turn_seat(players, turn_seat, last_boss)
    _seat(turn_seat, players)
    return (nxt - turn_seat - 1) % players


def final_boss(starter: str, boss_cards: Iterable[tuple[str, bool]]) -> str:
    """Return who is the boss at the end: the last player whose boss card was not stopped (3-2-2 jefe, parada).

    ``boss_cards`` are (player, stopped) in the order they were played.
    """
    boss = starter
    for player, stopped in boss_cards:
        if not stopped:
            boss = player
    return boss


# --------------------------------------------------------------------------- spaces and investors


def space_needs(space: int) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """Return (mandatory families, optional families, how many optional ones) of board space ``space``.

    Raises:
        ValueError: no space has that number.
    """
    found = engine_components.board_space(space)
    return found.mandatory, found.optional, found.optional_needed


def missing_for(mandatory: Collection[str], optional: Collection[str], needed: int, covered: Collection[str]) -> int:
    """Return how many more investors a deal needs: the mandatory families not covered, plus the optional shortfall.

    See 3-1-negociar: the large boxes are "necesarios obligatoriamente" and the number in
    the white box "indica cuántos grupos adicionales de inversores son necesarios".
    """
    have = set(covered)
    return sum(1 for c in mandatory if c not in have) + max(0, needed - sum(1 for c in optional if c in have))


def missing_investors(space: int, covered: Collection[str]) -> int:
    """Return :func:`missing_for` for board space ``space``.

    Raises:
        ValueError: no space has that number.
    """
    mandatory, optional, needed = space_needs(space)
    return missing_for(mandatory, optional, needed, covered)


def completes(space: int, group: Collection[str]) -> bool:
    """Whether the families ``group`` complete a deal on board space ``space``.

    Raises:
        ValueError: no space has that number.
    """
    return missing_investors(space, group) == 0


def can_take_part(
    holds_investor: bool, investor_travelled: bool, family_in_hand: bool, family_placed: bool = False
) -> bool:
    """Whether a seat that is not the boss can propose a colour to the boss (3-2-1-participacion, viaje).

    It can with its investor card of that colour, unless a travel card lies on it, or with
    a family card of that colour (in its hand, to place, or already placed).
    """
    return (holds_investor and not investor_travelled) or family_in_hand or family_placed


def investors_still_in(space_colours: Collection[str], travels: Iterable[tuple[str, bool]]) -> int:
    """Return how many of a space's investor cards can still take part after travel cards: (colour, stopped).

    A travel card not cancelled by a stop card keeps its investor out of the current deal
    (3-2-2-cartas-de-influencia/viaje); a stop card cannot be cancelled by another stop
    card, so a travel card it cancelled stays cancelled (parada).
    """
    out = {colour for colour, stopped in travels if not stopped}
    return len(set(space_colours) - out)


def travel_cards_for(colour: str) -> int:
    """Return how many travel cards of the box can be played on an investor of ``colour``: its own and the grey ones.

    "Hay 3 cartas de viaje por cada familia, y también hay 3 cartas de viaje grises que se
    pueden usar para cualquier familia" (3-2-2-cartas-de-influencia/viaje).

    Raises:
        ValueError: an unknown colour.
    """
    if colour not in colours():
        raise ValueError(f"unknown colour {colour!r}; the colours are {', '.join(colours())}")
    return kind_total(TRAVEL, colour) + kind_total(TRAVEL, GREY)


def hire_choices(player: str, holders: Mapping[str, str | None]) -> int:
    """Return how many investor cards a hire set lets ``player`` take (3-2-2-cartas-de-influencia/empleo).

    ``holders`` maps each colour to the player holding its investor card, or ``None``
    beside the board. While any lie beside the board, only those can be taken; otherwise
    any investor card held by another player.
    """
    beside = [c for c, h in holders.items() if h is None]
    if beside:
        return len(beside)
    return sum(1 for h in holders.values() if h is not None and h != player)


def holder_after_hires(holder: str, hires: Iterable[tuple[str, bool]]) -> str:
    """Return who holds an investor card after hire sets aimed at it: (player, stopped) in order (empleo, parada)."""
    for player, stopped in hires:
        if not stopped:
            holder = player
    return holder


def closing_group(
    space: int,
    boss: str,
    holders: Mapping[str, str | None],
    travelled: Collection[str],
    placed: Collection[tuple[str, str]],
    agreements: Collection[tuple[str, str]],
) -> dict[str, tuple[str, str]]:
    """Return who gives each family when the boss closes: colour -> (player, "inversor" or "familia").

    The order of the ruling composicion-del-cierre: every agreement (seat, colour) still
    kept gives its investor card (if the seat holds it, not travelled) or the family card
    it placed; then the boss's own investor cards (not travelled); then the boss's placed
    family cards for colours still missing, mandatory first, then optional ones in the
    fixed colour order until enough are covered.

    Raises:
        ValueError: no space has that number.
    """
    mandatory, optional, needed = space_needs(space)
    gone = set(travelled)
    laid = set(placed)
    group: dict[str, tuple[str, str]] = {}
    for seat, colour in sorted(agreements, key=lambda a: (a[0], colours().index(a[1]))):
        if colour in group:
            continue
        if holders.get(colour) == seat and colour not in gone:
            group[colour] = (seat, "inversor")
        elif (seat, colour) in laid:
            group[colour] = (seat, "familia")
    for colour in colours():
        wanted = colour in (*mandatory, *optional) and colour not in group
        if wanted and holders.get(colour) == boss and colour not in gone:
            group[colour] = (boss, "inversor")
    for colour in mandatory:
        if colour not in group and (boss, colour) in laid:
            group[colour] = (boss, "familia")
    short = needed - sum(1 for c in optional if c in group)
    for colour in colours():
        if short > 0 and colour in optional and colour not in group and (boss, colour) in laid:
            group[colour] = (boss, "familia")
            short -= 1
    return group


def family_fate(closed: bool, takes_part: bool, travelled: bool = False) -> str:
    """Return where a placed family card ends up when the deal ends (3-3-cierre, fracaso, viaje).

    A travelled family card is discarded at once with the travel card; at a close the
    cards that took part are discarded and the others go back to the hand of the seat that
    placed them; when the deal fails, every family card still on the table goes back.
    """
    if travelled:
        return FATE_DISCARD
    if closed and takes_part:
        return FATE_DISCARD
    return FATE_HAND


def immediate_discards(plays: Iterable[tuple[str, bool]]) -> int:
    """Return how many cards are discarded at once by ``plays``: (kind, stopped) in order.

    A travel card on an investor stays on it until the deal ends (0 at once); on a family
    card both are discarded at once (2); a hire set is discarded at once (3); a stop card
    is discarded together with the card it stops (+1, and the stopped card goes with it);
    a family card placed stays on the table (0). See 3-2-2-cartas-de-influencia (viaje,
    empleo, parada) and the example of section 6.

    Raises:
        ValueError: an unknown kind, or a boss card (discarded with the other used cards).
    """
    hire = rule_numbers().hire_set
    total = 0
    for kind, stopped in plays:
        if kind == TRAVEL_ON_INVESTOR:
            total += 2 if stopped else 0
        elif kind == TRAVEL_ON_FAMILY:
            total += 2
        elif kind == HIRE_SET:
            total += hire + (1 if stopped else 0)
        elif kind in (FAMILY_PLACED, OFFER):
            continue
        else:
            raise ValueError(f"no rule says when a {kind!r} is discarded at once")
    return total


def hand_after_failure(
    hand: int, families: int, travels: int = 0, hire_sets: int = 0, stops: int = 0, families_travelled: int = 0
) -> int:
    """Return the cards in a seat's hand after a failed deal (3-3-cierre/fracaso).

    The seat held ``hand`` cards when the negotiation began and played ``families`` family
    cards (``families_travelled`` of them hit by a travel card, so discarded at once),
    ``travels`` travel cards, ``hire_sets`` hire sets and ``stops`` stop cards. Family
    cards left on the table go back to the hand; every other used card is discarded.

    Raises:
        ValueError: negative counts, more travelled families than placed, or more cards played than held.
    """
    hire = rule_numbers().hire_set
    if min(hand, families, travels, hire_sets, stops, families_travelled) < 0 or families_travelled > families:
        raise ValueError("card counts are never negative and only placed family cards travel")
    played = families + travels + hire * hire_sets + stops
    if played > hand:
        raise ValueError(f"{played} cards played from a hand of {hand}")
    return hand - travels - hire * hire_sets - stops - families_travelled


def hand_after_close(hand: int, families_taking_part: int, families_back: int, other_cards: int = 0) -> int:
    """Return the cards in a seat's hand after a closed deal (3-3-cierre/consejo-y-cartas).

    The seat held ``hand`` cards, placed family cards of which ``families_taking_part``
    took part (discarded) and ``families_back`` did not (taken back), and played
    ``other_cards`` other influence cards (discarded).

    Raises:
        ValueError: negative counts or more cards played than held.
    """
    if min(hand, families_taking_part, families_back, other_cards) < 0:
        raise ValueError("card counts are never negative")
    if families_taking_part + families_back + other_cards > hand:
        raise ValueError("more cards played than held")
    return hand - families_taking_part - other_cards
