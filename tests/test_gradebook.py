"""The gradebook's files and summary from fixed feedback (no runs): goldens, round trip, merge."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import Golden
from test_render import sample_report

from grader.judging.errors import ExitCode, UsageError
from grader.judging.records import Feedback, Verdict
from grader.render import classbook
from grader.running.gradebook import Entry, Gradebook, Journal, Shard, entry_to_dict, merge


def _book(shard: Shard | None = None) -> Gradebook:
    feedback = sample_report().feedback()
    names = tuple(c.name for c in feedback.cases)
    good = replace(feedback, submission="class/alice/solution.py")
    # the sample has a grader error on one case: alice's row keeps the rest, and is judged
    judged = replace(
        good, cases=tuple(c for c in good.cases if c.verdict is not Verdict.GRADER_ERROR)
    )
    return Gradebook(
        exercise="quantize",
        case_names=names,
        entries=(
            Entry('=HYPERLINK("x")', "class/=HYPERLINK.py", good),
            Entry("alice", "class/alice/solution.py", judged),
            Entry(
                "bob\x1b[2J", "class/bob", None, "expected one .py file in the folder, found none"
            ),
        ),
        shard=shard,
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("gradebook.csv", classbook.csv),
        ("gradebook.json", lambda b: b.to_json()),
        ("gradebook_summary.txt", classbook.summary),
    ],
)
def test_gradebook_goldens(golden: Golden, name: str, text: object) -> None:
    golden(name, text(_book()))  # type: ignore[operator]


def test_csv_and_summary_never_pass_names_through_raw() -> None:
    book = _book()
    rows = list(csv.reader(io.StringIO(classbook.csv(book))))
    assert rows[1][0] == '\'=HYPERLINK("x")'  # shown as text by a spreadsheet, never run
    assert "\x1b" not in classbook.summary(book) and "bob\\x1b[2J" in classbook.summary(book)


@pytest.mark.parametrize(
    ("name", "read_back"),
    [
        # a bare CR would start a row at =2+5 in every reader: written as text, as LF is
        ("bob\r=2+5", "bob\\x0d=2+5"),
        ("bob\n=2+5", "bob\\x0a=2+5"),
        ("\r=2+5", "\\x0d=2+5"),  # a leading CR, a formula's start, is text too
        ("\t=2+5", "\\t=2+5"),
        ("=2+5", "'=2+5"),
        ('say "hi", bob', 'say "hi", bob'),
        ("plain", "plain"),
    ],
)
def test_a_csv_cell_holds_any_name_as_one_cell(name: str, read_back: str) -> None:
    """Issue 38, finding 11: csv.writer with "\n" rows quoted a field for LF, not for CR."""
    book = replace(_book(), entries=(Entry(name, "class/x.py", None, "no script"),))
    rows = list(csv.reader(io.StringIO(classbook.csv(book), newline="")))
    assert [row[0] for row in rows[1:]] == [read_back]
    assert len(rows) == 2


def test_json_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(_book(Shard(1, 2)).to_json())
    loaded = Gradebook.load(path)
    assert loaded.to_json() == path.read_text()
    assert loaded.shard == Shard(1, 2) and isinstance(loaded.entries[0].feedback, Feedback)
    assert json.loads(path.read_text())["shard"] == "1/2"  # the file's form: K/N


@pytest.mark.parametrize("label", ["shard-1", "0/2", "3/2", "1/2/3", 7, ["1", "2"]])
def test_a_damaged_shard_label_is_a_damaged_gradebook(tmp_path: Path, label: object) -> None:
    """It was a string split at run time: 'shard-1' crashed grade merge with a traceback."""
    path = tmp_path / "g.json"
    data = json.loads(_book(Shard(1, 2)).to_json())
    path.write_text(json.dumps({**data, "shard": label}))
    with pytest.raises(UsageError, match="damaged gradebook"):
        Gradebook.load(path)


def test_exit_policy() -> None:
    book = _book()
    assert book.exit_code is ExitCode.GRADER_ERROR  # the sample has a grader_error case
    clean = replace(book, entries=book.entries[2:])
    assert clean.exit_code is ExitCode.OK  # an ungradable submission is a row, not a CI error
    assert replace(clean, interrupted=True).exit_code is ExitCode.INTERRUPTED


def test_merge_joins_and_refuses() -> None:
    book = _book()
    first = replace(book, entries=book.entries[:1], shard=Shard(1, 2))
    second = replace(book, entries=book.entries[1:], shard=Shard(2, 2))
    merged = merge([("a.json", first), ("b.json", second)])
    unsharded = replace(first, shard=None)
    assert [e.submission for e in merged.entries] == [e.submission for e in book.entries]
    assert merged.shard is None
    unsharded = replace(first, shard=None)
    with pytest.raises(
        UsageError, match=re.escape("in more than one gradebook: a.json and b.json")
    ):
        merge([("a.json", unsharded), ("b.json", unsharded)])
    with pytest.raises(UsageError, match=re.escape("a.json and b.json are both shard 1/2")):
        merge([("a.json", first), ("b.json", first)])
    with pytest.raises(UsageError, match=re.escape("shard 2/2 is missing")):
        merge([("a.json", first)])
    assert len(merge([("a.json", first)], allow_partial=True).entries) == 1
    other = replace(second, case_names=second.case_names[:-1])
    with pytest.raises(
        UsageError, match=re.escape("b.json was graded on other cases than a.json: -06-grader")
    ):
        merge([("a.json", first), ("b.json", other)])
    with pytest.raises(UsageError, match="different exercises"):
        merge([("a.json", first), ("b.json", replace(second, exercise="specdec"))])


def test_class_junit_is_read_by_a_junit_consumer(tmp_path: Path) -> None:
    import junitparser
    from test_ci_formats import ANT_XSD

    text = classbook.junit(_book())
    if ANT_XSD.is_file():
        import xmlschema

        xmlschema.XMLSchema(str(ANT_XSD)).validate(text)
    path = tmp_path / "class.xml"
    path.write_text(text, encoding="utf-8")
    suites = list(junitparser.JUnitXml.fromfile(str(path)))
    assert [s.name for s in suites] == ['=HYPERLINK("x")', "alice", "bob\\x1b[2J"]
    assert [(s.tests, s.errors) for s in suites][-1] == (1, 1)  # not gradable: one error
    assert "SECRET" not in text


def test_markdown_summary_golden(golden: Golden) -> None:
    text = classbook.markdown(_book())
    assert "<" not in text and "\x1b" not in text
    golden("gradebook_summary.md", text)


def test_an_interrupted_class_says_so_in_its_summary() -> None:
    assert "**Interrupted**" not in classbook.markdown(_book())
    assert "**Interrupted**" in classbook.markdown(replace(_book(), interrupted=True))


def test_a_journal_keeps_what_was_graded_and_resumes_only_its_own_batch(tmp_path: Path) -> None:
    """The journal of a batch, without a batch: start, append, a line a kill cut short, load,
    another batch's journal refused, remove."""
    book = _book()
    journal = Journal(tmp_path / "g.json.journal")
    graded = {e.submission: f"digest of {e.submission}" for e in book.entries}
    header = journal.header("quantize", book.case_names, Shard(2, 3), graded)
    assert json.loads(header) == {
        "kind": "grade-journal",
        "exercise": "quantize",
        "cases": list(book.case_names),
        "shard": "2/3",
        "submissions": dict(sorted(graded.items())),
    }
    assert json.loads(journal.header("quantize", book.case_names, None))["shard"] is None
    journal.start(header, book.entries[:1])
    journal.append(book.entries[1])
    journal.append(book.entries[2])
    with open(journal.path, "a") as f:
        f.write('{"submission": "cut sh')  # killed mid-line
    loaded = journal.load(header)
    assert [e.submission for e in loaded] == [e.submission for e in book.entries]
    assert [entry_to_dict(e) for e in loaded] == [entry_to_dict(e) for e in book.entries]
    lines = journal.path.read_text().split("\n")
    assert lines[0] == header and len(lines) == 5  # header, three rows, the cut line
    other = journal.header("quantize", book.case_names, Shard(1, 3))
    with pytest.raises(UsageError, match="is the journal of another batch"):
        journal.load(other)
    # another class at the same path: only the rows of the same submissions, unchanged, stay
    changed = {**graded, "alice": "alice, edited since"}
    del changed['=HYPERLINK("x")']
    changed["newcomer"] = "digest of newcomer"
    again = journal.header("quantize", book.case_names, Shard(2, 3), changed)
    assert [e.submission for e in journal.load(again)] == [book.entries[2].submission]
    journal.start(header, [])  # begun anew: the earlier rows are gone
    assert journal.load(header) == []
    journal.remove()
    assert not journal.path.exists()
    journal.remove()  # twice is fine
    with pytest.raises(UsageError, match="cannot resume from"):
        journal.load(header)


