"""Range modification (runtime/positions.py `shifted`, War Vortex Night §5.3): every number of a range moves
(R-WVN-15), and the OPEN item of numbers below 0 reads as docs/decisions.md says."""

from __future__ import annotations

import pytest

from runtime.positions import reaches, shifted


@pytest.mark.parametrize(("written", "by", "becomes"), [
    (("to", 0, 3), -1, ("to", 0, 2)),  # range 3
    (("to", 3, 5), -1, ("to", 2, 4)),  # range 3 to 5
    (("set", 3, 5), -1, ("set", 2, 4)),  # range [3][5]
    (("to", 3, 5), 2, ("to", 5, 7)),
    (("to", 1, 3), -2, ("to", 0, 1)),  # the nearest distance stops at 0
    (("set", 0, 2), -1, ("set", 1)),  # a distance of a set below 0 goes
    (("to", 0, 0), -1, None),  # nothing left: it reaches nothing
    (("set", 0), -1, None),
])
def test_a_modification_shifts_every_number(written: tuple, by: int, becomes: tuple | None) -> None:
    assert shifted(written, by) == becomes


def test_a_range_that_reaches_nothing_reaches_no_distance() -> None:
    assert not any(reaches(None, d) for d in range(6))
    assert [d for d in range(7) if reaches(("set", 2, 4), d)] == [2, 4]
