"""Environments for AI research: ids, observation encodings, PettingZoo, Gymnasium and OpenSpiel adapters.

Needs the optional extra ``rl`` (``pip install 'stich[rl]'``; OpenSpiel: ``stich[openspiel]``).
See docs/research.md.
"""
