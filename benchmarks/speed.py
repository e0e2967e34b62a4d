"""Grade against running the script by hand, as ratios measured in this one run, interleaved
(these machines are noisy: each round times every contender once, and medians are printed).

    python benchmarks/speed.py [--rounds 5] [--class-size 50] [--against OTHER_CHECKOUT]

On the same 26 quantize cases (the shipped ones, public and secret, and ten generated ones,
small to 100k weights) with a numpy solution, each round runs once each of:
  bare    a sequential shell loop: python sol.py < x.in > out; cmp out x.out
  xargs   the same, two at a time (xargs -P2)
  fresh   grade quantize sol.py --isolation fresh (a new interpreter per case)
  fork    grade quantize sol.py (the fork servers, numpy preloaded)
  unboxed the same with --sandbox off: the floor the sandbox's layers add to
  batch   grade batch on CLASS_SIZE copies of the submission (case-runs per second)
  batch-off  the same with --sandbox off
  setup   the per-run set-up: the library's Sandbox.run of an empty script, 50 times, sandboxed
  setup-off  the same with --sandbox off
then `grade --help` against `python -c "import click, rich"`.

With --against, the grade contenders of another checkout (its .venv) run in the same rounds,
named NAME@other: a change measured against the code before it, in the same minutes.

Whole-tree CPU: where this runs as root with cgroup v1's cpuacct (this machine), each contender
runs in a group of its own, which counts every process it starts, the fork servers' siblings
and their runs included (a parent's rusage misses those: they are not its children's); else
only the wall time is printed. Where the environment says PYTHONDONTWRITEBYTECODE, the grade
processes get a cache folder of this run's own (PYTHONPYCACHEPREFIX): an installed grade has
its bytecode, which pip writes, and start-up measured without it would be compile time; for
the same reason each checkout's grader package is compiled beside its sources first, where pip
puts it and where the fork servers (python -I) look.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SOLUTION = PROJECT / "reference" / "quantize" / "accepted" / "numpy_vectorised.py"
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
SETUP_RUNS = 50
_groups = itertools.count()

# Run by a checkout's own python: N runs of an empty script through the library, after one to
# warm the fork server; prints the wall seconds of the N runs and the CPU seconds its whole
# tree spent meanwhile (its cpuacct group's, -1 where it has none).
SETUP = """
import sys, time, tempfile, pathlib
from grader.sandbox import Isolation, Limits, Sandbox, SandboxMode
mode, n = SandboxMode(sys.argv[1]), int(sys.argv[2])
def used():
    for line in open("/proc/self/cgroup"):
        _, names, path = line.strip().split(":", 2)
        if "cpuacct" in names.split(",") and path != "/":
            return int(open(f"/sys/fs/cgroup/cpuacct{path}/cpuacct.usage").read()) / 1e9
    return None
box = Sandbox.create(mode, isolation=Isolation.FORK, warm=1)
with tempfile.TemporaryDirectory() as tmp:
    script = pathlib.Path(tmp, "empty.py")
    script.write_text("pass\\n")
    argv = [sys.executable, str(script)]
    box.run(argv, stdin=b"", limits=Limits(time_s=10))
    cpu, start = used(), time.perf_counter()
    for _ in range(n):
        box.run(argv, stdin=b"", limits=Limits(time_s=10))
    wall, after = time.perf_counter() - start, used()
    print(wall, -1 if cpu is None or after is None else after - cpu)
box.close()
"""


@dataclass(frozen=True)
class Timed:
    wall_s: float
    cpu_s: float | None  # the whole tree's, where a group could count it
    stdout: bytes


def _can_count() -> bool:
    return os.geteuid() == 0 and (CPUACCT / "cgroup.procs").is_file()


def _run(argv: Sequence[str], env: dict[str, str] | None = None) -> Timed:
    """``argv`` to its end, timed; its whole tree's CPU where a cpuacct group can count it."""
    group: Path | None = None
    if _can_count():
        group = CPUACCT / f"grade-bench-{os.getpid()}-{next(_groups)}"
        group.mkdir()
    procs = str(group / "cgroup.procs") if group else None

    def join() -> None:  # in the child, before exec: all it starts is born in the group
        if procs is not None:
            with open(procs, "w") as f:
                f.write("0")

    try:
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, env=env, preexec_fn=join)
        wall = time.perf_counter() - start
        cpu = int((group / "cpuacct.usage").read_text()) / 1e9 if group else None
    finally:
        if group is not None:
            _remove(group)
    return Timed(wall, cpu, done.stdout)


