"""Shared test set-up: Hypothesis profiles and the compiled Simple Duel game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# CI runs the fixed, small budgets; CARDC_PROFILE=long runs the same properties much longer.
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("CARDC_PROFILE", "ci"))


@pytest.fixture(scope="session")
def simple_duel():
    from runtime.load import load_game

    return load_game("simple_duel")


@pytest.fixture(scope="session")
def simple_duel_decks(simple_duel):
    from runtime.decks import load_deck

    known = {n for n, c in simple_duel.cards.items() if not c.token}
    paths = sorted((ROOT / "cards" / "simple_duel" / "decks").glob("*.deck"))
    return [load_deck(p, known, simple_duel.ruleset.deck_size) for p in paths]
