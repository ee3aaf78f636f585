"""No replay file can choose where `cardc replay` writes: its ruleset and its extra card file are names
inside a temporary copy of the project, and any other value is refused with its place in the file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tools.cli import main
from tools.fuzz_targets import UsageError, card_file_name_problem, load_pool

CARD = 'card "Fuzz Test Sprout" {\n    kind creature\n    cost 1 mana\n    stats power 3, speed 2\n}\n'
NOT_PLAIN = ("is not a plain card file name; expected lowercase letters, digits and '_', starting with a letter, "
             "then '.card' (such as \"fuzz_sprouts.card\"): the file is written only inside a temporary copy of "
             "the ruleset folder")


def _replay(tmp_path: Path, ruleset: str = "simple_duel", extra: object = None) -> Path:
    """Write a replay file as `cardc fuzz` lays it out (one key a line), naming a ruleset and extra cards."""
    data = {"format": "cardc-replay/1", "ruleset": ruleset, "extra_cards": extra, "seed": 0,
            "decks": [[], []], "choices": []}
    path = tmp_path / "hand-edited.replay.json"
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def _replay_cli(file: Path, capsys) -> tuple[int, str, str]:
    code = main(["--root", str(ROOT), "replay", str(file)])
    out = capsys.readouterr()
    return code, out.out, out.err


def _refusal(file: Path, line: int, col: int, message: str, source_line: str) -> str:
    """Return what `cardc replay` prints for one refused name: the located error, its line, a caret, the verdict."""
    return (f"{file}:{line}:{col}: E301 {message}\n    {source_line}\n    {' ' * (col - 1)}^\n"
            f"cardc replay: {file} names a path outside the temporary copy; nothing was written\n")


def test_an_extra_card_file_with_an_absolute_path_is_refused_where_the_file_names_it(tmp_path, capsys):
    target = tmp_path / "written-by-replay.card"
    file = _replay(tmp_path, extra={"file": str(target), "text": CARD})
    name = json.dumps(str(target))
    expected = _refusal(file, 5, 11, f"extra_cards file {name} {NOT_PLAIN}", f'  "file": {name},')
    assert _replay_cli(file, capsys) == (2, "", expected)
    assert not target.exists()


def test_an_extra_card_file_climbing_out_with_dots_is_refused(tmp_path, capsys):
    # From the temporary copy's cards/simple_duel/, three '..' reach the temporary folder; then into tmp_path.
    climb = f"../../../{os.path.relpath(tmp_path, tempfile.gettempdir())}/escaped.card"
    assert (Path(tempfile.gettempdir()) / "cardc-fuzz-x" / "cards" / "simple_duel" / climb).resolve() \
        == (tmp_path / "escaped.card").resolve()
    file = _replay(tmp_path, extra={"file": climb, "text": CARD})
    name = json.dumps(climb)
    expected = _refusal(file, 5, 11, f"extra_cards file {name} {NOT_PLAIN}", f'  "file": {name},')
    assert _replay_cli(file, capsys) == (2, "", expected)
    assert not (tmp_path / "escaped.card").exists()


def test_a_ruleset_that_is_a_path_is_refused_where_the_file_names_it(tmp_path, capsys):
    file = _replay(tmp_path, ruleset="../../tmp")
    message = ("ruleset \"../../tmp\" is not a ruleset name; expected the name of a folder of cards/ (lowercase "
               "letters, digits and '_', starting with a letter)")
    assert _replay_cli(file, capsys) == (2, "", _refusal(file, 3, 13, message, ' "ruleset": "../../tmp",'))


def test_every_refused_name_of_a_file_is_reported(tmp_path, capsys):
    file = _replay(tmp_path, ruleset="/etc", extra={"file": "x/../../y.card", "text": CARD})
    code, out, err = _replay_cli(file, capsys)
    assert (code, out) == (2, "")
    assert [line.split(": E301")[0] for line in err.splitlines() if "E301" in line] == [f"{file}:3:13",
                                                                                        f"{file}:5:11"]


def test_a_plain_extra_card_file_name_passes(tmp_path, capsys):
    assert card_file_name_problem("fuzz_sprouts.card") is None
    for bad in ("/tmp/x.card", "../x.card", "x/y.card", "class.card", "Fuzz.card", "fuzz-x.card", "x.cards",
                ".card", "", None, 5):
        assert card_file_name_problem(bad) == f"{json.dumps(bad)} {NOT_PLAIN}"


def test_load_pool_writes_an_extra_card_file_only_inside_its_copy(tmp_path):
    target = tmp_path / "written-by-load-pool.card"
    with pytest.raises(UsageError) as info:
        load_pool(ROOT, "simple_duel", {"file": str(target), "text": CARD})
    assert str(info.value) == f"{json.dumps(str(target))} {NOT_PLAIN}"
    assert not target.exists()
    for extra in (["not", "a", "card file"], {"file": "fuzz_x.card"}, {"file": "fuzz_x.card", "text": 3}):
        with pytest.raises(UsageError) as info:
            load_pool(ROOT, "simple_duel", extra)
        assert str(info.value) == 'the extra card file is not {"file": "NAME.card", "text": "..."}'
    for ruleset in ("../simple_duel", "/etc", "..", ""):
        with pytest.raises(UsageError) as info:
            load_pool(ROOT, ruleset)
        assert str(info.value) == f"{json.dumps(ruleset)} is not the name of a folder of {ROOT / 'cards'}"
