"""`cardc watch` (tools/watch.py): which scenarios a change touches, on the project's own files, and the
watcher itself as a real subprocess on a small copy of the project: a card error is printed located, the fix
is rebuilt and the scenarios that use the card are rerun, and Ctrl-C stops it with 130."""

from __future__ import annotations

import dataclasses
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tools.cli import _internal_error, _print_errors
from tools.watch import Printers, Watcher
from tools.watch_select import Index, affected, index

SPELLS = ROOT / "cards" / "simple_duel" / "spells.card"
INKWELL = ROOT / "tests" / "scenarios" / "simple_duel" / "cards" / "inkwell_familiar.scenario"  # an Inkwell Insight
DECK_SIZE = ROOT / "tests" / "scenarios" / "simple_duel" / "R-SD-02.scenario"  # Glasshorn Rams only
WAIT = 180.0  # a safety net for a loaded machine, not a measured time: each wait ends at its line


@pytest.fixture(scope="module")
def project() -> Index:
    return index(ROOT)


def of(ix: Index, ruleset: str) -> set[Path]:
    return {p for p, f in ix.scenarios.items() if f.ruleset == ruleset}


def uncommented(path: Path) -> str:
    return "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#"))


def test_a_card_file_selects_the_scenarios_that_name_its_cards_and_not_others(project: Index):
    picked = set(affected([SPELLS], project, project))
    spells = set(project.cards[SPELLS].defines)
    naming = {p for p in of(project, "simple_duel") if any(name in uncommented(p) for name in spells)}
    assert INKWELL in picked and DECK_SIZE not in picked
    assert naming <= picked <= of(project, "simple_duel")
    assert len(picked) < len(of(project, "simple_duel"))


def test_a_card_reached_through_another_selects_its_scenarios(project: Index):
    keywords = ROOT / "cards" / "simple_duel" / "keywords.card"
    picked = set(affected([keywords], project, project))
    direct = {p for p in of(project, "simple_duel")
              if any(name in uncommented(p) for name in project.cards[keywords].defines)}
    assert direct < picked  # scenarios of cards that have a keyword, naming no keyword themselves


def test_a_renamed_card_selects_the_scenarios_of_its_old_name(project: Index):
    old = project.cards[SPELLS]
    renamed = {("Inkwell Musing" if k == "Inkwell Insight" else k): v for k, v in old.defines.items()}
    after = dataclasses.replace(project, cards={**project.cards, SPELLS: dataclasses.replace(old, defines=renamed)})
    assert INKWELL in affected([SPELLS], project, after)


def test_the_ruleset_file_selects_every_scenario_of_its_ruleset(project: Index):
    picked = affected([ROOT / "cards" / "marguerite" / "ruleset.card"], project, project)
    assert set(picked) == of(project, "marguerite") and len(picked) > 50
    assert all(p.suffix == ".battle" for p in picked)


def test_a_compiler_file_selects_every_scenario(project: Index):
    assert affected([ROOT / "compiler" / "lower.py"], project, project) == sorted(project.scenarios)


def test_a_scenario_selects_itself_and_nothing_else(project: Index):
    assert affected([INKWELL], project, project) == [INKWELL]
    assert affected([ROOT / "tests" / "scenarios" / "gone.scenario"], project, project) == []


def test_a_battle_file_plays_the_ruleset_of_its_folder_and_is_selected_by_its_swords(project: Index):
    battle = ROOT / "tests" / "battles" / "marguerite" / "R-MG-02.battle"  # 黙祷剣 in a swordsman line
    assert project.scenarios[battle].ruleset == "marguerite"
    assert battle in affected([ROOT / "cards" / "marguerite" / "swords_other.card"], project, project)
    assert battle not in affected([ROOT / "cards" / "marguerite" / "swords_attack.card"], project, project)


# ---------------------------------------------------------------- the watcher, a real subprocess


