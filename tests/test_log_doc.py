"""docs/log.md is true: every line the runtime logs in seeded sample games of every ruleset (both versions of
Code of Joker, random agents, the sample decks and teams) and in the Marguerite battles of tests/battles/
matches a pattern the reference documents, and a line it does not document fails the check.

The doc's patterns are the data: each entry has one line `pattern: TEXT`, where `{name}` stands for any text
and everything else is literal; the line is compared without its prefix (`T3 main.activation: `, `setup: `,
a battle's `T1 `)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from runtime import engine
from runtime.agents import RandomAgent
from runtime.battle.rules import load_rules
from runtime.load import load_game
from tests.conftest import ROOT
from tools.battle.scenario import parse_scenario, run_scenario
from tools.play import legal_samples, read_entries

DOC = ROOT / "docs" / "log.md"
GAMES = {"code_of_joker": [{"version": "v1"}, {"version": "v2"}], "simple_duel": [{}], "successor": [{}],
         "war_vortex_night": [{}]}
SEEDS = range(3)
PREFIX = re.compile(r"^(?:setup: |T\d+(?: [\w. ]+?)?: )")  # the phase may be two words ('turn end')
BATTLE_PREFIX = re.compile(r"^T\d+ ")


def patterns(text: str) -> list[re.Pattern[str]]:
    """Return the regular expressions of a doc's `pattern:` lines ('{name}' is any text, the rest literal)."""
    found = []
    for line in text.splitlines():
        if line.startswith("pattern: "):
            parts = re.split(r"\{\w+\}", line[len("pattern: "):].strip().strip("`"))
            found.append(re.compile(".*?".join(re.escape(p) for p in parts), re.S))
    return found


def undocumented(lines: list[str], known: list[re.Pattern[str]]) -> list[str]:
    """Return the lines no pattern matches whole."""
    return [x for x in lines if not any(p.fullmatch(x) for p in known)]


@cache
def card_game_lines() -> dict[str, list[str]]:
    """Return, by ruleset, the lines (prefix removed) of seeded random games with the sample decks."""
    out: dict[str, list[str]] = {}
    for name, option_sets in GAMES.items():
        for options in option_sets:
            game = load_game(name)
            game = game.with_options(options) if options else game
            decks = read_entries(game, legal_samples(ROOT, game)[:2])
            for seed in SEEDS:
                s = game.new_game([list(d) for d in decks], seed)
                agents = [RandomAgent(seed * 7 + k) for k in range(len(s.players))]
                while not engine.is_terminal(s) and s.actions_taken < 3000:
                    engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
                out.setdefault(name, []).extend(PREFIX.sub("", x) for x in s.log)
    return out


@cache
def battle_lines() -> list[str]:
    """Return the lines (prefix removed) of every Marguerite battle of tests/battles/."""
    rules, out = load_rules("marguerite"), []
    for path in sorted((ROOT / "tests" / "battles" / "marguerite").glob("*.battle")):
        battle, _ = run_scenario(rules, parse_scenario(path.read_text(encoding="utf-8"), path.name, rules))
        out += [BATTLE_PREFIX.sub("", x) for x in battle.log]
    return out


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_every_line_of_sample_games_is_documented(ruleset: str) -> None:
    lines = card_game_lines()[ruleset]
    assert len(lines) > 100
    assert sorted(set(undocumented(lines, patterns(DOC.read_text(encoding="utf-8"))))) == []


def test_every_line_of_the_battles_is_documented() -> None:
    lines = battle_lines()
    assert len(lines) > 100
    assert sorted(set(undocumented(lines, patterns(DOC.read_text(encoding="utf-8"))))) == []


def test_a_planted_undocumented_line_fails_the_check() -> None:
    known = patterns(DOC.read_text(encoding="utf-8"))
    planted = "Ember Whelp#3 juggles 3 torches"
    lines = card_game_lines()["simple_duel"] + [planted]
    assert undocumented(lines, known) == [planted]
    shortened = [p for p in known if not p.fullmatch("P1 draws 1 card")]  # a documented line taken out
    assert "P1 draws 1 card" in undocumented(lines, shortened)


def test_each_entry_has_a_meaning_and_an_example_that_its_pattern_matches() -> None:
    text = DOC.read_text(encoding="utf-8")
    entries = re.findall(r"^pattern: `(.*)`\n\nmeaning: .+\n\nexample: (.*)\n", text, re.M)
    assert len(entries) == len(patterns(text)) > 150
    examples = [(p, e[1:-1]) for p, e in entries if e.startswith("`")]
    assert len(examples) > 120
    assert [(p, e) for p, e in examples if not patterns(f"pattern: {p}")[0].fullmatch(e)] == []
