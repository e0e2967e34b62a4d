"""Teacher tooling on temporary copies of the fixture course: verify, add-case, regen, new."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import DATA, Golden

from grader.cli import cli
from grader.judging.errors import ExerciseError
from grader.judging.records import Case, CaseOutcome, Report, Verdict, Visibility
from grader.model.cases import own_cases
from grader.model.material import Material, WrongSolution, generate_each, validate_each
from grader.model.resources import Root
from grader.model.spec import Clause, load_exercise
from grader.sandbox import Sandbox, cpus
from grader.teacher.catching import caught_in_public
from grader.teacher.clauses import Exercised, listing
from grader.teacher.verify import Status, Verification, judges_limit_s, margin_status, verify

PROJECT = Path(__file__).resolve().parent.parent


def run(*args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def statuses(result: Verification) -> dict[str, Status]:
    return {c.name: c.status for c in result.checks}


def check(result: Verification, name: str) -> str:
    found = next(c for c in result.checks if c.name == name)
    return f"{found.status.value} {found.detail}"


def test_verify_table_golden(course: Root, golden: Golden) -> None:
    result = run("verify", "--root", str(course.path))
    assert result.exit_code == 0, result.stdout
    # which case is slowest, and its time (so whether the 5 s limit is too loose), vary;
    # everything else is fixed
    table = "\n".join(
        line if "time margin" not in line else "  …     time margin         slowest accepted: …"
        for line in result.stdout.splitlines()
    )
    golden("verify_add.txt", table + "\n")


def test_verify_catches_a_stale_output(course_copy: Root, sandbox: Sandbox) -> None:
    (course_copy.cases / "add" / "public" / "02-negative.out").write_text("stale\n")
    result = verify("add", course_copy, sandbox=sandbox)
    assert statuses(result)["expected outputs"] is Status.FAIL
    assert statuses(result)["reference"] is Status.FAIL
    assert not result.ok


def test_verify_catches_a_missing_output(course_copy: Root, sandbox: Sandbox) -> None:
    (course_copy.cases / "add" / "public" / "03-single.out").unlink()
    result = verify("add", course_copy, sandbox=sandbox)
    assert statuses(result) == {"spec": Status.OK, "cases": Status.FAIL}
    assert "03-single.in: has no expected output" in result.checks[-1].detail


def test_verify_catches_an_invalid_input(course_copy: Root, sandbox: Sandbox) -> None:
    (course_copy.cases / "add" / "public" / "03-single.in").write_text("7  8\n")
    result = verify("add", course_copy, sandbox=sandbox)
    assert check(result, "inputs") == (
        "FAIL 1 rejected by validate.py: 03-single: "
        "expected one line of whole numbers separated by single spaces"
    )


def test_verify_catches_a_non_deterministic_reference(course_copy: Root, sandbox: Sandbox) -> None:
    solution = course_copy.material / "add" / "solution.py"
    # a set of object ids changes order between runs, whatever PYTHONHASHSEED says
    solution.write_text(solution.read_text() + "print(sorted({id(object()) % 7 for _ in '12'}))\n")
    result = verify("add", course_copy, sandbox=sandbox)
    assert statuses(result)["determinism"] is Status.FAIL


def test_verify_catches_a_wrong_solution_that_passes(course_copy: Root, sandbox: Sandbox) -> None:
    wrong = course_copy.material / "add" / "wrong" / "sneaky.py"
    source = (course_copy.material / "add" / "solution.py").read_text()
    wrong.write_text('"""Known wrong: nothing at all.\n\nexpect: wrong_answer\n"""\n' + source)
    result = verify("add", course_copy, sandbox=sandbox)
    assert check(result, "wrong solutions") == (
        "FAIL sneaky.py passes every case: the cases are too weak (its mistake: nothing at all.)"
    )


# a mistake only the hidden case (10 20 30 40, the one sum above 50) shows
CAPPED = '''"""Known wrong: keeps the sum in a byte-sized counter that stops at 50.

