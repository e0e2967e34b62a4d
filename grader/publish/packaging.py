"""``grade package``: a course as an installable wheel for students, or a Gradescope autograder.

The wheel is written directly (a zip with the wheel metadata), without a build backend: it holds
this grader's own modules, so a student's grade is the teacher's, pinned, and the course data
under ``grader/_data``. The student wheel carries public cases only (and how many secret cases
exist, so the student knows CI grades more); the Gradescope zip's wheel carries the secret ones
too. ``reference/`` never ships, except checker programs the specs name (a student's grade
needs them to compare).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import shlex
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import PACKAGE_DIR, __version__
from ..files import write_atomically
from ..judging.errors import UsageError
from ..model.cases import (
    CASES_META_FILE,
    PUBLIC,
    SECRET,
    SECRET_COUNTS,
    course_paths,
    folder_of,
    own_cases,
    public_folder,
    secret_folder,
)
from ..model.config import CONFIG_FILE
from ..model.known_mistakes import MISTAKES_FILE
from ..model.resources import Root
from ..model.spec import Exercise, exercise_names, load_exercise

# What the grader needs installed beside it: the same as pyproject.toml's (a test keeps them
# equal). numpy is for students' scripts.
REQUIRES = (
    "click>=8.1",
    "numpy>=1.24",
    "pyyaml>=6.0",
    "rich>=13.0",
    "tomli>=1.1; python_version < '3.11'",
    "pywin32>=306; sys_platform == 'win32'",  # the portable runner's Job Object (winjob.py)
    "psutil>=5.9; sys_platform == 'win32' or sys_platform == 'darwin'",  # live CPU time
)
WATCH_REQUIRES = ("watchfiles>=0.21",)
_EPOCH = (1980, 1, 1, 0, 0, 0)  # zip's earliest date: the same course gives the same bytes


@dataclass(frozen=True)
class Built:
    path: Path
    exercises: tuple[str, ...]
    public: int  # cases inside
    secret: int


DEFAULT_NAME = "course-grade"  # where grade.toml names none: never the folder's name


def _dist_name(root: Root) -> str:
    # The folder's name made wheels called repo_grade (a checkout's) or failed on a space in it
    name = root.config.name or DEFAULT_NAME
    if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?", name):
        raise UsageError(f"name {name!r} in {CONFIG_FILE} is not a valid package name")
    return re.sub(r"[-_.]+", "_", name).lower()


def _grader_files() -> Iterator[tuple[str, bytes]]:
    package = PACKAGE_DIR
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package)
        # the code, and the practice site's page assets (grade site writes them out)
        wanted = path.suffix in (".py", ".typed") or relative.parts[0] == "site_assets"
        if (
            path.is_file()
            and relative.parts[0] != "_data"
            and "__pycache__" not in relative.parts
            and wanted
        ):
            yield f"grader/{relative.as_posix()}", path.read_bytes()


def _course_files(
    root: Root, names: tuple[str, ...], *, secret: bool
) -> tuple[dict[str, bytes], int, int]:
    files: dict[str, bytes] = {}
    counts: dict[str, int] = {}
    public_n = secret_n = 0
    data = "grader/_data"
    for name in names:
        exercise = load_exercise(name, root)
        cases = own_cases(exercise)  # refuses a broken exercise before anything is written
        if not secret and all(c.secret for c in cases):
            raise UsageError(f"{name} has no public cases: students could grade nothing")
        files[f"{data}/exercises/{name}.yaml"] = exercise.spec_path.read_bytes()
        for case in cases:
            if case.secret and not secret:
                counts[name] = counts.get(name, 0) + 1
                continue
            for there, source in course_paths(exercise, case, data).items():
                files[there] = source.read_bytes()
            public_n += not case.secret
            secret_n += case.secret
        for folder, kind in ((public_folder(exercise), PUBLIC), (secret_folder(exercise), SECRET)):
            known = folder / MISTAKES_FILE  # what known-wrong solutions print: for diagnosis
            if known.is_file() and (secret or kind == PUBLIC):
                files[f"{data}/cases/{name}/{kind}/{MISTAKES_FILE}"] = known.read_bytes()
        files.update(_checker(exercise, data))
    if counts:
        files[f"{data}/{SECRET_COUNTS}"] = json.dumps(counts, sort_keys=True).encode()
    files[f"{data}/{CONFIG_FILE}"] = _config_text(root).encode()
    return files, public_n, secret_n


def _checker(exercise: Exercise, data: str) -> dict[str, bytes]:
    program = exercise.compare.checker
    if program is None:
        return {}
    return {f"{data}/{program}": (exercise.root.path / program).read_bytes()}


def _config_text(root: Root) -> str:
    """The course's settings that matter where it is installed (not where secrets live)."""
    c = root.config
    lines = [f"name = {json.dumps(c.name or root.path.name)}", f"version = {json.dumps(c.version)}"]
    if c.timeout is not None:
        lines.append(f"timeout = {c.timeout}")
    if c.jobs is not None:
        lines.append(f"jobs = {c.jobs}")
    if c.sandbox is not None:
        lines.append(f"sandbox = {json.dumps(c.sandbox)}")
    if c.submissions:
        lines.append("[submissions]")
        lines += [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in sorted(c.submissions.items())]
    return "\n".join(lines) + "\n"


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def wheel_bytes(root: Root, names: tuple[str, ...], *, secret: bool) -> tuple[str, bytes, int, int]:
    """The wheel's file name and bytes, with how many public and secret cases it holds."""
    course, public_n, secret_n = _course_files(root, names, secret=secret)
    summary = f"{root.path.name}'s exercises, graded by grade {__version__}"
    filename, data = _wheel(_dist_name(root), root.config.version, summary, course)
    return filename, data, public_n, secret_n


