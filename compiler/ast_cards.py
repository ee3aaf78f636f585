"""Stage 1, the Transformer's callbacks for cards, abilities, keywords, statuses and enchantments."""

from __future__ import annotations

from compiler import nodes as n
from compiler.ast_common import _ABILITY, _COND, _cond_of, _int, _loc, _name, _setting, _split, _string


class CardParts:
    """The callbacks of cards, abilities and the keywords, statuses and enchantments they use."""

    # cards
    def card(self, meta, c):
        abilities, parts = _split(c[1:], _ABILITY)
        return n.Card(_loc(meta), _string(c[0]), tuple(parts), tuple(abilities))

    def kind_decl(self, meta, c):
        return n.KindDecl(_loc(meta), _name(c[0]))

    def cost_decl(self, meta, c):
        return n.CostDecl(_loc(meta), tuple(c))

    def cost_item(self, meta, c):
        return n.CostItem(_loc(meta), _int(c[0]), _name(c[1]))

    def cost_item_negative(self, meta, c):
        return n.CostItem(_loc(meta), -_int(c[0]), _name(c[1]))

    def requires_any(self, meta, c):
        return n.RequiresDecl(_loc(meta), _name(c[0]), tuple(_name(x) for x in c[1:]), "any")

    def requires_all(self, meta, c):
        return n.RequiresDecl(_loc(meta), _name(c[0]), tuple(_name(x) for x in c[1:]), "all")

    def stats_decl(self, meta, c):
        return n.StatsDecl(_loc(meta), tuple(c))

    def stat_item(self, meta, c):
        return n.StatItem(_loc(meta), _name(c[0]), c[1], tuple(c[2:]))

    def signed_int(self, meta, c):
        return _int(c[0])

    def negative_int(self, meta, c):
        return -_int(c[0])

    def attrs_decl(self, meta, c):
        return n.AttrsDecl(_loc(meta), tuple(c))

    def attr_item(self, meta, c):
        return n.AttrItem(_loc(meta), _name(c[0]), _name(c[1]))

    def keywords_decl(self, meta, c):
        return n.KeywordsDecl(_loc(meta), tuple(c))

    def keyword_use(self, meta, c):
        return n.KeywordUse(_loc(meta), _name(c[0]), tuple(_int(x) for x in c[1:]))

    def text_decl(self, meta, c):
        return n.TextDecl(_loc(meta), _string(c[0]))

    def token_decl(self, meta, c):
        return n.TokenDecl(_loc(meta))

    def range_span(self, meta, c):
        values = tuple(_int(x) for x in c)
        return n.RangeDecl(_loc(meta), "to", values if len(values) == 2 else (0, values[0]))

    def range_set(self, meta, c):
        return n.RangeDecl(_loc(meta), "set", tuple(_int(x) for x in c))

    def slots_decl(self, meta, c):
        return n.SlotsDecl(_loc(meta), tuple(_name(t) for t in c))

    def names_decl(self, meta, c):
        return n.NamesDecl(_loc(meta), tuple(_string(t) for t in c))

    def subtarget_decl(self, meta, c):
        return n.SubtargetDecl(_loc(meta))

    def swords_decl(self, meta, c):
        return n.SwordsDecl(_loc(meta), tuple(_string(t) for t in c))

    # abilities
    def triggered(self, meta, c):
        (subject, event), cond, body = c[0], _cond_of(c), c[-1]
        return n.Triggered(_loc(meta), subject, event, cond, body)

    def timed(self, meta, c):
        (whose, phase), cond, body = c[0], _cond_of(c), c[-1]
        if phase == "end":
            return n.Timed(_loc(meta), whose, None, cond, body, at_end=True)
        return n.Timed(_loc(meta), whose, phase, cond, body)

    def turn_end_point(self, meta, c):
        return (c[0], "end")

    def static(self, meta, c):
        return n.Static(_loc(meta), c[0])

    def spell_effect(self, meta, c):
        return n.SpellEffect(_loc(meta), c[0])

    def repeated_effect(self, meta, c):
        return n.SpellEffect(_loc(meta), c[1], _int(c[0]))

    def activated(self, meta, c):
        return n.Activated(_loc(meta), "once" in c, _cond_of(c), c[-1])

    def once_per_turn(self, meta, c):
        return "once"

    def condition(self, meta, c):
        return ("condition", c[0])

    def event_pattern(self, meta, c):
        return (c[0], c[1])

    def subject_this(self, meta, c):
        return n.Subject(_loc(meta), "this", "this", None)

    def subject_holder(self, meta, c):
        return n.Subject(_loc(meta), "holder", "its holder", None)

    def subject_player(self, meta, c):
        return n.Subject(_loc(meta), "player", c[0], None)

    def subject_filter(self, meta, c):
        return n.Subject(_loc(meta), "filter", c[0], c[1])

    def time_point(self, meta, c):
        return (c[0], _name(c[1]) if len(c) > 1 else None)

    def body(self, meta, c):
        return tuple(c)

    def _sentence(self, meta, c, mode):
        conds, effects = _split(c, _COND)
        return n.Sentence(_loc(meta), mode, conds[0] if conds else None, tuple(effects))

    def do(self, meta, c):
        return self._sentence(meta, c, "do")

    def may(self, meta, c):
        return self._sentence(meta, c, "may")

    def must_pay(self, meta, c):
        return self._sentence(meta, c, "must_pay")

    def if_you_do(self, meta, c):
        return self._sentence(meta, c, "if_you_do")

    def if_you_dont(self, meta, c):
        return self._sentence(meta, c, "if_you_dont")

    def tight(self, meta, c):
        return self._sentence(meta, c, "tight")

    def loose(self, meta, c):
        return self._sentence(meta, c, "loose")

    def independent(self, meta, c):
        return self._sentence(meta, c, "independent")

    def if_happened(self, meta, c):
        return self._sentence(meta, c, "if_happened")

    def ban(self, meta, c):
        return _setting(meta, "ban", [_name(c[0])])

    def announce_turn(self, meta, c):
        return n.AnnounceTurn(_loc(meta))

    def skip_missing(self, meta, c):
        return _setting(meta, "skip missing targets", [1])

    def interrupts(self, meta, c):
        return _setting(meta, "interrupts", ["sentence"])

    # keywords and statuses
    def keyword_def(self, meta, c):
        params = next((x for x in c[1:] if isinstance(x, tuple)), ())
        text = next((x.text for x in c[1:] if isinstance(x, n.TextDecl)), None)
        abilities = tuple(x for x in c[1:] if isinstance(x, _ABILITY))
        return n.KeywordDef(_loc(meta), _name(c[0]), params, text, abilities)

    def params(self, meta, c):
        return tuple(_name(t) for t in c)

    def status_def(self, meta, c):
        settings = tuple(tuple(x.split(" ", 1)) for x in c[1:] if isinstance(x, str))
        text = next((x.text for x in c[1:] if isinstance(x, n.TextDecl)), None)
        abilities = tuple(x for x in c[1:] if isinstance(x, _ABILITY))
        hooks = tuple(x for x in c[1:] if isinstance(x, n.Hook))
        param = next((x for x in c[1:] if isinstance(x, n.Name)), None)
        return n.StatusDef(_loc(meta), _name(c[0]), settings, text, abilities, hooks, param)

    def status_param(self, meta, c):
        return _name(c[0])

    def family(self, meta, c):
        return f"family {c[0]}"

    def influence(self, meta, c):
        return f"influence {_int(c[0])}"

    def status_attribute(self, meta, c):
        return f"attribute {c[0]}"

    def status_class(self, meta, c):
        return f"class {c[0]}"

    def hook(self, meta, c):
        return n.Hook(_loc(meta), c[0], c[1])

    # enchantments: parts arrive as (field, value) pairs
    def enchantment_def(self, meta, c):
        parts = [x for x in c[1:] if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str)]
        fields = {k: v for k, v in parts if k != "riders"}
        fields["riders"] = tuple(v for k, v in parts if k == "riders")
        params = next((x for x in c[1:] if isinstance(x, tuple) and x and isinstance(x[0], n.Name)), ())
        stacking = next((x.split(" ", 1)[1] for x in c[1:] if isinstance(x, str)), "stacks")
        text = next((x.text for x in c[1:] if isinstance(x, n.TextDecl)), None)
        return n.EnchantmentDef(_loc(meta), _name(c[0]), params, stacking, text, **fields)

    def launch_turn(self, meta, c):
        return ("launch", c[0])

    def launch_shift(self, meta, c):
        return ("shift", _int(c[0]) * (-1 if c[1] == "earlier" else 1))

    def vanishes(self, meta, c):
        return ("vanishes", True)

    def executable_if(self, meta, c):
        return ("executable", c[0])

    def mp_cost(self, meta, c):
        return ("mp_cost", (c[0], _name(c[1])))

    def rider(self, meta, c):
        return ("riders", n.Rider(_loc(meta), _cond_of(c), c[-1]))

    def makes_whole(self, meta, c):
        return ("whole", True)

    def lasts_permanently(self, meta, c):
        return "lasts permanently"

    def lasts_until_end_of_turn(self, meta, c):
        return "lasts until end of turn"

    def lasts_turns(self, meta, c):
        return f"lasts {_int(c[0])} turns"

    def lasts_own_turns(self, meta, c):
        return f"lasts {_int(c[0])} of its own turns"
