"""A portable run's stdout and stderr, each read to its end on a thread of its own and kept up
to the output cap: past it the run is stopped, and the stream that went over is named."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import IO

READY = b"\x06"  # _portable_child.READY: the child is up, the script's clock starts
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
        self.up = threading.Event()  # the ready byte came, or the stream ended without it
        self.over = False
        self._stream, self._cap, self._on_over, self._marked = stream, cap, over, marked
        self._lock = threading.Lock()
        self._ended = self._left = False
        self._thread = threading.Thread(target=self._read, daemon=True, name="grade-read")
        self._thread.start()

    def _read(self) -> None:
        first = self._marked
        try:
            with contextlib.suppress(OSError, ValueError):
                while chunk := self._stream.read(_CHUNK):
                    if first:
                        first = False
                        if chunk[:1] != READY:
                            self.data += chunk  # not the child's: it failed before it was up
                            self.up.set()
                            continue
                        self.ready_at = time.monotonic()
                        self.ready, chunk = True, chunk[1:]
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
