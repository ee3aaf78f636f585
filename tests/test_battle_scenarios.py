"""Every battle scenario (tests/battles/marguerite/*.battle) passes: each ruling of the Marguerite digest
as data (format: tools/battle/scenario.py), and every R-MG ruling has one. Adding a case needs no
Python edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from runtime.battle.rules import load_rules
from tools.battle.scenario import parse_scenario, run_scenario

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "battles" / "marguerite"
FILES = sorted(FOLDER.rglob("*.battle"))
INDEX = FOLDER / "RULINGS.tsv"  # the R-MG rows of ../shared/rules/rulings-index.tsv


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FOLDER)) for p in FILES])
def test_scenario(path: Path) -> None:
    rules = load_rules("marguerite")
    scenario = parse_scenario(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), rules)
    battle, failures = run_scenario(rules, scenario)
    assert not failures, "\n".join(failures + ["log:"] + battle.log)


def test_every_ruling_has_a_scenario() -> None:
    ids = [line.split("\t")[0] for line in INDEX.read_text(encoding="utf-8").splitlines()[1:]]
    rulings = [i for i in ids if i.startswith("R-MG-")]
    covered = {"-".join(p.stem.split("-")[:3]) for p in FILES}
    assert len(rulings) == 93
    assert [r for r in rulings if r not in covered] == []
