"""The differential oracle is tested too: a bug planted in lowering, or in lowering's reading of the
ruleset lines, must make the compiled game and the interpreted one part, while without a plant they
agree (docs/fuzzing.md, "What the differential oracle can and cannot catch").

Each plant replaces a compiler function (or datum) in the module that defines it and in every
module that imported it, as a real bug in it would be everywhere it is used. The project is then
built into a temporary folder through the real pipeline, and the comparison of
tests/test_differential.py runs on a few seeded games (tests/test_battle_differential.py's on a few
battles). Had the interpreter kept sharing the helper, the plant would reach both sides and the
oracle would see nothing.

Besides: the two readings of ruleset lines agree on every ruleset the repository and
docs/language.md write (played or not), those of trigger phrases and kind words on every card folder
of the repository, and the interpreter's imports stay off the compile path.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from compiler import lower, lower_battle, lower_terms, settings, symbols
from compiler import nodes as n
from compiler.build import build
from compiler.diagnostics import CompileError
from compiler.interpret_reading import LINE_READERS, event_of, kind_of, read_settings
from compiler.parser import parse
from runtime import vocabulary as v
from runtime.battle.rules import Rules
from tests.conftest import ROOT, compiled_game, generated_package
from tests.test_battle_differential import EDGE_CARDS as BATTLE_EDGE_CARDS
from tests.test_battle_differential import assert_same_battle, random_parties, with_edge_swords
from tests.test_battle_differential import interpreted as interpreted_rules
from tests.test_differential import (
    assert_same_game,
    assert_same_settings,
    deck_pair,
    interpreted,
    legal_decks,
)

GAME_SEEDS = range(8)  # each plant below shows in the first or second game; the control plays them all
BATTLE_SEEDS = range(12)
Plant = Callable[[pytest.MonkeyPatch], None]
# what the comparison says when the two sides part: the first log line where they differ
LOG_DIFFERENCE = re.compile(r"seed \d+: (.* )?line \d+: compiled '.*' != interpreted '.*'$")

# ---------------------------------------------------------------- planting
# A fake passes its arguments on as it got them, so that it outlives changes to the signature it fakes.


def plant(monkeypatch: pytest.MonkeyPatch, original: Callable, fake: Callable) -> list[str]:
    """Put `fake` wherever `original` is bound in a compiler module (where it is defined and where it
    was imported); return those modules."""
    where = []
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("compiler.") or module is None:
            continue
        for attribute, found in sorted(vars(module).items()):
            if found is original:
                monkeypatch.setattr(module, attribute, fake)
                where.append(name)
    assert where, f"{original.__name__} is bound nowhere"
    return where


def planted_in_lowering_only(where: list[str]) -> None:
    """The plant reaches lowering and no part of the interpreter."""
    assert any(m.startswith(("compiler.lower", "compiler.settings")) for m in where), where
    assert not any(m.startswith("compiler.interpret") for m in where), where


def damage_plus_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lowering bug: every 'deal N damage' compiles as N + 1 damage."""
    original = lower.effect

    def effect(e: n.Effect, *rest: Any, **named: Any) -> str:
        code = original(e, *rest, **named)
        return code[:-1] + " + 1)" if isinstance(e, n.DealDamage) else code

    planted_in_lowering_only(plant(monkeypatch, original, effect))


def summoned_as_destroyed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lowering bug: 'when ... is summoned' listens to the 'destroyed' event (symbols.trigger_event)."""
    original = symbols.trigger_event

    def trigger_event(*args: Any, **named: Any) -> v.EventSpec:
        spec = original(*args, **named)
        return v.EVENT_PHRASES["is destroyed"] if spec.name == "summoned" else spec

    planted_in_lowering_only(plant(monkeypatch, original, trigger_event))


def opponent_as_you(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lowering bug: a filter 'an opponent controls' compiles as 'you control'."""
    original = lower_terms.filter_code

    def filter_code(*args: Any, **named: Any) -> str:
        return re.sub(r"^Filter\(('[^']*'), 'opponent'", r"Filter(\1, 'you'", original(*args, **named))

    planted_in_lowering_only(plant(monkeypatch, original, filter_code))


