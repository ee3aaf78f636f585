"""`cardc tournament` balance outputs: per-card figures, --csv, --json, the heat maps (PNG, HTML), progress bars.

Real tournaments of the sample decks, run through main([...]) or a real subprocess (a pipe or a pty as stderr).
"""

from __future__ import annotations

import csv
import html
import json
import os
import pty
import re
import shutil
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from runtime import engine
from runtime.agents import RandomAgent
from runtime.load import load_game
from tests.conftest import ROOT
from tools.cli import main
from tools.heatmap import CELL_PIXELS, CORNER, cell_color, png_size
from tools.play import read_entries
from tools.tournament import schedule

DECKS = ("aggro", "embers", "tempo")
SMALL = ("tournament", "simple_duel", *DECKS, "--games", "2", "--seed", "3")
BAR = "━"  # rich's bar


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--root", str(ROOT), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A small simple_duel tournament on 1 worker, with every output file, and its JSON on 2 workers."""
    folder = tmp_path_factory.mktemp("small")
    names = {k: folder / f"t.{k}" for k in ("csv", "json", "png", "html")}
    one = subprocess.run([sys.executable, "-m", "tools", *SMALL, "--workers", "1", "--csv", str(names["csv"]),
                          "--json", str(names["json"]), "--heatmap", str(names["png"]), "--heatmap",
                          str(names["html"])], cwd=ROOT, capture_output=True, text=True, check=True)
    two = folder / "two.json"
    again = subprocess.run([sys.executable, "-m", "tools", *SMALL, "--workers", "2", "--json", str(two)],
                           cwd=ROOT, capture_output=True, text=True, check=True)
    return {"folder": folder, "out": one.stdout, "err": one.stderr, "files": names, "two": two,
            "two_out": again.stdout, "data": json.loads(names["json"].read_text(encoding="utf-8"))}


def _sections(out: str) -> tuple[dict[str, list[str]], dict[tuple[str, str], int], str, dict[str, list[str]]]:
    """Return the printed table's standings rows, matrix, summary line and per-card rows."""
    standings_text, matrix_text = out.split("\nwins of the row against the column:\n")
    standings = {line.split()[0]: line.split() for line in standings_text.strip().splitlines()[1:]}
    matrix_part, rest = matrix_text.split("\n\n", 1)
    columns = list(DECKS)
    beats = {}
    for line in matrix_part.splitlines()[1:]:
        row, *cells = line.split()
        beats.update({(row, b): int(x) for b, x in zip(columns, cells, strict=True) if x != "-"})
    summary, cards_text = rest.split("\n\n", 1)
    cards = {}
    for line in cards_text.strip().splitlines()[2:]:
        m = re.fullmatch(r"(.+?)\s+(\d+)\s+([\d.]+)%\s+(\d+)\s+([\d.]+)%\s+(\d+)", line)
        assert m, line
        cards[m.group(1)] = list(m.groups()[1:])
    return standings, beats, summary, cards


