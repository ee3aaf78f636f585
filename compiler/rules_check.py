"""The text check: a card's hand-written `text` against the rules text of its abilities (compiler/rules_text.py).

Public entry point: `check_texts(files) -> list[Diagnostic]`, warnings only. Both texts are read for the
same features: scope (you, an opponent, each player, any), targets (kind and how many), numbers and effect
verbs. A feature one text has and the other lacks is a warning that shows both texts, so that wording that
differs harmlessly ("an opponent's unit", "a unit an opponent controls") passes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from compiler import nodes as n
from compiler.build import read_source, rulesets
from compiler.diagnostics import Diagnostic
from compiler.parser import parse
from compiler.rules_text import render

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "twice": 2, "a card": 1, "an ability": 1}
NUMBER = re.compile(r"(?<![\w.])\d+(?!\w)|\b(?:" + "|".join(NUMBER_WORDS) + r")\b(?! of\b)")
# who an ability is about, each said a few ways
SCOPES = {
    "you": r"\byou control\b|\byour (?!turn|choice)\w+|\bof yours\b|\bto you\b",
    "an opponent": r"\bopponents?\b|\bopponent's\b|\benem(?:y|ies)\b",
    "each player": r"\beach player\b|\bevery player\b|\ball players\b|\bboth players\b",
    "any": r"\bany\b",
}
# what an ability does: the verbs that name an effect
EFFECTS = {
    "deal damage": r"\bdamage\b",
    "draw": r"\bdraws?\b",
    "destroy": r"\bdestroy(?:s|ed)?\b",
    "gain": r"\bgains?\b",
    "lose": r"\blos(?:e|es|ing)\b",
    "discard": r"\bdiscards?\b",
    "return to hand": r"\breturns?\b.*\bhand\b",
    "create": r"\bcreates?\b",
    "search": r"\bsearch(?:es)?\b",
    "summon": r"\bsummons?\b",
    "delete": r"\bdelete[sd]?\b",
    "shuffle": r"\bshuffles?\b",
    "recover": r"\brecover(?:s|ed)?\b|\bheals?\b",
}
TARGET_WORDS = frozenset({"opponent", "opponent's", "your", "other", "another", "enemy", "friendly", "an", "a"})
NOT_TARGETS = frozenset({"the", "its", "this", "that", "their"})  # 'the target' names a card, it chooses none


@dataclass(frozen=True)
class Features:
    """What a text says, as the check compares it."""

    scope: frozenset[str]
    targets: tuple[str, ...]
    numbers: frozenset[int]
    effects: frozenset[str]


def _plain(text: str, name: str) -> str:
    """Return a text in lower case without quoted names, reminders in brackets or the card's own name."""
    text = text.lower().replace("’", "'")
    text = text.replace(name.lower(), "this") if name else text
    # a bracket that opens on a word is a reminder ('(Version 1 only.)'); one on a number is a formula
    return re.sub(r"\((?=\s*[a-z])[^()]*\)|\"[^\"]*\"|<[^<>]*>", " ", text)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def _targets(text: str) -> tuple[str, ...]:
    """Return each target as 'N kind': '1 unit', 'up to 2 creature'."""
    words = re.findall(r"[\w']+", text)
    found = []
    for i, word in enumerate(words):
        before = [w for w in words[max(i - 3, 0):i] if w not in ("another", "other")]
        if word not in ("target", "targets") or (before and before[-1] in NOT_TARGETS):
            continue
        count = before[-1] if before and (before[-1].isdigit() or before[-1] in NUMBER_WORDS) else "1"
        up_to = before[-3:-1] == ["up", "to"]
        kinds = [w for w in words[i + 1:i + 4] if w not in TARGET_WORDS]
        kind = kinds[0] if kinds else "thing"
        found.append(f"{'up to ' if up_to else ''}{_number(count)} {kind[:-1] if kind.endswith('s') else kind}")
    return tuple(sorted(found))


def features(text: str, name: str = "") -> Features:
    """Return the features of a rules text or of a hand-written one."""
    plain = _plain(text, name)
    return Features(
        scope=frozenset(k for k, pattern in SCOPES.items() if re.search(pattern, plain)),
        targets=_targets(plain),
        numbers=frozenset(abs(_number(m.group(0))) for m in NUMBER.finditer(plain)),
        effects=frozenset(k for k, pattern in EFFECTS.items() if re.search(pattern, plain)),
    )


CODES = {"scope": "W001", "targets": "W002", "numbers": "W003", "effects": "W004"}


def differences(written: Features, rules: Features) -> list[tuple[str, str]]:
    """Return (code, message) for each feature where the two texts differ, in source words."""
    out = []
    for what in ("scope", "targets", "numbers", "effects"):
        mine, theirs = getattr(written, what), getattr(rules, what)
        if mine != theirs:
            if what != "targets":
                mine, theirs = mine - theirs, theirs - mine
            out.append((CODES[what], f"the text and the abilities differ in {what}: the text says "
                                     f"{_listed(mine)}, the abilities say {_listed(theirs)}"))
    return out


def _listed(values) -> str:
    words = [str(x) for x in sorted(values, key=str)]
    return ", ".join(words) if words else "nothing"


def _written(item: n.Item) -> tuple[str, n.Node] | None:
    """Return an item's hand-written text and the node to report at (the card's `text` part)."""
    if isinstance(item, n.Card):
        texts = [p for p in item.parts if isinstance(p, n.TextDecl)]
        return (texts[0].text, texts[0]) if texts and texts[0].text.strip() else None
    if isinstance(item, (n.KeywordDef, n.StatusDef)) and item.text:
        return item.text, item
    return None


def check_item(item: n.Item, path: str) -> list[Diagnostic]:
    """Return the warnings of one item: one per feature where its text and its abilities differ."""
    written = _written(item)
    if written is None or isinstance(item, n.Ruleset) or not render(item).strip():
        return []  # a card with no abilities has no rules text to compare: its text tells of its stats
    text, node = written
    name = item.name if isinstance(item, n.Card) else item.name.value
    rules = render(item)
    notes = (f"text:  {text}", f"rules: {rules.replace(chr(10), ' ')}")
    return [Diagnostic(code, message, path, node.loc.line, node.loc.col, "warning", notes)
            for code, message in differences(features(text, name), features(rules, name))]


def check_texts(files: list[n.File]) -> list[Diagnostic]:
    """Return every text warning of a ruleset's files, in source order."""
    return [d for f in files for item in f.items for d in check_item(item, f.path)]


def project_warnings(root: Path) -> list[Diagnostic]:
    """Return every text warning of a project's card folders (cards/<ruleset>/*.card), in source order."""
    found: list[Diagnostic] = []
    for folder in rulesets(root):
        paths = sorted(folder.glob("*.card"))
        rels = [p.relative_to(root).as_posix() for p in paths]
        found += check_texts([parse(read_source(p, rel), rel) for p, rel in zip(paths, rels, strict=True)])
    return sorted(found, key=Diagnostic.sort_key)
