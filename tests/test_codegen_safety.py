"""Card-provided text can never become code: hostile names and texts build into modules that parse,
import, keep every string exactly, and use only a small set of Python constructs.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import sys
import tokenize
from pathlib import Path

import pytest

from compiler.ast_common import MAX_NUMBER
from compiler.build import build
from compiler.parser import parse
from tests.conftest import RULESET_FILE, generated_package

FOLDER = "safety"

# Strings that are awkward in Python source: quotes, escapes, line breaks of every kind, bidi and
# other invisible controls, Python keywords, dunders, names of the generated code's own imports,
# Jinja syntax, and text that would be code if it were pasted unquoted.
HOSTILE = [
    'say "hi"',
    "it's",
    "'''",
    '"""',
    "a\"\"\"b'''c",
    '"""); import os; os.system("echo pwned") #',
    "'; __import__('os').system('x'); '",
    "back\\slash\\",
    "\\",
    "\\\\",
    "\\n is not a newline",
    "\\x41 \\u0041 \\N{BULLET} \\0",
    "new\nline",
    "two\n\nblank\n# not a comment\n",
    "tab\there",
    "carriage\rreturn",
    "line\u2028separator",
    "paragraph\u2029separator",
    "next\x85line",
    "vertical\x0btab\x0cform feed",
    "file\x1cgroup\x1drecord\x1eunit\x1fseparators",
    "nul\x00byte",
    "bidi \u202e evil \u202c override \u202a\u202b\u202d",
    "isolates \u2066\u2067\u2068 x \u2069",
    "marks \u200e\u200f\u061c zero\u200bwidth\u200c\u200d join\ufeff",
    "class",
    "None",
    "True",
    "lambda",
    "import",
    "__init__",
    "__class__",
    "__builtins__",
    "self",
    "CardDef",
    "Filter",
    "fx",
    "turns",
    "choices",
    "Card",
    "",
    " ",
    "123",
    "{{ name }} {% raw %} {# comment #}",
    "${x} %s {0} %(name)s",
    "Ωmega 名前 שלום 🐉 e\u0301",
]

# Keyword and status names are NAME tokens: letters, digits, '_', apostrophes and hyphens.
HOSTILE_NAMES = ["None", "class", "import", "Don't-Stop", "fx", "CardDef", "x'''", "a__init__"]


def card_literal(value: str) -> str:
    """Return a card-language string literal whose value is `value`."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def hostile_card_file() -> str:
    parts = []
    for i, name in enumerate(HOSTILE):
        text = HOSTILE[-1 - i]
        parts.append(f"card {card_literal(name)} {{\n    kind creature\n    text {card_literal(text)}\n}}\n")
    for i, name in enumerate(HOSTILE_NAMES):
        parts.append(f"keyword {name} {{\n    text {card_literal(HOSTILE[i])}\n}}\n")
        parts.append(f"status S{i}{name} {{\n    text {card_literal(HOSTILE[-1 - i])}\n}}\n")
    keywords = ", ".join(HOSTILE_NAMES)
    tokens = " ".join(f"you create 1 {card_literal(name)} token." for name in HOSTILE[:6])
    parts.append(f'card "Summoner" {{\n    kind creature\n    keywords {keywords}\n'
                 f"    when this is summoned: {tokens}\n}}\n")
    parts.append(f'card "Huge" {{\n    kind creature\n    cost {HUGE} mana\n    stats power {HUGE + 1}, speed 1\n'
                 f"    when this is summoned: deal ({HUGE} * {HUGE}) damage to target creature.\n}}\n")
    return "".join(parts)


HUGE = MAX_NUMBER - 1  # with HUGE + 1, the largest numbers card text may write


ALLOWED_NODES = {
    ast.Module, ast.ClassDef, ast.FunctionDef, ast.Assign, ast.Return, ast.Expr, ast.If, ast.Pass,
    ast.Call, ast.Attribute, ast.Name, ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.BinOp,
    ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Subscript, ast.keyword, ast.arguments, ast.arg,
    ast.Load, ast.Store, ast.ImportFrom, ast.Import, ast.alias,
    ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd, ast.Add, ast.Sub, ast.Mult,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
}


@pytest.fixture(scope="module")
def hostile_project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("codegen_safety")
    folder = root / "cards" / FOLDER
    folder.mkdir(parents=True)
    shutil.copyfile(RULESET_FILE, folder / "ruleset.card")
    (folder / "hostile.card").write_bytes(hostile_card_file().encode("utf-8"))
    build(root)
    return root


@pytest.fixture
def registry(hostile_project):
    """Import the hostile project's registry from its own generated/ package, then forget it."""
    with generated_package(hostile_project, FOLDER) as module:
        assert Path(module.__file__).resolve().is_relative_to(hostile_project.resolve())
        yield module


def generated_files(root: Path) -> list[Path]:
    return sorted((root / "generated").rglob("*.py"))


