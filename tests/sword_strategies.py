"""Hypothesis strategies for automatic battles: Marguerite sword files in the card language, and legal parties.

A drawn file holds new swords (every sword kind, targets, amounts, repeats, sentence modes, conditions,
printed launch keywords and enchantments of cards/marguerite/enchantments.card), new enchantments
(launch turns and shifts, conditions, MP costs, riders, whole-ize) and new states (hooks), valid by
construction: each piece follows a grammar rule of grammar/cards.lark and the typing of
compiler/check_battle.py (what `the target` is for each kind, which enchantments can be given).

What is left out on purpose, because it is legal but breaks an invariant of the real pool or makes a
battle run to its action limit (runtime/battle/invariants.py): raising HP past max HP (`set the hp`
other than to max HP, `gets +N hp`), lowering max HP, AP, reserve AP or SPD (a negative SPD gives a
negative AP at the action count), gaining reserve AP (an endless turn), SPD raised by more than 1 a
time, and `each sword of` as a source that is copied.
"""

from __future__ import annotations

from hypothesis import strategies as st

from runtime.battle.parties import Budget, SwordsmanSpec

STATES = ("Stun", "Sleep", "DeadlyPoison", "Poison", "Miscarriage", "Reflect", "Guard", "Soul", "Life", "Push",
          "Quick", "Slow", "Taunt")
GIVABLE = ("Fast", "Symptomatic", "StunGiving", "PoisonGiving", "WholeIze", "Limited", "EarlyLaunch",
           "LateLaunch", "Crisis")  # enchantments without parameters: a sword may give them
PRINTED = GIVABLE + ("Delayed", "MPCost")  # Delayed(x), MPCost(x) are printed with their number
POOL_SWORDS = ("Slash Sword", "Null Sword", "Shield Sword", "Heating Sword", "Vibration Sword", "Limiting Sword")
BUILT = ("Bubble", "Fence", "Icia", "Mistia")
CLASSES = ("bad", "defence", "protection", "revival", "other")
# the kinds of Marguerite and what `the target` of each is (cards/marguerite/ruleset.card)
KINDS = {"attack": "swordsman", "support": "swordsman", "control": "sword", "add": None, "environment": None,
         "build": None}
FILE_NAME = "fuzz_swords.card"
# swordsmen named by a filter: objects of effects, not references inside numbers
GROUPS = ("the leftmost swordsman an opponent controls", "the rightmost swordsman you control",
          "each swordsman an opponent controls", "each swordsman you control")


# ---------------------------------------------------------------- numbers and conditions


def numbers(people: tuple[str, ...], states: tuple[str, ...], damage: bool, depth: int = 2) -> st.SearchStrategy:
    """Return expressions (grammar `expr`) over the swordsmen named in people."""
    ref = st.sampled_from(people)
    leaves = st.one_of(
        st.integers(0, 9).map(str),
        st.builds(lambda v, r: f"{v} of {r}", st.sampled_from(["atk", "def", "hp", "max_hp", "spd", "mp"]), ref),
        st.just("turn number"),
        st.builds(lambda s, r: f"stacks of {s} on {r}", st.sampled_from(states), ref),
        *([st.just("the damage")] if damage else []))
    if depth == 0:
        return leaves
    sub = numbers(people, states, damage, depth - 1)
    return st.one_of(
        leaves,
        st.builds(lambda a, o, b: f"{a} {o} {b}", sub, st.sampled_from("+-"), sub),
        st.builds(lambda a, b: f"{a} * ({b})", leaves, sub),
        st.builds(lambda a, k, r: f"({a}) / {k} rounded {r}", sub, st.integers(1, 5), st.sampled_from(["up", "down"])),
        st.builds(lambda a, r: f"half of ({a}) rounded {r}", sub, st.sampled_from(["up", "down"])),
        st.builds(lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(["min", "max"]), sub, sub),
        st.builds(lambda a: f"2 ^ ({a})", leaves))


def amounts(people: tuple[str, ...], states: tuple[str, ...], damage: bool) -> st.SearchStrategy:
    """Return a grammar `amount`: a number, or a parenthesized expression."""
    return st.one_of(st.integers(0, 9).map(str), numbers(people, states, damage).map(lambda e: f"({e})"))