def test_csv_and_json_agree_with_the_printed_table(small: dict) -> None:
    data = small["data"]
    standings, beats, summary, cards = _sections(small["out"])
    assert [r["entry"] for r in data["standings"]] == list(standings)  # the same order
    for row in data["standings"]:
        w, d, lo, rate, interval, points = standings[row["entry"]][1:]
        assert (int(w), int(d), int(lo), int(points)) == (row["wins"], row["draws"], row["losses"], row["points"])
        assert rate == f"{row['win_rate']:.1%}" and interval == f"{row['low']:.1%}-{row['high']:.1%}"
    assert {(m["entry"], m["against"]): m["wins"] for m in data["matchups"]} == beats
    assert summary == (f"{data['length']['games']} games; the first seat won {data['first_seat']['win_rate']:.1%}; "
                       f"{data['length']['average_turns']:.1f} turns a game on average")
    assert {c["card"]: [str(c["drawn"]["games"]), f"{c['drawn']['win_rate'] * 100:.1f}", str(c["played"]["games"]),
                        f"{c['played']['win_rate'] * 100:.1f}", str(c["fired"])] for c in data["cards"]} == cards
    rows = list(csv.DictReader(small["files"]["csv"].open(encoding="utf-8")))
    by = {(r["table"], r["name"], r["against"]): r for r in rows}
    for row in data["standings"]:
        got = by["standing", row["entry"], ""]
        assert (int(got["wins"]), int(got["points"]), float(got["low"])) == (row["wins"], row["points"], row["low"])
    assert {(a, b): int(r["wins"]) for (t, a, b), r in by.items() if t == "matchup"} == beats
    assert float(by["length", "turns", ""]["value"]) == data["length"]["average_turns"]
    assert int(by["first_seat", "first seat", ""]["wins"]) == data["first_seat"]["wins"]
    for c in data["cards"]:
        assert int(by["card_drawn", c["card"], ""]["games"]) == c["drawn"]["games"]
        assert int(by["card_played", c["card"], ""]["value"]) == c["fired"]
    assert len(rows) == 3 + 6 + 2 + 2 * len(data["cards"])


def test_the_json_is_the_same_bytes_on_one_worker_and_on_two(small: dict) -> None:
    assert small["files"]["json"].read_bytes() == small["two"].read_bytes()
    assert small["out"] == small["two_out"]
    assert small["data"]["entries"] == list(DECKS) and small["data"]["games_per_pairing"] == 2


def test_only_the_named_files_are_written_whole(small: dict) -> None:
    assert sorted(p.name for p in small["folder"].iterdir()) == ["t.csv", "t.html", "t.json", "t.png", "two.json"]
    assert small["err"] == ""  # stderr a pipe: no progress bar, no message


def _own_triggers(names: list[str], games: int, seed: int) -> Counter[str]:
    """Return how often each card's own (or its keywords') triggered abilities triggered, read from the logs
    of the tournament's games replayed here."""
    game = load_game("simple_duel")
    lists = dict(zip(names, read_entries(game, [ROOT / "cards/simple_duel/decks" / f"{n}.deck" for n in names]),
                     strict=True))
    where: dict[str, set[str]] = {}
    for name, card in game.cards.items():
        keys = [["card", name, i] for i in range(len(card.abilities))]
        keys += [["keyword", k, i] for k, _ in card.keywords for i in range(len(game.keywords[k].abilities))]
        where[name] = {game.ability(key).where for key in keys}
    counted: Counter[str] = Counter()
    for one in schedule(names, games, seed):
        s = game.new_game([lists[one.first], lists[one.second]], one.seed)
        agents = [RandomAgent(one.seed * 2 + p) for p in (0, 1)]
        while not engine.is_terminal(s):
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
        for line in s.log:
            m = re.search(r": (.+?)#\d+ triggers \((.+)\)$", line)
            if m and m.group(2) in where.get(m.group(1), ()):
                counted[m.group(1)] += 1
    return counted


def test_per_card_figures_are_consistent_with_the_games(small: dict) -> None:
    data = small["data"]
    seat_games = {row["entry"]: row["games"] for row in data["standings"]}
    decks = {n: (ROOT / "cards/simple_duel/decks" / f"{n}.deck").read_text(encoding="utf-8") for n in DECKS}
    for c in data["cards"]:
        drawn, played = c["drawn"], c["played"]
        assert drawn["games"] >= played["games"] >= 0
        for rec in (drawn, played):
            assert rec["wins"] + rec["draws"] + rec["losses"] == rec["games"]
        assert drawn["wins"] >= played["wins"] or drawn["games"] > played["games"]
        assert drawn["games"] <= sum(seat_games[n] for n, text in decks.items() if c["card"] in text)
    triggered = _own_triggers(list(DECKS), 2, 3)
    fired = {c["card"]: c["fired"] for c in data["cards"]}
    assert triggered and all(fired[name] >= n for name, n in triggered.items())
    assert fired["Sparkjaw Imp"] == triggered["Sparkjaw Imp"] > 0  # only triggered abilities: each one fired
    assert sum(c["played"]["games"] for c in data["cards"]) > 0


