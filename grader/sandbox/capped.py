"""A portable run's stdout and stderr, each read to its end on a thread of its own and kept up
to the output cap: past it the run is stopped, and the stream that went over is named."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import IO

READY = b"\x06"  # _portable_child.READY: the child is up, the script's clock starts
# after it, the CPU seconds the child used to get up, in ASCII (_portable_child.up_header)
_CPU_FIELD = 20
HEADER = len(READY) + _CPU_FIELD


def up_header(cpu_s: float) -> bytes:
    """What the child writes on stdout before the script runs: the ready byte and the CPU time
    its start took (the machine's, as the start's wall time is); as ``_portable_child`` does."""
    return READY + b"%020.6f" % cpu_s


_CHUNK = 65536
# After the run's kill, how long its pipes are read on: what the killed processes wrote is
# there at once; only a process the kill missed keeps a pipe open longer
DRAIN_S = 2.0


class Capped:
    """Reads one stream to its end on a thread of its own, keeping at most ``cap`` bytes (after
    the child's ready byte, on stdout); past the cap it calls ``over`` and stops reading."""

    def __init__(self, stream: IO[bytes], cap: int, over: Callable[[], None], marked: bool):
        self.data = bytearray()
        self.ready = not marked
        self.ready_at = 0.0  # when the ready byte came: the script's clock starts there
        self.cpu_at_ready: float | None = None  # what the child said its start used
        self.up = threading.Event()  # the ready byte came, or the stream ended without it
        self.over = False
        self._stream, self._cap, self._on_over, self._marked = stream, cap, over, marked
        self._lock = threading.Lock()
        self._ended = self._left = False
        self._thread = threading.Thread(target=self._read, daemon=True, name="grade-read")
        self._thread.start()

    def _read(self) -> None:
        head: bytearray | None = bytearray() if self._marked else None
        try:
            with contextlib.suppress(OSError, ValueError):
                while chunk := self._stream.read(_CHUNK):
                    if head is not None:
                        head += chunk
                        if head[:1] != READY:  # not the child's: it failed before it was up
                            chunk, head = bytes(head), None
                            self.up.set()
                        elif len(head) < HEADER:  # written at once; read in parts, maybe
                            continue
                        else:
                            self.ready_at = time.monotonic()
                            self.cpu_at_ready = _seconds(bytes(head[len(READY) : HEADER]))
                            self.ready, chunk, head = True, bytes(head[HEADER:]), None
                            self.up.set()
                    self.data += chunk
                    if len(self.data) > self._cap:
                        del self.data[self._cap :]
                        self.over = True
                        self._on_over()
                        return
        finally:
            self.up.set()
            with self._lock:
                self._ended = True
                if self._left:  # the grader went on without it: the pipe is this thread's
                    self._stream.close()

    def join(self, within_s: float = DRAIN_S) -> bytes:
        """What was read, once the stream ended or ``within_s`` passed: a process the run's
        kill did not reach (one that left its group, where no tree watch saw it) may hold the
        pipe open for ever, and the grader must not wait on it."""
        self._thread.join(within_s)
        with self._lock:
            if not self._ended:  # the reader, a daemon blocked on the pipe, closes it at its end
                self._left = True
                return bytes(self.data)
        self._stream.close()
        return bytes(self.data)


def _seconds(field: bytes) -> float | None:
    try:
        return float(field.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
