"""What `cardc fuzz` plays: a ruleset's compiled pool (built into a temporary copy when needed) and the
target a PATH names (a ruleset folder, a card file, a deck file), with the cards each player's decks
are drawn from under the ruleset's deck rules (tools/deckgen.py). Used by tools/fuzzing.py and
tools/replay.py.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runtime.engine import Game
from tools.deckgen import Candidates, candidates, why_not_in_a_deck
from tools.deckgen import problem as deck_problem


class UsageError(Exception):
    """The command was given something it cannot fuzz or replay (exit code 2)."""



# ---------------------------------------------------------------- loading a ruleset's pool


@dataclass
class Pool:
    """A compiled ruleset: its Game, deckable cards and deck files, and how it was built."""

    ruleset: str
    game: Game
    cards: list[str]
    decks: dict[str, list[str]]
    extra: dict | None = None  # {"file", "text"}: a card file added to a copy of the pool
    built: str = "generated/"
    tmp: Any = field(default=None, repr=False)
    options: dict[str, str] = field(default_factory=dict)  # ruleset options the games are played under

    def close(self) -> None:
        if self.tmp is not None:
            self.tmp.cleanup()
            self.tmp = None


def _generated_modules() -> list[str]:
    return [k for k in sys.modules if k == "generated" or k.startswith("generated.")]


@contextmanager
def _generated_from(root: Path) -> Iterator[None]:
    """Import `generated` from root (first on sys.path, no bytecode written), then put back
    whatever generated modules were loaded before."""
    saved = {k: sys.modules.pop(k) for k in _generated_modules()}
    sys.path.insert(0, str(root))
    writes = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.dont_write_bytecode = writes
        sys.path.remove(str(root))
        for k in _generated_modules():
            del sys.modules[k]
        sys.modules.update(saved)


def _import_game(root: Path, ruleset: str) -> Game:
    from runtime.load import load_game

    with _generated_from(root):
        return load_game(ruleset)


def _same_tree(a: Path, b: Path) -> bool:
    """Return whether two folders hold the same .py files with the same bytes."""
    def files(p: Path) -> dict[str, bytes]:
        return {f.relative_to(p).as_posix(): f.read_bytes() for f in sorted(p.rglob("*.py"))} if p.is_dir() else {}
    return files(a) == files(b)


def card_file_name_problem(name: object) -> str | None:
    """Return why a name cannot be an extra card file written into a ruleset folder's copy (None if it can)."""
    from compiler.replay_files import card_file_problem

    return card_file_problem(name)


def _write_extra(folder: Path, extra: object) -> None:
    """Write an extra card file ({"file", "text"}) into the copy of a ruleset folder, and nowhere else."""
    if not isinstance(extra, dict) or not isinstance(extra.get("text"), str):
        raise UsageError('the extra card file is not {"file": "NAME.card", "text": "..."}')
    problem = card_file_name_problem(extra.get("file"))
    target = folder / str(extra.get("file"))
    if problem is not None or target.parent != folder:
        raise UsageError(problem or f"{target} is not inside {folder}")
    target.write_text(extra["text"], encoding="utf-8")


