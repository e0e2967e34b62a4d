"""A class's results: the ``Gradebook`` record, its JSON and CSV files, a summary, and merging.

A gradebook holds ``Feedback`` (never a raw report), so hidden cases stay hidden in every file.
Its JSON form is complete: ``grade merge`` needs nothing but the shard files.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import write_atomically
from ..judging.errors import ExitCode, UsageError
from ..judging.records import Feedback
from ..render.json import SCHEMA_VERSION, feedback_from_dict, to_dict

KIND = "grade-gradebook"
JOURNAL_KIND = "grade-journal"


@dataclass(frozen=True)
class Shard:
    """The K-th of N slices of a class (1-based): two numbers, written "K/N"."""

    index: int
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.index <= self.count:
            raise ValueError(f"shard {self}: K must be between 1 and N")

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``ValueError`` unless ``text`` is K/N with 1 <= K <= N."""
        k, slash, n = text.partition("/")
        if not (slash and k.isdecimal() and n.isdecimal()):
            raise ValueError(f"a shard is K/N, e.g. 2/4, not {text!r}")
        return cls(int(k), int(n))


@dataclass(frozen=True)
class Entry:
    """One row: a submission's feedback, or the reason it could not be graded."""

    submission: str
    path: str
    feedback: Feedback | None
    error: str | None = None

    @property
    def score(self) -> float | None:
        """The submission's score, or None where the grader failed on one of its cases. Every
        gradebook format reads this one rule, so a run the grader never judged is never
        written as a zero. A file that is no gradable script (binary, not UTF-8) is the
        student's to answer for: 0, with its reason."""
        return 0.0 if self.feedback is None else self.feedback.grade

    @property
    def problem(self) -> str:
        """Why the submission has no score, or why it could not be graded ("" otherwise)."""
        if self.feedback is None:
            return self.error or "could not be graded"
        return self.feedback.not_graded


@dataclass(frozen=True)
class Gradebook:
    exercise: str
    case_names: tuple[str, ...]
    entries: tuple[Entry, ...]
    shard: Shard | None = None  # for one slice of a class
    interrupted: bool = False

    @property
    def graded(self) -> int:
        return sum(e.feedback is not None for e in self.entries)

    @property
    def exit_code(self) -> ExitCode:
        """0 when every submission got a row, whatever its score: a low mark is not a CI error."""
        if self.interrupted:
            return ExitCode.INTERRUPTED
        if self.not_judged:
            return ExitCode.GRADER_ERROR
        return ExitCode.OK

    @property
    def judged(self) -> tuple[Feedback, ...]:
        """The reports of the submissions the grader ran and judged: what per-case figures
        (pass rates, times, mistakes) are counted over."""
        return tuple(
            e.feedback for e in self.entries if e.feedback is not None and e.score is not None
        )

    @property
    def not_judged(self) -> tuple[Entry, ...]:
        """The submissions the grader failed on (a grader error on a case): theirs to grade
        again, never to be charged."""
        return tuple(e for e in self.entries if e.score is None)  # Entry.score's one rule

    def to_json(self) -> str:
        data = {
            "kind": KIND,
            "schema_version": SCHEMA_VERSION,
            "exercise": self.exercise,
            "cases": list(self.case_names),
            "shard": None if self.shard is None else str(self.shard),
            "interrupted": self.interrupted,
            "submissions": [entry_to_dict(e) for e in self.entries],
        }
        # strict JSON: a NaN here is a bug of grade's, never a file other readers refuse
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"

    @classmethod
    def load(cls, path: Path) -> Gradebook:
        """A gradebook file written by ``grade batch --json``; ``UsageError`` for anything else."""
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))  # a BOM: re-saved on Windows
        except RecursionError as exc:
            raise UsageError(f"{path} is a damaged gradebook: nested too deep") from exc
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read gradebook {path}: {exc}") from exc
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise UsageError(f"{path} is not a grade gradebook (from grade batch --json)")
        try:
            return cls(
                exercise=str(data["exercise"]),
                case_names=tuple(str(n) for n in data["cases"]),
                entries=tuple(
                    Entry(
                        submission=str(row["submission"]),
                        path=str(row["path"]),
                        feedback=None
                        if row["report"] is None
                        else feedback_from_dict(row["report"]),
                        error=_error(row["error"]) if row["report"] is None else None,
                    )
                    for row in data["submissions"]
                ),
                shard=None if data["shard"] is None else Shard.parse(str(data["shard"])),
                interrupted=bool(data["interrupted"]),
            )
        # a shard file is anyone's to damage: any wrong type must end as a one-line exit 2
        except (
            KeyError,
            TypeError,
            ValueError,
            AttributeError,
            RecursionError,
            OverflowError,
        ) as exc:
            raise UsageError(f"{path} is a damaged gradebook: {type(exc).__name__} {exc}") from exc


def entry_to_dict(entry: Entry) -> dict[str, Any]:
    return {
        "submission": entry.submission,
        "path": entry.path,
        "score": None if entry.score is None else round(entry.score, 6),  # null: never judged
        "error": entry.problem or None,
        "report": to_dict(entry.feedback) if entry.feedback is not None else None,
    }


def entry_from_dict(row: Mapping[str, Any]) -> Entry:
    """``entry_to_dict``'s inverse; ``KeyError``/``TypeError``/``ValueError`` when damaged."""
    return Entry(
        submission=str(row["submission"]),
        path=str(row["path"]),
        feedback=_feedback(row["report"]),
        error=_error(row["error"]) if row["report"] is None else None,  # else derived: ``problem``
    )


