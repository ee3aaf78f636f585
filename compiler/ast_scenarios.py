"""Stage 1, the Transformer's part for scenario and battle-scenario files (grammar/sheets.lark).

Card lists are built by the deck part's `deck_entry` (compiler/ast_sheets.py): the same entries as a deck
file's lines. Numbers, players and lines of text stay Words as written; the checks read them.
"""

from __future__ import annotations

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.ast_common import _loc, _name, _tloc


def _word(tok) -> sn.Word:
    return sn.Word(_tloc(tok), str(tok))


def _text(c: list, i: int = 0) -> str:
    """Return the text token at c[i] as a str, or '' when the line has none there."""
    return str(c[i]) if len(c) > i else ""


class ScenarioParts:
    """Callbacks for scenario files (header lines, sections, set-up and expectation lines)."""

    def scenario_file(self, meta, c):
        return sn.ScenarioFile(_loc(meta), "", tuple(c))

    def _words(self, meta, c):
        return " ".join(str(t) for t in c)

    sc_log_kind = sc_result_word = sc_side = b_side = b_used = b_run_what = _words

    def sc_title(self, meta, c):
        return sn.ScTitle(_loc(meta), _word(c[0]), _text(c, 1))

    def sc_ruleset(self, meta, c):
        return sn.ScRuleset(_loc(meta), _name(c[0]))

    def sc_players(self, meta, c):
        return sn.ScPlayers(_loc(meta), _word(c[0]))

    def sc_rolls(self, meta, c):
        return sn.ScRolls(_loc(meta), tuple(_word(t) for t in c))

    def sc_seed(self, meta, c):
        return sn.ScSeed(_loc(meta), _word(c[0]))

    def sc_stop_end(self, meta, c):
        return sn.ScStop(_loc(meta), "end")

    def sc_stop_after(self, meta, c):
        return sn.ScStop(_loc(meta), "after turn", None, _word(c[0]))

    def sc_stop_before(self, meta, c):
        return sn.ScStop(_loc(meta), "before phase", _name(c[0]), _word(c[1]))

    def sc_stop_choice(self, meta, c):
        return sn.ScStop(_loc(meta), "at the next choice")

    def sc_option(self, meta, c):
        return sn.ScOption(_loc(meta), _name(c[0]), _name(c[1]))

    def _section(self, name: str, meta, c) -> sn.ScSection:
        lines = tuple(_word(x) if isinstance(x, str) else x for x in c)  # choices, transcript: lines of text
        return sn.ScSection(_loc(meta), name, lines)

    def sc_setup(self, meta, c):
        return self._section("setup", meta, c)

    def sc_choices(self, meta, c):
        return self._section("choices", meta, c)

    def sc_expect(self, meta, c):
        return self._section("expect", meta, c)

    def sc_transcript(self, meta, c):
        return self._section("transcript", meta, c)

    def sc_card_block(self, meta, c):  # the card text itself is parsed apart (compiler/parser.py)
        return sn.ScCardBlock(_loc(meta), n.File(_loc(meta), "", ()))

    def sc_new_game(self, meta, c):
        return sn.ScNewGame(_loc(meta), _word(c[0]) if c else None)

    def sc_turn_start(self, meta, c):
        return sn.ScTurnStart(_loc(meta), _word(c[0]), _word(c[1]), _name(c[2]))

    def sc_word(self, meta, c):
        return _name(c[0])

    def sc_deck_list(self, meta, c):
        return n.Name(_tloc(c[0]), "deck list")

    def sc_cards(self, meta, c):
        return sn.ScCards(_loc(meta), _word(c[0]), c[1], _entries(c[2:]))

    def sc_count(self, meta, c):
        card = _name(c[2]) if len(c) == 4 else None
        return sn.ScCount(_loc(meta), _word(c[0]), c[1], card, _word(c[-1]))

    def sc_amount(self, meta, c):
        return sn.ScAmount(_loc(meta), _word(c[0]), c[1], _word(c[2]))

    def sc_slot(self, meta, c):
        return sn.ScSlot(_loc(meta), _word(c[0]), c[1], _word(c[2]), c[3])

    def sc_stat(self, meta, c):
        return sn.ScStat(_loc(meta), _name(c[0]), _word(c[1]))

    def sc_printed(self, meta, c):
        return sn.ScStat(_loc(meta), _name(c[0]), _word(c[1]), printed=True)

    def sc_status(self, meta, c):
        return sn.ScStatus(_loc(meta), _name(c[0]), _word(c[1]) if len(c) == 2 else None)

    def sc_changes(self, meta, c):
        return sn.ScChanges(_loc(meta), _word(c[0]))

    def sc_face(self, meta, c):
        return sn.ScFace(_loc(meta), c[0])

    def sc_card_state(self, meta, c):
        return sn.ScCardState(_loc(meta), " ".join(str(t) for t in c))

    def sc_line(self, meta, c):
        return sn.ScLine(_loc(meta), _name(c[0]), _word(c[1]) if len(c) > 1 else None)

    def sc_holds(self, meta, c):
        return sn.ScHolds(_loc(meta), _entries(c))

    def sc_is(self, meta, c):
        return sn.ScIs(_loc(meta), _name(c[0]))

    def sc_sees(self, meta, c):
        return sn.ScSees(_loc(meta), _word(c[0]), str(c[1]), True)

    def sc_not_seen(self, meta, c):
        return sn.ScSees(_loc(meta), _word(c[0]), str(c[1]), False)

    def sc_log(self, meta, c):
        return sn.ScLog(_loc(meta), c[0], str(c[1]))

    def sc_log_order(self, meta, c):
        return sn.ScLogOrder(_loc(meta), tuple(_word(t) for t in c))

    def sc_result(self, meta, c):
        if isinstance(c[0], str) and hasattr(c[0], "type"):  # 'P1 wins'
            return sn.ScResult(_loc(meta), f"{c[0]} wins", _word(c[0]))
        return sn.ScResult(_loc(meta), c[0])

    def sc_offers(self, meta, c):
        return sn.ScOffers(_loc(meta), str(c[0]), True)

    def sc_not_offered(self, meta, c):
        return sn.ScOffers(_loc(meta), str(c[0]), False)

    def sc_error(self, meta, c):
        return sn.ScError(_loc(meta), str(c[0]))


