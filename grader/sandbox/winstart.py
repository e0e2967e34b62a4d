"""A portable run started on Windows: in a Job Object (``winjob.py``) that holds its whole tree,
its memory, its CPU time and its number of processes, and gives its figures."""

from __future__ import annotations

import contextlib
import subprocess
import time
from pathlib import Path
from typing import IO

from ..judging.runs import Limits
from ..judging.timing import cpu_cap_s
from .platforms import PROCESSES
from .runclock import Started


def start_windows(
    argv: list[str], env: dict[str, str], stdin: IO[bytes], cwd: Path, limits: Limits
) -> Started:
    from . import winjob  # pywin32, which only Windows has: imported at the first run

    job = winjob.Job(
        memory_bytes=limits.memory_mb << 20,
        cpu_s=cpu_cap_s(limits.time_s),
        processes=PROCESSES,
    )
    try:
        process: subprocess.Popen[bytes] = job.start(argv, env=env, stdin=stdin, cwd=cwd)
    except BaseException:
        job.close()
        raise
    start = time.monotonic()
    assert process.stdout is not None and process.stderr is not None

    def wait(timeout: float) -> int | None:
        try:
            return process.wait(timeout=max(0.0, timeout))
        except subprocess.TimeoutExpired:
            return None

    def close() -> None:
        job.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        job.close()

    return Started(
        wait=wait,
        kill=job.kill,
        cpu_s=lambda: job.cpu_s(process),
        usage_now=lambda: (job.cpu_s(process), None),  # the job's accounting is live
        close=close,
        stdout=process.stdout,
        stderr=process.stderr,
        start=start,
        cpu_limited=lambda status: job.cpu_limited(status),
        peak_bytes=job.peak_bytes,
    )
