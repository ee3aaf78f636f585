"""The committed generated/ matches the cards: `cardc check` would pass."""

from __future__ import annotations

from compiler.build import stale
from tests.conftest import ROOT


def test_generated_code_is_up_to_date():
    diffs = stale(ROOT)
    assert diffs == [], "generated/ is stale; run `cardc build`:\n" + "".join(diffs)[:4000]
