"""A build killed at a random point leaves each ruleset folder of generated/ entirely old or entirely new."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from compiler.build import build, compile_project, stale
from tests.conftest import ROOT


def _folder(root: Path) -> dict[str, str]:
    gen = root / "generated" / "simple_duel"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(gen.glob("*.py"))}


def test_killed_build_leaves_old_or_new_never_mixed(project: Path):
    build(project)
    old = _folder(project)
    saved = project / "saved-generated"
    shutil.copytree(project / "generated", saved)
    for card in sorted((project / "cards" / "simple_duel").glob("*.card")):
        card.write_text(card.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    new = {Path(o.path).name: o.text for o in compile_project(project) if "/simple_duel/" in o.path}
    assert sum(old[name] != new[name] for name in new) >= 5
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "compiler", "--root", str(project), "check"], cwd=ROOT,
                   capture_output=True)
    duration = time.perf_counter() - start  # about what a full build takes here
    rng = random.Random(20261129)
    outcomes = []
    for _ in range(6):
        shutil.rmtree(project / "generated")
        shutil.copytree(saved, project / "generated")
        proc = subprocess.Popen([sys.executable, "-m", "compiler", "--root", str(project), "build"], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.1, 1.3) * duration)
        proc.kill()
        proc.wait()
        now = _folder(project)
        assert now in (old, new), "generated/simple_duel is a mix of old and new files"
        outcomes.append("new" if now == new else "old")
        build(project)  # a later build finishes the job and clears leftovers
        assert _folder(project) == new and stale(project) == []
        assert not [p for p in (project / "generated").rglob(".cardc-*")]
    assert len(outcomes) == 6


class Crash(Exception):
    pass


def test_crash_while_staging_or_before_the_switch_leaves_the_old_folder(project: Path, monkeypatch):
    from compiler import files

    build(project)
    old = _folder(project)
    for card in sorted((project / "cards" / "simple_duel").glob("*.card")):
        card.write_text(card.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    real_write, real_exchange = files.write_atomic, files._exchange
    for crash_after in range(len(old) + 1):  # crash after k staged files, or just before the switch
        written = []

        def failing_write(path, text, written=written, k=crash_after):
            if len(written) == k:
                raise Crash(f"crash after {k} files")
            written.append(path)
            real_write(path, text)

        monkeypatch.setattr(files, "write_atomic", failing_write)
        monkeypatch.setattr(files, "_exchange", lambda a, b: (_ for _ in ()).throw(Crash("before switch")))
        try:
            build(project)
        except Crash:
            pass
        assert _folder(project) == old
        monkeypatch.setattr(files, "write_atomic", real_write)
        monkeypatch.setattr(files, "_exchange", real_exchange)
    build(project)
    assert _folder(project) != old and stale(project) == []
