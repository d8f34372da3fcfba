"""The rule families: verb rules grouped by what they are about."""
