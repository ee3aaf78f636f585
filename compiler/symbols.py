"""The names a ruleset folder defines: kinds, stats, resources, zones, phases, keywords, statuses, cards.

Built from every file of one ruleset before validation, so files can refer to each other. Of a card, the
rest of its ruleset knows only a `CardEntry` (its name, kinds, attributes and whether it is a token), so a
file of cards alone can stand in by the entries its module records (compiler/records.py) without being
parsed again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from compiler import nodes as n
from runtime import vocabulary as v


@dataclass
class Scope:
    """What names mean where the checker is: owner kind, parameters, referents of 'it'."""

    owner: str  # 'card', 'keyword', 'status', 'ruleset', 'lose_rule', 'sword', 'enchantment'
    params: tuple[str, ...] = ()
    event_about: str = ""
    candidate: str = ""  # 'card' or 'player' inside a filter's 'with' clauses
    targets: int = 0
    static: bool = False
    amount: bool = False  # the triggering event has an amount ('the amount')
    battle_refs: tuple[str, ...] = ()  # 'the target', 'the actor', ... where they mean something
    damage: bool = False  # 'the damage' of a hit means something here
    chosen: int = 0  # choices made so far while the ability resolves ('it', 'the chosen unit')
    rolls: int = 0  # dice rolled so far while the ability resolves ('the roll')
    their: bool = False  # inside a choice's filter: 'their' is the player choosing
    event: str = ""  # the phrase of the triggering event ('takes damage'), if a trigger
    # the battle words ('attacker', 'blocker', 'winner', 'defender') that can mean something here, and
    # why the others cannot (None: all can, e.g. an ability that a battle may set off)
    battle_words: tuple[str, ...] | None = None
    no_battle: str = ""


@dataclass(frozen=True)
class CardEntry:
    """What the rest of a ruleset may know of a card: its name, kinds, attributes and whether it is a token."""

    name: str
    kinds: tuple[str, ...] = ()
    token: bool = False
    attributes: tuple[tuple[str, str], ...] = ()  # (attribute, value) as the card lists them


@dataclass(frozen=True)
class RecordedFile:
    """A file of cards alone as its module records it: each card's entry, place and class name."""

    path: str
    cards: tuple[tuple[CardEntry, n.Loc, str], ...]


@dataclass
class Symbols:
    ruleset: n.Ruleset | None = None
    ruleset_path: str = ""
    kinds: tuple[str, ...] = ()
    stats: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    zones: tuple[str, ...] = ()
    ordered_zones: tuple[str, ...] = ()  # zones with a top and a bottom ('the top of your deck')
    phases: tuple[str, ...] = ()
    options: dict[str, tuple[str, ...]] = field(default_factory=dict)  # option -> allowed values
    max_level: int = 0
    keywords: dict[str, n.KeywordDef] = field(default_factory=dict)
    statuses: dict[str, n.StatusDef] = field(default_factory=dict)
    cards: dict[str, CardEntry] = field(default_factory=dict)
    enchantments: dict[str, n.EnchantmentDef] = field(default_factory=dict)
    battle: bool = False  # 'battles are automatic': swordsmen, swords and states (runtime/battle/)
    lines: tuple[str, ...] = ()  # 'lines front, middle, back'
    squares: int = 0  # 'each line has 3 squares.': the field is a grid
    slot_attribute: str = ""  # 'inherited cards go into slots of the same genre.': what a slot's genre is
    stalemate: bool = False  # 'out of range, damage still reaches ...': the anti-stalemate rule
    no_tokens: bool = False  # "cards can't create tokens.": the ruleset has no token rules
    actor_turns: bool = False  # 'turns go to KINDs in initiative order: ...'
    damage_lowers: str = ""  # 'damage lowers hp': the stat damage counts against (recovered, reduced directly)
    # attribute -> the values cards print for it, in first-use order ('colour' -> 'red', 'blue', ...);
    # the ruleset's matching attribute is one even if no card prints it
    attributes: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def attribute_of(self, value: str) -> list[str]:
        """Return the attributes that have this value ('red' -> ['colour'])."""
        return [a for a, values in self.attributes.items() if value in values]

    def state_classes(self) -> tuple[str, ...]:
        """Return the classes the statuses declare ('class bad'), in first-use order."""
        found = [v for st in self.statuses.values() for k, v in st.settings if k == "class"]
        return tuple(dict.fromkeys(found))

    def digest_text(self) -> str:
        """Return the text of every name and setting of the ruleset that lowering reads, for build keys."""
        parts = [",".join(self.kinds), ",".join(self.stats), ",".join(self.resources),
                 ",".join(sorted(self.keywords)), ",".join(sorted(self.statuses)), ",".join(sorted(self.enchantments)),
                 ";".join(f"{a}:{','.join(vals)}" for a, vals in sorted(self.attributes.items())),
                 f"battle {self.battle} stalemate {self.stalemate} interrupts {self.interrupts()}"]
        return "|".join(parts)

    def interrupts(self) -> bool:
        """Return whether the ruleset lets triggered abilities and state checks come between sentences."""
        rs = self.ruleset
        return rs is not None and any(isinstance(r, n.Setting) and r.key == "interrupts" for r in rs.rules)

    def digest(self) -> str:
        """Return a hash of everything the checks may read (locations of definitions included)."""
        return hashlib.sha256(repr(self).encode("utf-8")).hexdigest()[:32]


