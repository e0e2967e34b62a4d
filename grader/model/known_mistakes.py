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
from ..judging.records import Report, Verdict
from .cases import case_names, public_folder, secret_folder
from .spec import Exercise

MISTAKES_FILE = "mistakes.json"
Table = dict[str, dict[str, str]]  # case -> mistake id -> the digest of its wrong answer


def _folders(exercise: Exercise) -> tuple[Path, Path]:
    return public_folder(exercise), secret_folder(exercise)


def _read(data: Mapping[str, object], about: dict[str, str], printed: Table) -> None:
    """One folder's file into ``about`` and ``printed``: every mistake's wrong answers per case
    ("printed"). A file of before that ("outputs": digest -> the one mistake printing it, where
    it was the only one) is no evidence: it leaves out where a mistake fails alike with another,
    so a case the student passed could not rule it out, and a mistake would be named against a
    case that contradicts it. ``grade verify`` calls such a file stale; ``grade regen`` writes
    it anew."""
    names = data["mistakes"]
    if not isinstance(names, Mapping):
        raise TypeError("mistakes is a table")
    for mistake, entry in names.items():
        text = entry["mistake"]
        if not isinstance(mistake, str) or not isinstance(text, str):
            raise TypeError("a mistake's name and text are strings")
        about[mistake] = text
    if "printed" in data:
        cases = data["printed"]
        if not isinstance(cases, Mapping):
            raise TypeError("printed is a table")
        pairs = [(c, m, key) for c, found in cases.items() for m, key in found.items()]
        known = list(cases)
    else:
        if not isinstance(data["outputs"], Mapping):
            raise TypeError("outputs is a table")
        pairs, known = [], []
    for case in known:
        if not isinstance(case, str):
            raise TypeError("a case's name is a string")
        printed.setdefault(case, {})
    for case, mistake, key in pairs:
        if not all(isinstance(x, str) for x in (case, mistake, key)) or mistake not in about:
            raise TypeError("a mistake's names and digests are strings, of a mistake named")
        printed[case][mistake] = key


def load(exercise: Exercise) -> Mistakes:
    """The known mistakes of the cases present (a broken file counts as none: it only helps)."""
    about: dict[str, str] = {}
    printed: Table = {}
    for folder in _folders(exercise):
        try:
            data = json.loads((folder / MISTAKES_FILE).read_text(encoding="utf-8"))
            if not isinstance(data, Mapping):
                raise TypeError("the file is a table")
            found_about: dict[str, str] = {}
            found: Table = {}
            _read(data, found_about, found)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        about.update(found_about)
        printed.update(found)
    return Mistakes(
        MappingProxyType(about),
        MappingProxyType({k: MappingProxyType(v) for k, v in printed.items()}),
    )


def contents(
    outputs: Mapping[str, Mapping[str, str]], mistakes: Mapping[str, str], cases: set[str]
) -> str:
    """``mistakes.json`` for ``cases``: ``outputs`` maps a wrong solution's id to what it printed
    per case (wrong answers only); ``mistakes`` its id to the mistake it models. Every case is
    listed, with every mistake's wrong answer on it, those two mistakes share too: the rule
    that names one (``judging/mistakes.py``) weighs every case, passes included."""
    printed: Table = {case: {} for case in cases}
    for mistake, found in outputs.items():
        for case, output in found.items():
            if case in cases:
                printed[case][mistake] = digest(output)
    used = {m for found in printed.values() for m in found}
    data = {
        "mistakes": {m: {"mistake": mistakes[m]} for m in sorted(used)},
        "printed": {case: dict(sorted(v.items())) for case, v in sorted(printed.items())},
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
