"""The game API's Game and State: integers for actions, observations per player, serialization.

They wrap the runtime's Game and State (runtime/engine.py, runtime/state.py) and add nothing to the rules:
every decision of the engine (a turn's action, a target, a 'you may', a block) is one action of the state.
"""

from __future__ import annotations

import json
import operator
from pathlib import Path
from typing import Any

from compiler.diagnostics import CompileError
from compiler.freshness import outdated
from runtime import engine
from runtime.agents import describe_action
from runtime.engine import Action
from runtime.engine import Game as RuntimeGame
from runtime.folder_recovery import SAFE_NAME
from runtime.load import load_game
from runtime.state import State as RuntimeState
from runtime.view import render_state
from tools.api.observe import Encoder, observation
from tools.api.space import ActionSpace, ActionSpaceError, space_of
from tools.fresh import listed
from tools.play import deck_path, default_decks, legal_samples, read_entries

ROOT = Path(__file__).resolve().parents[2]
TERMINAL = -1  # current_player of a finished game
FORMAT = "cardc-state-1"  # the first field of a serialized state
DICE_CALLS = ("fx.roll(", "perform_rolled(")  # how compiled cards roll dice (compiler/templates)


class ApiError(ValueError):
    """A request the game API refuses: an unknown ruleset or option, bad decks, an illegal action."""


def _compiled() -> list[str]:
    """Return the rulesets compiled into generated/, by name."""
    return sorted(p.parent.name for p in (ROOT / "generated").glob("*/__init__.py"))


def load(ruleset: str, rules: str | None = None, options: dict[str, str] | None = None) -> Game:
    """Return the Game of a compiled card-game ruleset; `rules` is its version (the option 'version')."""
    stale = outdated(ROOT) if (ROOT / "cards").is_dir() else []  # never play old code (tools/fresh.py)
    if stale:
        raise ApiError(f"generated/ is stale ({listed(stale)}); run `cardc build`")
    known = _compiled()
    if not SAFE_NAME.match(ruleset) or ruleset not in known:
        raise ApiError(f"no compiled ruleset '{ruleset}' (compiled: {', '.join(known)})")
    chosen = dict(options or {}) | ({"version": rules} if rules else {})
    runtime_game = load_game(ruleset)
    if runtime_game.ruleset.automatic:
        games = [r for r in known if not load_game(r).ruleset.automatic]
        raise ApiError(f"'{ruleset}' plays automatic battles without decisions; the game API plays the card "
                       f"games: {', '.join(games)}")
    try:
        return Game(runtime_game.with_options(chosen) if chosen else runtime_game)
    except ValueError as err:
        raise ApiError(str(err)) from None


def deserialize(text: str) -> State:
    """Return the state `State.serialize` wrote, loading its ruleset with its options."""
    data = _envelope(text)
    return load(data["ruleset"], options=data["options"]).deserialize(text)


