"""Grade against running the script by hand, as ratios measured in this one run, interleaved
(these machines are noisy: each round times every contender once, and medians are printed).

    python benchmarks/speed.py [--rounds 5] [--class-size 50]

On the same 21 quantize cases (the shipped ones, public and secret, and ten generated ones,
small to 100k weights) with a numpy solution:
  bare    a sequential shell loop: python sol.py < x.in > out; cmp out x.out
  xargs   the same, two at a time (xargs -P2)
  fresh   grade quantize sol.py --isolation fresh (a new interpreter per case)
  fork    grade quantize sol.py (the fork server, numpy preloaded)
  unboxed the same with --sandbox off: the floor the sandbox's layers add to
then `grade batch` on CLASS_SIZE copies of the submission (case-runs per second, fork server),
with and without the sandbox, and `grade --help` against `python -c "import click, rich"`.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SOLUTION = PROJECT / "reference" / "quantize" / "accepted" / "numpy_vectorised.py"


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--class-size", type=int, default=50)
    args = parser.parse_args()
    grade = str(Path(sys.executable).with_name("grade"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = _cases(folder)
        n = len(list(cases.glob("*.in")))
        loop = (
            f'for f in {cases}/*.in; do "{sys.executable}" {SOLUTION} < "$f" > {folder}/out; '
            f'cmp -s {folder}/out "${{f%.in}}.out"; done'
        )
        one = f'"{sys.executable}" {SOLUTION} < "$1" > "$1.got"; cmp -s "$1.got" "${{1%.in}}.out"'
        xargs = f"ls {cases}/*.in | xargs -P2 -n1 sh -c '{one}' sh"
        contenders = {
            "bare": ["bash", "-c", loop],
            "xargs": ["bash", "-c", xargs],
            "fresh": [
                grade,
                "quantize",
                str(SOLUTION),
                "--cases",
                str(cases),
                "--format",
                "json",
                "--isolation",
                "fresh",
            ],
            "fork": [grade, "quantize", str(SOLUTION), "--cases", str(cases), "--format", "json"],
        }
        # the same without the sandbox: what starting, forking and comparing cost by themselves
        contenders["unboxed"] = [*contenders["fork"], "--sandbox", "off"]
        times: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(args.rounds):
            for name, argv in contenders.items():
                times[name].append(_timed(lambda a=argv: subprocess.run(a, capture_output=True)))
        bare = statistics.median(times["bare"])
        print(f"{n} quantize cases, numpy solution, median of {args.rounds} interleaved rounds:")
        for name, found in times.items():
            median = statistics.median(found)
            print(f"  {name:<7} {median:6.2f} s   {median / bare:5.2f}x the bare loop")
        klass = folder / "class"
        for i in range(args.class_size):
            (klass / f"s{i:03d}").mkdir(parents=True)
            shutil.copy(SOLUTION, klass / f"s{i:03d}" / "quantize.py")
        batch = [grade, "batch", "quantize", str(klass), "--cases", str(cases)]
        runs = args.class_size * n
        for label, extra in (("batch", []), ("batch, no sandbox", ["--sandbox", "off"])):
            spent = _timed(lambda e=extra: subprocess.run([*batch, *e], capture_output=True))
            print(
                f"  {label}: {args.class_size} submissions x {n} cases, "
                f"{runs / spent:.0f} case-runs/s"
            )
        help_s = statistics.median(
            _timed(lambda: subprocess.run([grade, "--help"], capture_output=True))
            for _ in range(args.rounds * 2)
        )
        base = statistics.median(
            _timed(lambda: subprocess.run([sys.executable, "-c", "import click, rich"]))
            for _ in range(args.rounds * 2)
        )
        print(
            f"  grade --help {help_s * 1e3:.0f} ms, import click, rich {base * 1e3:.0f} ms: "
            f"{help_s / base:.2f}x"
        )


if __name__ == "__main__":
    main()
