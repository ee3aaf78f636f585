"""TextMate grammars of the line-based files (decks, parties, scenarios, battles, teams) and of replays.

Each mirrors a start rule of grammar/sheets.lark; the fixed words of a line come from that grammar's
literals (lark_words), so a word added there shows up here when gen_grammar.py runs again.
"""

from __future__ import annotations

import lark_words

# the rest of a line, without the spaces before a '#' comment or the end (sheets.lark's TEXT)
TEXT = r"[^\s#](?:(?![ \t]+#)(?![ \t]*$).)*"
NUMBER = r"-?\d[^\s#,\[\]()|]*"
PLAYER = r"P\d+"
POSITION = r"[AB]\d+"
COMMENT = r"(?:^|(?<=[ \t]))(#).*$"


def words(rules: dict[str, list[str]], *names: str) -> list[str]:
    """Return the fixed phrases of the named rules (their literal-only alternatives)."""
    return sorted({p for name in names for p in lark_words.phrases(rules, name)}, key=lambda p: (-len(p), p))


def alt(items: list[str]) -> str:
    """Return a regex group matching any of the phrases (spaces as any run of blanks)."""
    return "(?:" + "|".join(r"[ \t]+".join(p.split()) for p in items) + ")"


def comment(fmt: str) -> dict:
    """Return the comment rule of a format: '#' at a line's start or after a blank."""
    return {"name": f"comment.line.number-sign.{fmt}", "match": COMMENT,
            "captures": {"1": {"name": f"punctuation.definition.comment.{fmt}"}}}


def rest(fmt: str, scope: str) -> dict:
    """Return a rule for free text (a card name, a log line) under the scope."""
    return {"name": f"{scope}.{fmt}", "match": TEXT}


def caps(fmt: str, *scopes: str | dict | None) -> dict:
    """Return the captures 1..n of a match: a scope name (given the format's suffix) or a nested rule."""
    out: dict[str, dict] = {}
    for i, scope in enumerate(scopes, 1):
        if isinstance(scope, dict):
            out[str(i)] = scope
        elif scope:
            out[str(i)] = {"name": f"{scope}.{fmt}"}
    return out


def entries(fmt: str) -> dict:
    """Return a nested rule for a list of cards: 'A, 2 B' (counts, names, commas; '-' for none)."""
    return {"patterns": [
        {"match": r"(?<![^\s,])(\d[^\s#,]*)(?=[ \t]+[^\s#,])",
         "captures": caps(fmt, "constant.numeric.integer")},
        {"name": f"punctuation.separator.comma.{fmt}", "match": ","},
        {"name": f"string.unquoted.card-name.{fmt}", "match": r"[^\s#,](?:(?![ \t]+#)[^,\n])*(?<![ \t])"}]}


def deck() -> dict:
    """Return the grammar of deck lists: 'N Card Name' or 'Card Name', one a line."""
    fmt = "cardc-deck"
    line = {"match": r"^[ \t]*(?:(\d[^\s#]*)[ \t]+(?=[^\s#]))?(" + TEXT + ")",
            "captures": caps(fmt, "constant.numeric.integer", "string.unquoted.card-name")}
    return _grammar("cardc deck", fmt, "deck", [comment(fmt), line])


def party() -> dict:
    """Return the grammar of party files: 'Name: HP/ATK/DEF/SPD/sword, sword'."""
    fmt = "cardc-party"
    return _grammar("cardc party", fmt, "sw", [comment(fmt), {"include": "#swordsman"}],
                    {"swordsman": swordsman(fmt)})


def swordsman(fmt: str, start: str = "^[ \t]*") -> dict:
    """Return the rule of one swordsman's line (also the text of a battle file's 'A:' line)."""
    fields = {"patterns": [
        {"name": f"punctuation.separator.slash.{fmt}", "match": "/"},
        {"name": f"punctuation.separator.comma.{fmt}", "match": "[,、，]"},
        {"name": f"constant.numeric.integer.{fmt}", "match": r"(?<![^\s/])-?\d+(?=[ \t]*(?:/|$))"},
        {"name": f"string.unquoted.sword.{fmt}", "match": r"[^\s#/,、，](?:(?![ \t]+#)[^\n#/,、，])*(?<![ \t])"}]}
    return {"match": start + r"([^\s#:：](?:[^\n#:：]*[^\s#:：])?)[ \t]*([:：])[ \t]*((?:(?![ \t]+#).)*)",
            "captures": caps(fmt, "entity.name.type.swordsman", "punctuation.separator.key-value", fields)}


