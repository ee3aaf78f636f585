"""TextMate grammars of scenario files (.scenario) and battle scenario files (.battle), from sheets.lark."""

from __future__ import annotations

import lark_words
from gen_sheets import NUMBER, PLAYER, POSITION, TEXT, _grammar, alt, caps, comment, entries, swordsman, words

SC = "cardc-scenario"
B = "cardc-battle"


def _firsts(rules: dict[str, list[str]], name: str) -> list[str]:
    """Return the first literal of each alternative of a rule."""
    return sorted({lark_words.literals(a)[0] for a in rules[name] if lark_words.literals(a)})


def scenario(rules: dict[str, list[str]]) -> dict:
    """Return the grammar of scenario files: header lines, then setup, choices, expect and transcript."""
    sections = [_section(name, pats) for name, pats in (
        ("setup", ["#setup-line", "#player-line"]), ("choices", ["#text-line"]),
        ("expect", ["#log-order", "#expect-line", "#player-line"]), ("transcript", ["#text-line"]),
        ("cards", ["source.card"]))]  # a scenario's own test cards, in the card language
    assert sorted(_firsts(rules, "sc_section")) == ["cards", "choices", "expect", "setup", "transcript"]
    repo = {"header": {"patterns": _headers(rules)}, "setup-line": {"patterns": _setup_lines()},
            "player-line": {"patterns": _player_lines(rules)}, "expect-line": {"patterns": _expect_lines(rules)},
            "log-order": _log_order(), "text-line": {"name": f"string.unquoted.line.{SC}", "match": r"^[ \t]+" + TEXT},
            "bad-line": {"name": f"invalid.illegal.line.{SC}", "match": r"^[ \t]*[^\s#].*?(?=[ \t]+#|$)"}}
    return _grammar("cardc scenario", SC, "scenario",
                    [comment(SC), *sections, {"include": "#header"}, {"include": "#bad-line"}], repo)


def _section(name: str, includes: list[str]) -> dict:
    """Return a section: its 'name:' line and the indented lines after it."""
    return {"begin": rf"^({name})[ \t]*(:)", "end": r"^(?=[^\s#])", "name": f"meta.section.{name}.{SC}",
            "beginCaptures": caps(SC, "entity.name.section", "punctuation.separator.key-value"),
            "patterns": [comment(SC), *({"include": i} for i in includes), {"include": "#bad-line"}]}


def _headers(rules: dict[str, list[str]]) -> list[dict]:
    """Return the header lines: scenario, ruleset, seed, stop, option, rolls, players."""
    stop_words = sorted({w for a in rules["sc_header"] if '"stop"' in a for w in lark_words.literals(a)
                         if lark_words.WORD.match(w) and w != "stop"})
    stop = {"patterns": [{"name": f"keyword.other.stop.{SC}", "match": r"\b" + alt(stop_words) + r"\b"},
                         {"name": f"constant.numeric.integer.{SC}", "match": r"\d+"},
                         {"name": f"variable.other.phase.{SC}", "match": r"\w+"}]}
    numbers = {"patterns": [{"name": f"constant.numeric.integer.{SC}", "match": NUMBER},
                            {"name": f"punctuation.separator.comma.{SC}", "match": ","}]}
    return [
        {"match": r"^(scenario)[ \t]+([^\s#:](?:(?![ \t]+#)[^:\n])*?)(?=[ \t]*(?::|#|$))(?:[ \t]*(:)[ \t]*(" + TEXT
                  + "))?", "captures": caps(SC, "keyword.other.header", "entity.name.function.scenario",
                                            "punctuation.separator.key-value", "string.unquoted.title")},
        {"match": r"^(ruleset)[ \t]+(\w+)", "captures": caps(SC, "keyword.other.header", "entity.name.type.ruleset")},
        {"match": r"^(seed|players)[ \t]+(" + NUMBER + ")",
         "captures": caps(SC, "keyword.other.header", "constant.numeric.integer")},
        {"match": r"^(stop)[ \t]*(:)[ \t]*((?:(?![ \t]+#).)*)",
         "captures": caps(SC, "keyword.other.header", "punctuation.separator.key-value", stop)},
        option(SC),
        {"match": r"^(rolls)[ \t]*(:)((?:(?![ \t]+#).)*)",
         "captures": caps(SC, "keyword.other.header", "punctuation.separator.key-value", numbers)}]


def option(fmt: str) -> dict:
    """Return the 'option NAME = VALUE' line."""
    return {"match": r"^(option)[ \t]+(\w+)[ \t]*(=)[ \t]*(\w+)",
            "captures": caps(fmt, "keyword.other.header", "variable.other.option", "keyword.operator.assignment",
                             "constant.other.option-value")}


