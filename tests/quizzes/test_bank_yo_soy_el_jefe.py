"""The Yo soy el jefe bank: hand-written items, acertijos, vocabularies, and every generator against the engine.

Generators: every item is well formed, does not give its answer away by form, and states the
answer the engine computes for the same situation; on a few seeds each in the default run, over
200 seeds for the form and variety, 100 for the form screen and the engine, in the slow set, which also
holds each generator to 50 different prompts over 200 seeds. The situation
is the one the generator drew (:data:`club_agentes.quizzes.generators.yo_soy_el_jefe.common.SITUATIONS`),
rebuilt as a real table with the engine's own test helpers (``build_state``: who holds
each investor, each hand, the deals done, the marker, whose turn it is; ``rig_die``) and
played through the public ``Game`` API; what the engine then shows is compared with the
item. Generators that already play a real table to make their situation are checked the
other way round: the rule functions of :mod:`.rules` re-derive the engine's answer from
the situation the prompt states.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from club_agentes.engine.core import Rng
from club_agentes.engine.yo_soy_el_jefe.components import GREY, TRAVEL, components
from club_agentes.quizzes.bank import Bank, form_problems, item_problems, load_bank, support_problem, verbatim_options
from club_agentes.quizzes.generators import yo_soy_el_jefe as ys
from club_agentes.quizzes.generators.yo_soy_el_jefe import q_deal, q_turn, riddles, rules
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import SITUATIONS
from club_agentes.quizzes.generators.yo_soy_el_jefe.facts import colours, kind_total, rule_numbers, spaces
from club_agentes.quizzes.generators.yo_soy_el_jefe.table import Table
from club_agentes.quizzes.grading import normalize
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Generator, Item
from club_agentes.rules_corpus import load_corpus

from tests.engine.yo_soy_el_jefe.helpers import build_state, rig_die
from tests.quizzes.conftest import QUICK_SEEDS
from tests.quizzes.conftest import made as made_by

GAME = "yo-soy-el-jefe"
SEEDS = range(200)  # per generator in the slow set; the default run checks QUICK_SEEDS
SCREEN_SEEDS = range(
    100
)  # per generator for the form screen and the engine oracles in the slow set (the costly checks)
MIN_ENTRY_QUESTIONS = 25
MIN_ENTRY_RIDDLES = 6
MIN_ACERTIJOS = 20
MIN_VARIANTS = 50  # distinct prompts over the 200 seeds; benchmarks/quiz_variety.py prints the 1,000-seed figures
PAPER_DRAWS = 1000  # entry papers drawn by the slow variety test; 99.9 % must differ (10,000 in the benchmark)


@cache
def bank() -> Bank:
    return load_bank([GAME])


@cache
def rulebook() -> str:
    return "\n".join(s.text for s in load_corpus().toc(GAME) if s.kind == "rulebook")


def generators(kind: str | None = None) -> list[Generator]:
    return sorted(
        (g for g in GENERATORS.values() if g.game == GAME and kind in (None, g.kind) and g.entry), key=lambda g: g.name
    )


NAMES = [g.name for g in generators()]


def made(name: str, seed: int) -> Item:
    return made_by(f"{GAME}/{name}", seed)


def situation(name: str, seed: int) -> Any:
    return SITUATIONS[name](Rng(seed))


def right_option(it: Item) -> str:
    return it.options[CHOICE_LETTERS.index(it.answer)]


# --------------------------------------------------------------------------- the hand-written bank


def form_fields(it: Item, vocabularies: Any) -> list[str]:
    """The fields ``form_problems`` flags: where the item gives its answer away by its form."""
    return [f for f, _ in form_problems(it, rulebook(), vocabularies)]


def test_hand_written_items_are_well_formed_supported_and_leak_free() -> None:
    gb = bank().game(GAME)
    corpus = load_corpus()
    bad = {}
    for it in gb.items:
        problems = item_problems(it, corpus, gb.vocabularies)
        support = support_problem(it, corpus, gb.vocabularies)
        leaks = form_fields(it, gb.vocabularies)
        if problems or support or leaks:
            bad[it.id] = (problems, support, leaks)
    assert not bad


def test_at_least_twenty_acertijos_each_citing_the_line_that_resolves_it() -> None:
    riddles_ = bank().game(GAME).riddles
    assert len(riddles_) >= MIN_ACERTIJOS
    for it in riddles_:
        assert it.support or it.computed or it.type == "integer", it.id
        assert it.explanation, it.id


def test_every_vocabulary_has_at_least_four_terms() -> None:
    for name, vocab in bank().game(GAME).vocabularies.items():
        assert len(vocab.terms) >= 4, name


def test_colours_are_the_engine_families_and_appear_in_the_rulebook() -> None:
    vocab = bank().game(GAME).vocabularies["colores"]
    assert vocab.term_names == colours()
    example = load_corpus().get(f"{GAME}/1-componentes/tablero/ejemplo").text
    assert all(c in example for c in colours())


# --------------------------------------------------------------------------- the rule numbers come from the engine


def test_rule_numbers_read_from_the_engine_agree_with_the_rulebook() -> None:
    n = rule_numbers()
    assert (n.hand_size, n.draw, n.hand_limit, n.late_hand_limit, n.hire_set) == (5, 3, 12, 10, 3)
    assert n.late_limit_after == 9
    assert n.investors_each == {2: 3, 3: 2, 4: 1, 5: 1, 6: 1}
    assert n.draw_by_investors == (4, 3, 2, 1)
    assert n.quick_deck == tuple(c for c in range(1, 16) if c not in (3, 6, 9))
    limits = ys.variant_thresholds()
    assert (limits.mandatory_from, limits.minimum_up_to) == (10, 3)


def test_rule_functions_hold_the_rulebooks_worked_numbers() -> None:
    assert rules.banker_payout(6, 4) == 12  # 3-3-cierre/pago/ejemplo
    assert rules.banker_payout(13, 6) == 30  # 6-ejemplos: "hay un total de $30M en dividendos"
    assert rules.boss_keeps(13, 6, [8]) == 22  # "tú ganarías $22M"
    assert rules.boss_keeps(13, 6, [10, 10]) == 10  # "Los 10 millones de dólares restantes pertenecen a Jaeyoung"
    assert [rules.end_outcome(11, r) == rules.ROLL_ENDS for r in range(1, 7)] == [True, True] + [False] * 4
    assert rules.end_outcome(13, 5) == rules.ROLL_CONTINUES  # "El dado arroja un 5 ... aún no ha terminado"
    assert rules.end_outcome(15) == rules.ENDS_WITHOUT_ROLL
    assert rules.end_outcome(9) == rules.NO_ROLL_CONTINUES
    # Jeonghoon, Jaeyoung, Shinyoung, Seonju in seat order: Jeonghoon's turn, Jaeyoung the last boss;
    # "Shinyoung, a la izquierda de Jaeyoung, tomará el siguiente giro".
    assert rules.next_turn_seat(4, 1, 2) == 3
    assert rules.two_player_payment(30, 5, 2) == 12
    with pytest.raises(ValueError):
        rules.boss_keeps(13, 6, [20, 11])
    with pytest.raises(ValueError):
        rules.end_outcome(12)


# --------------------------------------------------------------------------- generators: counts, form, variety


def test_enough_entry_generators() -> None:
    questions = generators("question")
    riddles_ = generators("riddle")
    assert len(questions) >= MIN_ENTRY_QUESTIONS, [g.name for g in questions]
    assert len(riddles_) >= MIN_ENTRY_RIDDLES, [g.name for g in riddles_]
    for g in riddles_:
        assert len(g.sections) >= 2, g.name


@pytest.mark.parametrize("name", NAMES)
def test_generated_items_are_well_formed(name: str) -> None:
    check_well_formed(name, QUICK_SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_generated_items_are_well_formed_and_varied(name: str) -> None:
    prompts = check_well_formed(name, SEEDS)
    assert len(prompts) >= MIN_VARIANTS, f"{name}: {len(prompts)} distinct prompts over {len(SEEDS)} seeds"


def check_well_formed(name: str, seeds: range) -> set[str]:
    """Assert that the generator's item of each seed is well formed; return the distinct prompts."""
    gb = bank().game(GAME)
    corpus = load_corpus()
    prompts = set()
    for seed in seeds:
        it = made(name, seed)
        assert item_problems(it, corpus, gb.vocabularies) == [], (seed, it)
        if it.type == "choice":
            assert verbatim_options(it, rulebook()) != [it.answer], (seed, it.options)
        if it.kind == "riddle":
            assert len(it.sections) >= 2, (seed, it.sections)
        prompts.add(it.prompt)
    return prompts


