"""Automatic-battle tools: playing parties, tournaments, battle scenarios and battle fuzzing."""
