"""Why a decision is asked, in one line for the player at the terminal: the card and ability that ask while
resolving ("Flare Needle's target: deal 2 damage to target creature."), or the turn's step that asks."""

from __future__ import annotations

from runtime import query as q
from runtime.state import Ctx, State

ASKED = {  # decisions the turn asks (not an ability): what each is for
    "act": "your turn: take an action, or end",
    "stage": "stage a card, or be done staging",
    "mulligan": "keep your opening hand, or shuffle it back and draw anew",
    "use": "you have priority: use an ability, or pass",
    "interrupt": "a window to interrupt: act now, or pass",
    "move": "move your card, or stay",
    "share": "share out the damage of the attack",
    "breakthrough": "your attacker may break through",
    "inherit": "choose what the summoned card inherits, or be done",
    "slot": "choose the slot the card goes into",
}
ABOUT = {"target": "target", "choose": "choice", "may": "'you may' (if you do)", "not found": "search found nothing",
         "respond": "response window"}


def reason(s: State, player: int) -> str:
    """Return why the open decision is asked of the player."""
    d = s.decision or {}
    kind = d.get("kind", "")
    if "item" in d:
        return _ability_reason(s, player, d)
    if kind == "block":
        attacker = s.battle.get("attacker", -1)
        return (f"{q.shown(s, attacker)} attacks: block it, or not" if attacker >= 0 else "choose blockers")
    if kind == "move" and d.get("choices"):  # each way to move names the card whose turn it is
        return f"{q.describe(s, d['choices'][0][1])} may move: move it, or stay"
    if kind in ("inherit", "slot") and "card" in d:
        return f"{q.describe(s, d['card'])} is summoned: {ASKED[kind]}"
    if kind in ("onto", "square") and s.tasks and s.tasks[-1][0] == "act_" + kind:
        _, action, cid = s.tasks[-1][:3]
        where = "the card it goes onto" if kind == "onto" else "the square"
        return f"{action} {q.describe(s, cid)}: choose {where}"
    return ASKED.get(kind, f"a decision of the game ({kind})")


def _ability_reason(s: State, player: int, d: dict) -> str:
    """Return which card's ability asks, what it asks (its target, choice, 'you may') and its rules text."""
    ctx = find_item(s, d["item"])
    kind, about = d["kind"], ABOUT.get(d["kind"], d["kind"])
    if ctx is None:
        return f"an ability asks ({about})"
    name, text = ability_text(s, ctx, player)
    if kind == "respond":
        return f"{name} is about to resolve: respond to it, or pass ({text})"
    slot = d.get("slot")
    count = len(_ability(s, ctx).targets) if kind == "target" and _ability(s, ctx) is not None else 0
    which = f" {slot + 1} of {count}" if isinstance(slot, int) and count > 1 else ""
    return f"{name}'s {about}{which}: {text}"


def find_item(s: State, item: int) -> Ctx | None:
    """Return the ability of a stack item: resolving, on the stack or pending."""
    return next((c for c in [*s.resolving, *s.stack, *s.pending] if c.item == item), None)


def _ability(s: State, ctx: Ctx):
    """Return the ability definition a context runs, or None (a ruleset's own, not a card's)."""
    try:
        return s.game.ability(ctx.ability)
    except (KeyError, IndexError, ValueError):
        return None


def ability_text(s: State, ctx: Ctx, player: int) -> tuple[str, str]:
    """Return the name the player may see for an ability's source and the ability's rules text (a face-down
    card of another player keeps both secret)."""
    source = ctx.source
    card = None if q.is_player(source) or not 0 <= source < len(s.cards) else s.cards[source]
    if card is not None and card.face_down and player not in (card.controller, card.owner):
        return q.shown(s, source), "its text is hidden"
    name = q.describe(s, source).split("#")[0]
    ab = _ability(s, ctx)
    text = (ab.rules if ab is not None else "") or (s.game.cards[card.name].rules if card is not None else "")
    owner, what = ctx.ability[0], ctx.ability[1]
    if owner in ("keyword", "status"):
        name = f"{name} ({what})"
    return name, text.replace("\n", " ") or "(no rules text)"