@pytest.mark.parametrize("name", NAMES)
def test_generated_items_do_not_give_their_answer_away(name: str) -> None:
    vocabularies = bank().game(GAME).vocabularies
    for seed in QUICK_SEEDS:
        it = made(name, seed)
        assert form_fields(it, vocabularies) == [], (seed, it.prompt)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_generated_items_do_not_give_their_answer_away_over_100_seeds(name: str) -> None:
    vocabularies = bank().game(GAME).vocabularies
    for seed in SCREEN_SEEDS:
        it = made(name, seed)
        assert form_fields(it, vocabularies) == [], (seed, it.prompt)


@pytest.mark.slow
def test_distinct_entry_papers() -> None:
    """At least 999 distinct entry papers (three questions, one riddle) in 1,000 draws.

    The per-generator variety is held by ``test_generated_items_are_well_formed_and_varied``;
    ``benchmarks/quiz_variety.py`` prints both figures at full size (1,000 seeds per generator; 10,000 draws).
    """
    questions = generators("question")
    riddles_ = generators("riddle")
    rng = Rng(2026)
    papers = set()
    for _ in range(PAPER_DRAWS):
        picked = []
        for _ in range(3):
            g = questions[rng.below(len(questions))]
            picked.append(g.make(rng.below(1 << 32)).prompt)
        r = riddles_[rng.below(len(riddles_))]
        papers.add((frozenset(picked), r.make(rng.below(1 << 32)).prompt))
    print(f"distinct entry papers in {PAPER_DRAWS} draws: {len(papers)}")
    assert len(papers) >= PAPER_DRAWS * 999 // 1000


# --------------------------------------------------------------------------- rebuilding situations on the engine


def spaces_except(count: int, avoid: set[int]) -> list[int]:
    """``count`` board spaces (1-based) outside ``avoid``, lowest first."""
    return [n for n in range(1, len(spaces()) + 1) if n not in avoid][:count]


def filler(count: int, avoid: str = "hire") -> list[str]:
    """``count`` hand tokens of family cards (none of kind ``avoid``), cycling through the colours."""
    return [f"family:{colours()[i % len(colours())]}" for i in range(count)]


def built(seats: int, options: dict[str, Any] | None = None, **kw: Any) -> Table:
    """A real table at a chosen position (see ``tests.engine.yo_soy_el_jefe.helpers.build_state``)."""
    return Table.adopt(build_state(seats, options, **kw), seats)


def settle(t: Table) -> None:
    """Let every seat polled about a card just played pass, so that the card takes effect."""
    while t.view()["card_waiting_for_stops"] is not None:
        t.play(t.deciding()[0], "pass")


def price(amount: int, dividends: bool = False) -> str:
    return f"price {amount} dividends" if dividends else f"price {amount}M"


def ask(t: Table, seat: int, colour: str, amount: int, *, dividends: bool = False) -> None:
    """``seat`` names its price for ``colour``: at once if the engine asks for it (a family card just placed
    under the polled rounds), otherwise after offering the colour (the open table)."""
    if not (seat in t.deciding() and t.may(seat, price(amount, dividends))):
        t.until(seat, f"offer {colour}")
    t.until(seat, price(amount, dividends))


