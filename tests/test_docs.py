"""The examples of docs/language.md, checked against the real compiler.

- A ` ```card ` block compiles as an extra file in a copy of cards/simple_duel/, next to the shared
  definitions of section 1.9. A ` ```card code_of_joker ` block (in general ` ```card FOLDER `)
  compiles as an extra file in a copy of cards/FOLDER/, without the shared definitions. A block
  that holds a `ruleset` compiles on its own, as the only file of a ruleset folder.
- A ` ```card-proposal ` block does not parse: not as a file, not as lines of a ruleset, not as a
  turn's phases, not as sentences of a phase. So a proposal never silently becomes the language.
- A ` ```card-fragment ` block parses as one of the last three (it is not validated: its names come
  from the ruleset it is a piece of).
- The construct count near the top matches the status lines of section 2, planned sections show
  no compiling example, links to sections lead to headings, and the grammar rules, AST classes and
  runtime names of the section 3 table exist.

A full compile renders every module with black (a couple of seconds per ruleset folder), so the
blocks are compiled in batches: one copy of a folder holds every block compiled next to it, each
block a file of its own. A batch with errors is compiled again without the blocks whose files had
them. Each block's own test then validates it alone next to its folder (parse, collect, validate:
the first stages of the same pipeline, without rendering), so a block never passes by leaning on
a definition of another block of its batch; only a block that fails in its batch but not alone is
compiled alone in full.
"""

from __future__ import annotations

import functools
import importlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from compiler import nodes
from compiler.build import compile_project
from compiler.check import validate
from compiler.diagnostics import CompileError, Diagnostic
from compiler.parser import parse
from compiler.symbols import collect
from tests.conftest import ROOT

DOC = ROOT / "docs" / "language.md"
GRAMMAR = ROOT / "grammar" / "cards.lark"
DEFAULT_FOLDER = "simple_duel"  # where a plain ```card block compiles
SHARED_SECTION = "1.9"  # the section whose ```card block holds the shared definitions
FENCE = re.compile(r"^```(\S*)(?: +(\S+))?\s*$")  # ```card code_of_joker: language, then a folder
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? ")
RULESET = re.compile(r"^\s*ruleset\s+\S+\s*\{", re.M)


@dataclass(frozen=True)
class Block:
    """A fenced block of the document: its language, the folder it compiles next to, and where it is."""

    lang: str
    folder: str
    section: str
    line: int  # the document line of the block's first line of code
    text: str
    id: str

    @property
    def next_to(self) -> str:
        """Return the ruleset folder the block compiles next to, or '' if it holds its own ruleset."""
        return "" if RULESET.search(self.text) else self.folder or DEFAULT_FOLDER

    @property
    def stem(self) -> str:
        """Return the name of the block's card file (after every file of the folder it joins)."""
        return "zz_00_shared" if self.section == SHARED_SECTION else f"zz_l{self.line:04d}"


def read_blocks() -> list[Block]:
    """Return every fenced block of the document, each with the number of the section it is in."""
    blocks: list[Block] = []
    seen: dict[tuple[str, str], int] = {}
    body: list[str] = []
    section = ""
    opened: tuple[str, str, int] | None = None  # language, folder, first line of code
    for number, line in enumerate(DOC.read_text(encoding="utf-8").split("\n"), 1):
        if opened is None:
            heading = HEADING.match(line)
            section = heading.group(1) if heading else section
            fence = FENCE.match(line)
            if fence:
                opened, body = (fence.group(1), fence.group(2) or "", number + 1), []
        elif line.startswith("```"):
            lang, folder, start = opened
            seen[(lang, section)] = seen.get((lang, section), 0) + 1
            count = seen[(lang, section)]
            blocks.append(Block(lang, folder, section, start, "\n".join(body) + "\n",
                                section if count == 1 else f"{section}#{count}"))
            opened = None
        else:
            body.append(line)
    assert opened is None, f"docs/language.md: the block opened at line {opened[2] - 1} is not closed"
    return blocks


