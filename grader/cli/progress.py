"""The batch progress bar on stderr: ETA, done/total and failures so far; nothing when stderr is
not a terminal (CI logs), so that only the results remain."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from ..gradebook import Entry


@contextmanager
def batch_progress(total: int, stream: TextIO) -> Iterator[Callable[[Entry], None]]:
    if not stream.isatty():
        yield lambda entry: None
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