def place_family(t: Table, seat: int, colour: str) -> None:
    """``seat`` places a family card of ``colour``; if the engine then asks it for a price, it names 1M."""
    t.until(seat, f"family {colour}")
    if seat in t.deciding() and seat != t.boss() and t.may(seat, "price 1M") and not t.may(seat, "pass"):
        t.play(seat, "price 1M")


def agree(t: Table, boss: int, seat: int, colour: str, amount: int, *, dividends: bool = False, family: bool = False):
    """``seat`` offers ``colour`` (placing a family card of it, if ``family``) at a price; the boss accepts."""
    if family:
        t.until(seat, f"family {colour}")
    ask(t, seat, colour, amount, dividends=dividends)
    t.until(boss, f"accept {seat} {colour}")


def played_hand(t: Table, seat: int) -> int:
    return int(t.view()["players"][seat]["hand_count"])


def owner_of(seat_of: dict[str, int], rest: int | None = None) -> dict[str, int | None]:
    """Every colour's investor holder: the given ones, the others ``rest`` (``None``: beside the board)."""
    return {c: seat_of.get(c, rest) for c in colours()}


class TravelCards:
    """Travel cards to hand out: of the target's colour while the box has them, then grey ones."""

    def __init__(self) -> None:
        self.given: Counter[str] = Counter()

    def take(self, colour: str) -> tuple[str, str]:
        """Return (the hand token, the tail of the move text) of one travel card usable on ``colour``."""
        if self.given[colour] < kind_total(TRAVEL, colour):
            self.given[colour] += 1
            return f"travel:{colour}", ""
        self.given[GREY] += 1
        assert self.given[GREY] <= kind_total(TRAVEL, GREY), "more travel cards than the box holds"
        return f"travel:{GREY}", " grey"


# One oracle per generator: (item, situation) -> None, asserting the engine agrees.
ORACLES: dict[str, Callable[[Item, Any], None]] = {}


def oracle(name: str) -> Callable[[Callable[[Item, Any], None]], Callable[[Item, Any], None]]:
    def register(fn: Callable[[Item, Any], None]) -> Callable[[Item, Any], None]:
        ORACLES[name] = fn
        return fn

    return register


# -- situations made on a real table: the rule functions re-derive the engine's answer


@oracle("mazo-tras-el-reparto")
def _(it: Item, s: q_turn.DeckDeal) -> None:
    assert int(it.answer) == s.left == rules.deck_after_setup(s.players, s.draws)


@oracle("orden-de-turnos")
def _(it: Item, s: q_turn.TurnOrder) -> None:
    if s.turn == 0:
        assert rules.marker_placer(s.players, s.first + 1) == s.answer + 1
    else:
        assert rules.turn_player(s.players, s.first + 1, s.turn) == s.answer + 1
    assert right_option(it) == s.names[s.answer]


@oracle("movimiento-del-marcador")
def _(it: Item, s: q_turn.MarkerMove) -> None:
    assert int(it.answer) == s.land == rules.marker_destination(s.position, s.roll, s.covered)


@oracle("espacio-tras-el-pago")
def _(it: Item, s: q_turn.NextSpace) -> None:
    assert int(it.answer) == s.land == rules.next_empty_space(s.position, s.covered)


@oracle("marcador-tras-el-pago-y-dado")
def _(it: Item, s: riddles.DealAndRoll) -> None:
    middle = rules.next_empty_space(s.position, s.covered)
    assert int(it.answer) == s.land == rules.marker_destination(middle, s.roll, (*s.covered, s.position))


@oracle("inversores-que-faltan")
def _(it: Item, s: q_deal.Missing) -> None:
    mandatory, optional, _ = rules.space_needs(s.space)
    asked = set(mandatory) | set(optional)
    # The boss's own investors and family cards, as far as the space asks for them (an optional family
    # card beyond the number needed is not used): the engine's group never holds anything else.
    assert set(s.covered) <= (set(s.owned) | set(s.placed)) & asked
    assert int(it.answer) == rules.missing_investors(s.space, (*s.owned, *s.placed))


@oracle("inversores-ajenos-necesarios")
def _(it: Item, s: q_deal.Opponent) -> None:
    assert {c for held in s.held for c in held} == set(colours())  # every investor card is held by a seat
    assert int(it.answer) == s.forced == rules.missing_investors(s.space, (*s.owned, *s.placed))


# -- situations drawn by the generator: rebuilt on a real table


@oracle("casilla-completa")
def _(it: Item, s: q_turn.Completion) -> None:
    for letter, group in zip(CHOICE_LETTERS, _completion_groups(it, s), strict=True):
        held = {c: 0 for c in (*s.owned, *group)}
        t = built(6, owner=owner_of(held), marker=s.space, turn=0)
        t.negotiate()
        assert t.view()["negotiation"]["complete"] == (letter == it.answer), (letter, group)


def _completion_groups(it: Item, s: q_turn.Completion) -> list[tuple[str, ...]]:
    by_words = {normalize(q_turn._group_words(g)): g for g in (s.right, *s.wrong)}
    return [by_words[normalize(o)] for o in it.options]


@oracle("descarte-por-limite")
def _(it: Item, s: q_turn.HandLimit) -> None:
    marker = 16
    covered = spaces_except(s.deals, {marker})
    hand = ["hire"] * s.hires + filler(s.hand - s.hires)
    t = built(
        3,
        {"hand_limit_10_from_tenth_deal": s.late},
        hands={0: hand},
        deals_done=s.deals,
        covered=covered,
        marker=marker,
    )
    t.roll()
    t.until(0, "draw")
    for _ in range(s.sets):
        hire = next(x for x in t.legal_texts(0) if x.startswith("hire "))
        t.play(0, hire)
        settle(t)
    discards = 0
    while t.deciding() == (0,) and any(x.startswith("discard") for x in t.legal_texts(0)):
        t.play(0, next(x for x in t.legal_texts(0) if x.startswith("discard")))
        discards += 1
    assert discards == int(it.answer)