def test_the_card_file_says_what_the_test_means():
    f = parse(hostile_card_file(), "hostile.card")
    cards = [i for i in f.items if type(i).__name__ == "Card"]
    assert [c.name for c in cards[:len(HOSTILE)]] == HOSTILE
    assert [c.parts[1].text for c in cards[:len(HOSTILE)]] == HOSTILE[::-1]


def test_every_generated_module_parses(hostile_project):
    files = generated_files(hostile_project)
    assert {p.relative_to(hostile_project).as_posix() for p in files} == {
        "generated/__init__.py", f"generated/{FOLDER}/__init__.py", f"generated/{FOLDER}/ruleset.py",
        f"generated/{FOLDER}/hostile.py"}
    for path in files:
        ast.parse(path.read_text(encoding="utf-8"), str(path))


@pytest.mark.parametrize("which", ["hostile", "real cards"])
def test_generated_modules_use_only_allowed_constructs(request, which):
    root = request.getfixturevalue("hostile_project" if which == "hostile" else "built_snapshot")
    files = generated_files(root)
    assert files
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            assert type(node) in ALLOWED_NODES, f"{path.name}:{getattr(node, 'lineno', '?')}: {ast.dump(node)[:200]}"
            if isinstance(node, ast.Import):
                raise AssertionError(f"{path.name}: plain import {ast.dump(node)}")
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, ast.dump(node)
                assert node.module in ("runtime", "runtime.defs", "runtime.battle") or node.module.startswith("generated."), \
                    ast.dump(node)
                if node.module == "runtime":
                    assert {a.name for a in node.names} <= {"effects", "turns", "actions", "choices"}, ast.dump(node)
            if isinstance(node, ast.Name):
                assert not node.id.startswith("__"), node.id
            if isinstance(node, ast.Attribute):
                assert not node.attr.startswith("__"), node.attr
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("eval", "exec", "compile", "getattr", "setattr", "open"), node.func.id


def test_hostile_strings_appear_only_as_constants(hostile_project):
    source = (hostile_project / "generated" / FOLDER / "hostile.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    constants = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    for value in HOSTILE:
        assert value in constants, repr(value)
    # Nothing invisible or line-breaking is written raw: every such character is escaped.
    for ch in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\u202e\u2066\u2069\u200e\u200b\ufeff\x00":
        assert ch not in source, repr(ch)
    # The module is imports and classes only, and its only comments are the three header lines.
    assert {type(stmt) for stmt in tree.body} == {ast.ImportFrom, ast.ClassDef}
    comments = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline)
                if t.type == tokenize.COMMENT]
    assert len(comments) == 3
    assert comments[0].startswith("# Generated by cardc from cards/safety/hostile.card.")
    assert comments[1].startswith("# cardc-key: ")
    assert re.fullmatch(r"# cardc-source: [0-9a-f]{16} compiler [0-9a-f]{16}", comments[2])


def test_names_and_texts_survive_import_exactly(registry):
    by_name = registry.CARDS
    assert set(HOSTILE) | {"Summoner", "Huge"} == set(by_name)
    for i, name in enumerate(HOSTILE):
        cls = by_name[name]
        assert cls.name == name
        assert cls.text == HOSTILE[-1 - i]
        assert cls.__module__ == f"generated.{FOLDER}.hostile"
        assert cls.__name__.isidentifier() and not cls.__name__.startswith("_")
    assert len({c.__name__ for c in by_name.values()}) == len(by_name)


def test_keyword_and_status_names_survive_import_exactly(registry):
    assert set(registry.KEYWORDS) == set(HOSTILE_NAMES)
    assert set(registry.STATUSES) == {f"S{i}{name}" for i, name in enumerate(HOSTILE_NAMES)}
    for i, name in enumerate(HOSTILE_NAMES):
        assert registry.KEYWORDS[name].name == name
        assert registry.KEYWORDS[name].text == HOSTILE[i]
        assert registry.STATUSES[f"S{i}{name}"].text == HOSTILE[-1 - i]
    summoner = registry.CARDS["Summoner"]
    assert summoner.keywords == tuple((name, ()) for name in HOSTILE_NAMES)


def test_token_names_reach_code_only_as_constants(hostile_project):
    source = (hostile_project / "generated" / FOLDER / "hostile.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == "create_token"]
    assert [c.args[-1].value for c in calls] == HOSTILE[:6]
    assert all(isinstance(c.args[-1], ast.Constant) for c in calls)


def test_importing_does_not_leak_the_hostile_package(hostile_project):
    assert not any(m == "generated" or m.startswith("generated.") for m in sys.modules
                   if getattr(sys.modules[m], "__file__", None) and
                   str(hostile_project) in str(sys.modules[m].__file__))


def test_huge_numbers_stay_numbers(registry):
    huge = registry.CARDS["Huge"]
    assert huge.cost == {"mana": HUGE} and huge.stats["power"] == HUGE + 1
