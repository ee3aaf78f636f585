"""`cardc try`, through main([...]) on the real pools: the ability observer (State.watch) sees what a game's
abilities do, and seeing costs the game nothing; the report's counts come from it (an observer that drops
events makes the counting check fail); a targeting ability that fizzles, and an ability never legal, are
reported as such; the report is deterministic; bad names and options are clear errors (exit 2); a broken
invariant stops the trial with a replay file as `cardc fuzz` writes it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runtime import engine, invariants
from runtime.agents import RandomAgent
from runtime.state import State
from tests.conftest import ROOT
from tools import fuzzing
from tools.cli import main
from tools.play import read_entries

DECKS = ROOT / "cards" / "simple_duel" / "decks"


def _try(capsys, *args: str) -> tuple[int, str, str]:
    """Return the exit code, stdout and stderr of `cardc try ARGS` on the project."""
    code = main(["--root", str(ROOT), "try", *args])
    printed = capsys.readouterr()
    return code, printed.out, printed.err


def _row(report: str, title: str) -> dict[str, int]:
    """Return the counts of the report's row whose title contains `title`: {'fired': n, ...}."""
    lines = report.splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(r"\d+\. ", line) and title in line)
    return {what: int(n) for n, what in ((m[2], m[1]) for m in re.finditer(r"(\w+) (\d+)", lines[at + 1]))}


def _excerpt(report: str, number: int, what: str) -> list[str]:
    """Return the lines of the excerpt of row `number`'s outcome `what` (its heading first)."""
    lines = report.splitlines()
    at = lines.index(next(line for line in lines if line.startswith(f"{number}. {what}: game ")))
    return [lines[at]] + [line for line in lines[at + 1:at + 1 + fuzzing_excerpt_lines()] if line.startswith("    ")]


def fuzzing_excerpt_lines() -> int:
    from tools.try_report import AFTER, BEFORE

    return BEFORE + AFTER


# ---------------------------------------------------------------- the observer itself


def _watched_game(seed: int) -> tuple[list[tuple[str, int, str]], State, State]:
    """Play one Simple Duel game twice, observed and not; return the events and both final states."""
    from runtime.load import load_game

    game = load_game("simple_duel")
    decks = read_entries(game, [DECKS / "aggro.deck", DECKS / "control.deck"])
    events: list[tuple[str, int, str]] = []
    states = []
    for watch in (lambda s, what, ctx, why: events.append((what, ctx.item, ctx.ability[1])), None):
        s = game.new_game([list(d) for d in decks], seed, watch=watch)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while not engine.is_terminal(s):
            assert s.decision is not None and s.snapshot().watch is None  # a trial on a copy is not observed
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
        states.append(s)
    return events, states[0], states[1]


def test_the_observer_sees_each_ability_fire_then_resolve_or_fizzle_and_changes_nothing():
    events, watched, plain = _watched_game(3)
    fired = [item for what, item, _ in events if what == "fired"]
    resolved = [item for what, item, _ in events if what == "resolved"]
    fizzled = [item for what, item, _ in events if what == "fizzled" and item > 0]  # > 0: it was on the stack
    assert fired and resolved and len(set(fired)) == len(fired)
    assert set(resolved) | set(fizzled) <= set(fired) and not set(resolved) & set(fizzled)
    order = [item for what, item, _ in events]
    assert all(order.index(i) < len(order) - order[::-1].index(i) - 1 for i in resolved)  # fired before
    assert watched.to_json() == plain.to_json() and watched.log == plain.log  # observing is free of effects


def test_play_checked_passes_the_observer_and_its_replay_check_plays_unobserved():
    from runtime.load import load_game

    game = load_game("simple_duel")
    decks = read_entries(game, [DECKS / "embers.deck", DECKS / "tempo.deck"])
    seen: list[State] = []
    agents = [RandomAgent(5), RandomAgent(6)]
    run = fuzzing.play_checked(game, decks, 5, lambda s, a: a.index(agents[s.decision["player"]].choose(s, a)),
                               watch=lambda s, what, ctx, why: seen.append(s))
    assert run.finished and run.violation is None and run.result is not None and sorted(run.result) == [-1, 1]
    assert seen and len({id(s) for s in seen}) == 1  # the game's own state, never the checks' copies


# ---------------------------------------------------------------- counts, fizzles, never legal


def _check_trigger_report(report: str) -> None:
    """Raise AssertionError unless Sparkjaw Imp's summon trigger fired and resolved, with an excerpt naming it."""
    counts = _row(report, "When Sparkjaw Imp is summoned")
    assert counts["fired"] > 0 and counts["resolved"] > 0, counts
    number = int(next(line for line in report.splitlines() if "When Sparkjaw Imp is summoned" in line).split(".")[0])
    excerpt = _excerpt(report, number, "resolved")
    assert "cardc play simple_duel" in excerpt[0] and "--seed" in excerpt[0]
    assert any("Sparkjaw Imp" in line for line in excerpt[1:]), excerpt


