"""The project's own code passes ruff and mypy as configured in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_is_clean():
    result = _run("ruff", "check", "compiler", "runtime", "tools", "tests", "benchmarks", "editors")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean():
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