@oracle("robo-segun-inversores")
def _(it: Item, s: q_turn.VariantDraw) -> None:
    t = built(
        4,
        {"draw_by_investors": True},
        owner=owner_of({c: 0 for c in s.held}, rest=1),
        hands={0: filler(s.hand)},
    )
    t.roll()
    t.draw()
    assert played_hand(t, 0) == int(it.answer)


_ACTIONS = {"negotiate": rules.NEGOTIATE, "roll": rules.ROLL, "draw": rules.DRAW}


@oracle("opciones-del-turno")
def _(it: Item, s: q_turn.TurnOptions) -> None:
    options = {"mandatory_negotiation_with_10_cards": s.mandatory, "no_negotiation_with_3_cards_or_fewer": s.minimum}
    t = built(3, options, hands={0: filler(s.hand)})
    if s.moment == rules.AFTER_ROLL:
        t.play(0, "roll")
    allowed = frozenset(_ACTIONS[x] for x in t.legal_texts(0) if x in _ACTIONS)
    table = q_turn._START_OPTIONS if s.moment == rules.START else q_turn._AFTER_ROLL_OPTIONS
    assert table[allowed] == right_option(it)


@oracle("mazo-agotado")
def _(it: Item, s: q_turn.DeckOut) -> None:
    held = {c: 0 for c in s.held}
    state = build_state(3, {"draw_by_investors": s.variant}, owner=owner_of(held, rest=1), hands={0: filler(2)})
    state.discard = state.deck[: s.discard]
    state.deck = state.deck[s.discard : s.discard + s.deck]
    t = Table.adopt(state, 3)
    t.roll()
    t.draw()
    assert int(t.view()["deck_count"]) == int(it.answer)


@oracle("cuenta-de-cartas")
def _(it: Item, s: q_turn.CardCount) -> None:
    box = components().cards
    total = sum(
        sum(1 for c in box if c.kind == kind and (hue is None or c.colour == hue)) for kind, hue, _, _ in s.parts
    )
    seen = sum(d + m for _, _, d, m in s.parts)
    assert int(it.answer) == total - seen


@oracle("pago-del-banquero")
def _(it: Item, s: q_turn.Payout) -> None:
    covered = spaces_except(s.card - 1, {s.space})
    t = built(3, deals_done=s.card - 1, covered=covered, marker=s.space)
    t.negotiate()
    assert t.view()["negotiation"]["payout"] == int(it.answer)


def _closed_with_roll(deals_done: int, roll: int, options: dict[str, Any]) -> Table:
    marker = 16
    covered = spaces_except(deals_done, {marker})
    t = built(3, {"two_player_rules": True, **options}, deals_done=deals_done, covered=covered, marker=marker)
    t.negotiate()
    rig_die(t.state, roll)
    t.close()
    return t


def _end_seen(t: Table, roll: int) -> str:
    view = t.view()
    if t.over:
        return rules.ROLL_ENDS if view["last_roll"] == roll else rules.ENDS_WITHOUT_ROLL
    return rules.ROLL_CONTINUES if view["last_roll"] == roll else rules.NO_ROLL_CONTINUES


@oracle("dado-de-fin")
def _(it: Item, s: q_turn.EndDie) -> None:
    assert _end_seen(_closed_with_roll(s.card - 1, s.roll, {}), s.roll) == right_option(it)


@oracle("partida-rapida-fin")
def _(it: Item, s: riddles.QuickEnd) -> None:
    assert _end_seen(_closed_with_roll(s.deal - 1, s.roll, {"quick_game": True}), s.roll) == right_option(it)


def _boss_cards_then(
    players: int,
    turn: int,
    cards: list[tuple[int, int | None]],
    *,
    failed: bool = False,
    variant: bool = False,
) -> Table:
    """Seat ``turn`` starts a deal; boss cards ``(seat, stopper)`` in order; the last boss closes or fails."""
    hands: dict[int, list[str]] = {}
    for seat, stopper in cards:
        hands.setdefault(seat, []).append("boss")
        if stopper is not None:
            hands.setdefault(stopper, []).append("stop")
    owner = {c: i % players for i, c in enumerate(colours())}
    options = {"two_player_rules": not failed, "boss_card_keeps_turn": variant}
    t = built(players, options, owner=owner, hands=hands, turn=turn)
    t.negotiate()
    for seat, stopper in cards:
        t.until(seat, "boss keep")
        if stopper is not None:
            t.until(stopper, "stop")
        settle(t)
    if failed:
        t.fail()
    else:
        t.close()
    return t


@oracle("turnos-omitidos")
def _(it: Item, s: q_turn.Skipped) -> None:
    t = _boss_cards_then(s.players, s.turn - 1, [(p - 1, None) for p in s.sequence])
    nxt = t.turn_seat() + 1
    assert (nxt - s.turn - 1) % s.players == int(it.answer)


@oracle("siguiente-turno")
def _(it: Item, s: riddles.NextTurn) -> None:
    t = _boss_cards_then(s.players, s.turn - 1, [(p - 1, None) for p in s.sequence], failed=s.failed, variant=s.variant)
    assert t.turn_seat() + 1 == int(it.answer)


@oracle("jefe-y-paradas")
def _(it: Item, s: riddles.BossStops) -> None:
    seat = {n: i for i, n in enumerate(s.names)}
    cards = [(seat[p], seat[st] if st else None) for p, st in s.cards]
    t = _boss_cards_then(len(s.names), s.turn, cards, variant=s.variant)
    assert s.names[t.turn_seat()] == right_option(it)


@oracle("quien-cierra")
def _(it: Item, s: q_deal.BossRun) -> None:
    seat = {n: i for i, n in enumerate(s.names)}
    hands: dict[int, list[str]] = {}
    for p, st in s.cards:
        hands.setdefault(seat[p], []).append("boss")
        if st:
            hands.setdefault(seat[st], []).append("stop")
    t = built(5, hands=hands, turn=seat[s.starter])
    t.negotiate()
    for p, st in s.cards:
        t.until(seat[p], "boss keep")
        if st:
            t.until(seat[st], "stop")
        settle(t)
    assert s.names[t.boss()] == right_option(it)


