"""`cardc fmt`: print an AST back as card text in canonical form.

Public entry points: `format_file(file) -> str` and `format_text(text, path) -> str`.
`parse(format_file(f)) == f` for every file the parser accepts. Full-line comments are kept
and placed before the line that followed them.
"""

from __future__ import annotations

from dataclasses import replace

from compiler import nodes as n
from compiler.parser import _keywords as keywords
from compiler.parser import parse
from runtime import vocabulary as v

IND = "    "
UNCOUNTED = "not counting tokens"  # a zone flag written after the zone's limit
# names that "each" would read as the start of another phrase ("each player", "each sword of X")
ALL_KINDS = ("player", "sword")
# keywords that begin an expression, so a name spelt like one cannot be bracketed ('(your)' wants 'your NAME')
ATOM_WORDS = frozenset({"half", "its", "max", "min", "number", "round", "stacks", "the", "their", "turn", "your"})


def _string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


# ---------------------------------------------------------------- expressions and conditions


def amount(e: n.Expr) -> str:
    """Return an amount as the grammar allows it in effects: a number, a name or (expr)."""
    if isinstance(e, n.Param) and e.name.value in keywords() and e.name.value not in ATOM_WORDS:
        return f"({expr(e)})"  # a name that is a keyword too stays bracketed: 'deal (jokers) damage'
    if isinstance(e, n.BinOp) and isinstance(e.left, n.Dice) and isinstance(e.right, n.Number):
        return f"{expr(e.left)}{'×' if e.op == '*' else e.op}{e.right.value}"  # dice notation: '1D-2'
    return expr(e) if isinstance(e, (n.Number, n.Param, n.ByRound, n.Dice)) else f"({expr(e)})"


def _level(e: n.Expr) -> int:
    if isinstance(e, n.BinOp) and e.op in "+-":
        return 0
    if isinstance(e, (n.BinOp, n.Div, n.Power)):
        return 1
    if isinstance(e, n.Neg):
        return 2
    return 3


def _at(e: n.Expr, level: int) -> str:
    """Return e printed where the grammar needs at least the given precedence level."""
    return expr(e) if _level(e) >= level else f"({expr(e)})"


def expr(e: n.Expr) -> str:
    match e:
        case n.Number(value=value):
            return str(value)
        case n.Param(name=name):
            return name.value
        case n.StatOf(stat=stat, ref=ref):
            return f"{stat.value} of {obj(ref)}"
        case n.StatOwn(possessive=pos, stat=stat):
            return f"{pos} {stat.value}"
        case n.Count(filter=f):
            return f"number of {filter_(f)}"
        case n.Stacks(status=st, ref=ref):
            return f"stacks of {st.value} on {obj(ref)}"
        case n.EventAmount():
            return "the amount"
        case n.TurnNumber():
            return "turn number"
        case n.RoundNumber():
            return "round number"
        case n.ByRound(values=values):
            return f"({', '.join(map(str, values))}) by round"
        case n.OwnTurnNumber(possessive=pos):
            return f"{pos} turn number"
        case n.BinOp(op=op, left=left, right=right) if op in "+-":
            return f"{_at(left, 0)} {op} {_at(right, 1)}"
        case n.BinOp(op=op, left=left, right=right):
            return f"{_at(left, 1)} * {_at(right, 2)}"
        case n.Div(left=left, right=right, rounding=rounding):
            return f"{_at(left, 1)} / {_at(right, 2)} rounded {rounding}"
        case n.Neg(operand=operand):
            return f"-{_at(operand, 2)}"
        case n.Call(fn=fn, args=args):
            return f"{fn}({', '.join(expr(a) for a in args)})"
        case n.Half(operand=operand, rounding=rounding):
            return f"half of {_at(operand, 3)} rounded {rounding}"
        case n.Power(left=left, right=right):  # as tight as '*' in the grammar: bracket a compound base
            return f"{_at(left, 3)} ^ {_at(right, 2)}"
        case n.HitDamage():
            return "the damage"
        case n.Dice(count=count, sides=sides):
            return v.dice_text(count, sides)
        case n.TheRoll():
            return "the roll"
    raise TypeError(f"not an expression: {e!r}")


def _cond_level(c: n.Cond) -> int:
    return {n.AnyOf: 0, n.AllOf: 1, n.Negation: 2}.get(type(c), 3)


def _cond_at(c: n.Cond, level: int) -> str:
    return cond(c) if _cond_level(c) >= level else f"({cond(c)})"


