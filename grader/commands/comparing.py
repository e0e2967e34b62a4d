"""``grade similar``: a class found as ``grade batch`` finds it, compared, and its report
written (JSON, HTML) atomically, never over one of the files it reads."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from ..files import refuse_overwriting, write_atomically
from ..judging.errors import InternalError, UsageError
from ..model.material import material
from ..model.spec import Exercise
from ..running.batch import discover
from ..teacher.similarity import SimilarityOptions, SimilarityReport, similar
from ..teacher.similarity.json_report import to_json
from ..teacher.similarity.page import render_page
from ..teacher.similarity.pairing import Progress


@dataclass(frozen=True)
class SimilarFiles:
    """What ``grade similar`` reads (the class's files, folders or globs) and writes."""

    paths: tuple[str, ...]
    json_file: Path | None = None
    html_file: Path | None = None


def compare_class(
    exercise: Exercise,
    files: SimilarFiles,
    options: SimilarityOptions,
    *,
    on_progress: Progress | None = None,
) -> SimilarityReport:
    config = exercise.root.config
    limit, expected = config.max_submission_bytes, config.submissions.get(exercise.name)
    found = discover(files.paths, limit, expected)
    # every file the comparison reads, the earlier classes' and the reference's included
    archived = [s for raw in options.archive for s in discover([raw], limit, expected)]
    inputs = [s.path for s in [*found, *archived] if s.path.is_file()] + list(options.starters)
    if options.gradebook is not None:
        inputs.append(options.gradebook)
    with contextlib.suppress(InternalError):  # an installed course has no reference/
        inputs.append(material(exercise).solution)
    refuse_overwriting([files.json_file, files.html_file], inputs, "an input of grade similar")
    both = (files.json_file, files.html_file)
    if None not in both and both[0].resolve() == both[1].resolve():  # type: ignore[union-attr]
        raise UsageError(f"--json and --html are both {files.json_file}: give two files")
    report = similar(exercise, found, options, on_progress=on_progress)
    if files.json_file is not None:
        write_atomically(files.json_file, to_json(report))
    if files.html_file is not None:
        write_atomically(files.html_file, render_page(report))
    return report
