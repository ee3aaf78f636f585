"""The synthetic card pool the build benchmarks compile: copies of the real card files with renamed cards.

`synthetic_pool(target, size)` writes a project under `target` (cards/<ruleset>/...) holding every real card
file and, per ruleset, renamed copies of its card-only files until the ruleset holds about size / 5 cards.
A copy renames every card the file defines ("Wickwing Moth" -> "Wickwing Moth Copy Bc") wherever the file
quotes the name, so the copies are real, valid cards that differ from the originals and from each other.
The pool depends only on the real card files and `size`: the same pool every run.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARD = re.compile(r'^card "([^"]+)"', re.M)
ITEM = re.compile(r"^([a-z]+)\b", re.M)


def _letters(k: int) -> str:
    """Return a copy's suffix word: 'Ba', 'Bb', ... (letters only, so names stay valid class names)."""
    word = ""
    k += 26  # two letters at least
    while k:
        k, r = divmod(k, 26)
        word = chr(ord("a") + r) + word
    return word.capitalize()


def _card_only(path: Path) -> list[str]:
    """Return the card names of a file whose every top-level item is a card ([] otherwise)."""
    text = path.read_text(encoding="utf-8")
    return CARD.findall(text) if set(ITEM.findall(text)) == {"card"} else []


def _renamed(text: str, names: list[str], k: int) -> str:
    """Return a card file's text with each of its card names given copy k's suffix wherever it is quoted."""
    suffix = f" Copy {_letters(k)}"
    pattern = re.compile("|".join(re.escape(f'"{name}"') for name in sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: m.group(0)[:-1] + suffix + '"', text)


def synthetic_pool(target: Path, size: int = 10_000, cards: Path = ROOT / "cards") -> int:
    """Write the synthetic project under `target`; return how many cards it holds."""
    shutil.copytree(cards, target / "cards", ignore=shutil.ignore_patterns("decks", "parties", "teams", "*.md"))
    folders = sorted(p for p in (target / "cards").iterdir() if p.is_dir())
    total = 0
    for folder in folders:
        sources = [(p, names) for p in sorted(folder.glob("*.card")) if (names := _card_only(p))]
        count = sum(len(CARD.findall(p.read_text(encoding="utf-8"))) for p in folder.glob("*.card"))
        k = 0
        while sources and count < size // len(folders):
            path, names = sources[k % len(sources)]
            copy = folder / f"{path.stem}_copy{k // len(sources):03d}.card"
            copy.write_text(_renamed(path.read_text(encoding="utf-8"), names, k // len(sources)), encoding="utf-8")
            count, k = count + len(names), k + 1
        total += count
    return total


def timed_in_child(command: str, root: Path) -> float:
    """Return the seconds one command ('build' or 'check') takes in a fresh process, imports excluded."""
    done = subprocess.run([sys.executable, "-m", "benchmarks.pool", command, str(root)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def _run(command: str, root: Path) -> float:
    """Return the seconds of one build (or check, exit status ignored) of the project at root."""
    from compiler.build import build
    from tools.cli import main

    start = time.perf_counter()
    if command == "build":
        build(root)
    else:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(["--root", str(root), "check"])
    return time.perf_counter() - start


def bench_pool(size: int = 10_000) -> dict[str, float]:
    """Return seconds for a cold build, a no-op rebuild, a one-card edit and `cardc check` of the pool."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cards = synthetic_pool(root, size)
        cold = timed_in_child("build", root)
        noop = min(timed_in_child("build", root) for _ in range(3))
        card = root / "cards" / "simple_duel" / "creatures_copy000.card"
        card.write_text(card.read_text(encoding="utf-8").replace("stats power 1,", "stats power 2,", 1),
                        encoding="utf-8")
        one = timed_in_child("build", root)
        check = timed_in_child("check", root)
    return {"cards in the pool": cards, "cold build (s)": cold, "no-op rebuild (s)": noop,
            "one-card edit, rebuild (s)": one, "cardc check (s)": check}


if __name__ == "__main__":
    print(f"{_run(sys.argv[1], Path(sys.argv[2])):.6f}")
