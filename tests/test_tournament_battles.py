"""`cardc tournament marguerite`: automatic battles in the tournament of the card games.

Real tournaments of the sample parties (and of party files made here to exercise riders, whole targeting and
given enchantments) through main([...]) or a subprocess. The per-sword figures are checked against a count
made apart, from the logs of the same battles played again without any observer; a planted observer bug
(dropped events) must make that check fail.
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from runtime.battle.rules import Rules, load_rules
from tests.conftest import ROOT
from tools.battle import tournament as battle_tournament
from tools.battle.play import battle, read_party
from tools.cli import main
from tools.heatmap import png_size

PARTIES = ROOT / "cards" / "marguerite" / "parties"
SAMPLES = sorted(p.stem for p in PARTIES.glob("*.sw"))
# Party files for the second tournament: each enchantment-giving or -holding sword is carried by one party
# only, and nothing but a rider gives Stun, so the log tells which sword each firing belongs to.
MADE = {"stunner": "Stunner: 5/3/0/1/ 振動剣, 斬撃剣, 斬撃剣, 斬撃剣, 斬撃剣",  # Stun Giving on its first Slash
        "sweeper": "Sweeper: 5/2/0/1/ 全体剣, 盾の剣, 斬撃剣, 斬撃剣, 斬撃剣, 斬撃剣",  # printed Whole-ize
        "spreader": "Spreader: 10/1/1/1/ 拡散剣, 加熱剣, 斬撃剣, 斬撃剣, 斬撃剣"}  # Whole-ize given to Heating
RIDES = {"StunGiving": "Stun", "PoisonGiving": "Poison"}  # a rider and the state it puts (its log line)


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules("marguerite")


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The sample parties' tournament on 1 worker with every output file, and its JSON and table on 2."""
    folder = tmp_path_factory.mktemp("samples")
    files = {k: folder / f"t.{k}" for k in ("csv", "json", "png", "html")}
    base = [sys.executable, "-m", "tools", "tournament", "marguerite"]
    one = subprocess.run([*base, "--workers", "1", "--csv", str(files["csv"]), "--json", str(files["json"]),
                          "--heatmap", str(files["png"]), "--heatmap", str(files["html"])],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    two = subprocess.run([*base, "--workers", "2", "--json", str(folder / "two.json")], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return {"folder": folder, "files": files, "out": one.stdout, "err": one.stderr, "two_out": two.stdout,
            "two": folder / "two.json", "data": json.loads(files["json"].read_text(encoding="utf-8"))}


def _from_logs(rules: Rules, parties: dict[str, list]) -> dict:
    """Return the per-sword figures of every pairing's battle in both seatings, counted from the logs of the
    battles played here without an observer: carried from the set-up lines, used from the 'acts' lines,
    fired from the vanish lines, the 'acts' lines of swords with a cost or whole targeting, and the states
    riders put."""
    held: dict[str, list[int]] = {}
    used: dict[str, list[int]] = {}
    fired: Counter[str] = Counter()
    for a in parties:
        for b in parties:
            if a != b:
                log = battle(rules, parties[a], parties[b], {}).log
                result = _result(log[-1])
                sides = _count(rules, log, fired)
                for side, (carried, acted) in enumerate(sides):
                    for tally, names in ((held, carried | acted), (used, acted)):
                        for name in names:
                            tally.setdefault(name, [0, 0, 0])[1 - result[side]] += 1
    return {"held": held, "used": used, "fired": fired}


def _result(last: str) -> tuple[int, int]:
    """Return a battle's result by side from its last log line."""
    m = re.search(r"result: (a draw|party ([AB]) wins)", last)
    assert m, last
    return (0, 0) if m.group(2) is None else (1, -1) if m.group(2) == "A" else (-1, 1)


def _count(rules: Rules, log: list[str], fired: Counter[str]) -> list[tuple[set[str], set[str]]]:
    """Return per side the swords of its party and those it used, adding each sword's firings to fired."""
    sides: list[tuple[set[str], set[str]]] = [(set(), set()), (set(), set())]
    given: dict[str, set[str]] = {}  # card -> enchantments given to it (one party only carries it, see MADE)
    for line in log:
        setup = re.fullmatch(r"([AB])\d+ [^:]+: [\d/-]+/(.*)", line)
        acts = re.fullmatch(r"T\d+ ([AB])\d+ .+? acts: (.+) \((?:ap|reserve_ap) \d+→-?\d+\)", line)
        gets = re.fullmatch(r"T\d+   (.+) gets (\w+)", line)
        state = re.fullmatch(r"T\d+   [AB]\d+ .+ gets (\w+) \(\d+\)", line)
        if setup:
            sides["AB".index(setup.group(1))][0].update(w for w in setup.group(2).split(", ") if w)
        elif acts and acts.group(2) != "skip":
            card = acts.group(2)
            sides["AB".index(acts.group(1))][1].add(card)
            printed = {name for name, _ in rules.cards[card].keywords}
            fired[card] += sum(1 for e in printed | given.get(card, set())
                               if rules.enchantments[e].cost_value or rules.enchantments[e].whole)
        elif line.endswith(" vanishes"):
            fired[line.split("   ", 1)[1].removesuffix(" vanishes")] += 1
        elif state and state.group(1) in RIDES.values():
            riders = {card for card, es in given.items() for e in es if RIDES.get(e) == state.group(1)}
            assert len(riders) <= 1, riders  # the parties are made so that one sword at most rides it
            fired.update(riders)
        elif gets and gets.group(2) in rules.enchantments:
            given.setdefault(gets.group(1), set()).add(gets.group(2))
    return sides


def _differences(data: dict, counted: dict) -> list[str]:
    """Return where the tournament's per-sword figures differ from those counted from the logs."""
    found = []
    for row in data["swords"]:
        name = row["sword"]
        for key, tally in (("carried", counted["held"]), ("used", counted["used"])):
            w, d, lo = tally.get(name, [0, 0, 0])
            got = row[key]
            if (got["wins"], got["draws"], got["losses"], got["games"]) != (w, d, lo, w + d + lo):
                found.append(f"{name} {key}: {got} against {w}/{d}/{lo} from the logs")
        if row["fired"] != counted["fired"][name]:
            found.append(f"{name} fired {row['fired']} against {counted['fired'][name]} from the logs")
    return found


def _parties(rules: Rules, folder: Path, names: list[str]) -> dict[str, list]:
    return {n: read_party(rules, folder / f"{n}.sw") for n in names}


def test_the_per_sword_figures_are_those_of_the_battle_logs(samples: dict, rules: Rules) -> None:
    data = samples["data"]
    assert data["entries"] == SAMPLES and [r["sword"] for r in data["swords"]] == sorted(r["sword"] for r in data["swords"])
    counted = _from_logs(rules, _parties(rules, PARTIES, SAMPLES))
    assert _differences(data, counted) == []
    assert sorted(counted["held"]) == [r["sword"] for r in data["swords"]]  # every sword of the parties, no other
    assert sum(counted["fired"].values()) > 0 and any(r["used"]["games"] for r in data["swords"])


def test_riders_whole_targeting_and_given_enchantments_are_counted(tmp_path: Path, rules: Rules,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    for name, line in MADE.items():
        (tmp_path / f"{name}.sw").write_text(line + "\n", encoding="utf-8")
    out = tmp_path / "made.json"
    assert main(["--root", str(ROOT), "tournament", "marguerite", str(tmp_path), "--workers", "1", "--json",
                 str(out)]) == 0
    capsys.readouterr()
    data = json.loads(out.read_text(encoding="utf-8"))
    counted = _from_logs(rules, _parties(rules, tmp_path, sorted(MADE)))
    assert _differences(data, counted) == []
    fired = {r["sword"]: r["fired"] for r in data["swords"]}
    # a rider (Stun Giving on Slash), a printed whole (Sweeping), a given whole (Heating), vanishes (Limited)
    assert min(fired["Slash Sword"], fired["Sweeping Sword"], fired["Heating Sword"], fired["Vibration Sword"]) > 0
    assert fired["Shield Sword"] == 0


@pytest.mark.parametrize("dropped", ["acts", "enchantment"])
def test_an_observer_that_drops_events_fails_the_log_check(dropped: str, tmp_path: Path, rules: Rules,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    watch = battle_tournament.SwordObserver.watch
    seen = Counter[str]()

    def planted(self, s, what, who, sword, name):  # every third event of one kind is lost
        seen[what] += 1
        if what != dropped or seen[what] % 3:
            watch(self, s, what, who, sword, name)

    monkeypatch.setattr(battle_tournament.SwordObserver, "watch", planted)
    out = tmp_path / "t.json"
    assert main(["--root", str(ROOT), "tournament", "marguerite", "--workers", "1", "--json", str(out)]) == 0
    capsys.readouterr()
    data = json.loads(out.read_text(encoding="utf-8"))
    assert _differences(data, _from_logs(rules, _parties(rules, PARTIES, SAMPLES)))


def test_one_and_two_workers_give_the_same_bytes(samples: dict) -> None:
    assert samples["two"].read_bytes() == samples["files"]["json"].read_bytes()
    assert samples["two_out"] == samples["out"] and samples["err"] == ""


def test_the_table_json_and_csv_agree(samples: dict) -> None:
    data, out = samples["data"], samples["out"]
    n = len(SAMPLES)
    assert data["games_per_pairing"] == 1 and "seed" not in data and "agent" not in data
    assert data["length"]["games"] == n * (n - 1) and len(data["matchups"]) == n * (n - 1)
    assert all(r["games"] == 2 * (n - 1) for r in data["standings"])
    assert (f"{n * (n - 1)} battles; side A won {data['first_seat']['win_rate']:.1%}; "
            f"{data['length']['average_turns']:.1f} turns a battle on average") in out
    assert "per sword (battles a side carried it, or used it, and that side's win rate then):" in out
    for row in data["swords"]:
        line = next(x for x in out.splitlines() if x.startswith(row["sword"] + " "))
        assert line.split()[-5:] == [str(row["carried"]["games"]), f"{row['carried']['win_rate']:.1%}",
                                     str(row["used"]["games"]), f"{row['used']['win_rate']:.1%}", str(row["fired"])]
    rows = list(csv.DictReader(samples["files"]["csv"].open(encoding="utf-8")))
    assert len(rows) == n + n * (n - 1) + 2 + 2 * len(data["swords"])
    by = {(r["table"], r["name"]): r for r in rows}
    for row in data["swords"]:
        assert int(by["sword_carried", row["sword"]]["games"]) == row["carried"]["games"]
        assert int(by["sword_used", row["sword"]]["wins"]) == row["used"]["wins"]
        assert int(by["sword_used", row["sword"]]["value"]) == row["fired"]


def test_the_heat_maps_are_written(samples: dict) -> None:
    files = samples["files"]
    assert Image.open(files["png"]).size == png_size(len(SAMPLES))
    page = files["html"].read_text(encoding="utf-8")
    assert page.count('<td class="cell"') == len(SAMPLES) * (len(SAMPLES) - 1)
    assert f"1 battle a pairing and seating; side A won {samples['data']['first_seat']['win_rate']:.1%}." in page
    assert sorted(p.name for p in samples["folder"].iterdir()) == ["t.csv", "t.html", "t.json", "t.png", "two.json"]


def test_entries_are_names_files_or_folders(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "copy.sw").write_text((PARTIES / "twins.sw").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["--root", str(ROOT), "tournament", "marguerite", "venom", str(PARTIES / "mirror.sw"),
                 str(tmp_path), "--workers", "1", "--games", "1"]) == 0
    table = capsys.readouterr().out
    assert sorted(line.split()[0] for line in table.splitlines()[1:4]) == ["copy", "mirror", "venom"]
    assert "6 battles; side A won" in table


def _err(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--root", str(ROOT), "tournament", "marguerite", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


DETERMINISTIC = "error: marguerite's battles are deterministic (nothing in them is random, nobody decides): "
ERRORS = [
    (["twins", "venum"], "error: no party 'venum' in cards/marguerite/ (there: " + ", ".join(SAMPLES)
     + "); did you mean 'venom'?"),
    (["--games", "3"], DETERMINISTIC + "a pairing plays one battle in each seating, and --games 3 would play that "
                                       "same battle again; leave --games out (or give 1)"),
    (["--seed", "2"], DETERMINISTIC + "--seed changes nothing in them; leave it out"),
    (["--agent", "greedy"], DETERMINISTIC + "--agent changes nothing in them; leave it out"),
    (["--option", "crisis=half"], "error: option 'crisis' is one of exact, rounded_up, not 'half'"),
    (["--rules", "v2"], "error: ruleset 'marguerite' has no option 'version'"),
    (["twins"], "error: a tournament needs 2 or more entries of different names; found twins"),
    (["twins", str(PARTIES / "twins.sw")], "error: a tournament needs 2 or more entries of different names; found "
                                           "twins, twins"),
    (["--address", "127.0.0.1:1"], "error: --address is the Ray cluster of --backend ray"),
]


@pytest.mark.parametrize(("args", "message"), ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_bad_arguments_are_one_line_with_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                                message: str) -> None:
    assert _err(capsys, *args, "--workers", "1") == (2, "", message + "\n")


def test_the_docs_show_what_the_tournament_prints(samples: dict) -> None:
    doc = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Marguerite: automatic battles"):]
    shown = re.search(r"`(cardc tournament marguerite)` \(.*?prints:\n\n```text\n(.*?)```", section, flags=re.S)
    assert shown and shown.group(2) == samples["out"]  # the same command: every sample party, any worker count
