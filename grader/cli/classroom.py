"""Commands for grading a class: ``grade batch`` and ``grade merge``."""

from __future__ import annotations

import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

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
    plan_for,
    root_option,
    sandbox_option,
    timeout_option,
)

if TYPE_CHECKING:
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
def batch(
    exercise: str,
    paths: tuple[str, ...],
    csv_file: Path | None,
    json_file: Path | None,
    junit_file: Path | None,
    summary_file: Path | None,
    shard: str | None,
    skip_after_timeout: bool,
    max_time_per_submission: float | None,
    resume: bool,
    cases_dir: Path | None,
    timeout: float | None,
    jobs: int | None,
    isolation: str,
    sandbox_mode: str | None,
    root: Path | None,
) -> None:
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
    from ..files import refuse_overwriting, write_atomically
    from ..judging.errors import UsageError
    from ..render import classbook
    from ..running import batch as batching
    from ..running.gradebook import Entry, Journal
    from .progress import batch_progress

    part = batching.parse_shard(shard) if shard is not None else None
    spec = load(exercise, root)
    config = spec.root.config
    found = batching.discover(paths, config.max_submission_bytes, config.submissions.get(spec.name))
    if part is not None:
        found = batching.shard(found, part)
    outputs = [json_file, csv_file, junit_file, summary_file]
    refuse_overwriting(outputs, [s.path for s in found], "a submission")
    plan = replace(
        plan_for(
            spec,
            sandbox_mode=sandbox_mode,
            cases_dir=cases_dir,
            timeout=timeout,
            jobs=jobs,
            isolation=isolation,
            submissions=[s.path for s in found],
        ),
        skip_after_timeout=skip_after_timeout,
        max_time_per_submission=max_time_per_submission,
    )
    kept = json_file or csv_file
    journal = Journal(kept.with_name(kept.name + ".journal")) if kept is not None else None
    if resume and journal is None:
        raise UsageError("--resume needs the --json or --csv file the interrupted run wrote")
    graded = []
    if journal is not None:
        header = journal.header(plan.exercise.name, [c.name for c in plan.cases], part)
        if resume and journal.path.exists():
            # a row the grader failed on is not done: --resume grades it again
            graded = [e for e in journal.load(header) if e.score is not None]
        journal.start(header, graded)
    with batch_progress(len(found), sys.stderr, sys.stdout) as show:

        def on_done(entry: Entry) -> None:
            if journal is not None:
                journal.append(entry)
            show(entry)

        book = batching.grade_batch(plan, found, shard_label=part, on_done=on_done, graded=graded)
    if json_file is not None:
        write_atomically(json_file, book.to_json())
    if csv_file is not None:
        write_atomically(csv_file, classbook.csv(book))
    if junit_file is not None:
        write_atomically(junit_file, classbook.junit(book))
    if summary_file is not None:
        write_atomically(summary_file, classbook.markdown(book))
    if journal is not None and not book.interrupted and not book.not_judged:
        journal.remove()  # kept while a row awaits a grading again (--resume)
    click.echo(classbook.summary(book), nl=False)
    if book.interrupted:
        click.echo(
            f"grade: interrupted: kept {len(book.entries)} of {len(found)} submissions"
            + (f"; go on with --resume ({journal.path} holds them)" if journal else ""),
            err=True,
        )
        sys.exit(interrupted_exit_code())
    if book.not_judged:
        again = _again_command(resume) if journal is not None else _paths_command(exercise, book)
        click.echo(not_judged_line(book) + f"; grade just those again: {again}", err=True)
    sys.exit(book.exit_code)


def not_judged_line(book: Gradebook) -> str:
    """The one stderr line of a class with grader errors: who, never charged."""
    names = [safe(e.submission) for e in book.not_judged]
    shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
    return (
        f"grade: {len(names)} submission{'s' if len(names) != 1 else ''} not graded "
        f"(a grader error, no score written): {shown}"
    )


def _again_command(resumed: bool) -> str:
    """This very command with --resume: the journal kept the rows the grader did judge."""
    argv = ["grade", *sys.argv[1:]]
    if not resumed:
        argv.append("--resume")
    return safe(shlex.join(argv))


def _paths_command(exercise: str, book: Gradebook) -> str:
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
    from ..files import refuse_overwriting, write_atomically
    from ..judging.errors import GraderError, UsageError
    from ..render import classbook
    from ..running.gradebook import Gradebook, merge

    refuse_overwriting([out, csv_file], inputs, "an input of merge")
    if out.is_file():  # -o s1.json with s1 not among the inputs: still a shard's own
        try:
            label = Gradebook.load(out).shard
        except GraderError:
            label = None  # not a gradebook: an ordinary file to write over
        if label is not None:
            raise UsageError(
                f"{out} is the gradebook of shard {label}: write the merge to another file "
                f"(grade merge -o merged.json {out} ...)"
            )
    merged = merge([(str(p), Gradebook.load(p)) for p in inputs], allow_partial=allow_partial)
    write_atomically(out, merged.to_json())
    if csv_file is not None:
        write_atomically(csv_file, classbook.csv(merged))
    click.echo(f"{out}: {len(merged.entries)} submissions from {len(inputs)} gradebooks")
    if merged.not_judged:
        click.echo(
            not_judged_line(merged) + "; grade them again in their shard (grade batch ... "
            "--resume) and merge again",
            err=True,
        )
    sys.exit(merged.exit_code)