def cond(c: n.Cond) -> str:
    match c:
        case n.Compare(left=left, op=op, right=right):
            return f"{expr(left)} {op} {expr(right)}"
        case n.AtBound(left=left, right=right, bound=bound):
            return f"{expr(left)} is {expr(right)} or {bound}"
        case n.StatBound(stat=stat, value=value, bound=bound):
            return f"{stat.value} {value} or {bound}"
        case n.Has(ref=ref, name=name):
            return f"{obj(ref)} has {name.value}"
        case n.HasSelf(name=name):
            return name.value
        case n.Lacks(name=name):
            return f"no {name.value}"
        case n.HasAbilities(present=present):
            return "abilities" if present else "no abilities"
        case n.Controls(player=player, quantity=quantity, filter=f):
            verb = "control" if isinstance(player, n.PlayerRef) and player.word == "you" else "controls"
            return f"{obj(player)} {verb} {quantity} {filter_(f)}"
        case n.SeatIs(player=player, seat=seat):
            verb = "are" if isinstance(player, n.PlayerRef) and player.word == "you" else "is"
            return f"{obj(player)} {verb} the {seat} player"
        case n.OptionIs(option=option, value=value):
            return f"the {option.value} is {value.value}"
        case n.WonBattle(ref=ref):
            return f"{obj(ref)} won the battle"
        case n.EnteredThisTurn(ref=ref):
            return f"{obj(ref)} entered the field this turn"
        case n.InFrontOf(ref=ref):
            return f"in front of {obj(ref)}"
        case n.InState(ref=ref, state=state):
            verb = "are" if isinstance(ref, n.PlayerRef) and ref.word == "you" else "is"
            return f"{obj(ref)} {verb} {state}"
        case n.AnyOf(left=left, right=right):
            return f"{_cond_at(left, 0)} or {_cond_at(right, 1)}"
        case n.AllOf(left=left, right=right):
            return f"{_cond_at(left, 1)} and {_cond_at(right, 2)}"
        case n.Negation(cond=inner):
            return f"not {_cond_at(inner, 3)}"
        case n.IsType(ref=ref, kind=kind):
            article = "an" if kind.value[0].lower() in "aeiou" else "a"
            return f"{obj(ref)} is {article} {kind.value} sword"
        case n.HasClass(ref=ref, klass=klass):
            return f"{obj(ref)} has a {klass.value} state"
        case n.WithAttribute(attribute=attribute, value=value):
            return f"{attribute.value} {value.value}"
    raise TypeError(f"not a condition: {c!r}")


# ---------------------------------------------------------------- objects and effects


def filter_(f: n.Filter) -> str:
    out = [f.possessive] if f.possessive else []
    out += ["other"] if f.other else []
    out += [a.value for a in f.attrs] + [f.kind.value]
    if f.control:
        out.append(f.control)
    if f.zone is not None:
        out.append(f"in {f.zone.possessive} {f.zone.zone.value}")
    if f.places is not None:
        out.append(_places(f.places))
    out += [cond(w) if isinstance(w, n.InFrontOf) else f"with {cond(w)}" for w in f.withs]
    return " ".join(out)


def _places(places: n.Places) -> str:
    """Return 'from each of (the top of your deck, your hand)' or 'in total from (...)'."""
    items = ", ".join(f"the {p.end} of {p.possessive} {p.zone.value}" if p.end else f"{p.possessive} {p.zone.value}"
                      for p in places.items)
    return f"{'from each of' if places.each else 'in total from'} ({items})"


def _plural(o: n.Object) -> bool:
    return isinstance(o, n.Each) and o.filter.kind.value.endswith("s")


def _bare(o: n.Object) -> bool:
    """Return whether an 'each' object is written as its bare filter ('units', 'your unit')."""
    return _plural(o) or (isinstance(o, n.Each) and o.filter.possessive is not None)


def _lead(f: n.Filter) -> str | None:
    """Return the first name of a filter's text, or None when a possessive or 'other' comes first."""
    return None if f.possessive or f.other else (f.attrs[0] if f.attrs else f.kind).value


def _each(o: n.Each, f: n.Filter) -> str:
    """Return an 'each' object in a form that parses back to it: bare, 'each ...' or 'all ...'."""
    lead = _lead(f)
    if _bare(o) and lead not in keywords():  # a keyword first would be read as that keyword ('this')
        return filter_(f)
    return f"{'all' if lead in ALL_KINDS else 'each'} {filter_(f)}"


def obj(o: n.Object) -> str:
    match o:
        case n.This():
            return "this"
        case n.Holder():
            return "its holder"
        case n.It():
            return "it"
        case n.EventObject(noun=noun):
            return f"that {noun.value}"
        case n.Attacker():
            return "the attacker"
        case n.Blocker():
            return "the blocker"
        case n.Winner():
            return "the winner"
        case n.Target(count=count, up_to=up_to, filter=f):
            # a lone 'target player' is the player word; '1 target player' keeps the filter
            plain = count == 1 and (o.another or _lead(f) != "player")
            head = f"up to {count} " if up_to else ("" if plain else f"{count} ")
            return f"{head}{'another ' if o.another else ''}target {filter_(f)}"
        case n.TargetPlayer():
            return "target player"
        case n.Each(filter=f, article="the"):
            return f"the {filter_(f)}"
        case n.Each(filter=f):
            return _each(o, f)
        case n.Extreme(side=side, filter=f):
            return f"the {side} {filter_(f)}"
        case n.RandomOne(filter=f):
            return f"a random {filter_(f)}"
        case n.PlayerRef(word=word):
            return word
        case n.BattleRef(word=word):
            return word if word == "this sword" else f"the {word}"
        case n.FirstSword(of=of, unused=unused):
            return f"the first {'unused ' if unused else ''}sword of {obj(of)}"
        case n.SwordsOf(of=of):
            return f"each sword of {obj(of)}"
        case n.Chosen(noun=noun):
            return f"the chosen {noun.value}"
    raise TypeError(f"not an object: {o!r}")


