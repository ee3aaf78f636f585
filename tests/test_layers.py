"""The layering holds: every import of every project module looks down, and no imports go round in a circle.

Layers, lowest first: `runtime` (the engine), then `generated` (compiled cards, which call the runtime) and
`compiler` (which reads cards and may run the engine, as its reference interpreter does), then `tools` (the
cardc command and what it runs). A module may import its own layer and the layers its row allows. Imports
inside functions count: a lazy import is still a dependency; an `if TYPE_CHECKING:` import names a type for
the type checker only and is not one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("runtime", "generated", "compiler", "tools")
MAY_IMPORT = {
    "runtime": {"runtime"},
    "generated": {"generated", "runtime"},
    "compiler": {"compiler", "runtime"},
    "tools": {"tools", "compiler", "runtime", "generated"},
}


def project_sources(root: Path = ROOT) -> dict[str, str]:
    """Return module name -> source text for every module of the project's packages."""
    sources = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            sources[name] = path.read_text(encoding="utf-8")
    return sources


def imports_of(name: str, source: str, modules: set[str]) -> set[str]:
    """Return the project modules that a module's source imports, anywhere in it."""
    package = name if _is_package(name, modules) else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            # 'from runtime import query' imports the module runtime.query when there is one
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
    return {m for m in found if m in modules and m != name}


def _runtime_nodes(tree: ast.AST):
    """Yield every node that runs, leaving out `if TYPE_CHECKING:` blocks (names for type hints only)."""
    for child in ast.iter_child_nodes(tree):
        typing_only = isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
        for node in child.orelse if typing_only else [child]:
            yield node
            yield from _runtime_nodes(node)


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _is_package(name: str, modules: set[str]) -> bool:
    return any(m.startswith(name + ".") for m in modules)


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Return 'a imports b' for every import that leaves the layers a may use."""
    return [f"{a} imports {b}" for a in sorted(graph) for b in sorted(graph[a])
            if b.split(".")[0] not in MAY_IMPORT[a.split(".")[0]]]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return each import circle once, as the modules around it, starting from its smallest name."""
    found: set[tuple[str, ...]] = set()
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            here, path = stack.pop()
            for nxt in sorted(graph.get(here, ())):
                if nxt == start:
                    found.add(_rotated(path))
                elif nxt not in path and nxt > start:  # a circle is found from its smallest member only
                    stack.append((nxt, path + [nxt]))
    return [list(c) for c in sorted(found)]


def _rotated(path: list[str]) -> tuple[str, ...]:
    i = path.index(min(path))
    return tuple(path[i:] + path[:i])


def graph_of(sources: dict[str, str]) -> dict[str, set[str]]:
    """Return module -> the project modules it imports."""
    modules = set(sources)
    return {name: imports_of(name, text, modules) for name, text in sources.items()}


def test_every_import_looks_down():
    graph = graph_of(project_sources())
    assert {"runtime.engine", "compiler.parser", "tools.cli"} <= set(graph)
    assert upward_imports(graph) == []


def test_no_import_circles():
    assert circles(graph_of(project_sources())) == []


PLANTED = {
    "runtime": "", "runtime.engine": "from runtime import state\n", "runtime.state": "",
    "compiler": "", "compiler.parser": "from runtime.engine import Game\n",
    "tools": "", "tools.cli": "from compiler import parser\nfrom runtime import engine\n",
}


@pytest.mark.parametrize("module, line, expected", [
    ("runtime.state", "def f():\n    from compiler import parser\n", ["runtime.state imports compiler.parser"]),
    ("runtime.state", "from tools.cli import main\n", ["runtime.state imports tools.cli"]),
    ("compiler.parser", "from tools import cli\n", ["compiler.parser imports tools.cli"]),
    ("runtime.state", "from . import engine\n", []),
    ("runtime.state", "if TYPE_CHECKING:\n    from tools.cli import main\nelse:\n    import compiler.parser\n",
     ["runtime.state imports compiler.parser"]),
])
def test_a_planted_upward_import_is_named(module, line, expected):
    graph = graph_of(PLANTED | {module: PLANTED[module] + line})
    assert upward_imports(graph) == expected


def test_a_planted_circle_is_named_once():
    graph = graph_of(PLANTED | {"runtime.state": "def f():\n    from runtime.engine import Game\n"})
    assert circles(graph) == [["runtime.engine", "runtime.state"]]
    three = PLANTED | {"tools": "", "tools.a": "import tools.b\n", "tools.b": "from tools import c\n",
                       "tools.c": "from .a import x\n"}
    assert circles(graph_of(three)) == [["tools.a", "tools.b", "tools.c"]]
    assert circles(graph_of(PLANTED)) == []
