"""``--format junit``: JUnit XML (the Ant schema) for GitLab, Jenkins and GitHub test reporters.

One ``<testsuite>`` per report; ``<failure>`` for a wrong answer or a limit, ``<error>`` for a crash
or a grader error; the suite's ``<system-out>`` carries the (capped) output of visible cases.
XML 1.0 cannot hold most control characters at all, so student text goes through ``safe`` first.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..judging.records import CaseFeedback, Feedback, FuzzFeedback, Verdict
from .escape import safe
from .text import case_details, fuzz_details, fuzz_title

OUTPUT_CAP = 4096  # characters of each case's stdout kept in <system-out>
_ERRORS = frozenset({Verdict.RUNTIME_ERROR, Verdict.GRADER_ERROR})


def _lines(text: str) -> str:
    return "\n".join(safe(line) for line in text.splitlines())


def _testcase(suite: ET.Element, feedback: Feedback, outcome: CaseFeedback) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        name=outcome.title,
        classname=feedback.exercise,
        time=f"{outcome.time_s:.3f}",
    )
    if outcome.passed:
        return
    if outcome.verdict is Verdict.SKIPPED:
        ET.SubElement(case, "skipped", message=safe(outcome.message))
        return
    tag = "error" if outcome.verdict in _ERRORS else "failure"
    problem = ET.SubElement(case, tag, message=safe(outcome.message), type=outcome.verdict.value)
    problem.text = _lines(case_details(outcome))


def _fuzz_testcase(suite: ET.Element, feedback: Feedback, fuzz: FuzzFeedback) -> None:
    """--fuzz as one more test: a failure (or an error, for a crash) when an input disagreed."""
    found = fuzz.finding
    time = 0.0 if found is None else found.time_s
    name = fuzz_title(fuzz)
    case = ET.SubElement(
        suite, "testcase", name=name, classname=feedback.exercise, time=f"{time:.3f}"
    )
    if found is None:
        return
    tag = "error" if found.verdict in _ERRORS else "failure"
    problem = ET.SubElement(case, tag, message=safe(found.message), type=found.verdict.value)
    problem.text = _lines(fuzz_details(fuzz))


def _system_out(feedback: Feedback) -> str:
    parts = []
    for outcome in feedback.cases:
        if outcome.stdout:
            text = outcome.stdout[:OUTPUT_CAP]
            more = " (cut)" if len(outcome.stdout) > OUTPUT_CAP else ""
            parts.append(f"--- {outcome.name}: stdout{more}\n{_lines(text)}")
    return "\n".join(parts)


def suite(feedback: Feedback, *, name: str | None = None) -> ET.Element:
    """One ``<testsuite>`` for one submission's feedback (named after the exercise, or ``name``)."""
    skipped = sum(1 for c in feedback.cases if c.verdict is Verdict.SKIPPED)
    failures = sum(1 for c in feedback.cases if not c.passed and c.verdict not in _ERRORS) - skipped
    errors = sum(1 for c in feedback.cases if c.verdict in _ERRORS)
    tests = feedback.total
    fuzz = feedback.fuzz
    if fuzz is not None:  # one more test, of no points
        tests += 1
        if fuzz.finding is not None:
            errors += fuzz.finding.verdict in _ERRORS
            failures += fuzz.finding.verdict not in _ERRORS
    suite = ET.Element(
        "testsuite",
        name=name or feedback.exercise,
        # the Ant schema's timestamp has no zone: the first 19 characters, UTC
        timestamp=feedback.started_at[:19] or "1970-01-01T00:00:00",
        hostname=feedback.hostname or "localhost",
        tests=str(tests),
        failures=str(failures),
        errors=str(errors),
        skipped=str(skipped),
        time=f"{feedback.time_s:.3f}",
    )
    properties = ET.SubElement(suite, "properties")
    shown = [("submission", feedback.submission), ("score", _score(feedback))]
    if feedback.course is not None:
        shown += [("course", feedback.course.name), ("course_root", feedback.course.root)]
    # each case's peak memory (the Ant schema has properties only per suite), where shown
    shown += [(f"peak_memory {c.name}", c.memory_text) for c in feedback.cases if c.peak_bytes]
    for name, value in shown:
        ET.SubElement(properties, "property", name=safe(name), value=safe(value))
    for outcome in feedback.cases:
        _testcase(suite, feedback, outcome)
    if fuzz is not None:
        _fuzz_testcase(suite, feedback, fuzz)
    ET.SubElement(suite, "system-out").text = _system_out(feedback)
    ET.SubElement(suite, "system-err").text = ""
    return suite


def _score(feedback: Feedback) -> str:
    """The suite's score property: a number, or "not graded" where the grader failed."""
    grade = feedback.grade
    return "not graded" if grade is None else f"{grade:.6g}"


def document(root: ET.Element) -> str:
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def render_junit(feedback: Feedback) -> str:
    return document(suite(feedback))
