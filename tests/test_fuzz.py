"""--fuzz: a disagreement found on generated inputs, shrunk to a valid, 1-minimal input, the same
for the same seed; and a clear refusal where the reference is not at hand."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import junitparser
import pytest
import xmlschema
from click.testing import CliRunner
from conftest import COURSE, DATA, PlanFactory, copy_root, script

from grader.cli import cli
from grader.judging.errors import ExerciseError, GraderError
from grader.model.material import material, validate
from grader.model.resources import Root, RootKind, checkout_root
from grader.model.spec import Exercise, ShrinkUnits, load_exercise
from grader.running.submissions import check_submission
from grader.teacher.fuzz import _ddmin, fuzz, shrink

WRONG = COURSE / "reference" / "add" / "wrong" / "drops_last_number.py"
# seed 7 on the at-least-three validator: (inputs tried, runs the shrink made)
SEED_7_RUNS = (3, 3)  # sizes 1 and 2 refused, then each of 3 numbers dropped in turn
ROOT = checkout_root() or COURSE  # the specdec test skips (its fixture) where there is none


def test_shrinking_is_1_minimal_over_lines_and_tokens() -> None:
    def keeps(data: bytes) -> bool:
        lines = data.decode().split("\n")
        return any("a" in line.split() and "b" in line.split() for line in lines) and "c" in lines

    big = b"x y a z\nq\nw b a e\nr c\nc\nt\n"
    small = shrink(big, keeps)
    assert keeps(small)
    assert small == b"b a\nc\n"
    lines = small.decode().split("\n")[:-1]
    for i in range(len(lines)):  # removing any single line or token breaks it
        assert not keeps(("\n".join(lines[:i] + lines[i + 1 :]) + "\n").encode())
        words = lines[i].split()
        for j in range(len(words)):
            fewer = [*lines[:i], " ".join(words[:j] + words[j + 1 :]), *lines[i + 1 :]]
            assert not keeps(("\n".join(fewer) + "\n").encode())


@pytest.mark.parametrize(
    ("data", "needed", "units", "small"),
    [
        (b"a\nb\nc\n", b"c", ShrinkUnits(("lines",)), b"c\n"),  # by lines only: lines go
        (b"x a y\n", b"a", ShrinkUnits(("lines",)), b"x a y\n"),  # ... and tokens stay
        (b"a b", b"b", ShrinkUnits(), b"b"),  # no final newline: none added
        (b"\xff x\n", b"\xff", ShrinkUnits(), b"\xff\n"),  # bytes not UTF-8 kept as they were
    ],
)
def test_shrink_keeps_the_units_and_the_bytes_it_was_given(
    data: bytes, needed: bytes, units: ShrinkUnits, small: bytes
) -> None:
    assert shrink(data, lambda d: needed in d, units) == small


def test_shrink_goes_round_again_while_a_round_removes_something() -> None:
    """The second line can go only once the first has lost its "x", which the tokens' turn
    removes after the lines' turn: one round leaves "b\\nc"; a second makes it 1-minimal."""

    def keeps(data: bytes) -> bool:
        lines = data.decode().split("\n")[:-1]
        return bool(lines) and "b" in lines[0] and (len(lines) == 2 or "x" not in lines[0])

    assert shrink(b"x b\nc\n", keeps) == b"b\n"


def test_a_disagreement_is_shrunk_to_a_valid_minimal_input_the_same_each_time(
    add: Exercise, plan_of: PlanFactory
) -> None:
    plan = plan_of(add)
    teacher = material(add)
    first = fuzz(plan, teacher, check_submission(WRONG), count=30, seed=7)
    again = fuzz(plan, teacher, check_submission(WRONG), count=30, seed=7)
    assert first.finding is not None and again.finding is not None
    assert first.finding.case.input == again.finding.case.input  # deterministic for a seed
    assert validate(teacher, first.finding.case.input) is None  # every candidate is checked first
    assert len(first.finding.case.input.split()) == 1  # one number: dropping it leaves no input
    assert first.finding.verdict.value == "wrong_answer"


# sums the first four numbers only: wrong from five on, which the sizes reach at the fifth input
FIRST_FOUR = "import sys\nprint(sum(int(x) for x in sys.stdin.read().split()[:4]))\n"