expect: wrong_answer
"""
import sys
print(min(50, sum(int(x) for x in sys.stdin.read().split())))
'''


def test_verify_says_which_public_cases_catch_each_known_mistake(
    course_copy: Root, sandbox: Sandbox
) -> None:
    """Issue 37: a mistake a student can meet only in a hidden case shows them a title and
    nothing to act on; verify names, per known mistake, the public cases that fail it, and
    warns where none does (a warning: the exercise still verifies)."""
    (course_copy.material / "add" / "wrong" / "capped_sum.py").write_text(CAPPED)
    result = verify("add", course_copy, sandbox=sandbox)
    assert check(result, "wrong solutions") == "ok 3 fail as they declare"
    assert check(result, "public cases") == (
        "warn 1 of 3 known mistakes fail no public case: capped_sum.py "
        "(its mistake: keeps the sum in a byte-sized counter that stops at 50.)"
    )
    assert result.ok
    assert [(c.script, c.public) for c in result.caught] == [
        ("capped_sum.py", ()),
        ("crashes_on_negative.py", ("02-negative",)),
        ("drops_last_number.py", ("01-sample", "02-negative", "03-single")),
    ]
    listed = run("verify", "add", "--clauses", "--root", str(course_copy.path)).stdout
    assert listed.endswith(
        "add known mistakes:\n"
        "  capped_sum.py: keeps the sum in a byte-sized counter that stops at 50.\n"
        "      warn: no public case catches it\n"
        "  crashes_on_negative.py: reads numbers as unsigned digits only.\n"
        "      02-negative\n"
        "  drops_last_number.py: forgets the last number.\n"
        "      01-sample, 02-negative, 03-single\n"
    ), listed


def test_verify_grades_again_alone_what_a_busy_machine_made_a_grader_error(
    course_copy: Root, sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slow pass once failed top-k's verify: repeated_max.py, declared a time-out, got
    grader_error (the machine too busy to give its run the limit: the other test process and
    verify's own pool). A grader error is the machine's, never a script's verdict."""
    from dataclasses import replace as replaced

    from grader.judging.records import Verdict
    from grader.running import grading

    real = grading.grade_many
    regraded: list[tuple[str, int]] = []

    def busy_the_first_time(plan, scripts):  # type: ignore[no-untyped-def]
        reports = real(plan, scripts)
        return [
            replaced(
                r,
                outcomes=tuple(
                    replaced(o, verdict=Verdict.GRADER_ERROR, message="this machine was too busy")
                    for o in r.outcomes
                ),
            )
            if Path(r.submission).name == "drops_last_number.py"
            else r
            for r in reports
        ]

    real_grade = grading.grade

    def grade(plan, script):  # type: ignore[no-untyped-def]
        regraded.append((Path(script).name, plan.jobs))
        return real_grade(plan, script)

    monkeypatch.setattr("grader.teacher.verify.grade_many", busy_the_first_time)
    monkeypatch.setattr("grader.teacher.verify.grade", grade)
    result = verify("add", course_copy, sandbox=sandbox)
    assert check(result, "wrong solutions") == "ok 2 fail as they declare"
    assert ("drops_last_number.py", 1) in regraded  # alone: one run at a time


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_verify_catches_a_wrong_verdict_and_a_missing_declaration(
    course_copy: Root, sandbox: Sandbox
) -> None:
    wrong = course_copy.material / "add" / "wrong" / "drops_last_number.py"
    text = wrong.read_text()
    wrong.write_text(text.replace("expect: wrong_answer", "expect: timeout"))
    result = verify("add", course_copy, sandbox=sandbox)
    assert "drops_last_number.py expected timeout, got wrong_answer" in check(
        result, "wrong solutions"
    )
    wrong.write_text(text.replace("expect: wrong_answer", ""))
    result = verify("add", course_copy, sandbox=sandbox)
    assert "must say 'expect: <verdict>'" in check(result, "wrong solutions")


