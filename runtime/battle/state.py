"""The state of an automatic battle: swordsmen with values, states and ordered sword lists."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SIDES = ("A", "B")
# What Battle.watch is told, with the swordsman and sword concerned (None where there is none) and a name:
# acts: a swordsman pays for its action (step 4), with its sword (None: a skip) and the sword's card;
# enchantment: an enchantment of the sword acted (a cost paid, a vanish, whole targeting, a rider that did
#   something after a hit), with the enchantment's name;
# state: a state of the swordsman triggered, with the state's name;
# processed: an action processing and its settlement are over (no swordsman, no sword, no name).
WATCHED = ("acts", "enchantment", "state", "processed")


@dataclass
class Sword:
    """One sword in a list: its card, its used flag and the enchantments given to it (§1, §3)."""

    id: int
    card: str
    used: bool = False
    given: dict[str, tuple[int, tuple[int, ...]]] = field(default_factory=dict)  # name -> (stacks, args)


# eq=False: a swordsman is itself and no other (ids are unique), so finding one in a party (`in`, index,
# remove) compares identities, not every field of each swordsman ahead of it
@dataclass(eq=False)
class Fighter:
    """A swordsman: values (stats, hp, mp, ap, reserve_ap), initial stats, states and swords."""

    id: int
    name: str
    side: int
    values: dict[str, int]
    initial: dict[str, int]
    states: dict[str, int] = field(default_factory=dict)
    swords: list[Sword] = field(default_factory=list)
    overkill: int = 0
    built: bool = False  # created by a build sword during the battle (§4: it goes to the front)
    # How far the last assignment to HP set it above max HP: §10 lets an assignment (Life's HP := 1 at
    # max HP 0) exceed the max, which no recovery may; the max-HP invariant allows exactly this much.
    over_max: int = 0

    @property
    def hp(self) -> int:
        return self.values["hp"]


@dataclass
class Ctx:
    """What one effect knows: the action's actor, sword, target, sub-target; a hook's holder and sender."""

    actor: Fighter | None = None
    sword: Sword | None = None
    target: Any = None
    subtarget: Sword | None = None
    holder: Fighter | None = None
    sender: Fighter | None = None
    subject: Fighter | None = None
    damage: int = 0
    params: tuple[int, ...] = ()
    skip: bool = False
    build_failed: bool = False
    redirect_to: Any = None

    def with_params(self, params: tuple[int, ...]) -> Ctx:
        """Return a copy of this context with other parameters (an enchantment's, for its rider)."""
        return Ctx(self.actor, self.sword, self.target, self.subtarget, self.holder, self.sender, self.subject,
                   self.damage, params, self.skip, self.build_failed, self.redirect_to)


@dataclass
class Battle:
    """Two parties (front first), those who exited, the turn number, the log and the result."""

    defs: Any  # runtime.battle.rules.Rules: the compiled ruleset, swords, states, enchantments
    options: dict[str, str]
    parties: list[list[Fighter]] = field(default_factory=lambda: [[], []])
    exited: list[list[Fighter]] = field(default_factory=lambda: [[], []])
    turn: int = 0
    turn_zero: bool = True  # inside turn 0 and its death judgment: nobody is judged dead (§6, §15.2 fact 9)
    log: list[str] = field(default_factory=list)
    result: str = ""  # '', 'A', 'B' or 'draw'
    next_id: int = 1
    actions: int = 0
    hits: int = 0
    frozen_swords: set[int] | None = None  # inside super-simultaneous actions: the swords present at their start
    # An observer for tools (the `cardc play --html` viewer, `cardc tournament`'s per-sword figures), called as
    # watch(battle, what, swordsman, sword, name) with what one of WATCHED. Not battle state: nothing compares
    # or copies it, and with None (the default) the procedure only tests it for None.
    watch: Any = field(default=None, repr=False, compare=False)
    # Two contexts the procedure reuses where a context is only read: `probe` for a sword's launch turn,
    # conditions and costs (executable), `asking` for the action-right keys (holders, which may call
    # executable, so they are two). A new context at each check was a good part of deciding who acts.
    probe: Ctx = field(default_factory=Ctx, repr=False, compare=False)
    asking: Ctx = field(default_factory=Ctx, repr=False, compare=False)

    def fighters(self) -> list[Fighter]:
        """Return every swordsman still in a party: party A front to back, then party B."""
        return self.parties[0] + self.parties[1]

    def label(self, f: Fighter) -> str:
        """Return how the log names a swordsman: 'A1 Quorina' (side and place), or 'A- Quorina' once exited."""
        try:  # by identity (Fighter compares as itself): one pass over the party
            return f"{SIDES[f.side]}{self.parties[f.side].index(f) + 1} {f.name}"
        except ValueError:  # exited: in no party any more
            return f"{SIDES[f.side]}- {f.name}"

    def say(self, text: str) -> None:
        self.log.append(f"T{self.turn} {text}")

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1