def _subject(player: n.Object | None, plain: str, third: str) -> str:
    if player is None:
        return plain
    you = isinstance(player, n.PlayerRef) and player.word == "you"
    return f"{obj(player)} {plain if you else third}"


def _until(d: n.Duration | None) -> str:
    if d is not None and d.until.endswith(" of its own turns"):
        count = int(d.until.split()[0])
        return f" for {count} of its own turn{'s' * (count != 1)}"
    return f" until {d.until}" if d is not None else ""


def _cards(a: n.Expr) -> str:
    return "card" if a == n.Number(n.NOWHERE, 1) else "cards"


def _choose(e: n.Choose) -> str:
    """Return 'choose a unit you control' or 'search your deck for a unit with cost 2 or less, reveal it'."""
    count = f"up to {e.count}" if e.up_to else ("a" if e.count == 1 else str(e.count))
    if not e.searched or e.filter.zone is None:
        return f"{_subject(e.player, 'choose', 'chooses')} {count} {filter_(e.filter)}"
    zone = e.filter.zone
    rest = filter_(replace(e.filter, zone=None))
    reveal = ", reveal it" if e.revealed else ""
    return f"{_subject(e.player, 'search', 'searches')} {zone.possessive} {zone.zone.value} for {count} {rest}{reveal}"