@oracle("quien-puede-participar")
def _(it: Item, s: q_deal.TakePart) -> None:
    # Seat 0 is the boss, 1 to 4 the candidates, 5 the player of the travel cards and hire sets.
    held: dict[str, int] = {}
    hands: dict[int, list[str]] = {5: []}
    for i, c in enumerate(s.candidates, start=1):
        if c.investor is not None:
            held[c.investor] = i
        if c.lost:
            held[s.target] = 5
        hands[i] = [f"family:{h}" for h in c.families] + [f"travel:{h}" for h in c.travels]
    travelled = [i for i, c in enumerate(s.candidates, start=1) if c.travelled]
    cards = TravelCards()
    tails = []
    for _ in travelled:
        token, tail = cards.take(s.target)
        hands[5].append(token)
        tails.append(tail)
    space = next(sp.number for sp in spaces() if len(sp.colours) == len(colours()))
    t = built(6, owner=owner_of(held), hands=hands, marker=space, turn=0)
    t.negotiate()
    for i, tail in zip(travelled, tails, strict=True):
        t.until(5, f"travel investor {i} {s.target}{tail}")
        settle(t)
    able: dict[int, bool] = {}
    while len(able) < 4:
        seat = t.deciding()[0]
        if seat in range(1, 5) and seat not in able:
            texts = t.legal_texts(seat)
            able[seat] = f"offer {s.target}" in texts or f"family {s.target}" in texts
        t.play(seat, "pass")
    assert [seat for seat, ok in able.items() if ok] == [s.right + 1]
    assert right_option(it) == s.candidates[s.right].name


@cache
def _opens_a_stop_window(kind: str) -> bool:
    """Play one ``kind`` on a real table; whether the other seats are then asked for a stop card.

    ``"parada"`` plays a stop card against a travel card and asks whether anything can then
    answer that stop card.
    """
    owner = {c: i for i, c in enumerate(colours())}
    hands = {1: ["travel:gris", "boss", "hire", "hire", "hire", "family:rojo"], 2: ["stop"], 3: ["family:azul"]}
    t = built(6, owner=owner, hands=hands, marker=_ALL_COLOURS_SPACE, turn=0)
    t.negotiate()
    if kind == rules.TRAVEL_ON_FAMILY:
        place_family(t, 3, "azul")
        t.until(1, "travel family 3 azul grey")
    elif kind == rules.TRAVEL_ON_INVESTOR:
        t.until(1, "travel investor 0 rojo grey")
    elif kind == rules.HIRE_SET:
        t.until(1, "hire verde")
    elif kind == rules.BOSS_CARD:
        t.until(1, "boss keep")
    elif kind == rules.FAMILY_PLACED:
        place_family(t, 1, "rojo")
    elif kind == rules.OFFER:
        t.until(1, "offer azul")
        t.until(1, "price 1M")
    else:
        t.until(1, "travel investor 0 rojo grey")
        t.until(2, "stop")
    return t.view()["card_waiting_for_stops"] is not None


# The space that asks for all six families, every one of them mandatory (space 13).
_ALL_COLOURS_SPACE = next(sp.number for sp in spaces() if len(sp.mandatory) == len(colours()))


def test_the_engine_answers_only_travel_boss_and_hire_plays_with_a_stop() -> None:
    for kind in rules.STOPPABLE:
        assert _opens_a_stop_window(kind), kind
    for kind in (rules.FAMILY_PLACED, rules.OFFER, "parada"):
        assert not _opens_a_stop_window(kind), kind


@oracle("jugadas-cancelables")
def _(it: Item, s: q_deal.Stoppable) -> None:
    assert sum(1 for p in s.plays if _opens_a_stop_window(p.kind)) == int(it.answer)
    assert all(rules.can_stop(p.kind) == _opens_a_stop_window(p.kind) for p in s.plays)


def _narrative_table(s: q_deal.Discards | q_deal.Stoppable) -> tuple[Table, dict[str, int], list[str]]:
    """Seat the six players (the boss first), give them the cards their plays need, and start the deal.

    Returns the table, the seats by name, and the tail of each play's move text (" grey" for a grey travel card).
    """
    seat = {n: i for i, n in enumerate(s.names)}
    hands: dict[int, list[str]] = {i: [] for i in range(6)}
    cards = TravelCards()
    tails: list[str] = []
    for p in s.plays:
        tail = ""
        if p.kind in (rules.TRAVEL_ON_INVESTOR, rules.TRAVEL_ON_FAMILY):
            token, tail = cards.take(p.colour)
            hands[seat[p.player]].append(token)
        elif p.kind == rules.HIRE_SET:
            hands[seat[p.player]] += ["hire"] * 3
        elif p.kind == rules.FAMILY_PLACED:
            hands[seat[p.player]].append(f"family:{p.colour}")
        elif p.kind == rules.BOSS_CARD:
            hands[seat[p.player]].append("boss")
        if p.stopped_by:
            hands[seat[p.stopped_by]].append("stop")
        tails.append(tail)
    owner = {c: seat[n] for c, n in s.owners}
    t = built(6, owner=owner, hands=hands, marker=_ALL_COLOURS_SPACE, turn=0)
    t.negotiate()
    return t, seat, tails


def _play_out(t: Table, seat: dict[str, int], p: q_deal.Play, tail: str) -> None:
    """Play one told play (see ``q_deal._random_plays``), then let the stop window close."""
    who = seat[p.player]
    if p.kind == rules.TRAVEL_ON_INVESTOR:
        t.until(who, f"travel investor {seat[p.owner]} {p.colour}{tail}")
    elif p.kind == rules.TRAVEL_ON_FAMILY:
        t.until(who, f"travel family {seat[p.owner]} {p.colour}{tail}")
    elif p.kind == rules.HIRE_SET:
        t.until(who, f"hire {p.colour}")
    elif p.kind == rules.BOSS_CARD:
        t.until(who, "boss keep")
    elif p.kind == rules.FAMILY_PLACED:
        place_family(t, who, p.colour)
    if p.stopped_by:
        t.until(seat[p.stopped_by], "stop")
    settle(t)


