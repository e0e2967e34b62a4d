"""-k and --lf as rules: tables on made-up cases and reports, no runs (the CLI's own tests
run them end to end in test_student_loop.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.judging.errors import UsageError
from grader.judging.records import Case, CaseOutcome, Report, Verdict
from grader.running.selection import (
    LAST_FAILED_KEPT,
    cache_dir,
    last_failed,
    only_failed,
    remember,
    select,
)

CASES = (
    Case("01-sample", b"", "", "A first sample"),
    Case("02-negative", b"", "", "Numbers below zero"),
    Case("03-single", b"", "", "One number alone"),
)


@pytest.mark.parametrize(
    ("keywords", "chosen"),
    [
        (["negative"], ["02-negative"]),  # a name
        (["zero"], ["02-negative"]),  # a title only
        (["ALONE"], ["03-single"]),  # a title, in any case
        (["sample", "alone"], ["01-sample", "03-single"]),  # any of them
        (["0"], ["01-sample", "02-negative", "03-single"]),
        ([], ["01-sample", "02-negative", "03-single"]),  # none given: every case
    ],
)
def test_k_matches_names_and_titles(keywords: list[str], chosen: list[str]) -> None:
    assert [c.name for c in select(CASES, keywords)] == chosen


def test_k_matching_nothing_names_the_cases() -> None:
    with pytest.raises(UsageError, match=r"no case matches -k nothing .*01-sample, 02-negative"):
        select(CASES, ["nothing"])


def _report(verdicts: dict[str, Verdict]) -> Report:
    outcomes = tuple(
        CaseOutcome(case=c, verdict=verdicts[c.name], message="", time_s=0.0)
        for c in CASES
        if c.name in verdicts
    )
    return Report(exercise="add", submission="s.py", outcomes=outcomes)


def test_lf_keeps_the_failures_of_cases_a_selection_did_not_run(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    script = tmp_path / "s.py"
    assert last_failed("add", script, environ=env) is None
    everything = {c.name: Verdict.WRONG_ANSWER for c in CASES}
    remember(_report(everything), script, environ=env)
    remember(_report({"02-negative": Verdict.PASSED}), script, environ=env)  # -k negative
    assert last_failed("add", script, environ=env) == {"01-sample", "03-single"}
    remember(_report({"01-sample": Verdict.PASSED}), script, environ=env)
    assert last_failed("add", script, environ=env) == {"03-single"}
    assert last_failed("specdec", script, environ=env) is None  # per exercise


@pytest.mark.parametrize(
    ("failed", "chosen", "note"),
    [
        (None, ["01-sample", "02-negative", "03-single"], "no earlier run"),
        (set(), ["01-sample", "02-negative", "03-single"], "every case passed last time"),
        ({"02-negative"}, ["02-negative"], None),
        ({"gone"}, ["01-sample", "02-negative", "03-single"], "every case passed last time"),
    ],
)
def test_lf_runs_what_failed(failed: set[str] | None, chosen: list[str], note: str | None) -> None:
    cases, said = only_failed(CASES, failed)
    assert [c.name for c in cases] == chosen
    assert (said is None) if note is None else (said is not None and note in said)


@pytest.mark.parametrize(
    ("environ", "where"),
    [
        ({"XDG_CACHE_HOME": "/x/cache", "HOME": "/home/a"}, "/x/cache/grade"),
        ({"XDG_CACHE_HOME": "", "HOME": "/home/a"}, "/home/a/.cache/grade"),
        ({"HOME": "/home/a"}, "/home/a/.cache/grade"),
        ({}, str(Path("~").expanduser() / ".cache" / "grade")),
    ],
)
def test_the_cache_lives_where_xdg_says(environ: dict[str, str], where: str) -> None:
    assert str(cache_dir(environ)) == where


def test_the_cache_is_private_and_survives_a_damaged_file(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "c")}
    script = tmp_path / "s.py"
    remember(_report({"01-sample": Verdict.WRONG_ANSWER}), script, environ=env)
    folder = tmp_path / "c" / "grade"
    assert folder.stat().st_mode & 0o777 == 0o700  # what a student failed is theirs to see
    (folder / "lastfailed.json").write_text('["not", "a", "mapping"]')
    assert last_failed("add", script, environ=env) is None
    remember(_report({"01-sample": Verdict.WRONG_ANSWER}), script, environ=env)
    assert last_failed("add", script, environ=env) == {"01-sample"}


def test_k_names_what_it_was_given() -> None:
    with pytest.raises(UsageError) as caught:
        select(CASES, ["x", "Y"])
    assert str(caught.value) == (
        "no case matches -k x -k Y (the cases: 01-sample, 02-negative, 03-single)"
    )


@pytest.mark.parametrize(
    ("failed", "names", "note"),
    [
        (None, ["01", "02"], "--lf: no earlier run of this submission here; running every case"),
        (set(), ["01", "02"], "--lf: every case passed last time; running every case"),
        ({"gone"}, ["01", "02"], "--lf: every case passed last time; running every case"),
        ({"02"}, ["02"], None),
    ],
)
def test_what_lf_runs_and_says(failed: set[str] | None, names: list[str], note: str | None) -> None:
    cases = [Case(n, b"", "", n) for n in ("01", "02")]
    chosen, said = only_failed(cases, failed)
    assert [c.name for c in chosen] == names and said == note


def test_the_cache_keeps_the_submissions_graded_last(tmp_path: Path) -> None:
    """It grew by one entry per submission path ever graded (a TA's whole class, every
    temporary folder of a test run: 15,761 entries, 2 MB, read and rewritten by every check,
    a third of its time)."""
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    scripts = [tmp_path / f"s{i}.py" for i in range(LAST_FAILED_KEPT + 5)]
    failing = _report({"01-sample": Verdict.WRONG_ANSWER})
    for script in scripts:
        remember(failing, script, environ=env)
    remember(failing, scripts[1], environ=env)  # graded again: now among the latest
    kept = json.loads((cache_dir(env) / "lastfailed.json").read_text())
    assert len(kept) == LAST_FAILED_KEPT
    assert last_failed("add", scripts[0], environ=env) is None  # the oldest, forgotten
    assert last_failed("add", scripts[1], environ=env) == {"01-sample"}
    assert last_failed("add", scripts[-1], environ=env) == {"01-sample"}
    assert last_failed("add", scripts[2], environ=env) is None


def test_a_damaged_entry_is_as_if_nothing_had_failed(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    script = tmp_path / "s.py"
    remember(_report({"01-sample": Verdict.WRONG_ANSWER}), script, environ=env)
    cache = cache_dir(env) / "lastfailed.json"
    damaged = {key: "03-single" for key in json.loads(cache.read_text())}  # a string, not a list
    cache.write_text(json.dumps(damaged))
    remember(_report({"01-sample": Verdict.PASSED}), script, environ=env)
    assert last_failed("add", script, environ=env) == set()  # not the letters of "03-single"