def effect(e: n.Effect) -> str:
    match e:
        case n.DealDamage(amount=a, target=t, unpreventable=pierce, dealer=dealer) if dealer is not None:
            return f"{obj(dealer)} deals {amount(a)} damage{' that can' + chr(39) + 't be prevented' if pierce else ''} to {obj(t)}"
        case n.DealDamage(amount=a, target=t, unpreventable=True):
            return f"deal {amount(a)} damage that can't be prevented to {obj(t)}"
        case n.Pierce(target=t):
            return f"damage dealt by {obj(t)} can't be prevented"
        case n.RangeShift(target=t, increased=increased, amount=a):
            return f"the ranges of {obj(t)} are {'increased' if increased else 'reduced'} by {amount(a)}"
        case n.CountsAs(target=t, attribute=attribute, value=value):
            return f"{obj(t)} counts as {attribute.value} {value.value}"
        case n.DistanceAs(target=t, amount=a):
            return f"the distance to {obj(t)} is treated as {amount(a)}"
        case n.DealDamage(amount=a, target=t):
            return f"deal {amount(a)} damage to {obj(t)}"
        case n.Destroy(target=t):
            return f"destroy {obj(t)}"
        case n.Draw(player=p, amount=a):
            return f"{_subject(p, 'draw', 'draws')} {amount(a)} {_cards(a)}"
        case n.Gain(player=p, amount=a, resource=r):
            return f"{_subject(p, 'gain', 'gains')} {amount(a)} {r.value}"
        case n.Lose(player=p, amount=a, resource=r):
            return f"{_subject(p, 'lose', 'loses')} {amount(a) if a is not None else 'all'} {r.value}"
        case n.Pay(amount=a, resource=r):
            return f"pay {amount(a)} {r.value}"
        case n.Give(target=t, name=name, duration=d):
            return f"give {obj(t)} {name.value}{_until(d)}"
        case n.PutStatus(amount=a, status=st, target=t, duration=d):
            return f"put {amount(a)} {st.value} on {obj(t)}{_until(d)}"
        case n.Remove(amount=a, name=name, target=t):
            return f"remove {amount(a) + ' ' if a is not None else ''}{name.value} from {obj(t)}"
        case n.RemoveDamage(target=t):
            return f"remove damage from {obj(t)}"
        case n.RemoveChanges(amount=a, target=t):
            many = a is None or a != n.Number(n.NOWHERE, 1)
            return f"remove {amount(a) if a is not None else 'all'} state change{'s' * many} from {obj(t)}"
        case n.ReturnToHand(target=t):
            return f"return {obj(t)} to its owner's hand"
        case n.MoveToEnd(target=t, side=side):
            return f"move {obj(t)} to the {side} end"
        case n.CreateToken(player=p, amount=a, card=card):
            noun = "token" if a == n.Number(n.NOWHERE, 1) else "tokens"
            return f"{_subject(p, 'create', 'creates')} {amount(a)} {_string(card)} {noun}"
        case n.Place(card=card, zone=zone):
            return f"place {_string(card)} into the {zone.value}"
        case n.Discard(player=p, amount=a, chooser=chooser):
            how = f"of {chooser} choice" if chooser else "at random"
            return f"{_subject(p, 'discard', 'discards')} {amount(a)} {_cards(a)} {how}"
        case n.Choose():
            return _choose(e)
        case n.Reveal(target=t):
            return f"reveal {obj(t)}"
        case n.PutInto(target=t, possessive=pos, zone=zone):
            return f"put {obj(t)} into {pos} {zone.value}"
        case n.Shuffle(possessive=pos, zone=zone):
            return f"shuffle {pos} {zone.value}"
        case n.Modify(target=t, sign=sign, amount=a, stat=stat, duration=d):
            verb = "get" if _plural(t) else "gets"
            return f"{obj(t)} {verb} {sign}{amount(a)} {stat.value}{_until(d)}"
        case n.Restrict(target=t, restriction=r, duration=d):
            return f"{obj(t)} can't {r}{_until(d)}"
        case n.Grant(target=t, name=name):
            return f"{obj(t)} {'have' if _plural(t) else 'has'} {name.value}"
        case n.ReduceDamage(target=t, amount=a, increased=increased):
            return f"damage to {obj(t)} is {'increased' if increased else 'reduced'} by {amount(a)}"
        case n.DamageDealtBy(target=t, amount=a, increased=increased):
            return f"damage dealt by {obj(t)} is {'increased' if increased else 'reduced'} by {amount(a)}"
        case n.GrantStatus(target=t, value=value, name=name):
            return f"{obj(t)} {'have' if _plural(t) else 'has'} {value} {name.value}"
        case n.RefuseChanges(target=t, influence=influence):
            return f"{obj(t)} can't receive state changes of influence {influence} or less"
        case n.SetResource(possessive=pos, resource=r, amount=a):
            return f"set {pos} {r.value} to {amount(a)}"
        case n.Summon(target=t):
            return f"summon {obj(t)}"
        case n.Delete(target=t):
            return f"delete {obj(t)}"
        case n.Ready(target=t):
            return f"ready {obj(t)}"
        case n.Exhaust(target=t):
            return f"exhaust {obj(t)}"
        case n.LevelChange(direction=d, target=t, amount=a):
            return f"level {d} {obj(t)}" + (f" by {amount(a)}" if a is not None else "")
        case n.LiftRestriction(target=t):
            return f"remove attack restriction from {obj(t)}"
        case n.Stage():
            return "stage cards from your hand"
        case n.PlayStaged(kinds=kinds, order=order):
            return f"play staged {', '.join(k.value for k in kinds)} in order {order_keys(order)}"
        case n.AttackAll(filter=f, order=order):
            return f"each {filter_(f)} attacks in order {order_keys(order)}"
        case n.TakeActions():
            return "take actions"
        case n.AnnounceTurn():
            return "announce the start of the turn"
        case n.DealJokers():
            return "deal jokers"
        case n.BlockedBy(target=t, filter=f):
            return f"{obj(t)} can't be blocked by {filter_(f)}"
        case n.MustBlock(target=t):
            return f"{obj(t)} must block if able"
        case n.DamageFloor(target=t, stat=stat):
            return f"{obj(t)} can't be damaged by less than its {stat.value}"
    return battle_effect(e)


def _sword_list(holder: n.Object) -> str:
    return f"to the end of the sword list of {obj(holder)}"


def _hit(e: n.Hit) -> str:
    pool = f" to its {e.pool.value}" if e.pool is not None else ""
    ignoring = f", ignoring states of class {' or '.join(x.value for x in e.ignoring)}" if e.ignoring else ""
    return f"hit {obj(e.target)} for {amount(e.amount)}{pool}{ignoring}"