def _setup_lines() -> list[dict]:
    """Return the setup lines that are not a player's: 'new game, first P2', 'turn 3, P1 active, phase main'."""
    return [
        {"match": r"^[ \t]+(new[ \t]+game)(?:[ \t]*(,)[ \t]*(first)[ \t]+(" + PLAYER + "))?",
         "captures": caps(SC, "keyword.other.setup", "punctuation.separator.comma", "keyword.other.setup",
                          "variable.language.player")},
        {"match": r"^[ \t]+(turn)[ \t]+(" + NUMBER + r")[ \t]*(,)[ \t]*(" + PLAYER
                  + r")[ \t]+(active)[ \t]*(,)[ \t]*(phase)[ \t]+(\w+)",
         "captures": caps(SC, "keyword.other.setup", "constant.numeric.integer", "punctuation.separator.comma",
                          "variable.language.player", "keyword.other.setup", "punctuation.separator.comma",
                          "keyword.other.setup", "variable.other.phase")}]


def _player_lines(rules: dict[str, list[str]]) -> list[dict]:
    """Return a player's lines: zones and their cards, counts, resources, one card's facts, what it sees."""
    fact_words = sorted({w for a in rules["fact"] for w in lark_words.literals(a) if lark_words.WORD.match(w)})
    fact = {"patterns": [
        {"match": r"\b(is)[ \t]+(" + TEXT + ")", "captures": caps(SC, "keyword.other.fact", "string.unquoted.fact")},
        {"match": r"\b(holds)[ \t]*(:)[ \t]*((?:(?![ \t]+#).)*)",
         "captures": caps(SC, "keyword.other.fact", "punctuation.separator.key-value", entries(SC))},
        {"name": f"keyword.other.fact.{SC}", "match": r"\b" + alt(fact_words) + r"\b"},
        {"name": f"constant.numeric.integer.{SC}", "match": NUMBER},
        {"name": f"variable.other.stat.{SC}", "match": r"\w+"}]}
    who = "^[ \t]+(" + PLAYER + r")[ \t]+"
    return [
        {"match": who + r"(sees|does[ \t]+not[ \t]+see)[ \t]*(:)[ \t]*(" + TEXT + ")?",
         "captures": caps(SC, "variable.language.player", "keyword.other.sees", "punctuation.separator.key-value",
                          "string.unquoted.line")},
        {"match": who + r"(deck[ \t]+list|\w+)[ \t]*(:)[ \t]*((?:(?![ \t]+#).)*)",
         "captures": caps(SC, "variable.language.player", "support.constant.zone", "punctuation.separator.key-value",
                          entries(SC))},
        {"match": who + r"(\w+)[ \t]+(count)[ \t]+(?:(" + TEXT + r"?)[ \t]+)?(" + NUMBER + ")(?=[ \t]*(?:#|$))",
         "captures": caps(SC, "variable.language.player", "support.constant.zone", "keyword.other.count",
                          "string.unquoted.card-name", "constant.numeric.integer")},
        {"match": who + r"(\w+)(\[)(" + NUMBER + r")(\])[ \t]+((?:(?![ \t]+#).)*)",
         "captures": caps(SC, "variable.language.player", "support.constant.zone",
                          "punctuation.section.brackets.begin", "constant.numeric.integer",
                          "punctuation.section.brackets.end", fact)},
        {"match": who + r"(\w+)[ \t]+(" + NUMBER + ")",
         "captures": caps(SC, "variable.language.player", "support.variable.resource", "constant.numeric.integer")}]


def _expect_lines(rules: dict[str, list[str]]) -> list[dict]:
    """Return the lines of an expect section besides a player's: logs, offers, the result, an error."""
    logs = words(rules, "sc_log_kind") + ["offers", "does not offer", "error"]
    results = words(rules, "sc_result_word")
    result = {"patterns": [{"match": "(" + PLAYER + r")[ \t]+(wins)",
                            "captures": caps(SC, "variable.language.player", "constant.language.result")},
                           {"name": f"constant.language.result.{SC}", "match": r"\b" + alt(results) + r"\b"}]}
    return [
        {"match": r"^[ \t]+(" + alt(logs) + r")[ \t]*(:)[ \t]*(" + TEXT + ")?",
         "captures": caps(SC, "keyword.other.expect", "punctuation.separator.key-value", "string.unquoted.line")},
        {"match": r"^[ \t]+(result)[ \t]*(:)[ \t]*((?:(?![ \t]+#).)*)",
         "captures": caps(SC, "keyword.other.expect", "punctuation.separator.key-value", result)}]


