"""What /proc says of a run's processes while they live: their children and the CPU time they
used. Read just before a run is killed at its time limit, when nothing will be left to ask."""

from __future__ import annotations

import os

PROC = "/proc"  # tests read a /proc of their own making: the rules, not the real scheduler


def children(pid: int, proc: str = PROC) -> list[int]:
    """The children of ``pid``'s threads (empty if it is gone)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"{proc}/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"{proc}/{pid}/task/{task}/children") as f:
                found.extend(int(word) for word in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def tree(pid: int, proc: str = PROC) -> list[int]:
    """``pid`` and every process below it, as /proc says now."""
    found: list[int] = []
    todo = [pid]
    while todo:
        one = todo.pop()
        if one not in found:
            found.append(one)
            todo.extend(children(one, proc))
    return found


def usage(pid: int, proc: str = PROC) -> tuple[float, float]:
    """Of ``pid`` and every process below it, as /proc says now (of a run about to be killed,
    whose processes die unreaped by one another, so that no rusage counts them): the CPU
    seconds they used, and the longest any one of their threads waited, runnable, for a CPU
    (schedstat's second field; 0 where the kernel does not say)."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu, most = 0.0, 0
    for found in tree(pid, proc):
        try:
            with open(f"{proc}/{found}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            # utime, stime, cutime, cstime: fields 14 to 17 of proc(5), after the name
            cpu += sum(int(x) for x in fields[11:15]) / tick
            tasks = os.listdir(f"{proc}/{found}/task")
        except (OSError, ValueError, IndexError):
            continue
        for task in tasks:
            try:
                with open(f"{proc}/{found}/task/{task}/schedstat") as f:
                    most = max(most, int(f.read().split()[1]))
            except (OSError, ValueError, IndexError):
                continue
    return cpu, most / 1e9


def waits_known(proc: str = PROC) -> bool:
    """Whether this kernel says how long a thread waited, runnable, for a CPU (schedstat,
    CONFIG_SCHED_INFO): where it does not, ``usage`` reads every wait as none."""
    return os.path.isfile(f"{proc}/self/schedstat")