def battle_effect(e: n.Effect) -> str:
    """Return an effect of automatic battles (nodes.BATTLE_EFFECTS)."""
    match e:
        case n.Hit():
            return _hit(e)
        case n.Recover(target=t, amount=a, value=value):
            return f"{obj(t)} {'recover' if _plural(t) else 'recovers'} {amount(a)} {value.value}"
        case n.NormalMove():
            return "the actor may move one line forward or back"
        case n.MoveLines(target=t, count=count, way=way):
            return f"move {obj(t)} {way} {count} {'line' if count == 1 else 'lines'}"
        case n.PerformRolled(dice=d):
            return f"roll {expr(d)} for the actor and perform its card of that face"
        case n.ReduceDirectly(stat=stat, target=t, amount=a):
            return f"reduce the {stat.value} of {obj(t)} directly by {amount(a)}"
        case n.SetValue(value=value, target=t, amount=a):
            return f"set the {value.value} of {obj(t)} to {amount(a)}"
        case n.ResetStat(stat=stat, target=t):
            return f"reset the {stat.value} of {obj(t)}"
        case n.RaiseTurn(amount=a):
            return f"raise the turn number by {amount(a)}"
        case n.SetUsed(target=t, used=used):
            return f"make {obj(t)} {'used' if used else 'unused'}"
        case n.ReverseSwords(holder=holder):
            return f"reverse the sword list of {obj(holder)}"
        case n.MoveSword(sword=sword, holder=holder):
            return f"move {obj(sword)} {_sword_list(holder)}"
        case n.AddSword(name=str() as name, holder=holder):
            return f"add {_string(name)} {_sword_list(holder)}"
        case n.AddSword(source=source, holder=holder) if source is not None:
            return f"add a copy of {obj(source)} {_sword_list(holder)}"
        case n.ChangeSword(target=t, into=into):
            return f"change {obj(t)} into {obj(into)}"
        case n.Build(name=name):
            return f"build {_string(name)}"
        case n.SkipAction():
            return "skip the action"
        case n.BuildFails():
            return "the build fails"
        case n.Redirect(to=to):
            return f"redirect the attack to {obj(to)}"
        case n.SetDamage(amount=a):
            return f"set the damage to {amount(a)}"
        case n.RemoveClass(klass=klass, target=t):
            return f"remove all {klass.value} states from {obj(t)}"
    raise TypeError(f"not an effect: {e!r}")


def order_keys(keys: tuple[n.OrderKey, ...]) -> str:
    words = {"turn_player": "turn player first", "position": "left to right", "priority": "priority levels",
             "initiative": "initiative order", "source": "abilities > actions > state changes"}
    out = []
    for k in keys:
        if k.key == "stat":
            out.append(f"{k.names[0].value} descending")
        elif k.key == "kind":
            out.append("kind " + " > ".join(x.value for x in k.names))
        else:
            out.append(words[k.key])
    return ", ".join(out)


LEADS = {"may": "you may ", "must_pay": "as a cost, ", "if_you_do": "if you do, ", "if_you_dont": "if you don't, ",
         "if_happened": "if that happened, ", "tight": "furthermore, ", "loose": "and then, ",
         "independent": "separately, "}


def sentence(s: n.Sentence) -> str:
    effects = " and ".join(effect(e) for e in s.effects)
    lead = LEADS.get(s.mode, "")
    if s.condition is not None:  # after the lead word of a battle mode ('furthermore, if ...,')
        lead += f"if {cond(s.condition)}, "
    return f"{lead}{effects}."


# ---------------------------------------------------------------- blocks