def _remove(group: Path) -> None:
    """The group, once the last of its processes (a fork server exiting) has left it."""
    for _ in range(500):
        with contextlib.suppress(OSError):
            group.rmdir()
            return
        time.sleep(0.01)


def _cases(folder: Path) -> Path:
    """The shipped cases (public and secret) and ten from the generator."""
    cases = folder / "cases"
    cases.mkdir()
    for source in sorted((PROJECT / "cases" / "quantize").glob("*/*.in")):
        shutil.copy(source, cases)
        shutil.copy(source.with_suffix(".out"), cases)
    generator = PROJECT / "reference" / "quantize" / "generate.py"
    reference = PROJECT / "reference" / "quantize" / "solution.py"
    for seed in range(10):
        data = subprocess.run(
            [sys.executable, str(generator), str(seed), str(10 ** (seed % 5 + 1))],
            capture_output=True,
            check=True,
        ).stdout
        (cases / f"g{seed:02d}.in").write_bytes(data)
        out = subprocess.run(
            [sys.executable, str(reference)], input=data, capture_output=True, check=True
        )
        (cases / f"g{seed:02d}.out").write_bytes(out.stdout)
    return cases


@contextlib.contextmanager
def _environment(folder: Path) -> Iterator[dict[str, str]]:
    env = dict(os.environ)
    if env.get("PYTHONDONTWRITEBYTECODE"):
        env.pop("PYTHONDONTWRITEBYTECODE")
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pyc")
    yield env


