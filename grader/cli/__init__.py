"""The ``grade`` command line: a thin shell over the library (see ``base.py``)."""

from . import classroom, course, similar, student, teacher  # noqa: F401  (importing registers the commands)
from .base import cli


def main() -> None:
    cli(prog_name="grade")


__all__ = ["cli", "main"]
