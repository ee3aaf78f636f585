"""What one effect may ask of the engine (runtime/vocabulary.py MAX_VALUE, MAX_AT_ONCE): a computed amount
past the bound is taken as the bound and logged, tokens are created at most 1,000 at once, and a value a
card squares again and again stays a number the log can print. Literal counts past the bound are compile
errors (tests/errors/cases.txt: e105_effect_repeated_past_the_bound, e105_tokens_created_past_the_bound)."""

from __future__ import annotations

from runtime import effects as fx
from runtime.battle import effects as bfx
from runtime.battle.parties import SwordsmanSpec
from runtime.battle.procedure import new_battle
from runtime.battle.rules import load_rules
from runtime.battle.state import Ctx as BattleCtx
from runtime.load import load_game
from runtime.state import Ctx, State
from runtime.vocabulary import MAX_AT_ONCE, MAX_VALUE
from tests.test_invariants import _decks

NOTE = "(the engine's bound)"


def _logged(s: object, text: str) -> bool:
    return any(line.endswith(text) for line in s.log)  # type: ignore[attr-defined]


def _duel() -> tuple[State, Ctx]:
    game = load_game("simple_duel")
    s = game.new_game(_decks(game, "simple_duel")[:2], 1)
    return s, Ctx(-1, 0, ["ruleset", "test", 0])


def test_tokens_past_the_bound_are_created_a_thousand_at_once():
    s, ctx = _duel()
    before = len(s.players[0].zones["field"])
    fx.create_token(s, ctx, [~0], 5_000, "Pebble Sprite")
    assert len(s.players[0].zones["field"]) - before == MAX_AT_ONCE
    assert _logged(s, f"an amount past {MAX_AT_ONCE:,} is taken as {MAX_AT_ONCE:,} {NOTE}")


def test_an_amount_squared_again_and_again_stays_printable():
    s, ctx = _duel()
    for _ in range(40):  # unbounded, life would have about 2^40 digits
        life = s.players[0].resources["life"]
        fx.gain(s, ctx, [~0], life * life + 2, "life")
    assert 0 < s.players[0].resources["life"] <= 41 * MAX_VALUE
    assert _logged(s, f"an amount past {MAX_VALUE:,} is taken as {MAX_VALUE:,} {NOTE}")
    fx.deal_damage(s, ctx, [~1], -(10 ** 5000))  # a negative amount of 5,000 digits: no damage, no crash
    assert _logged(s, f"an amount past {MAX_VALUE:,} is taken as {-MAX_VALUE:,} {NOTE}")


def test_an_amount_within_the_bound_is_not_touched():
    s, ctx = _duel()
    fx.gain(s, ctx, [~0], MAX_VALUE, "life")
    assert s.players[0].resources["life"] == 20 + MAX_VALUE and NOTE not in "\n".join(s.log)


def test_battle_values_are_bounded_too():
    rules = load_rules("marguerite")
    spec = SwordsmanSpec("Aria", 10, 1, 1, 1, (), 1)
    s = new_battle(rules, ([spec], [spec]))
    aria = s.parties[0][0]
    for _ in range(40):
        bfx.set_value(s, BattleCtx(actor=aria), [aria], aria.values["hp"] ** 2 + 2, "hp")
    assert aria.values["hp"] == MAX_VALUE and _logged(s, NOTE)