class Output:
    """The merged output of a subprocess, read line by line on a thread; waited on up to a deadline."""

    def __init__(self, proc: subprocess.Popen):
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, pattern: str) -> list[str]:
        """Return the lines read since the last call, up to the first that matches pattern."""
        start, deadline = len(self.seen), time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1.0)
            except queue.Empty:
                continue
            self.seen.append(line)
            if re.search(pattern, line):
                return self.seen[start:]
        pytest.fail(f"no line matching {pattern!r} within {WAIT:.0f} s; output:\n" + "\n".join(self.seen))


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """A copy of Simple Duel's cards and compiled code and two of its scenarios (one uses Inkwell Insight)."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "cards" / "simple_duel", root / "cards" / "simple_duel")
    shutil.copytree(ROOT / "generated" / "simple_duel", root / "generated" / "simple_duel",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for scenario in (INKWELL, DECK_SIZE):
        (root / "tests" / "scenarios" / "simple_duel").mkdir(parents=True, exist_ok=True)
        shutil.copy(scenario, root / "tests" / "scenarios" / "simple_duel" / scenario.name)
    return root


def edit(path: Path, old: str, new: str) -> int:
    """Replace old by new in a file; return the line it is on."""
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text.count("\n", 0, at) + 1


def test_watch_prints_a_located_error_then_reruns_the_scenarios_of_the_fixed_card(small: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    (small / "generated" / "simple_duel" / "spells.py").unlink()  # stale: the first round rebuilds and runs it
    proc = subprocess.Popen([sys.executable, "-m", "tools", "--root", str(small), "watch"], cwd=small, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out = Output(proc)
        start = out.until(r"^watching cards, tests/scenarios \(Ctrl-C to stop\)")
        assert "wrote     generated/simple_duel/spells.py" in start
        assert any(x.startswith("ok    CARD-Inkwell Familiar") for x in start), start
        assert not any("R-SD-02" in x or x.startswith("quick check") for x in start), start
        spells, insight = small / "cards" / "simple_duel" / "spells.card", "effect: draw 2 cards."
        line = edit(spells, insight, "effect: draw 2 cardz.")
        broken = out.until(r"^watch: spells\.card: the build found card errors")
        assert any(re.search(rf"spells\.card:{line}:\d+", x) for x in broken), broken
        assert not any("Traceback" in x for x in broken)
        edit(spells, "effect: draw 2 cardz.", "effect: draw 3 cards.")  # one more card: the scenario fails
        changed = out.until(r"^watch: spells\.card: built")
        assert "wrote     generated/simple_duel/spells.py" in changed
        assert any(x.startswith("FAIL  CARD-Inkwell Familiar") for x in changed), changed
        assert not any("R-SD-02" in x for x in changed), changed  # Glasshorn Rams only: not run
        assert any(re.match(r"quick check cards/simple_duel/spells\.card: no violation in 3 games", x)
                   for x in changed)
        edit(spells, "effect: draw 3 cards.", insight)
        fixed = out.until(r"^watch: spells\.card: built")
        assert any(x.startswith("ok    CARD-Inkwell Familiar") for x in fixed), fixed
        assert "1 passed, 0 failed" in fixed
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=WAIT) == 130
        assert out.until(r"^cardc: interrupted$")
    finally:
        proc.kill()
        proc.wait()


def test_once_runs_one_round_over_a_card_file_and_exits_with_its_code(small: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    spells = small / "cards" / "simple_duel" / "spells.card"
    edit(spells, "effect: draw 2 cards.", "effect: draw 3 cards.")
    done = subprocess.run([sys.executable, "-m", "tools", "--root", str(small), "watch", str(spells), "--once"],
                          cwd=small, env=env, capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL  CARD-Inkwell Familiar" in done.stdout and "R-SD-02" not in done.stdout
    assert re.search(r"^watch: spells\.card: built \(\d+ file\(s\) written or removed\); 1 scenario file\(s\) FAILED",
                     done.stdout, re.M), done.stdout


def test_a_card_file_path_watches_that_file_only(small: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    folder = small / "cards" / "simple_duel"
    proc = subprocess.Popen([sys.executable, "-m", "tools", "--root", str(small), "watch", str(folder / "spells.card")],
                            cwd=small, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out = Output(proc)
        out.until(r"^watching cards/simple_duel/spells\.card \(Ctrl-C to stop\)")
        for name in ("creatures.card", "spells.card"):  # a comment more: the same cards
            with (folder / name).open("a", encoding="utf-8") as f:
                f.write("# saved\n")
        assert out.until(r"^watch: .*: built")[-1].startswith("watch: spells.card: built")
    finally:
        proc.kill()
        proc.wait()


def test_a_path_that_does_not_exist_is_a_usage_error(small: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tools", "--root", str(small), "watch", "cards/nowhere", "--once"],
                          cwd=small, env=env, capture_output=True, text=True, timeout=WAIT)
    assert (done.returncode, done.stderr) == (2, "cardc watch: cards/nowhere does not exist\n")


def test_a_bug_met_in_a_round_is_one_line_not_a_traceback(small: Path, capsys):
    def broken_report(report, verbose: bool) -> int:
        raise RuntimeError("the report printer broke")

    watcher = Watcher(small, Printers(_print_errors, broken_report, _internal_error))
    spells = small / "cards" / "simple_duel" / "spells.card"
    assert watcher.guarded([spells]) == 3
    said = capsys.readouterr().err.strip()
    assert said.startswith("cardc: internal error (a bug in cardc): RuntimeError: the report printer broke; ")
    Path(said.rsplit(" ", 1)[-1]).unlink()  # the traceback file it names
    assert watcher.pending == set()  # the next save starts afresh: a round that broke is not repeated


def test_a_change_to_cardc_itself_restarts_the_watcher_and_runs_every_scenario(small: Path):
    for part in ("compiler", "grammar", "runtime", "tools"):  # the project is cardc: its own code runs
        shutil.copytree(ROOT / part, small / part, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(small))
    proc = subprocess.Popen([sys.executable, "-m", "tools", "--root", str(small), "watch"], cwd=small, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out = Output(proc)
        out.until(r"^watching cards, tests/scenarios and cardc itself \(Ctrl-C to stop\)")
        with (small / "compiler" / "lower.py").open("a", encoding="utf-8") as f:
            f.write("# a change to the compiler: every generated module gets a new key\n")
        out.until(r"^watch: cardc itself changed \(lower\.py\); restarting with the new code$")
        first = out.until(r"^watch: lower\.py: built")
        assert "wrote     generated/simple_duel/spells.py" in first
        assert {"ok    R-SD-02: Deck size", "2 passed, 0 failed"} <= set(first), first
        out.until(r"^watching cards, tests/scenarios and cardc itself")
    finally:
        proc.kill()
        proc.wait()


def test_a_quick_check_reports_a_broken_invariant_with_the_command_that_finds_it_again(monkeypatch, tmp_path,
                                                                                        capsys):
    from runtime import invariants
    from tools.cli import main
    from tools.watch import _quick_check

    real = invariants.violations
    monkeypatch.setattr(invariants, "violations", lambda s: real(s) + (
        ["planted violation: 4 actions taken"] if s.actions_taken >= 4 else []))
    ok, line = _quick_check(ROOT, SPELLS)
    hint = "run `cardc fuzz cards/simple_duel/spells.card --games 3 --seed 0` to shrink it and write its replay"
    assert not ok and line.startswith("quick check cards/simple_duel/spells.card: VIOLATION in game 1: ")
    assert "planted violation" in line and line.endswith(hint)
    out = tmp_path / "found.replay.json"
    assert main(["--root", str(ROOT), "fuzz", str(SPELLS), "--games", "3", "--seed", "0", "--out", str(out),
                 "--shrink-seconds", "1"]) == 1
    assert "violation found in game 1 of 3" in capsys.readouterr().out
