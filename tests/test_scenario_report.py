"""`cardc scenario` runs scenario and battle files alike, one line per file, and under a failure prints each
failed expectation with its diff (the line as written against the line the game makes true; a `log in
order:` block or a transcript as a unified diff) and then the game log's tail (`--full-log`: all of it).
The output of planted failing files (tests/scenario_failures/) is compared word for word with
tests/scenario_failures/reports/*.out; `CARDC_UPDATE_GOLDEN=1` rewrites them (review the diff)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tools.cli import main
from tools.scenario_runs import discover_files

FAILURES = ROOT / "tests" / "scenario_failures"
REPORTS = FAILURES / "reports"
UPDATE = os.environ.get("CARDC_UPDATE_GOLDEN") == "1"

CASES = {  # the report file: the files and flags of one `cardc scenario` run
    "long-log": (["simple_duel/report-long-log.scenario"], []),
    "long-log-full": (["simple_duel/report-long-log.scenario"], ["--full-log"]),
    "board": (["simple_duel/board.scenario"], []),
    "transcript": (["simple_duel/transcript-differs.scenario"], []),
    "unscripted": (["code_of_joker/unscripted.scenario"], []),
    "battle": (["marguerite/expectations.battle"], []),
    "both-kinds-pass": (["../scenarios/simple_duel/R-SD-16.scenario", "../battles/marguerite/R-MG-01.battle"], []),
}


def _run(files: list[str], flags: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["--root", str(ROOT), "scenario", *[str(FAILURES / f) for f in files], *flags])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("name", CASES)
def test_cardc_scenario_prints_failures_with_their_diffs_and_the_log_word_for_word(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(*CASES[name], capsys)
    path = REPORTS / f"{name}.out"
    if UPDATE:
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8")
    assert code == (0 if name == "both-kinds-pass" else 1)


def test_the_tail_is_the_last_lines_and_the_full_log_all_of_them(capsys: pytest.CaptureFixture[str]) -> None:
    tail = _run(*CASES["long-log"], capsys)[1].split("game log ")[1].splitlines()[:-1]  # the summary aside
    full = _run(*CASES["long-log-full"], capsys)[1].split("game log ")[1].splitlines()[:-1]
    assert tail[0] == "(the last 20 of 35 lines; --full-log shows them all):" and full[0] == "(35 lines):"
    assert len(tail) == 21 and len(full) == 36 and tail[1:] == full[-20:]


def test_no_path_runs_every_scenario_and_battle_file_of_the_project_and_no_planted_failure() -> None:
    found = discover_files(ROOT, [])
    kinds = {p.suffix for p in found}
    assert kinds == {".scenario", ".battle"}
    assert sorted(found) == sorted({*(ROOT / "tests" / "scenarios").rglob("*.scenario"),
                                    *(ROOT / "tests" / "battles").rglob("*.battle")})
    assert not [p for p in found if FAILURES in p.parents]


def test_a_folder_holds_both_kinds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battles = tmp_path / "marguerite"  # a battle file's rules: the folder named after a compiled ruleset
    battles.mkdir()
    for source in ("scenarios/simple_duel/R-SD-16.scenario", "battles/marguerite/R-MG-01.battle"):
        (battles / Path(source).name).write_bytes((ROOT / "tests" / source).read_bytes())
    code = main(["--root", str(ROOT), "scenario", str(tmp_path)])
    assert (code, capsys.readouterr().out.splitlines()[-1]) == (0, "2 passed, 0 failed")


def test_a_battle_file_outside_a_ruleset_folder_is_a_located_error(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "R-MG-01.battle"
    path.write_bytes((ROOT / "tests" / "battles" / "marguerite" / "R-MG-01.battle").read_bytes())
    assert main(["--root", str(ROOT), "scenario", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        f"ERROR {path}:1:1: E101 a battle scenario names no ruleset, and no folder above it is named after a "
        "compiled ruleset (as tests/battles/marguerite/ is)")
