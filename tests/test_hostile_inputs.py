"""A hostile corpus and mutations applied to every position of real files of every format beside card files
(deck, party, scenario, battle scenario, replay): each input gives its value or located errors, never another
exception, and no input runs long; `cardc fmt` of each gives a text that means the same (compiler/fmt_sheets.py
parses it again) and formats to itself, or the same kind of located errors. CI runs a fixed budget;
CARDC_PROFILE=long runs 50 times as many."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compiler.diagnostics import CompileError
from compiler.fmt_sheets import format_sheet
from compiler.party_files import parse_party
from compiler.replay_files import check_game, read_replay
from compiler.sheets import DeckRules, deck_rules, read_deck
from compiler.team_files import read_team
from runtime.battle.rules import load_rules
from runtime.load import load_game
from tests.test_differential import interpreted
from tools.battle.scenario import parse_scenario as parse_battle
from tools.scenario import scenario_from_text

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ["'", '"', '"""', "\\", "\\n", "\r\n", "\r", "\x00", "\u2028", "\u2029", "\u202e", "\u2066", "\x85",
           "{{ x }}", "{% for %}", "{#", "__import__('os')", "__class__", "class", "def", "None", "ｆｕｌｌ", "ﬁ",
           "K\u0301", "9" * 4301, "0" * 5000 + "1", "1e8", "10" + "0" * 400, "³", "-1", "P0", "P9", "A99", "[", "]",
           "(" * 300, ")" * 300, "#", ":", "：", "/", ",", "、", "|", "=", " ", "\t", "", "\ufeff", "../..",
           "/etc/passwd", "x" * 100_000, "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace")]
BOUND_SECONDS = 30  # a hang, not a speed: every input here reads in well under a second


def _files(pattern: str) -> list[Path]:
    return sorted(ROOT.glob(pattern))


SAMPLES = {
    "deck": _files("cards/*/decks/*.deck")[:4],
    "party": _files("cards/marguerite/parties/*.sw")[:4],
    "scenario": _files("tests/scenarios/code_of_joker/resolving/*.scenario")[:3]
    + _files("tests/scenarios/simple_duel/cards/*.scenario")[:3],
    "battle": _files("tests/battles/marguerite/R-MG-0*.battle")[:4],
    "replay": _files("tests/replays/*.replay.json")[:3],
    "team": _files("tests/rulesets/melee/cards/melee/teams/*.team")[:3],
}


def _readers() -> dict[str, Callable[[str, str], object]]:
    """Return, per format, what reads a text as cardc reads such a file."""
    rules = load_rules("marguerite")
    # the sample decks are of two rulesets: their cards together, no size (a size error is located anyway)
    known = deck_rules(load_game("simple_duel")).known | deck_rules(load_game("code_of_joker")).known
    rulesets = {p.name for p in (ROOT / "cards").iterdir() if p.is_dir()}
    melee = interpreted(ROOT, ROOT / "tests" / "rulesets" / "melee" / "cards" / "melee")  # a test ruleset with teams
    return {
        "deck": lambda text, path: read_deck(text, path, DeckRules(known)),
        "party": lambda text, path: parse_party(text, path, rules.spellings),
        "scenario": lambda text, path: scenario_from_text(text, path, rulesets),
        "battle": lambda text, path: parse_battle(text, path, rules),
        "replay": lambda text, path: _read_replay(text, path, rulesets),
        "team": lambda text, path: read_team(text, path, melee),
    }


def _read_replay(text: str, path: str, rulesets: set[str]) -> object:
    """Return a replay's values checked as `cardc replay` checks them, against its ruleset's compiled game."""
    replay = read_replay(text, path, rulesets)
    problems = check_game(replay, load_game(replay.ruleset))
    if problems:
        raise CompileError(problems)
    return replay


READERS = _readers()
FMT_KINDS = {"deck": "deck", "party": "party", "scenario": "scenario", "battle": "battle_scenario",
             "replay": "replay", "team": "team"}


def _formatted(text: str, path: str, kind: str, twice: bool) -> None:
    """Format a text as `cardc fmt` does (which parses its output again: the same AST or an internal error);
    with `twice`, its canonical form must also format to itself."""
    pretty = format_sheet(text, path, FMT_KINDS[kind])
    assert not twice or format_sheet(pretty, path, FMT_KINDS[kind]) == pretty, "fmt is not idempotent"