@oracle("descartes-inmediatos")
def _(it: Item, s: q_deal.Discards) -> None:
    t, seat, tails = _narrative_table(s)
    for p, tail in zip(s.plays, tails, strict=True):
        _play_out(t, seat, p, tail)
    assert int(t.view()["discard_count"]) == int(it.answer)


@oracle("dueno-del-inversor")
def _(it: Item, s: q_deal.Holder) -> None:
    seat = {n: i for i, n in enumerate(s.names)}
    owner = {c: i % s.players for i, c in enumerate(colours())}
    owner[s.colour] = seat[s.first]
    hands: dict[int, list[str]] = {}
    for p, st in s.hires:
        hands.setdefault(seat[p], []).extend(["hire"] * 3)
        if st:
            hands.setdefault(seat[st], []).append("stop")
    t = built(s.players, owner=owner, hands=hands, turn=0)
    t.negotiate()
    for p, st in s.hires:
        t.until(seat[p], f"hire {s.colour}")
        if st:
            t.until(seat[st], "stop")
        settle(t)
    holder = next(x["holder"] for x in t.view()["investors"] if x["colour"] == s.colour)
    assert s.names[holder] == right_option(it)


@oracle("quien-cobra")
def _(it: Item, s: q_deal.WhoGetsPaid) -> None:
    # Seats: 0 the boss, 1 the paid seat, 2 and 3 the seats that played no card, 4 the outsider.
    a, b = s.unused
    hues = list(colours())
    owner = {hues[0]: 1, hues[1]: 2, hues[2]: 3, hues[3]: 0, hues[4]: 0, hues[5]: 0}
    use = q_deal._USES[s.use]
    guard = 1 if "parada" in use else 0  # who stops the outsider's travel card
    hands: dict[int, list[str]] = {0: ["stop"], 1: [], 4: ["travel:gris"]}
    hands[guard].append("stop")
    if use.startswith("colocó"):
        hands[1].append(f"family:{hues[0]}")
    elif "viaje" in use:
        hands[1].append("travel:gris")
    elif "empleo" in use:
        hands[1] += ["hire"] * 3
    deals = 13  # deal card #14: a payout large enough for every price named
    covered = spaces_except(deals, {_ALL_COLOURS_SPACE})
    options = {"dividends_only_for_participants": True}
    t = built(5, options, owner=owner, hands=hands, deals_done=deals, covered=covered, marker=_ALL_COLOURS_SPACE)
    t.negotiate()
    t.until(4, f"travel investor 1 {hues[0]} grey")  # the outsider's travel card, cancelled by someone
    t.until(guard, "stop")
    settle(t)
    agree(t, 0, 1, hues[0], s.amounts[0], family=use.startswith("colocó"))
    if "viaje" in use or "empleo" in use:
        t.until(1, f"travel investor 0 {hues[3]} grey" if "viaje" in use else f"hire {hues[4]}")
        t.until(0, "stop")
        settle(t)
    agree(t, 0, 2, hues[1], s.amounts[1])
    agree(t, 0, 3, hues[2], s.amounts[2])
    t.close()
    paid = {p[0] for p in t.view()["last_deal"]["paid"]}
    names = {1: s.paid, 2: a, 3: b}
    assert {names[p] for p in paid} == {right_option(it)}


def _deal_table(
    seats: int,
    card: int,
    space: int,
    boss: int,
    held: dict[str, int],
    *,
    options: dict[str, Any] | None = None,
    hands: dict[int, list[str]] | None = None,
) -> Table:
    """A table where ``card - 1`` deals are done, the marker on ``space``, ``boss`` on turn and starting the deal.

    ``held`` gives some investors; the boss holds every other colour the space asks for,
    and the remaining colours lie beside the board.
    """
    needed = spaces()[space - 1].colours
    owner = owner_of({**{c: boss for c in needed if c not in held}, **held})
    covered = spaces_except(card - 1, {space})
    t = built(seats, options, owner=owner, hands=hands, deals_done=card - 1, covered=covered, marker=space, turn=boss)
    t.negotiate()
    return t


@oracle("margen-para-prometer")
def _(it: Item, s: q_deal.Room) -> None:
    needed = spaces()[s.space - 1].colours
    held = {needed[i]: i + 1 for i in range(len(s.agreed))}
    t = _deal_table(4, s.card, s.space, 0, held)
    for i, (_, amount, dividends) in enumerate(s.agreed):
        agree(t, 0, i + 1, needed[i], amount, dividends=dividends)
    assert t.view()["negotiation"]["room_left"] == int(it.answer)


@oracle("lo-que-queda-al-jefe")
def _(it: Item, s: riddles.Keeps) -> None:
    held = {hue: i + 1 for i, (_, hue, _, _) in enumerate(s.promises)}
    t = _deal_table(4, s.card, s.space, 0, held)
    for i, (_, hue, amount, dividends) in enumerate(s.promises):
        agree(t, 0, i + 1, hue, amount, dividends=dividends)
    t.close()
    assert t.view()["last_deal"]["kept_by_boss"] == int(it.answer)


@oracle("dinero-acumulado")
def _(it: Item, s: q_deal.MoneySoFar) -> None:
    seat = {n: i for i, n in enumerate(s.names)}
    money = dict.fromkeys(s.names, 0)
    for d in s.deals:
        needed = spaces()[d.space - 1].colours
        held = {needed[i]: seat[w] for i, (w, _) in enumerate(d.promises)}
        t = _deal_table(len(s.names), d.number, d.space, seat[d.boss], held)
        for i, (w, amount) in enumerate(d.promises):
            agree(t, seat[d.boss], seat[w], needed[i], amount)
        t.close()
        last = t.view()["last_deal"]
        money[d.boss] += last["kept_by_boss"]
        for p in last["paid"]:
            money[s.names[p[0]]] += p[3]
    assert money[s.asked] == int(it.answer)


