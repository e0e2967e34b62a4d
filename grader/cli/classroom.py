"""Commands for grading a class: ``grade batch``, ``grade merge``, ``grade compare`` and
``grade export``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..render.escape import safe
from .base import (
    cases_option,
    cli,
    complete_exercises,
    interrupted_exit_code,
    isolation_option,
    jobs_option,
    load,
    loaded_early,
    root_option,
    sandbox_option,
    say,
    timeout_option,
    with_grading,
)

if TYPE_CHECKING:
    from ..commands.options import GradingOptions
    from ..running.gradebook import Gradebook


@cli.command()
@click.argument("exercise", shell_complete=complete_exercises)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the gradebook as CSV: one row per submission, a column per case.",
)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the gradebook as JSON: every report (for grade merge).",
)
@click.option(
    "--junit",
    "junit_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write JUnit XML: a test suite per submission (for GitLab and Jenkins test reports).",
)
@click.option(
    "--summary",
    "summary_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a Markdown summary: score histogram, each case's pass rate.",
)
@click.option(
    "--dashboard",
    "dashboard_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the class at a glance as one HTML page: scores, each case's pass rate, known "
    "mistakes, time and memory.",
)
@click.option(
    "--reports",
    "reports_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write each submission's HTML report into this folder (the dashboard links them).",
)
@click.option(
    "--anonymize", is_flag=True, help="The dashboard names no submission (and links no report)."
)
@click.option(
    "--shard",
    help="Grade only the K-th of N deterministic slices, e.g. 2/4; auto: the CI engine's "
    "(GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with "
    "GRADE_SHARD_TOTAL, or GRADE_SHARD=K/N).",
)
@click.option(
    "--skip-after-timeout",
    is_flag=True,
    help="Once a case of a submission times out, skip its other cases (status skipped).",
)
@click.option(
    "--max-time-per-submission",
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds of runs a submission may use; its remaining cases are then skipped.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Go on from the journal an interrupted or killed run left beside --json (or --csv).",
)
@cases_option
@timeout_option
@jobs_option
@isolation_option
@sandbox_option
@root_option
@with_grading
def batch(exercise: str, grading: GradingOptions, root: Path | None, **chosen: Any) -> None:
    """Grade many submissions of EXERCISE: files, folders or quoted globs.

    \b
    A file is one submission. A folder holding one .py file (or notebook) and
    no sub-folder is one submission, named after the folder. Any other folder
    is a class: each sub-folder and file in it is one submission (a symbolic
    link in it is refused, never followed). Every case-run of every submission
    shares one pool of --jobs workers. Exit status: 0 when every submission got
    a row (whatever its score), 4 on a grader error, 130, 143 or 129 when
    interrupted (Ctrl-C, SIGTERM, SIGHUP).
    """
    spec = loaded_early(exercise, root, grading)
    from ..commands.classes import ClassOptions, start_class
    from ..render import classbook
    from .progress import batch_progress

    options = ClassOptions(**chosen)
    started = start_class(spec or load(exercise, root), options, grading, say=say)
    with batch_progress(len(started.found), sys.stderr, sys.stdout) as show:
        book = started.grade(on_done=show)
    click.echo(classbook.summary(book), nl=False)
    if book.interrupted:
        journal = started.journal
        say(
            f"interrupted: kept {len(book.entries)} of {len(started.found)} submissions"
            + (f"; go on with --resume ({journal.path} holds them)" if journal else "")
        )
        sys.exit(interrupted_exit_code())
    if book.not_judged:
        again = (
            _again_command(options.resume) if started.journal else _paths_command(exercise, book)
        )
        say(not_judged_line(book) + f"; grade just those again: {again}")
    sys.exit(book.exit_code)


def not_judged_line(book: Gradebook) -> str:
    """The stderr line of a class with grader errors: who, never charged."""
    names = [safe(e.submission) for e in book.not_judged]
    shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
    return (
        f"{len(names)} submission{'s' if len(names) != 1 else ''} not graded "
        f"(a grader error, no score written): {shown}"
    )


def _again_command(resumed: bool) -> str:
    """This very command with --resume: the journal kept the rows the grader did judge."""
    import shlex  # here, not at the top: every grade's start paid for it

    argv = ["grade", *sys.argv[1:]]
    if not resumed:
        argv.append("--resume")
    return safe(shlex.join(argv))


def _paths_command(exercise: str, book: Gradebook) -> str:
    import shlex

    paths = [e.path for e in book.not_judged]
    return safe(shlex.join(["grade", "batch", exercise, *paths, "--jobs", "1"]))


@cli.command()
@click.argument(
    "inputs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The merged gradebook to write (never a shard's: an option, so it cannot be forgotten).",
)
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the merged gradebook as CSV.",
)
@click.option("--allow-partial", is_flag=True, help="Merge even when some shard K/N is missing.")
def merge(out: Path, inputs: tuple[Path, ...], csv_file: Path | None, allow_partial: bool) -> None:
    """Join the JSON gradebooks of grade batch --shard runs (INPUTS) into --output."""
    from ..commands.classes import merge_shards

    merged = merge_shards(inputs, out, csv_file=csv_file, allow_partial=allow_partial)
    click.echo(f"{out}: {len(merged.entries)} submissions from {len(inputs)} gradebooks")
    if merged.not_judged:
        say(
            not_judged_line(merged) + "; grade them again in their shard (grade batch ... "
            "--resume) and merge again"
        )
    sys.exit(merged.exit_code)


@cli.command()
@click.argument("old", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("new", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="How to print what changed.",
)
@click.option(
    "--expect",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A reviewed list of the submissions allowed to change: one name a line, or the JSON "
    "of an earlier grade compare --format json.",
)
def compare(old: Path, new: Path, output_format: str, expect: Path | None) -> None:
    """List every submission whose score or a case's verdict differs from OLD to NEW.

    \b
    OLD and NEW are gradebooks of one class (grade batch --json or --csv, grade
    merge), for example before and after a case was changed. Each change names
    the case, its old and new verdict and the new message (JSON gradebooks
    carry messages, CSV ones verdicts only); submissions in only one gradebook
    are listed too. Exit status: 0 when nothing moved (or only what --expect
    allows), 1 when something did, 2 when a gradebook cannot be read.
    """
    from ..commands.classes import compare_gradebooks
    from ..render import rejudge_report

    found = compare_gradebooks(old, new, expect=expect)
    render = rejudge_report.to_json if output_format == "json" else rejudge_report.text
    click.echo(render(found), nl=False)
    sys.exit(found.exit_code)


@cli.command("export")
@click.argument("gradebook", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--lms",
    type=click.Choice(["canvas", "moodle", "blackboard"]),
    required=True,
    help="Whose gradebook export --roster is.",
)
@click.option(
    "--roster",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="The gradebook export downloaded from the LMS (CSV, or Blackboard's tab-separated).",
)
@click.option(
    "--column",
    required=True,
    help="The assignment's column to fill: its full header, or its name (Quiz 1 for Canvas's "
    "'Quiz 1 (1234)').",
)
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The filled export to write (a new file: never the export itself).",
)
@click.option(
    "--match-column",
    help="The export's column that names a student as the gradebook does (default: Canvas's "
    "SIS Login ID, Moodle's Email address, Blackboard's Username).",
)
@click.option(
    "--map",
    "map_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A CSV of pairs (after a header row): submission name, the --match-column's value.",
)
@click.option(
    "--max-points",
    type=click.FloatRange(min=0, min_open=True),
    help="What a full score is worth where the export says no maximum (Moodle).",
)
@click.option(
    "--case-columns", is_flag=True, help="Also add a column per case: the points it earned."
)
@click.option(
    "--allow-unmatched",
    is_flag=True,
    help="Write the file even when a submission or a student matched no one.",
)
def export(
    gradebook: Path, roster: Path, out: Path, map_file: Path | None, lms: str, **chosen: Any
) -> None:
    """Fill a column of an LMS's gradebook export with GRADEBOOK's scores.

    \b
    GRADEBOOK is grade batch's --json (or --csv). The export is the LMS's own
    download (Canvas: Grades > Export; Moodle: Export > Plain text file;
    Blackboard: Work Offline > Download); --output is the same file with the
    column filled, to upload back. Scores are points of the column's maximum
    where the export gives one. A submission the grader failed on is left empty
    and listed, never a 0. Exit status: 0 when every submission and student
    matched, 1 (nothing written) when some did not, 4 when a submission was not
    graded (a grader error), 2 when a file cannot be used.
    """
    from ..commands.exporting import export_scores, read_pairs
    from ..running.lms import ExportOptions, Lms

    pairs = read_pairs(map_file) if map_file is not None else None
    done = export_scores(gradebook, roster, out, ExportOptions(lms=Lms(lms), pairs=pairs, **chosen))
    names = [safe(n) for n in done.unmatched_submissions]
    if names:
        say(f"{len(names)} submission(s) match no student: {', '.join(names)}")
    students = [safe(n) for n in done.unmatched_students]
    if students:
        say(f"{len(students)} student(s) have no submission: {', '.join(students)}")
    if done.not_graded:
        named = ", ".join(safe(n) for n in done.not_graded)
        say(f"{len(done.not_graded)} not graded (a grader error), left empty: {named}")
    if not (done.complete or done.allowed):
        say(f"nothing written to {out}; pass --allow-unmatched to write it anyway")
    else:
        worth = (
            f" (points of {done.maximum:g})"
            if done.maximum is not None
            else " (the gradebook's own points: the export gives no maximum, --max-points does)"
        )
        click.echo(safe(f"{out}: {done.filled} scores in {done.column!r}{worth}"))
    sys.exit(done.exit_code)


@cli.command()
@click.argument("gradebook", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The HTML page to write.",
)
@click.option(
    "--reports",
    "reports_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder grade batch --reports wrote: the page links the reports found there.",
)
@click.option("--anonymize", is_flag=True, help="Name no submission (and link no report).")
def dashboard(gradebook: Path, out: Path, reports_dir: Path | None, anonymize: bool) -> None:
    """The class at a glance, as one HTML page, from a JSON GRADEBOOK (grade batch --json, or
    grade merge): scores, each case's pass rate, known mistakes, time and memory."""
    from ..commands.class_pages import dashboard_from

    book = dashboard_from(gradebook, out, reports_dir=reports_dir, anonymize=anonymize)
    click.echo(f"{out}: {len(book.entries)} submissions")
