"""Peers' own test suites, run against `splines` by pointing their names at ours.

``python -m compat interpax`` runs interpax's tests and ``python -m compat scipy``
scipy's tests of the classes we mirror, each with every name it imports from the
peer replaced by ours (`alias.py`); the tally says how much real ported code meets.
"""