def test_the_png_heat_map_is_a_picture_of_the_matrix(small: dict) -> None:
    path = small["files"]["png"]
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(path).convert("RGB")
    assert image.size == png_size(3) and png_size(4)[0] == png_size(3)[0] + CELL_PIXELS
    rates = {(m["entry"], m["against"]): m["win_rate"] for m in small["data"]["matchups"]}
    top = image.size[1] - CORNER[1] - 3 * CELL_PIXELS
    for i, a in enumerate(DECKS):
        for j, b in enumerate(DECKS):
            x, y = CORNER[0] + j * CELL_PIXELS + CELL_PIXELS // 4, top + i * CELL_PIXELS + CELL_PIXELS // 4
            expected = (217, 217, 217) if a == b else cell_color(rates[a, b])
            assert all(abs(p - e) <= 2 for p, e in zip(image.getpixel((x, y)), expected, strict=True)), (a, b)


def test_the_colours_run_from_red_through_white_to_blue() -> None:
    rates = [i / 100 for i in range(101)]
    colours = [cell_color(r) for r in rates]
    assert colours[0] == (214, 48, 39) and colours[50] == (255, 255, 255) and colours[100] == (33, 102, 172)
    whiteness = [sum(c) for c in colours]  # each side grows paler towards one half, in every channel
    assert all(a <= b for a, b in zip(whiteness[:50], whiteness[1:51], strict=True)), "the red side does not fade to white"
    assert all(a >= b for a, b in zip(whiteness[50:100], whiteness[51:], strict=True)), "the blue side does not fade from white"
    assert all(min(c) >= 240 for c in colours[47:54])  # near one half a cell is nearly white, not tinted