@pytest.mark.parametrize(
    ("source", "count", "seed", "units", "outcome"),
    [
        # (seed, count, inputs tried, shrink runs, the input found): the same on every machine
        (WRONG.read_text(), 30, 7, None, (7, 30, 1, 0, b"76\n")),
        (FIRST_FOUR, 40, 3, None, (3, 40, 5, 7, b"691 749 456 853 -694\n")),
        # by lines only: a line of five numbers has nothing to lose, and no token is tried
        (FIRST_FOUR, 40, 3, ShrinkUnits(("lines",)), (3, 40, 5, 0, b"691 749 456 853 -694\n")),
    ],
)
def test_a_seed_finds_the_same_input_in_the_same_runs(
    add: Exercise,
    plan_of: PlanFactory,
    tmp_path: Path,
    source: str,
    count: int,
    seed: int,
    units: ShrinkUnits | None,
    outcome: tuple[int, int, int, int, bytes],
) -> None:
    """A finding past the first batch of runs at once, and every field of the outcome."""
    mine = tmp_path / "mine.py"
    mine.write_text(source)
    found = fuzz(
        plan_of(add), material(add), check_submission(mine), count=count, seed=seed, units=units
    )
    assert found.finding is not None
    got = (found.seed, found.count, found.tried, found.shrink_runs, found.finding.case.input)
    assert got == outcome


