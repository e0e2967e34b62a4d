"""``grade batch``: a class graded into its gradebook files, journalled so that an interrupted
run goes on where it stopped; ``grade merge``: the shards' gradebooks joined; ``grade compare``:
two gradebooks of a class, and whose result moved.

``start_class`` does what happens before any run (the submissions found and sliced, the plan,
the journal); ``ClassGrading.grade`` grades them and writes every file asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..files import refuse_overwriting, write_atomically
from ..judging.errors import GraderError, UsageError
from ..model.spec import Exercise
from ..render import classbook
from ..running import batch
from ..running.gradebook import Entry, Gradebook, Journal, Shard, merge
from ..running.plan import Plan
from ..running.submissions import Submission, identity
from .options import GradingOptions
from .planning import Say, plan_for

if TYPE_CHECKING:
    from ..running.rejudge import Rejudging


@dataclass(frozen=True)
class ClassOptions:
    """What ``grade batch`` grades, how, and which files it writes."""

    paths: tuple[str, ...]  # files, folders or quoted globs
    csv_file: Path | None = None
    json_file: Path | None = None
    junit_file: Path | None = None
    summary_file: Path | None = None
    shard: str | None = None  # K/N, or auto: the CI engine's
    skip_after_timeout: bool = False
    max_time_per_submission: float | None = None
    resume: bool = False
    dashboard_file: Path | None = None  # the class at a glance, one page
    reports_dir: Path | None = None  # each submission's HTML report, which the page links
    anonymize: bool = False  # the page shows no names (nor links to reports, which do)

    def __post_init__(self) -> None:
        if self.resume and self.kept is None:
            raise UsageError("--resume needs the --json or --csv file the interrupted run wrote")

    @property
    def kept(self) -> Path | None:
        """The file the journal is kept beside."""
        return self.json_file or self.csv_file


@dataclass(frozen=True)
class ClassGrading:
    """A class set up for grading: who, with which plan, what an earlier run already did."""

    plan: Plan
    found: tuple[Submission, ...]
    options: ClassOptions
    part: Shard | None
    journal: Journal | None
    graded: tuple[Entry, ...]  # rows a --resume keeps, not graded again

    def grade(self, *, on_done: Callable[[Entry], None] | None = None) -> Gradebook:
        """Grade every submission not graded yet, each row journalled as it completes; then
        write every gradebook file asked for."""

        def done(entry: Entry) -> None:
            if self.journal is not None:
                self.journal.append(entry)
            if on_done is not None:
                on_done(entry)

        book = batch.grade_batch(
            self.plan, self.found, shard_label=self.part, on_done=done, graded=self.graded
        )
        self._write(book)
        if self.journal is not None and not book.interrupted and not book.not_judged:
            self.journal.remove()  # kept while a row awaits a grading again (--resume)
        return book

    def _write(self, book: Gradebook) -> None:
        options = self.options
        written: list[tuple[Path | None, Callable[[Gradebook], str]]] = [
            (options.json_file, Gradebook.to_json),
            (options.csv_file, classbook.csv),
            (options.junit_file, classbook.junit),
            (options.summary_file, classbook.markdown),
        ]
        for path, render in written:
            if path is not None:
                write_atomically(path, render(book))
        if options.reports_dir is None and options.dashboard_file is None:
            return
        # the pages' renderers, imported only for them: ~15 ms of every batch's start otherwise
        from .class_pages import write_dashboard, write_reports

        reports = write_reports(book, options.reports_dir) if options.reports_dir else {}
        if options.dashboard_file is not None:
            page = options.dashboard_file
            write_dashboard(book, page, reports=reports, anonymize=options.anonymize)


def start_class(
    exercise: Exercise, options: ClassOptions, grading: GradingOptions, *, say: Say
) -> ClassGrading:
    """Find the class's submissions (the course's limit and expected file name), take the shard's
    slice, refuse to write over any of them, and open the journal (resumed if asked)."""
    part = batch.parse_shard(options.shard) if options.shard is not None else None
    config = exercise.root.config
    found = batch.discover(
        options.paths, config.max_submission_bytes, config.submissions.get(exercise.name)
    )
    if part is not None:
        found = batch.shard(found, part)
    for sub in found:  # what of each notebook was not graded, once per student
        removed = sub.cells.notice() if sub.cells is not None else None
        if removed is not None:
            say(f"{sub.name}: {removed}")
    outputs = [
        options.json_file,
        options.csv_file,
        options.junit_file,
        options.summary_file,
        options.dashboard_file,
    ]
    refuse_overwriting(outputs, [s.path for s in found], "a submission")
    plan = replace(
        plan_for(exercise, grading, say=say, submissions=[s.path for s in found]),
        skip_after_timeout=options.skip_after_timeout,
        max_time_per_submission=options.max_time_per_submission,
    )
    kept = options.kept
    journal = Journal(kept.with_name(kept.name + ".journal")) if kept is not None else None
    graded: list[Entry] = []
    if journal is not None:
        found_ids = {s.name: identity(s) for s in found}
        header = journal.header(plan.exercise.name, [c.name for c in plan.cases], part, found_ids)
        if options.resume and journal.path.exists():
            # a row the grader failed on is not done: --resume grades it again
            graded = [e for e in journal.load(header) if e.score is not None]
        journal.start(header, graded)
    return ClassGrading(plan, tuple(found), options, part, journal, tuple(graded))


def merge_shards(
    inputs: Sequence[Path], out: Path, *, csv_file: Path | None = None, allow_partial: bool = False
) -> Gradebook:
    """Join the JSON gradebooks of ``grade batch --shard`` runs into ``out`` (and ``csv_file``):
    never over one of the inputs, nor over another shard's gradebook."""
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
    return merged


def compare_gradebooks(old: Path, new: Path, *, expect: Path | None = None) -> Rejudging:
    """``grade compare``: the two gradebooks (JSON or CSV) read, and whose result moved."""
    from ..running.rejudge import read_expected, read_results, rejudged

    expected = read_expected(expect) if expect is not None else None
    return rejudged(read_results(old), read_results(new), expected=expected)