def comments(text: str) -> list[tuple[int, str]]:
    """Return the comments of a source text as (line, text), skipping '#' inside strings."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):  # only \n ends a line, as for the parser
        in_string = escaped = False
        for i, ch in enumerate(line):
            if in_string:
                escaped, in_string = (not escaped and ch == "\\"), in_string and (escaped or ch != '"')
            elif ch == '"':
                in_string = True
            elif ch == "#":
                found.append((number, line[i:].rstrip()))
                break
    return found


class _Printer:
    """Collects output lines; comments come out before the first node at or after their line."""

    def __init__(self, notes: list[tuple[int, str]]):
        self.out: list[str] = []
        self.notes = list(notes)

    def line(self, depth: int, text: str, at: n.Node | None = None) -> None:
        if at is not None and at.loc.line:
            self.flush(depth, at.loc.line)
        self.out.append(IND * depth + text if text else "")

    def flush(self, depth: int, upto: int | None = None) -> None:
        while self.notes and (upto is None or self.notes[0][0] <= upto):
            self.out.append(IND * depth + self.notes.pop(0)[1])

    def body(self, depth: int, sentences: tuple[n.Sentence, ...]) -> None:
        for s in sentences:
            self.line(depth, sentence(s), s)

    def ability(self, depth: int, a: n.Ability | n.Hook | n.Rider) -> None:
        match a:
            case n.Triggered(subject=subject, event=event, condition=c):
                who = subject.word
                if subject.filter is not None:
                    who += " " + filter_(subject.filter)
                head = f"when {who} {event}"
            case n.Timed(whose=whose, condition=c, at_end=True):
                head = f"at the end of {whose} turn"
            case n.Timed(whose=whose, phase=phase, condition=c):
                head = f"at the start of {whose} " + (f"{phase.value} phase" if phase else "turn")
            case n.Static():
                head, c = "static", None
            case n.Hook(event=event):
                head, c = f"whenever {event}", None
            case n.Rider(condition=c):
                head = "after each hit"
            case n.Activated(once_per_turn=once, condition=c):
                head = "activate once per turn" if once else "activate"
            case n.SpellEffect(repeat=repeat) if repeat != 1:
                head, c = f"effect, {repeat} times", None
            case _:
                head, c = "effect", None
        self.line(depth, f"{head}{' if ' + cond(c) if c is not None else ''}:", a)
        self.body(depth + 1, a.body)

    def block(self, head: str, node: n.Node, parts: list[tuple[str, n.Node]], abilities) -> None:
        self.line(0, head + " {", node)
        for text, part in parts:
            self.line(1, text, part)
        if parts and abilities:
            self.line(0, "")
        for a in abilities:
            self.ability(1, a)
        self.line(0, "}")


def card_part(p: n.CardPart) -> str:
    match p:
        case n.KindDecl(kind=kind):
            return f"kind {kind.value}"
        case n.CostDecl(items=items):
            return "cost " + ", ".join(f"{i.amount} {i.resource.value}" for i in items)
        case n.StatsDecl(items=items):
            return "stats " + ", ".join(" / ".join([f"{i.stat.value} {i.value}", *map(str, i.higher)]) for i in items)
        case n.RequiresDecl(attr=attr, values=values, mode=mode):
            return f"requires {attr.value} " + f" {'or' if mode == 'any' else 'and'} ".join(x.value for x in values)
        case n.RangeDecl(kind="to", values=(0, high)):
            return f"range {high}"
        case n.RangeDecl(kind="to", values=(low, high)):
            return f"range {low} to {high}"
        case n.RangeDecl(values=values):
            return "range " + "".join(f"[{d}]" for d in values)
        case n.AttrsDecl(items=items):
            return "attributes " + ", ".join(f"{i.attr.value} {i.value.value}" for i in items)
        case n.KeywordsDecl(items=items):
            return "keywords " + ", ".join(
                k.name.value + (f"({', '.join(map(str, k.args))})" if k.args else "") for k in items)
        case n.TextDecl(text=text):
            return f"text {_string(text)}"
        case n.TokenDecl():
            return "token"
        case n.SlotsDecl(genres=genres):
            return "slots " + ", ".join(x.value for x in genres)
        case n.NamesDecl(names=names):
            return "names " + ", ".join(map(_string, names))
        case n.SubtargetDecl():
            return "subtarget the next sword"
        case n.SwordsDecl(names=names):
            return "swords " + ", ".join(map(_string, names))
    raise TypeError(f"not a card part: {p!r}")


def setting(s: n.Setting) -> str:
    vals = [x.value if isinstance(x, n.Name) else x for x in s.values]
    match s.key:
        case "title":
            return f"title {_string(str(vals[0]))}"
        case "players":
            return f"players {vals[0]}" + (f" to {vals[1]}" if len(vals) > 1 else "")
        case "actor turns":
            dice = v.dice_text(int(vals[1]), int(vals[2]))
            return f"turns go to {vals[0]} in initiative order: each rolls {dice}, highest first, ties roll again."
        case "lines":
            return "lines " + ", ".join(map(str, vals))
        case "collapse":
            return "an empty line is filled at once from behind."
        case "together":
            return "triggers that tie resolve together."
        case "default range":
            return f"a card with no range has range {vals[0]}."
        case "unmet face down":
            return "an attached card whose requirement its holder no longer meets turns face down."
        case "no tokens":
            return "cards can't create tokens."
        case "slot match":
            return f"inherited cards go into slots of the same {vals[0]}."
        case "shed attached":
            return "cards attached to a card go to the graveyard when it leaves the field."
        case "summon onto":
            return f"a {vals[0]} may be summoned onto another."
        case "shared power":
            return f"the attacker's {vals[0]} is shared among the blockers by its controller, in steps of {vals[1]}."
        case "breakthrough":
            return (f"an attacker with {vals[0]} may deal what its {vals[1]} exceeds the blockers' total {vals[2]} by "
                    "to the defending player.")
        case "incapacitated":
            return f"a card with {vals[0]} {vals[1]} or less can't be selected or changed."
        case "block rests":
            return "blocking rests the blocker" + (f", unless it has {vals[0]}." if vals else ".")
        case "destroyed stay":
            return "a destroyed card stays where it is until all processing has finished."
        case "interruptible":
            words = [str(x) for x in vals]
            return (", ".join(words[:-1]) + " and " if len(words) > 1 else "") + f"{words[-1]} can be interrupted."
        case "activated respond":
            return "activated abilities can respond."
        case "flash time":
            return f"once a {vals[0]} succeeds, only {vals[1]} can respond until every player passes."
        case "whole choice":
            return "a choice that cannot meet its count chooses nothing."
        case "search may end":
            return "a search that finds nothing may end the effect."
        case "squares":
            return f"each line has {vals[0]} squares."
        case "stands behind":
            return f"every {vals[0]} stands behind the middle square."
        case "stat floor":
            return f"stats never go below {vals[0]}."
        case "tokens leave":
            return "tokens that leave the field leave the game."
        case "kind count":
            return f"decks hold exactly {vals[0]} {vals[1]}."
        case "stalemate":
            return "out of range, damage still reaches a card with no card in the lines between, less the shortfall."
        case "table rules":
            return (f"tables hold {vals[0]} cards in ascending cost, costing at most the {vals[1]} of their holder, "
                    f"at most {vals[2]} of a name.")
        case "start on field":
            return f"every {vals[0]} starts on the field."
        case "elimination":
            return "a player who loses leaves the game; the last player standing wins."
        case "deck":
            return f"deck {vals[0]} cards" + (f", at most {vals[1]} copies" if len(vals) > 1 else "")
        case "kinds" | "stats":
            return f"{s.key} " + ", ".join(map(str, vals))
        case "resource":
            bounds = "".join(f", {word} {number}" for word, number in zip(vals[2::2], vals[3::2], strict=True))
            return f"resource {vals[0]} starts at {vals[1]}{bounds}"
        case "option":
            allowed = f" ({', '.join(map(str, vals[2:]))})" if len(vals) > 2 else ""
            return f"option {vals[0]} = {vals[1]}{allowed}"
        case "opening hand":
            return f"opening hand {vals[0]}" + (f", mulligan up to {vals[1]} times" if len(vals) > 1 else "")
        case "levels":
            return f"levels {vals[0]} to {vals[1]}" + (f", overclock at {vals[2]}" if len(vals) > 2 else "")
        case "jokers":
            distinct = f", each with a different {vals[1]}" if vals[1] else ""
            return f"jokers {vals[0]}{distinct}" + (f", dealt when {vals[2]} is full" if vals[2] else "")
        case "life fill":
            by = " to the opponent's effects" if vals[2] == "opponent" else ""
            return f"a player who loses life{by} gains {vals[0]} {vals[1]}"
        case "ban":
            return f"decks may not hold cards with {vals[0]}"
        case "skip missing targets":
            return "a missing target skips only its part"
        case "interrupts":
            return "triggered abilities interrupt effects between sentences"
        case "matching attribute":
            return f"matching attribute {vals[0]}"
        case "level heal":
            return f"damage heals on {vals[0]}"
        case "damage lowers":
            return f"damage lowers {vals[0]}"
        case "damage threshold":
            return f"damage events need at least {vals[0]} damage"
        case "short deck":
            zones = ", ".join(map(str, vals[:-1]))
            return f"short deck: move {zones} to {vals[-1]}, then build a new deck from the deck list."
        case "all lose":
            return f"if every player loses at once, {vals[0]}."
        case "round limit":
            return f"after round {vals[0]}, the player with the most {vals[1]} wins; on a tie, {vals[2]}."
    return _battle_setting(s.key, vals)


def _battle_setting(key: str, vals: list) -> str:
    """Return a setting of automatic battles, or the plain 'key value' of any other setting."""
    match key:
        case "automatic":
            return f"battles are automatic, from turn {vals[0]} to turn {vals[1]}."
        case "launch turn":
            return f"swords launch at turn {vals[0]}."
        case "type priority":
            return f"type priority: {' > '.join(map(str, vals))}."
        case "judge first":
            return f"judges count {vals[0]} first."
    return f"{key} {vals[0]}"


def enchantment_parts(e: n.EnchantmentDef) -> list[str]:
    """Return the one-line parts of an enchantment; its stacking is always said (the default is 'stacks')."""
    out = [f"stacking {e.stacking}"] + ([f"text {_string(e.text)}"] if e.text is not None else [])
    out += [f"launch turn {amount(e.launch)}"] if e.launch is not None else []
    if e.shift:
        turns = "turn" if abs(e.shift) == 1 else "turns"
        out.append(f"launch {abs(e.shift)} {turns} {'earlier' if e.shift < 0 else 'later'}")
    out += ["vanishes when used"] if e.vanishes else []
    out += [f"executable if {cond(e.executable)}"] if e.executable is not None else []
    out += [f"costs {amount(e.mp_cost[0])} {e.mp_cost[1].value}"] if e.mp_cost is not None else []
    return out + (["makes its sword whole"] if e.whole else [])


def _rule(pr: _Printer, rule: n.Rule) -> None:
    match rule:
        case n.Setting():
            pr.line(1, setting(rule), rule)
        case n.ZoneDecl(name=name, flags=flags, limit=limit):
            words = ["zone", name.value, *(f for f in flags if f != UNCOUNTED), *([f"max {limit}"] if limit is not None else [])]
            pr.line(1, " ".join(words) + (f", {UNCOUNTED}" if UNCOUNTED in flags else ""), rule)
        case n.KindRule(kind=kind, traits=traits):
            pr.line(1, f"kind {kind.value}: {', '.join(traits)}", rule)
        case n.Turn(phases=phases, turn_end=end):
            pr.line(1, "turn {", rule)
            for ph in phases:
                pr.line(2, f"phase {ph.name.value} {{", ph)
                for st in ph.steps:
                    pr.line(3, f"step {st.name.value} {{", st)
                    pr.body(4, st.body)
                    pr.line(3, "}")
                pr.body(3, ph.body)
                pr.line(2, "}")
            if end:
                pr.line(2, "at turn end {", end[0])
                pr.body(3, end)
                pr.line(2, "}")
            pr.line(1, "}")
        case n.Battle(blocker=blocker, blocked=blocked, unblocked=unblocked, win_stat=stat, won=won, end=end,
                      steps=steps, quiet=quiet):
            pr.line(1, "battle {", rule)
            if steps:
                pr.line(2, f"steps: {', '.join(x.value for x in steps)}.", steps[0])
            if quiet:
                words = [x.value for x in quiet]
                listed = ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
                pr.line(2, f"no responses during {listed}.", quiet[0])
            if isinstance(blocker, n.ChosenBlocker):
                many = "number of " if blocker.many else ""
                pr.line(2, f"blocker: any {many}{filter_(blocker.filter)}, chosen by them.", blocker)
            else:
                pr.line(2, f"blocker: {obj(blocker)}.", blocker)
            parts = [("blocked", blocked), ("unblocked", unblocked)]
            parts += [(f"won by higher {stat.value}", won)] if stat is not None else []
            parts += [("battle end", end)] if end else []
            for word, sentences in parts:
                pr.line(2, f"{word} {{", sentences[0] if sentences else rule)
                pr.body(3, sentences)
                pr.line(2, "}")
            pr.line(1, "}")
        case n.TriggerOrder(keys=keys):
            pr.line(1, f"trigger order: {order_keys(keys)}.", rule)
        case n.Checks(body=body, deferred=deferred):
            pr.line(1, "checks after all processing {" if deferred else "checks {", rule)
            pr.body(2, body)
            pr.line(1, "}")
        case n.LoseRule(cond=c, at_once=at_once):
            pr.line(1, f"a player loses when {cond(c)}{', at once' if at_once else ''}.", rule)
        case n.Actions(items=items):
            said = [i.name.value + (f" {i.kind.value}" if i.kind else "")
                    + (f" {'from' if i.name.value == 'joker' else 'into'} {i.zone.value}" if i.zone else "")
                    + (f" if {cond(i.cond)}" if i.cond else "") for i in items]
            pr.line(1, f"actions: {', '.join(said)}.", rule)
        case n.Variant(option=option, value=value, rule=inner):
            pr.line(1, f"if the {option.value} is {value.value}: {setting(inner)}", rule)
        case n.ActionRight(keys=keys):
            pr.line(1, f"action right: {', then '.join(f'highest {_at(k, 3)}' for k in keys)}.", rule)
        case n.Budget(points=points, buys=buys):
            buying = ", ".join(f"{number} {what} per point" for what, number in buys)
            pr.line(1, f"swordsmen have {points} points: {buying}.", rule)


def _item(pr: _Printer, item: n.Item) -> None:
    match item:
        case n.Card(name=name, parts=parts, abilities=abilities):
            pr.block(f"card {_string(name)}", item, [(card_part(p), p) for p in parts], abilities)
        case n.KeywordDef(name=name, params=params, text=text, abilities=abilities):
            head = f"keyword {name.value}" + (f"({', '.join(p.value for p in params)})" if params else "")
            pr.block(head, item, [(f"text {_string(text)}", item)] if text is not None else [], abilities)
        case n.StatusDef(name=name, settings=settings, text=text, abilities=abilities, hooks=hooks):
            lines: list[tuple[str, n.Node]] = [(f"{k} {v}", item) for k, v in settings]
            lines += [(f"text {_string(text)}", item)] if text is not None else []
            param = f"({item.param.value})" if item.param is not None else ""
            pr.block(f"status {name.value}{param}", item, lines, (*abilities, *hooks))
        case n.EnchantmentDef(name=name, params=params, riders=riders):
            head = f"enchantment {name.value}" + (f"({', '.join(p.value for p in params)})" if params else "")
            pr.block(head, item, [(text, item) for text in enchantment_parts(item)], riders)
        case n.Ruleset(name=name, rules=rules):
            pr.line(0, f"ruleset {name.value} {{", item)
            for rule in rules:
                _rule(pr, rule)
            pr.line(0, "}")


def format_file(f: n.File, notes: list[tuple[int, str]] | None = None) -> str:
    """Return a file's canonical text, with the given comments placed by line."""
    pr = _Printer(notes or [])
    for i, item in enumerate(f.items):
        if i:
            pr.line(0, "")
        _item(pr, item)
    pr.flush(0)
    return "\n".join(pr.out).rstrip("\n") + "\n" if pr.out else ""


def format_text(text: str, path: str = "<text>") -> str:
    """Return the canonical form of card text (raises CompileError for text that does not parse)."""
    return format_file(parse(text, path), comments(text))
