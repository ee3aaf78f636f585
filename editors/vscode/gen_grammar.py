"""Write the TextMate grammars of editors/vscode/syntaxes/ from the project's grammars and vocabulary.

Run from anywhere: `python editors/vscode/gen_grammar.py` (tests/test_editor.py fails while the committed
grammars differ from what this writes; CARDC_UPDATE_GRAMMAR=1 there rewrites them). The keyword lists come
from grammar/cards.lark and grammar/sheets.lark (their literals), runtime/vocabulary.py (phrases) and the
card files of cards/ (the zones, kinds, stats, keywords, statuses and enchantments they declare).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
for folder in (HERE, ROOT):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import card_names  # noqa: E402
import gen_sheets  # noqa: E402
import lark_words  # noqa: E402

from runtime import vocabulary as v  # noqa: E402

SYNTAXES = HERE / "syntaxes"
NAME = r"[A-Za-z][A-Za-z0-9_'-]*"
BEFORE, AFTER = r"(?<![A-Za-z0-9_'-])", r"(?![A-Za-z0-9_'-])"
# first literals of effects that are not verbs ('the ranges of ...', 'damage to ... is reduced')
NOT_VERBS = {"the", "a", "an", "each", "damage"}
# first words of lines that are triggers or joining words, not settings
NOT_FIELDS = {"if", "when", "whenever", "after", "at", "once", "and", "or"}
TRIGGERS = ("when", "whenever", "static", "activate", "effect", "at the start of", "at the end of",
            "after each hit", "once per turn")
# the words that open a sentence of a body, before its effects (the sentence rules of cards.lark)
SENTENCES = ("do", "may", "must_pay", "if_you_do", "if_you_dont", "if_happened", "tight", "loose", "independent")


def words_regex(items: list[str] | set[str] | tuple[str, ...]) -> str:
    """Return a regex matching any of the words or phrases as whole words, the longest first."""
    unique = sorted(set(items), key=lambda w: (-len(w), w))
    alts = [r"\s+".join(re.escape(part) for part in item.split()) for item in unique]
    return BEFORE + "(?:" + "|".join(alts) + ")" + AFTER


def word_rule(scope: str, items) -> dict:
    """Return a rule giving every listed word or phrase the scope."""
    return {"name": scope, "match": words_regex(items)}


def _sentence_openers(rules: dict[str, list[str]]) -> list[str]:
    """Return the fixed words before a sentence's effects: 'you may', 'if you do', 'as a cost', ..."""
    found = ["if", "unless"]
    for name in SENTENCES:
        for alt in rules[name]:
            head = alt.split('","', 1)[0].split("_effects", 1)[0].split("(", 1)[0]
            found.append(" ".join(w for w in lark_words.literals(head) if lark_words.WORD.match(w)))
    return [f for f in found if f]


def vocabulary(rules: dict[str, list[str]]) -> dict[str, list[str]]:
    """Return the word lists of the card grammar, by what they are."""
    cards = lark_words.first_words(rules, "_card_part") + lark_words.first_words(rules, "_status_part")
    rule_lines = lark_words.first_words(rules, "_rule") + lark_words.first_words(rules, "_enchantment_part")
    objects = [p for r in ("object", "ref", "battle_ref", "give_object", "put_object") for p in
               lark_words.phrases(rules, r) if p not in ("all",)]
    lists = {
        "fields": sorted({w for w in cards + rule_lines if w not in NOT_VERBS | NOT_FIELDS}),
        "triggers": list(TRIGGERS),
        "conditionals": sorted(set(_sentence_openers(rules))),
        "events": sorted(set(v.EVENT_PHRASES) | set(v.HOOKS)),
        "restrictions": sorted(v.RESTRICTIONS),
        "durations": sorted({"until " + d for d in v.DURATIONS}),
        "players": sorted(set(v.PLAYER_WORDS) | set(lark_words.phrases(rules, "player"))),
        "controls": sorted(v.CONTROL_WORDS),
        "objects": sorted(set(objects)),
        "verbs": sorted(set(lark_words.first_words(rules, "_effect")) - NOT_VERBS - {"can't", "cannot"}),
        "states": sorted(v.CARD_STATES),
    }
    lists["actions"] = sorted(v.ACTIONS)
    single = {w for key, ws in lists.items() if key != "fields" for w in ws if " " not in w}
    lists["keywords"] = sorted(lark_words.words(rules) - single - {"and", "or", "not"})
    return lists


