"""The comparator's rules, as a golden behaviour table (golden/compare.yaml)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from conftest import GOLDEN

from grader.judging.compare import COMPARATORS, build

ROWS: list[dict[str, Any]] = yaml.safe_load((GOLDEN / "compare.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("row", ROWS, ids=[r["why"] for r in ROWS])
def test_comparison_table(row: dict[str, Any]) -> None:
    compare = build(row.get("method", "tokens"), row.get("options", {}))
    result = compare(row["expected"], row["got"])
    if "message" in row:
        assert not result.ok
        assert result.message == row["message"]
    else:
        assert result.ok, result.message


def test_the_table_covers_both_outcomes() -> None:
    assert any("message" in r for r in ROWS) and any("message" not in r for r in ROWS)


@pytest.mark.parametrize(
    ("method", "options", "problem"),
    [
        ("fuzzy", {}, "method: unknown comparator 'fuzzy'"),
        ("tokens", {"tolerance": 1}, "tolerance: unknown option"),
        ("tokens", {"numbers": "all"}, "numbers: must be one of decimals, none"),
        ("tokens", {"tolerance_ulps": -1}, "tolerance_ulps: must be a whole number >= 0"),
        ("tokens", {"tolerance_ulps": 0.5}, "tolerance_ulps: must be a whole number >= 0"),
        ("exact", {"tolerance_ulps": 1}, "tolerance_ulps: unknown option"),
    ],
)
def test_bad_options_are_refused(method: str, options: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        build(method, options)


# The checker runs a program, per case: tests/test_checker.py grades with one.
@pytest.mark.parametrize("method", sorted(set(COMPARATORS) - {"checker"}))
def test_every_registered_comparator_is_reachable_from_a_spec(method: str) -> None:
    """Each name in the registry builds from a spec's defaults and judges both ways."""
    compare = build(method, {})
    assert compare("a 1.5\n", "a 1.5\n").ok
    differs = compare("a 1.5\n", "b 1.5\n")
    assert not differs.ok and differs.line == 1 and differs.message.startswith("line 1")
