"""A build killed at a random point or at any step leaves each ruleset folder of generated/ entirely old or
entirely new, and a build changing several rulesets leaves the whole of generated/ old or new."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from compiler.build import build, compile_project, stale
from compiler.files import clean_staging
from runtime.folder_recovery import recover
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
    subprocess.run([sys.executable, "-m", "tools", "--root", str(project), "check"], cwd=ROOT,
                   capture_output=True)
    duration = time.perf_counter() - start  # about what a full build takes here
    rng = random.Random(20261129)
    outcomes = []
    for _ in range(6):
        shutil.rmtree(project / "generated")
        shutil.copytree(saved, project / "generated")
        proc = subprocess.Popen([sys.executable, "-m", "tools", "--root", str(project), "build"], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.1, 1.3) * duration)
        proc.kill()
        finished = proc.wait() == 0  # it ended by itself before the kill: a whole build, so the new folder
        assert finished or proc.returncode == -signal.SIGKILL, f"the build failed on its own: {proc.returncode}"
        now = _folder(project)
        assert now in (old, new), "generated/simple_duel is a mix of old and new files"
        assert now == new or not finished, "a build that finished left the old folder"
        outcomes.append("new" if now == new else "old")
        build(project)  # a later build finishes the job and clears leftovers
        assert _folder(project) == new and stale(project) == []
        assert not [p for p in (project / "generated").rglob(".cardc-*")]
    assert "old" in outcomes, outcomes  # the earliest kills land while it compiles, before any switch


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


def _killed_build(project: Path, step: str) -> int:
    """Run a build that switches folders without renameat2 and kills itself just before `step`; return its code."""
    env = os.environ | {"CARDC_NO_RENAMEAT2": "1", "CARDC_BUILD_KILL_BEFORE": step}
    proc = subprocess.run([sys.executable, "-m", "tools", "--root", str(project), "build"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    return proc.returncode


def _load_in(project: Path) -> subprocess.CompletedProcess:
    """Load the project's Simple Duel through runtime.load, as `cardc play` does, in a fresh process."""
    code = "import sys; from runtime.load import load_game; load_game('simple_duel'); " \
           "print(sys.modules['generated.simple_duel'].__file__)"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True, text=True)


@pytest.fixture
def small(project: Path) -> Path:
    """Return the project with a smaller Simple Duel (ruleset, keywords, counters): the same switch, faster builds."""
    for card in ("creatures", "spells", "keep_spells"):
        (project / "cards" / "simple_duel" / f"{card}.card").unlink()
    return project


def test_fallback_killed_before_each_step_leaves_the_folder_old_or_new(small: Path, monkeypatch):
    from compiler.files import FALLBACK_STEPS

    project, cards = small, small / "cards" / "simple_duel"
    build(project)
    old = _folder(project)
    saved = project / "saved-generated"
    shutil.copytree(project / "generated", saved)
    (cards / "counters.card").write_text((cards / "counters.card").read_text(encoding="utf-8") + "\n# edited\n",
                                         encoding="utf-8")
    new = {Path(o.path).name: o.text for o in compile_project(project) if "/simple_duel/" in o.path}
    assert new != old
    gen = project / "generated"
    staged, aside, trash = (f".cardc-{part}simple_duel" for part in ("", "old-", "trash-"))
    leftovers = {"move-old": {staged}, "move-new": {staged, aside}, "discard-old": {aside}, "remove-old": {trash},
                 "end": set()}
    for k, step in enumerate((*FALLBACK_STEPS, "end")):
        shutil.rmtree(gen)
        shutil.copytree(saved, gen)
        assert _killed_build(project, step) == -signal.SIGKILL, f"the build was not killed before {step}"
        left = {p.name for p in gen.iterdir() if p.name.startswith(".cardc-")}
        assert left == leftovers[step], f"killed before {step}"  # it stopped exactly there
        if k == 0:  # what the killed builds stage (the compiler on disk; equal to `new` unless it is being edited)
            staged_files = {p.name: p.read_text(encoding="utf-8") for p in (gen / staged).glob("*.py")}
            assert staged_files != old
        expected = old if k <= FALLBACK_STEPS.index("move-new") else staged_files
        if step == "move-new":  # the one point where the folder is missing on disk: its whole old copy is beside it
            assert not (gen / "simple_duel").exists()
            assert {p.name: p.read_text(encoding="utf-8") for p in (gen / aside).glob("*.py")} == old
            loaded = _load_in(project)  # the loader puts it back before it imports
            init = project / "generated" / "simple_duel" / "__init__.py"  # not another checkout's package
            assert (loaded.returncode, loaded.stderr, loaded.stdout) == (0, "", f"{init}\n")
        assert _folder(project) == expected, f"killed before {step}: the folder is not entirely the expected one"
        monkeypatch.setenv("CARDC_NO_RENAMEAT2", "1")
        build(project)  # the next build, still without renameat2, finishes the job and clears leftovers
        monkeypatch.delenv("CARDC_NO_RENAMEAT2")
        assert _folder(project) == new and not list(gen.rglob(".cardc-*"))
    assert stale(project) == []