class _Cells(HTMLParser):
    """The header names and the cells' classes of a heat-map page."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.headers: list[str] = []
        self._in_th = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "td":
            self.cells.append(dict(attrs)["class"])
        self._in_th = tag == "th"

    def handle_data(self, data: str) -> None:
        if self._in_th:
            self.headers.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_th = False


def test_the_html_heat_map_escapes_every_name_and_has_a_cell_per_pairing(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    odd = ["<b>aggro&co", 'embers"x']
    for name, deck in zip(odd, ("aggro", "embers"), strict=True):
        shutil.copy(ROOT / "cards/simple_duel/decks" / f"{deck}.deck", tmp_path / f"{name}.deck")
    page = tmp_path / "map.html"
    code, out, err = _cli(capsys, "tournament", "simple_duel", *(str(tmp_path / f"{n}.deck") for n in odd), "tempo",
                          "--games", "1", "--workers", "1", "--heatmap", str(page))
    assert (code, err) == (0, "")
    text = page.read_text(encoding="utf-8")
    assert "<b>" not in text and html.escape("<b>aggro&co") in text and "embers&quot;x" in text
    parsed = _Cells()
    parsed.feed(text)
    assert parsed.cells.count("cell") == 6 and parsed.cells.count("self") == 3
    assert sorted(odd + ["tempo"]) == sorted(set(parsed.headers))


@pytest.mark.parametrize(("option", "name", "message"), [
    ("--json", ".", "is a folder; give the name of a file to write"),
    ("--csv", "nowhere/t.csv", "the folder"),
    ("--heatmap", "t.svg", "the file name must end in .png or .html"),
    ("--json", "t.csv", "the file name must end in .json"),
])
def test_a_bad_output_path_is_refused_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      option: str, name: str, message: str) -> None:
    code, out, err = _cli(capsys, *SMALL, option, str(tmp_path / name))
    assert (code, out) == (2, "") and err.startswith("error: ") and message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_the_same_file_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(capsys, *SMALL, "--json", str(tmp_path / "a.json"), "--json", str(tmp_path / "a.json"))
    assert code == 2 and "named twice" in err


@pytest.mark.parametrize(("ruleset", "entries"), [
    ("simple_duel", ["control", "mixed"]),
    ("code_of_joker", ["--rules", "v1"]),
    ("code_of_joker", ["v2_grove_and_dawn", "v2_sunfire_rush", "--rules", "v2"]),
    ("successor", ["ash_keepers", "ember_vanguard"]),
    ("war_vortex_night", ["dawnbreakers", "stormtide"]),
])
def test_every_card_ruleset_gives_every_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str,
                                               entries: list[str]) -> None:
    out = tmp_path / "t.json"
    code, text, err = _cli(capsys, "tournament", ruleset, *entries, "--games", "1", "--workers", "1", "--json",
                           str(out))
    assert (code, err) == (0, "")
    data = json.loads(out.read_text(encoding="utf-8"))
    n = len(data["entries"])
    assert n >= 2 and len(data["matchups"]) == n * (n - 1) and data["length"]["games"] == n * (n - 1)
    assert sum(r["games"] for r in data["standings"]) == 2 * data["length"]["games"]
    assert any(c["played"]["games"] for c in data["cards"]) and any(c["fired"] for c in data["cards"])
    assert "per card" in text


def _in_pty(*args: str) -> tuple[str, str]:
    """Return the stdout (a pipe) and the stderr (a terminal) of `cardc ARGS`."""
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "tools", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=follower, env=env)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal's other end closed: the command ended
            break
        if not chunk:
            break
        seen += chunk
    stdout = proc.communicate()[0]
    os.close(leader)
    assert proc.returncode == 0
    return stdout.decode(), seen.decode(errors="replace")


def test_a_terminal_shows_rich_progress_bars_and_a_pipe_nothing_but_the_result() -> None:
    args = ("tournament", "simple_duel", "aggro", "embers", "--games", "1", "--workers", "1")
    out, terminal = _in_pty(*args)
    assert BAR in terminal and "simple_duel tournament" in terminal and "2/2" in terminal
    assert BAR not in out and out.startswith("entry ")
    piped = subprocess.run([sys.executable, "-m", "tools", *args], cwd=ROOT, capture_output=True, text=True)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, out, "")
    fuzz = ("fuzz", "cards/simple_duel", "--games", "3", "--seed", "1")
    _, terminal = _in_pty(*fuzz)
    assert BAR in terminal and "3/3" in terminal
    piped = subprocess.run([sys.executable, "-m", "tools", *fuzz], cwd=ROOT, capture_output=True, text=True)
    assert piped.returncode == 0 and "no violation in 3 games" in piped.stdout
    assert BAR not in piped.stderr and "\r" not in piped.stderr and "[#" not in piped.stderr
    assert piped.stderr.count("\n") == 1 and piped.stderr.startswith("fuzzing ")  # what it fuzzes, nothing more


def test_automatic_battles_show_their_bar_on_a_terminal_only() -> None:
    args = ("tournament", "marguerite", "twins", "venom", "bulwark", "--workers", "1")
    out, terminal = _in_pty(*args)
    assert BAR in terminal and "marguerite tournament" in terminal and "6/6" in terminal and " battles " in terminal
    piped = subprocess.run([sys.executable, "-m", "tools", *args], cwd=ROOT, capture_output=True, text=True)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, out, "")
    assert out.startswith("entry ") and "per sword" in out


def test_the_readme_shows_what_its_tournament_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Balance tournaments"):readme.index("## Tests")]
    command = re.search(r"`cardc (tournament [^`]+?) --heatmap [^`]+`", section)
    shown = re.search(r"```text\n(.*?)```", section, flags=re.S)
    assert command and shown
    printed = subprocess.run([sys.executable, "-m", "tools", *command.group(1).split()], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    assert printed.startswith(shown.group(1) + "\n")  # the table, the matrix and the summary, then per card
