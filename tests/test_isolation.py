"""The fork server against fresh interpreters: a script cannot tell them apart in any way a
student's program would depend on, and every verdict and every attack comes out the same."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import COURSE, ONE_QUANTIZE_CASE, SCRIPTS, TESTS, PlanFactory

from grader.model.spec import Exercise
from grader.running.grading import grade_many
from grader.sandbox import Isolation, Limits, Sandbox, SandboxMode

PROBE = r"""
import atexit, json, random, sys, threading
facts = {
    "name": __name__,
    "argv": sys.argv,
    "orig_argv": sys.orig_argv[1:],
    "extra_modules": sorted(m for m in ("numpy", "socket", "selectors", "_grade_child")
                            if m in sys.modules),
    "path0": sys.path[0],
    "random": random.random(),
    "stdin": sys.stdin.read(),
    "builtins": type(__builtins__).__name__,  # the module, in __main__, as `python x.py` has it
}
try:
    import numpy
    facts["numpy_random"] = float(numpy.random.random())
except ImportError:
    pass
def late():
    print("atexit ran", flush=False)
atexit.register(late)
print(json.dumps(facts), flush=True)
threading.Thread(target=lambda: print("thread ran")).start()
sys.stdout.write("unflushed tail")
sys.exit(3)
"""


@pytest.fixture(scope="module")
def boxes() -> dict[Isolation, Sandbox]:
    made = {
        iso: Sandbox.create(SandboxMode.AUTO, isolation=iso).preloading(["numpy"])
        for iso in Isolation
    }
    assert made[Isolation.FORK].isolation is Isolation.FORK, made[Isolation.FORK].fresh_because
    return made


def _probe(box: Sandbox, script: Path) -> tuple[dict[str, object], list[str], int | None]:
    run = box.run([sys.executable, str(script)], stdin=b"abc", limits=Limits())
    first, *rest = run.stdout.decode().splitlines()
    return json.loads(first), rest, run.exit_code


def test_a_script_cannot_tell_a_fork_from_a_fresh_start(
    boxes: dict[Isolation, Sandbox], tmp_path: Path
) -> None:
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    fresh, fresh_tail, fresh_code = _probe(boxes[Isolation.FRESH], script)
    fork, fork_tail, fork_code = _probe(boxes[Isolation.FORK], script)
    again, _, _ = _probe(boxes[Isolation.FORK], script)
    assert fork_code == fresh_code == 3
    assert (
        sorted(fork_tail)
        == sorted(fresh_tail)
        == sorted(["thread ran", "unflushed tailatexit ran"])
    )
    for key in ("name", "argv", "orig_argv", "path0", "stdin", "builtins"):
        assert fork[key] == fresh[key], key
    assert fresh["builtins"] == "module"
    assert fork["extra_modules"] == ["numpy"]  # preloaded, and nothing of the server's
    assert fresh["extra_modules"] == []
    assert fork["random"] != again["random"]  # each fork seeds its own generators
    assert fork["numpy_random"] != again["numpy_random"]


def test_a_crash_reads_the_same(boxes: dict[Isolation, Sandbox], tmp_path: Path) -> None:
    script = tmp_path / "crash.py"
    script.write_text("def f():\n    return 1 / 0\n\nprint('before')\nf()\n")
    runs = [
        box.run([sys.executable, str(script)], stdin=b"", limits=Limits()) for box in boxes.values()
    ]
    assert runs[0].stdout == runs[1].stdout == b"before\n"
    assert runs[0].stderr == runs[1].stderr
    assert runs[0].exit_code == runs[1].exit_code == 1
    assert runs[0].stderr.decode().endswith("ZeroDivisionError: division by zero\n")


ATTACKS = sorted((TESTS / "attacks").glob("*.py"))


@pytest.mark.slow  # twenty attacks in both modes: .ci/run's slow pass
@pytest.mark.parametrize("attack", ATTACKS, ids=[p.stem for p in ATTACKS])
def test_every_attack_fares_the_same(boxes: dict[Isolation, Sandbox], attack: Path) -> None:
    """What each attack script manages, line by line ("OK …" or not), in both modes. Two
    differences are expected: the command line of the run's process names the server (it is
    public, and says nothing of the grading), and how many tasks fit under the limit varies."""
    limits = Limits(time_s=10)

    def outcome(box: Sandbox) -> tuple[list[str], int | None]:
        run = box.run([sys.executable, str(attack)], stdin=b"{}", limits=limits)
        lines = [
            " ".join(line.split()[:2])
            for line in run.stdout.decode().splitlines()
            if not line.startswith(("cmdline ", "tasks "))
        ]
        return sorted(lines), run.exit_code

    assert outcome(boxes[Isolation.FORK]) == outcome(boxes[Isolation.FRESH])


@pytest.mark.slow
def test_every_test_script_gets_the_same_verdicts(plan_of: PlanFactory, quantize: Exercise) -> None:
    scripts = sorted(SCRIPTS.glob("*.py"))
    verdicts = {}
    for iso in Isolation:
        box = Sandbox.create(SandboxMode.AUTO, isolation=iso).preloading(["numpy"])
        plan = plan_of(quantize, cases_dir=ONE_QUANTIZE_CASE, time_s=3)
        plan = replace(plan, runner=box.run, sandbox=box, jobs=4)
        reports = grade_many(plan, scripts)
        verdicts[iso] = {
            s.name: [o.verdict for o in r.outcomes] for s, r in zip(scripts, reports, strict=True)
        }
    assert verdicts[Isolation.FORK] == verdicts[Isolation.FRESH]


def test_a_fork_gets_the_memory_a_fresh_run_gets(
    boxes: dict[Isolation, Sandbox], tmp_path: Path
) -> None:
    """The server's preloads (numpy: ~45 MB) are not charged to a script that needs memory."""
    script = tmp_path / "big.py"
    script.write_text("b = bytearray(100 << 20)\nprint('ok')\n")
    limits = Limits(memory_mb=128)
    for box in boxes.values():
        run = box.run([sys.executable, str(script)], stdin=b"", limits=limits)
        assert run.stdout == b"ok\n", (box.isolation, run.stderr[-300:])