def test_next_build_and_check_put_a_moved_aside_folder_back_first(small: Path):
    from runtime.folder_recovery import OLD_PREFIX

    project = small
    build(project)
    old = _folder(project)
    gen = project / "generated"
    (gen / "simple_duel").rename(gen / f"{OLD_PREFIX}simple_duel")  # as a build killed before 'move-new' leaves it
    assert stale(project) == []  # `cardc check` reads it back in place
    assert _folder(project) == old and not (gen / f"{OLD_PREFIX}simple_duel").exists()
    (gen / "simple_duel").rename(gen / f"{OLD_PREFIX}simple_duel")
    report = build(project)
    assert {action for action, _ in report.actions} == {"unchanged"}  # put back, nothing to rewrite
    assert _folder(project) == old and not list(gen.rglob(".cardc-*"))


# ---------------------------------------------------------------- several rulesets: one switch for the whole tree


@pytest.fixture
def two(tmp_path: Path, cards_snapshot: Path) -> Path:
    """Return a project of two small rulesets, alpha and beta (Simple Duel's ruleset, keywords and counters)."""
    root = tmp_path / "two"
    for name in ("alpha", "beta"):
        (root / "cards" / name).mkdir(parents=True)
        for card in ("ruleset", "keywords", "counters"):
            shutil.copy(cards_snapshot / "simple_duel" / f"{card}.card", root / "cards" / name)
    return root


def _tree(root: Path) -> dict[str, str]:
    """Return every generated module of a project (leftovers of a killed build aside), by path."""
    gen = root / "generated"
    return {p.relative_to(gen).as_posix(): p.read_text(encoding="utf-8") for p in sorted(gen.rglob("*.py"))
            if not any(part.startswith(".cardc-") for part in p.relative_to(gen).parts)}


