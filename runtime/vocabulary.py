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
    # an attack that no card blocks, before its damage: what it sets off can still stop that damage
    "is not blocked": EventSpec("unblocked", "card"),
    "enters the field": EventSpec("entered", "card"),
    "leaves the field": EventSpec("left", "card"),
    "attacks": EventSpec("attacks", "card"),
    "moves": EventSpec("moved", "card"),  # a move, and each side of a swap (runtime/grid.py)
    "blocks": EventSpec("blocks", "card"),
    "takes damage": EventSpec("damaged", "card", True),
    "is targeted": EventSpec("targeted", "card"),  # chosen as a target, as its ability is used
    "deals damage": EventSpec("dealt_damage", "card", True),
    "take damage": EventSpec("player_damaged", "player", True),
    "draws a card": EventSpec("drew", "player"),
    "draw a card": EventSpec("drew", "player"),
    "loses life": EventSpec("lost_life", "player", True),
    "lose life": EventSpec("lost_life", "player", True),
    "gains life": EventSpec("gained_life", "player", True),
    "gain life": EventSpec("gained_life", "player", True),
    "overclocks": EventSpec("overclocked", "card"),
    "battles": EventSpec("battled", "card"),  # the attacker and the blocker, when a block is declared
    "wins a battle": EventSpec("won_battle", "card"),
    "finishes a battle": EventSpec("battle_ended", "card"),  # at battle end, before the winner levels up
    "succeed in a player attack": EventSpec("attack_succeeded", "player"),
    "succeeds in a player attack": EventSpec("attack_succeeded", "player"),
    "receive a player attack": EventSpec("attack_received", "player"),
    "receives a player attack": EventSpec("attack_received", "player"),
}
# "takes damage" is also said of players ("when an opponent takes damage"): then it is this event.
PLAYER_TAKES_DAMAGE = "takes damage"
PLAYER_DAMAGED = EventSpec("player_damaged", "player", True)

# Events the engine emits for turn structure; timed abilities ("at the start of ...") use them.
TURN_EVENTS = ("turn_start", "phase_start", "turn_end")

ALL_EVENTS = tuple(sorted({e.name for e in EVENT_PHRASES.values()} | set(TURN_EVENTS)))


# What one effect may ask of the engine (docs/language.md §1.3): an amount past MAX_VALUE is taken as
# MAX_VALUE (so no number a card computes grows without bound, however long a game runs), and an effect
# that does a thing one by one (`create N tokens`, `effect, N times:`) does it at most MAX_AT_ONCE times.
MAX_VALUE = 999_999_999_999
MAX_AT_ONCE = 1_000
MAX_DICE, MAX_FACES = 100, 1_000  # '100D1000' at most: a roll stays one log line
MAX_SQUARES = 9  # squares of a line of a grid: a field of lines × 9 squares at most

# How a status joins the instances a card has (runtime/elements.py): 'stacks', 'refresh' and 'once' count
# stacks, one instance a status; these have signed values, and their unit is a whole instance.
SIGNED = ("merges", "never")


def dice_text(count: int, sides: int) -> str:
    """Return dice as cards write them: '2D' (six faces unless stated), '1D8'."""
    return f"{count}D{sides if sides != 6 else ''}"


@dataclass(frozen=True)
class EffectSpec:
    """An effect: the runtime primitive it calls, and where it may appear."""

    primitive: str
    cost: bool = False  # may be paid as a cost ("you may pay ...", "as a cost, ...")
    static: bool = False  # may appear in a static ability
    procedure: bool = False  # turn procedure: only in ruleset files
    battle: str = "no"  # automatic battles: 'no' (card games only), 'also' (both), 'only' (battles only)
    one_by_one: bool = False  # its amount counts things done one at a time: at most MAX_AT_ONCE


