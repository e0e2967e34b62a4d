"""Known mistakes recognised in a student's output: what each known-wrong solution
(``reference/NAME/wrong/``) prints on each case, kept as digests beside the cases in
``mistakes.json`` (public/ and secret/ each their own), so that a student's install, which has no
reference material, can still say "your output is what a program that rounds half up prints".

Written by ``grade regen``; ``grade verify`` says when it is stale.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from ..files import write_atomically
from ..judging.compare import digest
from ..judging.mistakes import Mistakes
from ..judging.records import Diagnosis, Report, Verdict
from .cases import case_names, public_folder, secret_folder
from .spec import Exercise

MISTAKES_FILE = "mistakes.json"


def _folders(exercise: Exercise) -> tuple[Path, Path]:
    return public_folder(exercise), secret_folder(exercise)


def load(exercise: Exercise) -> Mistakes:
    """The known mistakes of the cases present (a broken file counts as none: it only helps)."""
    found: dict[str, dict[str, Diagnosis]] = {}
    for folder in _folders(exercise):
        try:
            data = json.loads((folder / MISTAKES_FILE).read_text(encoding="utf-8"))
            names = data["mistakes"]
            for case, outputs in data["outputs"].items():
                for key, mistake in outputs.items():
                    about = names[mistake]["mistake"]
                    if not all(isinstance(x, str) for x in (case, key, mistake, about)):
                        raise TypeError("a mistake's names and digests are strings")
                    found.setdefault(case, {})[key] = Diagnosis(mistake, about)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return Mistakes(MappingProxyType({k: MappingProxyType(v) for k, v in found.items()}))


def contents(
    outputs: Mapping[str, Mapping[str, str]], mistakes: Mapping[str, str], cases: set[str]
) -> str:
    """``mistakes.json`` for ``cases``: ``outputs`` maps a wrong solution's id to what it printed
    per case (wrong answers only); ``mistakes`` its id to the mistake it models."""
    # An output two known mistakes both print on a case is evidence of neither: naming one
    # there named the wrong mistake 7 times in 29; the case's own hint speaks instead.
    by: dict[str, dict[str, set[str]]] = {}
    for mistake, printed in sorted(outputs.items()):
        for case, output in printed.items():
            if case in cases:
                by.setdefault(case, {}).setdefault(digest(output), set()).add(mistake)
    table: dict[str, dict[str, str]] = {}
    used: set[str] = set()
    for case, found in by.items():
        for key, who in found.items():
            if len(who) == 1:
                (mistake,) = who
                table.setdefault(case, {})[key] = mistake
                used.add(mistake)
    data = {
        "mistakes": {m: {"mistake": mistakes[m]} for m in sorted(used)},
        "outputs": {case: dict(sorted(v.items())) for case, v in sorted(table.items())},
    }
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def wanted(
    exercise: Exercise, printed: Mapping[str, Mapping[str, str]], mistakes: Mapping[str, str]
) -> dict[Path, str]:
    """What each folder's ``mistakes.json`` should hold."""
    files = {}
    for folder in _folders(exercise):
        cases = set(case_names(folder))
        if cases:
            files[folder / MISTAKES_FILE] = contents(printed, mistakes, cases)
    return files


def stale(files: Mapping[Path, str]) -> list[Path]:
    return [p for p, text in files.items() if not p.is_file() or p.read_text() != text]


def write(files: Mapping[Path, str]) -> list[Path]:
    changed = stale(files)
    for path in changed:
        write_atomically(path, files[path])
    return changed


def wrong_answers(reports: Mapping[str, Report]) -> dict[str, dict[str, str]]:
    """From each wrong solution's report, what it printed on the cases it answers wrongly."""
    printed: dict[str, dict[str, str]] = {}
    for mistake, report in reports.items():
        printed[mistake] = {
            o.case.name: o.stdout for o in report.outcomes if o.verdict is Verdict.WRONG_ANSWER
        }
    return printed
