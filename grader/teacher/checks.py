"""A row of ``grade verify``'s table: a check's name, its status and what it found."""

from __future__ import annotations

from dataclasses import dataclass

from ..judging._compat import StrEnum


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str
