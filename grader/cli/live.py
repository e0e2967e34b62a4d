"""``grade check`` printing as it goes: the header at once, each case as soon as it and the
ones before it are known (in case order, so the report reads as the final one), and on a
terminal a status line on stderr while a case is running."""

from __future__ import annotations

import threading
import time
from typing import TextIO

from rich.text import Text

from ..judging.records import CaseFeedback, Feedback, FuzzFeedback, Verdict
from ..render.escape import log_safe
from ..render.text import TextReport, ansi, fuzz_section

_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
_CLEAR = "\r\x1b[K"
EXITFIRST_TIP = "(-x stops at the first case that fails: one time limit to wait, not one per case)"


class Live:
    def __init__(
        self,
        titles: list[str],
        *,
        color: bool,
        verbosity: int,
        diff: bool,
        out: TextIO,
        status: TextIO | None,
        limit_s: float | None = None,
        tip_exitfirst: bool,
    ) -> None:
        self.report = TextReport(titles, verbosity, diff=diff)
        self.color = color
        self.out = out
        self.status = status  # a terminal's stderr, for the "running" line; else None
        self.total = len(titles)
        self.done = 0
        self.compile_error = False
        self.limit_s = limit_s  # each case's time limit, shown against the waiting case's time
        # a person at a terminal, without -x: the first time-out says that -x stops there (an
        # endless loop otherwise costs one time limit per case, 48-56 s where -x takes 9)
        self.tip_exitfirst = tip_exitfirst
        self._since = time.monotonic()  # when the case waited for began to be waited for
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._spinner: threading.Thread | None = None

    def _write(self, text: Text) -> None:
        shown = log_safe(ansi(text) if self.color else text.plain)  # a CI log may take it
        with self._lock:
            if self.status is not None:
                self.status.write(_CLEAR)
                self.status.flush()
            self.out.write(shown)
            self.out.flush()

    def start(self, exercise: str, submission: str, compile_error: str) -> None:
        self.compile_error = bool(compile_error)
        self._since = time.monotonic()
        self._write(self.report.header(exercise, submission, compile_error))
        if self.status is not None and not compile_error:
            self._spinner = threading.Thread(target=self._spin, daemon=True)
            self._spinner.start()

    def on_case(self, shown: CaseFeedback) -> None:
        """One case, as the student may see it (the grading loop applied visibility)."""
        self.done += 1
        self._since = time.monotonic()
        out = self.report.case(shown, compile_error=self.compile_error)
        if self.tip_exitfirst and shown.verdict is Verdict.TIMEOUT:
            self.tip_exitfirst = False  # said once
            out.append(f"     {EXITFIRST_TIP}\n", style="dim")
        self._write(out)

    def status_line(self, frame: int, now: float) -> str:
        """The running line: how far, and how long the next case to report has been waited
        for, against its limit (a case over it on the clock is on a busy machine's stretch)."""
        spin = _FRAMES[frame % len(_FRAMES)]
        line = f"{spin} running: {self.done}/{self.total} cases done"
        if self.limit_s is not None and self.done < self.total:
            line += f" · case {self.done + 1}: {now - self._since:.1f} s of {self.limit_s:g} s"
        return line

    def _spin(self) -> None:
        frame = 0
        # a redraw every tenth of a second is the spinner's whole job: nothing waits on it
        while not self._stop.wait(0.1):
            with self._lock:
                assert self.status is not None
                self.status.write(_CLEAR + self.status_line(frame, time.monotonic()))
                self.status.flush()
            frame += 1

    def stop(self) -> None:
        """End the status line (also when interrupted: the terminal is left clean)."""
        self._stop.set()
        if self._spinner is not None:
            self._spinner.join()
            self._spinner = None
        if self.status is not None:
            self.status.write(_CLEAR)
            self.status.flush()

    def finish(self, feedback: Feedback, *, selected: str) -> None:
        self.stop()
        self._write(self.report.footer(feedback, selected=selected))

    def fuzz(self, fuzz: FuzzFeedback) -> None:
        """What ``--fuzz`` found, under the summary: it runs after the cases."""
        self._write(fuzz_section(fuzz))
