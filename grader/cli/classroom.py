"""Commands for grading a class: ``grade batch`` and ``grade merge``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..errors import ExitCode
from .base import (
    cases_option,
    cli,
    jobs_option,
    open_sandbox,
    resolve_root,
    root_option,
    sandbox_option,
    timeout_option,
)


@cli.command()
@click.argument("exercise")
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
@click.option("--shard", help="Grade only the K-th of N deterministic slices, e.g. 2/4.")
@cases_option
@timeout_option
@jobs_option("Submissions")
@sandbox_option
@root_option
def batch(
    exercise: str,
    paths: tuple[str, ...],
    csv_file: Path | None,
    json_file: Path | None,
    shard: str | None,
    cases_dir: Path | None,
    timeout: float | None,
    jobs: int | None,
    sandbox_mode: str,
    root: Path | None,
) -> None:
    """Grade many submissions of EXERCISE: files, folders or quoted globs.

    \b
    A file is one submission. A folder holding one .py file is one submission,
    named after the folder. Any other folder is a class: each sub-folder and
    file in it is one submission. Exit status: 0 when every submission got a
    row (whatever its score), 4 on a grader error, 130 when interrupted.
    """
    from .. import batch as batching
    from .. import gradebook
    from ..grading import exercise_cases, secret_folders
    from ..render.progress import batch_progress
    from ..spec import load_exercise

    spec = load_exercise(exercise, resolve_root(root))
    cases = exercise_cases(spec, cases_dir)
    found = batching.discover(paths)
    if shard is not None:
        found = batching.shard(found, *batching.parse_shard(shard))
    sandbox = open_sandbox(sandbox_mode, secret_folders(spec, cases_dir))
    with batch_progress(len(found), sys.stderr) as on_done:
        book = batching.grade_batch(
            spec,
            found,
            cases=cases,
            runner=sandbox.run,
            jobs=jobs or os.cpu_count() or 1,
            timeout_s=timeout,
            shard_label=shard,
            on_done=on_done,
            cancel=sandbox.cancel,
        )
    data = gradebook.gradebook_dict(book)
    if json_file is not None:
        json_file.write_text(gradebook.dump(data), encoding="utf-8")
    if csv_file is not None:
        csv_file.write_text(gradebook.csv_text(data), encoding="utf-8")
    click.echo(gradebook.summary_text(data), nl=False)
    if book.interrupted:
        click.echo(
            f"grade: interrupted: kept {len(book.entries)} of {len(found)} submissions", err=True
        )
        sys.exit(130)
    grader_errors = any(
        e.report is not None and e.report.exit_code == ExitCode.GRADER_ERROR for e in book.entries
    )
    sys.exit(ExitCode.GRADER_ERROR if grader_errors else ExitCode.OK)


@cli.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.argument(
    "inputs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the merged gradebook as CSV.",
)
def merge(out: Path, inputs: tuple[Path, ...], csv_file: Path | None) -> None:
    """Join the JSON gradebooks of grade batch --shard runs into OUT."""
    from .. import gradebook

    merged = gradebook.merge([gradebook.read(p) for p in inputs])
    out.write_text(gradebook.dump(merged), encoding="utf-8")
    if csv_file is not None:
        csv_file.write_text(gradebook.csv_text(merged), encoding="utf-8")
    click.echo(f"{out}: {len(merged['submissions'])} submissions from {len(inputs)} gradebooks")
