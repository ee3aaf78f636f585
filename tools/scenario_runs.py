"""`cardc scenario`: run scenario files (`*.scenario`) and battle scenario files (`*.battle`), one line per
file and a summary. With no PATH it runs every scenario of tests/scenarios/ and every battle of
tests/battles/ (the files that play the project's compiled rulesets); a folder is searched for both kinds.
A battle file names no ruleset: the rules are those of the nearest folder above it named after a compiled
ruleset (tests/battles/marguerite/). A failure prints its diffs and the game log (tools/scenario_report.py). `run_paths` is what `cardc scenario` calls.
"""

from __future__ import annotations

from pathlib import Path

from compiler.build import read_source
from compiler.diagnostics import Diagnostic
from runtime.battle.rules import Rules, load_rules
from runtime.engine import Game
from tools.scenario import _load, read_scenario, run_scenario, update_transcript
from tools.scenario_expect import ScenarioError
from tools.scenario_report import report, shown_log

KINDS = ("*.scenario", "*.battle")


def discover_files(root: Path, paths: list[Path]) -> list[Path]:
    """Return the scenario and battle files named (folders searched recursively), each folder's sorted."""
    paths = paths or [root / "tests" / "scenarios", root / "tests" / "battles"]
    found: list[Path] = []
    for p in paths:
        found += sorted(f for kind in KINDS for f in p.rglob(kind)) if p.is_dir() else [p]
    return found


class Runs:
    """The games and battle rules loaded so far, the flags, and the counts of one `cardc scenario` run."""

    def __init__(self, root: Path, update: bool, full_log: bool, exact_lines: bool):
        self.root, self.update, self.full_log, self.exact_lines = root, update, full_log, exact_lines
        self.games: dict[str, Game] = {}
        self.rules: dict[str, Rules] = {}
        self.passed = self.failed = 0

    def verdict(self, title: str, failures: list[str], details: list[str]) -> None:
        """Print one line for a file (and under a failure the lines of its report); count it."""
        if not failures:
            self.passed += 1
            print(f"ok    {title}")
            return
        self.failed += 1
        print(f"FAIL  {title}")
        for line in details:
            print(f"      {line}")

    def refused(self, err: ScenarioError) -> None:
        """Print every problem of a file that cannot be read or run, located; count it as failed."""
        for problem in err.diagnostics:  # the source line and caret indented under the 'ERROR ' prefix
            print("ERROR " + problem.render(err.source).replace("\n", "\n      "))
        self.failed += 1


def run_paths(root: Path, paths: list[Path], update: bool = False, full_log: bool = False,
              exact_lines: bool = False) -> int:
    """Run scenario and battle files, print one line per file and a summary; return the exit code."""
    runs = Runs(root, update, full_log, exact_lines)
    for path in discover_files(root, paths):
        try:
            if path.suffix == ".battle":
                _battle(runs, path)
            else:
                _scenario(runs, path)
        except ScenarioError as err:
            runs.refused(err)
    print(f"{runs.passed} passed, {runs.failed} failed")
    return 1 if runs.failed else 0


def _scenario(runs: Runs, path: Path) -> None:
    """Run one scenario file (rewriting its transcript with --update) and print its verdict."""
    sc = read_scenario(path, runs.root)
    sc.exact_lines = runs.exact_lines
    if sc.ruleset not in runs.games:
        runs.games[sc.ruleset] = _load(sc)
    if runs.update and sc.has_transcript:
        sc.sections["transcript"] = []
    out = run_scenario(sc, runs.games[sc.ruleset])
    if runs.update and sc.has_transcript and out.state is not None:
        update_transcript(path, out.state.log)
    runs.verdict(f"{sc.name}: {sc.title}", out.failures, report(sc, out, runs.full_log))


def _battle(runs: Runs, path: Path) -> None:
    """Run one battle scenario file against the rules its folder names and print its verdict."""
    from tools.battle.scenario import parse_scenario
    from tools.battle.scenario import run_scenario as run_battle

    text = read_source(path, str(path))
    rules = _rules(runs, path, text)
    battle, failures = run_battle(rules, parse_scenario(text, str(path), rules))
    failures = [f.replace(str(path), path.name, 1) for f in failures]
    runs.verdict(f"{path.stem}: {_title(path.stem, text)}", failures,
                 failures + shown_log(battle.log, runs.full_log))


def _rules(runs: Runs, path: Path, text: str) -> Rules:
    """Return the battle rules of the nearest folder above a file named after a compiled ruleset."""
    for folder in Path(path).resolve().parents:
        if folder.name and (runs.root / "generated" / folder.name / "__init__.py").is_file():
            if folder.name not in runs.rules:
                runs.rules[folder.name] = load_rules(folder.name)
            return runs.rules[folder.name]
    raise ScenarioError([Diagnostic("E101", "a battle scenario names no ruleset, and no folder above it is named "
                                            "after a compiled ruleset (as tests/battles/marguerite/ is)",
                                    str(path), 1, 1)], text)


def _title(stem: str, text: str) -> str:
    """Return a battle file's title: its first comment line, without the file's own name before a dash."""
    first = text.removeprefix("\ufeff").split("\n", 1)[0]
    title = first[1:].strip() if first.startswith("#") else "battle scenario"
    return title.removeprefix(stem).lstrip(" —-:") or "battle scenario"
