"""The course's own tools: authoring cases and exercises, scaffolds, expected outputs, verify,
mutants, the spec's clauses and wording, fuzzing and the playground.

Imports ``running`` and what is below it, never ``publish`` or ``cli``.
"""
