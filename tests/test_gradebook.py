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

from grader.gradebook import Entry, Gradebook, Shard, merge
from grader.judging.errors import ExitCode, UsageError
from grader.judging.records import Feedback
from grader.render import classbook


def _book(shard: Shard | None = None) -> Gradebook:
    feedback = sample_report().feedback()
    names = tuple(c.name for c in feedback.cases)
    good = replace(feedback, submission="class/alice/solution.py")
    return Gradebook(
        exercise="quantize",
        case_names=names,
        entries=(
            Entry('=HYPERLINK("x")', "class/=HYPERLINK.py", good),
            Entry("alice", "class/alice/solution.py", good),
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
