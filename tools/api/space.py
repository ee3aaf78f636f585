"""The fixed action space of a ruleset: every engine action `(kind, value)` as one integer.

An action is `kind index * width + (value + seats)`: the kinds are the engine's decision kinds in a fixed
order followed by the ruleset's own action names; a value is a card id, a player written `~p` (so -1 is the
first player), or a small number (a square's code, a slot, a face-down card's place, a share in steps).
"""

from __future__ import annotations

from dataclasses import dataclass

from runtime.engine import Action
from runtime.engine import Game as RuntimeGame

# Every kind the engine offers, in a fixed order (runtime/engine.py legal_actions and the tasks that ask).
ENGINE_KINDS = (
    "yes", "no", "mulligan", "keep", "stage", "done", "end", "pass", "respond", "activate", "onto", "square",
    "inherit", "slot", "use", "block", "no block", "breakthrough", "no breakthrough", "share", "move forward",
    "move back", "stay", "go on", "end the effect", "choose", "face down", "target",
)
FREE_DECK_CARDS = 64  # a ruleset without a deck size: the most cards one player's deck or team may bring
TOKEN_ROOM = 128  # card ids beyond the decks: tokens and cards made during play


class ActionSpaceError(ValueError):
    """An action outside the ruleset's fixed action space (a number out of range, or a value too large)."""


@dataclass(frozen=True)
class ActionSpace:
    """The kinds, the seats and the card slots that fix a ruleset's action numbers."""

    kinds: tuple[str, ...]
    seats: int
    card_slots: int
    share_step: int

    @property
    def width(self) -> int:
        """Return how many values each kind has: the seats (players as targets) then the card slots."""
        return self.seats + self.card_slots

    @property
    def size(self) -> int:
        """Return the number of actions of the space."""
        return len(self.kinds) * self.width

    def encode(self, action: Action) -> int:
        """Return the number of an engine action; ActionSpaceError if it falls outside the space."""
        kind, value = action
        if kind not in self.kinds:
            raise ActionSpaceError(f"action kind '{kind}' is not in this ruleset's action space")
        if kind == "share":
            value //= self.share_step
        if not -self.seats <= value < self.card_slots:
            raise ActionSpaceError(f"action '{kind} {value}' is beyond the {self.card_slots} card slots")
        return self.kinds.index(kind) * self.width + value + self.seats

    def decode(self, number: int) -> Action:
        """Return the engine action of a number; ActionSpaceError if it is not in [0, size)."""
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < self.size:
            raise ActionSpaceError(f"action {number!r} is not in [0, {self.size})")
        kind_index, rest = divmod(number, self.width)
        kind, value = self.kinds[kind_index], rest - self.seats
        return kind, value * self.share_step if kind == "share" else value


def space_of(game: RuntimeGame) -> ActionSpace:
    """Return the action space of a game, derived from its ruleset's data alone (not from any state)."""
    rs = game.ruleset
    kinds = ENGINE_KINDS + tuple(sorted({name for name, *_ in rs.actions} - set(ENGINE_KINDS)))
    seats = max(rs.players, rs.max_players)
    per_player = FREE_DECK_CARDS
    if rs.deck_size:
        per_player = rs.deck_size + (rs.jokers[0] if rs.jokers else 0) + sum(n for _, n in rs.kind_counts)
    step = rs.shared_power[1] if rs.shared_power else 1
    return ActionSpace(kinds, seats, seats * per_player + TOKEN_ROOM, step)