def singular(word: str, kinds: tuple[str, ...]) -> str:
    """Return the kind a filter word names: 'creatures' -> 'creature', 'cards' -> 'card'."""
    known = set(kinds) | set(v.GENERIC_KINDS)
    if word in known:
        return word
    if word.endswith("s") and word[:-1] in known:
        return word[:-1]
    if word.endswith("es") and word[:-2] in known:  # 'flashes'
        return word[:-2]
    if word.endswith("men") and word[:-3] + "man" in known:  # 'swordsmen'
        return word[:-3] + "man"
    return word


def card_entry(card: n.Card) -> CardEntry:
    """Return what the rest of a ruleset may know of a card."""
    return CardEntry(card.name, tuple(p.kind.value for p in card.parts if isinstance(p, n.KindDecl)),
                     any(isinstance(p, n.TokenDecl) for p in card.parts),
                     tuple((i.attr.value, i.value.value) for p in card.parts if isinstance(p, n.AttrsDecl)
                           for i in p.items))


def collect(files: list[n.File] | list[n.File | RecordedFile]) -> Symbols:
    """Return the symbols defined across the files of one ruleset, in file order (first definition wins)."""
    sym = Symbols()
    for f in files:
        if isinstance(f, RecordedFile):
            for entry, _, _ in f.cards:
                _card(sym, entry)
            continue
        for item in f.items:
            if isinstance(item, n.Ruleset) and sym.ruleset is None:
                sym.ruleset, sym.ruleset_path = item, f.path
                _ruleset_names(sym, item)
            elif isinstance(item, n.KeywordDef):
                sym.keywords.setdefault(item.name.value, item)
            elif isinstance(item, n.StatusDef):
                sym.statuses.setdefault(item.name.value, item)
            elif isinstance(item, n.EnchantmentDef):
                sym.enchantments.setdefault(item.name.value, item)
            elif isinstance(item, n.Card):
                _card(sym, card_entry(item))
    return sym


def _card(sym: Symbols, entry: CardEntry) -> None:
    """Add a card: its entry (unless the name is taken) and the attribute values it prints."""
    sym.cards.setdefault(entry.name, entry)
    for attr, value in entry.attributes:
        known = sym.attributes.get(attr, ())
        if value not in known:
            sym.attributes[attr] = known + (value,)


def _ruleset_names(sym: Symbols, rs: n.Ruleset) -> None:
    for rule in rs.rules:
        if isinstance(rule, n.Setting) and rule.key == "kinds":
            sym.kinds += tuple(x.value for x in rule.values if isinstance(x, n.Name))
        elif isinstance(rule, n.Setting) and rule.key == "stats":
            sym.stats += tuple(x.value for x in rule.values if isinstance(x, n.Name))
        elif isinstance(rule, n.Setting) and rule.key == "resource":
            name = rule.values[0]
            assert isinstance(name, n.Name)
            sym.resources += (name.value,)
        elif isinstance(rule, n.Setting) and rule.key == "option":
            option, default, *allowed = (x.value for x in rule.values if isinstance(x, n.Name))
            sym.options[option] = tuple(allowed) or (default,)
        elif isinstance(rule, n.Setting) and rule.key == "levels":
            sym.max_level = int(str(rule.values[1]))
        elif isinstance(rule, n.Setting) and rule.key == "automatic":
            sym.battle = True
        elif isinstance(rule, n.Setting) and rule.key == "stalemate":
            sym.stalemate = True
        elif isinstance(rule, n.Setting) and rule.key == "no tokens":
            sym.no_tokens = True
        elif isinstance(rule, n.Setting) and rule.key == "actor turns":
            sym.actor_turns = True
        elif isinstance(rule, n.Setting) and rule.key == "slot match":
            name = rule.values[0]
            assert isinstance(name, n.Name)
            sym.slot_attribute = name.value
        elif isinstance(rule, n.Setting) and rule.key == "squares":
            sym.squares = int(str(rule.values[0]))
        elif isinstance(rule, n.Setting) and rule.key == "lines":
            sym.lines = tuple(x.value for x in rule.values if isinstance(x, n.Name))
        elif isinstance(rule, n.Setting) and rule.key == "damage lowers":
            name = rule.values[0]
            assert isinstance(name, n.Name)
            sym.damage_lowers = name.value
        elif isinstance(rule, n.Setting) and rule.key == "matching attribute":
            name = rule.values[0]
            assert isinstance(name, n.Name)
            sym.attributes.setdefault(name.value, ())
        elif isinstance(rule, n.ZoneDecl):
            sym.zones += (rule.name.value,)
            sym.ordered_zones += (rule.name.value,) if "ordered" in rule.flags else ()
        elif isinstance(rule, n.Turn):
            sym.phases += tuple(p.name.value for p in rule.phases)


def trigger_event(a: n.Triggered, kinds: tuple[str, ...]) -> v.EventSpec:
    """Return the event a trigger listens to ('takes damage' said of a player is player damage)."""
    subject = a.subject
    of_player = subject.kind == "player" or (
        subject.filter is not None and singular(subject.filter.kind.value, kinds) == "player")
    if a.event == v.PLAYER_TAKES_DAMAGE and of_player:
        return v.PLAYER_DAMAGED
    return v.EVENT_PHRASES[a.event]
