"""Grade a whole class: find the submissions, split them into shards, grade them in one pool.

Every case-run of every submission goes into one pool of ``plan.jobs`` workers, so the cores stay
busy and a hung submission costs about one time limit, not one per case. One bad submission
(unreadable, binary, not Python, a folder without exactly one script or notebook) becomes an
error row; crashes and timeouts are ordinary feedback. Ctrl-C ends the runs in progress and
keeps what was graded.
"""

from __future__ import annotations

import glob
import itertools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from ..judging.errors import UsageError
from ..judging.printed import MESSAGE_MOST, clip, path_text
from .gradebook import Entry, Gradebook, Shard
from .grading import Graded, Interrupted, grade_submissions
from .plan import Plan
from .submissions import MAX_SUBMISSION_BYTES, Submission, linked_folder, read

GRADED = (".py", ".ipynb")  # what a file a student hands in may be: a script or a notebook


def _visible(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith("."))


def _from_folder(folder: Path, name: str, limit: int, expected: str | None) -> Submission:
    """The folder's script: the expected file name (the course's [submissions]) if it is
    there, else its only .py file; several and none of that name is refused, never guessed.
    A folder the grader cannot read (mode 000, as unzip or tar may restore it) is that
    student's row, not the end of the batch."""
    try:
        return _script_in(folder, name, limit, expected)
    except OSError as exc:
        return Submission(name, folder, f"cannot be read: {exc.strerror or exc}")


def _script_in(folder: Path, name: str, limit: int, expected: str | None) -> Submission:
    if expected is not None and (folder / expected).is_file():
        return _read_as(name, folder / expected, limit)
    scripts = [p for p in _visible(folder) if p.suffix == ".py" and p.is_file()]
    notebooks = [p for p in _visible(folder) if p.suffix == ".ipynb"]
    if not scripts and len(notebooks) == 1:  # a notebook alone: its code cells are graded
        return _read_as(name, notebooks[0], limit)
    if len(scripts) != 1:
        found = ", ".join(p.name for p in scripts + notebooks) or "none"
        one = "one .py file or notebook"
        wanted = f"{expected}, or {one}," if expected is not None else one
        return Submission(name, folder, f"expected {wanted} in the folder, found {found}")
    return _read_as(name, scripts[0], limit)


def discover(
    paths: Sequence[str], limit: int = MAX_SUBMISSION_BYTES, expected: str | None = None
) -> list[Submission]:
    """Submissions from files, folders and (quoted) globs, sorted by name.

    A file is one submission. A folder holding one .py file or notebook (and no sub-folders) is
    one submission named after the folder. Any other folder given is a class: each sub-folder
    and file in it is one. A folder a glob matches is one submission, whatever it holds.
    """
    found: list[Submission] = []
    for raw in paths:
        # a path as given, a link or not, is the caller's own choice; a glob's links are not
        matches = [Path(raw)] if Path(raw).exists() else [Path(p) for p in sorted(glob.glob(raw))]
        if not matches:
            raise UsageError(f"no submission at {raw}")
        top = _fixed_part(raw)
        for path in matches:
            through = linked_folder(path, top) if path != Path(raw) else None
            if through is not None:  # below the glob's wildcards: the student's
                name = path.name if path.is_dir() else str(path)
                problem = f"is reached through {through}, a symbolic link; give its real path"
                found.append(Submission(name, path, problem))
            elif path != Path(raw) and path.is_symlink():
                found.append(_linked(path, path.name if path.is_dir() else str(path), limit))
            elif path != Path(raw) and path.is_dir():
                # a glob's folder is one student's, never a class: a student's folder of 20
                # folders would be 20 classmates (the red team's, against grade similar)
                found.append(_from_folder(path, path.name, limit, expected))
            else:
                found.extend(_expand(path, limit, expected))
    if not found:  # a wrong path in CI must not go green with "0 submissions"
        raise UsageError(f"no submissions in {', '.join(paths)}")
    # a name, a path or a reason quoting one is shown, journalled and written as text
    found = [_as_text(s) for s in found]
    return sorted(_distinct(found), key=lambda s: s.name)


def _distinct(found: list[Submission]) -> list[Submission]:
    """Submissions sharing a name (bob.py beside bob/, or two names that escape alike) are
    each a row of its own, named by its path and not graded: which is bob's is the teacher's
    call, and one student's clash must not stop the class."""
    names = [s.name for s in found]
    clashing = {n for n in names if names.count(n) > 1}
    if not clashing:
        return found
    paths = {n: ", ".join(path_text(s.path) for s in found if s.name == n) for n in clashing}
    return [
        s
        if s.name not in clashing
        else Submission(
            f"{s.name} ({path_text(s.path)})",
            s.path,
            clip(f"two submissions are named {s.name} ({paths[s.name]}): rename one", MESSAGE_MOST),
        )
        for s in found
    ]


def _as_text(sub: Submission) -> Submission:
    # a reason may list a folder's files: 20,000 names must not make a 5 MB row
    problem = None if sub.problem is None else clip(path_text(sub.problem), MESSAGE_MOST)
    return replace(sub, name=path_text(sub.name), problem=problem)


def _read_as(name: str, path: Path, limit: int) -> Submission:
    return read(path, name, limit)


