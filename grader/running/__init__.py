"""Grading submissions: the plan of one grading, the submissions read once under limits, the
compile check, the grading loop, a class in batch, case selection, custom checkers' runs and
the gradebook.

Imports ``model``, ``sandbox``, ``judging`` and ``render`` below it, never ``teacher``,
``publish`` or ``cli``.
"""
