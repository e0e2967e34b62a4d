"""``grade init``: start a course folder, with its config, ``.gitignore`` and a CI file."""

from __future__ import annotations

import json
from pathlib import Path

from ..files import write_atomically
from ..judging.errors import UsageError
from ..model.config import CONFIG_FILE, has_config
from .packaging import grader_wheel

# Where the course keeps the grader its CI installs: grade is on no package index, and the CI
# should grade with the teacher's own version. Commit it; grade init writes it again on demand.
VENDOR = ".grade"


def init_course(folder: Path, *, ci: tuple[str, ...] = ()) -> list[Path]:
    """Create a course in ``folder`` (made if missing); returns the absolute paths written.

    Refuses a folder that is a course already, or that holds an ``exercises/`` folder: a
    course is started once, never written over.
    """
    folder = folder.absolute()
    if has_config(folder) or (folder / "exercises").exists():
        raise UsageError(f"{folder} holds a course already")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is not a folder")
    name = folder.name or "course"
    files = {
        CONFIG_FILE: CONFIG.format(name=json.dumps(f"{name}-grade")),
        ".gitignore": GITIGNORE,
        "exercises/README.md": EXERCISES_README,
        "cases/README.md": CASES_README,
        "reference/README.md": REFERENCE_README,
    }
    blobs: dict[str, bytes] = {}
    pin = ""
    if set(ci) & {"github", "gitlab"}:  # their jobs install this grader from the course itself
        wheel, data = grader_wheel()
        blobs[f"{VENDOR}/{wheel}"] = data
        pin = f"{VENDOR}/{wheel}"
    for platform in ci:
        where, template = CI_FILES[platform]
        files[where] = template.format(pin=pin)
    written = []
    everything: dict[str, str | bytes] = {**files, **blobs}
    for relative, text in everything.items():
        path = folder / relative
        if path.exists():
            raise UsageError(f"{path} exists; start the course in an empty folder")
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
        if path.suffix == ".sh":
            path.chmod(0o755)
        written.append(path)
    return written


CONFIG = """\
# This folder is a grade course: grade finds it from any folder below, as git finds a repository.
# Every setting is optional; a command-line option beats it.
name = {name}   # the package `grade package student` builds
version = "0.1.0"
# timeout = 10          # seconds per case, for every exercise (default: each exercise's limit)
# jobs = 2              # case-runs at once (default: the number of CPUs)
# sandbox = "auto"      # strict (CI), auto or off
# secret_cases = "cases"  # the folder holding NAME/secret/ (e.g. "../secret-cases")
# max_submission_kb = 1024  # a larger script is refused, in check and batch alike

[submissions]           # the file a student submits, per exercise (default: NAME.py)
# quantize = "quantize.py"
"""

GITIGNORE = """\
__pycache__/
*.pyc
.venv/
dist/
# reports and gradebooks written by grade batch
gradebook.*
report.*
"""

EXERCISES_README = """\
One YAML spec per exercise: exercises/NAME.yaml. Start one with: grade new NAME
"""

CASES_README = """\
cases/NAME/public/  NAME.in + NAME.out pairs shipped to students and shown in full
cases/NAME/secret/  never shipped: graded in CI, in your copy and on Gradescope
Add cases with: grade add-case NAME CASE --input FILE [--secret] [--sample]
"""

REFERENCE_README = """\
Teacher material, never shipped: reference/NAME/solution.py (the only source of expected
outputs), validate.py, generate.py, accepted/*.py and wrong/*.py. See grade new NAME.
"""

GITHUB = """\
# Checks the course on every push: every exercise verified like a judge would.
name: course
on: [push, pull_request]
jobs:
  verify:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - run: pip install "./{pin}"  # this course's grader, committed by grade init
      # ubuntu-latest forbids unprivileged user namespaces; allow them on this throw-away VM
      # so that the sandbox has every layer
      - run: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0
      - run: grade verify --sandbox strict
      - run: grade package student dist/
      - uses: actions/upload-artifact@v4
        with:
          name: student-package
          path: dist/
"""

GITLAB = """\
# Checks the course on every push: every exercise verified like a judge would.
verify:
  image: python:3.12
  script:
    - pip install "./{pin}"  # this course's grader, committed by grade init
    - grade verify
    - grade package student dist/
  artifacts:
    paths: [dist/]
"""

GRADESCOPE = """\
#!/usr/bin/env bash
# Builds one Gradescope autograder zip per exercise into dist/: upload it as the
# assignment's autograder (Configure Autograder > Zip file upload).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p dist
for spec in exercises/*.yaml; do
  name=$(basename "$spec" .yaml)
  grade package gradescope "dist/$name-autograder.zip" --exercise "$name"
done
"""

CI_FILES = {
    "github": (".github/workflows/course.yml", GITHUB),
    "gitlab": (".gitlab-ci.yml", GITLAB),
    "gradescope": ("gradescope.sh", GRADESCOPE),
}