def _fixed_part(pattern: str) -> Path:
    """A glob's folders before its first wildcard: what the caller named, not the students."""
    parts = Path(pattern).parts
    fixed = list(itertools.takewhile(lambda p: not glob.has_magic(p), parts))
    return Path(*fixed) if fixed else Path(".")


def _linked(path: Path, name: str, limit: int) -> Submission:
    """A symbolic link found in a class, never followed: a student's folder or file linking to
    one the grader can read and the student cannot (a reference, a private folder) would be
    graded as theirs, or shown in a SyntaxError."""
    if path.is_dir():
        return Submission(name, path, "is a symbolic link; grade the folder itself")
    return _read_as(name, path, limit)


def _expand(path: Path, limit: int, expected: str | None) -> list[Submission]:
    if not path.is_dir():
        return [_read_as(str(path), path, limit)]
    children = _visible(path)
    # one student's folder: one script or notebook (beside notes, data...), no sub-folder
    scripts = sum(p.suffix in GRADED for p in children)
    if scripts == 1 and not any(p.is_dir() for p in children):
        return [_from_folder(path, path.name, limit, expected)]
    found: list[Submission] = []
    for child in children:
        name = child.name if child.is_dir() or child.suffix not in GRADED else child.stem
        if child.is_symlink():
            found.append(_linked(child, name, limit))
        elif child.is_dir():
            found.append(_from_folder(child, name, limit, expected))
        else:
            found.append(_read_as(name, child, limit))
    return found


# Where each CI engine says which parallel job this is: (index variable, 0- or 1-based, total
# variable). GitLab's `parallel: N`; a Kubernetes Indexed Job (which has no total: the job's spec
# sets GRADE_SHARD_TOTAL, as examples/ci/k8s-indexed-job.yaml does); GRADE_SHARD=K/N anywhere.
SHARD_VARIABLES = (
    ("CI_NODE_INDEX", 1, "CI_NODE_TOTAL"),
    ("JOB_COMPLETION_INDEX", 0, "GRADE_SHARD_TOTAL"),
)


def parse_shard(text: str, environ: Mapping[str, str] | None = None) -> Shard:
    """``--shard K/N``, or ``auto``: the slice the CI engine's variables name."""
    try:
        if text != "auto":
            return Shard.parse(text)
        env = os.environ if environ is None else environ
        if env.get("GRADE_SHARD"):
            return Shard.parse(env["GRADE_SHARD"])
        for index, base, total in SHARD_VARIABLES:
            if env.get(index) and env.get(total):
                k, n = env[index], env[total]
                if not (k.isdecimal() and n.isdecimal()):
                    raise ValueError(f"{index}={k!r} and {total}={n!r} are not whole numbers")
                return Shard(int(k) + 1 - base, int(n))
    except ValueError as exc:
        raise UsageError(f"--shard: {exc}") from None
    names = ", ".join(f"{i} and {t}" for i, _, t in SHARD_VARIABLES)
    raise UsageError(f"--shard auto: none of GRADE_SHARD, {names} is set")


def shard(submissions: Sequence[Submission], part: Shard) -> list[Submission]:
    """The K-th of N deterministic slices of the sorted submissions (round robin, 1-based)."""
    ordered = sorted(submissions, key=lambda s: s.name)
    return [s for i, s in enumerate(ordered) if i % part.count == part.index - 1]


NOT_GRADED = "not graded: the batch was interrupted (grade batch --resume goes on)"


def _entry(graded: Graded) -> Entry:
    sub = graded.submission
    feedback = graded.report.feedback() if graded.report is not None else None
    return Entry(sub.name, path_text(sub.path), feedback, sub.problem)


def grade_batch(
    plan: Plan,
    submissions: Sequence[Submission],
    *,
    shard_label: Shard | None = None,
    on_done: Callable[[Entry], None] | None = None,
    graded: Sequence[Entry] = (),
) -> Gradebook:
    """Grade every submission with ``plan``; ``on_done`` hears of each row as it completes.
    ``graded`` are rows of an earlier, interrupted run of the same batch: kept, not regraded.

    On Ctrl-C the plan's runs in progress end at once; the gradebook keeps the submissions that
    were fully graded and is marked interrupted.
    """
    done: dict[str, Entry] = {e.submission: e for e in graded}

    def finish(result: Graded) -> None:
        entry = _entry(result)
        done[entry.submission] = entry
        if on_done is not None:
            on_done(entry)

    interrupted = False
    try:
        grade_submissions(
            plan,
            [s for s in submissions if s.name not in done],
            in_case_order=False,
            on_done=finish,
            keep=False,  # each row is its Entry (clipped feedback) once done: memory stays flat
        )
    except Interrupted:
        interrupted = True
        # every format says so: a row each, not a class that seems to have fewer students
        # (not journalled: --resume grades them)
        for sub in submissions:
            if sub.name not in done:
                done[sub.name] = Entry(sub.name, path_text(sub.path), None, NOT_GRADED)
    return Gradebook(
        exercise=plan.exercise.name,
        case_names=tuple(c.name for c in plan.cases),
        entries=tuple(done[name] for name in sorted(done)),
        shard=shard_label,
        interrupted=interrupted,
    )
