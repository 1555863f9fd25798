"""What the Se Vende templates share: section ids, card names in Spanish, the engine and a round driver.

Situations are explicit positions of the engine's scenario builder
(:func:`club_agentes.engine.se_vende.scenario.position`); :func:`play_round` then chooses the
round's action cards and plays the round with the engine's ``legal_moves``/``apply``, letting a
template steer the decisions its question is about; answers are read from the engine's ``view``
(or its public scoring function). Cards are named by design key; :func:`named` writes one with
its kind ("el desarrollo Astillero Menor", "el mundo Fundición Estelar").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from club_agentes.engine.core import Game, IllegalMove, Rng, get_game
from club_agentes.engine.se_vende.cards import CardDef, load_deck
from club_agentes.engine.se_vende.scenario import card_id, position
from club_agentes.engine.se_vende.state import State
from club_agentes.quizzes.model import Redraw
from club_agentes.quizzes.wording import join

GAME = "se-vende"
P = GAME + "/"
ELECCION = P + "resumen/eleccion-secreta"
FASES = P + "resumen/fases-elegidas"
BONUS = P + "resumen/bonus"
USOS = P + "resumen/usos-de-las-cartas"
LIMITE_RESUMEN = P + "resumen/limite-de-mano"
FIN_RESUMEN = P + "resumen/fin"
PASO_1 = P + "preparacion/paso-1-fichas"
PASO_2 = P + "preparacion/paso-2-cartas-de-accion"
PASO_3 = P + "preparacion/paso-3-mundos-iniciales"
PASO_4 = P + "preparacion/paso-4-reparto"
PASO_5 = P + "preparacion/paso-5-descarte"
PASO_6 = P + "preparacion/paso-6-suministro"
PASO_7 = P + "preparacion/paso-7-alfa-centauro"
PUNTUACION = P + "puntuacion"
FIN = P + "fin-de-la-partida"
VARIOS = P + "preguntas/fase-elegida-por-varios"
NO_COLOCAR = P + "preguntas/no-colocar-nada"
MILITARES = P + "preguntas/mundos-militares"
CAIDA = P + "preguntas/bienes-de-caida"
COMERCIO = P + "preguntas/comercio"
HASTA_N = P + "preguntas/poderes-hasta-n-bienes"
DOBLE = P + "preguntas/bonus-2x-pv"
LIMITE = P + "preguntas/limite-de-mano"
PRODUCIR = P + "preguntas/producir"
FICHAS_10 = P + "preguntas/fichas-de-10"
NUEVOS = P + "preguntas/poderes-nuevos"
RULINGS = P + "rulings/"

PHASE_OF = {
    "explorar-5": "Explorar",
    "explorar-1-1": "Explorar",
    "desarrollar": "Desarrollar",
    "asentar": "Asentar",
    "comercio": "Consumir",
    "2x-pv": "Consumir",
    "producir": "Producir",
}
"""Action card code -> the phase it selects, as prompts name it."""
STARTS = ("alfa-centauro", "colonia-aurora", "bastion-de-hierro", "puerto-marea", "archivo-kepler")
"""The five start worlds (se-vende/cartas/mundos-iniciales)."""
CARD_WORDS = {
    "comercio": "Consumir: Comercio",
    "2x-pv": "Consumir: 2x PV",
}
"""The two action cards the rulebook names by more than their phase."""


@cache
def engine() -> Game:
    """Return the installed Se Vende engine.

    Raises:
        UnknownGame: the game is not installed.
    """
    return get_game(GAME)


@cache
def designs() -> dict[str, CardDef]:
    """Return every card design by key, in the data's order."""
    out: dict[str, CardDef] = {}
    for d in load_deck().defs:
        out.setdefault(d.key, d)
    return out


def design(key: str) -> CardDef:
    """Return the design ``key``.

    Raises:
        KeyError: no such design.
    """
    return designs()[key]


def section(key: str) -> str:
    """The printed card's section id."""
    return f"{P}cartas/{key}"


def named(key: str, *, article: bool = True) -> str:
    """Write a card with its kind: ``"el desarrollo Astillero Menor"``, ``"el mundo Fundición Estelar"``."""
    d = design(key)
    kind = "desarrollo" if d.type == "development" else "mundo"
    return f"{'el ' if article else ''}{kind} {d.name}"


def names(keys: Iterable[str]) -> str:
    """Write several cards as a Spanish list of names (``"Astillero Menor, Cúpula Azafrán y Anillo de Hielo"``)."""
    return join([design(k).name for k in keys])


def design_of(card: str) -> str:
    """Return the design key of the physical card ``card`` (``"SV-C079"`` -> ``"fundicion-estelar"``).

    Raises:
        KeyError: no card has that id.
    """
    deck = load_deck()
    return deck.defs[deck.index[card]].key


def placed(keys: Sequence[str]) -> str:
    """``"colocado"`` for one card, ``"colocados"`` for several (the participle that follows a tableau)."""
    return "colocado" if len(keys) == 1 else "colocados"


