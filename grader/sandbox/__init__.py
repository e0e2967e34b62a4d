"""Running untrusted Python scripts. Knows limits, processes and isolation, nothing of grading."""

from .allowed import child_environment
from .sandbox import Sandbox, SandboxUnavailable
from .types import Isolation, Layer, LimitHit, Limits, RunResult, SandboxMode

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