def _installed_bytecode(python: Path, checkout: Path) -> None:
    """The grader package's bytecode beside its sources, as pip writes it at install: a fork
    server (``python -I``: no PYTHONPYCACHEPREFIX) loads its layer modules from there."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHONPYCACHE")}
    subprocess.run(
        [str(python), "-m", "compileall", "-q", str(checkout / "grader")], env=env, check=True
    )


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--class-size", type=int, default=50)
    parser.add_argument("--against", type=Path, help="another checkout, with its own .venv")
    args = parser.parse_args()
    checkouts = {"": Path(sys.executable)}
    folders = [PROJECT]
    if args.against is not None:
        checkouts["@other"] = args.against.resolve() / ".venv" / "bin" / "python"
        folders.append(args.against.resolve())
    for python, folder in zip(checkouts.values(), folders, strict=True):
        _installed_bytecode(python, folder)
    with tempfile.TemporaryDirectory() as tmp, _environment(Path(tmp)) as env:
        folder = Path(tmp)
        cases = _cases(folder)
        n = len(list(cases.glob("*.in")))
        klass = folder / "class"
        for i in range(args.class_size):
            (klass / f"s{i:03d}").mkdir(parents=True)
            shutil.copy(SOLUTION, klass / f"s{i:03d}" / "quantize.py")
        loop = (
            f'for f in {cases}/*.in; do "{sys.executable}" {SOLUTION} < "$f" > {folder}/out; '
            f'cmp -s {folder}/out "${{f%.in}}.out"; done'
        )
        one = f'"{sys.executable}" {SOLUTION} < "$1" > "$1.got"; cmp -s "$1.got" "${{1%.in}}.out"'
        xargs = f"ls {cases}/*.in | xargs -P2 -n1 sh -c '{one}' sh"
        contenders: dict[str, list[str]] = {
            "bare": ["bash", "-c", loop],
            "xargs": ["bash", "-c", xargs],
        }
        for suffix, python in checkouts.items():
            grade = [str(python.with_name("grade"))]
            check = [*grade, "quantize", str(SOLUTION), "--cases", str(cases), "--format", "json"]
            batch = [*grade, "batch", "quantize", str(klass), "--cases", str(cases)]
            contenders |= {
                f"fresh{suffix}": [*check, "--isolation", "fresh"],
                f"fork{suffix}": check,
                f"unboxed{suffix}": [*check, "--sandbox", "off"],
                f"batch{suffix}": batch,
                f"batch-off{suffix}": [*batch, "--sandbox", "off"],
                f"setup{suffix}": [str(python), "-c", SETUP, "auto", str(SETUP_RUNS)],
                f"setup-off{suffix}": [str(python), "-c", SETUP, "off", str(SETUP_RUNS)],
            }
        for name, argv in contenders.items():  # once, unmeasured: caches and bytecode warm
            if name.startswith(("fork", "unboxed")):
                subprocess.run(argv, capture_output=True, env=env)
        print(f"before: {_load()}; {n} quantize cases, numpy solution, {args.rounds} rounds")
        times: dict[str, list[Timed]] = {name: [] for name in contenders}
        for _ in range(args.rounds):
            for name, argv in contenders.items():
                times[name].append(_run(argv, env))
        _report(times, n, args.class_size)
        _startup(checkouts, args.rounds, env)
        print(f"after: {_load()}")


def _median_cpu(found: list[Timed]) -> float | None:
    cpus = [t.cpu_s for t in found if t.cpu_s is not None]
    return statistics.median(cpus) if cpus else None


def _report(times: dict[str, list[Timed]], n: int, class_size: int) -> None:
    bare = statistics.median(t.wall_s for t in times["bare"])
    runs = n * class_size
    print("medians; cpu: the whole tree's, every process each started")
    for name, found in times.items():
        wall = statistics.median(t.wall_s for t in found)
        cpu = _median_cpu(found)
        if name.startswith("setup"):
            said = _setup(found)
        elif name.startswith("batch"):
            said = f"{runs / wall:6.0f} case-runs/s ({class_size} x {n})"
            said += "" if cpu is None else f", {cpu / runs * 1e3:.1f} ms CPU a case-run"
            # sandboxed against unboxed, same checkout, same run: the class figure that does not
            # move with the machine's speed of the day (issue 39)
            unboxed = times.get("batch-off" + name.removeprefix("batch"))
            if not name.startswith("batch-off") and unboxed:
                off = statistics.median(t.wall_s for t in unboxed)
                said += f", {off / wall:.2f}x --sandbox off's rate"
        else:
            said = f"{wall:6.2f} s   {wall / bare:5.2f}x the bare loop"
            said += "" if cpu is None else f", CPU {cpu:.2f} s"
        print(f"  {name:<16} {said}")


def _setup(found: list[Timed]) -> str:
    """What the SETUP program said: a run's wall and whole-tree CPU, the runs alone."""
    pairs = [[float(x) for x in t.stdout.split()] for t in found if t.stdout.strip()]
    if not pairs:
        return "did not run"
    wall = statistics.median(p[0] for p in pairs) / SETUP_RUNS
    said = f"{wall * 1e3:6.1f} ms a run of an empty script (wall)"
    cpus = [p[1] for p in pairs if p[1] >= 0]
    if cpus:
        said += f", {statistics.median(cpus) / SETUP_RUNS * 1e3:.1f} ms CPU"
    return said


def _startup(checkouts: dict[str, Path], rounds: int, env: dict[str, str]) -> None:
    """``grade --help`` against importing click and rich, interleaved too."""
    argvs = {"": [sys.executable, "-c", "import click, rich"]}
    argvs |= {
        suffix or "grade": [str(p.with_name("grade")), "--help"] for suffix, p in checkouts.items()
    }
    walls: dict[str, list[float]] = {name: [] for name in argvs}
    for _ in range(rounds * 2):
        for name, argv in argvs.items():
            walls[name].append(_run(argv, env).wall_s)
    base = statistics.median(walls.pop(""))
    for name, found in walls.items():
        help_s = statistics.median(found)
        shown = "grade" if name == "grade" else f"grade{name}"
        print(
            f"  {shown} --help {help_s * 1e3:.0f} ms, import click, rich "
            f"{base * 1e3:.0f} ms: {help_s / base:.2f}x"
        )


if __name__ == "__main__":
    main()
