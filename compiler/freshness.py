"""Whether generated/ is up to date, answered without parsing anything: the build's keys and stamps.

Each generated module records, below its key line (compiler/build.py), a hash of the card file it was
built from and the compiler's fingerprint (`# cardc-source: <hash> compiler <fingerprint>`), and its key
line a hash of its own body. `outdated(root)` hashes the card files and compares: it reads bytes and
imports neither Lark nor black, so a command that runs compiled cards can ask it every time
(tools/fresh.py). A module's key also covers the names of the whole ruleset; those change only with the
text of some card file, which this check sees.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import re
from functools import lru_cache
from pathlib import Path

from runtime.folder_recovery import recover

KEY_LINE = re.compile(r"^# cardc-key: ([0-9a-f]+)-([0-9a-f]+)\n", re.M)
STAMP_LINE = re.compile(r"^# cardc-source: ([0-9a-f]+) compiler ([0-9a-f]+)$", re.M)
REGISTRY = "__init__.py"
# compiler modules that never decide generated code; every other one is part of the fingerprint
NOT_PIPELINE = ("__init__", "gen", "rules_check", "scenario_cards", "interpret", "interpret_battle",
                "interpret_battle_effects", "interpret_reading", "interpret_terms")


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
    if not (out / REGISTRY).is_file():
        return [f"generated/{folder.name}/ was never built"]
    rel = folder.relative_to(root).as_posix()
    sources = sorted(folder.glob("*.card"))
    reasons = [r for path in sources if (r := _module_reason(root, path, out / f"{path.stem}.py", rel))]
    wanted = {f"{path.stem}.py" for path in sources} | {REGISTRY}
    extra = sorted(p.name for p in out.glob("*.py") if p.name not in wanted)
    return reasons + [f"{rel}/{Path(name).stem}.card was removed" for name in extra]


def _module_reason(root: Path, source: Path, module: Path, rel: str) -> str:
    """Return why one card file's module is out of date ('' when it is not)."""
    try:
        text = module.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return f"{rel}/{source.name} is new"
    key, stamp = KEY_LINE.search(text), STAMP_LINE.search(text)
    if key is None or key.group(2) != body_hash(text[key.end():]) or stamp is None:
        return f"{module.relative_to(root).as_posix()} was edited"
    if stamp.group(2) != compiler_fingerprint()[:16]:
        return f"the compiler changed since {module.relative_to(root).as_posix()} was built"
    try:
        digest = source_hash(source.read_bytes())
    except OSError:
        digest = ""  # unreadable: the build reports it, located
    return "" if digest == stamp.group(1) else f"{rel}/{source.name} changed"
