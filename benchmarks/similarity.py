"""grade similar on synthetic classes of 100, 300 and 1,000 submissions: the wall time of
finding, fingerprinting, scoring every pair and writing both reports, and the peak memory
(the maximum resident set of a fresh process per size).

    python benchmarks/similarity.py [--sizes 100 300 1000] [--seed 1]

A synthetic student is one of kv-pages' 15 accepted and known-wrong solutions (about 100
lines each) with a third of its lines replaced by random statements at the same indentation
and a few random helper functions added: every pair of the same base shares many fragments
(the hard case for an index: about 1 in 15 of the class shares each fragment), and no two
students are the same text.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

_OPS = ("+", "-", "*", "//", "%")


def _statement(rng: random.Random) -> str:
    names = [f"v{rng.randrange(40)}" for _ in range(rng.randrange(2, 5))]
    expr = f" {rng.choice(_OPS)} ".join(names)
    return rng.choice(
        (
            f"{names[0]} = {expr}",
            f"{names[0]} += {rng.randrange(100)}",
            f"print({expr})",
            f"{names[0]} = [{expr} for _ in range({rng.randrange(9)})]",
        )
    )


def student(base: str, rng: random.Random) -> str:
    lines = []
    for line in base.splitlines():
        body = line.lstrip()
        simple = body and not body.endswith((":", ",", "(", "[", "{", "\\")) and '"""' not in body
        if simple and rng.random() < 0.33:
            line = line[: len(line) - len(body)] + _statement(rng)
        lines.append(line)
    for f in range(rng.randrange(1, 4)):
        lines.append(f"\n\ndef helper_{f}(v0, v1):")
        lines.extend("    " + _statement(rng) for _ in range(rng.randrange(3, 12)))
        lines.append("    return v0")
    return "\n".join(lines) + "\n"


def make_class(folder: Path, size: int, seed: int) -> None:
    material = PROJECT / "reference" / "kv-pages"
    bases = [
        p.read_text(encoding="utf-8")
        for p in sorted([*material.glob("accepted/*.py"), *material.glob("wrong/*.py")])
    ]
    rng = random.Random(seed)
    for i in range(size):
        (folder / f"student-{i:04d}.py").write_text(student(bases[i % len(bases)], rng))


def one(size: int, seed: int) -> dict[str, float]:
    from grader.model.resources import Root, RootKind
    from grader.model.spec import load_exercise
    from grader.running.batch import discover
    from grader.teacher.similarity import SimilarityOptions, similar
    from grader.teacher.similarity.json_report import to_json
    from grader.teacher.similarity.page import render_page

    exercise = load_exercise("kv-pages", Root(PROJECT, RootKind.CHECKOUT))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        make_class(folder, size, seed)
        start = time.perf_counter()
        report = similar(exercise, discover([str(folder)]), SimilarityOptions())
        (Path(tmp) / "r.json").write_text(to_json(report))
        (Path(tmp) / "r.html").write_text(render_page(report))
        took = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {
        "size": size,
        "seconds": round(took, 2),
        "peak_mib": round(peak_kib / 1024, 1),
        "pairs": report.compared_pairs,
        "listed": len(report.pairs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in this process
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one, args.seed)))
        return
    print(f"{'submissions':>12} {'pairs':>9} {'listed':>7} {'seconds':>8} {'peak MiB':>9}")
    for size in args.sizes:
        done = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--seed", str(args.seed)],
            capture_output=True,
            text=True,
            check=True,
        )
        row = json.loads(done.stdout)
        print(
            f"{row['size']:>12} {row['pairs']:>9} {row['listed']:>7} "
            f"{row['seconds']:>8.2f} {row['peak_mib']:>9.1f}"
        )


if __name__ == "__main__":
    main()