# a correct solution that computes for a while: CPU time, not a sleep, so that the run's time is
# its own whatever the machine's load
SLOW = """import sys, time
start = time.process_time()
while time.process_time() - start < 0.3:
    pass
print(sum(int(x) for x in sys.stdin.read().split()))
"""


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_verify_reports_the_slowest_accepted_solution(course_copy: Root, sandbox: Sandbox) -> None:
    accepted = course_copy.material / "add" / "accepted"
    accepted.mkdir()
    (accepted / "slow_sum.py").write_text(SLOW)
    result = verify("add", course_copy, sandbox=sandbox)
    detail = check(result, "time margin")
    assert "slowest accepted: slow_sum.py on 0" in detail, detail
    took = float(detail.split(" took ")[1].split(" s of 5 s (")[0])
    assert took >= 0.3  # its CPU time at least; the wall clock, on a loaded machine, more
    status, why = margin_status(5, took)
    assert detail.startswith(f"{status.value} ") and detail.endswith(why)
    assert result.ok  # a warning: one machine's timing never fails an exercise


@pytest.mark.parametrize(
    ("limit_s", "slowest_s", "status", "judges_s"),
    [
        (5, 0.41, Status.WARN, 2),  # 12.2x: too loose
        (5, 0.5, Status.OK, 2),  # 10x exactly
        (2, 0.01, Status.OK, 2),  # at the floor: never too loose
        (3, 0.2, Status.WARN, 2),  # 15x and above the floor
        (3, 1.0, Status.OK, 3),  # the judges' own 3x
        (2, 1.0, Status.OK, 3),  # 2x exactly
        (2, 1.01, Status.WARN, 4),  # under 2x: too tight
        (6, 2.0, Status.OK, 6),
        (1, 0.8, Status.WARN, 3),  # under 2x
    ],
)
def test_the_time_margin_rule(
    limit_s: float, slowest_s: float, status: Status, judges_s: int
) -> None:
    got, why = margin_status(limit_s, slowest_s)
    assert got is status
    assert judges_limit_s(slowest_s) == judges_s
    assert (why == "") is (status is Status.OK)
    if status is Status.WARN:
        assert f"time_s: {judges_s})" in why


def test_verify_cli_exits_1_when_a_check_fails(course_copy: Root) -> None:
    (course_copy.cases / "add" / "public" / "01-sample.out").write_text("stale\n")
    result = run("verify", "add", "--root", str(course_copy.path))
    assert result.exit_code == 1
    assert "add: FAILED" in result.stdout
    assert "FAIL  expected outputs" in result.stdout