@pytest.mark.parametrize(
    ("shards", "allow", "problem"),
    [
        (["1/3", "2/3", "3/3"], False, None),
        (["1/3", "3/3"], False, "shard 2/3 is missing"),
        (["2/3"], False, "shard 1/3, 3/3 is missing"),
        (["1/3", "3/3"], True, None),
        (["1/2", "1/3"], True, "different splits: [2, 3] shards"),
        (["1/1"], False, None),
        (["1/2", "1/2"], True, "a.json and b.json are both shard 1/2"),
    ],
)
def test_which_shards_merge(shards: list[str], allow: bool, problem: str | None) -> None:
    book = _book()
    row = book.entries[0]
    books = [
        (name, replace(book, entries=(replace(row, submission=name),), shard=Shard.parse(s)))
        for name, s in zip(["a.json", "b.json", "c.json"], shards, strict=False)
    ]
    if problem is None:
        merged = merge(books, allow_partial=allow)
        assert merged.shard is None and len(merged.entries) == len(shards)
        assert merged.interrupted is False
    else:
        with pytest.raises(UsageError, match=re.escape(problem)):
            merge(books, allow_partial=allow)


def test_a_merge_of_an_interrupted_shard_is_interrupted() -> None:
    book = _book()
    first = replace(book, entries=book.entries[:1], shard=Shard(1, 2), interrupted=True)
    second = replace(book, entries=book.entries[1:], shard=Shard(2, 2))
    merged = merge([("a", first), ("b", second)])
    assert merged.interrupted is True and merged.exercise == book.exercise
    assert merged.case_names == book.case_names
    with pytest.raises(UsageError, match="no gradebooks to merge"):
        merge([])