class BattleScenarioParts:
    """Callbacks for battle-scenario files (tools/battle/scenario.py)."""

    def battle_file(self, meta, c):
        return sn.BattleFile(_loc(meta), "", tuple(c))

    def b_party(self, meta, c):
        return sn.BParty(_loc(meta), c[0], _word(c[1]))

    def b_who(self, meta, c):
        return sn.BWho(_loc(meta), str(c[0]), c[0].type == "POSITION")

    def b_value(self, meta, c):
        return sn.BValue(_loc(meta), _name(c[0]), _word(c[1]))

    def b_args(self, meta, c):
        return tuple(_word(t) for t in c)

    def b_given_turn(self, meta, c):
        return sn.BGivenTurn(_loc(meta), _word(c[0]))

    def b_given_sword(self, meta, c):
        who, index, rest = c[0], _word(c[1]), c[2:]
        if len(rest) == 1:  # used / unused
            return sn.BGivenSword(_loc(meta), who, index, rest[0])
        args = rest[1] if len(rest) == 3 else ()
        return sn.BGivenSword(_loc(meta), who, index, None, _name(rest[0]), args, _word(rest[-1]))

    def b_given_values(self, meta, c):
        return sn.BGivenValues(_loc(meta), c[0], tuple(c[1:]))

    def b_run(self, meta, c):
        return sn.BRun(_loc(meta), c[-1], _word(c[0]) if len(c) == 2 else None)

    def b_log_order(self, meta, c):
        return sn.ScLogOrder(_loc(meta), tuple(_word(t) for t in c))

    def b_result(self, meta, c):
        return sn.BResult(_loc(meta), _name(c[0]))

    def b_turn(self, meta, c):
        return sn.BTurn(_loc(meta), _word(c[0]))

    def b_party_is(self, meta, c):
        return sn.BPartyIs(_loc(meta), c[0], _text(c, 1))

    def b_swords(self, meta, c):
        return sn.BSwords(_loc(meta), c[0], _text(c, 1))

    def b_value_is(self, meta, c):
        return sn.BValueIs(_loc(meta), c[0], _name(c[1]), _word(c[2]))


def _entries(found: list) -> tuple[sn.DeckEntry, ...]:
    """Return a card list's entries; '-' alone is none."""
    entries = tuple(found)
    if len(entries) == 1 and entries[0].count is None and entries[0].name.value == "-":
        return ()
    return entries


class TeamParts:
    """Callbacks for team files (character sheets)."""

    def team_file(self, meta, c):
        title = c[0] if c and isinstance(c[0], str) else None
        return sn.TeamFile(_loc(meta), "", title, tuple(x for x in c if isinstance(x, sn.TeamCharacter)))

    def team_title(self, meta, c):
        return str(c[0])

    def team_character(self, meta, c):
        return sn.TeamCharacter(_loc(meta), _name(c[0]), _name(c[1]), tuple(c[2:]))

    def team_face(self, meta, c):
        return sn.TeamFace(_loc(meta), _word(c[0]), _name(c[1]))
