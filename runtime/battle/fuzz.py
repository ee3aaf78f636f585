"""`cardc fuzz` for automatic battles: random legal parties, the invariants a finished battle keeps, shrinking."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from runtime.battle.parties import Budget, SwordsmanSpec, format_swordsman, parse_party
from runtime.battle.play import budget_of
from runtime.battle.procedure import new_battle, run
from runtime.battle.rules import Rules
from runtime.battle.state import Battle

NAMES = ("Aster", "Brisk", "Corvin", "Dalla", "Edda", "Fenn", "Galen", "Hesper", "Ilse")


def random_swordsman(rules: Rules, rng: random.Random, budget: Budget, name: str) -> SwordsmanSpec:
    """Return a swordsman spending exactly the budget: some points on swords, the rest spread over stats."""
    swords = sorted(n for n, c in rules.cards.items() if c.kind in rules.sword_kinds)
    count = rng.randint(1, min(6, budget.points))
    spend = {"max_hp": 0, "atk": 0, "def": 0, "spd": 0}
    for _ in range(budget.points - count):
        spend[rng.choice(sorted(spend))] += 1
    picked = tuple(rng.choice(swords) for _ in range(count))
    per = budget.per_point
    return SwordsmanSpec(name, spend["max_hp"] * per["max_hp"], spend["atk"] * per["atk"],
                         spend["def"] * per["def"], spend["spd"] * per["spd"], picked, 0)


def random_party(rules: Rules, rng: random.Random, budget: Budget, size: int = 0) -> list[SwordsmanSpec]:
    """Return 1-3 random swordsmen (or `size`), each within the budget."""
    names = rng.sample(NAMES, size or rng.randint(1, 3))
    return [random_swordsman(rules, rng, budget, name) for name in names]


def violations(s: Battle) -> list[str]:
    """Return what a finished battle breaks: an end, the turn bound, AP and HP bounds, exits, sword ownership."""
    out = []
    if s.result not in ("A", "B", "draw"):
        out.append(f"no result (result {s.result!r})")
    last = s.defs.ruleset.last_turn
    late = [line for line in s.log if line.endswith(" turn starts") and int(line[1:].split()[0]) > last]
    if late:  # 星霜剣 may push the number past the last turn, but no turn starts there
        out.append(f"'{late[0]}' comes after the last turn, {last}")
    seen: set[int] = set()
    for f in s.fighters():
        if f.values["ap"] < 0 or f.values["reserve_ap"] < 0:
            out.append(f"{f.name} has AP {f.values['ap']}, reserve AP {f.values['reserve_ap']}")
        if f.hp <= 0 and not s.turn_zero:
            out.append(f"{f.name} is dead (HP {f.hp}) but still in its party after the end")
        if any(count < 0 for count in f.states.values()):
            out.append(f"{f.name} has a negative state count: {f.states}")
        if f.hp > f.values["max_hp"]:  # only recovery and 'max HP' assignments raise HP in this pool
            out.append(f"{f.name} has HP {f.hp} above its max HP {f.values['max_hp']}")
        for w in f.swords:
            if w.id in seen:
                out.append(f"sword {w.id} ({w.card}) is held twice")
            seen.add(w.id)
    for side, party in enumerate(s.parties):
        if [f.id for f in party] != _party_order(party):
            out.append(f"party {'AB'[side]} is out of order: {', '.join(f.name for f in party)}")
    for f in s.exited[0] + s.exited[1]:
        if f.hp > 0 or f.overkill != -f.hp:
            out.append(f"{f.name} exited with HP {f.hp} and overkill {f.overkill}")
    if not any("result:" in line for line in s.log[-1:]):
        out.append("the log does not end with the result")
    return out


def _party_order(party: list) -> list[int]:
    """Return the ids of a party in the order the rules keep: builds newest first, then the rest as created."""
    built = sorted((f.id for f in party if f.built), reverse=True)
    return built + sorted(f.id for f in party if not f.built)


def check(rules: Rules, a: list[SwordsmanSpec], b: list[SwordsmanSpec], options: dict[str, str]) -> list[str]:
    """Return what one battle between a and b breaks: the invariants, a replay, the party-file round trip."""
    try:
        first, again = (run(new_battle(rules, (a, b), options)) for _ in range(2))
    except Exception as err:  # a crash is the finding: report it like any other violation
        return [f"exception {type(err).__name__}: {err}"]
    out = violations(first)
    if first.log != again.log:
        out.append("the replay differs")
    for spec in a + b:
        line = format_swordsman(spec)
        if parse_party(line, "fuzz", rules.spellings) != [replace(spec, line=1)]:
            out.append(f"the party line '{line}' does not read back as itself")
    return out


def shrink(rules: Rules, a: list[SwordsmanSpec], b: list[SwordsmanSpec],
           options: dict[str, str]) -> tuple[list[SwordsmanSpec], list[SwordsmanSpec]]:
    """Return smaller legal parties that still break something: drop swordsmen, trade swords for HP."""
    parties = [a, b]
    changed = True
    while changed:
        changed = False
        for side in (0, 1):
            for smaller in _smaller(rules, parties[side]):
                trial = [smaller, parties[1]] if side == 0 else [parties[0], smaller]
                if check(rules, trial[0], trial[1], options):
                    parties, changed = trial, True
                    break
    return parties[0], parties[1]


def _smaller(rules: Rules, party: list[SwordsmanSpec]) -> list[list[SwordsmanSpec]]:
    """Return the parties one step smaller than party, each within the same budget."""
    out = [party[:i] + party[i + 1:] for i in range(len(party))] if len(party) > 1 else []
    budget = budget_of(rules)
    per_hp = budget.per_point["max_hp"] if budget else 1
    for i, spec in enumerate(party):
        for j in range(len(spec.swords)):
            fewer = replace(spec, swords=spec.swords[:j] + spec.swords[j + 1:], max_hp=spec.max_hp + per_hp)
            out.append(party[:i] + [fewer] + party[i + 1:])
    return out


def fuzz_battles(rules: Rules, games: int, seed: int, options: dict[str, str], out: Path | None,
                 stdout: TextIO, stderr: TextIO) -> int:
    """`cardc fuzz` on an automatic ruleset: 0 no violation, 1 a violation (the two parties written)."""
    budget = budget_of(rules)
    if budget is None:
        print(f"cardc fuzz: '{rules.ruleset.name}' has no creation budget to draw swordsmen from", file=stderr)
        return 2
    if games < 1:
        print("cardc fuzz: --games must be at least 1", file=stderr)
        return 2
    started = time.perf_counter()
    print(f"fuzzing {rules.ruleset.name}: {games} battles between random legal parties from seed {seed}", file=stderr)
    for n in range(games):
        rng = random.Random(seed * 1_000_003 + n)
        a, b = random_party(rules, rng, budget), random_party(rules, rng, budget)
        found = check(rules, a, b, options)
        if found:
            return _report(rules, n, shrink(rules, a, b, options), options, out, seed, stdout)
    seconds = time.perf_counter() - started
    print(f"no violation in {games} battles ({seconds:.1f} s, {games / seconds:.0f} battles/s)", file=stdout)
    return 0


def _report(rules: Rules, n: int, parties: tuple[list[SwordsmanSpec], list[SwordsmanSpec]],
            options: dict[str, str], out: Path | None, seed: int, stdout: TextIO) -> int:
    prefix = str(out) if out else f"fuzz-{rules.ruleset.name}-seed{seed}"
    paths = [Path(f"{prefix}-{side}.sw") for side in "AB"]
    for path, party in zip(paths, parties, strict=True):
        path.write_text("".join(format_swordsman(spec) + "\n" for spec in party), encoding="utf-8")
    flags = "".join(f" --option {k}={v}" for k, v in sorted(options.items()))
    print(f"violation found in battle {n + 1}:", file=stdout)
    for problem in check(rules, *parties, options):
        print(f"  {problem}", file=stdout)
    print(f"shrunk parties written to {paths[0]} and {paths[1]}; run: "
          f"cardc play {rules.ruleset.name} {paths[0]} {paths[1]}{flags}", file=stdout)
    return 1
