"""grade: an autograder for stdin/stdout programming exercises.

The library API the CLI wraps: ``model.resources.find_root``, ``model.spec.load_exercise``,
``model.cases.exercise_cases`` and ``running.grading.grade``.
"""

from pathlib import Path

# The single source of the version (pyproject reads it): importlib.metadata would cost ~25 ms on
# every `grade` start.
__version__ = "0.1.0"
# Where the course is, when not given by --root: here so that `grade --help` names it without
# importing resources (and its config parsing).
ROOT_ENV = "GRADE_ROOT"
# The installed package's own folder: its bundled course (_data), the page's assets, the code a
# wheel copies. Decided here once, since the modules that need it sit at different depths.
PACKAGE_DIR = Path(__file__).resolve().parent
