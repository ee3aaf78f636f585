"""Automatic battles (Marguerite): swordsmen with ordered sword lists, run by the rules alone."""
