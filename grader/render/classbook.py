"""A class's gradebook as files for people and CI: a spreadsheet (CSV), a line per student for
a log, JUnit XML and a Markdown summary for a job page. Student names are data in each, through
that format's own escaping."""

from __future__ import annotations

import csv as csv_module
import io
from typing import TYPE_CHECKING

from .escape import log_safe, markdown_text, safe
from .score import bucket_label, histogram, score_words

if TYPE_CHECKING:
    from ..running.gradebook import Entry, Gradebook

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet would run as a formula
CSV_HEADER = ("submission", "score", "points", "max_points", "passed", "total", "error")


def csv(book: Gradebook) -> str:
    """One row per submission, a column per case; names cannot become spreadsheet formulas."""
    rows: list[list[object]] = []
    rows.append([*CSV_HEADER, *(cell(n) for n in book.case_names)])
    # what an ungraded submission could have scored: the same as every graded one
    most = next((f"{e.feedback.max_points:g}" for e in book.entries if e.feedback), "")
    for e in book.entries:
        f = e.feedback
        verdicts = {c.name: c.verdict.value for c in f.cases} if f is not None else {}
        judged = e.score is not None  # no number where the grader never judged: never a zero
        rows.append(
            [
                cell(e.submission),
                f"{e.score:.4f}" if e.score is not None else "",
                "" if not judged else f"{f.points:g}" if f is not None else "0",
                f"{f.max_points:g}" if f is not None else most,
                "" if not judged else f.passed if f is not None else 0,
                f.total if f is not None else len(book.case_names),
                cell(e.problem),
                *(verdicts.get(name, "") for name in book.case_names),
            ]
        )
    return "".join(csv_line(row) for row in rows)


def csv_line(fields: list[object]) -> str:
    """One row, ending in "\n", every field holding a CR or an LF quoted: the csv module quotes
    only for the characters of its own line terminator, and a reader starts a row at a bare CR."""
    one = io.StringIO()
    csv_module.writer(one, lineterminator="\r\n").writerow(fields)
    return one.getvalue().removesuffix("\r\n") + "\n"


def result(e: Entry) -> str:
    """A row's result in words: passed and score, or why it has none."""
    f = e.feedback
    if f is None:
        return f"error: {safe(e.problem)}"
    if e.score is None:
        return safe(e.problem)
    return f"{f.passed}/{f.total} passed, {score_words(f, points=False)}"


def progress_line(done: int, total: int, e: Entry) -> str:
    """One finished submission, for a log that has no live bar (CI)."""
    return log_safe(f"[{done}/{total}] {safe(e.submission)}: {result(e)}")


def summary(book: Gradebook) -> str:
    """One line per submission, for a terminal or a CI log (names shown, never acted on)."""
    names = [safe(e.submission) for e in book.entries]
    width = max((len(n) for n in names), default=0)
    lines = []
    for name, e in zip(names, book.entries, strict=True):
        lines.append(log_safe(f"{name:<{width}}  {result(e)}"))
    n = len(book.entries)
    faults = len(book.not_judged)
    tail = f", {faults} not graded (a grader error)" if faults else ""
    lines.append(
        f"{n} submissions, {book.graded - faults} graded, {n - book.graded} not gradable{tail}"
    )
    return "\n".join(lines) + "\n"


def junit(book: Gradebook) -> str:
    """JUnit XML for a class: one ``<testsuite>`` per submission, each case a ``<testcase>``;
    a submission that could not be graded is a suite holding one ``<error>``."""
    import xml.etree.ElementTree as ET

    from . import junit as suites

    root = ET.Element("testsuites")  # the Ant schema allows it no attributes
    for number, entry in enumerate(book.entries):
        if entry.feedback is not None:
            element = suites.suite(entry.feedback, name=safe(entry.submission))
        else:
            element = ET.Element(
                "testsuite",
                name=safe(entry.submission),
                tests="1",
                failures="0",
                errors="1",
                skipped="0",
                time="0",
                timestamp="1970-01-01T00:00:00",
                hostname="localhost",
            )
            ET.SubElement(element, "properties")
            case = ET.SubElement(
                element, "testcase", name="submission", classname=book.exercise, time="0"
            )
            ET.SubElement(case, "error", message=safe(entry.error or ""), type="not_gradable")
            ET.SubElement(element, "system-out")
            ET.SubElement(element, "system-err")
        element.set("package", book.exercise)  # the Ant schema wants both inside <testsuites>
        element.set("id", str(number))
        root.append(element)
    return suites.document(root)


def markdown(book: Gradebook) -> str:
    """A class summary for a CI job page: scores as a histogram, and each case's pass rate."""
    graded = book.judged

    lines = [
        f"### {_md(book.exercise)}: {len(book.entries)} submissions, {len(graded)} graded",
        "",
        "| score | submissions | |",
        "| --- | --- | --- |",
    ]
    buckets = histogram(e.score for e in book.entries)
    for i in reversed(range(len(buckets))):
        lines.append(f"| {bucket_label(i)} | {buckets[i]} | {'█' * buckets[i]} |")
    lines += ["", "| case | passed | rate |", "| --- | --- | --- |"]
    for name in book.case_names:
        passed = sum(1 for f in graded for c in f.cases if c.name == name and c.passed)
        rate = passed / len(graded) if graded else 0.0
        lines.append(f"| {_md(name)} | {passed}/{len(graded)} | {rate:.0%} |")
    if book.interrupted:
        lines += ["", "**Interrupted**: these are the submissions graded before it stopped."]
    not_graded = [e for e in book.entries if e.feedback is None]
    if not_graded:
        lines += ["", "Not gradable: " + ", ".join(_md(e.submission) for e in not_graded)]
    if book.not_judged:
        named = ", ".join(_md(e.submission) for e in book.not_judged)
        lines += ["", f"Not graded (a grader error, no score; grade them again): {named}"]
    return "\n".join(lines) + "\n"


_md = markdown_text  # student-named text in Markdown: the one Markdown encoder


def cell(text: str) -> str:
    """A name or a message as one cell of plain text: what a terminal would act on (`cat
    gradebook.csv` is a common first look) escaped as the text report escapes it, line breaks
    included, and a formula's first character made text for a spreadsheet (OWASP's advice for
    CSV injection)."""
    text = safe(text)
    return "'" + text if text.startswith(FORMULA_START) else text