def test_grading_with_the_graders_stdin_closed(tmp_path: Path) -> None:
    """The server's own stdin, stdout and stderr are /dev/null: a child never inherits the
    grader's (closed here, or a terminal that would buffer its stdout by lines)."""
    import subprocess

    done = subprocess.run(
        [
            "bash",
            "-c",
            f'"{sys.executable}" -m grader add "$0" --root "$1" --format json <&-',
            str(COURSE / "reference" / "add" / "solution.py"),
            str(COURSE),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["passed"] == 4


def test_what_a_preloaded_module_prints_is_not_in_the_runs_output(tmp_path: Path) -> None:
    # `this` prints the Zen of Python on import, as a module with a banner would: buffered in
    # the server, every fork would print it again at its exit
    box = Sandbox.create(SandboxMode.AUTO, preload=["this"])
    script = tmp_path / "hello.py"
    script.write_text('print("hello")\n')
    for run in (box, box.fresh()):
        found = run.run([sys.executable, str(script)], stdin=b"", limits=Limits())
        assert found.stdout == b"hello\n", run.isolation


def test_an_exit_code_of_an_int_subclass_is_the_ints(
    boxes: dict[Isolation, Sandbox], tmp_path: Path
) -> None:
    """Red team: an int subclass whose ``&`` returns a string made the run's own exit fail
    (a traceback through the grader's frames, exit 1); Python exits with the int's value."""
    import subprocess

    script = tmp_path / "exit.py"
    script.write_text(
        "class Code(int):\n    def __and__(self, other):\n        return 'x'\n"
        "raise SystemExit(Code(5))\n"
    )
    plain = subprocess.run([sys.executable, str(script)], capture_output=True)
    for box in boxes.values():
        run = box.run([sys.executable, str(script)], stdin=b"", limits=Limits())
        assert (run.exit_code, run.stderr) == (plain.returncode, plain.stderr) == (5, b"")