def conditions(people: tuple[str, ...], states: tuple[str, ...], damage: bool,
               sword_target: bool) -> st.SearchStrategy:
    """Return a grammar `cond` for a sword's effect or a rider."""
    ref = st.sampled_from(people)
    atoms = [
        st.builds(lambda a, o, b: f"{a} {o} {b}", numbers(people, states, damage, 1),
                  st.sampled_from([">=", "<=", "==", "!=", ">", "<"]), numbers(people, states, damage, 1)),
        st.builds(lambda r, k: f"{r} has a {k} state", ref, st.sampled_from(CLASSES)),
        st.builds(lambda s, r: f"stacks of {s} on {r} >= 1", st.sampled_from(states), ref),
    ]
    if sword_target:
        atoms.append(st.builds(lambda k: f"the target is {'an' if k[0] in 'aeiou' else 'a'} {k} sword",
                               st.sampled_from(sorted(KINDS))))
    atom = st.one_of(*atoms)
    return st.one_of(atom, st.builds(lambda a, w, b: f"{a} {w} {b}", atom, st.sampled_from(["and", "or"]), atom),
                     atom.map(lambda a: f"not {a}"))


# ---------------------------------------------------------------- effects


def person_effects(people: tuple[str, ...], states: tuple[str, ...], damage: bool,
                   hits: bool = True) -> st.SearchStrategy:
    """Return effects on a swordsman (hits unless told not: a rider's hit would set off its riders again;
    values, states, its sword list)."""
    ref, amount = st.sampled_from(people), amounts(people, states, damage)
    who = st.sampled_from(people + GROUPS)
    hit = st.builds(lambda r, a, pool, ign: f"hit {r} for {a}{pool}{ign}", who, amount,
                    st.sampled_from(["", " to its mp"]),
                    st.sampled_from(["", ", ignoring states of class defence",
                                     ", ignoring states of class defence or protection"]))
    return st.one_of(
        *([hit] if hits else []),
        st.builds(lambda a, r: f"deal {a} damage to {r}", amount, who),
        st.builds(lambda r, a, v: f"{r} recovers {a} {v}", who, amount, st.sampled_from(["hp", "mp"])),
        st.builds(lambda r, a, v: f"{r} gets +{a} {v}", who, amount, st.sampled_from(["atk", "def", "mp", "max_hp"])),
        st.builds(lambda r, i, v: f"{r} gets -{i} {v}", who, st.integers(0, 3), st.sampled_from(["atk", "def"])),
        who.map(lambda r: f"{r} gets +1 spd"),
        st.builds(lambda v, r, i: f"set the {v} of {r} to {i}", st.sampled_from(["mp", "atk", "def"]),
                  ref, st.integers(0, 5)),
        ref.map(lambda r: f"set the reserve_ap of {r} to 0"),
        ref.map(lambda r: f"set the hp of {r} to (max_hp of {r})"),
        st.builds(lambda v, r: f"reset the {v} of {r}", st.sampled_from(["atk", "def", "spd"]), ref),
        st.builds(lambda i, s, r: f"put {i} {s} on {r}", st.integers(1, 2), st.sampled_from(states), who),
        st.builds(lambda k, r: f"remove all {k} states from {r}", st.sampled_from(CLASSES), who),
        st.builds(lambda s, r: f"remove 1 {s} from {r}", st.sampled_from(states), who),
        ref.map(lambda r: f"reverse the sword list of {r}"),
        st.builds(lambda r, u: f"make each sword of {r} {u}", ref, st.sampled_from(["used", "unused"])),
        st.builds(lambda e, r: f"put 1 {e} on each sword of {r}", st.sampled_from(GIVABLE), ref))


def sword_effects(people: tuple[str, ...], swords: tuple[str, ...], givable: tuple[str, ...]) -> st.SearchStrategy:
    """Return effects on one sword (used flag, enchantments, moving, copying, changing)."""
    ref, sword = st.sampled_from(people), st.sampled_from(swords)
    return st.one_of(
        st.builds(lambda w, u: f"make {w} {u}", sword, st.sampled_from(["used", "unused"])),
        st.builds(lambda e, w: f"put 1 {e} on {w}", st.sampled_from(givable), sword),
        sword.map(lambda w: f"destroy {w}"),
        st.builds(lambda w, r: f"move {w} to the end of the sword list of {r}", sword, ref),
        st.builds(lambda n, r: f'add "{n}" to the end of the sword list of {r}', st.sampled_from(POOL_SWORDS), ref),
        st.builds(lambda w, r: f"add a copy of {w} to the end of the sword list of {r}", sword, ref),
        st.builds(lambda a, b: f"change {a} into {b}", sword, sword),
        st.builds(lambda r, w: f"change each sword of {r} into {w}", ref, sword))


