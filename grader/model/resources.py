"""The one place that decides where exercise data lives.

Order: an explicit ``--root`` (or ``GRADE_ROOT``); else, for a course's own package (``grade
package student``: its bundled data holds the course's ``grade.toml``), that course, always; else
the course found by walking up from the current folder to the first folder with a
``grade.toml`` (or ``[tool.grade]`` in its ``pyproject.toml``), as git finds a repository; else
the source checkout this package runs from (an editable install); else the data bundled in the
installed package.

A course's package is pinned so that the repository it grades cannot bring its own course: a
student's committed ``grade.toml`` and one easy case would otherwise grade their submission.
A root holds ``exercises/`` and ``cases/NAME/public/``; a teacher's copy also ``reference/`` and
the secret cases (``cases/NAME/secret/`` unless the config puts them elsewhere).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .. import PACKAGE_DIR, ROOT_ENV
from ..judging._compat import StrEnum
from ..judging.errors import UsageError
from .config import Config, has_config, load_config


class RootKind(StrEnum):
    EXPLICIT = "explicit"
    COURSE = "course"  # found by walking up from the current folder
    CHECKOUT = "checkout"
    BUNDLED = "bundled"


@dataclass(frozen=True)
class Root:
    path: Path
    kind: RootKind
    config: Config = field(default_factory=Config)

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

    @property
    def secret_cases(self) -> Path:
        """The folder holding ``NAME/secret/`` (``cases/`` unless the config says otherwise)."""
        return (self.path / self.config.secret_cases).resolve()

    @property
    def name(self) -> str:
        """The course's name as reports give it: its config's, else its folder's."""
        if self.kind is RootKind.CHECKOUT and not self.config.name:
            return "grade's own exercises"
        return self.config.name or self.path.name

    @property
    def installed(self) -> bool:
        """Inside an installed package: no place to write a course."""
        return self.kind is RootKind.BUNDLED


PROJECT_DIST = "grade-autograder"  # this project's own distribution (pyproject.toml)


def shared_install(package_dir: Path | None = None) -> str | None:
    """Why this environment's grader may not be the one meant: a course package (its bundled
    grade.toml) and grade-autograder both install the import package ``grader`` and the
    ``grade`` script, so whichever pip installed last overwrote the other, silently."""
    bundled = (package_dir or PACKAGE_DIR) / "_data"
    if not has_config(bundled):
        return None
    from importlib import metadata

    try:
        metadata.distribution(PROJECT_DIST)
    except metadata.PackageNotFoundError:
        return None
    course = load_config(bundled).name or "a course package"
    return (
        f"both {PROJECT_DIST} and {course} are installed here and share the grader package "
        f"and the grade command: what runs is the one installed last; keep one "
        f"(pip uninstall {PROJECT_DIST}, then reinstall {course})"
    )


def checkout_root() -> Path | None:
    """The repository this package was imported from, if it was imported from one."""
    candidate = PACKAGE_DIR.parent
    if (candidate / "pyproject.toml").is_file() and (candidate / "exercises").is_dir():
        return candidate
    return None


def course_above(start: Path) -> Path | None:
    """The first folder from ``start`` upwards that holds a course's config file."""
    start = start.resolve()
    return next((folder for folder in (start, *start.parents) if has_config(folder)), None)


def _root(path: Path, kind: RootKind) -> Root:
    return Root(path, kind, load_config(path))


def find_root(
    explicit: Path | None = None, *, environ: Mapping[str, str], cwd: Path | None = None
) -> Root:
    chosen = explicit if explicit is not None else environ.get(ROOT_ENV) or None
    if chosen is not None:
        path = Path(chosen).expanduser()
        if not (path / "exercises").is_dir():
            raise UsageError(f"{path} is not a grade root: it has no exercises/ folder")
        return _root(path.resolve(), RootKind.EXPLICIT)
    bundled = PACKAGE_DIR / "_data"
    if has_config(bundled) and (bundled / "exercises").is_dir():  # a course's own package
        return _root(bundled, RootKind.BUNDLED)
    course = course_above(cwd if cwd is not None else Path.cwd())
    if course is not None:
        if not (course / "exercises").is_dir():
            raise UsageError(f"the course at {course} has no exercises/ folder")
        return _root(course, RootKind.COURSE)
    checkout = checkout_root()
    if checkout is not None:
        return _root(checkout, RootKind.CHECKOUT)
    if (bundled / "exercises").is_dir():
        return _root(bundled, RootKind.BUNDLED)
    raise UsageError(
        f"no exercises found: pass --root DIR or set {ROOT_ENV} to a folder with exercises/"
    )
