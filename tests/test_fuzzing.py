"""Fuzz testing as a tool: generated cards validate, round-trip, compile and play; `cardc fuzz`
finds nothing in Simple Duel, finds, shrinks and saves a broken invariant, and `cardc replay`
replays it; and no input at all makes the front end raise anything but located errors.

CI-sized: the 'ci' profile (tests/conftest.py) runs 100 examples per property, fewer where a
property builds or plays; CARDC_PROFILE=long runs 50 times as many. Every build happens in a
temporary copy of the project, never in the repository's generated/.
"""

from __future__ import annotations

import importlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from compiler import gen
from compiler import nodes as n
from compiler.build import build, read_source
from compiler.check import validate
from compiler.diagnostics import CompileError
from compiler.fmt import format_file
from compiler.parser import parse
from compiler.symbols import collect
from runtime import invariants
from runtime.agents import RandomAgent
from tests.conftest import ROOT
from tools import fuzz_targets, fuzzing
from tools.cli import main
from tools.scenario_runs import run_paths

FOLDER = ROOT / "cards" / "simple_duel"
SOURCES = {p.name: p.read_bytes() for p in sorted(FOLDER.glob("*.card"))}
FILES = {name: parse(data.decode("utf-8"), f"cards/simple_duel/{name}") for name, data in SOURCES.items()}
SYM = collect(list(FILES.values()))
SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _scaled(ci: int) -> int:
    """Return a budget of `ci` examples, 50 times more under the long profile."""
    return ci * 50 if settings.default.max_examples > 100 else ci


# ---------------------------------------------------------------- generated cards


@given(gen.valid_cards(SYM))
def test_generated_cards_validate_and_round_trip(card):
    f = n.File(n.NOWHERE, "cards/simple_duel/fuzz_generated.card", (card,))
    assert validate([f], SYM) == []
    text = format_file(f)
    again = parse(text, f.path)
    assert again == f, text
    assert validate([again], SYM) == [], text  # also with real locations


@settings(SLOW, max_examples=_scaled(25))
@given(gen.card_file(SYM, max_cards=3))
def test_generated_card_files_validate_next_to_the_whole_pool(f):
    files = list(FILES.values()) + [f]
    assert validate(files, collect(files)) == []


@settings(SLOW, max_examples=_scaled(25))
@given(gen.decks(gen.deckable(SYM), 30, include=["Flare Needle"]), gen.choices(),
       st.integers(0, 10))
def test_decks_and_choices_make_legal_games(simple_duel, deck, choices, i):
    assert simple_duel.check_deck(deck) == [] and "Flare Needle" in deck
    assert 0 <= gen.pick(choices, i, 3) < 3
    assert gen.pick([], i, 3) == 0


@contextmanager
def generated_from(root: Path):
    """Import `generated` from root: its modules cleared from sys.modules before and after, root
    first on sys.path; the modules loaded before are put back afterwards."""
    saved = {k: sys.modules.pop(k) for k in list(sys.modules) if k == "generated" or k.startswith("generated.")}
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(str(root))
        for k in [k for k in sys.modules if k == "generated" or k.startswith("generated.")]:
            del sys.modules[k]
        sys.modules.update(saved)


