"""Replay files go through the grammar (grammar/sheets.lark `replay`, compiler/replay_files.py): every problem
located, word for word (tests/errors/replays.txt), before any game starts; every replay `cardc fuzz` writes
reads back as what it wrote; nothing hostile gets further than an error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.replay_files import Replay, check_game, read_replay
from runtime import invariants
from runtime.load import load_game
from tests.test_parties import Case, cases_of, problems_of
from tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
CASES_FILE = ROOT / "tests" / "errors" / "replays.txt"
SAMPLES = sorted((ROOT / "tests" / "replays").glob("*.replay.json"))
PATH = "replays/case.replay.json"
RULESETS = frozenset(p.name for p in (ROOT / "cards").iterdir() if p.is_dir())


def read(text: str, path: str = PATH) -> Replay:
    """Return a replay's values checked as `cardc replay` checks them (the game: the ruleset's compiled one)."""
    replay = read_replay(text, path, RULESETS)
    problems = check_game(replay, load_game(replay.ruleset))
    if problems:
        raise CompileError(problems)
    return replay


def render_case(case: Case) -> str:
    """Return every problem of the case's replay rendered, joined by newlines ('' for a good replay)."""
    return problems_of(lambda: read(case.text), case.text)


CASES = cases_of(CASES_FILE, render_case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_error_messages_word_for_word(case):
    assert render_case(case) == case.expect


def test_every_case_is_an_error_and_the_samples_are_real():
    assert all(case.expect for case in CASES) and len(SAMPLES) >= 3


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.name for p in SAMPLES])
def test_a_sample_replay_reads_as_json_reads_it(sample):
    text = sample.read_text(encoding="utf-8")
    replay, data = read(text, str(sample)), json.loads(text)
    assert (replay.ruleset, replay.options, replay.extra_cards, replay.seed, replay.decks, replay.violation) == (
        data["ruleset"], data["options"], data["extra_cards"], data["seed"], data["decks"], data["violation"])
    assert replay.choices == [tuple(pair) for pair in data["choices"]]


def test_a_nul_and_a_control_character_are_located_in_and_out_of_strings():
    for text, where in (('{"format": "cardc-\x00replay/1"}', (1, 19)), ('{"format":\x00 1}', (1, 11)),
                        ('{"a": 1}\n\x1b', (2, 1))):
        with pytest.raises(CompileError) as info:
            read_replay(text, PATH, RULESETS)
        [d] = info.value.diagnostics
        assert (d.code, d.line, d.col) == ("E002", *where), d
        assert "U+0000" in d.message or "U+001B" in d.message


def test_bytes_that_are_not_utf8_are_a_located_error(tmp_path, capsys):
    bad = tmp_path / "bad.replay.json"
    bad.write_bytes(b'{\n "format": "cardc-\xffreplay/1"}\n')
    assert main(["--root", str(ROOT), "replay", str(bad)]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{bad}:2:19: E005 byte 0xFF is not valid UTF-8 (the file must be UTF-8 text)")


def test_every_replay_fuzz_writes_reads_back(monkeypatch, tmp_path, capsys):
    real = invariants.violations
    monkeypatch.setattr(invariants, "violations", lambda s: real(s) + (
        ["fake violation: 5 actions taken"] if s.actions_taken >= 5 else []))
    out = tmp_path / "found.replay.json"
    assert main(["--root", str(ROOT), "fuzz", str(ROOT / "cards" / "code_of_joker"), "--rules", "v2", "--games",
                 "2", "--seed", "4", "--out", str(out), "--shrink-seconds", "2"]) == 1
    capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    replay, data = read(text, str(out)), json.loads(text)
    assert replay.options == data["options"] == {"version": "v2"}
    assert (replay.seed, replay.decks, replay.choices) == (data["seed"], data["decks"],
                                                          [tuple(pair) for pair in data["choices"]])
    assert text == json.dumps(data, indent=1) + "\n"  # the writer is unchanged: json.dumps, one value a line


def test_cardc_replay_reports_a_hostile_replay_located_and_without_a_traceback(tmp_path):
    bad = tmp_path / "hostile.replay.json"
    bad.write_text('{\n "format": "cardc-replay/1",\n "ruleset": "simple_duel",\n "seed": 1e8,\n "decks": '
                   '[["Wickwing Mouth"], []],\n "choices": [["stage", ' + "9" * 4301 + ']],\n "sead": 0\n}\n',
                   encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "tools", "replay", str(bad)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr and result.stdout == ""
    heads = [line for line in result.stderr.splitlines() if line.startswith(str(bad))]
    assert heads == [
        f"{bad}:4:10: E210 expected a seed in the digits 0-9, found '1e8'",
        f"{bad}:6:24: E210 the value of choice 1 must be at most 999999999, found a number of 4301 digits",
        f"{bad}:7:2: E101 unknown key 'sead' in a replay file; did you mean 'seed'?"]
    assert result.stderr.splitlines()[-1] == f"cardc replay: {bad} cannot be replayed; nothing was played"
