"""A batch's progress on stderr: a live bar (ETA, done/total, failures so far) where stdout and
stderr are both a terminal; elsewhere (a CI log, ``| cat``) a line per finished submission,
flushed as it finishes, so that a long class never looks hung."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from ..running.gradebook import Entry


@contextmanager
def batch_progress(
    total: int, stream: TextIO, results: TextIO | None = None
) -> Iterator[Callable[[Entry], None]]:
    if not stream.isatty() or (results is not None and not results.isatty()):
        from ..render.classbook import progress_line

        count = 0

        def line(entry: Entry) -> None:
            nonlocal count
            count += 1
            stream.write(progress_line(count, total, entry) + "\n")
            stream.flush()

        yield line
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    failed = 0
    progress = Progress(
        TextColumn("grading"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("· {task.fields[failed]} not passing ·"),
        TimeRemainingColumn(),
        console=Console(file=stream),
        transient=True,
    )
    task = progress.add_task("grading", total=total, failed=0)

    def done(entry: Entry) -> None:
        nonlocal failed
        if entry.feedback is None or entry.feedback.passed < entry.feedback.total:
            failed += 1
        progress.update(task, advance=1, failed=failed)

    with progress:
        yield done
