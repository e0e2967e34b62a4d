"""Grade a whole class: find the submissions, split them into shards, grade them in parallel.

One bad submission (unreadable, binary, not Python, a folder without exactly one script) becomes
an error row of the gradebook; crashes and timeouts are ordinary reports. Ctrl-C stops handing out
work, lets the running submissions finish (each is bounded by its time limits) and keeps them.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from .cases import Case
from .errors import GraderError, UsageError
from .grading import Runner, grade
from .report import Report
from .spec import Exercise


@dataclass(frozen=True)
class Submission:
    name: str
    path: Path
    problem: str | None = None  # why it cannot be graded, if it cannot


@dataclass(frozen=True)
class Entry:
    """One row of the gradebook: a report, or the reason there is none."""

    name: str
    path: str
    report: Report | None
    error: str | None = None


@dataclass(frozen=True)
class Gradebook:
    exercise: str
    case_names: tuple[str, ...]
    entries: tuple[Entry, ...]
    shard: str | None = None
    interrupted: bool = False


def _script_problem(path: Path) -> str | None:
    if path.suffix != ".py":
        return "not a Python script (.py)"
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"unreadable: {exc.strerror}"
    if b"\0" in data:
        return "a binary file, not a Python script"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8 text"
    return None


def _visible(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith("."))


def _from_folder(folder: Path, name: str) -> Submission:
    scripts = [p for p in _visible(folder) if p.suffix == ".py" and p.is_file()]
    if len(scripts) != 1:
        found = ", ".join(p.name for p in scripts) or "none"
        return Submission(name, folder, f"expected one .py file in the folder, found {found}")
    return Submission(name, scripts[0], _script_problem(scripts[0]))


def discover(paths: Sequence[str]) -> list[Submission]:
    """Submissions from files, folders and (quoted) globs, sorted by name.

    A file is one submission. A folder holding one .py file (and no sub-folders) is one submission
    named after the folder. Any other folder is a class: each sub-folder and file in it is one.
    """
    found: list[Submission] = []
    for raw in paths:
        matches = [Path(raw)] if Path(raw).exists() else [Path(p) for p in sorted(glob.glob(raw))]
        if not matches:
            raise UsageError(f"no submission at {raw}")
        for path in matches:
            found.extend(_expand(path))
    names = [s.name for s in found]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise UsageError(f"two submissions are named {duplicates[0]}; pass distinct paths")
    return sorted(found, key=lambda s: s.name)


def _expand(path: Path) -> list[Submission]:
    if not path.is_dir():
        return [Submission(str(path), path, _script_problem(path))]
    children = _visible(path)
    if sum(p.suffix == ".py" for p in children) == 1 and not any(p.is_dir() for p in children):
        return [_from_folder(path, path.name)]
    return [
        _from_folder(child, child.name)
        if child.is_dir()
        else Submission(
            child.stem if child.suffix == ".py" else child.name, child, _script_problem(child)
        )
        for child in children
    ]


def parse_shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise UsageError(f"--shard takes K/N, e.g. 2/4, not {text!r}") from None
    if not 1 <= k <= n:
        raise UsageError(f"--shard {text}: K must be between 1 and N")
    return k, n


def shard(submissions: Sequence[Submission], k: int, n: int) -> list[Submission]:
    """The K-th of N deterministic slices of the sorted submissions (round robin, 1-based)."""
    ordered = sorted(submissions, key=lambda s: s.name)
    return [s for i, s in enumerate(ordered) if i % n == k - 1]


def grade_batch(
    exercise: Exercise,
    submissions: Sequence[Submission],
    *,
    cases: Sequence[Case],
    runner: Runner,
    jobs: int,
    timeout_s: float | None = None,
    shard_label: str | None = None,
    on_done: Callable[[Entry], None] | None = None,
    cancel: Callable[[], None] | None = None,
) -> Gradebook:
    """Grade each submission (its cases one after another; ``jobs`` submissions at a time).

    On Ctrl-C, ``cancel`` (the sandbox's) ends the runs in progress; the gradebook keeps the
    submissions that were fully graded before and is marked interrupted.
    """

    def one(sub: Submission) -> Entry:
        if sub.problem is not None:
            return Entry(sub.name, str(sub.path), None, sub.problem)
        try:
            report = grade(
                exercise, sub.path, cases=cases, runner=runner, jobs=1, timeout_s=timeout_s
            )
        except GraderError as exc:
            return Entry(sub.name, str(sub.path), None, str(exc))
        return Entry(sub.name, str(sub.path), report)

    done: dict[str, Entry] = {}
    interrupted = False
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    pending: set[Future[Entry]] = {pool.submit(one, s) for s in submissions}
    try:
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                entry = future.result()
                done[entry.name] = entry
                if on_done is not None:
                    on_done(entry)
    except KeyboardInterrupt:
        interrupted = True
        for future in pending:
            future.cancel()
        if cancel is not None:
            cancel()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return Gradebook(
        exercise=exercise.name,
        case_names=tuple(c.name for c in cases),
        entries=tuple(done[name] for name in sorted(done)),
        shard=shard_label,
        interrupted=interrupted,
    )