GRADER_DIST = "grade_autograder"  # pyproject.toml's grade-autograder, normalised


def grader_wheel() -> tuple[str, bytes]:
    """This grader alone as a wheel (no course data): what a course's CI installs, pinned to
    the teacher's own version, from the course's repository (grade is on no package index)."""
    return _wheel(GRADER_DIST, __version__, f"grade {__version__}, the autograder", {})


def _wheel(dist: str, version: str, summary: str, data: dict[str, bytes]) -> tuple[str, bytes]:
    info = f"{dist}-{version}.dist-info"
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {dist}",
        f"Version: {version}",
        f"Summary: {summary}",
        "Requires-Python: >=3.10",
        *(f"Requires-Dist: {r}" for r in REQUIRES),
        # grade check --watch, as the project's own extra: pip install "COURSE.whl[watch]"
        "Provides-Extra: watch",
        *(f"Requires-Dist: {r}; extra == 'watch'" for r in WATCH_REQUIRES),
    ]
    files = {
        **dict(_grader_files()),
        **data,
        f"{info}/METADATA": ("\n".join(metadata) + "\n").encode(),
        f"{info}/WHEEL": (
            f"Wheel-Version: 1.0\nGenerator: grade {__version__}\n"
            "Root-Is-Purelib: true\nTag: py3-none-any\n"
        ).encode(),
        f"{info}/entry_points.txt": b"[console_scripts]\ngrade = grader.cli:main\n",
    }
    record = [f"{name},{_record_hash(body)},{len(body)}" for name, body in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    return f"{dist}-{version}-py3-none-any.whl", _zip(files)


def _zip(files: dict[str, bytes], executable: frozenset[str] = frozenset()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, _EPOCH)
            entry.external_attr = (0o100755 if name in executable else 0o100644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return buffer.getvalue()


def _names(root: Root, chosen: tuple[str, ...]) -> tuple[str, ...]:
    names = chosen or exercise_names(root)
    if not names:
        raise UsageError(f"{root.path} has no exercises to package")
    for name in names:
        load_exercise(name, root)  # an unknown name is a usage error with "did you mean"
    return names


def package_student(root: Root, out: Path, chosen: tuple[str, ...] = ()) -> Built:
    """A wheel in folder ``out`` with the grader, the specs and the public cases only."""
    names = _names(root, chosen)
    filename, data, public_n, secret_n = wheel_bytes(root, names, secret=False)
    out.mkdir(parents=True, exist_ok=True)
    target = (out / filename).absolute()
    write_atomically(target, data)
    return Built(target, names, public_n, secret_n)


def _course_folder(root: Root, name: str) -> dict[str, bytes]:
    """The exercise as a course folder of its own: spec, public and secret cases, checker."""
    exercise = load_exercise(name, root)
    files = {
        f"course/{CONFIG_FILE}": _config_text(root).encode(),
        f"course/exercises/{name}.yaml": exercise.spec_path.read_bytes(),
    }
    for case in own_cases(exercise):
        for there, source in course_paths(exercise, case, "course").items():
            files[there] = source.read_bytes()
    extras = ((SECRET, CASES_META_FILE), (PUBLIC, MISTAKES_FILE), (SECRET, MISTAKES_FILE))
    for kind, extra in extras:
        path = folder_of(exercise, secret=kind == SECRET) / extra
        if path.is_file():
            files[f"course/cases/{name}/{kind}/{extra}"] = path.read_bytes()
    files.update(_checker(exercise, "course"))
    return files


def package_gradescope(root: Root, out: Path, exercise: str | None) -> Built:
    """Gradescope's autograder zip: ``setup.sh``, ``run_autograder``, the pinned grader as a
    wheel (public data only) and the exercise as a course folder with its secret cases, which
    ``run_autograder`` grades with ``--root``: outside site-packages, where the sandbox hides a
    course's cases, and never inside an installed package another grader could read."""
    names = _names(root, (exercise,) if exercise else ())
    if len(names) != 1:
        raise UsageError(
            f"a Gradescope autograder grades one exercise: pass --exercise ({', '.join(names)})"
        )
    (name,) = names
    sandbox = root.config.sandbox or "auto"
    if sandbox == "off":
        raise UsageError(
            f'{root.config.source}: sandbox = "off" would let a submission read the secret '
            'cases on Gradescope; package it with "auto" or "strict"'
        )
    filename, wheel, _public_n, _secret_n = wheel_bytes(root, names, secret=False)
    course = _course_folder(root, name)
    cases = own_cases(load_exercise(name, root))
    public_n, secret_n = sum(not c.secret for c in cases), sum(c.secret for c in cases)
    submission = root.config.submissions.get(name, f"{name}.py")
    files = {
        "setup.sh": SETUP.format(wheel=shlex.quote(filename)).encode(),
        "run_autograder": RUN.format(
            exercise=shlex.quote(name),
            expected=shlex.quote(submission),
            sandbox=shlex.quote(sandbox),
        ).encode(),
        filename: wheel,
        **course,
    }
    write_atomically(out, _zip(files, frozenset({"setup.sh", "run_autograder"})))
    return Built(out.absolute(), names, public_n, secret_n)


SETUP = """\
#!/usr/bin/env bash
# Gradescope runs this once, building the autograder image: the grader and the exercise's
# cases (secret ones too) install from the wheel beside it, pinned; nothing is fetched but
# its dependencies.
set -euo pipefail
AUTOGRADER="${{AUTOGRADER:-/autograder}}"
# `venv --help` succeeds without ensurepip (Debian's python3.X-venv), and `venv DIR` then fails
if ! python3 -c "import ensurepip, venv" >/dev/null 2>&1; then
  apt-get update && apt-get install -y python3 python3-venv python3-pip
fi
# pip would refuse the wheel (Requires-Python) in words that do not say what to change
if ! python3 -c "import sys; sys.exit(sys.version_info < (3, 10))" >/dev/null 2>&1; then
  echo "setup.sh: grade needs Python 3.10 or newer, this image has $(python3 --version 2>&1):" \
    "choose a newer base image in the autograder's settings (Ubuntu 22.04 has 3.10)" >&2
  exit 1
fi
python3 -m venv "$AUTOGRADER/venv"
"$AUTOGRADER/venv/bin/pip" install --disable-pip-version-check \
  "$AUTOGRADER/source/"{wheel}
"""

RUN = """\
#!/usr/bin/env bash
# Gradescope's run_autograder: grade the submitted file into results/results.json.
# The file graded is the expected one if submitted, else the only .py file; several .py files
# and none of that name is refused with a message, never guessed. Only regular files count.
set -u
AUTOGRADER="${{AUTOGRADER:-/autograder}}"
EXPECTED={expected}
results="$AUTOGRADER/results/results.json"
refuse() {{
  "$AUTOGRADER/venv/bin/python" -c \\
    'import json, sys; print(json.dumps({{"score": 0, "output": sys.argv[1], "tests": []}}))' \\
    "$1" > "$results"
  exit 0
}}
mapfile -d '' -t scripts < <(
  find "$AUTOGRADER/submission" -maxdepth 1 -type f -name '*.py' -printf '%f\\0' | sort -z
)
if [ -f "$AUTOGRADER/submission/$EXPECTED" ] && [ ! -L "$AUTOGRADER/submission/$EXPECTED" ]; then
  submission="$AUTOGRADER/submission/$EXPECTED"
elif [ "${{#scripts[@]}}" -eq 1 ]; then
  submission="$AUTOGRADER/submission/${{scripts[0]}}"
elif [ "${{#scripts[@]}}" -eq 0 ]; then
  refuse "No .py file was submitted: submit $EXPECTED."
else
  refuse "Submit your solution as $EXPECTED: found ${{scripts[*]}}, and cannot tell which to grade."
fi
echo "grading $(basename "$submission")"
cd "$AUTOGRADER"
"$AUTOGRADER/venv/bin/grade" check {exercise} "$submission" --root "$AUTOGRADER/source/course" \\
  --sandbox {sandbox} --format gradescope --output "$results"
status=$?
# grade exits 1 when a case fails: that is a result, not an autograder failure. 4 is the
# grader's own fault (a broken checker, a busy machine): Gradescope has no "no score", so
# the report goes to the autograder's output and no results.json is left, which Gradescope
# shows as a failed autograder run, no score, for staff to run again. Nobody is charged.
if [ "$status" -eq 4 ]; then
  echo "not graded: a grader error (exit 4); the course staff can run the autograder again" >&2
  [ -f "$results" ] && cat "$results" && rm -f "$results"
  exit 1
fi
[ -s "$results" ]
"""