def test_add_case_writes_files_and_metadata_keeping_comments(course_copy: Root) -> None:
    spec = course_copy.exercises / "add.yaml"
    spec.write_text("# the teacher's comment\n" + spec.read_text())
    result = run(
        "add-case",
        "add",
        "05-four",
        "--input",
        "-",
        "--title",
        "Four numbers: a colon, and a 'quote'",
        "--hint",
        "Per number.",
        "--points",
        "2",
        "--root",
        str(course_copy.path),
        input=b"1 2 3 4\n",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == "10\n"  # the reference's output, printed for the teacher
    folder = course_copy.cases / "add" / "public"
    assert (folder / "05-four.in").read_bytes() == b"1 2 3 4\n"
    assert (folder / "05-four.out").read_text() == "10\n"
    assert spec.read_text().startswith("# the teacher's comment\n")
    meta = load_exercise("add", course_copy).case_meta["05-four"]
    assert meta.title == "Four numbers: a colon, and a 'quote'"
    assert (meta.hint, meta.points) == ("Per number.", 2.0)
    (case,) = [c for c in own_cases(load_exercise("add", course_copy)) if c.name == "05-four"]
    assert case.visibility is Visibility.VISIBLE  # what the folder says
    assert load_exercise("add", course_copy).case_meta["03-single"].title == "One number"
    assert run("verify", "add", "--root", str(course_copy.path)).exit_code == 0


def test_add_case_secret_leaves_nothing_for_regen(course_copy: Root) -> None:
    """secret-cases.json counts the secret cases (a student's install says that they exist):
    add-case keeps it current with mistakes.json, so that regen has nothing left to do."""
    counts = course_copy.cases / "secret-cases.json"
    before = json.loads(counts.read_text())["add"]
    where = ("--root", str(course_copy.path))
    added = run("add-case", "add", "09-more", "--input", "-", "--secret", *where, input=b"4 5\n")
    assert added.exit_code == 0, added.stderr
    assert json.loads(counts.read_text())["add"] == before + 1
    assert run("regen", "add", "--check", *where).exit_code == 0


def test_add_case_runs_the_known_wrong_solutions_in_the_chosen_sandbox(
    course_copy: Root,
) -> None:
    """add-case rewrites mistakes.json from the known-wrong solutions run as regen runs them,
    in the sandbox chosen (here off, where a run can read the reference): in another, a
    solution that sees more would print otherwise, and regen --check would call it stale."""
    reference = course_copy.material / "add" / "solution.py"
    (course_copy.material / "add" / "wrong" / "peeks.py").write_text(
        '"""Known wrong: answers by whether it sees the reference.\n\nexpect: wrong_answer\n"""\n'
        f"import os\n\nprint(-1 if os.path.exists({str(reference)!r}) else -2)\n"
    )
    where = ("--sandbox", "off", "--root", str(course_copy.path))
    assert run("regen", "add", *where).exit_code == 0
    added = run("add-case", "add", "09-more", "--input", "-", *where, input=b"4 5\n")
    assert added.exit_code == 0, added.stderr
    again = run("regen", "add", "--check", *where)
    assert again.exit_code == 0, again.output


def test_add_case_refusals(course_copy: Root) -> None:
    where = ("--root", str(course_copy.path))
    invalid = run("add-case", "add", "x", "--input", "-", *where, input=b"1  2\n")
    assert invalid.exit_code == 2
    assert "the input is invalid for add: expected one line of whole numbers" in invalid.stderr
    exists = run("add-case", "add", "03-single", "--input", "-", *where, input=b"1\n")
    assert exists.exit_code == 2 and "pass --force to replace it" in exists.stderr
    forced = run("add-case", "add", "03-single", "--input", "-", "--force", *where, input=b"1\n")
    assert forced.exit_code == 0
    assert "03-single" not in load_exercise("add", course_copy).case_meta  # replaced
    (course_copy.material / "add" / "solution.py").write_text("raise SystemExit(3)\n")
    crash = run("add-case", "add", "y", "--input", "-", *where, input=b"1\n")
    assert crash.exit_code == 4 and "reference" in crash.stderr
    assert not (course_copy.cases / "add" / "public" / "y.in").exists()
    both = run("add-case", "add", "z", *where)
    assert both.exit_code == 2 and "exactly one of --input" in both.stderr


def test_add_case_random_is_deterministic(course_copy: Root) -> None:
    where = ("--root", str(course_copy.path))
    assert run("add-case", "add", "r1", "--random", "7", "--size", "30", *where).exit_code == 0
    assert run("add-case", "add", "r2", "--random", "7", "--size", "30", *where).exit_code == 0
    folder = course_copy.cases / "add" / "public"
    assert (folder / "r1.in").read_bytes() == (folder / "r2.in").read_bytes()
    assert len((folder / "r1.in").read_bytes().split()) == 30


def test_new_scaffolds_an_exercise_that_verifies(course_copy: Root) -> None:
    where = ("--root", str(course_copy.path))
    result = run("new", "tokens-per-dollar", *where)
    assert result.exit_code == 0, result.output
    assert "grade verify tokens-per-dollar" in result.stdout
    assert (
        course_copy.cases / "tokens-per-dollar" / "public" / "01-sample.out"
    ).read_text() == "6\n"
    verified = run("verify", "tokens-per-dollar", *where)
    assert verified.exit_code == 0, verified.stdout
    again = run("new", "tokens-per-dollar", *where)
    assert again.exit_code == 2 and "exists already" in again.stderr
    assert run("new", "../escape", *where).exit_code == 2


def test_decode_speed_needed_no_grader_change() -> None:
    for path in (PROJECT / "grader").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "decode-speed" not in text and "decode_speed" not in text, path
    if shutil.which("git") is None or not (PROJECT / ".git").exists():
        pytest.skip("no git history to inspect")
    added = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", "exercises/decode-speed.yaml"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
    ).stdout.split()
    if not added:
        pytest.skip("decode-speed is not committed in this checkout's history")
    changed = subprocess.run(
        ["git", "show", "--name-only", "--format=", added[-1]],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert changed and not [p for p in changed if p.startswith("grader/")]


def _quantize_course(root: Root, target: Path, inputs: dict[str, str]) -> Path:
    """A course of the shipped quantize spec (without its cases' metadata) and reference
    material, whose only cases are ``inputs``, with the reference's outputs."""
    if not (root.material / "quantize" / "accepted").is_dir():
        pytest.skip("reference/ is absent")
    (target / "exercises").mkdir(parents=True)
    spec = (root.exercises / "quantize.yaml").read_text()
    (target / "exercises" / "quantize.yaml").write_text(spec[: spec.index("\ncases:")] + "\n")
    shutil.copytree(root.material / "quantize", target / "reference" / "quantize")
    public = target / "cases" / "quantize" / "public"
    public.mkdir(parents=True)
    for name, data in inputs.items():
        (public / f"{name}.in").write_text(data)
    assert run("regen", "quantize", "--root", str(target)).exit_code == 0
    return target


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_verify_fails_a_case_that_holds_a_decimal_tie(root: Root, tmp_path: Path) -> None:
    """0.0777 * 127 / 0.9398 is 10.5 exactly, but not in float64: the expected q depends on how
    the division is written. validate.py refuses it, and an accepted solution fails it."""
    copy = _quantize_course(root, tmp_path / "root", {"01-tie": "0.9398 0.0777\n2\n"})
    result = run("verify", "quantize", "--root", str(copy))
    assert result.exit_code == 1
    assert "FAIL  inputs" in result.stdout and "weight 2 (0.0777) is a tie" in result.stdout
    line = next(x for x in result.stdout.splitlines() if "accepted solutions" in x)
    assert "FAIL" in line and "fails 01-tie: line 1, token" in line


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_verify_fails_ties_that_only_some_writings_break(root: Root, tmp_path: Path) -> None:
    """Ties the direct, w * 127 / m and w / m * 127 writings agree on, but the reciprocal
    w * (127 / m), w * (1 / scale) or a Decimal w / (m / 127) (28 or 60 digits) round apart."""
    folder = DATA / "quantize_ties"
    inputs = {p.stem: p.read_text() for p in sorted(folder.glob("*.in"))}
    copy = _quantize_course(root, tmp_path / "root", inputs)
    result = run("verify", "quantize", "--root", str(copy))
    assert result.exit_code == 1, result.stdout
    inputs_line = next(x for x in result.stdout.splitlines() if "  inputs  " in x)
    assert "FAIL" in inputs_line and f"{len(inputs)} rejected by validate.py" in inputs_line
    # a Decimal tie: the validator names the first context that breaks it (28 digits, then 60)
    for writing in ("float64 w * (127 / m)", "float64 w * (1 / scale)", "-digit Decimal w / (m"):
        assert writing in inputs_line
    line = next(x for x in result.stdout.splitlines() if "accepted solutions" in x)
    assert "FAIL" in line
    assert "reciprocal.py fails 01-reciprocal-breaks" in line
    assert "decimal_direct.py fails 03-decimal-breaks" in line


def _case(name: str, *, secret: bool, visibility: Visibility) -> Case:
    return Case(name, b"1\n", "1", name, visibility=visibility, secret=secret)


# (secret, visibility): whether practice shows the case whole, for every pair the loader
# accepts (a public case is visible; a secret one hidden, or shown after the due date)
SHOWN_IN_PRACTICE = [
    (False, Visibility.VISIBLE, True),
    (True, Visibility.HIDDEN, False),
    (True, Visibility.AFTER_DUE_DATE, False),
]


@pytest.mark.parametrize(("secret", "visibility", "shown"), SHOWN_IN_PRACTICE)
def test_a_case_practice_shows_whole_is_a_public_one(
    secret: bool, visibility: Visibility, shown: bool
) -> None:
    """One rule for what verify, --clauses and ``grade try`` call a public case (three places
    decided it, two ways that agree only because the loader ties visibility to the folder)."""
    case = _case("c", secret=secret, visibility=visibility)
    assert case.shown_in_practice is shown
    outcome = CaseOutcome(case, Verdict.WRONG_ANSWER, "wrong", 0.1)
    report = Report("add", "wrong.py", (outcome,))
    wrong = WrongSolution(Path("wrong.py"), Verdict.WRONG_ANSWER, "a mistake.")
    (caught,) = caught_in_public([wrong], [report])
    assert caught.public == (("c",) if shown else ())
    clause = Exercised(Clause("a clause."), (case,))
    assert listing("add", [clause]).endswith("      c (public)\n" if shown else "      c\n")


def test_the_teachers_tools_run_at_once_and_answer_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """verify validated each case, and generated each of its 24 inputs, one interpreter after
    the other; they now run a CPU's worth at once (seed 0 waits for seed 1 to have started:
    alone, it gives up), the answers in the inputs' order and the first failure in that order
    the one raised."""
    monkeypatch.setattr(cpus, "usable_cpus", lambda: 2)
    (tmp_path / "validate.py").write_text(
        "import sys\nn = int(sys.stdin.read())\nsys.exit(f'{n} is odd' if n % 2 else 0)\n"
    )
    (tmp_path / "generate.py").write_text(
        "import os, sys, time\nseed, size = map(int, sys.argv[1:])\n"
        "marker = os.path.join(os.path.dirname(__file__), 'started-1')\n"
        "if seed == 1:\n    open(marker, 'w').close()\n"
        "for _ in range(3000 if seed == 0 else 0):  # the first waits for the second\n"
        "    if os.path.exists(marker):\n        break\n    time.sleep(0.01)\n"
        "else:\n    if seed == 0:\n        sys.exit('ran alone')\n"
        "if seed in (3, 5):  # 5 fails first, 3 comes first in order\n"
        "    time.sleep(0.05 if seed == 3 else 0)\n    sys.exit(f'seed {seed} fails')\n"
        "print(seed * size)\n"
    )
    found = Material(tmp_path)
    inputs = [str(n).encode() for n in range(6)]
    assert validate_each(found, inputs) == [None, "1 is odd", None, "3 is odd", None, "5 is odd"]
    assert generate_each(found, [(0, 2), (1, 2), (2, 5)]) == [b"0\n", b"2\n", b"10\n"]
    with pytest.raises(ExerciseError, match="seed 3 fails"):
        generate_each(found, [(2, 1), (3, 1), (5, 1)])


def test_a_generated_input_is_the_same_on_windows(tmp_path: Path) -> None:
    """Seen under Wine: generate.py's print() wrote "12\\r\\n" on Windows, so fuzzing, verify's
    clause check and mutants tried other bytes than on Linux (a case file of the same input
    reads without the "\\r"). A generator writing Windows line ends stands in for it."""
    (tmp_path / "generate.py").write_text(
        "import sys\nsys.stdout.buffer.write(b'3\\r\\n1 2 3\\r\\n')\n"
    )
    assert generate_each(Material(tmp_path), [(1, 1)]) == [b"3\n1 2 3\n"]
