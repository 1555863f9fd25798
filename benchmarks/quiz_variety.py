"""Quiz variety and the rehearsal attacks at full size, printed as figures per game.

Run: ``python benchmarks/quiz_variety.py`` (every game, the sizes issue 10 asks for) or e.g.
``python benchmarks/quiz_variety.py --games se-vende --draws 1000 --seeds 200``.

For each game it prints:

* distinct prompts per entry generator over ``--seeds`` seeds (floor: 150 in 1,000 for Se Vende,
  50 for the other games; a generator under its floor is marked ``LOW``);
* distinct entry papers (and distinct prompts) in ``--draws`` draws of the quiz service's entry pool
  (floor: 99 % of the draws);
* the harvest attack: ``--harvest`` practice answers harvested, then ``--papers`` entry papers taken
  with the harvested answers and shrewd guesses (floor: at most 1 % of papers pass);
* the verbatim attack: ``--verbatim-papers`` entry papers answered by grepping the rulebook for the
  one verbatim option (at most 1 % may pass).

The slow tests (tests/quizzes) hold the same floors at smaller sizes; this script measures them at
full size. Everything is seeded, so the figures are the same on every run. Exit status 1 if a
figure is under its floor.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

# This file's folder would shadow packages of the same name when run as a script: drop it from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import club_agentes.quizzes.generators  # noqa: E402,F401  (registers every game's generators)
from club_agentes.engine.core.rng import Rng  # noqa: E402
from club_agentes.quizzes.bank import Bank, default_bank, verbatim_options  # noqa: E402
from club_agentes.quizzes.grading import display_answer  # noqa: E402
from club_agentes.quizzes.harness import QuizService, prompt_key  # noqa: E402
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Item  # noqa: E402
from club_agentes.quizzes.store import MemoryQuizStore  # noqa: E402
from club_agentes.rules_corpus import GAME_IDS, load_corpus  # noqa: E402

VARIANT_FLOOR = {"se-vende": 150, "market-fortune": 50, "yo-soy-el-jefe": 50}
"""Distinct prompts each entry generator must reach over 1,000 seeds (scaled to ``--seeds``)."""


class NoLimit:
    """A limiter that never refuses (the attacks are measured, not throttled)."""

    def take(self, kind: str, subject: str) -> None:
        return None


def service(bank: Bank, seed: int) -> QuizService:
    """A quiz service over ``bank`` with a memory store, no rate limit and a seeded Rng."""
    return QuizService(bank, MemoryQuizStore(), secret=b"k" * 32, limiter=NoLimit(), rng=Rng(seed))


def guess(item: Item, terms: tuple[str, ...], rng: Rng) -> str:
    """A shrewd guess: a random letter or term, or a number the prompt names (else a small one)."""
    if item.type == "choice":
        return rng.choice(CHOICE_LETTERS[: len(item.options)])
    if item.type == "term":
        return rng.choice(terms)
    numbers = [int(n) for n in re.findall(r"\d+", item.prompt) if len(n) < 6]
    return str(rng.choice(numbers)) if numbers and rng.below(2) == 0 else str(1 + rng.below(10))


def take_papers(svc: QuizService, game: str, papers: int, answer: Callable[[Item, tuple[str, ...]], str]) -> int:
    """Take ``papers`` entry papers (one fresh agent each) answered by ``answer``; return how many passed."""
    passes = 0
    for n in range(papers):
        agent = f"attacker-{n}"
        paper = svc.start_quiz(game, agent)
        attempt = svc.store.load_attempt(paper.quiz_id)
        if attempt is None:
            raise RuntimeError(f"the store lost attempt {paper.quiz_id}")
        shown = svc.presented_items(attempt)
        answers = {p.key: answer(item, p.terms) for p, item in zip(paper.items, shown, strict=True)}
        if svc.submit_quiz(paper.quiz_id, answers, agent=agent).passed:
            passes += 1
    return passes


def generator_variety(game: str, seeds: int) -> tuple[list[tuple[str, str, int]], int]:
    """Return (kind, name, distinct prompts over ``seeds`` seeds) per entry generator, and the scaled floor."""
    floor = VARIANT_FLOOR[game] * seeds // 1000
    gens = sorted((g for g in GENERATORS.values() if g.game == game and g.entry), key=lambda g: (g.kind, g.name))
    return [(g.kind, g.name, len({g.make(seed).prompt for seed in range(seeds)})) for g in gens], floor


def distinct_papers(bank: Bank, game: str, draws: int) -> tuple[int, int]:
    """Return (distinct entry papers, distinct prompts) in ``draws`` draws of the entry pool."""
    svc = service(bank, 10_000)
    papers: set[frozenset[str]] = set()
    prompts: set[str] = set()
    for _ in range(draws):
        keys = frozenset(prompt_key(it.prompt) for _, it in svc.draw_entry(game))
        papers.add(keys)
        prompts |= keys
    return len(papers), len(prompts)


def harvest_attack(bank: Bank, game: str, harvested: int, papers: int) -> tuple[int, int, int]:
    """Harvest practice answers, then take entry papers with them.

    Returns (distinct practice prompts harvested, entry items among them, papers passed).
    """
    svc = service(bank, 2026)
    rng = Rng(7)
    harvest: dict[str, tuple[Item, str]] = {}
    for _ in range(harvested):
        paper = svc.practice_question(game, agent="harvester")
        (p,) = paper.items
        result = svc.submit_quiz(paper.quiz_id, {"p1": "no lo sé"}, agent="harvester")
        attempt = svc.store.load_attempt(paper.quiz_id)
        if attempt is None:
            raise RuntimeError(f"the store lost attempt {paper.quiz_id}")
        (item,) = svc.presented_items(attempt)
        harvest[prompt_key(p.prompt)] = (item, result.items[0].answer or display_answer(item))
    reused = 0

    def answer(item: Item, terms: tuple[str, ...]) -> str:
        nonlocal reused
        seen = harvest.get(prompt_key(item.prompt))
        if seen is None:
            return guess(item, terms, rng)
        reused += 1
        old, shown = seen
        if old.type == "choice":  # the letters were shuffled again: answer with the harvested option's text
            return shown.split(") ", 1)[1]
        return shown

    passes = take_papers(svc, game, papers, answer)
    return len(harvest), reused, passes


def verbatim_attack(bank: Bank, game: str, papers: int) -> tuple[int, int]:
    """Take entry papers answering each choice item with its one verbatim option, if it has exactly one.

    Returns (choice items with exactly one verbatim option, papers passed).
    """
    svc = service(bank, 99)
    rng = Rng(11)
    rulebook = "\n".join(s.text for s in load_corpus().toc(game) if s.kind == "rulebook")
    telling = 0

    def answer(item: Item, terms: tuple[str, ...]) -> str:
        nonlocal telling
        if item.type == "choice":
            found = verbatim_options(item, rulebook)
            if len(found) == 1:
                telling += 1
                return found[0]
        return guess(item, terms, rng)

    return telling, take_papers(svc, game, papers, answer)


def main(argv: list[str] | None = None) -> int:
    """Print the figures; return 1 if one is under its floor, 0 otherwise."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=GAME_IDS, default=list(GAME_IDS), metavar="GAME")
    parser.add_argument("--seeds", type=int, default=1000, help="seeds per entry generator (default 1000)")
    parser.add_argument("--draws", type=int, default=10_000, help="entry paper draws (default 10000)")
    parser.add_argument("--harvest", type=int, default=2000, help="practice answers harvested (default 2000)")
    parser.add_argument("--papers", type=int, default=200, help="entry papers taken after the harvest (default 200)")
    parser.add_argument("--verbatim-papers", type=int, default=200, help="papers of the verbatim attack (default 200)")
    args = parser.parse_args(argv)
    for name in ("seeds", "draws", "harvest", "papers", "verbatim_papers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be a positive number")
    bank = default_bank()
    ok = True
    for game in args.games:
        print(f"== {game}")
        t = time.perf_counter()
        figures, floor = generator_variety(game, args.seeds)
        for kind, name, n in sorted(figures, key=lambda f: f[2]):
            low = n < floor
            ok &= not low
            print(f"  {kind:8s} {name:36s} {n:5d} distinct prompts in {args.seeds} seeds{'  LOW' if low else ''}")
        print(f"  (floor {floor}; {time.perf_counter() - t:.1f} s)")
        t = time.perf_counter()
        papers, prompts = distinct_papers(bank, game, args.draws)
        ok &= papers >= args.draws * 99 // 100
        print(
            f"  {papers} distinct entry papers and {prompts} distinct prompts in {args.draws} draws "
            f"(floor {args.draws * 99 // 100}; {time.perf_counter() - t:.1f} s)"
        )
        t = time.perf_counter()
        harvested, reused, passes = harvest_attack(bank, game, args.harvest, args.papers)
        ok &= passes <= args.papers // 100
        print(
            f"  harvest: {harvested} distinct practice prompts in {args.harvest} harvested; {reused} entry items "
            f"were among them; {passes} of {args.papers} papers passed (at most {args.papers // 100}; "
            f"{time.perf_counter() - t:.1f} s)"
        )
        t = time.perf_counter()
        telling, passes = verbatim_attack(bank, game, args.verbatim_papers)
        ok &= passes <= args.verbatim_papers // 100
        print(
            f"  verbatim: {telling} choice items had exactly one verbatim option; {passes} of "
            f"{args.verbatim_papers} papers passed (at most {args.verbatim_papers // 100}; "
            f"{time.perf_counter() - t:.1f} s)"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
