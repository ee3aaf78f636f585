"""Stage 1, the Transformer's part for the line-based files of grammar/sheets.lark (decks, party files)."""

from __future__ import annotations

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.ast_common import _loc, _name, _tloc


class SheetParts:
    """Callbacks for deck files and party files."""

    def deck_file(self, meta, c):
        return sn.DeckFile(_loc(meta), "", tuple(c))

    def deck_entry(self, meta, c):
        count = sn.Word(_tloc(c[0]), str(c[0])) if len(c) == 2 else None
        return sn.DeckEntry(_loc(meta), count, _name(c[-1]))

    def party_file(self, meta, c):
        return sn.PartyFile(_loc(meta), "", tuple(c))

    def swordsman(self, meta, c):
        # the fields follow the colon and the first three slashes; the swords follow the fourth slash
        marks = [i for i, tok in enumerate(c) if tok.type in ("COLON", "SLASH")]
        stats = tuple(_piece(c, i) for i in marks[:4])
        return sn.SwordsmanLine(_loc(meta), _name(c[0]), stats, _swords(c[marks[4]:]))


def _piece(c: list, at: int) -> sn.Word:
    """Return the field after the separator at `at`: its token, or '' placed just after the separator."""
    follows = c[at + 1] if at + 1 < len(c) else None
    if follows is not None and follows.type in ("FIELD", "SWORD"):
        return sn.Word(_tloc(follows), str(follows))
    return sn.Word(n.Loc(c[at].end_line or 0, c[at].end_column or 0), "")


def _swords(c: list) -> tuple[sn.Word, ...]:
    """Return the swords after the fourth slash (c[0]), '' for an empty piece between separators; none at all
    when nothing follows the slash."""
    if len(c) == 1:
        return ()
    return tuple(_piece(c, i) for i, tok in enumerate(c) if tok.type in ("SLASH", "SWORD_SEP"))
