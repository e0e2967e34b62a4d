"""The rule that tells a title, hint or known mistake cut off mid-sentence
(grader/teacher/wording.py), as a table; and ``grade verify`` failing an exercise on one."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.model.material import _wrong
from grader.model.resources import Root
from grader.sandbox import Sandbox
from grader.teacher.verify import Status, verify
from grader.teacher.wording import cut_off


@pytest.mark.parametrize(
    ("text", "sentence", "why"),
    [
        # whole: sentence punctuation at the end, before any closing quote or bracket
        ("Negative numbers count too.", True, None),
        ('R target passes, whatever R is: "1 target passes".', True, None),
        ('Compare values ("1.5" is "1.50")', False, None),
        ("Is it sorted?", True, None),
        ("Stop!", True, None),
        ("prints round(x, 2), which drops trailing zeros (4.0 instead of 4.00).", True, None),
        ("The capital of France is ...", False, None),  # a deliberate ellipsis
        ("The capital of France is \u2026", True, None),
        ("A good draft model", False, None),  # a title is a phrase
        ("1.5, 1.50 and 1.500", False, None),
        ("k = 1", False, None),
        # cut off
        ("keeps only logits above the (k+1)-th highest, to avoid choosing", True, "does not end"),
        ("finds the highest logit k times over: right, but", True, "ends with 'but'"),
        ("Skip the", False, "ends with 'the'"),
        ("A group of", False, "ends with 'of'"),
        ("Tokens and", False, "ends with 'and'"),
        ("Every guess wrong, and", False, "ends with 'and'"),
        ("Every guess wrong,", False, "ends with ','"),
        ("Tokens holding a colon:", False, "ends with ':'"),
        ("One round -", False, "ends with '-'"),
        ("A mismatch (then", False, "ends with 'then'"),
        ('Print it as "the', False, "ends with 'the'"),
        ("", False, "is empty"),
        ("   ", True, "is empty"),
        ("Print exactly k lines", True, "does not end"),  # a hint is a sentence
    ],
)
def test_the_cut_off_rule(text: str, sentence: bool, why: str | None) -> None:
    found = cut_off(text, sentence=sentence)
    if why is None:
        assert found is None, found
    else:
        assert found is not None and found.startswith(why), found


def test_a_mistake_is_the_docstrings_first_paragraph_however_wrapped(tmp_path: Path) -> None:
    wrong = tmp_path / "wrapped.py"
    wrong.write_text(
        '"""Known wrong: keeps only logits strictly above the (k+1)-th highest, to avoid\n'
        "choosing between tied tokens.\n\nMore about it.\n\nexpect: wrong_answer\n" + '"""\n'
    )
    assert _wrong(wrong).mistake == (
        "keeps only logits strictly above the (k+1)-th highest, to avoid choosing between "
        "tied tokens."
    )


def test_verify_fails_a_cut_off_hint_and_mistake(course_copy: Root, sandbox: Sandbox) -> None:
    spec = course_copy.exercises / "add.yaml"
    text = spec.read_text()
    spec.write_text(text.replace('hint: "Negative numbers count too."', "hint: Negative numbers"))
    wrong = course_copy.material / "add" / "wrong" / "drops_last_number.py"
    source = wrong.read_text()
    first = source.splitlines()[0]
    wrong.write_text(source.replace(first, '"""Known wrong: forgets the', 1))
    result = verify("add", course_copy, sandbox=sandbox)
    row = next(c for c in result.checks if c.name == "wording")
    assert row.status is Status.FAIL and not result.ok
    assert row.detail.startswith("2 cut off: 02-negative's hint does not end with . ! or ?: ")
    assert "drops_last_number.py's mistake ends with 'the': 'forgets the'" in row.detail


def test_verify_passes_whole_wording(course: Root, sandbox: Sandbox) -> None:
    row = next(c for c in verify("add", course, sandbox=sandbox).checks if c.name == "wording")
    assert row.status is Status.OK, row.detail