def setting_line_plant(key: str, change: Callable[[list], list]) -> Plant:
    """Return a settings bug: the values of one kind of ruleset line are read wrong (settings._setting)."""

    def planted(monkeypatch: pytest.MonkeyPatch) -> None:
        original = settings._setting

        def _setting(out: dict, line: str, vals: list) -> None:
            original(out, line, change(list(vals)) if line == key else vals)

        planted_in_lowering_only(plant(monkeypatch, original, _setting))

    return planted


def hand_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings bug: the hand gets a limit of 4 cards that no zone line gives it."""
    original = settings.ruleset_settings

    def ruleset_settings(*args: Any, **named: Any) -> dict:
        found = original(*args, **named)
        return found | {"zone_limits": found["zone_limits"] | {"hand": 4}}

    planted_in_lowering_only(plant(monkeypatch, original, ruleset_settings))


LOWERING_PLANTS: dict[str, Plant] = {
    "deal damage compiles as one more": damage_plus_one,
    "'is summoned' compiles as the 'destroyed' event": summoned_as_destroyed,
    "'an opponent controls' compiles as 'you control'": opponent_as_you,
}
SETTINGS_PLANTS: dict[str, tuple[Plant, str]] = {  # the plant, and the RulesetDef attribute it spoils
    "opening hand one more": (setting_line_plant("opening hand", lambda vals: [vals[0] + 1, *vals[1:]]),
                              "opening_hand"),
    "life starts one less": (setting_line_plant("resource", lambda vals: [vals[0], vals[1] - 1, *vals[2:]]
                                                if vals[0] == "life" else vals), "resources"),
    "a hand limit of 4": (hand_limit, "zone_limits"),
}

# ---------------------------------------------------------------- the comparison


@contextmanager
def built_duel(tmp_path: Path, cards: Path) -> Iterator[tuple[Any, Any, list[list[str]]]]:
    """Build a copy of Simple Duel's cards with whatever is planted now; yield the compiled game,
    the interpreted one (read while the plant is still there) and the decks."""
    shutil.copytree(cards / "simple_duel", tmp_path / "cards" / "simple_duel")
    build(tmp_path)
    folder = tmp_path / "cards" / "simple_duel"
    interp = interpreted(tmp_path, folder)
    with compiled_game(tmp_path, "simple_duel") as compiled:
        yield compiled, interp, legal_decks(compiled, folder)


def first_report(compare: Callable[[int], None], seeds: range) -> str:
    """Return the first line of what the oracle reports on the first seed where the two sides part ('' if
    they never do); pytest adds its own explanation below it."""
    for seed in seeds:
        try:
            compare(seed)
        except AssertionError as err:
            return str(err).splitlines()[0]
    return ""


def game_report(compiled: Any, interp: Any, decks: list[list[str]]) -> str:
    return first_report(lambda seed: assert_same_game(compiled, interp, deck_pair(decks, seed), seed), GAME_SEEDS)


def test_without_a_plant_the_oracle_reports_nothing(tmp_path, cards_snapshot):
    with built_duel(tmp_path, cards_snapshot) as (compiled, interp, decks):
        assert_same_settings(compiled.ruleset, interp.ruleset)
        assert game_report(compiled, interp, decks) == ""


@pytest.mark.parametrize("name", sorted(LOWERING_PLANTS))
def test_a_planted_lowering_bug_is_caught(tmp_path, cards_snapshot, monkeypatch, name):
    LOWERING_PLANTS[name](monkeypatch)
    with built_duel(tmp_path, cards_snapshot) as (compiled, interp, decks):
        assert_same_settings(compiled.ruleset, interp.ruleset)  # the plant is in the cards' code only
        report = game_report(compiled, interp, decks)
    assert LOG_DIFFERENCE.match(report), report


@pytest.mark.parametrize("name", sorted(SETTINGS_PLANTS))
def test_a_planted_settings_bug_is_caught(tmp_path, cards_snapshot, monkeypatch, name):
    planted, attribute = SETTINGS_PLANTS[name]
    planted(monkeypatch)
    with built_duel(tmp_path, cards_snapshot) as (compiled, interp, decks):
        with pytest.raises(AssertionError) as settings_report:
            assert_same_settings(compiled.ruleset, interp.ruleset)
        report = game_report(compiled, interp, decks)
    assert str(settings_report.value).startswith(attribute), settings_report.value
    assert LOG_DIFFERENCE.match(report) and report.startswith("seed 0:"), report  # at once, in the first game


# ---------------------------------------------------------------- automatic battles


def tight_after_loose(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lowering bug: inside one hit, 'and then' sentences run before 'furthermore' ones (§8)."""
    monkeypatch.setitem(lower_battle.PER_TARGET, "tight", 3)
    assert not any(m.startswith("compiler.interpret") and getattr(sys.modules[m], "PER_TARGET", None)
                   is lower_battle.PER_TARGET for m in sys.modules)