# AST class name -> effect. runtime/effects.py defines every primitive named here.
EFFECTS: dict[str, EffectSpec] = {
    "DealDamage": EffectSpec("deal_damage", battle="also"),
    "Destroy": EffectSpec("destroy", cost=True, battle="also"),
    "Draw": EffectSpec("draw"),
    "Gain": EffectSpec("gain"),
    "Lose": EffectSpec("lose", cost=True),
    "Pay": EffectSpec("lose", cost=True),
    "Give": EffectSpec("give"),
    "PutStatus": EffectSpec("put_status", battle="also"),
    "Remove": EffectSpec("remove", cost=True, battle="also"),
    "RemoveDamage": EffectSpec("remove_damage"),
    "ReturnToHand": EffectSpec("return_to_hand", cost=True),
    "MoveToEnd": EffectSpec("move_to_end"),
    "CreateToken": EffectSpec("create_token", one_by_one=True),
    "Discard": EffectSpec("discard", cost=True),
    "Modify": EffectSpec("modify", static=True, battle="also"),
    "Restrict": EffectSpec("restrict", static=True),
    "Grant": EffectSpec("grant", static=True),
    "ReduceDamage": EffectSpec("reduce_damage", static=True),
    "GrantStatus": EffectSpec("grant_status", static=True),
    "DamageDealtBy": EffectSpec("damage_dealt_by", static=True),
    "RefuseChanges": EffectSpec("refuse_changes", static=True),
    "RemoveChanges": EffectSpec("remove_changes", cost=True),
    "Place": EffectSpec("place"),
    "Pierce": EffectSpec("pierce", static=True),
    "RangeShift": EffectSpec("range_shift", static=True),
    "DistanceAs": EffectSpec("distance_as", static=True),
    "CountsAs": EffectSpec("counts_as", static=True),
    "Stage": EffectSpec("stage", procedure=True),
    "PerformRolled": EffectSpec("perform_rolled"),  # also a card's "roll again" (R-WVN-22)
    "NormalMove": EffectSpec("normal_move", procedure=True),
    "MoveLines": EffectSpec("move_lines"),
    "PlayStaged": EffectSpec("play_staged", procedure=True),
    "AttackAll": EffectSpec("attack_all", procedure=True),
    "SetResource": EffectSpec("set_resource"),
    "Delete": EffectSpec("delete"),
    "Summon": EffectSpec("summon"),
    "Ready": EffectSpec("ready"),
    "Exhaust": EffectSpec("exhaust"),
    "LevelChange": EffectSpec("level_change"),
    "LiftRestriction": EffectSpec("lift_restriction"),
    "TakeActions": EffectSpec("take_actions", procedure=True),
    "AnnounceTurn": EffectSpec("announce_turn", procedure=True),
    "DealJokers": EffectSpec("open_dealing", procedure=True),
    "BlockedBy": EffectSpec("blocked_by", static=True),
    "MustBlock": EffectSpec("must_block", static=True),
    "DamageFloor": EffectSpec("damage_floor", static=True),
    # choices while resolving (runtime/choices.py)
    "Choose": EffectSpec("choose"),
    "Reveal": EffectSpec("reveal"),
    "PutInto": EffectSpec("put_into"),
    "Shuffle": EffectSpec("shuffle"),
    # automatic battles (runtime/battle/effects.py)
    "Hit": EffectSpec("hit", battle="only"),
    "Recover": EffectSpec("recover", battle="also"),
    "ReduceDirectly": EffectSpec("reduce_directly"),
    "SetValue": EffectSpec("set_value", battle="also"),
    "ResetStat": EffectSpec("reset_stat", battle="only"),
    "RaiseTurn": EffectSpec("raise_turn", battle="only"),
    "SetUsed": EffectSpec("set_used", battle="only"),
    "ReverseSwords": EffectSpec("reverse_swords", battle="only"),
    "MoveSword": EffectSpec("move_sword", battle="only"),
    "AddSword": EffectSpec("add_sword", battle="only"),
    "ChangeSword": EffectSpec("change_sword", battle="only"),
    "Build": EffectSpec("build", battle="only"),
    "SkipAction": EffectSpec("skip_action", battle="only"),
    "BuildFails": EffectSpec("build_fails", battle="only"),
    "Redirect": EffectSpec("redirect", battle="only"),
    "SetDamage": EffectSpec("set_damage", battle="only"),
    "RemoveClass": EffectSpec("remove_class", battle="only"),
}

