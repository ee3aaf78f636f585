"""The files `cardc tournament` writes besides its table: --csv, --json and --heatmap (PNG or HTML).

Each is written whole or not at all (a temporary file beside it, then renamed), and only the files named
are written. The JSON holds every figure; the CSV the same figures as rows of one table; the heat maps the
matchup matrix, each cell the row's win rate against the column (both seats).
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path

from tools.heatmap import heatmap_html, heatmap_png
from tools.tournament_items import words_of

FORMATS = {"csv": (".csv",), "json": (".json",), "heatmap": (".png", ".html")}
CSV_COLUMNS = ("table", "name", "against", "games", "wins", "draws", "losses", "win_rate", "low", "high",
               "points", "value")


def output_problem(option: str, path: Path) -> str:
    """Return why path cannot be the file of --option ('' when it can be written)."""
    if path.is_dir():
        return f"--{option} {path} is a folder; give the name of a file to write"
    if not path.parent.is_dir():
        return f"--{option} {path}: the folder {path.parent} does not exist"
    suffixes = FORMATS[option]
    if path.suffix.lower() not in suffixes:
        return f"--{option} {path}: the file name must end in {' or '.join(suffixes)}"
    return ""


def kind_of(option: str, path: Path) -> str:
    """Return the format of an output file: csv, json, png or html."""
    return path.suffix.lower().lstrip(".") if option == "heatmap" else option


def write_outputs(outputs: tuple[tuple[str, Path], ...], results: dict) -> None:
    """Write each (format, file) asked for from the tournament's results."""
    render = {"csv": lambda: to_csv(results).encode(), "json": lambda: to_json(results).encode(),
              "html": lambda: heatmap_html(results).encode(), "png": lambda: heatmap_png(results)}
    for kind, path in outputs:
        write_atomic(path, render[kind]())


def write_atomic(path: Path, data: bytes) -> None:
    """Write data to path whole: into a temporary file in the same folder, then renamed over path."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def to_json(results: dict) -> str:
    """Return the results as JSON (keys in a fixed order, no timestamps: equal tournaments, equal bytes)."""
    return json.dumps(results, indent=2, ensure_ascii=False) + "\n"


def to_csv(results: dict) -> str:
    """Return the results as one CSV table: a row per standing, matchup, the first seat, the length, and
    two per card (drawn, played) or per sword (carried, used); value: its abilities fired."""
    text = io.StringIO()
    out = csv.DictWriter(text, CSV_COLUMNS, lineterminator="\n")
    out.writeheader()
    for row in results["standings"]:
        out.writerow(_record("standing", row["entry"], "", row, points=row["points"]))
    for row in results["matchups"]:
        out.writerow(_record("matchup", row["entry"], row["against"], row))
    out.writerow(_record("first_seat", "first seat", "", results["first_seat"]))
    length = results["length"]
    out.writerow({"table": "length", "name": "turns", "games": length["games"], "value": length["average_turns"]})
    words = words_of(results)
    for c in results[words.items]:
        for what in (words.held, words.acted):
            out.writerow(_record(f"{words.item}_{what}", c[words.item], "", c[what], value=c["fired"]))
    return text.getvalue()


def _record(table: str, name: str, against: str, row: dict, points: int | str = "", value: object = "") -> dict:
    """Return a CSV row of a record (games, wins, draws, losses, win rate and interval)."""
    keep = ("games", "wins", "draws", "losses", "win_rate", "low", "high")
    return {"table": table, "name": name, "against": against, **{k: row[k] for k in keep}, "points": points,
            "value": value}