def _envelope(text: str) -> dict[str, Any]:
    """Return the fields of a serialized state; ApiError if the text is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ApiError(f"not a serialized state: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ApiError(f"not a serialized state (no \"format\": \"{FORMAT}\")")
    return data


class Game:
    """A ruleset with its options chosen: its action space, its observation layout, and new states."""

    def __init__(self, runtime_game: RuntimeGame):
        self.raw = runtime_game
        self.name: str = runtime_game.ruleset.name
        self.options: dict[str, str] = dict(runtime_game.options)
        self.space: ActionSpace = space_of(runtime_game)
        self.num_actions: int = self.space.size
        self.encoder = Encoder(runtime_game, self.space.seats)
        self.observation_size: int = self.encoder.size
        self.min_players = runtime_game.ruleset.players
        self.max_players = self.space.seats
        self.chance: dict[str, bool] = _chance(runtime_game)

    def sample_decks(self) -> list[str]:
        """Return the names of the sample decks (or teams) that are legal under these rules and options."""
        return [p.stem for p in legal_samples(ROOT, self.raw)]

    def new_state(self, decks: list | None = None, seed: int = 0) -> State:
        """Return the state at the first decision of a new game; each deck a sample name, a file, or a list
        of card names (None: the first two legal samples). The seed decides every shuffle, die and coin."""
        given = list(decks) if decks is not None else default_decks(ROOT, self.raw)
        if len(given) == 1:
            given *= 2
        lists = [d if isinstance(d, list) else self._read(d) for d in given]
        try:
            return State(self, self.raw.new_game(lists, seed))
        except ValueError as err:
            raise ApiError(str(err)) from None

    def _read(self, deck: str | Path) -> list:
        """Return a deck or team given by sample name or file; ApiError saying what is wrong with it."""
        try:
            return read_entries(self.raw, [deck_path(ROOT, self.name, str(deck))])[0]
        except (ValueError, CompileError) as err:
            raise ApiError(str(err)) from None

    def deserialize(self, text: str) -> State:
        """Return the state `State.serialize` wrote; ApiError if it was written for another ruleset or options."""
        data = _envelope(text)
        if data.get("ruleset") != self.name or data.get("options") != self.options:
            raise ApiError(f"the state is of {data.get('ruleset')} {data.get('options')}, "
                           f"not {self.name} {self.options}")
        return State(self, RuntimeState.from_dict(data["state"], self.raw))


def _chance(game: RuntimeGame) -> dict[str, bool]:
    """Return where chance enters a ruleset: shuffled decks, a random first player, dice."""
    rs = game.ruleset
    package = ROOT / "generated" / rs.name
    rolls = any(call in p.read_text(encoding="utf-8") for p in sorted(package.glob("*.py")) for call in DICE_CALLS)
    return {"shuffles": True, "random_first_player": rs.first_player == "random",
            "dice": rolls or bool(rs.actor_turns)}


class State:
    """One game in progress; actions are integers of the game's action space."""

    def __init__(self, game: Game, raw: RuntimeState):
        self.game = game
        self.raw = raw

    @property
    def current_player(self) -> int:
        """Return the seat that decides now, or TERMINAL (-1) once the game is over."""
        if engine.is_terminal(self.raw) or self.raw.decision is None:
            return TERMINAL
        return int(self.raw.decision["player"])

    def is_chance_node(self) -> bool:
        """Return False: chance is sampled by the state's seeded RNG, never a decision of its own."""
        return False

    def _pairs(self) -> dict[int, Action]:
        """Return the legal engine actions by number."""
        return {self.game.space.encode(a): a for a in engine.legal_actions(self.raw)}

    def legal_actions(self) -> list[int]:
        """Return the legal actions, sorted (empty once the game is over)."""
        return sorted(self._pairs())

    def legal_action_mask(self) -> list[int]:
        """Return one entry per action of the space: 1 where the action is legal, else 0."""
        mask = [0] * self.game.num_actions
        for a in self._pairs():
            mask[a] = 1
        return mask

    def action_to_string(self, action: int) -> str:
        """Return an action as the logs write it ('attack Cinder Hound#12'), or its kind and value if not legal now."""
        pair = self.game.space.decode(action)
        return describe_action(self.raw, pair) if pair in self._pairs().values() else f"{pair[0]} {pair[1]}"

    def string_to_action(self, text: str) -> int:
        """Return the legal action written `text` (as action_to_string writes it); ApiError if none is."""
        for a in self.legal_actions():
            if self.action_to_string(a) == text:
                return a
        raise ApiError(f"no legal action '{text}'")

    def apply_action(self, action: int) -> None:
        """Take a legal action and advance to the next decision; ApiError if it is not legal now."""
        try:
            pair = self._pairs().get(operator.index(action))  # any integer type (a numpy int too)
        except TypeError:
            pair = None
        except ActionSpaceError as err:
            raise ApiError(str(err)) from None
        if pair is None:
            raise ApiError(f"action {action!r} is not legal now (legal: {self.legal_actions()})")
        engine.apply_action(self.raw, pair)

    def is_terminal(self) -> bool:
        """Return whether the game is over."""
        return engine.is_terminal(self.raw)

    def returns(self) -> list[float]:
        """Return each player's result: 1.0 a win, -1.0 a loss, 0.0 a draw or a game not over."""
        return [float(r) for r in engine.returns(self.raw)]

    def clone(self) -> State:
        """Return an independent copy that plays on identically."""
        copy = self.raw.snapshot()
        copy.own_rng()  # its own generator: reseeding the copy's (docs/api.md, Chance) leaves this one's alone
        return State(self.game, copy)

    def serialize(self) -> str:
        """Return the whole state (RNG included) as canonical JSON, with its ruleset and options."""
        data = {"format": FORMAT, "ruleset": self.game.name, "options": self.game.options,
                "state": self.raw.to_dict()}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def observation(self, player: int) -> dict[str, Any]:
        """Return what a player may see, as plain JSON-ready data."""
        return observation(self.raw, self._seat(player))

    def observation_tensor(self, player: int) -> list[float]:
        """Return what a player may see as a flat vector of game.observation_size numbers."""
        return self.game.encoder.encode(self.observation(player))

    def observation_string(self, player: int) -> str:
        """Return what a player may see as the text board `cardc play` shows a human."""
        return render_state(self.raw, viewer=self._seat(player))

    def _seat(self, player: int) -> int:
        """Return a seat of this game; ApiError otherwise."""
        if not isinstance(player, int) or not 0 <= player < len(self.raw.players):
            raise ApiError(f"no player {player!r} (players 0 to {len(self.raw.players) - 1})")
        return player

    def __str__(self) -> str:
        """Return the whole board as text (every card: not an observation)."""
        return render_state(self.raw)