def _scope(kind: str, subtarget: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the swordsmen and the swords a sword of this kind may name."""
    people = ("the actor", "the target") if KINDS[kind] == "swordsman" else ("the actor",)
    swords = ["this sword"] + [f"the first{u} sword of {p}" for p in people for u in ("", " unused")]
    swords += (["the target"] if KINDS[kind] == "sword" else []) + (["the subtarget"] if subtarget else [])
    return people, tuple(swords)


@st.composite
def bodies(draw, kind: str, subtarget: bool, states: tuple[str, ...], givable: tuple[str, ...]) -> str:
    """Return a sword's effect body: a plain sentence, then furthermore / and then / separately ones."""
    people, swords = _scope(kind, subtarget)
    effect = st.one_of(person_effects(people, states, True), sword_effects(people, swords, givable),
                       st.just("raise the turn number by 1"))
    if kind == "build":  # builds only in build swords: parties that grow in every action make slow battles
        effect = st.one_of(effect, st.sampled_from(BUILT).map(lambda b: f'build "{b}"'))
    if kind == "attack":  # an attack sword hits first, as the pool's do
        effect = st.one_of(effect, amounts(people, states, True).map(lambda a: f"hit the target for {a}"))
    cond = conditions(people, states, True, KINDS[kind] == "sword")

    def sentence(lead: str) -> str:
        check = draw(st.none() | cond)
        effects = " and ".join(draw(st.lists(effect, min_size=1, max_size=2)))
        return f"{lead}{f'if {check}, ' if check else ''}{effects}."

    out = [sentence("")]
    for lead in draw(st.lists(st.sampled_from(["furthermore, ", "and then, ", "separately, "]), max_size=3)):
        out.append(sentence(lead))
    return "\n        ".join(out)


# ---------------------------------------------------------------- definitions and files


def keyword_lists(extra: tuple[str, ...]) -> st.SearchStrategy:
    """Return a 'keywords' line's items: printed launch keywords and enchantments, each at most once."""
    def use(name: str, number: int) -> str:
        return f"{name}({number})" if name in ("Delayed", "MPCost") or name.startswith("GenCharge") else name

    names = st.lists(st.sampled_from(PRINTED + extra), max_size=3, unique=True)
    return st.builds(lambda ns, i: [use(x, i) for x in ns], names, st.integers(0, 4))


@st.composite
def swords(draw, name: str, states: tuple[str, ...], givable: tuple[str, ...], printed: tuple[str, ...]) -> str:
    """Return a sword card of any kind."""
    kind = draw(st.sampled_from(sorted(KINDS)))
    subtarget = draw(st.booleans())
    keywords = draw(keyword_lists(printed))
    times = draw(st.integers(1, 3))
    lines = [f'card "{name}" {{', f"    kind {kind}"]
    lines += [f"    keywords {', '.join(keywords)}"] if keywords else []
    lines += ["    subtarget the next sword"] if subtarget else []
    lines += ['    text "A generated sword."']
    lines += [f"    effect{f', {times} times' if times > 1 else ''}: {draw(bodies(kind, subtarget, states, givable))}",
              "}"]
    return "\n".join(lines)


@st.composite
def enchantments(draw, name: str, states: tuple[str, ...], parameter: bool) -> str:
    """Return an enchantment: launch, condition, cost, vanishing, riders, whole-ize (a parameter x in some)."""
    actor = ("the actor",)
    x = "x" if parameter else None
    parts = [f"    stacking {draw(st.sampled_from(['stacks', 'once', 'refresh']))}", '    text "A generated enchantment."']
    launch = draw(st.sampled_from(["", "turn", "shift"]))
    if launch == "turn":
        parts.append(f"    launch turn {x or draw(st.integers(0, 4))}")
    elif launch == "shift":
        parts.append(f"    launch {draw(st.integers(1, 2))} turn {draw(st.sampled_from(['earlier', 'later']))}")
    if draw(st.booleans()):
        parts.append(f"    executable if {draw(conditions(actor, states, False, False))}")
    if draw(st.booleans()) or parameter:
        parts.append(f"    costs {x or draw(st.integers(0, 2))} mp")
    if draw(st.integers(0, 3)) == 0:
        parts.append("    vanishes when used")
    if draw(st.integers(0, 3)) == 0:
        parts.append("    makes its sword whole")
    people = ("the actor", "the target")
    for _ in range(draw(st.integers(0, 2))):
        check = draw(st.none() | conditions(people, states, True, False))
        effect = draw(person_effects(people, states, True, hits=False))
        parts.append(f"    after each hit{f' if {check}' if check else ''}: {effect}.")
    head = f"enchantment {name}{'(x)' if parameter else ''} {{"
    return "\n".join([head, *parts, "}"])


HOOKS = (
    "whenever this would act: skip the action.",
    "whenever this would get ap: set the ap of this to 0.",
    "whenever this would build: the build fails.",
    "whenever this is attacked: redirect the attack to the sender.",
    "whenever this takes attack damage: set the damage to (half of (the damage) rounded down).",
    "whenever this is dead: set the hp of this to (max_hp of this).",
    "whenever an ally is chosen for a single attack: redirect the attack to this.",
    "whenever the states phase runs: deal 1 damage to this.",
    "whenever the states phase runs: put 1 Quick on this.",
    "whenever the states phase runs: this recovers 1 mp.",
)


@st.composite
def states(draw, name: str) -> str:
    """Return a state with a class, stacking, consumption and one or two hooks of different steps."""
    klass = draw(st.sampled_from(CLASSES))
    stacking = draw(st.sampled_from(["stacks", "once"]))
    consumed = draw(st.sampled_from(["never", "on trigger"]))
    hooks = draw(st.lists(st.sampled_from(HOOKS), min_size=1, max_size=2, unique_by=lambda h: h.split(":")[0]))
    lines = [f"status {name} {{", f"    class {klass}  stacking {stacking}  consumed {consumed}",
             '    text "A generated state."', *(f"    {h}" for h in hooks), "}"]
    return "\n".join(lines)


@st.composite
def sword_files(draw, max_swords: int = 3) -> tuple[str, list[str]]:
    """Return a card file of new states, enchantments and swords for Marguerite, and its swords' names."""
    new_states = [f"GenState{i}" for i in range(draw(st.integers(0, 1)))]
    plain = [f"GenEnch{i}" for i in range(draw(st.integers(0, 2)))]
    charged = [f"GenCharge{i}" for i in range(draw(st.integers(0, 1)))]
    every_state = STATES + tuple(new_states)
    items = [draw(states(name)) for name in new_states]
    items += [draw(enchantments(name, every_state, False)) for name in plain]
    items += [draw(enchantments(name, every_state, True)) for name in charged]
    names = [f"Gen Sword {i}" for i in range(1, draw(st.integers(1, max_swords)) + 1)]
    items += [draw(swords(name, every_state, GIVABLE + tuple(plain), tuple(plain + charged))) for name in names]
    return "\n\n".join(items) + "\n", names


# ---------------------------------------------------------------- parties


@st.composite
def swordsmen(draw, name: str, budget: Budget, pool: tuple[str, ...], must: tuple[str, ...]) -> SwordsmanSpec:
    """Return a swordsman spending exactly the budget; with must, its first drawn sword is one of them."""
    count = draw(st.integers(1, min(6, budget.points)))
    carried = [draw(st.sampled_from(must))] if must else []
    carried += draw(st.lists(st.sampled_from(pool), min_size=count - len(carried), max_size=count - len(carried)))
    spend = [0, 0, 0, 0]
    for _ in range(budget.points - count):
        spend[draw(st.integers(0, 3))] += 1
    per = budget.per_point
    carried = draw(st.permutations(carried))
    return SwordsmanSpec(name, spend[0] * per["max_hp"], spend[1] * per["atk"], spend[2] * per["def"],
                         spend[3] * per["spd"], tuple(carried), 0)


@st.composite
def parties(draw, budget: Budget, new: list[str]) -> list[SwordsmanSpec]:
    """Return 1-3 swordsmen, the first carrying at least one new sword, the others new or pool swords."""
    pool = tuple(new) + POOL_SWORDS
    size = draw(st.integers(1, 3))
    return [draw(swordsmen(f"Fuzzer{i}", budget, pool, tuple(new) if i == 0 else ())) for i in range(size)]