def card_grammar() -> dict:
    """Return the TextMate grammar of card files (source.card)."""
    rules = lark_words.read_rules(ROOT / "grammar" / "cards.lark")
    words = vocabulary(rules)
    names = card_names.declared(ROOT / "cards")
    repo = {
        "comment": {"name": "comment.line.number-sign.card", "match": "(#).*$",
                    "captures": {"1": {"name": "punctuation.definition.comment.card"}}},
        "string": _string_rule(),
        "headers": {"patterns": _headers()},
        "block": {"begin": r"\{", "end": r"\}", "name": "meta.block.card",
                  "beginCaptures": {"0": {"name": "punctuation.section.block.begin.card"}},
                  "endCaptures": {"0": {"name": "punctuation.section.block.end.card"}},
                  "patterns": [{"include": "$self"}]},
        "fields": {"match": r"^\s*(" + words_regex(words["fields"]) + ")",
                   "captures": {"1": {"name": "keyword.other.field.card"}}},
        "words": {"patterns": _word_rules(words, names)},
        "numbers": {"patterns": [
            {"name": "constant.numeric.dice.card", "match": r"(?<![A-Za-z0-9_'])[0-9]+D[0-9]*(?![A-Za-z0-9_'])"},
            {"name": "constant.numeric.integer.card", "match": "[0-9]+"}]},
        "operators": {"patterns": _operators()},
        "punctuation": {"patterns": _punctuation()},
        "invalid": {"name": "invalid.illegal.character.card", "match": r"[^\s]"},
    }
    order = ["comment", "string", "headers", "block", "fields", "words", "numbers", "operators",
             "punctuation", "invalid"]
    return {"$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
            "name": "cardc card", "scopeName": "source.card", "fileTypes": ["card"],
            "comment": "Generated by editors/vscode/gen_grammar.py from grammar/cards.lark, runtime/vocabulary.py "
                       "and cards/: edit those, then run it again.",
            "patterns": [{"include": "#" + key} for key in order], "repository": repo}


def _string_rule() -> dict:
    """Return the rules of quoted strings: a closed one, with its escapes, or an unclosed one (invalid)."""
    return {"patterns": [
        {"name": "string.quoted.double.card", "match": r'"(?:[^"\\\n]|\\.)*"',
         "captures": {"0": {"patterns": [{"name": "constant.character.escape.card", "match": r"\\."}]}}},
        {"name": "invalid.illegal.unclosed-string.card", "match": r'".*$'}]}


def _headers() -> list[dict]:
    """Return the rules of item headers: 'card "Name"', 'keyword Name(n)', 'ruleset name', 'phase name'."""
    params = {"patterns": [{"name": "variable.parameter.card", "match": NAME},
                           {"name": "punctuation.separator.comma.card", "match": ","}]}
    return [
        {"match": BEFORE + r'(card)\s+("(?:[^"\\\n]|\\.)*")',
         "captures": {"1": {"name": "storage.type.card.card"},
                      "2": {"name": "string.quoted.double.card entity.name.type.card.card"}}},
        {"match": BEFORE + r"(keyword|status|enchantment)\s+(" + NAME + r")(?:\s*(\()([^)\n]*)(\)))?(?=\s*\{)",
         "captures": {"1": {"name": "storage.type.$1.card"}, "2": {"name": "entity.name.type.$1.card"},
                      "3": {"name": "punctuation.section.parens.begin.card"}, "4": params,
                      "5": {"name": "punctuation.section.parens.end.card"}}},
        {"match": BEFORE + r"(ruleset)\s+(" + NAME + r")(?=\s*\{)",
         "captures": {"1": {"name": "storage.type.ruleset.card"}, "2": {"name": "entity.name.type.ruleset.card"}}},
        {"match": BEFORE + r"(phase|step)\s+(" + NAME + r")(?=\s*\{)",
         "captures": {"1": {"name": "keyword.other.section.card"}, "2": {"name": "entity.name.function.$1.card"}}},
    ]