@oracle("quien-gana")
def _(it: Item, s: riddles.Winner) -> None:
    names = [n for n, _ in s.before]
    seat = {n: i for i, n in enumerate(names)}
    needed = spaces()[s.space - 1].colours
    held = {needed[i]: seat[w] for i, (w, _) in enumerate(s.promises)}
    t = _deal_table(len(names), s.card, s.space, seat[s.boss], held)
    t.state.money = [m for _, m in s.before]
    for i, (w, amount) in enumerate(s.promises):
        agree(t, seat[s.boss], seat[w], needed[i], amount)
    if s.roll is not None:
        rig_die(t.state, s.roll)
    t.close()
    result = t.game.result(t.state)
    assert result is not None, "the game must be over"
    assert max(result.scores) == int(it.answer)


@oracle("solo-participantes")
def _(it: Item, s: riddles.Participants) -> None:
    # Seats: 0 the boss, 1 to 3 the agreed seats in order, 5 a player whose travel cards they stop.
    hues = [h for _, h, _, _ in s.parts]
    others = [c for c in spaces()[s.space - 1].colours if c not in hues]
    aim = others[0] if others else hues[0]
    held = {h: i for i, h in enumerate(hues, start=1)}
    hands: dict[int, list[str]] = {0: ["stop"] * len(s.parts), 5: []}
    cards = TravelCards()
    tails: dict[int, tuple[str, str]] = {}
    for i, (_, hue, _, use) in enumerate(s.parts, start=1):
        hands[i] = [f"family:{hue}"] if use.startswith("colocó") else []
        hands[i] += ["stop"] if "parada" in use else []
        theirs, mine = cards.take(hue), cards.take(aim)
        hands[5].append(theirs[0])
        if "viaje" in use:
            hands[i].append(mine[0])
        tails[i] = (theirs[1], mine[1])
    options = {"dividends_only_for_participants": True}
    t = _deal_table(6, s.card, s.space, 0, held, options=options, hands=hands)
    for i, (_, hue, amount, use) in enumerate(s.parts, start=1):
        if "parada" in use:  # a travel card on its investor, which it stops to protect the deal
            t.until(5, f"travel investor {i} {hue}{tails[i][0]}")
            t.until(i, "stop")
            settle(t)
        if "viaje" in use:  # a travel card on another investor, cancelled by the boss
            aim_seat = next(x["holder"] for x in t.view()["investors"] if x["colour"] == aim)
            t.until(i, f"travel investor {aim_seat} {aim}{tails[i][1]}")
            t.until(0, "stop")
            settle(t)
        agree(t, 0, i, hue, amount, family=use.startswith("colocó"))
    t.close()
    assert t.view()["last_deal"]["kept_by_boss"] == int(it.answer)


@oracle("pago-a-dos-jugadores")
def _(it: Item, s: riddles.TwoPlayers) -> None:
    space = spaces()[s.space - 1]
    required = (*space.mandatory, *space.optional[: space.optional_needed])
    theirs = set(required[-s.used :])
    owner = {c: (0 if c in required and c not in theirs else 1) for c in colours()}
    covered = spaces_except(s.card - 1, {s.space})
    t = built(2, owner=owner, deals_done=s.card - 1, covered=covered, marker=s.space, turn=0)
    t.negotiate()
    t.close()
    paid = t.view()["last_deal"]["paid"]
    assert all(p[2] == "forced" for p in paid)
    assert len(paid) == s.used
    assert sum(p[3] for p in paid) == int(it.answer)


@oracle("viajes-y-paradas")
def _(it: Item, s: riddles.Travels) -> None:
    seat = {n: i for i, n in enumerate(s.names)}
    owner = {c: seat[n] for c, n in s.owner}
    hands: dict[int, list[str]] = {}
    cards = TravelCards()
    tails = []
    for player, colour, stopper, _ in s.travels:
        token, tail = cards.take(colour)
        tails.append(tail)
        hands.setdefault(seat[player], []).append(token)
        if stopper:
            hands.setdefault(seat[stopper], []).append("stop")
    t = built(s.players, owner=owner, hands=hands, marker=s.space, turn=0)
    t.negotiate()
    for (player, colour, stopper, _), tail in zip(s.travels, tails, strict=True):
        t.until(seat[player], f"travel investor {owner[colour]} {colour}{tail}")
        if stopper:
            t.until(seat[stopper], "stop")
            assert t.view()["card_waiting_for_stops"] is None  # nothing can answer a stop card
        settle(t)
    gone = {x["colour"] for x in t.view()["negotiation"]["travelled_investors"]}
    assert len(set(spaces()[s.space - 1].colours) - gone) == int(it.answer)


@oracle("empleo-elecciones")
def _(it: Item, s: q_deal.HireChoice) -> None:
    seat = {n: i for i, n in enumerate(s.names)}
    holders = {c: (None if h is None else seat[h]) for c, h in s.dealt}
    if s.earlier is not None:
        holders[s.earlier[1]] = seat[s.earlier[0]]
    hirer = seat[s.hirer]
    t = built(s.players, owner=holders, hands={hirer: ["hire"] * 3}, turn=hirer)
    t.negotiate()
    while t.deciding() != (hirer,):
        t.play(t.deciding()[0], "pass")
    assert sum(1 for x in t.legal_texts(hirer) if x.startswith("hire ")) == int(it.answer)


def _placed_card(t: Table, seat: int, colour: str) -> str:
    return next(
        x["card"] for x in t.view()["negotiation"]["placed_family_cards"] if x["seat"] == seat and x["colour"] == colour
    )


def _fate_seen(t: Table, card: str, seat: int, discards_before: int) -> str:
    """Where ``card``, placed by ``seat``, went when the deal ended: back to that hand, or to the discard pile."""
    if card in {c["id"] for c in t.view(seat)["hand"]}:
        return rules.FATE_HAND
    assert t.view()["discard_count"] > discards_before
    return rules.FATE_DISCARD


