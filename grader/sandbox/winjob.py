"""A Windows Job Object holding one portable run's process tree.

The run's first process starts suspended and joins the job before it runs a single instruction,
so everything it starts is in the job too: the job's limits (memory per process and of the job
in all, CPU time of the whole job, number of processes) hold for all of it, ending it ends all
of it, and closing its last handle (the grader's, however the grader ends) ends whatever is
left (kill on close).

pywin32's ``win32job`` is Windows' own API for this; psutil resumes the suspended process
(``subprocess`` does not keep its thread handle). Both are dependencies on Windows only.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from ..judging.errors import InternalError

try:
    import psutil
    import win32api
    import win32con
    import win32job as _win32job
    import win32process
except ImportError as exc:  # pragma: no cover - a broken install: the extras are declared
    raise InternalError(
        f"grade on Windows needs pywin32 and psutil ({exc}): pip install pywin32 psutil"
    ) from exc

# types-pywin32 has CreateJobObject return None, and the job's calls take ints: it is a handle
win32job: Any = _win32job
_CREATE_SUSPENDED = 0x00000004
_CREATE_NEW_PROCESS_GROUP = 0x00000200  # subprocess's own, which mypy sees on Windows only
_CREATE_NO_WINDOW = 0x08000000
_TICKS = 10_000_000  # job and process times count 100 ns
# What a process ended by the job's CPU time limit exits with (Windows' ERROR_NOT_ENOUGH_QUOTA)
_OUT_OF_TIME = 1816


class Job:
    def __init__(self, *, memory_bytes: int, cpu_s: int, processes: int) -> None:
        self._handle: Any = win32job.CreateJobObject(None, "")
        info = win32job.QueryInformationJobObject(
            self._handle, win32job.JobObjectExtendedLimitInformation
        )
        basic = info["BasicLimitInformation"]
        basic["LimitFlags"] = (
            win32job.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
            | win32job.JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION  # no error dialog waits
            | win32job.JOB_OBJECT_LIMIT_PROCESS_MEMORY
            | win32job.JOB_OBJECT_LIMIT_JOB_MEMORY  # the tree's in all: 80 children each under
            | win32job.JOB_OBJECT_LIMIT_JOB_TIME
            | win32job.JOB_OBJECT_LIMIT_ACTIVE_PROCESS
        )
        basic["PerJobUserTimeLimit"] = cpu_s * _TICKS
        basic["ActiveProcessLimit"] = processes
        info["ProcessMemoryLimit"] = info["JobMemoryLimit"] = memory_bytes
        win32job.SetInformationJobObject(
            self._handle, win32job.JobObjectExtendedLimitInformation, info
        )

    def start(
        self, argv: Sequence[str], *, env: Mapping[str, str], stdin: IO[bytes], cwd: Path
    ) -> subprocess.Popen[bytes]:
        """Start ``argv`` suspended, put it in the job, then let it run."""
        flags = _CREATE_SUSPENDED | _CREATE_NEW_PROCESS_GROUP | _CREATE_NO_WINDOW
        try:
            process = subprocess.Popen(
                list(argv),
                stdin=stdin,
                bufsize=0,  # reads return what is there: the ready byte as it comes
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=dict(env),
                cwd=cwd,
                creationflags=flags,
            )
        except OSError as exc:
            raise InternalError(f"cannot start {argv[0]}: {exc}") from exc
        try:
            handle = win32api.OpenProcess(
                win32con.PROCESS_SET_QUOTA | win32con.PROCESS_TERMINATE, False, process.pid
            )
            try:
                win32job.AssignProcessToJobObject(self._handle, handle)
            finally:
                win32api.CloseHandle(handle)
            psutil.Process(process.pid).resume()
        except Exception as exc:
            process.kill()
            process.wait()
            raise InternalError(f"cannot put the run in a Job Object: {exc}") from exc
        return process

    def kill(self) -> None:
        with contextlib.suppress(Exception):  # already ended, or closed: nothing is left
            win32job.TerminateJobObject(self._handle, 1)

    def cpu_s(self, process: subprocess.Popen[bytes]) -> float:
        """CPU time of the whole job; at least its first process's (where a job's accounting
        is not kept, as under Wine)."""
        acc = win32job.QueryInformationJobObject(
            self._handle, win32job.JobObjectBasicAccountingInformation
        )
        job = (int(acc["TotalUserTime"]) + int(acc["TotalKernelTime"])) / _TICKS
        try:
            times = win32process.GetProcessTimes(int(process._handle))  # type: ignore[attr-defined]
            own = (int(times["UserTime"]) + int(times["KernelTime"])) / _TICKS
        except Exception:
            own = 0.0
        return max(job, own)

    def peak_bytes(self) -> int | None:
        """The most memory the job's processes committed at once (the job's peak, which a
        Job Object keeps for its whole life); None where it says nothing (Wine)."""
        try:
            info = win32job.QueryInformationJobObject(
                self._handle, win32job.JobObjectExtendedLimitInformation
            )
            peak = max(int(info["PeakJobMemoryUsed"]), int(info["PeakProcessMemoryUsed"]))
        except Exception:
            return None
        return peak or None

    def cpu_limited(self, status: int) -> bool:
        return status == _OUT_OF_TIME

    def close(self) -> None:
        with contextlib.suppress(Exception):
            win32api.CloseHandle(self._handle)
