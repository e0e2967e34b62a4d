"""Recognised mistakes: a targeted piece of advice for a case's outcome, beside its verdict.

Each rule looks at one outcome (and, for imports, the submission's folder) and says what a
teaching assistant would say; the first rule that applies wins. Advice is about the student's
own output and code, so it is shown only where the case's details are.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from .compare import normalise
from .printed import last_line
from .records import CaseOutcome, Mismatch, Verdict

_MISSING_MODULE = re.compile(r"^ModuleNotFoundError: No module named '([A-Za-z_][\w]*)'")
# What a printed list, tuple or numpy array looks like at the start of a line
_CONTAINER = re.compile(r"^\s*[\[(]")
# Names that read more than one line, or the whole input: a script using one reads it all
_READS_ALL = {"stdin", "readlines", "read", "open", "fileinput", "readline"}


def _extra_lines_first(outcome: CaseOutcome) -> str | None:
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


def _prompt_glued(outcome: CaseOutcome) -> str | None:
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


def _empty_output(outcome: CaseOutcome) -> str | None:
    c = outcome.comparison
    if outcome.verdict is not Verdict.WRONG_ANSWER or c is None or outcome.stdout.strip():
        return None
    if c.kind is not Mismatch.MISSING_LINE:
        return None
    return (
        "it printed nothing on stdout: is the answer print()ed (not just returned), is the "
        "function that computes it called, and is its output on stdout, not stderr?"
    )


def _input_past_the_end(outcome: CaseOutcome) -> str | None:
    """``while True: line = input()`` ends every case in an EOFError."""
    if outcome.verdict is not Verdict.RUNTIME_ERROR:
        return None
    if not last_line(outcome.stderr).startswith("EOFError"):
        return None
    return (
        "input() was called after the last line of the input (EOFError): read the lines "
        "with for line in sys.stdin: (it stops at the end), or call input() only as many "
        "times as the input has lines"
    )


def _printed_a_container(outcome: CaseOutcome) -> str | None:
    """print(a_list) shows "[1, 2, 3]", a numpy array "[1 2 3]", a tuple "(1, 2)"."""
    c = outcome.comparison
    if outcome.verdict is not Verdict.WRONG_ANSWER or c is None or c.got_line is None:
        return None
    if c.kind is Mismatch.CHECKER or not _CONTAINER.match(c.got_line):
        return None
    if c.expected_line is not None and _CONTAINER.match(c.expected_line):
        return None  # the statement asks for the brackets
    opening = c.got_line.strip()[0]
    return (
        f"line {c.line} starts with {opening!r}: print() of a list, tuple or numpy array shows "
        "its brackets (and a list its commas); print the items themselves: print(*items), or "
        "print(' '.join(str(x) for x in items))"
    )


def _printed_none(outcome: CaseOutcome) -> str | None:
    """print(solve(x)) of a solve() that prints, or returns nothing, prints "None"."""
    c = outcome.comparison
    if outcome.verdict is not Verdict.WRONG_ANSWER or c is None or c.kind is Mismatch.CHECKER:
        return None
    got = normalise(outcome.stdout)
    if "None" not in got or "None" in normalise(outcome.case.expected):
        return None
    line = got.index("None") + 1
    return (
        f"line {line} of your output is None: print(f(...)) of a function that returns "
        "nothing prints None; return the value from the function (return x), or call it "
        "without print()"
    )


def _blank_line(outcome: CaseOutcome) -> str | None:
    """An empty line where the expected one is, which comes next: an extra print(), or a
    "\n" ending a print's text (print adds its own)."""
    c = outcome.comparison
    if outcome.verdict is not Verdict.WRONG_ANSWER or c is None or c.line is None:
        return None
    if c.kind is Mismatch.CHECKER or c.got_line is None or c.got_line.strip():
        return None
    got = normalise(outcome.stdout)
    if not c.expected_line or c.line >= len(got) or got[c.line] != c.expected_line:
        return None
    return (
        f"line {c.line} of your output is empty, and the expected line comes after it: an "
        'extra print(), or a "\\n" at the end of a print\'s text (print adds its own)'
    )


@dataclass
class _Clauses:
    """A bracket (or a logical line, at depth 0) as input() calls in it are evaluated: a
    comprehension's first iterable (and a ``for`` statement's) once, anything else in a
    comprehension (or a ``while`` line) once per turn."""

    line: bool = False  # the logical line itself, not a bracket
    fors: int = 0
    once: bool = False  # now in the first iterable
    looped: bool = False  # a while line: every clause is evaluated per turn

    def take(self, text: str) -> None:
        if self.line:  # a statement's own keywords are read by _input_calls
            return
        if text == "for":
            self.fors += 1
            self.once = False
        elif text == "in" and self.fors == 1 and not self.once:
            self.once = True
        elif text == "if":
            self.once = False

    def repeats(self, once: bool) -> bool:
        """Whether a call made where this bracket was in state ``once`` runs more than once,
        as far as this bracket is concerned (known at its end: a ``for`` may come later)."""
        return self.looped or (self.fors > 0 and not once)