def _build_in(project: Path, env: dict[str, str]) -> int:
    """Run build(project) in a forked child process with env set; return its exit code, or minus the signal
    that ended it (as subprocess does). A child of this process has the compiler loaded: a build takes no
    grammar construction, and a kill is still a real SIGKILL of a real process."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.environ.update(env)
            build(project)
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _load_both(project: Path) -> subprocess.CompletedProcess:
    """Load both games of the project through runtime.load, as `cardc play` does, in a fresh process."""
    code = "import sys; from runtime.load import load_game; load_game('alpha'); load_game('beta'); " \
           "print(sys.modules['generated.alpha'].__file__, sys.modules['generated.beta'].__file__)"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True, text=True)


def _leftovers(project: Path) -> set[str]:
    return {p.name for p in (project / "generated").iterdir() if p.name.startswith(".cardc-")}


A, B, J, OLD_A, OLD_B = ".cardc-alpha", ".cardc-beta", ".cardc-commit.json", ".cardc-old-alpha", ".cardc-old-beta"
# Where a build changing both rulesets can be killed, with what it leaves in generated/ at that moment.
WITH_EXCHANGE = {"stage:alpha": set(), "stage:beta": {A}, "commit": {A, B}, "switch:alpha": {A, B, J},
                 "switch:beta": {A, B, J}, "close": {A, B, J}, "discard": {A, B}, "end": set()}
WITHOUT_EXCHANGE = {"stage:alpha": set(), "stage:beta": {A}, "commit": {A, B}, "switch:alpha": {A, B, J},
                    "move-old:alpha": {A, B, J}, "move-new:alpha": {A, B, J, OLD_A}, "switch:beta": {B, J, OLD_A},
                    "move-old:beta": {B, J, OLD_A}, "move-new:beta": {B, J, OLD_A, OLD_B},
                    "close": {J, OLD_A, OLD_B}, "discard": {OLD_A, OLD_B}, "end": set()}


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "without-renameat2"])
def test_a_build_changing_two_rulesets_killed_at_each_step_leaves_the_whole_tree_old_or_new(two: Path, exchange):
    project, gen = two, two / "generated"
    build(project)
    old, saved = _tree(project), project.parent / "saved-generated"
    shutil.copytree(gen, saved)
    for name in ("alpha", "beta"):
        counters = project / "cards" / name / "counters.card"
        counters.write_text(counters.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    env = {} if exchange else {"CARDC_NO_RENAMEAT2": "1"}
    assert _build_in(project, env) == 0  # the reference: the same build, not killed
    new = _tree(project)
    assert {path for path in new if new[path] != old[path]} >= {"alpha/counters.py", "beta/counters.py"}
    steps = WITH_EXCHANGE if exchange else WITHOUT_EXCHANGE
    for k, (step, left) in enumerate(steps.items()):
        shutil.rmtree(gen)
        shutil.copytree(saved, gen)
        assert _build_in(project, env | {"CARDC_BUILD_KILL_BEFORE": step}) == -signal.SIGKILL, f"not killed: {step}"
        assert _leftovers(project) == left, f"killed before {step}"  # it stopped exactly there
        killed = project.parent / "killed-generated"
        shutil.rmtree(killed, ignore_errors=True)
        shutil.copytree(gen, killed)
        loaded = _load_both(project)  # the loader finishes a committed switch, or keeps the old tree
        files = f"{gen / 'alpha' / '__init__.py'} {gen / 'beta' / '__init__.py'}\n"
        assert (loaded.returncode, loaded.stderr, loaded.stdout) == (0, "", files), f"killed before {step}"
        expected = old if k <= list(steps).index("commit") else new
        assert _tree(project) == expected, f"killed before {step}: generated/ is not entirely old or new"
        shutil.rmtree(gen)
        shutil.copytree(killed, gen)  # the same kill, now met by the next build instead of a loader
        clean_staging(gen)  # what the next build does before anything else
        assert _tree(project) == expected and not list(gen.rglob(".cardc-*")), f"killed before {step}"
    build(project)
    assert _tree(project) == new and stale(project) == []


def test_a_build_removing_one_ruleset_and_changing_another_is_one_switch(two: Path):
    project, gen = two, two / "generated"
    build(project)
    (gen / "__init__.py").write_text("# edited by hand\n", encoding="utf-8")  # the build writes it back
    (gen / "stray.py").write_text("# no card file makes this\n", encoding="utf-8")  # the build deletes it
    old, saved = _tree(project), project.parent / "saved-generated"
    shutil.copytree(gen, saved)
    shutil.rmtree(project / "cards" / "beta")
    counters = project / "cards" / "alpha" / "counters.card"
    counters.write_text(counters.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    env = {"CARDC_NO_RENAMEAT2": "1"}
    assert _build_in(project, env) == 0
    new = _tree(project)
    assert set(old) - set(new) == {"stray.py", "beta/__init__.py", "beta/counters.py", "beta/keywords.py",
                                   "beta/ruleset.py"} and not (gen / "beta").exists()
    assert new["alpha/counters.py"] != old["alpha/counters.py"] and new["__init__.py"] != old["__init__.py"]
    for step in ("commit", "switch:alpha", "move-new:alpha", "remove:beta", "write:__init__.py", "delete:stray.py",
                 "close"):
        shutil.rmtree(gen)
        shutil.copytree(saved, gen)
        assert _build_in(project, env | {"CARDC_BUILD_KILL_BEFORE": step}) == -signal.SIGKILL, f"not killed: {step}"
        recover(gen)  # what `cardc check` and the loader do before they read
        assert _tree(project) == (old if step == "commit" else new), f"killed before {step}"
        clean_staging(gen)
        assert _tree(project) == (old if step == "commit" else new) and not list(gen.rglob(".cardc-*"))
    build(project)
    assert _tree(project) == new and stale(project) == []


def test_the_build_after_a_committed_kill_builds_the_cards_as_they_are_now(two: Path):
    project = two
    build(project)
    old = _tree(project)
    counters = [project / "cards" / name / "counters.card" for name in ("alpha", "beta")]
    texts = [path.read_text(encoding="utf-8") for path in counters]
    for path, text in zip(counters, texts, strict=True):
        path.write_text(text + "\n# edited\n", encoding="utf-8")
    env = {"CARDC_NO_RENAMEAT2": "1", "CARDC_BUILD_KILL_BEFORE": "switch:alpha"}
    assert _build_in(project, env) == -signal.SIGKILL
    assert J in _leftovers(project)  # committed: the recovery will put the edited version in place
    for path, text in zip(counters, texts, strict=True):
        path.write_text(text, encoding="utf-8")  # the edit is undone before the next build
    build(project)  # it finishes the killed switch before it compares keys, then builds today's cards
    assert _tree(project) == old and stale(project) == []