def test_a_trigger_reports_fired_and_resolved_with_an_excerpt(capsys):
    code, out, _ = _try(capsys, "Sparkjaw Imp", "--games", "4")
    assert code == 0
    _check_trigger_report(out)
    assert out.startswith("cardc try 'Sparkjaw Imp' (simple_duel): 4 games from seed 1\n")
    assert "try.deck:\n    " in out


def test_the_counts_come_from_the_observer(monkeypatch, capsys):
    monkeypatch.setattr(State, "notify", lambda self, what, ctx, why="": None)  # a planted observer: drops all
    code, out, _ = _try(capsys, "Sparkjaw Imp", "--games", "4")
    assert code == 0
    with pytest.raises(AssertionError):
        _check_trigger_report(out)


def test_an_excerpt_replays_with_cardc_play(capsys, tmp_path, monkeypatch):
    code, out, _ = _try(capsys, "Sparkjaw Imp", "--games", "2", "--against", "control")
    assert code == 0
    deck = "".join(line[4:] + "\n" for line in out.split("try.deck:\n")[1].splitlines())
    (tmp_path / "try.deck").write_text(deck, encoding="utf-8")
    heading, *lines = _excerpt(out, 1, "played")
    command = heading.split("; cardc ")[1].split()
    monkeypatch.chdir(tmp_path)
    assert main(["--root", str(ROOT), *command]) == 0
    assert "\n".join(line[4:] for line in lines) in capsys.readouterr().out


def test_a_printed_keywords_abilities_are_rows_of_the_card(capsys):
    code, out, _ = _try(capsys, "Cindertail Fox", "--games", "4")
    assert code == 0
    assert "2. keyword Ashcast, ability 1 (triggered): When this card attacks, put N Ashmark" in out
    counts = _row(out, "keyword Ashcast, ability 1")
    assert counts["fired"] > 0 and counts["resolved"] > 0


def test_a_targeting_ability_that_fizzles_reports_it(capsys):
    code, out, _ = _try(capsys, "Tallowmark Hexer", "--games", "6")
    assert code == 0
    counts = _row(out, "put 2 Ashmark on target creature")
    assert counts["fizzled"] > 0 and counts["fired"] >= counts["fizzled"]
    assert "it had no legal target" in out
    heading = next(line for line in out.splitlines() if re.match(r"\d+\. fizzled: game", line))
    assert "--seed" in heading


UNREACHABLE = """
card "Distant Thunder" {
    kind spell
    cost 40 mana
    stats speed 3
    text "Deal 3 damage to target player."
    effect: deal 3 damage to target player.
}
"""


@pytest.fixture(scope="module")
def quick_duel(tmp_path_factory) -> Path:
    """Return a built copy of the Quick Duel test project with a spell no game reaches the mana for."""
    project = tmp_path_factory.mktemp("try") / "project"
    shutil.copytree(ROOT / "tests" / "rulesets" / "quick_duel", project)
    (project / "cards" / "quick_duel" / "unreachable.card").write_text(UNREACHABLE, encoding="utf-8")
    assert _cardc(project, "build").returncode == 0
    return project