# Automatic battles: the hooks of a state ("whenever this would act: ...") -> the battle step that runs
# it. A 'would' hook replaces what would have happened (runtime/battle/procedure.py).
HOOKS: dict[str, str] = {
    "this would act": "act",
    "this would get ap": "get_ap",
    "this would build": "build",
    "this is attacked": "attacked",
    "this takes attack damage": "attack_damage",
    "this is dead": "dead",
    "an ally is chosen for a single attack": "chosen",
    "the states phase runs": "states_phase",
}
# Numbers a swordsman has besides the ruleset's stats (HP is kept beside max_hp, §1).
SWORDSMAN_VALUES = ("hp", "mp", "ap", "reserve_ap")
# Objects that only mean something inside a battle action.
BATTLE_REFS = ("target", "actor", "subtarget", "sender", "this sword")
# Terms of card games that an automatic battle has nothing for (no players, targets, events or rounds):
# node class -> how a message names it. runtime/battle/effects.py has no primitive for any of them.
CARD_GAME_TERMS: dict[str, str] = {
    "Attacker": "'the attacker'", "Blocker": "'the blocker'", "ByRound": "'by round'",
    "Controls": "'controls'", "Count": "'the number of'", "EnteredThisTurn": "'entered this turn'",
    "EventAmount": "'the amount'", "Has": "'has'", "HasSelf": "'has'", "Lacks": "'lacks'",
    "HasAbilities": "'has abilities'", "InState": "a card's state", "OwnTurnNumber": "a player's turn number",
    "PlayerRef": "a player", "RandomOne": "'a random'", "RoundNumber": "'the round number'",
    "SeatIs": "a seat", "StatOwn": "a possessive ('your', 'its')", "Target": "a target",
    "TargetPlayer": "a target player", "Winner": "'the winner'", "WonBattle": "'won the battle'",
}
# Sentence modes of card games (choices and costs); a battle has no one to choose or pay.
CARD_GAME_MODES: dict[str, str] = {"may": "'you may'", "must_pay": "'as a cost,'", "if_you_do": "'if you do'",
                                   "if_you_dont": "'if you don't'", "if_happened": "'if that happened'"}

# The actions of an action phase ("actions: drive, set into trigger_zone, attack, ..."): what each lets
# the turn player do. runtime/actions.py implements each; kind traits say which cards qualify.
ACTIONS: dict[str, str] = {
    "drive": "put a card of a 'driven' kind from the hand onto the field, paying its cost",
    "overdrive": "put a card of an 'overdrives' kind onto a card you control with the same matching attribute",
    "set": "put a card of a 'set' kind from the hand face down into the zone named by 'into'",
    "attack": "attack with a ready card you control that has no attack restriction",
    "withdraw": "move a card you control from the field to the graveyard (it is not destroyed)",
    "override": "put a hand card on another of the same name: that one goes up a level; then draw 1",
    "discard": "move a card from the hand to the graveyard",
    "move": "move a ready card you control to a next square of a grid, swapping with a card there; once a turn",
    "activate": "use the activated ability of a card you control ('activate:', docs/language.md 2.4.1)",
    "joker": "use a card 'used as a joker' from the zone named by 'from', paying its cost (at most once a "
             "turn from a zone other than the hand)",
}

# "can't <restriction>" -> the flag a static ability sets.
RESTRICTIONS: dict[str, str] = {
    "be blocked": "unblockable",
    "be targeted": "untargetable",
    "be targeted by the opponent's effects": "untargetable_by_opponent",
    "attack": "cant_attack",
    "block": "cant_block",
    "be damaged": "undamageable",
    "be damaged by the opponent's effects": "shielded",
    "be exhausted by the opponent's effects": "unexhaustable",
    "be returned to the hand by the opponent's effects": "unreturnable",
    "activate abilities": "silenced",
    "act": "cant_act",
    "move": "cant_move",  # nor be swapped with (Successor SU-10.5)  # where turns go to cards: its turns pass without its move and its action
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
    "its owner": "event_owner",
}
# Player words that name the controller or owner of the card an event is about.
EVENT_CARD_PLAYERS = ("its controller", "their controller", "its owner")
# Player events that are also about a card ('that card' is the card drawn); the others have none.
PLAYER_EVENTS_WITH_A_CARD = ("draws a card", "draw a card")

