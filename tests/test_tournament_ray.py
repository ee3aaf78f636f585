"""`cardc tournament --backend ray`: the same table, CSV and JSON as the local pool, byte for byte (card games
and Marguerite's automatic battles).

One real local Ray cluster of 2 CPUs for the module (started by ray.init, shut down after); the CLI runs
in this process (it uses the session this process has joined) and in a subprocess that joins the
cluster by its address. Without Ray, or with an address nobody answers at, the command says so in one line.
"""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import ray

from tests.conftest import ROOT
from tools.cli import main

RULESETS = {"simple_duel": ("--games", "2", "--seed", "3"), "code_of_joker": ("--games", "1", "--seed", "5"),
            "marguerite": ("twins", "venom", "mirror", "lightning")}  # automatic battles: one a seating


@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster of 2 CPUs, no dashboard; yields its address, shut down after the module."""
    context = ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                       logging_level=logging.ERROR)
    yield context.address_info["gcs_address"]
    ray.shutdown()


def _run(capsys: pytest.CaptureFixture[str], folder: Path, name: str, *args: str) -> tuple[int, str, bytes, bytes]:
    """Return a tournament's exit code, its table and its JSON and CSV files."""
    json_file, csv_file = folder / f"{name}.json", folder / f"{name}.csv"
    code = main(["--root", str(ROOT), "tournament", *args, "--json", str(json_file), "--csv", str(csv_file)])
    return code, capsys.readouterr().out, json_file.read_bytes(), csv_file.read_bytes()


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_ray_gives_the_local_bytes(cluster: str, ruleset: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    local = _run(capsys, tmp_path, "local", ruleset, *RULESETS[ruleset], "--workers", "1")
    on_ray = _run(capsys, tmp_path, "ray", ruleset, *RULESETS[ruleset], "--backend", "ray")
    assert local[0] == on_ray[0] == 0
    assert local == on_ray
    assert b'"standings"' in local[2] and local[3].startswith(b"table,name,against")


def test_ray_by_address_in_a_subprocess(cluster: str, tmp_path: Path) -> None:
    args = ("tournament", "simple_duel", *RULESETS["simple_duel"])
    outs = []
    for name, extra in (("local", ("--workers", "1")), ("ray", ("--backend", "ray", "--address", cluster))):
        run = subprocess.run([sys.executable, "-m", "tools", "--root", str(ROOT), *args, *extra, "--json",
                              str(tmp_path / f"{name}.json")], cwd=ROOT, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        outs.append((run.stdout, (tmp_path / f"{name}.json").read_bytes()))
    assert outs[0] == outs[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_address_is_one_line(tmp_path: Path) -> None:
    address = f"127.0.0.1:{_free_port()}"  # bound then closed: nobody listens there
    run = subprocess.run([sys.executable, "-m", "tools", "--root", str(ROOT), "tournament", "simple_duel",
                          "--games", "1", "--backend", "ray", "--address", address, "--json",
                          str(tmp_path / "t.json")], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr == f"error: cannot reach the Ray cluster at {address}: Connection refused\n"
    assert not (tmp_path / "t.json").exists()


def test_an_address_without_ray_backend_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--root", str(ROOT), "tournament", "simple_duel", "--games", "1", "--address", "127.0.0.1:1"])
    assert code == 2
    assert capsys.readouterr().err == "error: --address is the Ray cluster of --backend ray\n"


def test_without_ray_installed_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as when it is not installed
    monkeypatch.delitem(sys.modules, "tools.tournament_ray", raising=False)
    code = main(["--root", str(ROOT), "tournament", "simple_duel", "--games", "1", "--backend", "ray"])
    assert code == 2
    assert capsys.readouterr().err == "error: --backend ray needs Ray: pip install 'cardc[ray]'\n"