@functools.lru_cache(maxsize=32)  # asked per failing case: a class's source is read once
def _input_calls(source: str) -> tuple[int, bool, bool] | None:
    """How often the source calls input(), whether one such call runs more than once (in a
    ``for`` or ``while`` block or header, or a comprehension, but not as the iterable a loop
    reads once), and whether it reads stdin otherwise. Read by tokens, never compiled or
    parsed: the source is the student's (a parse can be made to cost gigabytes); None where
    it does not tokenize."""
    calls, looped, other = 0, False, False
    blocks: list[bool] = []  # per indented block: is it a loop's?
    first: list[str] = []  # the first two names of the logical line
    opened = False  # the last logical line was a for/while header: its block is a loop
    line = _Clauses(line=True)
    brackets: list[_Clauses] = [line]  # the line, then each open bracket
    made: list[list[tuple[_Clauses, bool]]] = []  # per input() call: each enclosing state
    previous = ""
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            kind, text = token.type, token.string
            if kind == tokenize.NAME:
                other = other or text in _READS_ALL
                if len(first) < 2:
                    first.append(text)
                    if first in (["for"], ["async", "for"]):
                        line.fors = 1
                    elif first == ["while"]:
                        line.looped = True
                brackets[-1].take(text)
                if text == "in" and line.fors == 1 and len(brackets) == 1 and not line.once:
                    line.once = True  # the for statement's iterable, up to its ":"
            elif kind == tokenize.OP and text in ("(", "[", "{"):
                if text == "(" and previous == "input":
                    made.append([(b, b.once) for b in brackets])
                brackets.append(_Clauses())
            elif kind == tokenize.OP and text in (")", "]", "}") and len(brackets) > 1:
                brackets.pop()
            elif kind == tokenize.OP and text == ":" and len(brackets) == 1:
                line.once = False  # a for statement's body (on its line) runs per turn
            elif kind == tokenize.INDENT:
                blocks.append(opened)
            elif kind == tokenize.DEDENT and blocks:
                blocks.pop()
            elif kind in (tokenize.NEWLINE, tokenize.ENDMARKER):
                for call in made:
                    looped = looped or any(blocks) or any(b.repeats(o) for b, o in call)
                calls += len(made)
                opened = bool(line.fors or line.looped)
                line = _Clauses(line=True)
                brackets, made, first = [line], [], []
            if kind not in (tokenize.NL, tokenize.COMMENT):
                previous = text
    except (tokenize.TokenError, SyntaxError):
        return None
    return calls, looped, other


def _one_input_for_all(outcome: CaseOutcome, source: str) -> str | None:
    """One input() call, outside any loop, for an input of several lines: the rest is never
    read."""
    if outcome.passed or outcome.verdict not in (Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR):
        return None
    lines = [line for line in outcome.case.input.decode(errors="replace").splitlines() if line]
    if len(lines) < 2:
        return None
    found = _input_calls(source)
    if found is None or found != (1, False, False):
        return None
    return (
        f"input() reads one line, and this input has {len(lines)}: call input() once per "
        "line, or read them all with sys.stdin.read().split()"
    )


# The rules on what a run printed, in order: the first that applies wins
RULES: tuple[Callable[[CaseOutcome], str | None], ...] = (
    _input_past_the_end,
    _empty_output,
    _prompt_glued,
    _blank_line,  # before the next: an empty line is not a prompt or a debug print
    _extra_lines_first,
    _printed_none,
    _printed_a_container,
)
# Rules that read the submission's text, as the grader read it (never the file again)
SOURCE_RULES: tuple[Callable[[CaseOutcome, str], str | None], ...] = (_one_input_for_all,)


def advise(outcome: CaseOutcome, script: Path, source: str = "") -> str | None:
    """The first rule's advice for ``outcome`` of ``script`` (whose text is ``source``), if one
    recognises the mistake: a module beside the script first, then what it printed, then its
    text."""
    if outcome.passed:
        return None
    said = _sibling_module(outcome, script)
    if said is not None:
        return said
    for rule in RULES:
        said = rule(outcome)
        if said is not None:
            return said
    for text_rule in SOURCE_RULES if source else ():
        said = text_rule(outcome, source)
        if said is not None:
            return said
    return None


def explain(
    outcome: CaseOutcome, script: Path, source: str, known: Callable[[str], bool]
) -> CaseOutcome:
    """``outcome`` with the first rule's advice, if any: grade and the practice page both
    explain so. A wrong answer that is exactly what a known-wrong program prints on this case
    (``known`` of its stdout) gets none: that program's mistake is its likely cause, and a
    rule's guess could only repeat it or point elsewhere. Whether the report names that
    mistake is the whole report's to say (``mistakes.py``): one case alone named wrong causes."""
    if outcome.verdict is Verdict.WRONG_ANSWER and known(outcome.stdout):
        return replace(outcome, advice=None)
    return replace(outcome, advice=advise(outcome, script, source))