# Trigger subjects that are players: "when you draw a card", "when an opponent loses life".
SUBJECT_PLAYERS: dict[str, str] = {"you": "you", "an opponent": "opponent", "the opponent": "opponent",
                                   "each player": "each", "the turn player": "turn",
                                   "the defending player": "defender", "its controller": "you",
                                   "their controller": "you", "its owner": "owner"}

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
# "its own": the turns of the card itself where turns go to cards, else its controller's.
WHOSE: dict[str, str] = {"your": "you", "each": "each", "the opponent's": "opponent", "its own": "itself"}

# Words that filter on any card kind, and players.
GENERIC_KINDS = ("card", "player")

# Numbers every card has besides the ruleset's stats.
CARD_NUMBERS = ("damage", "cost", "level", "share")  # share: of the attacker's power, in a battle of blockers

# "it is ready": card states that conditions test -> the flag that holds each.
CARD_STATES: dict[str, tuple[str, bool]] = {"ready": ("acted", False), "exhausted": ("acted", True),
                                            "attack restricted": ("restricted", True)}

# Status settings and their allowed values.
STATUS_SETTINGS: dict[str, tuple[str, ...]] = {
    "stacking": ("stacks", "refresh", "once"),
    "consumed": ("never", "on trigger"),
}

# What a card kind may do, as said in a ruleset's "kind X: ..." line.
# "responds": a card of the kind may be played from the hand in a response window, before the top of
# the stack resolves (it waits in the 'stack' zone while it is there).
# "enters with attack restriction": a card of the kind cannot attack until that is lifted (turn start,
# overclock, effects).
# "driven", "overdrives", "set": which action puts a card of the kind into play (see ACTIONS);
# "reduces costs": while set, the card lowers by 1 the cost of the next card driven or overdriven with the
# same matching attribute, then goes to the graveyard; "works while set": its abilities work while set;
# "works while attached": its abilities work while it is attached face up to a card on the field.
KIND_TRAITS = ("summoned", "enters the field", "face down", "resolves", "to graveyard after trigger", "responds",
               "enters with attack restriction", "driven", "overdrives", "set", "reduces costs",
               "works while set", "works while attached", "counts as KIND", "used at will", "used as a joker",
               "deleted instead of graveyard", "targets enemies", "targets allies", "targets the next sword",
               "inherited")
# "inherited": a card the drive action lets a summoned card take from the hand, attached to it (runtime/inherit.py).
# "used at will": a set card whose ability its controller may use or not when it triggers, paying the
# card's cost then, and only with a card of the same matching attribute on the field (unless its own is
# 'colourless').
# "counts as KIND": filters that name that kind match cards of this kind too (checked by the compiler).

# Ordering keys of a ruleset's trigger order and of turn procedures.
# "priority": priority levels (Code of Joker §11): the field's abilities, then set cards that fire on
# their own, then set cards 'used at will'; each level alternates between the players, the turn
# player first, one ability at a time; abilities of cards reaching the overclock level come last.
# "initiative": the place in the turn order of the card (an attached card: its holder's), cards in no
# order (field cards) first; "source" (War Vortex Night §8.5): a card's own abilities in printed order, then
# those of its attached cards by face, then its named statuses' and its normal ones' (influence highest
# first), then what its basic modification gives (keywords granted by static abilities).
ORDER_KEYS = ("stat", "kind", "turn_player", "position", "priority", "initiative", "source")

# The steps a battle may declare after its attack ('steps: block, damage, destroy, leave.'), in the order of
# this tuple when none are declared but the last two: blockers are declared; battle damage is dealt (and a
# player at 0 may lose at once); the winner is found ('won by higher ...'); battle end ('battle end { }');
# the checks that wait for all processing run (Successor's ★destroy step); destroyed cards leave (★leave).
BATTLE_STEPS = ("block", "damage", "winner", "end", "destroy", "leave")

# Durations of temporary effects.
DURATIONS = ("end of turn", "your next turn")
