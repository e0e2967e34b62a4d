"""``grade similar``: which submissions of a class share more than the exercise explains."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from .base import cli, complete_exercises, load, root_option


@cli.command()
@click.argument("exercise", shell_complete=complete_exercises)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report as JSON (kind grade-similarity, versioned; the same bytes every run).",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write one self-contained HTML page: ranked pairs, matched lines side by side, "
    "clusters, the histogram of every pair's score.",
)
@click.option(
    "--starter",
    "starters",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Code every student was given (repeatable): what it shares is no one's evidence.",
)
@click.option(
    "--archive",
    "archives",
    multiple=True,
    help="An earlier class (a folder or quoted glob, repeatable): compared with this class "
    "only, never within itself.",
)
@click.option(
    "--gradebook",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="This class's gradebook (grade batch --json): a second score per pair from shared "
    "rare failures and named mistakes, shown beside the token score.",
)
@click.option(
    "--threshold",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="List the pairs scoring this or more (the share of the smaller side's fingerprints).",
)
@click.option(
    "--max-share",
    type=click.FloatRange(0, 1, min_open=True),
    default=0.5,
    show_default=True,
    help="Ignore the fragments more than this share of the class has: the exercise's own.",
)
@click.option("--anonymize", is_flag=True, help="Replace the names by stable pseudonyms.")
@root_option
def similar(
    exercise: str,
    paths: tuple[str, ...],
    json_file: Path | None,
    html_file: Path | None,
    starters: tuple[Path, ...],
    archives: tuple[str, ...],
    gradebook: Path | None,
    threshold: float,
    max_share: float,
    anonymize: bool,
    root: Path | None,
) -> None:
    """Compare the submissions of EXERCISE pairwise: files, folders or quoted globs, found as
    grade batch finds them.

    \b
    Winnowed fingerprints of the normalised token stream, scored through an
    inverted index; the reference's, the starter code's and the class's common
    fragments are left out. Similarity is evidence for a person to look at,
    not a verdict. Exit status: 0 when the report is written, 2 usage error.
    """
    from ..commands.comparing import SimilarFiles, compare_class
    from ..teacher.similarity import SimilarityOptions
    from ..teacher.similarity.summary import summary

    options = SimilarityOptions(
        threshold=threshold,
        max_share=max_share,
        starters=starters,
        archive=archives,
        gradebook=gradebook,
        anonymize=anonymize,
    )
    files = SimilarFiles(paths, json_file=json_file, html_file=html_file)
    with _progress() as show:
        report = compare_class(load(exercise, root), files, options, on_progress=show)
    click.echo(summary(report), nl=False)
    sys.exit(0)


@contextmanager
def _progress() -> Iterator[Callable[[int, int], None] | None]:
    """A bar on a terminal; nothing elsewhere (a CI log gets the summary only)."""
    if not (sys.stderr.isatty() and sys.stdout.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    progress = Progress(
        "comparing",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    )
    task = progress.add_task("comparing", total=None)

    def show(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    with progress:
        yield show