def test_a_finding_many_batches_in_is_found_there(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """Wrong from 25 numbers on, which the sizes reach at the 25th input: past a dozen batches
    of two runs at once."""
    mine = tmp_path / "mine.py"
    mine.write_text("import sys\nprint(sum(int(x) for x in sys.stdin.read().split()[:24]))\n")
    lines = ShrinkUnits(("lines",))  # one line, nothing to lose: no shrinking to wait for
    found = fuzz(
        plan_of(add, jobs=2), material(add), check_submission(mine), count=40, seed=3, units=lines
    )
    assert found.finding is not None
    assert (found.tried, len(found.finding.case.input.split())) == (25, 25)


def test_a_finding_that_crashes_names_the_students_file(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text("xs = input().split()\nassert len(xs) < 3\nprint(sum(map(int, xs)))\n")
    found = fuzz(plan_of(add), material(add), check_submission(mine), count=10, seed=3)
    assert found.finding is not None
    assert found.finding.verdict.value == "runtime_error"
    assert 'mine.py", line 2' in found.finding.stderr, found.finding.stderr


@pytest.mark.parametrize(
    ("size", "needed", "calls"),
    [
        # the calls of ``keeps`` pin the granularity: halves, then quarters, ... and one chunk
        # fewer after each removal (Zeller's ddmin); the unit test of the shrink's cost
        (16, {3, 11}, 19),
        (16, {0}, 8),
        (10, {2, 5, 7}, 21),
    ],
)
def test_shrink_asks_as_delta_debugging_does(size: int, needed: set[int], calls: int) -> None:
    asked = []

    def keeps(units: list[int]) -> bool:
        asked.append(units)
        return needed <= set(units)

    assert _ddmin(list(range(size)), keeps) == sorted(needed)
    assert len(asked) == calls


def test_fuzzing_grades_the_text_that_was_checked(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """The script may change after it was read (a student's editor, an attacker): every run
    is of the text the grader read, never the file again."""
    mine = tmp_path / "mine.py"
    mine.write_text(WRONG.read_text())
    checked = check_submission(mine)
    mine.write_text((COURSE / "reference" / "add" / "solution.py").read_text())
    found = fuzz(plan_of(add), material(add), checked, count=5, seed=7)
    assert found.finding is not None


def test_without_a_generator_fuzzing_says_what_is_missing(
    course: Root, tmp_path: Path, plan_of: PlanFactory
) -> None:
    root = copy_root(course, tmp_path / "course")
    (root.path / "reference" / "add" / "generate.py").unlink()
    add = load_exercise("add", root)
    with pytest.raises(GraderError, match=r"generate\.py is missing: --fuzz needs the generator"):
        fuzz(plan_of(add), material(add), check_submission(WRONG), count=5, seed=7)


def test_tokens_are_what_single_spaces_separate() -> None:
    """As the statements write inputs: a tab is part of a token, never a place to cut."""
    assert shrink(b"a\tb\n", lambda d: b"b" in d) == b"a\tb\n"
    assert shrink(b"a  b\n", lambda d: b"b" in d) == b"b\n"
    columns = ShrinkUnits(("columns",), "|")  # and in a column of a part: the same word
    assert shrink(b"a\tb c|d e\n", lambda d: b"b" in d, columns) == b"a\tb|d\n"


def _course_with(tmp_path: Path, course: Root, name: str, text: str) -> Exercise:
    root = copy_root(course, tmp_path / "course")
    (root.path / "reference" / "add" / name).write_text(text)
    return load_exercise("add", root)


def test_an_input_the_validator_rejects_is_never_the_finding(
    course: Root, tmp_path: Path, plan_of: PlanFactory
) -> None:
    """Shrinking tries smaller inputs than the statement allows: the validator's no keeps
    them out, so the finding is as small as the statement allows, and no smaller."""
    at_least_3 = (
        "import sys\n"
        "words = sys.stdin.read().split()\n"
        "if len(words) < 3 or not all(w.lstrip('-').isdigit() for w in words):\n"
        "    sys.exit('expected at least three whole numbers')\n"
    )
    add = _course_with(tmp_path, course, "validate.py", at_least_3)
    found = fuzz(plan_of(add), material(add), check_submission(WRONG), count=30, seed=7)
    assert found.finding is not None
    assert len(found.finding.case.input.split()) == 3
    assert validate(material(add), found.finding.case.input) is None
    # the runs it took, which the report says: the same for the seed, every candidate once
    again = fuzz(plan_of(add), material(add), check_submission(WRONG), count=30, seed=7)
    assert (found.tried, found.shrink_runs) == (again.tried, again.shrink_runs) == SEED_7_RUNS


def test_an_input_the_reference_fails_on_is_no_disagreement(
    course: Root, tmp_path: Path, plan_of: PlanFactory
) -> None:
    """Where the reference itself fails there is no right answer to differ from: such an
    input is passed over, and the finding is one the reference answers."""
    no_negatives = (
        "import sys\n"
        "numbers = [int(x) for x in sys.stdin.readline().split()]\n"
        "if any(n < 0 for n in numbers):\n"
        "    sys.exit('the reference cannot do negatives')\n"
        "print(sum(numbers))\n"
    )
    add = _course_with(tmp_path, course, "solution.py", no_negatives)
    found = fuzz(plan_of(add), material(add), check_submission(WRONG), count=30, seed=7)
    assert found.finding is not None
    numbers = [int(x) for x in found.finding.case.input.split()]
    assert numbers and all(n > 0 for n in numbers)  # a 0 alone: dropping it is no mistake
    assert found.finding.case.expected == f"{sum(numbers)}\n"


def test_a_reference_that_fails_everywhere_finds_nothing(
    course: Root, tmp_path: Path, plan_of: PlanFactory
) -> None:
    add = _course_with(tmp_path, course, "solution.py", "raise SystemExit('broken')\n")
    found = fuzz(plan_of(add), material(add), check_submission(WRONG), count=4, seed=7)
    assert (found.seed, found.count, found.finding, found.tried) == (7, 4, None, 4)


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_fuzz_cli_reports_and_saves_the_case(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    args = ["add", str(WRONG), "--root", str(course), "-q", "--fuzz", "30", "--save-case", "f1"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 1
    assert "disagrees with the reference; shrunk in" in result.stdout
    assert "saved as" in result.stdout and "saved the input fuzzing found" in result.stderr
    assert (course / "cases" / "add" / "public" / "f1.in").is_file()


def test_fuzz_without_the_reference_says_so(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    shutil.rmtree(course / "reference")
    args = ["add", str(WRONG), "--root", str(course), "-q", "--fuzz", "5"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "--fuzz compares with the reference solution, which is not here" in result.stderr


PAST_900 = script("add_wrong_past_900.py")  # passes all 4 cases; fuzzing catches it


def _grade(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m grader`` itself: stdout, stderr and the exit status a CI job gets."""
    return subprocess.run(
        [sys.executable, "-m", "grader", *args, "--root", str(COURSE)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=120,
    )


def test_a_finding_is_in_the_json_report_and_its_exit_status() -> None:
    done = _grade("add", str(PAST_900), "--format", "json", "--fuzz", "10")
    report = json.loads(done.stdout)  # the report alone: one document
    assert done.returncode == 1, done.stderr
    assert (report["passed"], report["total"]) == (4, 4)  # every case passes; the fuzzing fails
    fuzz = report["fuzz"]
    assert (fuzz["seed"], fuzz["inputs"]) == (1, 10) and 1 <= fuzz["tried"] <= 10
    found = fuzz["finding"]
    assert found["status"] == "wrong_answer"
    assert re.fullmatch(r"-?9[0-9][0-9]\n|-?1000\n", found["input"])  # one number, shrunk
    assert found["expected"] == found["input"]  # the sum of one number is itself
    assert found["got"] == "::error::pwned \x1b[31mred\n"  # data in JSON, exactly
    assert found["save_case"] == (
        f"grade add {PAST_900} --fuzz 10 --seed 1 --root {COURSE} --save-case fuzz-1"
    )
    assert found["saved"] is None


def test_no_finding_is_said_in_the_report_and_exits_0() -> None:
    solution = str(COURSE / "reference" / "add" / "solution.py")
    done = _grade("add", solution, "--format", "json", "--fuzz", "3", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["fuzz"] == {"seed": 3, "inputs": 3, "tried": 3, "finding": None}


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_a_finding_is_a_failing_junit_test_and_the_xml_is_all_of_stdout() -> None:
    done = _grade("add", str(PAST_900), "--format", "junit", "--fuzz", "10")
    assert done.returncode == 1, done.stderr
    xmlschema.XMLSchema(str(DATA / "grade-junit.xsd")).validate(done.stdout)
    suite = junitparser.TestSuite.fromstring(done.stdout)
    assert (suite.tests, suite.failures, suite.errors) == (5, 1, 0)
    cases = {case.name: case for case in suite}
    (failure,) = cases["fuzz: 10 generated inputs (seed 1)"].result
    assert isinstance(failure, junitparser.Failure) and failure.type == "wrong_answer"
    assert "\x1b" not in done.stdout  # escaped, as every student text is


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_the_text_report_ends_with_the_finding_and_no_line_is_a_ci_command() -> None:
    done = _grade("add", str(PAST_900), "--format", "plain", "--fuzz", "10")
    assert done.returncode == 1, done.stderr
    _, fuzz = done.stdout.split("4/4 cases passed", 1)
    assert "fuzz: input " in fuzz and "disagrees with the reference; shrunk in" in fuzz
    assert "add it    grade add" in fuzz and "--save-case fuzz-1" in fuzz
    assert "\\x1b[31mred" in fuzz and "\x1b" not in done.stdout
    assert not [line for line in done.stdout.splitlines() if line.lstrip().startswith("::")]


FUZZ_COURSE = DATA / "fuzz_course"  # exercise lines: where an input ends is what it checks


def _lines(name: str, *args: str, root: Path = FUZZ_COURSE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "grader", "lines", str(script(name)), "--root", str(root), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=120,
    )


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_a_shrunk_input_ending_in_a_blank_line_is_shown_so() -> None:
    done = _lines("lines_drops_blank_end.py", "--format", "plain", "--fuzz", "20")
    assert done.returncode == 1, done.stderr
    (found,) = re.findall(r"\n     input     (.*)\n               (.*)\n     expected", done.stdout)
    assert re.fullmatch(r"[ab]+\\n", found[0]) and found[1] == "\\n", found


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_a_shrunk_input_without_its_final_newline_is_shown_so() -> None:
    done = _lines("lines_counts_newlines.py", "--format", "plain", "--fuzz", "20")
    assert done.returncode == 1, done.stderr
    found = re.search(
        r"\n     input     ([ab]+)\n               \(no newline at the end\)\n", done.stdout
    )
    assert found is not None, done.stdout


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_save_case_keeps_the_shrunk_input_byte_for_byte(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(FUZZ_COURSE, course)
    for name in ("lines_drops_blank_end.py", "lines_counts_newlines.py"):
        case = name.removesuffix(".py").replace("_", "-")
        args = ("--format", "json", "--fuzz", "20", "--save-case", case)
        done = _lines(name, *args, root=course)
        assert done.returncode == 1, done.stderr
        finding = json.loads(done.stdout)["fuzz"]["finding"]
        saved = Path(finding["saved"])
        assert saved == course / "cases" / "lines" / "public" / case
        assert saved.with_suffix(".in").read_bytes() == finding["input"].encode()
        again = _lines(name, "--format", "json", "-k", case, root=course)  # fails the same way
        (graded,) = json.loads(again.stdout)["cases"]
        assert (graded["status"], graded["message"]) == (finding["status"], finding["message"])


def _round_valid(line: str) -> bool:
    """specdec's rule for a round: k >= 1 draft tokens and k + 1 target ones."""
    draft, _, target = line.partition(" | ")
    words, targets = draft.split(" "), target.split(" ")
    return words[0] == "draft:" and targets[0] == "target:" and len(targets) == len(words) + 1 > 2


def test_columns_remove_a_token_of_each_part_at_once() -> None:
    def keeps(data: bytes) -> bool:  # valid rounds, one of them drafting x where the target has y
        lines = data.decode().split("\n")[:-1]
        return all(map(_round_valid, lines)) and any(
            ("x", "y") in zip(*(part.split() for part in line.split(" | ")), strict=False)
            for line in lines
        )

    big = (
        b"draft: a b | target: a b c\n"
        b"draft: a b c x d | target: a b c y d e\n"
        b"draft: q | target: q r\n"
    )
    assert keeps(big)
    # a token alone cannot go (the round would not be valid): the round stays whole
    assert shrink(big, keeps) == b"draft: a b c x d | target: a b c y d e\n"
    pairs = ShrinkUnits(("lines", "columns"), "|")
    assert shrink(big, keeps, pairs) == b"draft: x | target: y e\n"


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_a_specdec_counterexample_is_one_round_of_a_few_tokens(
    specdec: Exercise, plan_of: PlanFactory
) -> None:
    """counts_later_matches, shrunk by whole rounds then a draft token with its target token:
    a mismatch followed by a later match, nothing more (16 lines, 166 tokens before)."""
    wrong = ROOT / "reference" / "specdec" / "wrong" / "counts_later_matches.py"
    found = fuzz(plan_of(specdec), material(specdec), check_submission(wrong), count=30, seed=2)
    assert found.finding is not None
    (line,) = found.finding.case.input.decode().splitlines()
    draft, target = (part.split()[1:] for part in line.split(" | "))
    assert len(draft) == 2 and len(target) == 3  # the one mismatch, then the one later match
    assert draft[0] != target[0] and draft[1] == target[1]


@pytest.mark.parametrize(
    ("fuzz_spec", "message"),
    [
        ("{units: [rounds]}", "fuzz.units: must list some of lines, tokens, columns, each once"),
        ("{units: [lines, lines]}", "fuzz.units: must list some of"),
        ("{units: [columns]}", "fuzz.parts: columns needs parts"),
        ("{units: [lines], parts: '|'}", "fuzz.parts: columns needs parts"),
        ("{units: [lines], part: '|'}", "fuzz.part: unknown key"),
    ],
)
def test_shrink_units_are_read_strictly(tmp_path: Path, fuzz_spec: str, message: str) -> None:
    shutil.copytree(COURSE, tmp_path / "course")
    spec = tmp_path / "course" / "exercises" / "add.yaml"
    spec.write_text(spec.read_text() + f"fuzz: {fuzz_spec}\n")
    with pytest.raises(ExerciseError, match=re.escape(message)):
        load_exercise("add", Root(tmp_path / "course", RootKind.EXPLICIT))


def test_specdec_declares_its_rounds_and_pairs(specdec: Exercise) -> None:
    assert specdec.shrink == ShrinkUnits(("lines", "columns"), "|")


def test_a_notebooks_finding_names_its_cells(add: Exercise, plan_of: PlanFactory) -> None:
    """A finding's traceback names the notebook's cell and line, as its cases' do."""
    notebook = DATA / "notebooks" / "add_crashes.ipynb"  # raises on a negative number
    found = fuzz(plan_of(add), material(add), check_submission(notebook), count=20, seed=3)
    assert found.finding is not None
    assert f'File "{notebook}", cell 4, line 4, in total' in found.finding.stderr, (
        found.finding.stderr
    )