def _cardc(project: Path, *args: str) -> subprocess.CompletedProcess:
    """Run cardc in a project folder, its own generated/ first on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "tools", *args], cwd=project, env=env, capture_output=True,
                          text=True)


def test_a_spell_staged_with_no_target_left_fizzles_before_the_stack(capsys):
    code, out, _ = _try(capsys, "Ashmark Verdict", "--games", "4")
    assert code == 0
    counts = _row(out, "(effect):")
    assert counts["fizzled"] > counts["fired"] and "it has no legal target" in out  # given up, never stacked


def test_an_activated_ability_is_observed_and_legal(capsys):
    code, out, _ = _try(capsys, "Forge Adept", "--games", "1")
    assert code == 0 and "deck: ash_keepers with 3 copies of it in place of" in out
    counts = _row(out, "(activated): Activate once per turn")
    assert counts["fired"] > 0 and counts["resolved"] > 0
    assert "never legal in 0 of the 1 games" in out
    heading = _excerpt(out, 2, "fired")
    assert any("activates Forge Adept" in line for line in heading[1:]), heading


def test_an_ability_never_legal_in_those_decks_is_reported(quick_duel):
    never = _cardc(quick_duel, "try", "Distant Thunder", "--games", "2", "--against", "mixed")
    assert never.returncode == 0, never.stderr
    assert "deck: mixed with 3 copies of it in place of" in never.stdout
    assert _row(never.stdout, "the card itself")["played"] == 0
    assert "never playable in 2 of the 2 games the card was drawn or in play in (NEVER PLAYABLE)" in never.stdout
    assert "never legal in 2 of the 2 games the card was drawn or in play in (NEVER LEGAL)" in never.stdout
    assert "    none: the card was never played and none of its abilities went on the stack" in never.stdout
    played = _cardc(quick_duel, "try", "Bolt of Brass", "--games", "2", "--against", "mixed")
    assert played.returncode == 0 and "NEVER" not in played.stdout  # the same decks: a castable spell is legal
    assert _row(played.stdout, "the card itself")["played"] > 0


# ---------------------------------------------------------------- determinism and errors


def test_the_same_seed_gives_the_same_report_and_another_seed_another(capsys):
    first = _try(capsys, "Sparkjaw Imp", "--games", "3", "--seed", "4")
    again = _try(capsys, "Sparkjaw Imp", "--games", "3", "--seed", "4")
    other = _try(capsys, "Sparkjaw Imp", "--games", "3", "--seed", "9")
    assert first[:2] == again[:2] and first[0] == 0  # stdout: the report
    assert first[2] == ""  # stderr not a terminal: no progress bar (tools/progress.py)
    assert other[1] != first[1]


def test_an_unknown_name_suggests_one_and_exits_2(capsys):
    code, out, err = _try(capsys, "Sparkjaw Imq", "--games", "1")
    assert (code, out) == (2, "")
    assert err == "cardc try: no card 'Sparkjaw Imq' in any compiled ruleset; did you mean 'Sparkjaw Imp'?\n"


@pytest.mark.parametrize(("args", "message"), [
    (["Sparkjaw Imp", "--ruleset", "successor"], "no card 'Sparkjaw Imp' in ruleset 'successor' (it is a card of "
                                                 "simple_duel)"),
    (["Sparkjaw Imp", "--ruleset", "simple_duels"], "no compiled ruleset 'simple_duels'; did you mean 'simple_duel'?"),
    (["Sparkjaw Imp", "--games", "0"], "--games must be at least 1"),
    (["Sparkjaw Imp", "--against", "contrl"], "did you mean 'control'?"),
    (["Sparkjaw Imp", "--option", "speed=fast"], "ruleset 'simple_duel' has no option 'speed'"),
    (["Frost Needle"], "'Frost Needle' is a card of successor, war_vortex_night; say which with --ruleset"),
    (["Absolute Sword"], "marguerite plays automatic battles of parties, which `cardc try` does not play"),
])
def test_usage_errors_are_one_line_and_exit_2(capsys, args, message):
    code, out, err = _try(capsys, *args)
    assert (code, out) == (2, "") and message in err and len(err.splitlines()) == 1, err


def test_a_bad_deck_file_to_play_against_is_located_and_exits_1(capsys, tmp_path):
    deck = tmp_path / "bad.deck"
    deck.write_text("2 Sparkjaw Imp\n1 Nope Card\n", encoding="utf-8")
    code, out, err = _try(capsys, "Sparkjaw Imp", "--against", str(deck))
    assert (code, out) == (1, "")
    assert err.splitlines()[0].startswith(f"{deck}:2:3: E202 unknown card 'Nope Card'")


def test_a_card_no_deck_may_hold_says_why(capsys):
    token = _a_token()
    code, _, err = _try(capsys, token, "--ruleset", "simple_duel")
    assert code == 2 and err == f"cardc try: '{token}' cannot be in a deck of simple_duel: it is a token\n"


def _a_token() -> str:
    import generated.simple_duel as module

    return sorted(name for name, card in module.CARDS.items() if card.token)[0]


def test_a_broken_invariant_stops_the_trial_with_a_replay(monkeypatch, tmp_path, capsys):
    real = invariants.violations
    monkeypatch.setattr(invariants, "violations", lambda s: real(s) + (
        ["fake violation: 9 actions taken"] if s.actions_taken >= 9 else []))
    out = tmp_path / "broken.replay.json"
    code, printed, _ = _try(capsys, "Sparkjaw Imp", "--games", "3", "--out", str(out))
    assert code == 1 and printed.startswith("violation found in game 1 (seed 1):\n")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == fuzzing.FORMAT and data["ruleset"] == "simple_duel" and data["seed"] == 1
    assert data["violation"].endswith("fake violation: 9 actions taken") and len(data["choices"]) == 9
    assert main(["--root", str(ROOT), "replay", str(out)]) == 1  # cardc replay plays it again, still failing
    assert Path(out).is_file()


# ---------------------------------------------------------------- decks and teams the card goes into


def test_a_joker_takes_a_jokers_place_and_the_deck_stays_legal():
    from runtime.load import load_game
    from tools.try_decks import place

    game = load_game("code_of_joker").with_options({"version": "v1"})
    placed = place(ROOT, game, "Ilse's Noon Verdict")
    assert placed is not None and placed.sample == "v1_roots_and_tides" and len(placed.replaced) == 1
    sample = read_entries(game, [ROOT / "cards" / "code_of_joker" / "decks" / "v1_roots_and_tides.deck"])[0]
    assert len(placed.entries) == len(sample) and game.check_deck(placed.entries) == []
    assert placed.entries.count("Ilse's Noon Verdict") == 1 and placed.replaced[0] in sample


def test_an_action_card_goes_into_a_team_table_and_is_counted(capsys):
    code, out, _ = _try(capsys, "Lunar Ray", "--games", "2")
    assert code == 0
    assert "deck: dawnbreakers with 1 copy of it in place of 'Starfall'" in out and "\ntry.team:\n" in out
    assert "the card itself" not in out  # a die, not a player, plays an action card
    counts = _row(out, "(effect): Deal 1D damage to target character")
    assert counts["fired"] > 0 and counts["resolved"] > 0
    assert "cardc play war_vortex_night" in out
