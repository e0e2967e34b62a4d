"""Recognised mistakes: a targeted piece of advice for a case's outcome, beside its verdict.

Each rule looks at one outcome (and, for imports, the submission's folder) and says what a
teaching assistant would say; the first rule that applies wins. Advice is about the student's
own output and code, so it is shown only where the case's details are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from .compare import normalise
from .records import CaseOutcome, Mismatch, Verdict
from .text import last_line

_MISSING_MODULE = re.compile(r"^ModuleNotFoundError: No module named '([A-Za-z_][\w]*)'")


def _extra_lines_first(outcome: CaseOutcome, script: Path) -> str | None:
    """The expected line shows up, later: something was printed before it (a prompt from
    input("..."), or a debug print)."""
    c = outcome.comparison
    if outcome.verdict is not Verdict.WRONG_ANSWER or c is None or c.line is None:
        return None
    if c.kind is Mismatch.CHECKER:  # several answers are right: no line is "the" expected one
        return None
    want, got = normalise(outcome.case.expected), normalise(outcome.stdout)
    line = c.line - 1
    if line >= len(want) or want[line] not in got[line + 1 :]:
        return None
    extra = got.index(want[line], line + 1) - line
    return (
        f"{extra} line{'s' * (extra != 1)} came before the expected line {c.line}: a prompt "
        '(input("...") prints its text) or a debug print? Print prompts and debugging to '
        "stderr (print(..., file=sys.stderr)): only stdout is compared"
    )


def _prompt_glued(outcome: CaseOutcome, script: Path) -> str | None:
    """input("weights? ") prints its prompt without a newline: it sticks to the first line."""
    c = outcome.comparison
    if outcome.verdict is not Verdict.WRONG_ANSWER or c is None or c.line != 1:
        return None
    if c.kind is Mismatch.CHECKER:
        return None
    want, got = normalise(outcome.case.expected), normalise(outcome.stdout)
    if not want or not got or got[0] == want[0] or not got[0].endswith(want[0]):
        return None
    prefix = got[0][: -len(want[0])]
    return (
        f"the first line starts with {prefix.strip()!r}, which the statement does not ask for: "
        'a prompt from input("...")? Call input() without a prompt'
    )


def _sibling_module(outcome: CaseOutcome, script: Path) -> str | None:
    if outcome.verdict is not Verdict.RUNTIME_ERROR:
        return None
    found = _MISSING_MODULE.match(last_line(outcome.stderr))
    if found is None:
        return None
    name = found.group(1)
    folder = script.parent
    try:  # the name is the student's: too long, or odd, is simply not a module beside it
        beside = (folder / f"{name}.py").is_file() or (folder / name).is_dir()
    except (OSError, ValueError):
        return None
    if not beside:
        return None
    return (
        f"only the submitted file is graded: {name} beside it is not there when it runs; "
        f"put what it holds into {script.name}"
    )


def _empty_output(outcome: CaseOutcome, script: Path) -> str | None:
    c = outcome.comparison
    if outcome.verdict is not Verdict.WRONG_ANSWER or c is None or outcome.stdout.strip():
        return None
    if c.kind is not Mismatch.MISSING_LINE:
        return None
    return (
        "it printed nothing on stdout: is the answer print()ed (not just returned), is the "
        "function that computes it called, and is its output on stdout, not stderr?"
    )


RULES: tuple[Callable[[CaseOutcome, Path], str | None], ...] = (
    _sibling_module,
    _empty_output,
    _prompt_glued,
    _extra_lines_first,
)


def advise(outcome: CaseOutcome, script: Path) -> str | None:
    """The first rule's advice for ``outcome`` of ``script``, if one recognises the mistake."""
    if outcome.passed:
        return None
    for rule in RULES:
        said = rule(outcome, script)
        if said is not None:
            return said
    return None
