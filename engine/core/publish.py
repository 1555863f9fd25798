"""What every game's ``publish.py`` shares: the corpus file it generates and the command that writes it.

A game's component data is the single source of truth; its ``publish.py`` renders the texts the rules
corpus serves (``rules_corpus/data/<game>/authored/<file>``) and declares a :class:`CorpusFile`, whose
:meth:`~CorpusFile.main` is the module's command::

    python -m club_agentes.engine.<game>.publish          # rewrite the corpus file
    python -m club_agentes.engine.<game>.publish --check  # exit 1 if it is out of date

A test of each game checks that the committed file equals what the game renders.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CORPUS_DATA = Path(__file__).resolve().parents[2] / "rules_corpus" / "data"
"""The corpus's data folder: ``rules_corpus/`` beside ``engine/``, in a checkout as in an install."""


@dataclass(frozen=True)
class CorpusFile:
    """One corpus file a game generates from its data.

    Attributes:
        game: the game id (the corpus folder), e.g. ``"se-vende"``.
        name: the file's name in the game's ``authored/`` folder, e.g. ``"cards.toml"``.
        render: returns the file's whole text.
        module: the module that generates it, named in the command an out-of-date check asks to run.
    """

    game: str
    name: str
    render: Callable[[], str]
    module: str

    @property
    def path(self) -> Path:
        """The file's path: ``rules_corpus/data/<game>/authored/<name>``."""
        return CORPUS_DATA / self.game / "authored" / self.name

    def main(self, argv: list[str] | None = None) -> int:
        """Write the file (or with ``--check`` only compare it); return the exit status, 1 when it is out of date.

        Raises:
            OSError: the file cannot be read or written.
            SystemExit: the arguments are not understood (argparse's usage message).
        """
        parser = argparse.ArgumentParser(
            prog=f"python -m {self.module}", description=f"Generate the corpus file {self.game}/authored/{self.name}."
        )
        parser.add_argument("--check", action="store_true", help="do not write; exit 1 if the file is out of date")
        args = parser.parse_args(argv)
        text = self.render()
        path = self.path
        if args.check:
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if current != text:
                print(f"{path} is out of date; run python -m {self.module}", file=sys.stderr)
                return 1
            print(f"{path} is up to date")
            return 0
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
        return 0
