"""The ``grade`` command line: a thin shell over the library (see ``base.py``)."""

import gc

from . import classroom, course, similar, student, teacher  # noqa: F401  (importing registers the commands)
from .base import cli


def main() -> None:
    try:
        cli(prog_name="grade")
    finally:
        # What the command made lives until the exit, where the interpreter's last collections
        # walked all of it (click's, rich's and the grader's modules): ~15 ms after the report
        # was out. Frozen, those walks skip it; atexit handlers and threads end as before.
        gc.freeze()


__all__ = ["cli", "main"]