class Journal:
    """The submissions of a batch as they are graded, one JSON line each, synced to disk: a
    batch killed in any way loses only the submissions in flight, and ``--resume`` goes on.

    The first line says which batch it belongs to (exercise, cases, shard) and what it grades
    (each submission's name with a digest of its path and text): ``--resume`` keeps a row only
    for a submission that is still there, unchanged; a last line cut by the kill is ignored.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def header(
        self,
        exercise: str,
        case_names: Sequence[str],
        shard: Shard | None,
        submissions: Mapping[str, str] | None = None,
    ) -> str:
        """The first line; ``submissions`` maps each name to its digest (``identity``)."""
        data = {"kind": JOURNAL_KIND, "exercise": exercise, "cases": list(case_names)}
        label = None if shard is None else str(shard)
        graded = dict(sorted((submissions or {}).items()))
        return json.dumps({**data, "shard": label, "submissions": graded}, ensure_ascii=False)

    def load(self, expected_header: str) -> list[Entry]:
        """The entries of an earlier run of the same batch; ``UsageError`` for another batch."""
        try:
            # bytes, not text: a kill may cut the last line inside a multi-byte character
            lines = self.path.read_bytes().split(b"\n")
        except OSError as exc:
            raise UsageError(f"cannot resume from {self.path}: {exc.strerror}") from exc
        expected = json.loads(expected_header)
        try:
            found = json.loads(lines[0].decode("utf-8"))
        except (ValueError, RecursionError):
            found = None
        same_batch = isinstance(found, dict) and all(
            found.get(key) == value for key, value in expected.items() if key != "submissions"
        )
        if not same_batch:
            raise UsageError(
                f"{self.path} is the journal of another batch (exercise, cases, shard)"
            )
        assert isinstance(found, dict)
        was = found.get("submissions")
        was = was if isinstance(was, dict) else {}
        # a row of a submission no longer in the class, or since changed, is graded again
        same = {name for name, digest in expected["submissions"].items() if was.get(name) == digest}
        entries = []
        for line in lines[1:]:
            try:
                entries.append(entry_from_dict(json.loads(line.decode("utf-8"))))
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
                break  # the line a kill cut short, or the end
        return [e for e in entries if e.submission in same]

    def start(self, header: str, entries: Sequence[Entry]) -> None:
        """Begin the journal anew with ``entries`` (a resumed batch's), atomically."""
        lines = [header, *(json.dumps(entry_to_dict(e), ensure_ascii=False) for e in entries)]
        write_atomically(self.path, "\n".join(lines) + "\n")

    def append(self, entry: Entry) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry_to_dict(entry), ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def remove(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def _error(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"an error must be a string, not {type(value).__name__}")
    return value


def _feedback(data: object) -> Feedback | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise TypeError(f"a report must be an object, not {type(data).__name__}")
    return feedback_from_dict(data)


def merge(books: Sequence[tuple[str, Gradebook]], *, allow_partial: bool = False) -> Gradebook:
    """One gradebook from shards (named by their files) of the same exercise and cases.

    Shards say which they are (``K/N``): a set missing one is refused unless ``allow_partial``,
    since a lost CI job would otherwise drop students from the gradebook without a word.
    """
    if not books:
        raise UsageError("no gradebooks to merge")
    _check_shards(books, allow_partial=allow_partial)
    first_name, first = books[0]
    rows: dict[str, tuple[str, Entry]] = {}
    for name, book in books:
        if book.exercise != first.exercise:
            raise UsageError(
                f"cannot merge gradebooks of different exercises: {first_name} is "
                f"{first.exercise}, {name} is {book.exercise}"
            )
        if book.case_names != first.case_names:
            raise UsageError(
                f"{name} was graded on other cases than {first_name}: "
                f"{', '.join(_differ(first.case_names, book.case_names))}"
            )
        for entry in book.entries:
            if entry.submission in rows:
                raise UsageError(
                    f"{entry.submission} is in more than one gradebook: "
                    f"{rows[entry.submission][0]} and {name}"
                )
            rows[entry.submission] = (name, entry)
    return Gradebook(
        exercise=first.exercise,
        case_names=first.case_names,
        entries=tuple(rows[n][1] for n in sorted(rows)),
        interrupted=any(b.interrupted for _, b in books),
    )


def _check_shards(books: Sequence[tuple[str, Gradebook]], *, allow_partial: bool) -> None:
    seen: dict[tuple[int, int], str] = {}
    totals = set()
    for name, book in books:
        if book.shard is None:
            continue
        k, n = book.shard.index, book.shard.count
        if (k, n) in seen:
            raise UsageError(f"{seen[k, n]} and {name} are both shard {k}/{n}")
        seen[k, n] = name
        totals.add(n)
    if len(totals) > 1:
        raise UsageError(f"the gradebooks come from different splits: {sorted(totals)} shards")
    if totals and not allow_partial:
        (n,) = totals
        missing = [f"{k}/{n}" for k in range(1, n + 1) if (k, n) not in seen]
        if missing:
            raise UsageError(
                f"shard {', '.join(missing)} is missing; pass --allow-partial to merge anyway"
            )


def _differ(a: Sequence[str], b: Sequence[str]) -> list[str]:
    only_a = [f"-{n}" for n in a if n not in b]
    only_b = [f"+{n}" for n in b if n not in a]
    return (only_a + only_b) or ["the same cases in another order"]
