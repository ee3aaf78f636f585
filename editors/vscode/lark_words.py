"""The words of the project's Lark grammars, read as text: each rule's alternatives and their literals.

The highlighting grammars take their keyword lists from here, so a word added to grammar/*.lark is
highlighted once gen_grammar.py runs again (and tests/test_editor.py fails until it has).
"""

from __future__ import annotations

import re
from pathlib import Path

RULE = re.compile(r"^[?!]?(\w+)(?:\.\d+)?\s*:(.*)$")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*$")
# what may stand between the literals of an alternative that is a fixed phrase: an alias, a group
PHRASE_NOISE = re.compile(r'->\s*\w+|[()|\s]')


def read_rules(path: Path) -> dict[str, list[str]]:
    """Return every rule of a .lark file: its name -> its alternatives, as source text."""
    rules: dict[str, list[str]] = {}
    current = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = _strip_comment(raw)
        head = RULE.match(line)
        if head and not raw[:1].isspace():
            current = head.group(1)
            rules[current] = [head.group(2)]
        elif current and line.strip().startswith("|"):
            rules[current].append(line.strip()[1:])
        elif current and line.strip() and raw[:1].isspace():
            rules[current][-1] += " " + line.strip()
        elif not line.strip() or not raw[:1].isspace():
            current = ""
    return {name: _split_top(" | ".join(alts)) for name, alts in rules.items()}


def _strip_comment(line: str) -> str:
    """Return the line without a '//' comment (no literal of the grammars holds '//')."""
    at = line.find("//")
    return line if at < 0 else line[:at]


def _split_top(body: str) -> list[str]:
    """Return the alternatives of a rule body: split at each '|' outside brackets and literals."""
    alts, depth, start, quoted = [], 0, 0, False
    for i, ch in enumerate(body):
        if ch == '"' and body[i - 1 : i] != "\\":
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
        elif not quoted and ch == "|" and depth == 0:
            alts.append(body[start:i])
            start = i + 1
    alts.append(body[start:])
    return [a.strip() for a in alts if a.strip()]


def literals(text: str) -> list[str]:
    """Return the quoted literals of a piece of grammar, in order."""
    return LITERAL.findall(text)


def words(rules: dict[str, list[str]]) -> set[str]:
    """Return every literal of the grammar that is a word (not punctuation or an operator)."""
    return {lit for alts in rules.values() for alt in alts for lit in literals(alt) if WORD.match(lit)}


def phrases(rules: dict[str, list[str]], name: str) -> list[str]:
    """Return the alternatives of a rule that are fixed phrases (literals only), as words with spaces."""
    found = []
    for alt in rules.get(name, []):
        rest = PHRASE_NOISE.sub("", LITERAL.sub("", alt))
        if not rest and "|" not in alt:
            found.append(" ".join(literals(alt)))
    return found


def first_words(rules: dict[str, list[str]], name: str) -> list[str]:
    """Return the first literal word of each rule named by an alternative of `name` (its leading words)."""
    found = []
    for alt in rules.get(name, []):
        for member in re.findall(r"\b\w+\b", alt):
            for body in rules.get(member, []):
                found.extend(_leading(body))
    return found


def _leading(body: str) -> list[str]:
    """Return the first literal word of a rule body, with the others of its group ('("draw" | "draws")')."""
    group = re.search(r'\(\s*"[^"]+"(?:\s*\|\s*"[^"]+")*\s*\)|"[^"]+"', body)
    if not group:
        return []
    return [w for w in literals(group.group(0)) if WORD.match(w)][:1 if group.group(0)[0] == '"' else None]