# Each example builds (black) and plays: no shrinking, the failing file is printed whole instead.
@settings(SLOW, max_examples=_scaled(4), phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(gen.card_file(SYM, min_cards=2, max_cards=3), st.integers(0, 2**32 - 1))
def test_generated_cards_compile_import_and_play(built_snapshot, f, seed):
    from runtime.engine import Game

    with tempfile.TemporaryDirectory(prefix="cardc-test-fuzz-") as tmp:
        root = Path(tmp)
        shutil.copytree(built_snapshot / "cards", root / "cards")
        shutil.copytree(built_snapshot / "generated", root / "generated")
        text = format_file(f)
        (root / "cards" / "simple_duel" / "fuzz_generated.card").write_text(text, encoding="utf-8")
        try:
            build(root)
        except CompileError as err:
            raise AssertionError(f"a generated card file does not compile:\n{text}\n{err}") from None
        with generated_from(root):
            module = importlib.import_module("generated.simple_duel")
            assert Path(module.__file__).resolve().is_relative_to(root.resolve())
            emitted = importlib.import_module("generated.simple_duel.fuzz_generated")  # the cards' module
            assert Path(emitted.__file__).resolve().is_relative_to(root.resolve())
            game = Game(module.RULESET, module.CARDS, module.KEYWORDS, module.STATUSES)
        names = [c.name for c in f.items]
        assert all(name in game.cards for name in names)
        pool = fuzz_targets.Pool("simple_duel", game, sorted(x for x, c in game.cards.items() if not c.token), {})
        target = fuzz_targets.Target(pool, "cards", "generated", focus=names)
        rng = random.Random(seed)
        for _ in range(3):
            game_seed, decks = fuzzing.random_inputs(target, rng)
            assert any(name in deck for deck in decks for name in names)
            agents = [RandomAgent(game_seed + p) for p in range(2)]
            run = fuzzing.play_checked(
                game, decks, game_seed,
                lambda s, acts, agents=agents: acts.index(agents[s.decision["player"]].choose(s, acts)))
            assert run.violation is None, f"{format_file(f)}\n{run.violation}"
            assert run.finished  # it ended, and every end-of-game check passed


# ---------------------------------------------------------------- cardc fuzz and cardc replay


def _tree(path: Path) -> dict[str, tuple[bytes, int]]:
    return {p.relative_to(path).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(path.rglob("*")) if p.is_file()}


def test_fuzz_finds_nothing_in_simple_duel(tmp_path, capsys):
    before = _tree(ROOT / "generated")
    out = tmp_path / "replay.json"
    assert main(["--root", str(ROOT), "fuzz", str(FOLDER), "--games", "6", "--seed", "1", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "no violation in 6 games" in captured.out
    assert "[#" not in captured.err and "\r" not in captured.err  # stderr not a terminal: no progress bar
    assert not out.exists()
    for path in (FOLDER / "spells.card", FOLDER / "decks" / "aggro.deck"):
        assert main(["--root", str(ROOT), "fuzz", str(path), "--games", "3", "--seed", "2", "--out", str(out)]) == 0
    assert not out.exists()
    assert _tree(ROOT / "generated") == before  # fuzz never writes into the repository's generated/


def test_fuzz_card_file_outside_the_project_builds_a_copy(tmp_path, capsys):
    card = tmp_path / "sprouts.card"
    card.write_text('card "Fuzz Test Sprout" {\n    kind creature\n    cost 1 mana\n    stats power 3, speed 2\n'
                    '    when this enters the field: you gain 1 life and put 1 Braced on this.\n}\n', encoding="utf-8")
    before = _tree(ROOT / "generated")
    out = tmp_path / "replay.json"
    assert main(["--root", str(ROOT), "fuzz", str(card), "--ruleset", "simple_duel", "--games", "3", "--seed", "3", "--out", str(out)]) == 0
    assert "temporary copy" in capsys.readouterr().err
    assert _tree(ROOT / "generated") == before


def test_broken_invariant_is_found_shrunk_and_replayed(monkeypatch, tmp_path, capsys):
    real = invariants.violations
    after = 6
    monkeypatch.setattr(invariants, "violations", lambda s: real(s) + (
        [f"fake violation: {after} actions taken"] if s.actions_taken >= after else []))
    out = tmp_path / "found.replay.json"
    code = main(["--root", str(ROOT), "fuzz", str(FOLDER), "--games", "5", "--seed", "7", "--out", str(out),
                 "--shrink-seconds", "20"])
    assert code == 1
    printed = capsys.readouterr()
    assert "violation found in game 1 of 5" in printed.out and str(out) in printed.out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == fuzzing.FORMAT and data["ruleset"] == "simple_duel"
    assert data["violation"].endswith(f"fake violation: {after} actions taken")
    assert len(data["choices"]) == after and all(len(pair) == 2 for pair in data["choices"])
    assert data["log"] and len(data["decks"]) == 2 and all(len(d) == 30 for d in data["decks"])
    original = data["shrink"]["original"]
    assert data["shrink"]["tries"] > 0
    assert len(data["choice_indices"]) < len(original["choice_indices"])  # shrunk toward the first actions
    assert data["seed"] <= original["seed"]

    assert main(["--root", str(ROOT), "replay", str(out)]) == 1
    printed = capsys.readouterr()
    assert data["log"][0] in printed.out and data["log"][-1] in printed.out
    assert f"violation: {data['violation']}" in printed.out

    monkeypatch.undo()  # the "bug" is fixed: the replay passes and becomes a regression scenario
    scenario = tmp_path / "regression.scenario"
    assert main(["--root", str(ROOT), "replay", str(out), "--scenario", str(scenario)]) == 0
    assert "the replay no longer fails" in capsys.readouterr().out
    assert run_paths(ROOT, [scenario]) == 0


def test_a_replay_of_another_projects_ruleset_becomes_a_scenario_outside_it(project, monkeypatch, tmp_path, capsys):
    """`cardc --root DIR replay --scenario`: the scenario is read back with DIR's rulesets, one this project
    lacks (my_duel), though it is written outside DIR."""
    (project / "cards" / "simple_duel").rename(project / "cards" / "my_duel")
    ruleset = project / "cards" / "my_duel" / "ruleset.card"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("ruleset simple_duel {", "ruleset my_duel {"),
                       encoding="utf-8")
    real = invariants.violations
    monkeypatch.setattr(invariants, "violations", lambda s: real(s) + (["planted"] if s.actions_taken >= 4 else []))
    out = tmp_path / "found.replay.json"
    assert main(["--root", str(project), "fuzz", str(project / "cards" / "my_duel"), "--games", "2", "--seed", "7",
                 "--out", str(out), "--shrink-seconds", "2"]) == 1
    monkeypatch.undo()
    scenario = tmp_path / "elsewhere" / "regression.scenario"
    scenario.parent.mkdir()
    capsys.readouterr()
    assert main(["--root", str(project), "replay", str(out), "--scenario", str(scenario)]) == 0, capsys.readouterr()
    assert scenario.read_text(encoding="utf-8").splitlines()[1] == "ruleset my_duel"
    ran = subprocess.run([sys.executable, "-m", "tools", "--root", str(project), "scenario", str(scenario)], cwd=ROOT,
                         capture_output=True, text=True)
    assert ran.stdout.splitlines()[-1] == "1 passed, 0 failed", ran.stdout + ran.stderr


def test_fuzz_and_replay_usage_errors(tmp_path, capsys):
    assert main(["--root", str(ROOT), "fuzz", str(tmp_path / "missing.card")]) == 2
    assert main(["--root", str(ROOT), "fuzz", str(ROOT / "README.md")]) == 2
    assert main(["--root", str(ROOT), "fuzz", str(FOLDER), "--games", "0"]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["--root", str(ROOT), "replay", str(bad)]) == 2
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    assert main(["--root", str(ROOT), "replay", str(bad)]) == 2
    capsys.readouterr()
    assert main(["--root", str(ROOT), "fuzz"]) == 2  # a usage error is returned, as every exit code is
    assert capsys.readouterr().err == "cardc fuzz: Missing argument 'PATH' (see `cardc fuzz --help`)\n"


# ---------------------------------------------------------------- any input: an AST or located errors


@st.composite
def mutated_card_files(draw) -> tuple[str, bytes]:
    """Return a real card file of Simple Duel with random byte and line edits."""
    name = draw(st.sampled_from(sorted(SOURCES)))
    data = bytearray(SOURCES[name])
    for _ in range(draw(st.integers(1, 6))):
        lines = bytes(data).split(b"\n")
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        line = draw(st.integers(0, len(lines) - 1))
        match draw(st.sampled_from(["flip", "insert", "delete", "drop_line", "dup_line", "swap_lines", "word"])):
            case "flip" if data:
                data[at] = draw(st.integers(0, 255))
            case "insert":
                data[at:at] = draw(st.binary(min_size=1, max_size=8))
            case "delete":
                del data[at:at + draw(st.integers(1, 40))]
            case "drop_line":
                data = bytearray(b"\n".join(lines[:line] + lines[line + 1:]))
            case "dup_line":
                data = bytearray(b"\n".join(lines[:line + 1] + lines[line:]))
            case "swap_lines":
                other = draw(st.integers(0, len(lines) - 1))
                lines[line], lines[other] = lines[other], lines[line]
                data = bytearray(b"\n".join(lines))
            case "word":
                word = draw(st.sampled_from(["when", "this", "it", "(", ")", "{", "}", ":", ".", ",", "with", "target",
                                             "static", "effect", "if", "you", "may", '"', "#", "-", "9999999999"]))
                data[at:at] = b" " + word.encode() + b" "
    return name, bytes(data)


any_bytes = st.one_of(st.binary(max_size=1000), st.text(max_size=1000).map(lambda t: t.encode("utf-8")))


def _front_end(name: str, data: bytes) -> None:
    """Read, parse and validate one file next to the rest of Simple Duel: an AST and located
    diagnostics, or located errors; never another exception; within 2 s."""
    rel = f"cards/simple_duel/{name}"
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cardc-test-bytes-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            f = parse(read_source(path, rel), rel)
        except CompileError as err:
            assert err.diagnostics
            lines = data.count(b"\n") + 2
            for d in err.diagnostics:
                assert d.path == rel and 1 <= d.line <= lines and d.col >= 1 and d.message, d
                assert d.code in ("E001", "E002", "E003", "E004", "E005", "E006", "E007"), d
        else:
            assert isinstance(f, n.File)
            files = [x for key, x in FILES.items() if key != name] + [f]
            for d in validate(files, collect(files)):
                assert d.code.startswith("E1") or d.code == "E004", d  # E004: nested past MAX_NESTING
                assert d.message and d.path and d.line >= 1 and d.col >= 1, d
    assert time.perf_counter() - start < 2.0


@given(any_bytes)
def test_any_bytes_give_an_ast_or_located_errors(data):
    _front_end("fuzz_bytes.card", data)


@given(mutated_card_files())
def test_mutated_card_files_give_an_ast_or_located_errors(mutated):
    _front_end(*mutated)
