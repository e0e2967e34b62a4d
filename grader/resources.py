"""The one place that decides where exercise data lives.

Order: an explicit ``--root`` (or ``GRADE_ROOT``), else the source checkout this package runs from
(an editable install or ``python -m grader`` in the repo), else the data bundled in the wheel.
A root holds ``exercises/`` and ``cases/``; only a checkout or an explicit root has ``reference/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ._compat import StrEnum
from .errors import UsageError

ROOT_ENV = "GRADE_ROOT"


class RootKind(StrEnum):
    EXPLICIT = "explicit"
    CHECKOUT = "checkout"
    BUNDLED = "bundled"


@dataclass(frozen=True)
class Root:
    path: Path
    kind: RootKind

    @property
    def exercises(self) -> Path:
        return self.path / "exercises"

    @property
    def cases(self) -> Path:
        return self.path / "cases"

    @property
    def material(self) -> Path:
        """``reference/``: teacher material (reference solutions, validators, wrong solutions)."""
        return self.path / "reference"


def _package_dir() -> Path:
    return Path(__file__).resolve().parent


def checkout_root() -> Path | None:
    """The repository this package was imported from, if it was imported from one."""
    candidate = _package_dir().parent
    if (candidate / "pyproject.toml").is_file() and (candidate / "exercises").is_dir():
        return candidate
    return None


def find_root(explicit: Path | None = None, *, environ: Mapping[str, str]) -> Root:
    chosen = explicit if explicit is not None else environ.get(ROOT_ENV) or None
    if chosen is not None:
        path = Path(chosen).expanduser()
        if not (path / "exercises").is_dir():
            raise UsageError(f"{path} is not a grade root: it has no exercises/ folder")
        return Root(path.resolve(), RootKind.EXPLICIT)
    checkout = checkout_root()
    if checkout is not None:
        return Root(checkout, RootKind.CHECKOUT)
    bundled = _package_dir() / "_data"
    if (bundled / "exercises").is_dir():
        return Root(bundled, RootKind.BUNDLED)
    raise UsageError(
        f"no exercises found: pass --root DIR or set {ROOT_ENV} to a folder with exercises/"
    )
