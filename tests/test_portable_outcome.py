"""What the grader says of a portable run from what its start tells (``portable._wait``), on
a synthetic start: the runner's own lines a student reads in the run's stderr, and the
grader's error when a killed run will not go. A real run cannot reach either here (a process
hides its memory only from a grader that is not root; a killed run always goes)."""

from __future__ import annotations

import io
import os
import time

import pytest

from grader.judging.errors import InternalError
from grader.judging.runs import Limits
from grader.sandbox import portable
from grader.sandbox.capped import Capped, up_header
from grader.sandbox.runclock import Started

PROCESSES = b"\ngrade: more than 64 processes at once; stopped\n"
HIDDEN = b"\ngrade: a process of the run hid its memory from the grader; stopped\n"


def _started(status: int | None, *, over_limit: str | None = None, hidden: bool = False) -> Started:
    """A run that printed ``hi`` and wrote ``oops`` to stderr, ending with ``status`` (None: it
    never ends, killed or not)."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    os.write(out_w, up_header(0.0) + b"hi\n")
    os.write(err_w, b"oops")
    os.close(out_w)
    os.close(err_w)
    return Started(
        wait=lambda timeout: status,
        kill=lambda: None,
        cpu_s=lambda: 0.25,
        usage_now=lambda: (None, None),
        close=lambda: None,
        stdout=os.fdopen(out_r, "rb", buffering=0),
        stderr=os.fdopen(err_r, "rb", buffering=0),
        start=time.monotonic(),
        cpu_limited=lambda status: False,
        over_limit=lambda: over_limit,
        hidden=lambda: hidden,
        peak_bytes=lambda: 3 << 20,
    )


@pytest.mark.parametrize(
    ("over_limit", "hidden", "said"),
    [
        (None, False, b""),
        ("processes", False, PROCESSES),
        ("memory", False, b""),  # its MemoryError, or its kill, says it: the report's own words
        ("memory", True, HIDDEN),
        ("processes", True, PROCESSES),  # the count first: it needs no reading of memory
    ],
)
def test_the_runners_own_line_says_why_it_stopped_a_run(
    over_limit: str | None, hidden: bool, said: bytes
) -> None:
    done = portable._wait(_started(-9, over_limit=over_limit, hidden=hidden), Limits(), None)
    assert (done.stdout, done.stderr, done.over) == (b"hi\n", b"oops" + said, None)
    assert (done.exit.status, done.exit.over_limit, done.exit.cpu_s) == (-9, over_limit, 0.25)
    assert (done.exit.queued_s, done.exit.cpu_limited) == (0.0, False)
    assert (done.exit.peak_bytes, done.exit.sandbox_ready, done.exit.timed_out) == (
        3 << 20,
        True,
        False,
    )


def test_a_killed_run_that_will_not_go_is_the_graders_error() -> None:
    with pytest.raises(InternalError, match=r"^a killed run did not end within 60 s$"):
        portable._wait(_started(None), Limits(time_s=0.01), None)


def test_a_pipe_held_open_keeps_neither_the_run_nor_the_grader() -> None:
    """A process the run's kill missed may hold a pipe open for ever: the grader takes what
    was written and goes on, and the reader it leaves is no thread the grader's exit waits
    for; once the pipe ends, the reader closes it."""
    r, w = os.pipe()
    stream = os.fdopen(r, "rb", buffering=0)
    os.write(w, up_header(0.0) + b"so far")
    reader = Capped(stream, 1024, lambda: None, marked=True)
    assert reader.up.wait(10)
    assert (reader.join(within_s=0.0), reader.ready) == (b"so far", True)
    assert reader._thread.daemon and reader._thread.is_alive()
    os.close(w)
    reader._thread.join(10)
    assert stream.closed


def test_output_past_the_cap_is_cut_at_it_and_stops_the_run() -> None:
    r, w = os.pipe()
    stopped: list[bool] = []
    os.write(w, up_header(0.0) + b"x" * 100)
    os.close(w)
    reader = Capped(os.fdopen(r, "rb", buffering=0), 64, lambda: stopped.append(True), True)
    assert (reader.join(10), reader.over, stopped) == (b"x" * 64, True, [True])


class _Failing(io.RawIOBase):
    """A stream whose second read fails as a pipe's may (a Windows pipe's broken end)."""

    def __init__(self, error: Exception) -> None:
        self.reads, self.error = 0, error

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        self.reads += 1
        if self.reads > 1:
            raise self.error
        return up_header(0.0) + b"up"


@pytest.mark.parametrize("error", [OSError(32, "Broken pipe"), ValueError("closed")])
def test_a_read_that_fails_ends_the_stream_with_what_came(error: Exception) -> None:
    reader = Capped(_Failing(error), 1024, lambda: None, marked=True)  # type: ignore[arg-type]
    assert (reader.join(10), reader.ready, reader.over) == (b"up", True, False)


class _Parts:
    """A stream that returns ``parts`` one read at a time, then its end."""

    def __init__(self, parts: list[bytes]) -> None:
        self.parts = parts

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        return self.parts.pop(0) if self.parts else b""

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("parts", "shown", "cpu"),
    [
        ([up_header(0.25) + b"out"], b"out", 0.25),
        ([up_header(0.25)[:5], up_header(0.25)[5:] + b"out"], b"out", 0.25),  # a pipe's parts
        ([b"\x06" + b"not a number here!!" + b"!out"], b"out", None),  # up; its CPU unknown
        ([b"Traceback"], b"Traceback", None),  # no header: the child failed before it was up
    ],
)
def test_the_childs_header_says_it_is_up_and_what_its_start_used(
    parts: list[bytes], shown: bytes, cpu: float | None
) -> None:
    reader = Capped(_Parts(parts), 1024, lambda: None, marked=True)  # type: ignore[arg-type]
    assert (reader.join(10), reader.cpu_at_ready) == (shown, cpu)
    assert reader.ready is (shown == b"out")
