"""What a course is, read from its files: exercise specs, case layout, grade.toml, where the
course's folders are, the material a student gets, and the known mistakes' digests.

Imports only ``judging`` and the helpers beside it (``files``, ``crash``): never a run.
"""