BLOCKS = read_blocks()
CARD_BLOCKS = [b for b in BLOCKS if b.lang == "card"]
PROPOSALS = [b for b in BLOCKS if b.lang == "card-proposal"]
SHARED = next(b for b in CARD_BLOCKS if b.section == SHARED_SECTION)


def _render(block: Block, diagnostics: list[Diagnostic]) -> list[str]:
    """Return diagnostics as lines, those of the block's own file at their line in the document."""
    out = []
    for d in diagnostics:
        if Path(d.path).stem == block.stem:
            out.append(f"docs/language.md:{block.line + d.line - 1}:{d.col}: {d.code} {d.message}")
        else:
            out.append(f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}")
    return out


def _fill(folder: Path, base: Path | None, members: list[Block]) -> None:
    """Make a ruleset folder: a copy of base (plus the shared definitions next to Simple Duel), then
    one file per block."""
    if folder.exists():
        shutil.rmtree(folder)
    if base is None:
        folder.mkdir(parents=True)
    else:
        shutil.copytree(base, folder)
        if base.name == DEFAULT_FOLDER:
            (folder / f"{SHARED.stem}.card").write_text(SHARED.text, encoding="utf-8")
    for b in members:
        (folder / f"{b.stem}.card").write_text(b.text, encoding="utf-8")


def _compile_batch(root: Path, base: Path | None, members: list[Block]) -> dict[str, list[str]]:
    """Compile blocks together in one folder; return each block's problems (by block id).

    A compile error names the files it is in: those blocks get their errors and the rest is compiled
    again, so that the blocks without errors are still compiled all the way to generated code.
    """
    problems: dict[str, list[str]] = {}
    left = list(members)
    while left:
        _fill(root / "cards" / "doc", base, left)
        try:
            compile_project(root)
        except CompileError as err:
            stems = {Path(d.path).stem for d in err.diagnostics}
            bad = [b for b in left if b.stem in stems]
            for b in bad or left:  # errors outside every block's file: blame the whole batch
                own = [d for d in err.diagnostics if Path(d.path).stem == b.stem]
                problems[b.id] = _render(b, own if bad else err.diagnostics)
            left = [b for b in left if b not in bad] if bad else []
            continue
        except Exception as err:  # a crash past validation (lowering, rendering): every block of the batch
            problems |= {b.id: [f"{type(err).__name__}: {err}"] for b in left}
            break
        problems |= {b.id: [] for b in left}
        break
    return problems


@pytest.fixture(scope="session")
def batch_problems(tmp_path_factory, cards_snapshot: Path) -> dict[str, list[str]]:
    """Return the problems of every ```card block compiled in its batch, by block id."""
    problems: dict[str, list[str]] = {}
    folders = sorted({b.next_to for b in CARD_BLOCKS if b.next_to})
    for folder in folders:
        members = [b for b in CARD_BLOCKS if b.next_to == folder]
        problems |= _compile_batch(tmp_path_factory.mktemp(f"doc_{folder}"), cards_snapshot / folder, members)
    for b in CARD_BLOCKS:
        if not b.next_to:
            problems |= _compile_batch(tmp_path_factory.mktemp("doc_ruleset"), None, [b])
    return problems


@functools.cache
def _parsed_folder(folder: Path) -> tuple[nodes.File, ...]:
    return tuple(parse(p.read_text(encoding="utf-8"), f"{folder.name}/{p.name}") for p in sorted(folder.glob("*.card")))


def _validate_alone(block: Block, cards: Path) -> list[str]:
    """Return the problems of a block parsed and validated alone next to its folder (no rendering)."""
    files = list(_parsed_folder(cards / block.next_to))
    extra = [SHARED] if block.next_to == DEFAULT_FOLDER and block is not SHARED else []
    try:
        files += [parse(b.text, f"{b.stem}.card") for b in [*extra, block]]
    except CompileError as err:
        return _render(block, err.diagnostics)
    return _render(block, validate(files, collect(files)))