def team() -> dict:
    """Return the grammar of team files: 'team: Name', 'character Name, line', indented 'N: Card'."""
    fmt = "cardc-team"
    return _grammar("cardc team", fmt, "team", [
        comment(fmt),
        {"match": r"^(team)[ \t]*(:)[ \t]*(" + TEXT + ")?",
         "captures": caps(fmt, "keyword.other.header", "punctuation.separator.key-value", "entity.name.type.team")},
        {"match": r"^(character)[ \t]+([^\s#,](?:[^,\n#]*[^\s#,])?)[ \t]*(,)[ \t]*(\w+)",
         "captures": caps(fmt, "keyword.other.header", "entity.name.type.character",
                          "punctuation.separator.comma", "support.constant.line")},
        {"match": r"^[ \t]+([^\s#:]+)(:)[ \t]*(" + TEXT + ")?",
         "captures": caps(fmt, "constant.numeric.face", "punctuation.separator.key-value",
                          "string.unquoted.card-name")},
        {"name": f"invalid.illegal.line.{fmt}", "match": r"^[ \t]*[^\s#].*?(?=[ \t]+#|$)"}])


def replay() -> dict:
    """Return the grammar of replay files: strict JSON, keys told apart from values."""
    fmt = "cardc-replay"
    string = {"begin": '"', "end": '"|$', "name": f"string.quoted.double.{fmt}",
              "patterns": [{"name": f"constant.character.escape.{fmt}", "match": r'\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4})'},
                           {"name": f"invalid.illegal.escape.{fmt}", "match": r"\\."}]}
    key = {"match": r'("(?:[^"\\\n]|\\.)*")[ \t]*(:)',
           "captures": caps(fmt, "support.type.property-name", "punctuation.separator.key-value")}
    value = [{"include": "#key"}, {"include": "#string"},
             {"name": f"constant.numeric.{fmt}", "match": r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"},
             {"name": f"constant.language.{fmt}", "match": r"\b(?:true|false|null)\b"},
             {"name": f"punctuation.section.object.begin.{fmt}", "match": r"\{"},
             {"name": f"punctuation.section.object.end.{fmt}", "match": r"\}"},
             {"name": f"punctuation.section.array.begin.{fmt}", "match": r"\["},
             {"name": f"punctuation.section.array.end.{fmt}", "match": r"\]"},
             {"name": f"punctuation.separator.comma.{fmt}", "match": ","},
             {"name": f"invalid.illegal.character.{fmt}", "match": r"\S"}]
    return _grammar("cardc replay", fmt, "replay.json", [{"include": "#value"}],
                    {"key": key, "string": string, "value": {"patterns": value}})


def _grammar(title: str, fmt: str, ext: str, patterns: list[dict], repo: dict | None = None) -> dict:
    """Return a grammar file's contents."""
    return {"$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
            "name": title, "scopeName": f"source.{fmt}", "fileTypes": [ext],
            "comment": "Generated by editors/vscode/gen_grammar.py from grammar/sheets.lark: edit that, "
                       "then run it again.",
            "patterns": patterns, "repository": repo or {}}


def grammars(rules: dict[str, list[str]]) -> dict[str, dict]:
    """Return the grammars of the other formats, by file name."""
    import gen_scenarios

    return {"deck.tmLanguage.json": deck(), "party.tmLanguage.json": party(),
            "scenario.tmLanguage.json": gen_scenarios.scenario(rules),
            "battle.tmLanguage.json": gen_scenarios.battle(rules),
            "team.tmLanguage.json": team(), "replay.tmLanguage.json": replay()}
