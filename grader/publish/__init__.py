"""What a course gives out: the student wheel and the Gradescope zip, the practice page, and a
new course's files.

Imports ``teacher``, ``running`` and what is below them, never ``cli``.
"""
