"""The text check: a card's hand-written `text` against the rules text of its abilities (compiler/rules_text.py).

Public entry point: `check_texts(files) -> list[Diagnostic]`, warnings only. Both texts are read for the
same features: scope (you, an opponent, each player, any), targets (kind and how many), numbers and effect
verbs. A feature one text has and the other lacks is a warning that shows both texts, so that wording that
differs harmlessly ("an opponent's unit", "a unit an opponent controls") passes. How each feature is read
(reminders, keyword lines a text never names, a lone 1, dealt damage, gained amounts) is docs/rules-text.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from compiler import nodes as n
from compiler.build import in_processes, read_source, rulesets
from compiler.diagnostics import Diagnostic
from compiler.parser import parse
from compiler.rules_text import keyword_use, render

CARDINALS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
             "ten": 10}
# words that say a number without being an amount: 'twice', 'half of', 'the fourth turn'
MULTIPLES = {"twice": 2, "half": 2, "halves": 2, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
             "sixth": 6, "tenth": 10}
NUMBER_WORDS = {**CARDINALS, **MULTIPLES, "a card": 1, "an ability": 1}
NUMBER = re.compile(r"(?<![\w.])\d+(?!\w)|\b(?:" + "|".join(MULTIPLES) + r")\b|\b(?:"
                    + "|".join([*CARDINALS, "a card", "an ability"]) + r")\b(?! of\b)")  # not 'one of your units'
COUNTER_KIND = re.compile(r"[+-]\d+/[+-]\d+(?= counters?\b)")  # '+100/+100 counter' names a kind of counter, not an amount
AMOUNT = r"(?:\d+d?|[xyzn]|that much|" + "|".join(CARDINALS) + r")\b"  # what is gained, lost or dealt
GAINED = r"(?:" + AMOUNT + r"|\(|(?:life|lp|twice|half)\b)"  # 'gain 2 life', 'gain life equal to ...'
# who an ability is about, each said a few ways
SCOPES = {
    "you": r"\byou (?:control|hold)\b|\byour (?!turn|choice)\w+|\bof yours\b|\bto you\b",
    "an opponent": r"\bopponents?\b|\bopponent's\b|\benem(?:y|ies)\b",
    "each player": r"\beach player\b|\bevery player\b|\ball players\b|\bboth players\b",
    "any": r"\bany\b",
}
# what an ability does: the verbs that name an effect
EFFECTS = {
    # dealing damage, not preventing or changing it ('can't be damaged', 'takes no damage', 'damage dealt
    # by this is increased'); a sword's hit is its damage
    "deal damage": r"\bdeal(?:s|ing)?\b[^.;:]*?\bdamage\b|\btakes? " + AMOUNT + r" damage\b|\b"
                   + AMOUNT + r" damage to\b|\bhits?\b[^.;:]*?\bfor\b",
    "draw": r"\bdraws?\b",
    "destroy": r"\bdestroy(?:s|ed)?\b",
    # gaining or losing an amount ('gain 2 life'); gaining a keyword ('gains Silence') is 'give'
    "gain": r"\bgains? " + GAINED,
    "lose": r"\blos(?:e|es|ing) " + GAINED,
    "discard": r"\bdiscards?\b(?! pile)",
    "return to hand": r"\breturn(?:s|ed)?\b.*\bhands?\b",
    "create": r"\bcreates?\b",
    "search": r"\bsearch(?:es)?\b",
    "summon": r"\bsummons?\b",
    "delete": r"\bdelete[sd]?\b",
    "shuffle": r"\bshuffles?\b",
    "recover": r"\brecover(?:s|ed)?\b|\bheals?\b",
}
TARGET_WORDS = frozenset({"opponent", "opponent's", "your", "other", "another", "enemy", "friendly", "an", "a"})
NOT_TARGETS = frozenset({"the", "its", "this", "that", "their"})  # 'the target' names a card, it chooses none
PRONOUNS = frozenset({"it", "its", "itself", "them", "this", "that"})  # 'may target it': the verb, no target


@dataclass(frozen=True)
class Features:
    """What a text says, as the check compares it."""

    scope: frozenset[str]
    targets: tuple[str, ...]
    numbers: frozenset[int]
    effects: frozenset[str]


def _plain(text: str, name: str, reminders: bool = False) -> str:
    """Return a text in lower case without quoted names, counter kinds, the card's own name and (with
    `reminders`) reminders in brackets."""
    text = text.lower().replace("’", "'")
    text = text.replace(name.lower(), "this") if name else text
    text = COUNTER_KIND.sub(" ", re.sub(r"\"[^\"]*\"|<[^<>]*>", " ", text))
    # a bracket that opens on a word is a reminder ('(Version 1 only.)'); one on a number is a formula
    return re.sub(r"\((?=\s*[a-z])[^()]*\)", " ", text) if reminders else text


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def _targets(text: str) -> tuple[str, ...]:
    """Return each target as 'N kind': '1 unit', 'up to 2 creature'."""
    return tuple(sorted(t for part in re.split(r"[.;:]", text) for t in _sentence_targets(part)))


def _sentence_targets(text: str) -> list[str]:
    """Return the targets of one sentence (a number before 'target' counts only in its own sentence)."""
    words = re.findall(r"[\w']+", text)
    found = []
    for i in range(len(words)):
        before = [w for w in words[max(i - 3, 0):i] if w not in ("another", "other")]
        if not _chooses(words, i, before):
            continue
        count = before[-1] if before and (before[-1].isdigit() or before[-1] in NUMBER_WORDS) else "1"
        up_to = before[-3:-1] == ["up", "to"]
        kinds = [w for w in words[i + 1:i + 4] if w not in TARGET_WORDS]
        kind = kinds[0] if kinds else "thing"
        found.append(f"{'up to ' if up_to else ''}{_number(count)} {kind[:-1] if kind.endswith('s') else kind}")
    return found


def _chooses(words: list[str], i: int, before: list[str]) -> bool:
    """Return whether words[i] is 'target' naming a choice: not 'the target', not the verb ('target it')."""
    if words[i] not in ("target", "targets") or (before and before[-1] in NOT_TARGETS):
        return False
    return i + 1 >= len(words) or words[i + 1] not in PRONOUNS


def features(text: str, name: str = "", reminders: bool = False) -> Features:
    """Return the features of a rules text or of a hand-written one (`reminders`: drop its bracketed reminders)."""
    plain = _plain(text, name, reminders)
    return Features(
        scope=frozenset(k for k, pattern in SCOPES.items() if re.search(pattern, plain)),
        targets=_targets(plain),
        numbers=frozenset(abs(_number(m.group(0))) for m in NUMBER.finditer(plain)),
        effects=frozenset(k for k, pattern in EFFECTS.items() if re.search(pattern, plain)),
    )


Described = n.Card | n.KeywordDef | n.StatusDef  # the items with a hand-written text
CODES = {"scope": "W001", "targets": "W002", "numbers": "W003", "effects": "W004"}


def differences(written: Features, rules: Features) -> list[tuple[str, str]]:
    """Return (code, message) for each feature where the two texts differ, in source words."""
    out = []
    for what in ("scope", "targets", "numbers", "effects"):
        mine, theirs = getattr(written, what), getattr(rules, what)
        if what != "targets":
            mine, theirs = mine - theirs, theirs - mine
            if what == "numbers" and mine | theirs <= {1}:
                continue  # English says one without a number: 'a Guard', 'create a token', 'level up'
        if mine != theirs:
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


def _compared(item: Described, text: str, rules: str) -> str:
    """Return the rules text the check compares: without the keyword lines of keywords the text never names,
    since a card prints its keywords by name (Marguerite's 'Delayed 4') and its text may tell only the rest."""
    if not isinstance(item, n.Card):
        return rules
    named = _letters(text)
    unnamed = {keyword_use(k) for p in item.parts if isinstance(p, n.KeywordsDecl) for k in p.items
               if _letters(k.name.value) not in named}
    return "\n".join(line for line in rules.splitlines() if line not in unnamed)


def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def _silent(item: Described, rules: str) -> bool:
    """Return whether an item has no rules text to compare: a card with no abilities (its text tells of its
    stats), a keyword whose meaning lives in the engine (it has no abilities)."""
    if isinstance(item, n.KeywordDef):
        return not item.abilities
    return not rules.strip()


def check_item(item: n.Item, path: str) -> list[Diagnostic]:
    """Return the warnings of one item: one per feature where its text and its abilities differ."""
    written = _written(item)
    if written is None or not isinstance(item, (n.Card, n.KeywordDef, n.StatusDef)):
        return []
    rules = render(item)
    if _silent(item, rules):
        return []
    text, node = written
    name = item.name if isinstance(item, n.Card) else item.name.value
    # a card's brackets remind of keywords and statuses defined elsewhere; a definition's are its meaning
    mine = features(text, name, reminders=isinstance(item, n.Card))
    notes = (f"text:  {text}", f"rules: {rules.replace(chr(10), ' ')}")
    return [Diagnostic(code, message, path, node.loc.line, node.loc.col, "warning", notes)
            for code, message in differences(mine, features(_compared(item, text, rules), name))]


def check_texts(files: list[n.File]) -> list[Diagnostic]:
    """Return every text warning of a ruleset's files, in source order."""
    return [d for f in files for item in f.items for d in check_item(item, f.path)]


def project_warnings(root: Path) -> list[Diagnostic]:
    """Return every text warning of a project's card folders (cards/<ruleset>/*.card), in source order: the
    warnings of a file are its own, so the files are shared out across processes one by one."""
    paths = [p for folder in rulesets(root) for p in sorted(folder.glob("*.card"))]
    found = in_processes(_file_warnings, [root] * len(paths), paths)
    return sorted((d for part in found for d in part), key=Diagnostic.sort_key)


def _file_warnings(root: Path, path: Path) -> list[Diagnostic]:
    """Return every text warning of one card file."""
    rel = path.relative_to(root).as_posix()
    return check_texts([parse(read_source(path, rel), rel)])