def _log_order() -> dict:
    """Return a 'log in order:' block: the lines indented further than its own."""
    return {"begin": r"^([ \t]+)(log[ \t]+in[ \t]+order)[ \t]*(:)", "end": r"^(?=[ \t]*[^\s#])(?!\1[ \t]+\S)",
            "beginCaptures": caps(SC, None, "keyword.other.expect", "punctuation.separator.key-value"),
            "patterns": [comment(SC), {"name": f"string.unquoted.line.{SC}", "match": r"^[ \t]+" + TEXT}]}


def battle(rules: dict[str, list[str]]) -> dict:
    """Return the grammar of battle scenario files: parties, 'given', 'run' and 'expect' lines."""
    runs = words(rules, "b_run_what")
    logs = words(rules, "sc_log_kind")
    who = "(" + POSITION + r"|\w+)"
    values = {"patterns": [{"match": r"(\w+)[ \t]+(" + NUMBER + ")",
                            "captures": caps(B, "variable.other.value", "constant.numeric.integer")},
                           {"name": f"punctuation.separator.comma.{B}", "match": ","}]}
    sword_is = {"patterns": [{"name": f"constant.language.used.{B}", "match": r"\b(?:used|unused)\b"},
                             {"name": f"constant.numeric.integer.{B}", "match": NUMBER},
                             {"name": f"punctuation.section.parens.begin.{B}", "match": r"\("},
                             {"name": f"punctuation.section.parens.end.{B}", "match": r"\)"},
                             {"name": f"punctuation.separator.comma.{B}", "match": ","},
                             {"name": f"support.type.enchantment.{B}", "match": r"\w+"}]}
    pieces = {"patterns": [{"name": f"punctuation.separator.pipe.{B}", "match": r"\|"},
                           {"name": f"string.unquoted.line.{B}", "match": r"[^\s#|](?:(?![ \t]+#)[^|\n])*(?<![ \t])"}]}
    kw, colon, text = "keyword.other.battle", "punctuation.separator.key-value", "string.unquoted.line"
    lines = [
        comment(B), option(B),
        {"match": r"^(A|B)[ \t]*(:)[ \t]*((?:(?![ \t]+#).)*)",
         "captures": caps(B, "variable.language.side", colon, {"patterns": [{"include": "#swordsman"}]})},
        {"match": r"^(given)[ \t]+(turn)[ \t]+(" + NUMBER + ")", "captures": caps(B, kw, kw, "constant.numeric.integer")},
        {"match": r"^(given)[ \t]+" + who + r"[ \t]+(sword)[ \t]+(" + NUMBER + r")[ \t]+((?:(?![ \t]+#).)*)",
         "captures": caps(B, kw, "variable.other.position", kw, "constant.numeric.integer", sword_is)},
        {"match": r"^(given)[ \t]+" + who + r"[ \t]+((?:(?![ \t]+#).)*)",
         "captures": caps(B, kw, "variable.other.position", values)},
        {"match": r"^(run)[ \t]*(:)[ \t]*(?:(" + NUMBER + r")[ \t]+)?(" + alt(runs) + ")",
         "captures": caps(B, kw, colon, "constant.numeric.integer", "constant.language.run")},
        {"match": r"^(expect)[ \t]+(log[ \t]+in[ \t]+order)[ \t]*(:)[ \t]*((?:(?![ \t]+#).)*)",
         "captures": caps(B, kw, kw, colon, pieces)},
        {"match": r"^(expect)[ \t]+(" + alt(logs) + r")[ \t]*(:)[ \t]*(" + TEXT + ")?",
         "captures": caps(B, kw, kw, colon, text)},
        {"match": r"^(expect)[ \t]+(result)[ \t]*(:)[ \t]*(\w+)",
         "captures": caps(B, kw, kw, colon, "constant.language.result")},
        {"match": r"^(expect)[ \t]+(turn)[ \t]+(" + NUMBER + ")", "captures": caps(B, kw, kw, "constant.numeric.integer")},
        {"match": r"^(expect)[ \t]+(party)[ \t]+(A|B)[ \t]*(:)[ \t]*(" + TEXT + ")?",
         "captures": caps(B, kw, kw, "variable.language.side", colon, text)},
        {"match": r"^(expect)[ \t]+" + who + r"[ \t]+(swords)[ \t]*(:)[ \t]*(" + TEXT + ")?",
         "captures": caps(B, kw, "variable.other.position", kw, colon, text)},
        {"match": r"^(expect)[ \t]+" + who + r"[ \t]+(\w+)[ \t]+(" + NUMBER + ")",
         "captures": caps(B, kw, "variable.other.position", "variable.other.value", "constant.numeric.integer")},
        {"name": f"invalid.illegal.line.{B}", "match": r"^[ \t]*[^\s#].*?(?=[ \t]+#|$)"}]
    return _grammar("cardc battle", B, "battle", lines, {"swordsman": swordsman(B, "")})