@oracle("destino-de-las-cartas")
def _(it: Item, s: q_deal.Fate) -> None:
    # Seats: 0 the boss, 1 the seat, 2 the other seat, 3 the traveller.
    c = s.colour
    holder = {0: None, 1: 1, 2: 2, 3: 0, 4: None, 5: 1, 6: 1, 7: 1}[s.story]
    needed = spaces()[s.space - 1].colours
    owner = owner_of({**{x: 0 for x in needed if x != c}, **({} if holder is None else {c: holder})})
    hands = {0: [f"family:{c}"], 1: [f"family:{c}"], 3: ["travel:gris"]}
    t = built(4, owner=owner, hands=hands, marker=s.space, turn=0)
    t.negotiate()
    if s.story in (0, 1, 2, 5, 6):
        t.until(1, f"family {c}")
        card = _placed_card(t, 1, c)
        ask(t, 1, c, 1)
        if s.story in (0, 1):
            t.until(0, f"accept 1 {c}")
        elif s.story == 2:
            t.until(0, f"refuse 1 {c}")
            agree(t, 0, 2, c, 1)
        if s.story == 6:
            before = t.view()["discard_count"]
            t.until(3, f"travel family 1 {c} grey")
            settle(t)
            view = t.view()
            assert view["discard_count"] == before + 2
            assert all(x["card"] != card for x in view["negotiation"]["placed_family_cards"])
            assert right_option(it) == rules.FATE_DISCARD
            return
        before = t.view()["discard_count"]
        if s.story == 5:
            t.fail()
        else:
            t.close()
        assert _fate_seen(t, card, 1, before) == right_option(it)
    elif s.story in (3, 4):
        t.until(0, f"family {c}")
        card = _placed_card(t, 0, c)
        before = t.view()["discard_count"]
        t.close()
        assert _fate_seen(t, card, 0, before) == right_option(it)
    else:
        t.until(3, f"travel investor 1 {c} grey")
        settle(t)
        travel = t.view()["negotiation"]["travelled_investors"][0]["travel_card"]
        if s.closes:
            t.until(0, f"family {c}")  # someone must still stand in for the travelled investor
        before = t.view()["discard_count"]
        if s.closes:
            t.close()
        else:
            t.fail()
        assert _fate_seen(t, travel, 3, before) == right_option(it) == rules.FATE_DISCARD


@oracle("mano-tras-el-fracaso")
def _(it: Item, s: q_deal.AfterFailure) -> None:
    # Seats: 0 the boss, 1 the seat asked about, 2 plays the travel card it stops, 3 sends its family cards
    # on a trip; each seat holds the investor of one colour, on the space that asks for all six.
    hues = colours()
    families = list(hues[: s.families])
    cards = TravelCards()
    mine = [cards.take(hues[2 + i]) for i in range(s.travels)]
    theirs = [cards.take(h) for h in families[: s.travelled]]
    stopped = cards.take(hues[4])
    hand = [f"family:{h}" for h in families] + [m[0] for m in mine] + ["hire"] * (3 * s.sets)
    hand += ["stop"] * s.stops
    hand += ["boss"] * (s.hand - len(hand))
    hands = {1: hand, 2: [stopped[0]], 3: [x[0] for x in theirs]}
    t = built(6, owner={h: i for i, h in enumerate(hues)}, hands=hands, marker=_ALL_COLOURS_SPACE, turn=0)
    t.negotiate()
    for h in families:
        place_family(t, 1, h)
    for h, (_, tail) in zip(families[: s.travelled], theirs, strict=True):
        t.until(3, f"travel family 1 {h}{tail}")
        settle(t)
    for i, (_, tail) in enumerate(mine):
        t.until(1, f"travel investor {2 + i} {hues[2 + i]}{tail}")
        settle(t)
    if s.sets:
        t.until(1, f"hire {hues[5]}")
        settle(t)
    if s.stops:
        t.until(2, f"travel investor 4 {hues[4]}{stopped[1]}")
        t.until(1, "stop")
        settle(t)
    t.fail()
    assert played_hand(t, 1) == int(it.answer)


@oracle("mano-tras-el-cierre")
def _(it: Item, s: q_deal.AfterClose) -> None:
    # Seats: 0 the boss, 1 the seat asked about, 2 plays the travel cards the seat stops.
    needed = spaces()[s.space - 1].colours
    holder = {c: {0: None, 1: 1, 2: 0}[how] for c, how in s.placed}
    owner = owner_of(
        {**{c: 0 for c in needed if c not in holder}, **{c: h for c, h in holder.items() if h is not None}}
    )
    for c, h in holder.items():
        owner[c] = h
    hand = [f"family:{c}" for c, _ in s.placed] + ["stop"] * s.stops
    hand += ["boss"] * (s.hand - len(hand))
    t = built(3, owner=owner, hands={1: hand, 2: ["travel:gris"] * s.stops}, marker=s.space, turn=0)
    t.negotiate()
    for c, how in s.placed:
        t.until(1, f"family {c}")
        ask(t, 1, c, 1)
        t.until(0, f"{'refuse' if how == 2 else 'accept'} 1 {c}")
    target = next(c for c in needed if owner[c] is not None)
    for _ in range(s.stops):
        t.until(2, f"travel investor {owner[target]} {target} grey")
        t.until(1, "stop")
        settle(t)
    t.close()
    assert played_hand(t, 1) == int(it.answer)


def test_every_generator_has_an_engine_oracle() -> None:
    assert sorted(ORACLES) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_generated_answers_agree_with_the_engine(name: str) -> None:
    check = ORACLES[name]
    for seed in QUICK_SEEDS:
        check(made(name, seed), situation(name, seed))


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_generated_answers_agree_with_the_engine_over_100_seeds(name: str) -> None:
    check = ORACLES[name]
    for seed in SCREEN_SEEDS:
        check(made(name, seed), situation(name, seed))
