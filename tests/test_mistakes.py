"""Known mistakes recognised in a student's output, from what the known-wrong solutions print
(mistakes.json, shipped with the public cases): named where they match, silent where not."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest
from click.testing import CliRunner
from conftest import COURSE

from grader.cli import cli
from grader.judging.compare import digest
from grader.judging.mistakes import Mistakes, Seen
from grader.judging.records import Verdict, Visibility
from grader.model.material import material
from grader.model.resources import Root
from grader.model.spec import load_exercise
from grader.running.grading import grade_many
from grader.running.plan import prepare
from grader.sandbox import Sandbox


def _report(script: Path) -> dict[str, object]:
    args = ["add", str(script), "--root", str(COURSE), "--format", "json"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_a_known_mistake_is_named_once_per_report(tmp_path: Path) -> None:
    script = tmp_path / "mine.py"
    script.write_text("xs = input().split()\nprint(sum(int(x) for x in xs[:-1]))\n")
    report = _report(script)
    assert report["diagnoses"] == [
        {
            "mistake": "drops_last_number",
            "hint": "your output is exactly that of a program that forgets the last number",
            "cases": ["01-sample", "02-negative", "03-single"],
        }
    ]  # not the secret case's: what is known of a hidden case's output is not shown


def test_an_output_no_known_mistake_prints_gets_no_diagnosis(tmp_path: Path) -> None:
    script = tmp_path / "mine.py"
    script.write_text("print(42)\n")
    report = _report(script)
    assert report["diagnoses"] == []
    assert all("diagnosis" not in c for c in report["cases"])  # type: ignore[attr-defined]


# Mistakes the public cases do not show, only secret ones (a student cannot act on a hidden
# case's title): issue 37 brought the last of them into the public cases. None may be added.
SHOWN_IN_SECRET_ONLY: dict[str, tuple[str, ...]] = {}


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "quantize",
        "specdec",
        "decode-speed",
        "top-k",
        "ttft",
        "prefix-cache",
        "kv-pages",
        "batching",
    ],
)
def test_each_shipped_mistake_is_recognised_on_the_public_cases(
    root: Root, sandbox: Sandbox, name: str
) -> None:
    exercise = load_exercise(name, root)
    plan = prepare(exercise, sandbox=sandbox)
    public = tuple(c for c in plan.cases if c.visibility is Visibility.VISIBLE)
    wrong = material(exercise).wrong_solutions()
    reports = grade_many(replace(plan, cases=public), [w.path for w in wrong])
    unnamed = []
    for solution, report in zip(wrong, reports, strict=True):
        answered = [o for o in report.outcomes if o.verdict is Verdict.WRONG_ANSWER]
        named = {o.diagnosis.mistake for o in answered if o.diagnosis is not None}
        # a diagnosis names this solution's own mistake, never another's (where two mistakes
        # print the same on a case, neither is named there: the case's hint speaks)
        assert named <= {solution.path.stem}, (solution.path.stem, named)
        # and on one public case at least, its own (issue 34): one that prints no answer (a
        # crash, a time-out) by the hint of a public case it fails so on
        hinted = [o for o in report.outcomes if o.verdict is solution.expect and o.case.hint]
        if not named and not (solution.expect is not Verdict.WRONG_ANSWER and hinted):
            unnamed.append(solution.path.stem)
    assert sorted(unnamed) == sorted(SHOWN_IN_SECRET_ONLY.get(name, ())), unnamed


@pytest.mark.parametrize("fmt", ["junit", "gradescope", "github"])
def test_every_format_names_the_mistake(tmp_path: Path, fmt: str) -> None:
    """Newcomer: the mistake took the place of the case's hint, and then only rich, plain, html
    and json printed it: a Gradescope student got neither."""
    script = tmp_path / "mine.py"
    script.write_text("xs = input().split()\nprint(sum(int(x) for x in xs[:-1]))\n")
    args = ["add", str(script), "--root", str(COURSE), "--format", fmt]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert "a program that forgets the last number" in result.stdout, result.stdout


@pytest.mark.parametrize(
    "damage",
    [
        {"mistakes": {"m": {"mistake": ["not", "text"]}}},
        {"mistakes": {"m": {"mistake": 7}}},
        {"mistakes": [], "printed": {}},
        {"printed": {"01-sample": {"m": ["digest"]}}},
        {"printed": {"01-sample": {"unnamed": "digest"}}},
        {"printed": ["01-sample"]},
    ],
)
def test_a_damaged_mistakes_file_counts_as_none(tmp_path: Path, damage: dict[str, object]) -> None:
    """Red team: "mistake": ["x"] in public/mistakes.json crashed the grader (exit 4) when a
    wrong answer matched: its docstring says a broken file counts as none."""
    import shutil

    from grader.model.known_mistakes import load
    from grader.model.resources import Root, RootKind
    from grader.model.spec import load_exercise

    shutil.copytree(COURSE, tmp_path / "c")
    add = load_exercise("add", Root(tmp_path / "c", RootKind.EXPLICIT))
    path = tmp_path / "c" / "cases" / "add" / "public" / "mistakes.json"
    data = json.loads(path.read_text())
    first = next(iter(data["printed"]))
    data["printed"][first] = {"m": next(iter(data["printed"][first].values()))}
    path.write_text(json.dumps({**data, **damage}))
    found = load(add)
    assert all(isinstance(t, str) for t in found.about.values())
    assert all(isinstance(k, str) for c in found.printed.values() for k in c.values())


def test_every_case_lists_every_mistakes_wrong_answer() -> None:
    """mistakes.json keeps what each mistake prints on each case, those two share too (issue
    24 dropped shared outputs; the rule now weighs every case, so it needs them), and lists a
    case no mistake fails, so that a pass there is evidence."""
    from grader.judging.compare import digest
    from grader.model.known_mistakes import contents

    outputs = {
        "half_up": {"03": "2\n", "05": "7\n"},
        "truncates": {"03": "2\n", "05": "6\n"},
    }
    table = json.loads(
        contents(outputs, {"half_up": "rounds up", "truncates": "cuts"}, {"01", "03", "05"})
    )
    assert table["printed"] == {
        "01": {},
        "03": {"half_up": digest("2\n"), "truncates": digest("2\n")},
        "05": {"half_up": digest("7\n"), "truncates": digest("6\n")},
    }


def test_a_file_of_before_names_nothing(tmp_path: Path) -> None:
    """A course's mistakes.json written before "printed" ("outputs": digest -> the one mistake,
    where only one printed it) is no evidence (the review's): it leaves out where two mistakes
    print alike, so a case the student passed could not rule a mistake out, and read as the
    new table it named A where A fails a case the student passed."""
    import shutil

    from grader.judging.compare import digest
    from grader.model.known_mistakes import load
    from grader.model.resources import RootKind

    shutil.copytree(COURSE, tmp_path / "c")
    path = tmp_path / "c" / "cases" / "add" / "public" / "mistakes.json"
    old = {"mistakes": {"m": {"mistake": "x"}}, "outputs": {"01-sample": {digest("9\n"): "m"}}}
    path.write_text(json.dumps(old))
    found = load(load_exercise("add", Root(tmp_path / "c", RootKind.EXPLICIT)))
    assert "01-sample" not in found.printed
    assert found.diagnose([Seen("01-sample", digest("9\n"))]) is None


def _seen(**cases: str | None) -> list[Seen]:
    """Evidence: a case not answered wrongly (None: passed, crashed, skipped), or this output."""
    return [Seen(c, None if out is None else digest(out)) for c, out in cases.items()]


# Two known mistakes over three cases (issue 37): A prints "a1" on 01 and "a2" on 02 and
# passes 03; B prints "a1" on 01 too (their outputs coincide there) and passes 02 and 03.
RULE = Mistakes(
    MappingProxyType({"A": "does A", "B": "does B"}),
    MappingProxyType(
        {
            "01": MappingProxyType({"A": digest("a1"), "B": digest("a1")}),
            "02": MappingProxyType({"A": digest("a2")}),
            "03": MappingProxyType({}),
        }
    ),
)
NAMED: list[tuple[str, list[Seen], str | None, tuple[str, ...]]] = [
    ("A on every case", _seen(**{"01": "a1", "02": "a2", "03": None}), "A", ("01", "02")),
    ("B on every case", _seen(**{"01": "a1", "02": None, "03": None}), "B", ("01",)),
    # what both print, and nothing more to tell them apart: neither (nor a third cause)
    ("only the shared case", _seen(**{"01": "a1"}), None, ()),
    # what B prints on 01, but 02 fails too, where B passes: not B (top-k's k - 1 tokens)
    ("B's output, and another failure", _seen(**{"01": "a1", "02": "x"}), None, ()),
    # what A prints on 01, but passes 02, where A fails: not A (a k-th distinct value cut)
    ("A's output, but passes where A fails", _seen(**{"01": "a1", "02": None}), "B", ("01",)),
    # -x: 01 failed, 02 and 03 skipped; a crash on 02 is no wrong answer either: A, which
    # answers 02 wrongly, is not what ran, and B fits
    ("-x after the shared case", _seen(**{"01": "a1", "02": None, "03": None}), "B", ("01",)),
    ("an output no mistake prints", _seen(**{"01": "z", "02": None}), None, ()),
    ("all passed", _seen(**{"01": None, "02": None, "03": None}), None, ()),
    # a case the table does not know (added since regen) is no evidence either way
    ("an unknown case", _seen(**{"01": "a1", "02": "a2", "09": "q"}), "A", ("01", "02")),
]


@pytest.mark.parametrize(
    ("seen", "named", "cases"), [r[1:] for r in NAMED], ids=[r[0] for r in NAMED]
)
def test_a_mistake_is_named_only_where_it_alone_fits_every_case(
    seen: list[Seen], named: str | None, cases: tuple[str, ...]
) -> None:
    found = RULE.diagnose(seen)
    assert (None if found is None else found.mistake) == named
    assert (() if found is None else found.cases) == cases


# Issue 37's misdiagnoses, as students write them, graded on top-k's public cases: the right
# name, or none. A checker's exercise: any order of tied tokens is right, so each writes ties
# in input order, as the known-wrong solutions do.
_READ = "import sys\nk, *rows = sys.stdin.read().splitlines()\nk = int(k)\n"
_RANKED = _READ + "ranked = sorted((r.split() for r in rows), key=lambda p: -float(p[1]))\n"
TOP_K: list[tuple[str, str, str | None]] = [
    # told "keeps logits strictly above the (k+1)-th highest": it prints k - 1 everywhere
    ("k - 1 tokens", _RANKED + "for t, v in ranked[: k - 1]:\n    print(t, v)\n", None),
    # told "prints k + 1 tokens": it prints every token tied at the k-th value, right elsewhere
    (
        "a cut at the k-th distinct value",
        _RANKED
        + "values = sorted({float(v) for _, v in ranked}, reverse=True)\n"
        + "cut = values[min(k, len(values)) - 1]\n"
        + "for t, v in ranked:\n    if float(v) >= cut:\n        print(t, v)\n",
        None,
    ),
    # the JSON report named it and the text did not: every format names it now
    (
        "lowest logit first",
        _RANKED + "for t, v in sorted(ranked[:k], key=lambda p: float(p[1])):\n    print(t, v)\n",
        "ascending_order",
    ),
    # lowest first, but dog for a on the tie: the JSON report named ascending_order on the
    # cases after the first, which the text report grouped under the first and never showed;
    # it fails case 01 otherwise than ascending_order does: named in none
    (
        "lowest logit first, the other tied token",
        _READ
        + "ranked = sorted((r.split() for r in rows), key=lambda p: (float(p[1]), p[0]))\n"
        + "for t, v in ranked[::-1][:k][::-1]:\n    print(t, v)\n",
        None,
    ),
    ("k + 1 tokens", _RANKED + "for t, v in ranked[: k + 1]:\n    print(t, v)\n", "off_by_one"),
]


@pytest.mark.parametrize(("source", "named"), [r[1:] for r in TOP_K], ids=[r[0] for r in TOP_K])
def test_top_k_names_the_right_mistake_or_none(
    root: Root, sandbox: Sandbox, tmp_path: Path, source: str, named: str | None
) -> None:
    from grader.render import render
    from grader.running.grading import grade

    script = tmp_path / "mine.py"
    script.write_text(source)
    plan = prepare(load_exercise("top-k", root), sandbox=sandbox)
    public = tuple(c for c in plan.cases if not c.secret)
    feedback = grade(replace(plan, cases=public), script).feedback()
    assert feedback.passed < feedback.total
    diagnoses = json.loads(render("json", feedback))["diagnoses"]
    assert [d["mistake"] for d in diagnoses] == ([] if named is None else [named])
    for fmt in ("plain", "html", "github", "junit", "gradescope"):  # the same, or none in any
        assert ("a program that" in render(fmt, feedback)) is (named is not None), fmt


def test_one_failure_under_x_is_too_little_to_name_a_mistake(
    root: Root, sandbox: Sandbox, tmp_path: Path
) -> None:
    """-x stops at top-k's case 01, where k + 1 tokens and a cut at the k-th distinct value
    print the same: the skipped cases, which would tell them apart, rule the name out (the
    -x tip sends students to -x, and one case's output named wrong causes)."""
    from grader.running.grading import grade

    script = tmp_path / "mine.py"
    script.write_text(_RANKED + "for t, v in ranked[: k + 1]:\n    print(t, v)\n")
    plan = prepare(load_exercise("top-k", root), sandbox=sandbox)
    public = tuple(c for c in plan.cases if not c.secret)
    report = grade(replace(plan, cases=public, stop_after_failure=True), script)
    assert [o.verdict for o in report.outcomes][1:] == [Verdict.SKIPPED] * (len(public) - 1)
    assert report.diagnosis is None
