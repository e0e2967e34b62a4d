"""Where a report goes: the chosen format, to stdout or a file, and GitHub's job summary."""

from __future__ import annotations

import sys
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
    verbosity: int = 0,
    diff: bool = False,
) -> None:
    """Render ``feedback`` as ``requested`` (``auto`` picks for the terminal) and write it."""
    if requested == "github" and environ.get("GITHUB_STEP_SUMMARY"):
        from ..render.github import render_github_summary

        with open(environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as summary:
            summary.write(render_github_summary(feedback))
    to_terminal = output is None and sys.stdout.isatty()
    chosen = choose(requested, to_terminal=to_terminal, no_color=bool(environ.get("NO_COLOR")))
    if chosen in ("plain", "rich") and (verbosity or diff):  # the human report's own knobs
        from ..render.text import render_plain, render_rich

        text = (render_rich if chosen == "rich" else render_plain)(feedback, verbosity, diff=diff)
    else:
        text = render(chosen, feedback)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomically(output, text)
        click.echo(f"grade: wrote {output.absolute()}", err=True)
