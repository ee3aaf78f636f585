"""The game viewer (`cardc play --html`, `cardc replay --html`) in a real headless Chromium: a Code of Joker
game and a Marguerite battle step forward and back, show their zones or parties, and end as the game did."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.browser import chromium, console_errors, screenshot
from tests.conftest import ROOT
from tools.cli import main
from tools.viewer import page, steps_json

HOSTILE = "</script><b id='injected'>x</b><!-- <script>window.pwned=1</script>"


def _steps(path: Path) -> list[dict]:
    """Return the steps a viewer page holds (its embedded JSON)."""
    text = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="steps">(.*?)</script>', text, re.S)[1])


def _played(tmp_path: Path, capsys, name: str, *args: str) -> tuple[Path, list[str]]:
    """Play a game with --html through the real command; return the page and the log it printed."""
    out = tmp_path / name
    assert main(["--root", str(ROOT), "play", *args, "--html", str(out), "--no-build"]) == 0
    printed = capsys.readouterr()
    assert f"viewer page written to {out}" in printed.err
    return out, printed.out.splitlines()


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


def _now(browser) -> dict[str, str]:
    """Return what the page shows now: the counter, the step's log, the panels and the end line."""
    return {key: browser.find_element(By.ID, key).text for key in ("counter", "log", "panels", "end", "action")}


def _key(browser, key: str) -> dict[str, str]:
    browser.find_element(By.TAG_NAME, "body").send_keys(key)
    return _now(browser)


def test_a_code_of_joker_game_steps_forward_and_back(browser, tmp_path, capsys):
    out, log = _played(tmp_path, capsys, "joker.html", "code_of_joker", "--seed", "3")
    steps = _steps(out)
    assert [line for step in steps for line in step["log"]] == log  # every log line, each in one step
    browser.get(out.as_uri())
    assert console_errors(browser) == []
    first = _now(browser)
    assert first["counter"] == f"step 1 of {len(steps)}" and first["action"] == "set-up"
    assert "P1" in first["panels"] and "hand (" in first["panels"] and "life" in first["panels"]
    second = _key(browser, Keys.ARROW_RIGHT)
    assert second["counter"] == f"step 2 of {len(steps)}"
    assert second["log"] != first["log"] and second["log"] == "\n".join(steps[1]["log"])
    assert second["panels"] != first["panels"]
    assert _key(browser, Keys.ARROW_LEFT) == first
    browser.find_element(By.ID, "next").click()
    assert _now(browser) == second
    browser.find_element(By.ID, "last").click()
    last = _now(browser)
    assert last["counter"] == f"step {len(steps)} of {len(steps)}"
    assert last["log"].splitlines()[-1] == log[-1] and last["end"].startswith("game over: ")
    assert browser.find_element(By.ID, "next").get_property("disabled")
    _key(browser, Keys.HOME)
    for _ in range(9):
        _key(browser, Keys.ARROW_RIGHT)
    screenshot(browser, "viewer.png", tmp_path)
    assert console_errors(browser) == []


def test_a_marguerite_battle_shows_parties_hp_ap_and_swords(browser, tmp_path, capsys):
    out, log = _played(tmp_path, capsys, "battle.html", "marguerite")
    steps = _steps(out)
    assert [line for step in steps for line in step["log"]] == log
    browser.get(out.as_uri())
    assert console_errors(browser) == []
    first = _now(browser)
    assert first["counter"] == f"step 1 of {len(steps)}"
    assert "party A" in first["panels"] and "party B" in first["panels"]
    assert "HP" in first["panels"] and "AP" in first["panels"]
    lists = [m[1] for line in log if (m := re.match(r"[AB]\d+ [^:]+: \d+/\d+/\d+/\d+/(.+)$", line))]
    assert lists and all(sword in first["panels"] for line in lists for sword in line.split(", "))
    second = _key(browser, Keys.ARROW_RIGHT)
    assert second["counter"] == f"step 2 of {len(steps)}" and " acts: " in second["action"]
    assert second["log"] != first["log"] and second["panels"] != first["panels"]
    assert _key(browser, Keys.ARROW_LEFT) == first
    last = _key(browser, Keys.END)
    assert last["counter"] == f"step {len(steps)} of {len(steps)}"
    assert last["log"].splitlines()[-1] == log[-1] and last["end"].startswith("battle over: ")
    _key(browser, Keys.HOME)
    for _ in range(len(steps) // 2):
        _key(browser, Keys.ARROW_RIGHT)
    screenshot(browser, "viewer-marguerite.png", tmp_path)
    assert console_errors(browser) == []


def test_a_replay_file_becomes_a_viewer_page(browser, tmp_path, capsys):
    out = tmp_path / "replay.html"
    replay = ROOT / "tests" / "replays" / "code_of_joker-4-actions.replay.json"
    main(["--root", str(ROOT), "replay", str(replay), "--html", str(out), "--no-build"])
    log = capsys.readouterr().out.splitlines()
    steps = _steps(out)
    assert len(steps) == len(json.loads(replay.read_text(encoding="utf-8"))["choices"]) + 1
    assert [line for step in steps for line in step["log"]] == [line for line in log if line.startswith("setup")]
    browser.get(out.as_uri())
    assert console_errors(browser) == []
    assert _key(browser, Keys.END)["counter"] == f"step {len(steps)} of {len(steps)}"


def test_log_text_that_looks_like_markup_stays_text(browser, tmp_path, capsys):
    out, _log = _played(tmp_path, capsys, "joker.html", "code_of_joker", "--seed", "3")
    steps = _steps(out)
    steps[0]["log"].append(HOSTILE)
    steps[0]["panels"][0]["groups"][0]["items"].append(HOSTILE)
    assert "</script" not in steps_json(steps) and "<!--" not in steps_json(steps)
    hostile = tmp_path / "hostile.html"
    hostile.write_text(page(HOSTILE, steps), encoding="utf-8")
    browser.get(hostile.as_uri())
    assert console_errors(browser) == []
    assert browser.find_elements(By.ID, "injected") == [] and browser.execute_script("return window.pwned === undefined")
    assert browser.title == HOSTILE
    assert _now(browser)["log"].splitlines()[-1] == HOSTILE and HOSTILE in _now(browser)["panels"]


def test_the_same_game_gives_the_same_page(tmp_path, capsys):
    first, _log = _played(tmp_path, capsys, "a.html", "code_of_joker", "--seed", "5")
    second, _log = _played(tmp_path, capsys, "b.html", "code_of_joker", "--seed", "5")
    other, _log = _played(tmp_path, capsys, "c.html", "code_of_joker", "--seed", "6")
    assert first.read_bytes() == second.read_bytes() != other.read_bytes()
