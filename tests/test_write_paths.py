"""Card records are copied on write (State.own): code that writes a record reached through `cards[...]`
directly would write a record a snapshot may share. A scan of the runtime and the tools finds such writes:
an assignment to a field of `X.cards[i]` (or to an item of one of its fields), or a call of a mutating
method on one of its fields. (A record kept in a name and written later is not seen: the games with `own`
copying anew at every call, tests/test_copy_on_write.py, catch that.)"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "clear", "update", "setdefault", "sort",
                      "reverse", "add", "discard"})


def _is_record(node: ast.AST) -> bool:
    """Return whether a node reads a card record out of a state's list: `<x>.cards[<i>]`."""
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "cards"


def _field_of_record(node: ast.AST) -> bool:
    """Return whether a node is a record's field (`s.cards[i].damage`) or an item of one (`...flags[k]`)."""
    if isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Attribute) and _is_record(node.value)


def direct_writes(source: str, name: str) -> list[str]:
    """Return 'name:line' of each direct write to a card record in Python source."""
    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            targets = [node.func.value]
        found += [node.lineno for t in targets if _field_of_record(t)]
    return [f"{name}:{line}" for line in sorted(found)]


def test_no_code_writes_a_card_record_but_through_own():
    files = sorted([*(ROOT / "runtime").rglob("*.py"), *(ROOT / "tools").rglob("*.py")])
    found = [hit for f in files for hit in direct_writes(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))]
    assert found == []


def test_the_scan_finds_each_kind_of_direct_write():
    planted = """
s.cards[cid].damage = 1
s.cards[cid].level += 1
s.cards[cid].flags["destroyed"] = None
s.cards[cid].mods.append(["power", 1])
state.cards[x].statuses.clear()
s.own(cid).damage = 1
c = s.cards[cid]; total = c.damage + s.cards[cid].level
"""
    assert direct_writes(planted, "planted.py") == [f"planted.py:{n}" for n in (2, 3, 4, 5, 6)]


def test_the_scan_reads_real_files(tmp_path: Path):
    f = tmp_path / "m.py"
    f.write_text("def f(s):\n    s.cards[0].face_down = True\n", encoding="utf-8")
    assert direct_writes(f.read_text(encoding="utf-8"), "m.py") == ["m.py:2"]
