"""Game speed against an earlier commit, measured in the same run: issue 17's row "random-game decisions per
second, vs today's figure in the same run".

The earlier tree is checked out into a temporary git worktree; each round plays the seeded random games of
every row there and then here, each in a fresh process, so a load that comes and goes touches both alike.
The figure of a tree is its median over the rounds. Only the rows both trees know are compared.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# Run in a tree: print its decisions per second of each game row and its Marguerite battles per second.
# argv: games, the folder the runtime must come from, and a compiled kernel's folder to put first (optional).
WORKER = """
import json, sys
sys.path[0:0] = sys.argv[3:] + ["."]
import runtime
from benchmarks.run import GAMES, bench_battles, bench_games
if not runtime.__file__.startswith(sys.argv[2]):
    raise SystemExit(f"the tree's runtime was not the one imported: {runtime.__file__}")
games, out = int(sys.argv[1]), {}
for label, ruleset, options, share in GAMES:
    out[label] = bench_games(ruleset, max(1, round(games * share)), options)["decisions per second"]
out["Marguerite battles"] = bench_battles(games)["battles per second"]
print(json.dumps(out))
"""


def _git(*args: str) -> subprocess.CompletedProcess:
    from benchmarks.run import ROOT

    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)


def _checkout(rev: str, where: Path) -> None:
    """Check the commit `rev` out into the folder `where` (a detached worktree); exit with one line if it can't."""
    found = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if found.returncode:
        raise SystemExit(f"--against: no commit '{rev}' in this repository")
    added = _git("worktree", "add", "--detach", str(where), found.stdout.strip())
    if added.returncode:
        raise SystemExit(f"--against: could not check out '{rev}': {added.stderr.strip().splitlines()[-1]}")


def _measure(tree: Path, games: int, kernel: Path | None = None) -> dict[str, float]:
    """Return the figures of one round in a tree (a fresh process, the tree's own code; its runtime from the
    compiled `kernel` folder if one is given)."""
    env = os.environ | {"PYTHONPATH": str(tree)}
    runtime_from = [str(kernel)] if kernel else []
    done = subprocess.run([sys.executable, "-c", WORKER, str(games), str((kernel or tree).resolve()), *runtime_from],
                          cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise SystemExit(f"--against: the games in {tree} failed: {last}")
    return json.loads(done.stdout.splitlines()[-1])


def bench_against(rev: str, games: int, rounds: int = 3, kernel: Path | None = None) -> dict[str, dict[str, float]]:
    """Return, per row both trees have, the median figure of the commit `rev`, of this tree, and their ratio; and
    of this tree on a compiled `kernel` folder (benchmarks/kernel.py), if one is given."""
    from benchmarks.run import ROOT

    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "before"
        _checkout(rev, tree)
        try:
            runs = [(_measure(tree, games), _measure(ROOT, games), _measure(ROOT, games, kernel) if kernel else {})
                    for _ in range(rounds)]
        finally:
            _git("worktree", "remove", "--force", str(tree))
    out = {}
    for label in [k for k in runs[0][1] if k in runs[0][0]]:
        before, after, compiled = (statistics.median(run[i][label] for run in runs) if runs[0][i] else 0.0
                                   for i in range(3))
        row = out[f"{label}, against {rev}"] = {"before (median)": before, "after (median)": after,
                                                "after / before": after / before}
        if kernel:
            row |= {"after, compiled kernel (median)": compiled, "compiled kernel / before": compiled / before}
    return out
