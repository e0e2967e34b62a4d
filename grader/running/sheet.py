"""A spreadsheet export (CSV or tab-separated) read so that it can be written back byte for byte:
each field keeps where it stood in the text, and only the fields given new values are written
anew. An LMS re-reads the file it exported; a re-quoted name or a changed line ending in a row
``grade export`` did not mean to touch could make it refuse the file or change that row.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..judging.errors import UsageError

_NEEDS_QUOTES = ('"', "\r", "\n")


@dataclass(frozen=True)
class Field:
    start: int  # where its raw text starts and ends in the file's text
    end: int
    value: str  # as a spreadsheet reads it: quotes taken away
    quoted: bool


@dataclass(frozen=True)
class Record:
    fields: tuple[Field, ...]
    terminator: str  # "\r\n", "\n", "\r", or "" for a last line without one

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(f.value for f in self.fields)


@dataclass(frozen=True)
class Sheet:
    text: str
    encoding: str  # how to write it back: its BOM, if it had one, kept
    delimiter: str
    records: tuple[Record, ...]

    @property
    def header(self) -> tuple[str, ...]:
        return self.records[0].values if self.records else ()

    def written(
        self,
        changed: Mapping[tuple[int, int], str],
        added: Mapping[int, Sequence[str]] | None = None,
    ) -> bytes:
        """The sheet again, the fields at (record, field) in ``changed`` holding new values and
        the values of ``added`` appended to their records; every other byte as it was."""
        out: list[str] = []
        by_record: dict[int, dict[int, str]] = {}
        for (number, index), value in changed.items():
            by_record.setdefault(number, {})[index] = value
        width = len(self.header)
        for number, record in enumerate(self.records):
            quoted = bool(record.fields) and record.fields[0].quoted
            mine = by_record.get(number, {})
            extra = (added or {}).get(number, ())
            cells = [
                self._field(mine[index], f.quoted) if index in mine else self.text[f.start : f.end]
                for index, f in enumerate(record.fields)
            ]
            # a record shorter than the header (a spreadsheet drops trailing empty cells) is
            # filled out with empty ones up to a changed field, or to the header's width before
            # added columns, so that each value lands under its own header
            reach = max([i + 1 for i in mine] + [width if extra else 0])
            cells += [
                self._field(mine[i], quoted) if i in mine else "" for i in range(len(cells), reach)
            ]
            cells += [self._field(v, quoted) for v in extra]
            out.append(self.delimiter.join(cells) + record.terminator)
        return "".join(out).encode(self.encoding)

    def _field(self, value: str, quoted: bool) -> str:
        if quoted or self.delimiter in value or any(c in value for c in _NEEDS_QUOTES):
            return '"' + value.replace('"', '""') + '"'
        return value


def read_sheet(path: Path) -> Sheet:
    """A CSV (or, where its first line holds a tab, tab-separated) file in UTF-8 or, by its
    byte order mark, UTF-16 (Blackboard's download); ``UsageError`` for anything else. The one
    way grade reads a CSV a person may have saved from a spreadsheet: an LMS export, a
    ``--map``, a CSV gradebook."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from exc
    return sheet_of(data, path)


def sheet_of(data: bytes, path: Path) -> Sheet:
    """``read_sheet`` of the bytes read from ``path``."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    elif data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    else:
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 (save it as CSV UTF-8)") from exc
    first = text.split("\n", 1)[0].split("\r", 1)[0]  # LF, CR LF, or CR alone (an old Mac's)
    delimiter = "\t" if "\t" in first else ","
    return Sheet(text, encoding, delimiter, tuple(_records(text, delimiter, path)))


def _records(text: str, delimiter: str, path: Path) -> list[Record]:
    stops = (delimiter, "\r", "\n")
    records: list[Record] = []
    at, end = 0, len(text)
    while at < end:
        fields: list[Field] = []
        while True:
            start = at
            quoted = at < end and text[at] == '"'
            parts: list[str] = []
            if quoted:
                at += 1
                while True:
                    close = text.find('"', at)
                    if close < 0:
                        raise UsageError(
                            f"{path}: a quote opened on line {len(records) + 1} never closes"
                        )
                    parts.append(text[at:close])
                    at = close + 1
                    if text.startswith('"', at):  # "" inside quotes is one quote
                        parts.append('"')
                        at += 1
                    else:
                        break
            rest = at
            while at < end and text[at] not in stops:
                at += 1
            parts.append(text[rest:at])  # after a closing quote, kept as spreadsheets keep it
            fields.append(Field(start, at, "".join(parts), quoted))
            if at < end and text[at] == delimiter:
                at += 1
                continue
            break
        terminator = "\r\n" if text.startswith("\r\n", at) else text[at : at + 1]
        at += len(terminator)
        records.append(Record(tuple(fields), terminator))
    return records
