"""grade as its users get it: a fresh venv outside the checkout, the built wheel, and the install
line an example or a generated CI file holds, run as written by a shell.

Never the suite's own grader: the venv is made empty, the line installs into it, and the grade
lines run with that venv's ``bin`` first on PATH and nothing of the suite's environment that
could reach the checkout (PYTHONPATH, VIRTUAL_ENV, GRADE_*). A venv costs ~12 s; each is made
once per wheel and test session, shared by the test processes under a lock.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

# what must not leak from the suite into a user's shell: it would find the checkout's grader
_SUITE_ONLY = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")


@dataclass(frozen=True)
class Installed:
    """A venv into which an install line put grade; ``run`` is that user's shell."""

    venv: Path

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in _SUITE_ONLY and not k.startswith("GRADE_")
        }
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{os.defpath}"
        env.update(extra)
        return env

    def run(self, line: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
        """``line`` as a CI engine's shell runs it: variables and globs expanded."""
        return subprocess.run(
            ["bash", "-c", line],
            cwd=cwd,
            env=self.env(**extra),
            capture_output=True,
            text=True,
            timeout=600,
        )

    def grader_file(self) -> Path:
        """Where this venv's grade imports its package from: the proof it is not the checkout."""
        done = self.run("python -c 'import grader; print(grader.__file__)'", self.venv)
        assert done.returncode == 0, done.stderr
        return Path(done.stdout.strip())


def _cache(factory: pytest.TempPathFactory) -> Path:
    """One folder for the whole run, whichever test process asks (pytest-xdist's workers share
    their base temporary folder's parent and the run's id)."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    base = factory.getbasetemp()
    folder = base.parent / f"venvs-{run_id}" if run_id else base / "venvs"
    folder.mkdir(exist_ok=True)
    return folder


def install(factory: pytest.TempPathFactory, wheel: Path, line: str, cwd: Path) -> Installed:
    """A venv holding ``wheel``, installed by ``line`` (which names it) run in ``cwd``.

    The venv is made once per wheel's content; ``line`` runs every time, as each CI job runs
    it (a second time pip finds the wheel installed and is done in a second or two).
    """
    assert os.path.isabs(str(cwd)) and not _inside_checkout(cwd), cwd
    cache = _cache(factory)
    key = hashlib.sha256(wheel.read_bytes()).hexdigest()[:16]
    installed = Installed(cache / key)
    with open(cache / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (installed.venv / "bin" / "python").exists():
            made = subprocess.run(
                [sys.executable, "-m", "venv", str(installed.venv)],
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert made.returncode == 0, made.stderr
        done = installed.run(line, cwd)
    assert done.returncode == 0, (line, done.stdout[-2000:], done.stderr[-2000:])
    here = installed.grader_file()
    assert here.is_relative_to(installed.venv), here  # the wheel's grader, not the checkout's
    return installed


def _inside_checkout(path: Path) -> bool:
    checkout = Path(__file__).resolve().parent.parent
    return path.resolve().is_relative_to(checkout)