def battle_amounts_plus_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lowering bug: every amount of a battle effect (hits, recoveries, values) compiles as one more."""
    original = lower_battle.expr
    monkeypatch.setattr(lower_battle, "expr", lambda *args, **named: f"({original(*args, **named)} + 1)")


BATTLE_PLANTS: dict[str, Plant | None] = {
    "no plant": None,
    "'and then' before 'furthermore'": tight_after_loose,
    "battle amounts one more": battle_amounts_plus_one,
}


@pytest.mark.parametrize("name", sorted(BATTLE_PLANTS))
def test_a_planted_battle_lowering_bug_is_caught(tmp_path, monkeypatch, name):
    planted = BATTLE_PLANTS[name]
    if planted is not None:
        planted(monkeypatch)
    folder = tmp_path / "cards" / "marguerite"
    shutil.copytree(ROOT / "cards" / "marguerite", folder)
    (folder / "edge_cases.card").write_text(BATTLE_EDGE_CARDS, encoding="utf-8")
    build(tmp_path)
    interp = interpreted_rules(tmp_path, folder)
    edge = sorted(x for x in interp.cards if x.startswith("Edge "))
    with generated_package(tmp_path, "marguerite") as module:
        compiled = Rules(module.RULESET, module.CARDS, module.STATUSES, module.ENCHANTMENTS)

        def compare(seed: int) -> None:
            parties = with_edge_swords(random_parties(compiled, 20_000 + seed), edge, seed)
            assert_same_battle(compiled, interp, parties, {}, f"seed {seed}")

        report = first_report(compare, BATTLE_SEEDS)
    if planted is None:
        assert report == ""
    else:
        assert LOG_DIFFERENCE.match(report), report


# ---------------------------------------------------------------- every ruleset line written anywhere


def written_rulesets() -> list[tuple[str, n.Ruleset]]:
    """Return every ruleset the repository and docs/language.md write: ruleset files, ```card blocks
    holding a ruleset, and ```card-fragment blocks that are lines of a ruleset."""
    from tests.test_docs import BLOCKS, WRAPPERS

    texts = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
             for p in sorted(ROOT.glob("**/*.card")) if ".venv" not in p.parts]
    for b in BLOCKS:
        if b.lang == "card":
            texts.append((f"docs/language.md:{b.line}", b.text))
        elif b.lang == "card-fragment":
            texts.append((f"docs/language.md:{b.line}", WRAPPERS["a ruleset's lines"].format(b.text)))
    out = []
    for where, text in texts:
        try:
            f = parse(text, where)
        except CompileError:
            continue  # error cases, and fragments that are not ruleset lines
        out += [(where, item) for item in f.items if isinstance(item, n.Ruleset)]
    return out


def test_every_ruleset_line_written_anywhere_is_read_alike():
    # The games compare the settings of the three rulesets they play; this compares the two readings
    # on every line the repository and the language reference write, played or not.
    found = written_rulesets()
    lines = [r.rule if isinstance(r, n.Variant) else r for _, rs in found for r in rs.rules]
    written = {line.key for line in lines if isinstance(line, n.Setting)}
    assert len(found) >= 20
    assert not set(LINE_READERS) - written, f"no ruleset or example writes {sorted(set(LINE_READERS) - written)}"
    for where, rs in found:
        assert read_settings(rs) == settings.ruleset_settings(rs), where


@pytest.mark.parametrize("name", sorted(SETTINGS_PLANTS))
def test_a_planted_settings_bug_shows_in_the_lines_written(monkeypatch, name):
    planted, attribute = SETTINGS_PLANTS[name]
    planted(monkeypatch)
    parted = [where for where, rs in written_rulesets()
              if read_settings(rs).get(attribute) != settings.ruleset_settings(rs).get(attribute)]
    assert "cards/simple_duel/ruleset.card" in parted, parted


def card_folders() -> list[tuple[Path, list[n.File]]]:
    """Return every card folder of the repository that holds a ruleset, with its parsed files."""
    folders = sorted({p.parent for p in ROOT.glob("**/ruleset.card") if ".venv" not in p.parts})
    return [(folder, [parse(p.read_text(encoding="utf-8"), p.name) for p in sorted(folder.glob("*.card"))])
            for folder in folders]


def nodes_of(node: object, kind: type) -> Iterator:
    """Yield every node of a kind inside an AST node, itself included."""
    if isinstance(node, kind):
        yield node
    if isinstance(node, tuple):
        for x in node:
            yield from nodes_of(x, kind)
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            yield from nodes_of(getattr(node, f.name), kind)


def test_every_trigger_and_filter_written_is_read_alike():
    triggers = nouns = 0
    for folder, files in card_folders():
        kinds = symbols.collect(files).kinds
        for f in files:
            for a in nodes_of(f, n.Triggered):
                assert event_of(a, kinds) == symbols.trigger_event(a, kinds), (folder.name, a.loc.line)
                triggers += 1
            for flt in nodes_of(f, n.Filter):
                assert kind_of(flt.kind.value, kinds) == symbols.singular(flt.kind.value, kinds), flt.kind
                nouns += 1
    assert triggers >= 100 and nouns >= 200, (triggers, nouns)


# ---------------------------------------------------------------- what the interpreter imports

INTERPRETER = sorted((ROOT / "compiler").glob("interpret*.py"))
# From the compiler the interpreter uses only the AST, validation (shared with the build: a program
# the checker refuses is not played), the name table the checker collected, and the rules-text renderer
# (an AST walk, so an interpreted card shows the same text as its compiled class); the rest is runtime.
ALLOWED = {"compiler.nodes": None, "compiler.check": {"validate"}, "compiler.diagnostics": {"CompileError"},
           "compiler.symbols": {"Symbols"}, "compiler.rules_text": {"render"}}


def imports_of(path: Path) -> list[tuple[str, set[str]]]:
    """Return (module, names) of every import in a file, function-level ones included."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.module, {a.name for a in node.names}))
        elif isinstance(node, ast.Import):
            out += [(a.name, set()) for a in node.names]
    return out


def test_the_interpreter_imports_nothing_from_the_compile_path():
    assert len(INTERPRETER) >= 5
    for path in INTERPRETER:
        for module, names in imports_of(path):
            if module == "compiler":  # 'from compiler import nodes as n'
                assert names == {"nodes"}, (path.name, names)
            elif module.startswith("compiler.") and not module.startswith("compiler.interpret"):
                assert module in ALLOWED, f"{path.name} imports {module}"
                allowed = ALLOWED[module]
                assert allowed is None or names <= allowed, f"{path.name} imports {names - allowed} from {module}"


def test_the_interpreter_modules_import_each_other_one_way():
    graph = {p.stem: {m.split(".", 1)[1] for m, _ in imports_of(p) if m.startswith("compiler.interpret")}
             for p in INTERPRETER}

    def reaches(start: str, goal: str, seen: frozenset = frozenset()) -> bool:
        return any(x == goal or (x not in seen and reaches(x, goal, seen | {x})) for x in graph[start])

    assert not [m for m in graph if reaches(m, m)], graph
