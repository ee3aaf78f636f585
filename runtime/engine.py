"""The engine: Game (rules + card registry) and the loop that drives a State between decisions.

The state's `tasks` list is an agenda of small plain-data steps (last in, first out). The loop
runs state-based checks and end conditions, puts pending triggers on the stack, then runs the
next task, until a player must decide something or the game is over. A task that needs a
decision puts itself back and sets `state.decision`; `apply_action` records the answer.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from runtime import (
    actions,
    actors,
    choices,
    grid,
    inherit,
    jokers,
    positions,
    resolve,
    summons,
    turns,
    unchanged,
    windows,
)
from runtime import effects as fx
from runtime import query as q
from runtime.defs import Ability, CardDef, Entry, KeywordDef, RulesetDef, StatusDef, entry_names
from runtime.ending import GameOver
from runtime.state import CardState, Ctx, PlayerState, State, Tasks
from runtime.triggers import find_item, stack_pending

MAX_TURNS = 500  # a safety net: a game still running here is declared a draw and logged
MAX_STEPS = 100_000  # steps without any decision: an endless loop of triggers ends the game as a draw
LOOP_NOTE = "steps without a decision: the game loops and is a draw"
Action = tuple[str, int]


def _under(ruleset: RulesetDef, changes: dict[str, Any]) -> RulesetDef:
    """Return the rules with some settings replaced (an option's variants), or the rules themselves if none."""
    if not changes:
        return ruleset
    rules = copy.copy(ruleset)
    vars(rules).update(changes)  # the instance's values hide the compiled class's settings
    return rules


def _variant_settings(ruleset: RulesetDef, options: dict[str, str]) -> dict[str, Any]:
    """Return the settings that the chosen options' variants replace ('option V X: <setting>')."""
    changes: dict[str, Any] = {}
    for option, value, attribute, setting in ruleset.variants:
        if options.get(option) != value:
            continue
        if attribute == "resource":  # one resource's start and bounds, the others kept
            resource, start, low, high = setting
            changes["resources"] = changes.get("resources", dict(ruleset.resources)) | {resource: start}
            bounds = changes.get("resource_bounds", dict(ruleset.resource_bounds))
            changes["resource_bounds"] = bounds | {resource: (low, high)}
        else:
            changes[attribute] = setting
    return changes


def chosen_options(ruleset: RulesetDef, options: dict[str, str]) -> dict[str, str]:
    """Return a ruleset's options with some chosen (also an automatic battle's); ValueError naming an unknown
    option or a value the option does not have."""
    chosen = dict(ruleset.options)
    for key, value in options.items():
        allowed = ruleset.option_values.get(key)
        if allowed is None:
            raise ValueError(f"ruleset '{ruleset.name}' has no option '{key}'")
        if value not in allowed:
            raise ValueError(f"option '{key}' is one of {', '.join(allowed)}, not '{value}'")
        chosen[key] = value
    return chosen


DECKS_KEPT = 256  # decks whose check a Game remembers (random decks, as the fuzzer's, start it anew)


class Game:
    """Immutable rules: a ruleset and the card, keyword and status definitions it plays with."""

    def __init__(self, ruleset: RulesetDef, cards: dict[str, type[CardDef]],
                 keywords: dict[str, type[KeywordDef]], statuses: dict[str, type[StatusDef]],
                 options: dict[str, str] | None = None):
        self.ruleset = ruleset
        self.cards = cards
        self.keywords = keywords
        self.statuses = statuses
        # The kinds a filter word matches on each card: its own, and those its kind 'counts as'.
        self.kind_sets = {name: frozenset([c.kind] + [t[10:] for t in ruleset.kind_traits.get(c.kind, ())
                                                      if t.startswith("counts as ")]) for name, c in cards.items()}
        self.traits = {name: frozenset(ruleset.kind_traits.get(c.kind, ())) for name, c in cards.items()}
        # Whether a static ability can generate a status instance: if none can, a card's are the ones it keeps.
        defs: list[Any] = [*cards.values(), *keywords.values(), *statuses.values()]
        self.generates = any(eff.what == "grant_status" for d in defs for a in d.abilities for eff in a.statics)
        self.options = chosen_options(ruleset, options or {})
        self.abilities_memo: dict[tuple, list] = {}  # derived: the abilities of a card's facts (query.card_abilities)
        self.decks_checked: dict[tuple[str, ...], list[str]] = {}  # derived: check_deck's answers, by deck
        self.declared = ruleset  # as compiled; `ruleset` is it with the chosen options' variants
        self.ruleset = _under(ruleset, _variant_settings(ruleset, self.options))
        rs = self.ruleset
        # The zones whose cards' abilities can work (query.working), in the order the index reads them.
        self.index_zones: tuple[str, ...] = ("field", rs.set_zone) if rs.set_zone else ("field",)
        self.index_zones += tuple(z for z, flags in rs.zones.items() if "attached" in flags or "shared" in flags)

    def with_options(self, options: dict[str, str]) -> Game:
        """Return the same rules and cards with some options chosen."""
        return Game(self.declared, self.cards, self.keywords, self.statuses, self.options | options)

    def ability(self, ref: list) -> Ability:
        """Return the ability an ability reference ['card'|'keyword'|'status', name, index] names."""
        owner, name, i = ref
        table: Any = {"card": self.cards, "keyword": self.keywords, "status": self.statuses}[owner]
        return table[name].abilities[i]

    def check_deck(self, deck: list[str]) -> list[str]:
        """Return what is wrong with a deck under this ruleset (empty when it is legal). A new game checks its
        decks, and games are mostly played with the same few decks: the last DECKS_KEPT answers are kept."""
        key = tuple(deck)
        found = self.decks_checked.get(key)
        if found is None:
            if len(self.decks_checked) >= DECKS_KEPT:
                self.decks_checked.clear()
            found = self.decks_checked[key] = self._deck_problems(deck)
        return list(found)

    def _deck_problems(self, deck: list[str]) -> list[str]:
        rs = self.ruleset
        problems = [f"unknown card '{n}'" for n in sorted(set(deck)) if n not in self.cards]
        problems += [f"'{n}' is a token and cannot be in a deck" for n in sorted(set(deck))
                     if n in self.cards and self.cards[n].token]
        apart = [n for n in deck if jokers.is_joker(self, n)]
        problems += jokers.deck_problems(self, apart)
        problems += self._kind_count_problems(deck)
        counted = {k for k, _ in rs.kind_counts}  # a ruler is listed with the deck, not one of its cards
        deck = [n for n in deck if n not in apart and (n not in self.cards or self.cards[n].kind not in counted)]
        if rs.deck_size and len(deck) != rs.deck_size:
            problems.append(f"the deck has {len(deck)} cards; it must have exactly {rs.deck_size}")
        elif not deck:  # no size stated is any size but 0: a game of empty decks is over before it starts
            problems.append("the deck has 0 cards; it must have at least 1")
        for n in sorted(set(deck)):
            banned = [k for k, _ in self.cards[n].keywords if k in rs.banned_keywords] if n in self.cards else []
            problems += [f"'{n}' has {k}, which these rules do not allow" for k in banned]
        if rs.max_copies:
            problems += [f"'{n}' appears {deck.count(n)} times; at most {rs.max_copies} allowed"
                         for n in sorted(set(deck)) if deck.count(n) > rs.max_copies]
        return problems

    def _kind_count_problems(self, deck: list[str]) -> list[str]:
        """Return what is wrong with the number of cards of each kind a deck must hold exactly N of."""
        out = []
        for kind, count in self.ruleset.kind_counts:
            held = sum(1 for n in deck if n in self.cards and self.cards[n].kind == kind)
            if held != count:
                out.append(f"the deck has {held} {kind} card{'s' if held != 1 else ''}; it must have exactly {count}")
        return out

    def empty_state(self, seed: int, players: int | None = None, rolls: list[int] | None = None) -> State:
        """Return a state with empty zones and starting resources, before any turn; `rolls` (scenarios) are
        the faces its dice show, in order, in place of the RNG's."""
        rs = self.ruleset
        s = State(seed=seed, rng=random.Random(seed), players=[], cards=[], game=self, rolls=rolls)
        for p in range(players or rs.players):
            s.players.append(PlayerState(p, dict(rs.resources), {z: [] for z in rs.zones}))
        return s

    def _set_up(self, s: State, p: int, deck: list) -> None:
        """Put a player's deck into a new game: jokers apart; cards of a kind that starts on the field there,
        in the deck list's order, each entry's attached cards with it; the rest into the deck, shuffled."""
        names = entry_names(deck)
        s.players[p].deck_list = [n for n in names if not jokers.is_joker(self, n)]
        s.players[p].jokers = [n for n in names if jokers.is_joker(self, n)]
        for entry in deck:
            name = entry.name if isinstance(entry, Entry) else entry
            if jokers.is_joker(self, name):
                continue
            cid = self.add_card(s, name, p, "field" if self.cards[name].kind in self.ruleset.start_on_field else "deck")
            if isinstance(entry, Entry):
                s.own(cid).line = entry.line
                for held in entry.attached:
                    self.attach(s, cid, held)
        jokers.set_aside(self, s, p)
        s.own_rng().shuffle(s.players[p].zones["deck"])

    def attach(self, s: State, holder: int, name: str) -> int:
        """Attach a new card to a card, after the cards attached to it; return its id. It is kept in the
        controller's zone the ruleset declares `attached`."""
        zone = next((z for z, flags in self.ruleset.zones.items() if "attached" in flags), None)
        if zone is None:
            raise ValueError(f"{self.ruleset.name} declares no zone for attached cards ('zone NAME attached')")
        cid = self.add_card(s, name, s.cards[holder].controller, zone)
        s.own(holder).attached.append(cid)
        s.own(cid).holder = holder
        return cid

    def add_card(self, s: State, name: str, player: int, zone: str, at: int | None = None) -> int:
        """Put a new card into a player's zone (right end; on a grid's field, into the square `at` or the first
        empty one); return its id."""
        if name not in self.cards:
            raise ValueError(f"unknown card '{name}'")
        cid = len(s.cards)
        s.add(CardState(cid, name, player, player, zone, since=s.tick()))
        s.players[player].zones[zone].append(cid)
        if zone == "field" and grid.on_grid(s):
            grid.arrive(s, cid, at)
        s.touch()
        return cid

    def new_game(self, decks: list[list], seed: int, first: int | None = None,
                 pause: list | None = None, rolls: list[int] | None = None, watch: Any = None) -> State:
        """Return the state at the first decision of a new game: decks shuffled, hands drawn; one deck per
        player, as many players as the ruleset's 'players' line allows; `watch` observes abilities (State)."""
        rs = self.ruleset
        if not rs.players <= len(decks) <= max(rs.max_players, rs.players):
            most = max(rs.max_players, rs.players)
            allowed = f"{rs.players}" if most == rs.players else f"{rs.players} to {most}"
            raise ValueError(f"{rs.name} is played by {allowed} players, and {len(decks)} decks were given")
        for p, deck in enumerate(decks):
            problems = self.check_deck(entry_names(deck))
            if problems:
                raise ValueError(f"deck of P{p + 1}: " + "; ".join(problems))
        s = self.empty_state(seed, len(decks), rolls)
        s.watch = watch
        for p, deck in enumerate(decks):
            self._set_up(s, p, deck)
        if first is not None:
            s.first = first
        else:
            s.first = s.own_rng().randrange(len(decks)) if rs.first_player == "random" else 0
        s.say(f"P{s.first + 1} goes first")
        for p in range(len(decks)):
            fx.draw(s, Ctx(-1, p, ["ruleset", rs.name, 0]), [~p], rs.opening_hand)
        s.active = (s.first - 1) % len(decks)
        if rs.actor_turns:
            actors.roll_initiative(s)
        if rs.mulligans:
            s.tasks += [["mulligan", p % len(decks), 0] for p in reversed(range(s.first, s.first + len(decks)))]
        s.pause = pause
        run(s)
        return s


# ---------------------------------------------------------------- the loop


def run(s: State) -> None:
    """Advance the game until a decision is needed, the game is over, or a scenario's pause point."""
    steps = 0
    while s.decision is None and s.result is None:
        steps += 1
        if steps > MAX_STEPS:
            s.say(f"{MAX_STEPS} {LOOP_NOTE}")
            s.result = [0] * len(s.players)
            break
        key = unchanged.board_key(s)
        if s.index_cache is not None and s.index_cache.grants and unchanged.grants_stale(s, key):
            s.index_cache = None  # granted keywords follow their conditions (stats, counts) step by step
        # Between two steps of a resolution only a ruleset whose effects are interrupted between
        # sentences runs its checks and stacks what triggered; jokers wait for the effect's end.
        between = bool(s.resolving)
        if not between or s.game.ruleset.interrupts == "sentence":
            if unchanged.needs_checks(s, key) and turns.check_state(s):
                break  # someone lost
            if not between:
                actions.deal_jokers(s)
            if s.pending and stack_pending(s):
                continue
        if s.pause is not None and paused(s):
            break
        if not s.tasks:
            if s.turn >= MAX_TURNS:
                s.say(f"turn limit {MAX_TURNS} reached: the game is a draw")
                s.result = [0] * len(s.players)
                break
            turns.begin_turn(s)
            continue
        task = s.tasks.pop()
        try:
            TASKS[task[0]](s, task)
        except GameOver:
            break  # a lose rule checked at once ended the game inside an effect


def paused(s: State) -> bool:
    """Return whether the game stands at its pause point (a scenario's 'stop:')."""
    p = s.pause
    if p is None or s.pending or s.decision is not None:
        return False
    if p[0] == "after_turn":
        return not s.tasks and s.turn >= p[1]
    nxt = s.tasks[-1] if s.tasks else None
    return (nxt is not None and nxt[0] == "phase" and s.turn == p[2]
            and s.game.ruleset.phases[nxt[1]].name == p[1])


def legal_actions(s: State) -> list[Action]:
    """Return the actions open to the deciding player, in a fixed order (empty when terminal)."""
    if s.result is not None or s.decision is None:
        return []
    d = s.decision
    if d["kind"] == "may":
        return [("yes", 0), ("no", 0)]
    if d["kind"] == "mulligan":
        return [("mulligan", 0), ("keep", 0)]
    acts = [tuple(c) for c in d["choices"]] if "choices" in d else [(d["kind"], x) for x in d["options"]]
    if d.get("can_stop"):
        acts.append((d.get("stop", "done"), 0))
    return acts


def apply_action(s: State, action: Action) -> None:
    """Record a decision and advance the game to the next one."""
    d = s.decision
    if d is None or tuple(action) not in legal_actions(s):
        raise ValueError(f"illegal action {action!r}")
    kind, x = action
    s.decision = None
    s.actions_taken += 1
    if d["kind"] == "interrupt":
        windows.answer(s, d["player"], kind, x)
    elif kind == "stage":
        turns.stage_card(s, d["player"], x)
    elif kind == "respond":
        turns.play_response(s, d["player"], x, d["item"])
    elif kind == "done" and d["kind"] == "respond":
        resolve.pass_response(s, d["player"], d["item"])
    elif kind == "done" and d["kind"] == "stage":
        s.tasks.pop()
        s.say(f"P{d['player'] + 1} ends the set phase")
    elif d["kind"] == "act":
        actions.perform(s, d["player"], kind, x) if kind != "end" else actions.end_actions(s, d["player"])
    elif kind == "onto":
        actions.perform_onto(s, d["player"], x)
    elif kind == "square":
        actions.perform_square(s, d["player"], x)
    elif d["kind"] in ("inherit", "slot"):
        inherit.answer(s, d, kind, x)
    elif d["kind"] == "use":
        resolve.use(s, d["player"], x if kind == "use" else None)
    elif kind == "done" and d["kind"] == "block":
        s.tasks.pop()  # no more blockers
    elif kind in ("block", "no block"):
        turns.declare_blocker(s, x if kind == "block" else None)
    elif kind in ("breakthrough", "no breakthrough"):
        s.battle["through"] = kind == "breakthrough"
        s.say(f"P{d['player'] + 1} {'breaks' if kind == 'breakthrough' else 'does not break'} through")
    elif kind == "share":
        s.battle["shares"].append([d["blocker"], x])
        s.say(f"P{d['player'] + 1} shares {x} damage to {q.describe(s, d['blocker'])}")
    elif kind in ("mulligan", "keep"):
        turns.mulligan(s, d["player"], kind == "mulligan")
    elif d["kind"] == "move":
        positions.answer_move(s, kind, x)
    elif d["kind"] == "not found":
        choices.answer_not_found(s, d["player"], kind == "end the effect")
    elif d["kind"] == "choose":
        choices.answer(s, d["player"], x if kind == "choose" else d["options"][x] if kind == "face down" else None)
    elif kind in ("target", "done"):
        _record_target(s, d, None if kind == "done" else x)
    elif kind in ("yes", "no"):
        ctx = find_item(s, d["item"])
        assert ctx is not None
        ctx.answers[d["index"]] = kind == "yes"
        s.say(f"P{d['player'] + 1} answers {kind} ({q.shown(s, ctx.source)})")
    run(s)


def _record_target(s: State, d: dict, x: int | None) -> None:
    ctx = find_item(s, d["item"])
    assert ctx is not None
    slot = ctx.targets[d["slot"]]
    if x is None:
        slot.append([None, 0])  # a stop marker for 'up to' slots, dropped on resolution
        return
    slot.append([x, -1 if q.is_player(x) else s.cards[x].moves])
    resolve.targeted(s, x)
    where = positions.distance_note(s, ctx, x)
    s.say(f"P{d['player'] + 1} targets {q.describe(s, x)} ({q.shown(s, ctx.source)}){where}")


def is_terminal(s: State) -> bool:
    return s.result is not None


def returns(s: State) -> list[int]:
    """Return each player's result: 1 win, -1 loss, 0 draw or not over."""
    return list(s.result) if s.result is not None else [0] * len(s.players)


TASKS: Tasks = turns.TASKS | actions.TASKS | choices.TASKS | windows.TASKS | summons.TASKS
