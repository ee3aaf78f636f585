"""`cardc gallery RULESET -o DIR`: a static, searchable HTML page of every card of a compiled ruleset.

DIR receives index.html, gallery.js, gallery.css and code/<module>.html (each generated module with line
anchors, so a card links to the line of its class). Templates live in tools/web/ and are rendered with
autoescape on: card names and texts reach the page only escaped. The same ruleset gives the same bytes.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from compiler.files import inside, write_atomic

WEB = Path(__file__).parent / "web"
ASSETS = ("gallery.js", "gallery.css")  # copied as they are: no card text in them


class GalleryError(Exception):
    """A gallery that cannot be written (the folder is a file, a path leads out of it)."""


def environment() -> Environment:
    """Return the Jinja environment of tools/web/, escaping every value it prints."""
    return Environment(loader=FileSystemLoader(WEB), autoescape=True, undefined=StrictUndefined,
                       keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)


def _class_line(source: list[str], name: str) -> int:
    """Return the 1-based line where `class name(` or `class name:` starts in a module (0: not found)."""
    for i, line in enumerate(source, 1):
        if line.startswith((f"class {name}(", f"class {name}:")):
            return i
    return 0


def _keyword(name: str, args: tuple) -> str:
    """Return a keyword as a card prints it: 'Delayed 3', 'Penetrate'."""
    return " ".join([name, *(str(a) for a in args)])


def card_entry(card: Any, sources: dict[str, list[str]]) -> dict[str, Any]:
    """Return what the gallery shows of one card class, with the link to its line in the code pages."""
    module = card.__module__.rpartition(".")[2]
    line = _class_line(sources.get(module, []), card.__name__) if isinstance(card, type) else 0
    return {
        "name": card.name, "kind": card.kind, "where": card.where,
        "cost": ", ".join(f"{n} {r}" for r, n in card.cost.items()),
        "cost_total": str(sum(card.cost.values())) if card.cost else "",
        "stats": [f"{k} {v}" for k, v in card.stats.items()],
        "attributes": [f"{k} {v}" for k, v in sorted(card.attributes.items())],
        "keywords": [_keyword(k, tuple(a)) for k, a in card.keywords],
        "keyword_names": sorted({k for k, _a in card.keywords}),
        "rules": [x for x in (card.rules or "").split("\n") if x],
        "text": card.text, "token": card.token,
        "href": f"code/{module}.html#L{line}" if line else "", "cls": card.__name__,
    }


def _modules(cards: dict[str, Any]) -> dict[str, list[str]]:
    """Return the source lines of every generated module that defines a card, by module name."""
    sources = {}
    for card in cards.values():
        name = card.__module__
        if name.rpartition(".")[2] not in sources:
            path = Path(sys.modules[name].__file__ or "")
            sources[name.rpartition(".")[2]] = path.read_text(encoding="utf-8").splitlines()
    return dict(sorted(sources.items()))


def _filters(entries: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Return the choices of each filter: kinds, cost totals (by number) and keywords, each once."""
    costs = sorted({e["cost_total"] for e in entries if e["cost_total"]}, key=int)
    return {"kinds": sorted({e["kind"] for e in entries}), "costs": costs,
            "keywords": sorted({k for e in entries for k in e["keyword_names"]}),
            "no_cost": [""] if any(not e["cost_total"] for e in entries) else []}


def gallery_files(ruleset: str) -> dict[str, str]:
    """Return every file of a ruleset's gallery (path inside DIR -> text), cards sorted by name."""
    module = importlib.import_module(f"generated.{ruleset}")
    sources = _modules(module.CARDS)
    entries = [card_entry(module.CARDS[name], sources) for name in sorted(module.CARDS)]
    env = environment()
    files = {"index.html": env.get_template("gallery.html.j2").render(
        ruleset=ruleset, cards=entries, filters=_filters(entries))}
    for name, lines in sources.items():
        files[f"code/{name}.html"] = env.get_template("code.html.j2").render(
            ruleset=ruleset, module=name, lines=lines)
    files.update({asset: (WEB / asset).read_text(encoding="utf-8") for asset in ASSETS})
    return files


def write_folder(folder: Path, files: dict[str, str]) -> None:
    """Write files into folder (created if missing); GalleryError for a file there or a path leading out."""
    if folder.exists() and not folder.is_dir():
        raise GalleryError(f"{folder} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in sorted(files.items()):
        path = folder / rel
        if not inside(folder, path):  # a link inside DIR (code/ -> elsewhere) would lead the write out
            raise GalleryError(f"refusing to write {path}: it leads outside {folder}")
        write_atomic(path, text)


def gallery_command(ruleset: str, out: Path) -> int:
    """Write the gallery of a compiled ruleset into out; return the exit code."""
    files = gallery_files(ruleset)
    try:
        write_folder(out, files)
    except GalleryError as err:
        print(f"cardc gallery: {err}", file=sys.stderr)
        return 2
    cards = files["index.html"].count('<article class="card"')
    print(f"gallery of {ruleset}: {cards} cards, {len(files)} files written to {out}")
    return 0