def _compile_alone(block: Block, cards: Path, root: Path) -> list[str]:
    """Return the problems of a block compiled in full, alone in a copy of its folder."""
    _fill(root / "cards" / "doc", cards / block.next_to, [block])
    try:
        compile_project(root)
    except CompileError as err:
        return _render(block, err.diagnostics)
    return []


@pytest.mark.parametrize("block", CARD_BLOCKS, ids=[b.id for b in CARD_BLOCKS])
def test_card_block_compiles(block: Block, batch_problems, cards_snapshot: Path, tmp_path: Path):
    problems = batch_problems[block.id]
    if block.next_to:
        alone = _validate_alone(block, cards_snapshot)
        if problems and not alone:  # it failed only in its batch (a name another block defines too)
            problems = _compile_alone(block, cards_snapshot, tmp_path)
        problems = problems or alone
    where = f"next to cards/{block.next_to}/" if block.next_to else "on its own"
    assert not problems, (f"the ```card block of section {block.section} (docs/language.md line {block.line}) "
                          f"does not compile {where}:\n" + "\n".join(problems))


# A proposal must not parse as any of these: a file, a ruleset's lines, a turn's phases, a phase's sentences.
WRAPPERS = {"a file": "{}", "a ruleset's lines": "ruleset doc_proposal {{\n{}\n}}\n",
            "a turn's phases": "ruleset doc_proposal {{\nturn {{\n{}\n}}\n}}\n",
            "a phase's sentences": "ruleset doc_proposal {{\nturn {{\nphase doc {{\n{}\n}}\n}}\n}}\n"}


@pytest.mark.parametrize("block", PROPOSALS, ids=[b.id for b in PROPOSALS])
def test_proposal_does_not_parse(block: Block):
    parsed = []
    for what, wrapper in WRAPPERS.items():
        try:
            parse(wrapper.format(block.text))
        except CompileError:
            continue
        parsed.append(what)
    assert not parsed, (f"the ```card-proposal block of section {block.section} (docs/language.md line "
                        f"{block.line}) parses as {' and as '.join(parsed)}. Its construct is part of the language "
                        "now: mark the section implemented and make the block a ```card example.")


FRAGMENTS = [b for b in BLOCKS if b.lang == "card-fragment"]


@pytest.mark.parametrize("block", FRAGMENTS, ids=[b.id for b in FRAGMENTS])
def test_fragment_parses_as_part_of_a_ruleset(block: Block):
    failures = []  # why it does not parse, for each wrapper
    for what, wrapper in list(WRAPPERS.items())[1:]:
        try:
            parse(wrapper.format(block.text))
        except CompileError as err:
            failures.append(f"as {what}: {err.diagnostics[0].message}")
            continue
        return
    pytest.fail(f"the ```card-fragment block of section {block.section} (docs/language.md line {block.line}) "
                "parses neither " + "; nor ".join(failures))


