"""A compiled battle ruleset as the battle runtime reads it: swords, states in file order, enchantments."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from runtime.battle.state import Fighter, Sword
from runtime.defs import EnchantmentDef
from runtime.folder_recovery import restore_package


def _file_order(where: str) -> tuple[str, int]:
    path, _, line = where.rpartition(":")
    return path, int(line)


def _instance(definition: Any) -> Any:
    return definition() if isinstance(definition, type) else definition


def _rides(ench: Any) -> bool:
    """Return whether an enchantment may do something after a hit: a compiled one defines after_hit then."""
    return not isinstance(ench, EnchantmentDef) or type(ench).after_hit is not EnchantmentDef.after_hit


@dataclass
class Rules:
    """The definitions of one battle ruleset (generated/<name>/__init__.py)."""

    ruleset: Any
    cards: dict[str, Any]
    statuses: dict[str, Any]
    enchantments: dict[str, Any]
    state_order: tuple[str, ...] = ()  # file order: the first state with a hook is the one that triggers
    sword_kinds: tuple[str, ...] = ()
    spellings: dict[str, str] = field(default_factory=dict)  # every name a party file may use -> card
    # battle step -> the states with a hook for it, in file order (built once: hooks fire at every step)
    hooked: dict[str, tuple[tuple[str, Any], ...]] = field(default_factory=dict, init=False, repr=False)
    # card -> (enchantment, 1, args) of its printed keywords (read at every executability check)
    printed: dict[str, tuple[tuple[Any, int, tuple[int, ...]], ...]] = field(default_factory=dict, init=False,
                                                                               repr=False)
    # card -> the printed (enchantment, 1, args) that may act after a hit (every hit asks; most have none)
    printed_riders: dict[str, tuple[tuple[Any, int, tuple[int, ...]], ...]] = field(default_factory=dict,
                                                                                     init=False, repr=False)
    first_turn: int = field(default=0, init=False, repr=False)  # the launch turn of a sword with no enchantment
    # card -> the traits of its kind (read at every action: what it targets)
    card_traits: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, repr=False)
    # sword type -> its place in the type priority (the order of simultaneous actions)
    type_rank: dict[str, int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        # the registry holds classes; their methods (effects, hooks, launch turns) want instances (the
        # reference interpreter, compiler/interpret_battle.py, gives instances already)
        self.cards = {k: _instance(c) for k, c in self.cards.items()}
        self.statuses = {k: _instance(c) for k, c in self.statuses.items()}
        self.enchantments = {k: _instance(c) for k, c in self.enchantments.items()}
        self.state_order = tuple(sorted(self.statuses, key=lambda k: _file_order(self.statuses[k].where)))
        steps = sorted({step for st in self.statuses.values() for step in st.hooks})
        self.hooked = {step: tuple((k, self.statuses[k]) for k in self.state_order if step in self.statuses[k].hooks)
                       for step in steps}
        self.printed = {name: tuple((self.enchantments[k], 1, args) for k, args in card.keywords)
                        for name, card in self.cards.items()}
        self.printed_riders = {name: tuple(e for e in printed if _rides(e[0]))
                               for name, printed in self.printed.items()}
        traits = self.ruleset.kind_traits
        self.card_traits = {name: traits.get(card.kind, ()) for name, card in self.cards.items()}
        self.first_turn = max(0, self.ruleset.launch_turn)
        self.type_rank = {kind: i for i, kind in enumerate(self.ruleset.type_priority)}
        self.sword_kinds = tuple(k for k, t in traits.items() if "counts as sword" in t)
        for name, card in sorted(self.cards.items()):
            if card.kind in self.sword_kinds:
                self.spellings.update({alias: name for alias in (name, *card.names)})

    def traits(self, kind: str) -> tuple[str, ...]:
        return self.ruleset.kind_traits.get(kind, ())

    def enchants(self, sword: Sword) -> tuple[tuple[Any, int, tuple[int, ...]], ...]:
        """Return (enchantment, stacks, args) of a sword: printed keywords first, then given ones."""
        printed = self.printed[sword.card]
        if not sword.given:
            return printed
        return printed + tuple((self.enchantments[k], n, args) for k, (n, args) in sorted(sword.given.items()))

    def riders(self, sword: Sword) -> tuple[tuple[Any, int, tuple[int, ...]], ...]:
        """Return the (enchantment, stacks, args) of a sword that may act after a hit, in enchants' order."""
        if not sword.given:
            return self.printed_riders[sword.card]
        return tuple(e for e in self.enchants(sword) if _rides(e[0]))

    def holding(self, step: str) -> tuple[tuple[str, Any], ...]:
        """Return (name, state) of every state with a hook for this step, in file order."""
        return self.hooked.get(step, ())

    def has_hook(self, f: Fighter, step: str) -> bool:
        """Return whether a swordsman holds a state with a hook for this step."""
        states = f.states
        if states:  # most swordsmen hold no state at all
            for name, _st in self.hooked.get(step, ()):
                if states.get(name, 0) > 0:
                    return True
        return False


def load_rules(ruleset: str) -> Rules:
    """Return the Rules of a battle ruleset compiled into generated/<ruleset>/."""
    restore_package(ruleset)  # a build killed mid-switch may have left it aside (runtime/folder_recovery.py)
    module = importlib.import_module(f"generated.{ruleset}")
    return Rules(module.RULESET, module.CARDS, module.STATUSES, getattr(module, "ENCHANTMENTS", {}))