def test_a_gradebook_file_round_trips_its_flags(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(replace(_book(), interrupted=True).to_json())
    loaded = Gradebook.load(path)
    assert loaded.interrupted is True and loaded.exercise == "quantize"
    path.write_text("not json")
    with pytest.raises(UsageError, match="cannot read gradebook"):
        Gradebook.load(path)
    path.write_text(json.dumps({**json.loads(_book().to_json()), "submissions": [{"x": 1}]}))
    with pytest.raises(UsageError, match="is a damaged gradebook: KeyError"):
        Gradebook.load(path)


@pytest.mark.parametrize(
    ("environ", "shard"),
    [
        ({"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"}, "1/3"),  # GitLab's parallel: 1-based
        ({"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"}, "3/3"),
        ({"JOB_COMPLETION_INDEX": "0", "GRADE_SHARD_TOTAL": "4"}, "1/4"),  # Kubernetes: 0-based
        ({"JOB_COMPLETION_INDEX": "3", "GRADE_SHARD_TOTAL": "4"}, "4/4"),
        ({"GRADE_SHARD": "2/5", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"}, "2/5"),  # ours first
    ],
)
def test_shard_auto_reads_the_ci_engines_variables(environ: dict[str, str], shard: str) -> None:
    from grader.running.batch import parse_shard

    assert str(parse_shard("auto", environ)) == shard


@pytest.mark.parametrize(
    ("environ", "said"),
    [
        ({}, "none of GRADE_SHARD, CI_NODE_INDEX and CI_NODE_TOTAL"),
        ({"JOB_COMPLETION_INDEX": "0"}, "none of GRADE_SHARD"),  # Kubernetes gives no total
        ({"CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"}, "K must be between 1 and N"),
        ({"CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "3"}, "not whole numbers"),
        ({"GRADE_SHARD": "1-3"}, "a shard is K/N"),
    ],
)
def test_shard_auto_says_what_it_lacks(environ: dict[str, str], said: str) -> None:
    from grader.judging.errors import UsageError
    from grader.running.batch import parse_shard

    with pytest.raises(UsageError, match=said):
        parse_shard("auto", environ)


def test_an_unsharded_gradebook_does_not_hide_the_shards_after_it() -> None:
    """A whole class's gradebook beside one shard of a split: the split's missing shards are
    still missing (the check skips the unsharded one, it does not stop at it)."""
    book = _book()
    row = book.entries[0]
    whole = replace(book, entries=(replace(row, submission="w"),), shard=None)
    part = replace(book, entries=(replace(row, submission="p"),), shard=Shard.parse("1/2"))
    with pytest.raises(UsageError, match=re.escape("shard 2/2 is missing")):
        merge([("whole.json", whole), ("s1.json", part)], allow_partial=False)
    with pytest.raises(UsageError, match=r"^no gradebooks to merge$"):
        merge([], allow_partial=False)


@pytest.mark.parametrize(
    ("a", "b", "said"),
    [
        (["01", "02"], ["02", "03"], ["-01", "+03"]),
        (["01"], ["01", "02"], ["+02"]),
        (["01", "02"], ["02", "01"], ["the same cases in another order"]),
    ],
)
def test_how_two_case_lists_differ(a: list[str], b: list[str], said: list[str]) -> None:
    from grader.running.gradebook import _differ

    assert _differ(a, b) == said


@pytest.mark.parametrize("cut", ["é", "€", "𝄞"])
def test_a_journal_cut_inside_a_character_keeps_the_rows_before(tmp_path: Path, cut: str) -> None:
    book = _book()
    journal = Journal(tmp_path / "g.json.journal")
    graded = {e.submission: "unchanged" for e in book.entries}
    header = journal.header("quantize", book.case_names, None, graded)
    journal.start(header, book.entries[:2])
    with open(journal.path, "ab") as f:
        f.write(('{"submission": "' + cut).encode("utf-8")[:-1])  # killed mid-character
    assert [e.submission for e in journal.load(header)] == [e.submission for e in book.entries[:2]]


def _with_first_case(**changes: object) -> str:
    """alice's row of the sample gradebook as JSON, its first case's fields changed."""
    data = json.loads(_book().to_json())
    row = next(r for r in data["submissions"] if r["submission"] == "alice")
    row["report"]["cases"][0].update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "changes",
    [
        {"points": float("nan")},  # a NaN literal, which json.loads takes
        {"points": "nan"},  # a string float() would take
        {"points": float("inf"), "max_points": float("inf")},
        {"points": 1e6},  # more than the case is worth
        {"points": -5.0, "status": "wrong_answer"},
        {"points": 1.0, "max_points": 1.0, "status": "wrong_answer"},  # full marks, failed
        {"points": 0.0, "max_points": 1.0, "status": "passed"},  # passed, no points
        {"max_points": -1.0, "points": -1.0},
        {"time_s": float("nan")},
        {"time_s": -1.0},
        {"points": True},
        # the review's: Infinity (json's spelling of 1e999) crashed a float-to-int step, exit 4
        {"peak_memory_mb": float("inf")},
        {"memory_limit_mb": float("inf")},
        {"memory_limit_mb": "512"},
        {"exit_code": float("inf")},
        {"exit_code": 1.5},
    ],
    ids=repr,
)
def test_impossible_numbers_are_a_damaged_gradebook(
    tmp_path: Path, changes: dict[str, object]
) -> None:
    """Issue 38's red team: shards of the right shape with numbers no grading gives (NaN, 1e6
    points of a 1-point case, full points for a wrong answer) merged with exit 0 into a score of
    200000.8, and a merged file strict JSON readers refuse."""
    path = tmp_path / "g.json"
    path.write_text(_with_first_case(**changes))
    with pytest.raises(UsageError, match="damaged gradebook"):
        Gradebook.load(path)


def test_a_gradebook_with_the_numbers_grading_gives_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(_with_first_case())
    assert Gradebook.load(path).to_json() == _book().to_json()


def test_a_csv_cell_never_carries_terminal_control() -> None:
    """The red team's gap: `cat gradebook.csv` ran a student's ESC sequence and bidi override;
    a cell is escaped as the terminal's text is, so it is one line of plain text too."""
    book = replace(_book(), entries=(Entry("bob\x1b[31mred\u202e", "class/x.py", None, "x\ny"),))
    text = classbook.csv(book)
    assert "\x1b" not in text and "\u202e" not in text
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[1][0] == "bob\\x1b[31mred\\u202e" and rows[1][6] == "x\\x0ay"
