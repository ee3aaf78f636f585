"""Whether generated/ is up to date, answered without parsing anything: the build's keys and stamps.

Each ruleset's registry (generated/<ruleset>/__init__.py) records the compiler's fingerprint and a hash
of every card file it was built from (`# cardc-compiler:` and `# cardc-source:` lines); each generated
module records a hash of its own body (compiler/build.py's key line). `outdated(root)` hashes the card
files and compares: it reads bytes and imports neither Lark nor black, so a command that runs compiled
cards can ask it every time (tools/fresh.py).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import re
from functools import lru_cache
from pathlib import Path

from runtime.folder_recovery import recover

KEY_LINE = re.compile(r"^# cardc-key: ([0-9a-f]+)-([0-9a-f]+)\n", re.M)
COMPILER_LINE = re.compile(r"^# cardc-compiler: ([0-9a-f]+)$", re.M)
SOURCE_LINE = re.compile(r"^# cardc-source: (\S+) ([0-9a-f]+)$", re.M)
REGISTRY = "__init__.py"
# compiler modules that never decide generated code; every other one is part of the fingerprint
NOT_PIPELINE = ("__init__", "fmt", "gen", "interpret", "interpret_battle", "interpret_battle_effects",
                "interpret_reading", "interpret_terms")


def fingerprint_files() -> list[Path]:
    """Return the files that decide generated code: compiler modules, templates, grammar, vocabulary."""
    here = Path(__file__).resolve().parent
    files = [p for p in sorted(here.glob("*.py")) if p.stem not in NOT_PIPELINE]
    files += sorted((here / "templates").glob("*.j2"))
    return files + [here.parent / "grammar" / "cards.lark", here.parent / "runtime" / "vocabulary.py"]


@lru_cache(maxsize=1)
def compiler_fingerprint() -> str:
    """Return a hash of the files that decide generated code and of black's version."""
    h = hashlib.sha256(importlib.metadata.version("black").encode())
    for f in fingerprint_files():
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def source_hash(data: bytes) -> str:
    """Return the short hash a registry records for one card file's bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


def body_hash(text: str) -> str:
    """Return the hash a generated module's key line records for what follows the line."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def rulesets(root: Path) -> list[Path]:
    """Return the card folders of a project, sorted: cards/<ruleset>/."""
    base = root / "cards"
    return sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []


def outdated(root: Path) -> list[str]:
    """Return why generated/ differs from what a build would write now, one reason a line ([] when fresh)."""
    gen = root / "generated"
    recover(gen)  # as every reader does: a killed build's switch is finished or undone first
    reasons = [] if (gen / REGISTRY).is_file() else ["generated/__init__.py is missing"]
    folders = rulesets(root)
    for folder in folders:
        reasons += _folder_reasons(root, folder)
    known = {f.name for f in folders}
    extra = sorted(p.parent.name for p in gen.glob(f"*/{REGISTRY}") if p.parent.name not in known)
    return reasons + [f"generated/{name}/ has no card folder cards/{name}/" for name in extra]


def _folder_reasons(root: Path, folder: Path) -> list[str]:
    """Return why one ruleset's generated folder is out of date."""
    out = root / "generated" / folder.name
    try:
        registry = (out / REGISTRY).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return [f"generated/{folder.name}/ was never built"]
    built = COMPILER_LINE.search(registry)
    if built is None or built.group(1) != compiler_fingerprint()[:32]:
        return [f"the compiler changed since generated/{folder.name}/ was built"]
    recorded = dict(SOURCE_LINE.findall(registry))
    return _source_reasons(root, folder, recorded) + _module_reasons(root, out, recorded)


def _source_reasons(root: Path, folder: Path, recorded: dict[str, str]) -> list[str]:
    """Return each card file that is new, changed or removed since the registry was written."""
    rel = folder.relative_to(root).as_posix()
    reasons, present = [], set()
    for path in sorted(folder.glob("*.card")):
        present.add(path.name)
        try:
            digest = source_hash(path.read_bytes())
        except OSError:
            digest = ""  # unreadable: the build reports it, located
        if path.name not in recorded:
            reasons.append(f"{rel}/{path.name} is new")
        elif recorded[path.name] != digest:
            reasons.append(f"{rel}/{path.name} changed")
    return reasons + [f"{rel}/{name} was removed" for name in sorted(set(recorded) - present)]


def _module_reasons(root: Path, out: Path, recorded: dict[str, str]) -> list[str]:
    """Return each generated module that is missing, edited by hand, or produced by no card file."""
    wanted = {Path(name).stem + ".py" for name in recorded} | {REGISTRY}
    reasons = []
    for name in sorted(wanted - {REGISTRY}):
        if not _intact(out / name):
            reasons.append(f"{(out / name).relative_to(root).as_posix()} is missing or was edited")
    extra = sorted(p.name for p in out.glob("*.py") if p.name not in wanted)
    return reasons + [f"{(out / name).relative_to(root).as_posix()} has no card file" for name in extra]


def _intact(path: Path) -> bool:
    """Return whether a generated module's body still matches the hash its key line records."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    match = KEY_LINE.search(text)
    return match is not None and match.group(2) == body_hash(text[match.end():])