def setting(names_: Sequence[str], actions: Sequence[str], tableau: Sequence[str], between: str, mine: str) -> str:
    """The opening every Se Vende prompt shares: who plays, your tableau, ``between``, who chose what.

    ``between`` follows the tableau ("; Fundición Estelar tiene un bien", ". En la mano tienes...");
    ``mine`` is how your own choice is named (``"Desarrollar"``, ``"la carta de acción Explorar +5"``).
    """
    others = [f"{n}, {choice_words(a)}" for n, a in zip(names_, actions[1:], strict=True)]
    return (
        f"Jugáis a Se Vende {join([*names_, 'tú'])}. En tu tableau tienes {names(tableau)}, {placed(tableau)} en "
        f"rondas anteriores{between}. Esta ronda eliges en secreto {mine}; {'; '.join(others)}."
    )


def keys_where(test: Callable[[CardDef], bool], *, start: bool = False) -> list[str]:
    """Return the design keys that pass ``test`` (start worlds only when ``start``), in data order."""
    return [k for k, d in designs().items() if test(d) and (start or not d.start)]


def physical(keys: Sequence[str]) -> list[str]:
    """Return a physical card id for each design key, a different copy for each repeat.

    Raises:
        Redraw: a design is named more times than it has copies.
    """
    seen: Counter[str] = Counter()
    out = []
    for k in keys:
        try:
            out.append(card_id(k, seen[k]))
        except KeyError:
            raise Redraw from None
        seen[k] += 1
    return out


def filler(rng: Rng, n: int, avoid: Iterable[str]) -> list[str]:
    """Return ``n`` cards (design keys) that leave enough copies for ``avoid``: cards only held to pay with.

    Raises:
        Redraw: not enough cards are left.
    """
    used = Counter(avoid)
    pool = [k for k, d in designs().items() if not d.start for _ in range(d.copies)]
    rng.shuffle(pool)
    out: list[str] = []
    for k in pool:
        if len(out) == n:
            break
        if used[k] < design(k).copies:
            out.append(k)
            used[k] += 1
    if len(out) < n:
        raise Redraw
    return out


def table_state(tableau: tuple[str, ...], hand: tuple[str, ...], seats: int, **extra: Any) -> State:
    """Your tableau and hand (design keys); every rival gets a different start world and no cards.

    Raises:
        Redraw: a design is named more times than it has copies.
    """
    ids = physical([*tableau, *hand])
    rivals = [k for k in STARTS if k not in tableau]
    tableaus = {0: ids[: len(tableau)], **{i: physical([rivals[i - 1]]) for i in range(1, seats)}}
    return position(seats, hands={0: ids[len(tableau) :]}, tableau=tableaus, seed=len(hand) + 3, **extra)


# --------------------------------------------------------------------------- playing a round

Steer = Callable[[int, list[str]], "str | None"]
"""Picks ``seat``'s move among its legal moves (text forms), or ``None`` for the plain default."""


@dataclass
class RoundLog:
    """What happened in a round the driver played: every move, by seat, with the step it was made in,
    and the public events.

    The step is the first word of the engine's prompt for it (``"Desarrollar"``, ``"Asentar"``...).
    """

    moves: list[tuple[int, str, str]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)

    def phases(self) -> list[str]:
        """The phases the engine announced for the round, in the order they run."""
        for text in self.events:
            if "phases this round: " in text:
                return [p.strip() for p in text.split("phases this round: ", 1)[1].split(",")]
        return []

    def count(self, seat: int, verb: str, step: str = "") -> int:
        """How many moves of ``seat`` start with ``verb`` (``"pay"``, ``"keep"``...), in ``step`` if given."""
        return sum(1 for s, m, at in self.moves if s == seat and m.split()[0] == verb and step in ("", at))


def default_move(moves: list[str]) -> str:
    """The plain policy: place nothing, finish, decline; else the first listed move."""
    for quiet in ("place none", "done"):
        if quiet in moves:
            return quiet
    return moves[0]


def play_round(
    state: State, actions: Mapping[int, str], steer: Steer | None = None, *, stop: Callable[[], bool] | None = None
) -> RoundLog:
    """Choose ``actions`` (seat -> action card code) and play until the next round (or ``stop()``).

    Raises:
        Redraw: the engine refuses a move, or the round does not end within its move budget.
    """
    log = RoundLog()
    start = state.round
    game = engine()
    try:
        for seat, code in sorted(actions.items()):
            log.events += [
                e.text for e in game.apply(state, seat, game.parse_move(f"action {code}")) if e.audience is None
            ]
        for _ in range(400):
            pending = game.pending(state)
            if pending.kind == "over" or state.round != start or (stop is not None and stop()):
                return log
            seat = pending.seats[0]
            moves = [m.text() for m in game.legal_moves(state, seat)]
            pick = (steer(seat, moves) if steer else None) or default_move(moves)
            log.events += [e.text for e in game.apply(state, seat, game.parse_move(pick)) if e.audience is None]
            log.moves.append((seat, pick, pending.prompt.split(":", 1)[0]))
    except IllegalMove:
        raise Redraw from None
    raise Redraw


def view_of(state: State, seat: int | None = None) -> dict[str, Any]:
    """Return the engine's view (``None``: the public one)."""
    return dict(engine().view(state, seat))


def player(state: State, seat: int) -> dict[str, Any]:
    """Return ``seat``'s public entry of the view (chips, hand size, goods, tableau)."""
    return dict(view_of(state)["players"][seat])


def choice_words(code: str) -> str:
    """How a prompt says an action card was chosen: ``"Desarrollar"``, ``"Consumir: Comercio"``."""
    return CARD_WORDS.get(code, PHASE_OF[code])
