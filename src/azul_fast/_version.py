"""Versions recorded with every result."""

__version__ = "0.2.0"
#: Bumped whenever a rule or a random draw changes what a seed plays (not for speed-ups).
RULES_VERSION = "azul-rules/1"
