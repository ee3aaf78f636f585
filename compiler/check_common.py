"""Stage 2, what the Checker's parts (compiler/check_*.py) share: battle words, children, effect words."""

from __future__ import annotations

from compiler import nodes as n

NO_BATTLE = {"timed": "an 'at the start of ...' or 'at the end of ...' ability runs outside any battle",
             "turn": "a turn's phases run outside any battle (a battle runs the ruleset's 'battle { ... }')",
             "blocked": "'blocked { ... }' runs before the battle has a winner; say it in 'won by higher ...' "
                        "or 'battle end'",
             "unblocked": "'unblocked { ... }' runs when no card blocked, so there is no blocker and no winner"}


def _children(node: n.Node) -> list[n.Node]:
    """Return the AST nodes directly inside a node, in field order."""
    out: list[n.Node] = []
    for value in node.__dict__.values():
        if isinstance(value, n.Node) and not isinstance(value, n.Name):
            out.append(value)
        elif isinstance(value, tuple):
            out += [x for x in value if isinstance(x, n.Node) and not isinstance(x, n.Name)]
    return out


def _names_player(o: n.Node | None) -> bool:
    """Return whether an object phrase means players, not cards."""
    if isinstance(o, (n.PlayerRef, n.TargetPlayer)):
        return True
    return isinstance(o, n.EventObject) and o.noun.value == "player"


def _effect_word_of(class_name: str) -> str:
    words = {"Pay": "pay", "Lose": "lose", "Discard": "discard", "Remove": "remove", "Destroy": "destroy",
             "ReturnToHand": "return", "DealDamage": "deal damage", "Draw": "draw", "Gain": "gain",
             "Give": "give", "PutStatus": "put", "RemoveDamage": "remove damage", "MoveToEnd": "move",
             "CreateToken": "create", "Modify": "gets", "Restrict": "can't", "Grant": "has",
             "ReduceDamage": "damage to ... is reduced by", "Stage": "stage cards", "PerformRolled": "roll ... and perform",
             "NormalMove": "the actor may move", "MoveLines": "move ... lines",
             "PlayStaged": "play staged", "AttackAll": "attacks", "SetResource": "set", "Delete": "delete", "Summon": "summon",
             "Ready": "ready", "Exhaust": "exhaust", "LevelChange": "level up", "LiftRestriction":
             "remove attack restriction", "TakeActions": "take actions", "BlockedBy": "can't be blocked by",
             "MustBlock": "must block if able", "DamageFloor": "can't be damaged by less than",
             "AnnounceTurn": "announce the start of the turn", "DealJokers": "deal jokers", "Hit": "hit",
             "Recover": "recovers", "ReduceDirectly": "reduce ... directly", "SetValue": "set the ... of", "ResetStat": "reset", "RaiseTurn": "raise the turn "
             "number", "SetUsed": "make ... used", "ReverseSwords": "reverse", "MoveSword": "move ... to the end of the "
             "sword list", "AddSword": "add", "ChangeSword": "change", "Build": "build", "SkipAction": "skip the action",
             "BuildFails": "the build fails", "Redirect": "redirect the attack", "SetDamage": "set the damage",
             "RemoveClass": "remove all ... states", "Choose": "choose", "Reveal": "reveal", "PutInto": "put ... into",
             "Shuffle": "shuffle", "RemoveChanges": "remove ... state changes", "GrantStatus": "has N STATUS",
             "DamageDealtBy": "damage dealt by ... is increased by", "RefuseChanges": "can't receive state changes",
             "Place": "place", "Pierce": "damage dealt by ... can't be prevented",
             "RangeShift": "the ranges of ... are changed", "DistanceAs": "the distance to ... is treated as",
             "CountsAs": "counts as"}
    return words[class_name]


def _effect_word(e: n.Effect) -> str:
    return _effect_word_of(type(e).__name__)
