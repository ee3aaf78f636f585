"""Stage 1, the Transformer's part for replay files (grammar/sheets.lark `replay`): JSON values with places."""

from __future__ import annotations

from compiler import sheet_nodes as sn
from compiler.ast_common import _loc, _tloc


class ReplayParts:
    """Callbacks for the JSON of replay files; strings and numbers stay as written."""

    def replay(self, meta, c):
        return c[0]

    def j_object(self, meta, c):
        return sn.JObject(_loc(meta), tuple(c))

    def j_pair(self, meta, c):
        return (c[0], c[1])

    def j_array(self, meta, c):
        return sn.JArray(_loc(meta), tuple(c))

    def j_string(self, meta, c):
        return sn.JString(_tloc(c[0]), str(c[0]))

    def j_number(self, meta, c):
        return sn.JNumber(_tloc(c[0]), str(c[0]))

    def j_literal(self, meta, c):
        return sn.JLiteral(_tloc(c[0]), str(c[0]))
