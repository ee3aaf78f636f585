"""The card pools, together, use every implemented construct at least twice (issues: card pools). The pools
are the rulesets of cards/ and the test rulesets of tests/rulesets/ (Quick Duel, Skirmish), whose cards
try the mechanisms a ruleset to come is built on (docs/plans/war-vortex-night.md) in real games."""

from __future__ import annotations

from collections import Counter

from compiler import nodes as n
from compiler.parser import parse
from runtime import vocabulary as v
from tests.conftest import ROOT

POOL = ROOT / "cards" / "simple_duel"
POOLS = sorted(p for p in [*(ROOT / "cards").iterdir(), *ROOT.glob("tests/rulesets/*/cards/*")]
               if (p / "ruleset.card").exists())
# Constructs that make up a ruleset's own structure, or only cards' headers, are not counted.
RULESET_ONLY = {"Stage", "PlayStaged", "AttackAll", "Attacker", "Blocker", "OrderKey", "Setting", "KindRule",
                "ZoneDecl", "Step", "Phase", "Turn", "Battle", "TriggerOrder", "Checks", "LoseRule", "Ruleset",
                "Variant", "Actions", "ActionItem", "TakeActions", "AnnounceTurn", "ChosenBlocker", "DealJokers",
                "ActionRight", "Budget", "PerformRolled", "NormalMove"}
# Marguerite's pool is the seed's closed list (75 swords, 13 states): these constructs serve exactly one
# sword or state there (星霜剣 raises the turn, 共鳴剣 changes swords, Guard sets the damage, ...).
CLOSED_POOL_ONCE = {"BuildFails", "ChangeSword", "HasClass", "MoveSword", "Power", "RaiseTurn", "Recover",
                    "RemoveClass", "ReverseSwords", "SetDamage", "SkipAction"}


def _walk(node, counts: Counter) -> None:
    """Count every node class, sentence mode, event phrase, player word and duration under node."""
    if isinstance(node, n.Node):
        counts[type(node).__name__] += 1
        if isinstance(node, n.Sentence):
            counts[f"mode:{node.mode}"] += 1
        elif isinstance(node, n.Triggered):
            counts[f"event:{v.EVENT_PHRASES[node.event].name}"] += 1
            counts[f"subject:{node.subject.kind}"] += 1
        elif isinstance(node, n.Timed):
            counts[f"timed:{node.whose}:{'phase' if node.phase else 'turn'}"] += 1
        elif isinstance(node, n.Duration):
            counts[f"duration:{node.until}"] += 1
        elif isinstance(node, n.StatusDef):
            for key, value in node.settings:
                counts[f"status:{key} {value.split()[-1] if key == 'lasts' else value}"] += 1
        for value in node.__dict__.values():
            _walk(value, counts)
    elif isinstance(node, tuple):
        for item in node:
            _walk(item, counts)


def pool_counts() -> Counter:
    """Return construct counts over every pool's files, rulesets included (some constructs, like
    'round number', are mostly said by rulesets)."""
    counts: Counter = Counter()
    for pool in POOLS:
        for path in sorted(pool.glob("*.card")):
            _walk(parse(path.read_text(encoding="utf-8"), path.name), counts)
    return counts


def test_every_construct_is_used_at_least_twice():
    counts = pool_counts()
    node_classes = {c.__name__ for c in vars(n).values()
                    if isinstance(c, type) and issubclass(c, n.Node) and c not in (n.Node, n.File)}
    wanted = (node_classes - RULESET_ONLY) | {f"mode:{m}" for m in ("do", "may", "must_pay", "if_you_do",
                                                                     "if_you_dont")}
    wanted |= {f"event:{spec.name}" for spec in v.EVENT_PHRASES.values()}
    wanted |= {f"duration:{d}" for d in v.DURATIONS}
    wanted |= {f"timed:{w}:turn" for w in v.WHOSE} | {"subject:this", "subject:player", "subject:filter"}
    wanted |= {"status:stacking stacks", "status:stacking once", "status:consumed never",
               "status:consumed on trigger"}
    rare = {name: counts[name] for name in sorted(wanted) if counts[name] < (1 if name in CLOSED_POOL_ONCE else 2)}
    assert not rare, f"constructs used fewer than twice in the pool: {rare}"


def test_the_test_rulesets_are_pools_too():
    assert {p.name for p in POOLS} >= {"simple_duel", "code_of_joker", "marguerite", "quick_duel", "skirmish"}


def test_pool_size_and_kinds():
    counts = Counter()
    for path in sorted(POOL.glob("*.card")):
        for item in parse(path.read_text(encoding="utf-8"), path.name).items:
            if isinstance(item, n.Card):
                kind = next(p.kind.value for p in item.parts if isinstance(p, n.KindDecl))
                counts[kind] += 1
    assert sum(counts.values()) >= 40
    assert all(counts[k] >= 2 for k in ("creature", "spell", "keep-spell", "counter")), counts
