"""The runtime kernel compiled to C by mypyc: the same source, a faster build of it.

`python -m benchmarks.kernel` copies the runtime package into `.build/kernel/runtime/` and compiles the
kernel's hot modules there with mypyc (mypy's compiler, which turns type-annotated Python into C
extension modules). Where that folder comes first on the path, `import runtime` finds the copy: `--kernel`
on the benchmarks does that (LAUNCH), and so does `PYTHONPATH=.build/kernel cardc ...` (but not `python -m`
from the project's root, where the working directory comes first). Nothing outside `.build/` is written.
The copy is rebuilt only when a runtime source file, mypy's or Python's version changed (a key of their
hashes). The tests hold the compiled kernel to the source's logs (tests/test_kernel.py).
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / ".build" / "kernel"
KEY_FILE = "KEY"

# The modules a game step runs through; the rest (loading, views, tools' helpers) stay Python.
MODULES = ("query", "effects", "actions", "turns", "triggers", "resolve", "ending", "engine", "unchanged", "choices",
           "windows", "summons", "elements", "grid", "positions", "actors", "activate", "jokers", "simultaneous",
           "inherit", "shared", "battle/effects", "battle/hooks", "battle/procedure", "battle/right")


class KernelError(Exception):
    """The compiled kernel could not be built (mypyc or the C compiler failed)."""


def _key(root: Path) -> str:
    """Return the hash of every runtime source file and the mypyc version: equal keys, equal builds."""
    import mypy.version

    h = hashlib.sha256(f"{mypy.version.__version__} {sys.version} {MODULES}".encode())
    for path in sorted((root / "runtime").rglob("*.py")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def build(root: Path = ROOT, out: Path = OUT) -> Path:
    """Return the folder to put on PYTHONPATH for the compiled kernel, building it first if it is stale."""
    key = _key(root)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / f"{out.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time (test workers): a second waits, then finds it fresh
        if (out / KEY_FILE).is_file() and (out / KEY_FILE).read_text(encoding="utf-8") == key:
            return out
        with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
            work = Path(tmp) / "kernel"
            shutil.copytree(root / "runtime", work / "runtime", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
            _compile(work)
            (work / KEY_FILE).write_text(key, encoding="utf-8")
            if out.exists():  # replaced whole, never half: the old build stays until the new one is complete
                shutil.rmtree(out)
            work.rename(out)
    return out


def _compile(work: Path) -> None:
    """Compile the kernel modules in place in `work` (their .so files land beside the .py files)."""
    files = [f"runtime/{name}.py" for name in MODULES]
    env = os.environ | {"MYPYC_OPT_LEVEL": "3"}
    done = subprocess.run([sys.executable, "-m", "mypyc", *files], cwd=work, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        errors = [line for line in done.stdout.splitlines() + done.stderr.splitlines() if "error" in line]
        errors = errors[:20] or (done.stderr.strip() or "(no message)").splitlines()[-1:]
        raise KernelError("mypyc could not compile the kernel:\n" + "\n".join(errors))
    shutil.rmtree(work / "build", ignore_errors=True)


def active() -> Path | None:
    """Return the compiled kernel's folder if this process runs on one (None: on the source)."""
    from runtime import query

    return Path(query.__file__).parent.parent if not query.__file__.endswith(".py") else None


# Run a module as `python -m` would, with the compiled kernel's folder first on the path (before the working
# directory, which `python -m` and `-c` put first): argv is [kernel folder, module, its arguments...].
LAUNCH = ("import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
          "runpy.run_module(sys.argv.pop(1), run_name='__main__', alter_sys=True)")


def _built() -> Path | None:
    """Return the compiled kernel's folder, built first if it is stale; None (after saying why) if it can't be."""
    try:
        return build()
    except KernelError as e:
        print(f"error: {e}", file=sys.stderr)
        return None


def command(module: str, argv: list[str] | None) -> int:
    """Build the compiled kernel if it is stale, run `python -m module` on it with the arguments of this command
    (`argv`; None: the command line's) but --kernel, and return its exit status."""
    out = _built()
    if out is None:
        return 1
    rest = [a for a in (sys.argv[1:] if argv is None else argv) if a != "--kernel"]
    return subprocess.run([sys.executable, "-c", LAUNCH, str(out), module, *rest], check=False).returncode


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.parse_args(argv)
    out = _built()
    if out is None:
        return 1
    print(f"compiled kernel: {out}\nuse it: python -m benchmarks.run --kernel, or PYTHONPATH={out} cardc ...")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
