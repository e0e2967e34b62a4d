"""grade: an autograder for stdin/stdout programming exercises.

The library API the CLI wraps: ``find_root``, ``load_exercise``, ``exercise_cases``, ``grade``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("grade")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.0.0+unknown"
