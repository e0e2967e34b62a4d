"""The comparator's rules, as a golden behaviour table (golden/compare.yaml)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from conftest import GOLDEN, comparing

from grader.judging.compare import COMPARATORS, Compare, build, digest, normalise
from grader.judging.records import Comparison, Mismatch

ROWS: list[dict[str, Any]] = yaml.safe_load((GOLDEN / "compare.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("row", ROWS, ids=[r["why"] for r in ROWS])
def test_comparison_table(row: dict[str, Any]) -> None:
    compare = comparing(row.get("method", "tokens"), row.get("options", {}))
    result = compare(row["expected"], row["got"])
    if "message" in row:
        assert result.ok is False
        assert result.message == row["message"]
    else:
        assert result.ok is True, result.message


def test_the_table_covers_both_outcomes() -> None:
    assert any("message" in r for r in ROWS) and any("message" not in r for r in ROWS)


@pytest.mark.parametrize(
    ("method", "options", "problem"),
    [
        ("fuzzy", {}, r"^method: unknown comparator 'fuzzy' \(known: tokens, exact, checker\)$"),
        ("tokens", {"tolerance": 1}, r"^tolerance: unknown option \(allowed: tolerance_ulps, "),
        ("exact", {"x": 1}, r"^x: unknown option \(allowed: none\)$"),
        ("tokens", {"numbers": "all"}, "numbers: must be one of decimals, none"),
        ("tokens", {"tolerance_ulps": -1}, "tolerance_ulps: must be a whole number >= 0"),
        ("tokens", {"tolerance_ulps": 0.5}, "tolerance_ulps: must be a whole number >= 0"),
        ("exact", {"tolerance_ulps": 1}, "tolerance_ulps: unknown option"),
        ("checker", {}, r"^program: must be a Python file's path in the course, got None$"),
        ("checker", {"program": "check.sh"}, "program: must be a Python file's path"),
        ("checker", {"program": "c.py", "x": 1}, r"^x: unknown option \(allowed: program\)$"),
        ("checker", {"program": "/abs/c.py"}, r"^program: must be a path inside the course, got "),
        ("checker", {"program": "ref/../../c.py"}, "program: must be a path inside the course"),
    ],
)
def test_bad_options_are_refused(method: str, options: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        build(method, options)


@pytest.mark.parametrize(
    ("method", "options", "per_case"),
    [
        ("checker", {"program": "reference/add/check.py"}, "reference/add/check.py"),
        ("tokens", {"tolerance_ulps": 2}, None),
        ("exact", {}, None),
    ],
)
def test_a_compare_keeps_its_spec_and_one_way_to_compare(
    method: str, options: dict[str, Any], per_case: str | None
) -> None:
    """A checker is a program, bound to each case before it compares (it needs the case's
    input); every other method builds one comparator for all the cases."""
    compare = build(method, options)
    assert (compare.method, dict(compare.options)) == (method, options)
    assert compare.checker == per_case
    assert (compare.comparator is None) == (per_case is not None)
    options["changed"] = 1  # the spec's own mapping, edited later: the exercise keeps its copy
    assert "changed" not in compare.options


def test_a_compare_has_exactly_one_way_to_compare() -> None:
    with pytest.raises(ValueError, match="a comparator or a checker program"):
        Compare("tokens", {})
    with pytest.raises(ValueError, match="a comparator or a checker program"):
        Compare("checker", {}, comparing("exact"), "check.py")


# The checker runs a program, per case: tests/test_checker.py grades with one.
@pytest.mark.parametrize("method", sorted(set(COMPARATORS) - {"checker"}))
def test_every_registered_comparator_is_reachable_from_a_spec(method: str) -> None:
    """Each name in the registry builds from a spec's defaults and judges both ways."""
    compare = comparing(method)
    assert compare("a 1.5\n", "a 1.5\n").ok
    differs = compare("a 1.5\n", "b 1.5\n")
    assert not differs.ok and differs.line == 1 and differs.message.startswith("line 1")


M = Mismatch
EMPTY = "the output was empty"


@pytest.mark.parametrize(
    ("method", "expected", "got", "found"),
    [
        (  # every line is compared, also after one that matches exactly
            "tokens",
            "a 1\nb 2\nc 3\n",
            "a 1\nb 2\nc 4\n",
            Comparison(False, M.TOKEN, 3, 2, "3", "4", "c 3", "c 4"),
        ),
        (  # a no-break space is a character of its own, not trailing space
            "tokens",
            "a 1\n",
            "a 1\u00a0\n",
            Comparison(False, M.TOKEN, 1, 2, "1", "1\u00a0", "a 1", "a 1\u00a0"),
        ),
        (
            "tokens",
            "a 1\nb 2\n",
            "a 1\n",
            Comparison(False, M.MISSING_LINE, 2, None, "b 2", None, "b 2", None),
        ),
        (
            "tokens",
            "a 1\n",
            "",
            Comparison(
                False, M.MISSING_LINE, 1, None, "a 1", None, "a 1", None, "the output was empty"
            ),
        ),
        (
            "tokens",
            "a 1\n",
            "a 1\nb 2\nc 3\n",
            Comparison(False, M.EXTRA_LINE, 2, None, None, "b 2", None, "b 2"),
        ),
        (
            "tokens",
            "a 1 2\n",
            "a 1\n",
            Comparison(False, M.MISSING_TOKEN, 1, 3, "2", None, "a 1 2", "a 1"),
        ),
        (
            "tokens",
            "a 1\n",
            "a 1 2\n",
            Comparison(False, M.EXTRA_TOKEN, 1, 3, None, "2", "a 1", "a 1 2"),
        ),
        ("exact", "a\nb\n", "a\nc\n", Comparison(False, M.LINE, 2, None, "b", "c", "b", "c")),
        (
            "exact",
            "a\nb\n",
            "a\n",
            Comparison(False, M.MISSING_LINE, 2, None, "b", None, "b", None),
        ),
        ("exact", "a\n", "a\nb\n", Comparison(False, M.EXTRA_LINE, 2, None, None, "b", None, "b")),
        ("exact", "a \nb\n", "a\r\nb", Comparison(True)),
    ],
)
def test_the_mismatch_a_report_shows(
    method: str, expected: str, got: str, found: Comparison
) -> None:
    """The whole record, not only its message: the diff rows and the caret come from it."""
    assert comparing(method)(expected, got) == found


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("a\r\nb\r\n", ["a", "b"]),
        ("a \t\nb\n\n \n", ["a", "b"]),
        ("a\u00a0\n", ["a\u00a0"]),  # not ASCII whitespace: kept
        ("a\u3000", ["a\u3000"]),
        ("\n\n", []),
        ("a\r", ["a"]),
    ],
)
def test_normalise(text: str, lines: list[str]) -> None:
    assert normalise(text) == lines


def test_a_digest_is_of_the_output_as_compared() -> None:
    assert digest("a 1\r\nb\n\n") == digest("a 1\nb") != digest("a 1\nc")
    assert len(digest("x")) == 32
    # the format of every mistakes.json a course has shipped (and the page computes): its lines
    # joined by LF, SHA-256, 32 hex digits. A change would silence every known mistake until regen
    assert digest("a 1\r\nb\n") == "6f8892e03c3cf3091c79e1d0efb73aed"
