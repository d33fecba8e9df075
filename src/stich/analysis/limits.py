"""The analysis's budget limits, in a module of their own so that ``stich``'s argument parser can name them without loading the search."""

DEFAULT_BUDGET = 24
"""Worlds per decision by default (bench/bench_analysis.py measures the time and the noise it gives)."""

MAX_BUDGET = 400
"""Most worlds per decision an analysis accepts."""