def _word_rules(words: dict[str, list[str]], names: dict[str, list[str]]) -> list[dict]:
    """Return the rules of words, phrases before the words they start with."""
    negation = BEFORE + r"(can't|cannot)(?:\s+(" + words_regex(words["restrictions"]) + "))?"
    return [
        word_rule("keyword.control.trigger.card", words["triggers"]),
        {"match": negation, "captures": {"1": {"name": "keyword.operator.negation.card"},
                                         "2": {"name": "keyword.other.restriction.card"}}},
        word_rule("keyword.control.conditional.card", words["conditionals"]),
        word_rule("keyword.other.event.card", words["events"]),
        word_rule("keyword.other.duration.card", words["durations"]),
        word_rule("keyword.other.control.card", words["controls"]),
        word_rule("variable.language.player.card", words["players"]),
        word_rule("variable.language.object.card", words["objects"]),
        word_rule("keyword.operator.logical.card", ["and", "or", "not"]),
        word_rule("support.function.effect.card", words["verbs"]),
        word_rule("support.function.action.card", words["actions"]),
        word_rule("support.constant.zone.card", names["zones"]),
        word_rule("support.class.kind.card", names["kinds"]),
        word_rule("support.variable.stat.card", names["stats"]),
        word_rule("support.type.keyword.card", names["keywords"]),
        word_rule("support.type.status.card", names["statuses"]),
        word_rule("support.type.enchantment.card", names["enchantments"]),
        word_rule("constant.language.state.card", words["states"]),
        word_rule("keyword.other.card", words["keywords"]),
        {"name": "variable.other.name.card", "match": NAME},
    ]


def _operators() -> list[dict]:
    """Return the rules of operators: comparisons, arithmetic, the option's '='."""
    return [{"name": "keyword.operator.comparison.card", "match": ">=|<=|==|!=|>|<"},
            {"name": "keyword.operator.assignment.card", "match": "="},
            {"name": "keyword.operator.arithmetic.card", "match": r"[-+*×/^]"}]


def _punctuation() -> list[dict]:
    """Return the rules of punctuation; a '}' that closes no block is invalid."""
    marks = [("(", "punctuation.section.parens.begin"), (")", "punctuation.section.parens.end"),
             ("[", "punctuation.section.brackets.begin"), ("]", "punctuation.section.brackets.end"),
             (",", "punctuation.separator.comma"), (".", "punctuation.terminator.sentence"),
             (":", "punctuation.separator.colon"), (";", "punctuation.separator.semicolon"),
             ("}", "invalid.illegal.stray-brace")]
    return [{"name": scope + ".card", "match": re.escape(mark)} for mark, scope in marks]


def grammars() -> dict[str, dict]:
    """Return every grammar, by file name under syntaxes/."""
    sheets = lark_words.read_rules(ROOT / "grammar" / "sheets.lark")
    return {"card.tmLanguage.json": card_grammar(), **gen_sheets.grammars(sheets)}


def render(grammar: dict) -> str:
    """Return a grammar as the text of its file (stable: the same input, the same bytes)."""
    return json.dumps(grammar, indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    """Write every grammar under syntaxes/; return the exit code."""
    SYNTAXES.mkdir(exist_ok=True)
    for name, grammar in grammars().items():
        (SYNTAXES / name).write_text(render(grammar), encoding="utf-8")
        print(f"wrote editors/vscode/syntaxes/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
