"""``shorten``: a shown line cut to a width, as a table (its mutants survived every other test)."""

from __future__ import annotations

import pytest

from grader.render.escape import shorten


@pytest.mark.parametrize(
    ("text", "width", "shown"),
    [
        ("abc", 4, "abc"),  # shorter: as it is
        ("abc", 3, "abc"),  # exactly the width: never cut
        ("abcd", 3, "ab…"),  # one over: the last place is the ellipsis
        ("abcdefgh", 5, "abcd…"),
        ("ab", 1, "…"),
        ("ab", 0, ""),  # no room at all: nothing, never more than the width
        ("", 0, ""),
        ("\\x1b[2J", 4, "\\x1…"),  # an escape written out is cut as text, never kept whole
    ],
)
def test_shorten_cuts_to_the_width_with_an_ellipsis(text: str, width: int, shown: str) -> None:
    assert shorten(text, width) == shown
    assert len(shorten(text, width)) <= max(width, 0)
