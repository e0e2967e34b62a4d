"""Running untrusted commands. Knows limits and processes, nothing about grading."""

from .process import run
from .types import LimitHit, Limits, RunResult

__all__ = ["LimitHit", "Limits", "RunResult", "run"]
