"""grade: an autograder for stdin/stdout programming exercises.

The library API the CLI wraps: ``resources.find_root``, ``spec.load_exercise``,
``grading.exercise_cases`` and ``grading.grade``.
"""

# The single source of the version (pyproject reads it): importlib.metadata would cost ~25 ms on
# every `grade` start.
__version__ = "0.1.0"
# Where the course is, when not given by --root: here so that `grade --help` names it without
# importing resources (and its config parsing).
ROOT_ENV = "GRADE_ROOT"