def load_pool(root: Path, ruleset: str, extra: dict | None = None, options: dict[str, str] | None = None) -> Pool:
    """Return the compiled pool of a ruleset. The ruleset folder (plus an extra card file, if
    given) is built into a temporary copy of the project, starting from root's generated/ so only
    what changed is rendered; the game is loaded from root's generated/ when that is identical
    (so the project's committed code is what gets fuzzed), else from the copy. Nothing is ever
    written into root."""
    from compiler.build import build
    from compiler.diagnostics import CompileError
    from compiler.sheets import deck_rules, load_deck

    if not isinstance(ruleset, str) or ruleset in ("", ".", "..") or Path(ruleset).name != ruleset:
        raise UsageError(f"{json.dumps(ruleset)} is not the name of a folder of {root / 'cards'}")  # a path
    folder = root / "cards" / ruleset
    if not folder.is_dir():
        raise UsageError(f"there is no ruleset folder {folder}")
    holder = tempfile.TemporaryDirectory(prefix="cardc-fuzz-")
    tmp: tempfile.TemporaryDirectory | None = holder
    copy = Path(holder.name)
    try:
        shutil.copytree(folder, copy / "cards" / ruleset)
        if (root / "generated").is_dir():
            shutil.copytree(root / "generated", copy / "generated", ignore=shutil.ignore_patterns("__pycache__"))
            for other in (copy / "generated").iterdir():  # only this ruleset is rebuilt in the copy
                if other.is_dir() and other.name != ruleset:
                    shutil.rmtree(other)
        if extra is not None:
            _write_extra(copy / "cards" / ruleset, extra)
        build(copy)
        if extra is None and _same_tree(copy / "generated" / ruleset, root / "generated" / ruleset):
            game, built = _import_game(root, ruleset), "generated/"
            holder.cleanup()
            tmp = None
        else:
            reason = "with the extra card file" if extra is not None else "generated/ is stale"
            game, built = _import_game(copy, ruleset), f"a temporary copy of the project ({reason})"
    except BaseException:
        holder.cleanup()
        raise
    try:
        game = game.with_options(options) if options else game
    except ValueError as err:
        raise UsageError(str(err)) from None
    cards = sorted(name for name, c in game.cards.items() if not c.token)
    decks: dict[str, list[str]] = {}
    for path in sorted((folder / "decks").glob("*.deck")):
        try:
            deck = load_deck(path, deck_rules(game))
        except (CompileError, OSError):
            continue  # a broken deck file is not a deck to play; `cardc play` reports it
        if not game.check_deck(deck):  # decks of another rules version are not played
            decks[path.stem] = deck
    return Pool(ruleset, game, cards, decks, extra, built, tmp, dict(options or {}))


# ---------------------------------------------------------------- what to fuzz


@dataclass
class Target:
    """What a campaign plays: a whole pool, games around some cards, or one deck."""

    pool: Pool
    mode: str  # 'ruleset', 'cards' or 'deck'
    label: str
    focus: list[str] = field(default_factory=list)  # 'cards': the cards every deck includes
    deck: list[str] = field(default_factory=list)  # 'deck': the deck under test
    left_out: dict[str, str] = field(default_factory=dict)  # 'cards': why a card of the file is in no deck

    @property
    def teams(self) -> bool:
        """Whether its games are battles of random teams, not decks: a ruleset with table rules, unless a deck
        file is under test (it plays as it is written)."""
        return self.mode != "deck" and self.pool.game.ruleset.table_rules is not None

    def describe(self) -> str:
        if self.teams:
            kind = self.pool.game.ruleset.actor_turns[0]
            return f"random teams of the {kind}s and tables of a pool of {len(self.pool.cards)} cards"
        if self.mode == "cards":
            reasons = sorted(set(self.left_out.values()))
            note = "".join(f"; left out, as {why.replace('it ', 'each ', 1)}: "
                           + ", ".join(f"'{x}'" for x in sorted(self.left_out) if self.left_out[x] == why)
                           for why in reasons)
            return f"decks mixing {len(self.focus)} card(s) with a pool of {len(self.pool.cards)}{note}"
        if self.mode == "deck":
            others = sum(1 for d in self.pool.decks.values() if d != self.deck)
            return f"this deck against {others} other deck file(s) and random decks"
        return f"random decks from a pool of {len(self.pool.cards)} cards"


def project_ruleset(root: Path, path: Path) -> str | None:
    """Return the ruleset whose folder holds path (a card file or decks/ file) in root, if any."""
    cards = (root / "cards").resolve()
    for parent in path.resolve().parents:
        if parent.parent == cards:
            return parent.name
    return None


def _only_ruleset(root: Path, given: str | None, path: Path) -> str:
    if given:
        return given
    folders = sorted(p.name for p in (root / "cards").iterdir() if p.is_dir()) if (root / "cards").is_dir() else []
    if len(folders) != 1:
        raise UsageError(f"{path} is not in a ruleset folder of {root / 'cards'}; say which ruleset with --ruleset "
                         f"(found: {', '.join(folders) or 'none'})")
    return folders[0]


