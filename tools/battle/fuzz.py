"""`cardc fuzz` for automatic battles: random legal parties, the invariants a finished battle keeps, shrinking."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from compiler.diagnostics import CompileError
from compiler.party_files import parse_party
from runtime.battle.invariants import replayed, violations
from runtime.battle.parties import Budget, SwordsmanSpec, format_swordsman
from runtime.battle.procedure import new_battle, run
from runtime.battle.rules import Rules
from tools.battle.play import budget_of

NAMES = ("Aster", "Brisk", "Corvin", "Dalla", "Edda", "Fenn", "Galen", "Hesper", "Ilse")


def random_swordsman(rules: Rules, rng: random.Random, budget: Budget, name: str,
                     focus: tuple[str, ...] = ()) -> SwordsmanSpec:
    """Return a swordsman spending exactly the budget: some points on swords, the rest spread over stats.
    With focus, one of its swords (and each other one with even odds) is drawn from the focus swords."""
    swords = sorted(n for n, c in rules.cards.items() if c.kind in rules.sword_kinds)
    count = rng.randint(1, min(6, budget.points))
    spend = {"max_hp": 0, "atk": 0, "def": 0, "spd": 0}
    for _ in range(budget.points - count):
        spend[rng.choice(sorted(spend))] += 1
    if focus:
        picked = [rng.choice(focus)] + [rng.choice(focus if rng.random() < 0.5 else swords) for _ in range(count - 1)]
        rng.shuffle(picked)  # the place in the list matters (a control sword acts on the next one)
    else:  # the draws of a whole-pool campaign stay as they were, so its seeds keep their battles
        picked = [rng.choice(swords) for _ in range(count)]
    per = budget.per_point
    return SwordsmanSpec(name, spend["max_hp"] * per["max_hp"], spend["atk"] * per["atk"],
                         spend["def"] * per["def"], spend["spd"] * per["spd"], tuple(picked), 0)


def random_party(rules: Rules, rng: random.Random, budget: Budget, size: int = 0,
                 focus: tuple[str, ...] = ()) -> list[SwordsmanSpec]:
    """Return 1-3 random swordsmen (or `size`), each within the budget; with focus, one of them carries
    focus swords (see random_swordsman)."""
    names = rng.sample(NAMES, size or rng.randint(1, 3))
    carrier = rng.randrange(len(names)) if focus else -1
    return [random_swordsman(rules, rng, budget, name, focus if i == carrier else ()) for i, name in enumerate(names)]


def read_back(rules: Rules, specs: list[SwordsmanSpec]) -> list[str]:
    """Return a message for each swordsman whose canonical party-file line does not read back as itself."""
    out = []
    for spec in specs:
        line = format_swordsman(spec)
        try:
            same = parse_party(line, "fuzz", rules.spellings) == [replace(spec, line=1)]
        except CompileError:
            same = False
        if not same:
            out.append(f"the party line '{line}' does not read back as itself")
    return out


def check(rules: Rules, a: list[SwordsmanSpec], b: list[SwordsmanSpec], options: dict[str, str]) -> list[str]:
    """Return what one battle between a and b breaks: the invariants, a replay, the party-file round trip."""
    try:
        first, again = (run(new_battle(rules, (a, b), options)) for _ in range(2))
    except Exception as err:  # a crash is the finding: report it like any other violation
        return [f"exception {type(err).__name__}: {err}"]
    return violations(first) + replayed(first, again) + read_back(rules, a + b)


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
                 stdout: TextIO, stderr: TextIO, focus: tuple[str, ...] = (), label: str = "",
                 note: str = "") -> int:
    """`cardc fuzz` on an automatic ruleset (or, with focus, around the swords of one card file, named by
    label): 0 no violation, 1 a violation (the two parties written, `note` printed after them), 2 usage."""
    budget = budget_of(rules)
    problem = _usage_problem(rules, games, options)
    if problem or budget is None:
        print(f"cardc fuzz: {problem}", file=stderr)
        return 2
    started = time.perf_counter()
    around = f" carrying swords that are or use what {label} defines ({len(focus)} in all)" if focus else ""
    print(f"fuzzing {rules.ruleset.name}: {games} battles between random legal parties{around} from seed {seed}",
          file=stderr)
    for n in range(games):
        rng = random.Random(seed * 1_000_003 + n)
        a, b = random_party(rules, rng, budget, focus=focus), random_party(rules, rng, budget, focus=focus)
        found = check(rules, a, b, options)
        if found:
            code = _report(rules, n, shrink(rules, a, b, options), options, out, seed, stdout)
            if note:
                print(note, file=stdout)
            return code
    seconds = time.perf_counter() - started
    print(f"no violation in {games} battles ({seconds:.1f} s, {games / seconds:.0f} battles/s)", file=stdout)
    return 0


def _usage_problem(rules: Rules, games: int, options: dict[str, str]) -> str:
    """Return what is wrong with the ruleset, the command's numbers and options ('' if nothing)."""
    if budget_of(rules) is None:
        return f"'{rules.ruleset.name}' has no creation budget to draw swordsmen from"
    if games < 1:
        return "--games must be at least 1"
    values = rules.ruleset.option_values
    for key, value in sorted(options.items()):
        if key not in values:
            return f"ruleset '{rules.ruleset.name}' has no option '{key}' (it has: {', '.join(sorted(values))})"
        if value not in values[key]:
            return f"option '{key}' is one of {', '.join(values[key])}, not '{value}'"
    return ""


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
