"""Where a report goes: the chosen format, to stdout or a file, and GitHub's job summary."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import click

from ..files import write_atomically
from ..judging.records import Feedback
from ..render import choose, render


def emit(
    feedback: Feedback,
    requested: str,
    *,
    output: Path | None,
    environ: Mapping[str, str],
    verbosity: int,
    diff: bool,
) -> None:
    """Write what the printer as-it-goes (live.py) does not print: a machine format on stdout,
    or any report into ``output``, where a human one is plain text (no terminal, no colour)."""
    if requested == "github" and environ.get("GITHUB_STEP_SUMMARY"):
        from ..render.github import render_github_summary

        with open(environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as summary:
            summary.write(render_github_summary(feedback))
    chosen = choose(requested, to_terminal=False, no_color=False)
    if chosen == "plain":  # -q, -v and --diff are the human report's own knobs
        from ..render.text import render_plain

        text = render_plain(feedback, verbosity, diff=diff)
    else:
        text = render(chosen, feedback)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomically(output, text)
        click.echo(f"grade: wrote {output.absolute()}", err=True)
