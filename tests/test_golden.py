"""Golden generated code: a fixed card folder compiles to exactly the files in tests/golden/expected/.

Set CARDC_UPDATE_GOLDEN=1 to rewrite the expected files from the current compiler (then review the diff).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from compiler.build import compile_project
from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "golden"


def test_golden_generated_code(tmp_path: Path):
    shutil.copytree(GOLDEN / "cards", tmp_path / "cards")
    outputs = {Path(o.path).name: o.text for o in compile_project(tmp_path) if "/golden/" in o.path}
    expected_dir = GOLDEN / "expected"
    if os.environ.get("CARDC_UPDATE_GOLDEN"):
        for name, text in outputs.items():
            (expected_dir / name).write_text(text or "", encoding="utf-8")
    expected = {p.name: p.read_text(encoding="utf-8") for p in expected_dir.glob("*.py")}
    assert sorted(outputs) == sorted(expected)
    for name, text in outputs.items():
        assert text == expected[name], f"{name} differs from its golden file"
