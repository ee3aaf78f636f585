"""The runtime kernel compiled by mypyc (benchmarks/kernel.py) plays every game byte for byte as the source does:
the 300-game digests of tests/determinism/digests-300.txt, each ruleset and the Marguerite battles."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import kernel

ROOT = Path(__file__).resolve().parent.parent
DIGESTS = ROOT / "tests" / "determinism" / "digests-300.txt"


@pytest.fixture(scope="module")
def built() -> Path:
    """The compiled kernel of this tree (built once, then kept while no runtime source changes)."""
    return kernel.build()


def _on(folder: Path, *argv: str) -> subprocess.CompletedProcess:
    """Run `python -m argv` with the kernel `folder` first on the path, from the project's root."""
    return subprocess.run([sys.executable, "-c", kernel.LAUNCH, str(folder), *argv], cwd=ROOT,
                          capture_output=True, text=True, check=False)


def test_the_hot_modules_are_compiled(built):
    probe = "import importlib, sys; print(*(importlib.import_module(m).__file__ for m in sys.argv[1:]))"
    names = [f"runtime.{m.replace('/', '.')}" for m in kernel.MODULES]
    done = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(built)!r}); {probe}", *names],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    files = done.stdout.split()
    assert len(files) == len(names)
    assert all(f.startswith(str(built)) and f.endswith(".so") for f in files), files


def test_the_compiled_kernel_plays_the_300_games_as_the_source_does(built):
    done = _on(built, "benchmarks.determinism", "--check", str(DIGESTS))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == DIGESTS.read_text(encoding="utf-8")


def test_a_kernel_that_plays_differently_fails_the_check(built, tmp_path):
    planted = tmp_path / "kernel"
    shutil.copytree(built, planted)
    agents = planted / "runtime" / "agents.py"  # stays Python in the kernel: a bug planted in its copy is run
    text = agents.read_text(encoding="utf-8")
    assert "return actions[self.rng.randrange(len(actions))]" in text
    agents.write_text(text.replace("actions[self.rng.randrange(len(actions))]", "actions[self.rng.randrange(len(actions)) // 2]"), encoding="utf-8")
    done = _on(planted, "benchmarks.determinism", "--games", "4", "--check", str(DIGESTS))
    assert done.returncode == 1
    assert "differ" in done.stderr


def test_the_build_key_follows_every_runtime_source(tmp_path):
    shutil.copytree(ROOT / "runtime", tmp_path / "runtime", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    before = kernel._key(tmp_path)
    battle = tmp_path / "runtime" / "battle" / "right.py"
    battle.write_text(battle.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert kernel._key(tmp_path) != before


def test_a_fresh_kernel_is_not_rebuilt(built):
    stamp = (built / kernel.KEY_FILE).stat().st_mtime_ns
    assert kernel.build() == built
    assert (built / kernel.KEY_FILE).stat().st_mtime_ns == stamp


def test_the_against_rows_measure_this_tree_on_the_kernel_too(built):
    from benchmarks.against import bench_against

    figures = bench_against("HEAD", 1, rounds=1, kernel=built)
    for row in figures.values():
        assert row["after, compiled kernel (median)"] > 0
        assert row["compiled kernel / before"] == pytest.approx(row["after, compiled kernel (median)"]
                                                               / row["before (median)"])


def test_the_benchmark_command_runs_on_the_kernel(built):
    done = subprocess.run([sys.executable, "-m", "benchmarks.run", "--kernel", "--only", "snapshot"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| mid-game Code of Joker state: snapshot + restore (µs) |" in done.stdout


def test_a_kernel_that_does_not_compile_is_an_error_and_writes_nothing(tmp_path):
    root, out = tmp_path / "tree", tmp_path / "out" / "kernel"
    shutil.copytree(ROOT / "runtime", root / "runtime", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    ending = root / "runtime" / "ending.py"
    ending.write_text(ending.read_text(encoding="utf-8") + "\n\ndef broken() -> int:\n    return 'x'\n",
                      encoding="utf-8")
    with pytest.raises(kernel.KernelError, match="runtime/ending.py:[0-9]+: error: Incompatible return value"):
        kernel.build(root, out)
    assert not out.exists() and [p.name for p in out.parent.iterdir()] == ["kernel.lock"]
