"""Heat maps of a tournament's matchup matrix: a PNG (matplotlib, Agg backend) and a self-contained HTML table.

Each cell is the row's win rate against the column over both seats: red below one half, white at one half,
blue above. Both pictures colour a cell alike (cell_color), and the HTML escapes every deck name.
"""

from __future__ import annotations

import html
import importlib.util
import io

from tools.tournament_items import words_of

CELL_PIXELS = 90  # the PNG: each cell's side, in pixels at 100 dots an inch
MARGIN = (280, 200)  # the PNG: room for the names and the title, in pixels (width, height)
CORNER = (230, 40)  # the PNG: where the matrix starts, from the bottom left, in pixels


def png_problem() -> str:
    """Return why a PNG heat map cannot be drawn here ('' when matplotlib is installed)."""
    if importlib.util.find_spec("matplotlib") is None:
        return "a PNG heat map needs matplotlib: pip install 'cardc[balance]' (or give --heatmap FILE.html)"
    return ""


def png_size(entries: int) -> tuple[int, int]:
    """Return the width and height in pixels of the PNG heat map of that many entries."""
    return MARGIN[0] + CELL_PIXELS * entries, MARGIN[1] + CELL_PIXELS * entries


def cell_color(rate: float) -> tuple[int, int, int]:
    """Return the colour of a win rate: red (0) through white (one half) to blue (1)."""
    if rate < 0.5:
        fade = rate * 2
        return round(214 + (255 - 214) * fade), round(48 + (255 - 48) * fade), round(39 + (255 - 39) * fade)
    fade = (1 - rate) * 2
    return round(33 + (255 - 33) * fade), round(102 + (255 - 102) * fade), 172 + round((255 - 172) * fade)


def matrix(results: dict) -> tuple[list[str], dict[tuple[str, str], dict]]:
    """Return the entries, in the order of the table, and each matchup's record by (row, column)."""
    return results["entries"], {(m["entry"], m["against"]): m for m in results["matchups"]}


def heatmap_png(results: dict) -> bytes:
    """Return the PNG of the heat map (the same bytes for the same results: no timestamp, no version)."""
    import matplotlib

    matplotlib.use("Agg")  # no display: the picture is drawn into memory
    from matplotlib.figure import Figure

    names, cells = matrix(results)
    grey = (0.85, 0.85, 0.85)
    image = [[grey if a == b else tuple(v / 255 for v in cell_color(cells[a, b]["win_rate"])) for b in names]
             for a in names]
    width, height = png_size(len(names))
    figure = Figure(figsize=(width / 100, height / 100), dpi=100)
    side = CELL_PIXELS * len(names)
    axes = figure.add_axes((CORNER[0] / width, CORNER[1] / height, side / width, side / height))
    axes.imshow(image, aspect="auto")
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            axes.text(j, i, "-" if a == b else f"{cells[a, b]['win_rate']:.0%}", ha="center", va="center", fontsize=9)
    axes.set_xticks(range(len(names)), [n[:18] for n in names], rotation=45, ha="left", fontsize=8)
    axes.set_yticks(range(len(names)), [n[:18] for n in names], fontsize=8)
    axes.xaxis.tick_top()
    figure.suptitle(f"{results['ruleset']}: win rate of the row against the column", fontsize=10, y=0.99)
    out = io.BytesIO()
    figure.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


def heatmap_html(results: dict) -> str:
    """Return a self-contained page of the heat map: a table with a coloured cell per matchup."""
    names, cells = matrix(results)
    title = html.escape(f"{results['ruleset']} tournament: win rate of the row against the column")
    head = "".join(f'<th scope="col">{html.escape(n)}</th>' for n in names)
    rows = [f'<tr><th scope="row">{html.escape(a)}</th>' + "".join(_cell(a, b, cells) for b in names) + "</tr>"
            for a in names]
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', '<head><meta charset="utf-8">', f"<title>{title}</title>",
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}th,td{border:1px solid #999;"
        "padding:6px 10px;text-align:center}td.self{background:#d9d9d9}</style>", "</head>", "<body>",
        f"<h1>{title}</h1>",
        f"<p>{html.escape(_played(results))}</p>",
        f'<table class="heatmap"><thead><tr><th></th>{head}</tr></thead>', "<tbody>", *rows, "</tbody></table>",
        "</body>", "</html>", ""])


def _played(results: dict) -> str:
    """Return what the page says of the games: how many a pairing, the seed, the first seat's win rate."""
    words, n = words_of(results), results["games_per_pairing"]
    seed = f", seed {results['seed']}" if "seed" in results else ""  # automatic battles take none
    return (f"{n} {words.game}{'s' * (n != 1)} a pairing and seating{seed}; {words.first} won "
            f"{results['first_seat']['win_rate']:.1%}.")


def _cell(a: str, b: str, cells: dict[tuple[str, str], dict]) -> str:
    """Return the table cell of row a against column b."""
    if a == b:
        return '<td class="self">-</td>'
    m = cells[a, b]
    color = "#{:02x}{:02x}{:02x}".format(*cell_color(m["win_rate"]))
    tip = html.escape(f"{a} against {b}: {m['wins']} won, {m['draws']} drawn, {m['losses']} lost", quote=True)
    return f'<td class="cell" style="background:{color}" title="{tip}">{m["win_rate"]:.0%}</td>'