@contextmanager
def _bounded(seconds: int) -> Iterator[None]:
    """Fail an input that reads for longer than `seconds` (a hang)."""
    def hang(signum, frame):
        raise AssertionError(f"reading took longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


PAIRS = 4000  # (line, hostile string) pairs the exhaustive test tries at most per format


def check_input(kind: str, text: str, twice: bool = True) -> None:
    """Read and format a text as a file of a format: a value or located errors (line and column inside the
    text) each time; `twice`: format the formatted text too."""
    path = f"hostile.{kind}"
    with _bounded(BOUND_SECONDS):
        for read in (READERS[kind], lambda text, path: _formatted(text, path, kind, twice)):
            try:
                read(text, path)
            except CompileError as err:
                lines = text.count("\n") + 1
                assert err.diagnostics, "an error with no diagnostic"
                for d in err.diagnostics:
                    assert d.path == path and 1 <= d.line <= lines + 1 and d.col >= 1, d
                    assert d.render(text).startswith(f"{path}:{d.line}:{d.col}: {d.code} ")


def _splice(text: str, at: int, cut: int, insert: str) -> str:
    return text[:at] + insert + text[at + cut:]


@st.composite
def hostile_texts(draw, kind: str) -> str:
    """Return a real file of the format with a hostile string put at some place, over some characters."""
    text = draw(st.sampled_from(SAMPLES[kind])).read_text(encoding="utf-8")
    at = draw(st.integers(0, len(text)))
    return _splice(text, at, draw(st.integers(0, 3)), draw(st.sampled_from(HOSTILE)))


@st.composite
def mutated_texts(draw, kind: str) -> str:
    """Return a real file of the format with bit flips, deletions, duplications, swaps or a truncation."""
    text = draw(st.sampled_from(SAMPLES[kind])).read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        match draw(st.sampled_from(["flip", "delete", "duplicate", "swap", "truncate"])):
            case "flip":
                text = _splice(text, at, 1, chr(ord(text[at]) ^ (1 << draw(st.integers(0, 6)))))
            case "delete":
                text = _splice(text, at, draw(st.integers(1, 20)), "")
            case "duplicate":
                text = _splice(text, at, 0, text[at:at + draw(st.integers(1, 40))])
            case "swap":
                lines = text.split("\n")
                i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
                text = "\n".join(lines)
            case "truncate":
                text = text[:at]
    return text


def test_every_format_has_real_samples():
    assert all(len(paths) >= 3 for paths in SAMPLES.values()), {k: len(v) for k, v in SAMPLES.items()}
    for kind, paths in SAMPLES.items():
        for path in paths:  # the samples themselves read cleanly
            READERS[kind](path.read_text(encoding="utf-8"), str(path))


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@given(data=st.data())
def test_a_hostile_string_anywhere_gives_a_value_or_located_errors(kind, data):
    check_input(kind, data.draw(hostile_texts(kind)))


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@given(data=st.data())
def test_a_mutated_real_file_gives_a_value_or_located_errors(kind, data):
    check_input(kind, data.draw(mutated_texts(kind)))


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_hostile_string_at_every_line_start(kind):
    # every hostile string at every line start of one sample (formatted once: the Hypothesis tests format
    # twice); past PAIRS the pairs are thinned by a stride that rotates, so each string still meets lines
    # spread over the whole file and each line meets some strings; the Hypothesis tests sample the rest
    text = SAMPLES[kind][0].read_text(encoding="utf-8")
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    stride = -(-len(starts) * len(HOSTILE) // PAIRS)
    for line, at in enumerate(starts):
        for j, hostile in enumerate(HOSTILE):
            if (line + j) % stride == 0:
                check_input(kind, _splice(text, at, 0, hostile), twice=False)


def test_the_check_itself_fails_on_an_unlocated_error_or_a_crash(monkeypatch):
    # a planted reader that crashes, and one whose error is outside the text, must each fail the check
    monkeypatch.setitem(READERS, "deck", lambda text, path: [][0])
    with pytest.raises(IndexError):
        check_input("deck", "1 X\n")
    from compiler.diagnostics import Diagnostic

    def outside(text, path):
        raise CompileError([Diagnostic("E203", "planted", path, 99, 1)])

    monkeypatch.setitem(READERS, "deck", outside)
    with pytest.raises(AssertionError):
        check_input("deck", "1 X\n")