def resolve_target(root: Path, path: Path, ruleset: str | None = None, options: dict[str, str] | None = None) -> Target:
    """Return what PATH asks to fuzz: a ruleset folder, a card file or a deck file."""
    from compiler import nodes as n
    from compiler.build import SAFE_NAME, read_source
    from compiler.diagnostics import CompileError
    from compiler.parser import parse
    from compiler.sheets import deck_rules, load_deck

    if not path.exists():
        raise UsageError(f"{path} does not exist")
    if path.is_dir():
        if path.resolve().parent != (root / "cards").resolve():
            if path.resolve().parent.name != "cards":
                raise UsageError(f"{path} is not a ruleset folder (cards/<ruleset>/)")
            root = path.resolve().parent.parent  # a folder of another project
        return _checked(Target(load_pool(root, path.resolve().name, options=options), "ruleset", str(path)))
    if path.suffix == ".card":
        inside = project_ruleset(root, path)
        text = read_source(path, str(path))
        f = parse(text, str(path))
        focus = sorted(i.name for i in f.items if isinstance(i, n.Card)
                       and not any(isinstance(p, n.TokenDecl) for p in i.parts))
        extra = None
        if inside is None:
            stem = re.sub(r"[^a-z0-9_]", "_", path.stem.lower())
            stem = stem if SAFE_NAME.match(stem) else f"cards_{stem}"
            extra = {"file": f"fuzz_{stem}.card", "text": text}
        pool = load_pool(root, inside or _only_ruleset(root, ruleset, path), extra, options)
        return _checked(_around_cards(pool, str(path), focus))
    if path.suffix == ".deck":
        inside = project_ruleset(root, path)
        pool = load_pool(root, inside or _only_ruleset(root, ruleset, path), options=options)
        try:
            deck = load_deck(path, deck_rules(pool.game))
        except CompileError as err:
            pool.close()
            source = path.read_text(encoding="utf-8", errors="replace")
            raise UsageError("\n".join(d.render(source) for d in err.diagnostics)) from None
        problems = pool.game.check_deck(deck)
        if problems:
            pool.close()
            raise UsageError(f"{path} is not a legal deck under these rules{_under(pool)}: {'; '.join(problems)}")
        return _checked(Target(pool, "deck", str(path), deck=deck))
    raise UsageError(f"{path}: expected a ruleset folder, a .card file or a .deck file")


def _under(pool: Pool) -> str:
    """Return ' (option version = v2, ...)': the options a pool's games are played under, if any."""
    chosen = sorted(pool.game.options.items())
    return f" ({', '.join(f'option {k} = {v}' for k, v in chosen)})" if chosen else ""


def _around_cards(pool: Pool, label: str, focus: list[str]) -> Target:
    """Return the target of a card file's cards: the ones that may be in a deck, the others left out
    with the reason; a file whose cards can never be in a deck is a UsageError."""
    left_out = {name: why for name in focus if (why := why_not_in_a_deck(pool.game, name)) is not None}
    if focus and len(left_out) == len(focus):
        pool.close()
        reasons = "; ".join(f"'{name}': {why}" for name, why in sorted(left_out.items()))
        raise UsageError(f"{label}: no card of this file can be in a deck under these rules{_under(pool)} "
                         f"({reasons})")
    kept = [name for name in focus if name not in left_out]
    return Target(pool, "cards" if kept else "ruleset", label, focus=kept, left_out=left_out)


def _checked(target: Target) -> Target:
    """Return target, or raise UsageError when its pool cannot fill a legal deck under its rules."""
    for cands in deck_choices(target, target.pool.game.ruleset.players):
        why = None if cands is None else deck_problem(target.pool.game, cands)
        if why is not None:
            target.pool.close()
            raise UsageError(f"{target.label}: no legal deck can be built from ruleset "
                             f"'{target.pool.ruleset}'{_under(target.pool)}: {why}")
    return target


def deck_choices(target: Target, players: int) -> list[Candidates | None]:
    """Return, per player, the cards a deck may be drawn from (focus cards first), or None for a deck the
    shrinker keeps as it was (a deck-file target's deck; every team); a game's decks are encoded as indices
    into what each position still allows (tools/deckgen.py)."""
    game = target.pool.game
    if target.teams:
        return [None] * players
    if target.mode == "cards":
        return [candidates(game, target.focus + [c for c in target.pool.cards if c not in target.focus])] * players
    if target.mode == "deck":
        return [None] + [candidates(game, target.pool.cards)] * (players - 1)
    return [candidates(game, target.pool.cards)] * players
