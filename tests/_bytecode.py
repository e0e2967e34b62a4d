"""Where the suite's bytecode goes, set before the grader is imported (by conftest.py).

Where the machine says PYTHONDONTWRITEBYTECODE (this one does, and so may CI), every worker
rewrote the asserts of all test modules and compiled the grader afresh on every run, and so did
every grade the suite starts: ~2 s a worker. Bytecode goes to pytest's own cache folder
instead, never beside the sources; a prefix the user set is left as it is.
"""

from __future__ import annotations

import os
import sys

OWN: str | None = None  # the suite's own prefix, where it set one
if sys.dont_write_bytecode:
    OWN = os.path.join(os.path.dirname(os.path.dirname(__file__)), ".pytest_cache", "pyc")
    sys.dont_write_bytecode, sys.pycache_prefix = False, OWN
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = OWN
