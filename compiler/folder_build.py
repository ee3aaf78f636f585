"""One card folder -> its generated files (parse, validate, lower, emit), in memory.

Public entry points: `compile_ruleset(root, folder, use_keys)` and `read_folder(root, folder, texts)`.
With `use_keys` (a build), a module whose key says it is up to date is not rendered again, and a file of
cards alone whose module is up to date is not even parsed: its module's record stands in for it
(compiler/records.py), unless the folder's symbols changed since the last build.
"""

from __future__ import annotations

import hashlib
import keyword
from dataclasses import dataclass
from pathlib import Path

from compiler import nodes as n
from compiler.check import validate
from compiler.diagnostics import CompileError, Diagnostic
from compiler.emit import render
from compiler.files import inside
from compiler.freshness import KEY_LINE, body_hash, compiler_fingerprint, source_hash
from compiler.lower import class_names, lower_file, registry_context
from compiler.parser import parse
from compiler.records import Earlier, cards_record, earlier_build
from compiler.symbols import RecordedFile, Symbols, collect
from runtime.folder_recovery import SAFE_NAME

Unit = n.File | RecordedFile  # a parsed file, or a file of cards alone as its module records it


@dataclass
class Output:
    """One generated file: its path under the project root, its key, and its text once rendered."""

    path: str
    key: str
    text: str | None = None


def _name_problem(path: Path, rel: str) -> Diagnostic | None:
    stem = path.stem if path.is_file() else path.name
    if SAFE_NAME.match(stem) and not keyword.iskeyword(stem):
        return None
    return Diagnostic("E302", f"'{stem}' cannot name a generated module; use lowercase letters, digits "
                              "and '_', starting with a letter", rel, 1, 1)


def read_source(path: Path, rel: str) -> str:
    """Return a card file's text, or raise CompileError if it is not UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        message = f"byte 0x{data[err.start]:02X} is not valid UTF-8 (the file must be UTF-8 text)"
        raise CompileError([Diagnostic("E005", message, rel, line, col)]) from None


def compile_ruleset(root: Path, folder: Path, use_keys: bool) -> list[Output]:
    """Return the generated files of one card folder; raise CompileError listing every problem."""
    sources, problems = _texts(root, folder, {})
    earlier = earlier_build(root, folder, {p: t for p, _, t in sources}) if use_keys else None
    units, more = _units(sources, earlier)
    symbols = collect([u for u, _ in units])
    if earlier is not None and earlier.files and symbols.digest() != earlier.symbols:
        units, more = _units(sources, None)  # the symbols changed: every file is parsed and checked again
        symbols = collect([u for u, _ in units])
    problems = sorted(problems + more + validate([u for u, _ in units], symbols), key=Diagnostic.sort_key)
    if problems:
        raise CompileError(problems)
    return _outputs(root, folder, units, symbols, use_keys)


def read_folder(root: Path, folder: Path, texts: dict[Path, str] | None = None):
    """Return the parsed card files of a folder with their texts, its symbols and every problem, in source
    order. `texts` gives the text of some files instead of what is on disk (an editor's unsaved text)."""
    sources, problems = _texts(root, folder, texts or {})
    units, more = _units(sources, None)
    files = [(u, text) for u, text in units if isinstance(u, n.File)]
    symbols = collect([f for f, _ in files])
    problems += more + validate([f for f, _ in files], symbols)
    return files, symbols, sorted(problems, key=Diagnostic.sort_key)


def _texts(root: Path, folder: Path, texts: dict[Path, str]) -> tuple[list[tuple[Path, str, str]], list[Diagnostic]]:
    """Return (path, relative path, text) of each card file of a folder that can be read, and the problems
    of those that cannot, in source order."""
    problems: list[Diagnostic] = []
    found = []
    bad = _name_problem(folder, folder.relative_to(root).as_posix())
    if bad:
        problems.append(bad)
    for path in sorted(set(folder.glob("*.card")) | {p for p in texts if p.parent == folder}):
        rel = path.relative_to(root).as_posix()
        try:
            if path not in texts and not inside(root / "cards", path):
                raise CompileError([Diagnostic("E301", "this card file links outside cards/; refusing to read it",
                                               rel, 1, 1)])
            unsaved = path in texts and not path.is_file()  # named by its stem, as a file on disk is
            bad = _name_problem(path.with_suffix("") if unsaved else path, rel)
            if bad:
                raise CompileError([bad])
            found.append((path, rel, texts[path] if path in texts else read_source(path, rel)))
        except CompileError as err:
            problems += err.diagnostics
    return found, problems


def _units(sources: list[tuple[Path, str, str]], earlier: Earlier | None) -> tuple[list[tuple[Unit, str]],
                                                                                   list[Diagnostic]]:
    """Return each readable file as a unit with its text: its record when the last build left a true one,
    else its AST; and the syntax errors of those that do not parse."""
    units: list[tuple[Unit, str]] = []
    problems: list[Diagnostic] = []
    for _, rel, text in sources:
        try:
            units.append((earlier.files[rel] if earlier and rel in earlier.files else parse(text, rel), text))
        except CompileError as err:
            problems += err.diagnostics
    return units, problems


def _outputs(root: Path, folder: Path, units: list[tuple[Unit, str]], symbols: Symbols,
             use_keys: bool) -> list[Output]:
    out_dir = f"generated/{folder.name}"
    outputs = []
    for unit, text in units:
        path = f"{out_dir}/{Path(unit.path).stem}.py"
        key = hashlib.sha256("\0".join([compiler_fingerprint(), symbols.digest_text(), unit.path, text])
                             .encode()).hexdigest()[:32]
        out = Output(path, key)
        if not (use_keys and _unchanged_on_disk(root / path, key)):
            out.text = _module(unit if isinstance(unit, n.File) else parse(text, unit.path), text, symbols, key)
        outputs.append(out)
    outputs.append(_registry(root, folder.name, [u for u, _ in units], symbols, use_keys))
    return outputs


def _module(f: n.File, text: str, symbols: Symbols, key: str) -> str:
    """Return the generated module of one parsed card file."""
    # the stamp is what compiler/freshness.py compares without parsing; the record, what the next build reads
    stamp = f"{source_hash(text.encode('utf-8'))} compiler {compiler_fingerprint()[:16]}"
    context = lower_file(f, symbols, f.path) | {"key": "PENDING-0", "stamp": stamp,
                                                "record": cards_record(f, class_names(f))}
    return _with_key(render("module.py.j2", context), key)


def _registry(root: Path, ruleset: str, units: list[Unit], symbols: Symbols, use_keys: bool) -> Output:
    """Return the package module that lists every definition of a ruleset, sorted by name (not rendered when
    the one on disk was made from the same definitions)."""
    context = registry_context(ruleset, units, symbols.digest())
    key = hashlib.sha256(f"{compiler_fingerprint()}\0{context}".encode()).hexdigest()[:32]
    out = Output(f"generated/{ruleset}/__init__.py", key)
    if not (use_keys and _unchanged_on_disk(root / out.path, key)):
        out.text = _with_key(render("registry.py.j2", context), key)
    return out


def _with_key(text: str, key: str) -> str:
    """Return generated text with its key line: the inputs' hash, then a hash of what follows the line."""
    head, _, body = text.partition("# cardc-key: PENDING-0\n")
    return f"{head}# cardc-key: {key}-{body_hash(body)}\n{body}"


def _unchanged_on_disk(path: Path, key: str) -> bool:
    """Return whether a generated file was built from the same inputs and not edited since."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    match = KEY_LINE.search(text)
    return match is not None and match.group(1) == key and match.group(2) == body_hash(text[match.end():])
