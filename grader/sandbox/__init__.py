"""Running untrusted Python scripts. Knows limits, processes and isolation, nothing of grading."""

from ..judging.runs import LimitHit, Limits, RunResult  # what a run is given and gives back
from .allowed import child_environment
from .sandbox import Sandbox, SandboxUnavailable
from .types import Isolation, Layer, SandboxMode

__all__ = [
    "Isolation",
    "Layer",
    "LimitHit",
    "Limits",
    "RunResult",
    "Sandbox",
    "SandboxMode",
    "SandboxUnavailable",
    "child_environment",
]
