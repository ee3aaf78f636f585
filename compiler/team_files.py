"""Team files (*.team, docs/teams.md): the characters of one side, each in a line of its team with its action
table by die face, read through the grammar (grammar/sheets.lark `team`) and checked against the compiled
game with every problem located, in source order: the War Vortex Night deck rules of the ruleset's
`tables hold ...` line (R-WVN-01 to R-WVN-06) and fill-from-front placement (R-WVN-17).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compiler import sheet_nodes as sn
from compiler.build import read_source
from compiler.check_scenarios import Problems
from compiler.diagnostics import CompileError
from compiler.parser import parse_team
from runtime.defs import Entry, counted_as, meets_requirement, values_of
from runtime.engine import Game

MAX_FACE = 999


def read_team(text: str, path: str, game: Game) -> list[Entry]:
    """Return the deck entries of a team file's text (a character, its line, its table), or raise
    CompileError with every problem located."""
    team, syntax = parse_team(text.removeprefix("\ufeff"), path)
    problems = syntax or check_team(team, game)
    if problems:
        raise CompileError(problems)
    rs = game.ruleset
    return [Entry(c.name.value, tuple(f.card.value for f in c.faces), rs.lines.index(c.line.value))
            for c in team.characters]


def load_team(path: Path, game: Game) -> list[Entry]:
    """Return the deck entries of a team file on disk (see read_team); the file must be UTF-8."""
    return read_team(read_source(path, str(path)), str(path), game)


def team_text(team: list[Entry], lines: tuple[str, ...], title: str = "Random") -> str:
    """Return a team's entries as the text of a team file (docs/teams.md), read back by read_team."""
    out = [f"team: {title}"]
    for e in team:
        out.append(f"character {e.name}, {lines[e.line]}")
        out += [f"    {face}: {card}" for face, card in enumerate(e.attached, 1)]
    return "\n".join(out) + "\n"


def check_team(team: sn.TeamFile, game: Game) -> list:
    """Return every problem of a team against a game whose turns go to cards and that has table rules."""
    out = Problems(team.path)
    rs = game.ruleset
    if not rs.actor_turns or rs.table_rules is None:
        out.add(team, "E209", f"ruleset '{rs.name}' has no teams: its turns go to seats, or it has no "
                              "'tables hold ...' line")
        return out.found
    if not team.characters:
        out.add(team, "E211", "the team has no character; write 'character NAME, LINE' and its table")
    for character in team.characters:
        _character(character, game, out)
    _from_the_front(team, rs.lines, out)
    return out.found


def _character(c: sn.TeamCharacter, game: Game, out: Problems) -> None:
    """Add the problems of one character: its name and line, then its table."""
    kind = game.ruleset.actor_turns[0]
    holder = game.cards.get(c.name.value)
    if out.known(c.name, "card", game.cards, "E202") and holder is not None and holder.kind != kind:
        out.add(c.name, "E211", f"'{c.name.value}' is of kind '{holder.kind}', not a {kind}")
    out.known(c.line, "line", game.ruleset.lines)
    _table(c, game, out, holder if holder is not None and holder.kind == kind else None)


def _table(c: sn.TeamCharacter, game: Game, out: Problems, holder: Any) -> None:
    """Add the problems of a character's table: faces 1 to N in order, known cards, ascending cost, and, for
    a holder of the right kind, the budget, copies and the attribute gate (R-WVN-01 to R-WVN-06)."""
    assert game.ruleset.table_rules is not None  # check_team: a ruleset with teams
    size, stat, copies = game.ruleset.table_rules
    if len(c.faces) != size:
        faces = f"{len(c.faces)} face{'s' * (len(c.faces) != 1)}"
        out.add(c, "E211", f"'{c.name.value}' has {faces}; a table holds exactly {size}")
    costs: list[int] = []
    for k, face in enumerate(c.faces, 1):
        if out.number(face.face, "a face", 1, MAX_FACE) not in (None, k):
            out.add(face.face, "E211", f"face {face.face.text} is out of order; the faces go 1 to {size}, "
                                       f"and this is the table's face {k}")
        if not out.known(face.card, "card", game.cards, "E202"):
            continue
        card = game.cards[face.card.value]
        cost = sum(card.cost.values())
        if costs and cost < costs[-1]:
            out.add(face.card, "E211", f"'{face.card.value}' costs {cost}, less than face {k - 1} ({costs[-1]}); "
                                       "the faces go up in cost")
        costs.append(cost)
        if [f.card.value for f in c.faces[:k]].count(face.card.value) == copies + 1:
            out.add(face.card, "E211", f"'{face.card.value}' is in the table more than {copies} times")
        if holder is not None:
            _gate(face, card, holder, out)
    budget = holder.stats.get(stat, 0) if holder is not None else None
    if budget is not None and sum(costs) > budget:
        out.add(c, "E211", f"the table of '{c.name.value}' costs {sum(costs)}, more than its {stat} {budget}")


def _gate(face: sn.TeamFace, card: Any, holder: Any, out: Problems) -> None:
    """Add a problem unless the holder may take the card (runtime.defs.meets_requirement)."""
    if meets_requirement(card, holder):
        return
    attr, mode, values = card.requires
    joined = f" {'or' if mode == 'any' else 'and'} ".join(values)
    shown = ", ".join(sorted(values_of(holder, attr) + counted_as(holder, attr))) or "none"
    out.add(face.card, "E211", f"'{face.card.value}' requires {attr} {joined}; its holder's {attr}: {shown}")


def _from_the_front(team: sn.TeamFile, lines: tuple[str, ...], out: Problems) -> None:
    """Add a problem at each character standing behind an empty line (R-WVN-17: fill from the front)."""
    used = {lines.index(c.line.value) for c in team.characters if c.line.value in lines}
    for c in team.characters:
        at = lines.index(c.line.value) if c.line.value in lines else 0
        empty = [lines[k] for k in range(at) if k not in used]
        if empty:
            out.add(c.line, "E212", f"'{c.name.value}' stands in the {c.line.value} line while the {empty[0]} "
                                    "line is empty; a team fills its lines from the front")
