"""The class dashboard: its figures are the gradebook's, every name is text, anonymising hides
names and report links; and, in a real headless Chromium (slow), the page of a real batch."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
import shutil
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import COURSE, Golden

from grader.cli import cli
from grader.commands.class_pages import report_name
from grader.judging.records import Diagnosis, Feedback
from grader.render.dashboard import case_columns, histogram, render_dashboard
from grader.running.gradebook import Entry, Gradebook

MARKUP = "<img src=x onerror=\"document.title='pwned'\"><script>document.title='js'</script>"
WRONG = COURSE / "reference" / "add" / "wrong"


def _counts_in_page(page: str) -> dict[str, dict[str, int]]:
    """Each case's known mistakes and counts as the page lists them."""
    found: dict[str, dict[str, int]] = {}
    for case, cell in re.findall(r'<tr class="case" data-case="([^"]*)">(.*?)</tr>', page):
        pairs = re.findall(
            r'<span class="mistake">([^<]*)</span>: <span class="count">(\d+)</span>', cell
        )
        found[html.unescape(case)] = {html.unescape(m): int(n) for m, n in pairs}
    return found


def _counts_in_book(data: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The same, counted from the gradebook's JSON rows: the judged reports' diagnoses."""
    counts: dict[str, Counter[str]] = {name: Counter() for name in data["cases"]}
    for row in data["submissions"]:
        if row["report"] is None or row["score"] is None:
            continue
        for case in row["report"]["cases"]:
            if "diagnosis" in case:
                counts[case["name"]][case["diagnosis"]["mistake"]] += 1
    return {name: dict(c) for name, c in counts.items()}


def _book() -> Gradebook:
    from test_gradebook import _book as sample

    book = sample()
    good = book.entries[1].feedback
    assert good is not None
    cases = list(good.cases)
    cases[1] = replace_case(cases[1], Diagnosis("round_half_up", "rounds halves up"))
    marked = Feedback(good.exercise, MARKUP, tuple(cases))
    return Gradebook(
        book.exercise,
        book.case_names,
        (*book.entries, Entry(MARKUP, "class/x.py", marked), Entry("dan", "class/d.py", marked)),
    )


def replace_case(case: Any, diagnosis: Diagnosis) -> Any:
    from dataclasses import replace

    return replace(case, diagnosis=diagnosis)


def test_dashboard_golden(golden: Golden) -> None:
    book = _book()
    reports = {e.submission: f"reports/{report_name(e.submission)}" for e in book.entries[:2]}
    golden("dashboard.html", render_dashboard(book, reports=reports))


def test_the_mistake_counts_are_the_gradebooks() -> None:
    book = _book()
    page = render_dashboard(book)
    assert _counts_in_page(page) == _counts_in_book(json.loads(book.to_json()))
    # the sample report names rounded_scale there (test_render), the two marked round_half_up
    assert _counts_in_page(page)["02-sample-small-groups"] == {
        "round_half_up": 2,
        "rounded_scale": 1,
    }


def test_each_figure_comes_from_the_judged_rows() -> None:
    book = _book()
    # out: the row the grader failed on; in, at 0 as in the CSV: the file that is no script
    assert sum(histogram(book)) == 4 and histogram(book)[0] == 1
    column = {c.name: c for c in case_columns(book)}
    slow = column["04-slow"]
    assert (slow.ran, slow.passed, slow.times) == (3, 0, (5.0, 5.0, 5.0))
    assert slow.peaks_mb == (300.5, 300.5, 300.5) and slow.memory_mb == 512
    assert column["05-hidden"].times == () and column["05-hidden"].peaks_mb == ()


def test_a_name_full_of_markup_is_text() -> None:
    page = render_dashboard(_book())
    assert "<img" not in page and "<script" not in page
    assert html.escape(MARKUP, quote=True) in page


def test_anonymised_the_page_names_no_one_and_links_no_report() -> None:
    book = _book()
    reports = {e.submission: f"r/{report_name(e.submission)}" for e in book.entries}
    named = render_dashboard(book, reports=reports)
    assert "alice" in named and 'href="r/alice-' in named
    page = render_dashboard(book, anonymize=True, reports=reports)
    for entry in book.entries:
        assert html.escape(entry.submission, quote=True) not in page
    assert "alice" not in page and "href=" not in page
    assert "submission 1" in page and "submission 5" in page


def test_anonymised_no_problem_text_or_order_gives_a_name_away() -> None:
    """The review's: a row's problem quotes its path ("is reached through subs/alice, a
    symbolic link"), and rows in the gradebook's order (by name) map back to a roster: the
    rows go in the order of a digest of each name instead."""
    linked = Entry("subs/alice", "subs/alice", None, "is reached through subs/alice, a link")
    book = replace(_book(), entries=(*_book().entries, linked))
    page = render_dashboard(book, anonymize=True)
    assert "alice" not in page and "not gradable" in page
    rows = re.findall(r'class="name">submission (\d+)</td><td>([^<]*)<', page)
    assert [int(n) for n, _ in rows] == list(range(1, len(book.entries) + 1))
    by_digest = sorted(book.entries, key=lambda e: hashlib.blake2b(e.submission.encode()).digest())
    assert len(rows) == len(by_digest)
    for (_, shown), entry in zip(rows, by_digest, strict=True):
        if entry.feedback is not None and entry.score is not None:
            assert html.unescape(shown).startswith(f"{entry.feedback.passed}/")


@pytest.mark.parametrize(
    "name", ["alice", "../../etc/passwd", MARKUP, "a b", "a_b", "é", "x" * 300, "", "\udcff"]
)
def test_a_reports_file_name_is_plain_and_its_own(name: str) -> None:
    found = report_name(name)
    assert re.fullmatch(r"[A-Za-z0-9._-]+\.html", found) and not found.startswith(".")
    assert len(found) < 100
    others = {"alice", "a b", "a_b", "a/b"} - {name}
    assert all(report_name(other) != found for other in others)


def _browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium here (.ci/run installs Debian's with apt-get)")


@pytest.mark.slow  # a real batch and a real browser
def test_the_page_of_a_real_batch_in_chromium(tmp_path: Path) -> None:
    pytest.importorskip("playwright", reason="Playwright drives the browser (.ci/run installs it)")
    browser = _browser()
    folder = tmp_path / "class"
    folder.mkdir()
    named = {"alice": COURSE / "reference" / "add" / "solution.py"}
    named["bob"] = named[MARKUP.replace("/", "-")] = WRONG / "drops_last_number.py"
    named["carol"] = WRONG / "crashes_on_negative.py"
    for name, source in named.items():
        (folder / f"{name}.py").write_bytes(source.read_bytes())
    book, page, reports = tmp_path / "book.json", tmp_path / "dash.html", tmp_path / "reports"
    args = ["batch", "add", str(folder), "--root", str(COURSE), "--json", str(book)]
    args += ["--dashboard", str(page), "--reports", str(reports)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    # the page again from the gradebook, as grade dashboard writes it: the same page
    again = tmp_path / "again.html"
    args = ["dashboard", str(book), "-o", str(again), "--reports", str(reports)]
    assert CliRunner().invoke(cli, args, catch_exceptions=False).exit_code == 0
    assert again.read_text() == page.read_text()

    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=browser, args=["--no-sandbox"])
        tab = chromium.new_page()
        tab.goto(page.as_uri())
        assert tab.title() == "add: 4 submissions, 4 graded"  # no script changed it
        assert tab.locator("img").count() == 0 and tab.locator("body script").count() == 0
        names = tab.locator("td.name").all_inner_texts()
        assert MARKUP.replace("/", "-") in names  # the name, as text
        shown: dict[str, dict[str, int]] = {}
        for row in tab.locator("tr.case").all():
            case = row.locator("td").first.inner_text()
            shown[case] = {
                item.locator(".mistake").inner_text(): int(item.locator(".count").inner_text())
                for item in row.locator("ul.mistakes li").all()
            }
        dom = tab.content()
        chromium.close()
    counts = _counts_in_book(json.loads(book.read_text()))
    assert shown == counts == _counts_in_page(dom)
    assert counts["01-sample"] == {"drops_last_number": 2}
    # each link leads to that submission's own report, beside the page
    links = re.findall(r'<a href="([^"]+)">report</a>', dom)
    assert len(links) == 4
    for link in links:
        assert (tmp_path / html.unescape(link)).is_file()


def test_a_file_that_is_no_script_counts_at_zero_wherever_scores_are_counted() -> None:
    """The CSV scores a file that is no gradable script 0 (Entry.score): the histograms count
    it there too, and a submission the grader failed on stays out of all of them."""
    from grader.render import classbook

    book = _book()
    binary = Entry("eve", "class/eve.py", None, error="not a text file")
    book = Gradebook(book.exercise, book.case_names, (*book.entries, binary))
    scored = [e.score for e in book.entries if e.score is not None]
    assert sum(histogram(book)) == len(scored) == len(book.entries) - len(book.not_judged)
    assert histogram(book)[0] == sum(1 for s in scored if s < 0.1)
    md = classbook.markdown(book)
    assert f"| 0.0-0.1 | {histogram(book)[0]} |" in md
    rows = list(csv.DictReader(io.StringIO(classbook.csv(book))))
    assert {r["submission"]: r["score"] for r in rows}["eve"] == "0.0000"
