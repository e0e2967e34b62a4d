"""Known mistakes, recognised: a case's known-wrong outputs, by digest, and what each models.
Loading and writing them (``mistakes.json`` beside the cases) is
``grader.model.known_mistakes``'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .compare import digest
from .records import Diagnosis


@dataclass(frozen=True)
class Mistakes:
    """Case name -> output digest -> the mistake that prints it."""

    by_case: Mapping[str, Mapping[str, Diagnosis]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def match(self, case: str, output: str) -> Diagnosis | None:
        return self.by_case.get(case, {}).get(digest(output))
