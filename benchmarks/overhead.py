"""Print what grade costs over plain runs, as ratios measured in this one run (machines are noisy).

    python benchmarks/overhead.py

1. `grade --help` vs `python -c "import click"`: start-up (numpy must never be imported).
2. A sandboxed run vs a bare `subprocess.run` of the same script, per isolation layer added.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from grader.sandbox import Layer, Limits, Sandbox, SandboxMode

REPEAT = 15
PROGRAMS = {"print": "print(1)\n", "numpy": "import numpy\nprint(numpy.arange(3).sum())\n"}


def best_of(action: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    grade = str(Path(sys.executable).with_name("grade"))
    help_s = best_of(lambda: subprocess.run([grade, "--help"], capture_output=True))
    click_s = best_of(lambda: subprocess.run([sys.executable, "-c", "import click"]))
    print(
        f"startup: grade --help {help_s * 1e3:.0f} ms, import click {click_s * 1e3:.0f} ms, "
        f"ratio {help_s / click_s:.2f}"
    )
    auto = Sandbox.create(SandboxMode.AUTO)
    stacks: list[tuple[str, frozenset[Layer]]] = [("off", frozenset())]
    added: set[Layer] = set()
    for layer in (Layer.NAMESPACES, Layer.MOUNTS, Layer.LANDLOCK, Layer.SECCOMP, Layer.UID):
        if layer in auto.layers:
            added.add(layer)
            stacks.append((f"+{layer}", frozenset(added)))
    with tempfile.TemporaryDirectory() as tmp:
        for name, source in PROGRAMS.items():
            script = Path(tmp) / f"prog_{name}.py"  # not numpy.py: it would import itself
            script.write_text(source)
            argv = [sys.executable, str(script)]
            bare = best_of(partial(subprocess.run, argv, capture_output=True))
            print(f"{name}: bare subprocess.run {bare * 1e3:.1f} ms")
            for label, layers in stacks:
                box = Sandbox(SandboxMode.AUTO, layers, {})
                took = best_of(partial(box.run, argv, stdin=b"", limits=Limits()))
                print(f"  {label:<12} {took * 1e3:6.1f} ms   ratio to bare {took / bare:.2f}")


if __name__ == "__main__":
    main()
