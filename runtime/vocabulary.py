"""The vocabulary of the card language, declared once as data.

The compiler checks card text against these tables; the runtime implements each entry. A test
checks that the two agree (every effect has a primitive in runtime/effects.py, every event is
emitted by the engine, every grammar phrase is listed here).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EventSpec:
    """A game event: its runtime name, what it is about ('card' or 'player'), and its amount."""

    name: str
    about: str
    has_amount: bool = False


# Trigger phrases as written after the subject ("when this <phrase>") -> event.
EVENT_PHRASES: dict[str, EventSpec] = {
    "is summoned": EventSpec("summoned", "card"),
    "is placed": EventSpec("placed", "card"),
    "is played": EventSpec("played", "card"),
    "is destroyed": EventSpec("destroyed", "card"),
    "is blocked": EventSpec("blocked", "card"),
    "enters the field": EventSpec("entered", "card"),
    "leaves the field": EventSpec("left", "card"),
    "attacks": EventSpec("attacks", "card"),
    "blocks": EventSpec("blocks", "card"),
    "takes damage": EventSpec("damaged", "card", True),
    "deals damage": EventSpec("dealt_damage", "card", True),
    "take damage": EventSpec("player_damaged", "player", True),
    "draws a card": EventSpec("drew", "player"),
    "draw a card": EventSpec("drew", "player"),
    "loses life": EventSpec("lost_life", "player", True),
    "lose life": EventSpec("lost_life", "player", True),
    "gains life": EventSpec("gained_life", "player", True),
    "gain life": EventSpec("gained_life", "player", True),
}
# "takes damage" is also said of players ("when an opponent takes damage"): then it is this event.
PLAYER_TAKES_DAMAGE = "takes damage"
PLAYER_DAMAGED = EventSpec("player_damaged", "player", True)

# Events the engine emits for turn structure; timed abilities ("at the start of ...") use them.
TURN_EVENTS = ("turn_start", "phase_start")

ALL_EVENTS = tuple(sorted({e.name for e in EVENT_PHRASES.values()} | set(TURN_EVENTS)))


@dataclass(frozen=True)
class EffectSpec:
    """An effect: the runtime primitive it calls, and where it may appear."""

    primitive: str
    cost: bool = False  # may be paid as a cost ("you may pay ...", "as a cost, ...")
    static: bool = False  # may appear in a static ability
    procedure: bool = False  # turn procedure: only in ruleset files


# AST class name -> effect. runtime/effects.py defines every primitive named here.
EFFECTS: dict[str, EffectSpec] = {
    "DealDamage": EffectSpec("deal_damage"),
    "Destroy": EffectSpec("destroy", cost=True),
    "Draw": EffectSpec("draw"),
    "Gain": EffectSpec("gain"),
    "Lose": EffectSpec("lose", cost=True),
    "Pay": EffectSpec("lose", cost=True),
    "Give": EffectSpec("give"),
    "PutStatus": EffectSpec("put_status"),
    "Remove": EffectSpec("remove", cost=True),
    "RemoveDamage": EffectSpec("remove_damage"),
    "ReturnToHand": EffectSpec("return_to_hand", cost=True),
    "MoveToEnd": EffectSpec("move_to_end"),
    "CreateToken": EffectSpec("create_token"),
    "Discard": EffectSpec("discard", cost=True),
    "Modify": EffectSpec("modify", static=True),
    "Restrict": EffectSpec("restrict", static=True),
    "Grant": EffectSpec("grant", static=True),
    "ReduceDamage": EffectSpec("reduce_damage", static=True),
    "Stage": EffectSpec("stage", procedure=True),
    "PlayStaged": EffectSpec("play_staged", procedure=True),
    "AttackAll": EffectSpec("attack_all", procedure=True),
}

# "can't <restriction>" -> the flag a static ability sets.
RESTRICTIONS: dict[str, str] = {
    "be blocked": "unblockable",
    "be targeted": "untargetable",
    "attack": "cant_attack",
    "block": "cant_block",
}

# Words that name players, and what each means relative to the ability's controller.
PLAYER_WORDS: dict[str, str] = {
    "you": "you",
    "the opponent": "opponent",
    "an opponent": "opponent",
    "each player": "each",
    "the turn player": "turn",
    "the defending player": "defender",
    "its controller": "event_controller",
    "their controller": "event_controller",
}

# Trigger subjects that are players: "when you draw a card", "when an opponent loses life".
SUBJECT_PLAYERS: dict[str, str] = {"you": "you", "an opponent": "opponent", "the opponent": "opponent",
                                   "each player": "each", "the turn player": "turn",
                                   "the defending player": "defender", "its controller": "you",
                                   "their controller": "you"}

# "a creature you control" -> control relative to the ability's controller.
CONTROL_WORDS: dict[str, str] = {
    "you control": "you",
    "an opponent controls": "opponent",
    "the opponent controls": "opponent",
    "the defending player controls": "defender",
}

# "in your hand" -> whose zone.
POSSESSIVES: dict[str, str] = {
    "your": "you",
    "their": "their",
    "its": "controller",
    "the opponent's": "opponent",
    "its owner's": "owner",
}

# Timed abilities: "at the start of <whose> turn".
WHOSE: dict[str, str] = {"your": "you", "each": "each", "the opponent's": "opponent"}

# Words that filter on any card kind, and players.
GENERIC_KINDS = ("card", "player")

# Numbers every card has besides the ruleset's stats.
CARD_NUMBERS = ("damage", "cost")

# Status settings and their allowed values.
STATUS_SETTINGS: dict[str, tuple[str, ...]] = {
    "stacking": ("stacks", "refresh", "once"),
    "consumed": ("never", "on trigger"),
}

# What a card kind may do, as said in a ruleset's "kind X: ..." line.
# "responds": a card of the kind may be played from the hand in a response window, before the top of
# the stack resolves (it waits in the 'stack' zone while it is there).
KIND_TRAITS = ("summoned", "enters the field", "face down", "resolves", "to graveyard after trigger", "responds")

# Ordering keys of a ruleset's trigger order and of turn procedures.
ORDER_KEYS = ("stat", "kind", "turn_player", "position")

# Durations of temporary effects.
DURATIONS = ("end of turn", "your next turn")