def _slug(heading: str) -> str:
    """Return the anchor GitHub gives a heading: lowercase, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_to_sections_lead_to_headings():
    text = DOC.read_text(encoding="utf-8")
    anchors = {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", re.sub(r"```.*?```", "", text, flags=re.S), re.M)}
    broken = sorted({link for link in re.findall(r"\]\(#([^)]+)\)", text) if link not in anchors})
    assert not broken


def _statuses() -> dict[str, str]:
    """Return 'implemented' or 'planned' for every section of section 2 that has a status line."""
    out: dict[str, str] = {}
    section = ""
    for line in DOC.read_text(encoding="utf-8").split("\n"):
        heading = HEADING.match(line)
        section = heading.group(1) if heading else section
        status = re.match(r"\*\*Status: (implemented|planned)", line)
        if status and section.startswith("2."):
            assert section not in out, f"section {section} has two status lines"
            out[section] = status.group(1)
    return out


def test_construct_count_matches_the_status_lines():
    statuses = list(_statuses().values())
    found = re.search(r"Of the (\d+) constructs in section 2, (\d+) are implemented and (\d+) are planned",
                      DOC.read_text(encoding="utf-8"))
    assert found, "the construct count line is missing"
    implemented, planned = statuses.count("implemented"), statuses.count("planned")
    assert tuple(map(int, found.groups())) == (len(statuses), implemented, planned)


def test_examples_match_the_status_of_their_section():
    statuses = _statuses()
    wrong = [f"{b.lang} block of planned section {b.section}" for b in CARD_BLOCKS if statuses.get(b.section) == "planned"]
    wrong += [f"card-proposal block of implemented section {b.section}" for b in PROPOSALS
              if statuses.get(b.section) == "implemented"]
    assert not wrong


RUNTIME_MODULES = {"fx": "effects", "turns": "turns", "resolve": "resolve", "triggers": "triggers", "q": "query", "elements": "elements", "shared": "shared", "simultaneous": "simultaneous", "positions": "positions",
                   "actions": "actions", "ending": "ending", "defs": "defs", "view": "view", "engine": "engine",
                   "jokers": "jokers", "windows": "windows", "activate": "activate", "summons": "summons",
                   "grid": "grid", "inherit": "inherit"}
RUNTIME_CLASSES = {"RulesetDef": "defs", "CardDef": "defs", "Game": "engine", "State": "state"}


def _runtime_has(owner: str, attr: str) -> bool | None:
    """Return whether runtime name owner.attr exists (None: owner is no module or class the table uses)."""
    if owner in RUNTIME_MODULES:
        return hasattr(importlib.import_module(f"runtime.{RUNTIME_MODULES[owner]}"), attr)
    if owner in RUNTIME_CLASSES:
        cls = getattr(importlib.import_module(f"runtime.{RUNTIME_CLASSES[owner]}"), owner)
        return hasattr(cls, attr) or attr in getattr(cls, "__dataclass_fields__", {})
    return None


def _table_rows() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("## 3. Construct"):text.index("## 4. Error codes")]
    rows = [line.split(" | ") for line in table.split("\n") if line.startswith("| ") and not line.startswith("| Construct")]
    assert rows, "the section 3 table is missing"
    return rows


def test_the_section_3_table_names_grammar_rules_ast_classes_and_runtime_names_that_exist():
    grammar = GRAMMAR.read_text(encoding="utf-8")
    rules = set(re.findall(r"^[!?]?(\w+):", grammar, re.M)) | set(re.findall(r"->\s*(\w+)", grammar))
    missing = []
    for row in _table_rows():
        construct, rule_cell, ast_cell, runtime_cell = (cell.strip(" |") for cell in row[:4])
        for code in re.findall(r"`(\w+(?: -> \w+)?)`", rule_cell):  # a rule, or a rule and its alias
            missing += [f"{construct}: grammar rule {w}" for w in re.findall(r"\w+", code) if w not in rules]
        for name in re.findall(r"`([A-Z]\w*)", ast_cell):  # classes; `higher` and the like are their fields
            if not hasattr(nodes, name):
                missing.append(f"{construct}: AST class {name}")
        for owner, attr in re.findall(r"`(\w+)\.(\w+)", runtime_cell):
            if _runtime_has(owner, attr) is False:
                missing.append(f"{construct}: runtime {owner}.{attr}")
    assert not missing


def test_the_document_has_examples_of_every_convention():
    assert SHARED.next_to == DEFAULT_FOLDER
    assert {b.next_to for b in CARD_BLOCKS} >= {DEFAULT_FOLDER, "code_of_joker", ""}
    assert PROPOSALS


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Two commands for a fresh machine"):readme.index("## The commands")]
    commands = re.findall(r"```sh\n(.*?)\n```", section, flags=re.S)
    assert len(commands) == 2, commands
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip("\n").splitlines()[-1] == commands[1]
