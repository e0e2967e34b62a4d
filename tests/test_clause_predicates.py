"""The clause predicates of the shipped exercises' validate.py (``holds:`` in a spec's
``clauses:``), row by row: each is true of one valid input and false of another, so that a
predicate that always says yes (or no), or tests the wrong thing, fails here. Every input is
one the exercise's validator accepts: a predicate only ever sees valid inputs."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from grader.model.resources import Root
from grader.model.spec import exercise_names, load_exercise


def _weights(count: int) -> str:
    return " ".join(["0.5"] * count) + "\n7\n"


def _tokens(count: int) -> str:
    return "1\n" + "".join(f"t{n} {n % 100}\n" for n in range(count))


def _rounds(count: int) -> str:
    return "draft: a | target: a b\n" * count


# exercise, predicate, an input it holds of, an input it does not
ROWS: list[tuple[str, str, str, str]] = [
    # quantize: weights on line 1, the group size on line 2
    ("quantize", "scales_differ", "1 3 5 4\n2\n", "1 -3 3 1\n2\n"),
    ("quantize", "weight_without_decimals", "127 0.5\n2\n", "0.5 1.25\n2\n"),
    ("quantize", "weight_without_decimals", ".5 0.25\n2\n", "0.5 1.25\n2\n"),
    ("quantize", "one_weight", "0.5\n1\n", "0.5 0.25\n1\n"),
    ("quantize", "most_weights", _weights(200_000), _weights(199_999)),
    ("quantize", "group_size_one", "0.5 0.25\n1\n", "0.5 0.25\n2\n"),
    ("quantize", "consecutive_groups", "1 3 5 8\n2\n", "1 3 5 8\n4\n"),
    ("quantize", "consecutive_groups", "1 3 5 8\n2\n", "1 3 5 8\n1\n"),
    ("quantize", "short_last_group", "1 3 5\n2\n", "1 3 5 4\n2\n"),
    ("quantize", "short_last_group", "1 3 5\n5\n", "1 3 5\n3\n"),
    ("quantize", "negative_outlier", "0.5 -1\n2\n", "1 -1\n2\n"),
    ("quantize", "rounds_away_from_zero", "1 -0.7\n2\n", "127 2.25\n2\n"),
    ("quantize", "tie_to_even", "127 2.5\n2\n", "127 1.5\n2\n"),
    ("quantize", "tie_to_even", "127 -3.5\n2\n", "127 2.25\n2\n"),
    ("quantize", "zero_group", "0 0 1\n2\n", "0 1 0\n3\n"),
    ("quantize", "tiny_group", "0.00005 1\n1\n", "0.0002 1\n1\n"),
    ("quantize", "tiny_group", "0.00006 0.37\n1\n", "0.00006 0.37\n2\n"),
    ("quantize", "exponent_sized_scale", "0.01 1\n1\n", "0.02 1\n1\n"),
    ("quantize", "negative_zero_q", "1 -0.003\n2\n", "1 0.003\n2\n"),
    ("quantize", "unequal_groups", "1 3 5\n2\n", "1 3 5\n5\n"),
    ("quantize", "rounded_scale_matters", "-0.37\n1\n", "1.27\n1\n"),
    ("quantize", "trailing_zero", "1.27\n1\n", "0.12 -0.5 0.33 0.07 8.0\n5\n"),
    ("quantize", "trailing_zero", "0 0.37\n1\n", "-0.37 0.12\n2\n"),
    ("quantize", "huge_weight", "100000 1\n2\n", "99999 1\n2\n"),
    ("quantize", "twelve_digit_weight", "1.23456789012\n1\n", "1.2345678901\n1\n"),
    # top-k: k, then TOKEN LOGIT lines
    ("top-k", "not_the_first_k", "1\na 1\nb 2\n", "1\na 2\nb 1\n"),
    ("top-k", "k_is_one", "1\na 1\nb 2\n", "2\na 1\nb 2\n"),
    ("top-k", "k_is_all", "2\na 1\nb 2\n", "1\na 1\nb 2\n"),
    ("top-k", "token_beyond_lowercase", "1\nx_1 1\n", "1\nabc 1\n"),
    ("top-k", "token_beyond_lowercase", "1\nParis 1\n", "1\nparis 1\n"),
    ("top-k", "negative_logit", "1\na -1\n", "1\na 1\n"),
    ("top-k", "three_digit_logit", "1\na -100\n", "1\na 99.9999\n"),
    ("top-k", "fourth_decimal_counts", "1\na 1.0001\nb 1.0002\n", "1\na 1.001\nb 1.002\n"),
    ("top-k", "most_tokens", _tokens(100_000), _tokens(99_999)),
    ("top-k", "float_reformats", "1\na 0.50\nb 0.25\n", "1\na 0.5\nb 0.250\n"),
    ("top-k", "float_reformats", "1\na 7\n", "1\na 7.0\n"),
    ("top-k", "float_reformats", "1\na 0.5\nb 0.50\n", "1\na 0.5\nb 0.25\n"),
    ("top-k", "order_matters", "2\na 1\nb 2\n", "2\na 1\nb 1.0\nc 0\n"),
    ("top-k", "text_order_differs", "1\na 9.5\nb 10.25\n", "1\na 2\nb 1\n"),
    ("top-k", "text_order_differs", "1\na -1\nb -0.5\n", "2\na 1.5\nb 0.5\nc -1\n"),
    ("top-k", "same_value_written_apart", "1\na 1.5\nb 1.50\n", "1\na 1.5\nb 1.25\n"),
    ("top-k", "tie_inside_top_k", "2\na 1\nb 1\nc 0\n", "2\na 1\nb 0\nc 0\n"),
    ("top-k", "tie_at_k", "2\na 1\nb 0\nc 0\n", "2\na 1\nb 1\nc 0\n"),
    # decode-speed: NAME PARAMS BYTES_PER_PARAM BANDWIDTH_GBPS BATCH per line
    ("decode-speed", "batch_above_one", "m 7 2 1000 2\n", "m 7 2 1000 1\n"),
    ("decode-speed", "blank_line", "a 7 2 1000 1\n\nb 7 2 1000 1\n", "a 7 2 1000 1\n"),
    ("decode-speed", "blank_line", "a 7 2 1000 1\n  \nb 7 2 1000 1", "a 7 2 1000 1"),
    ("decode-speed", "fractional_params", "m 1.5 2 1000 1\n", "m 7 2 1000 1\n"),
    ("decode-speed", "fractional_params", "m 7.0 2 1000 1\n", "m 7 0.5 100.5 1\n"),
    ("decode-speed", "fractional_bytes", "m 7 0.5 1000 1\n", "m 7.5 2 1000.5 1\n"),
    ("decode-speed", "fractional_bandwidth", "m 7 2 900.5 1\n", "m 7.5 0.5 900 1\n"),
    ("decode-speed", "whole_batch_of_one", "m 7 2 1000 1\n", "m 7 2 1000 2\n"),
    ("decode-speed", "repeated_name", "m 7 2 9 1\nm 7 1 9 1\n", "m 7 2 9 1\nn 7 2 9 1\n"),
    ("decode-speed", "whole_rate", "m 5 2 1000 1\n", "m 7 2 1000 1\n"),
    ("decode-speed", "field_at_a_bound", "m 100000 2 1000 1\n", "m 99999 2 1000 1\n"),
    ("decode-speed", "field_at_a_bound", "m 7 0.001 1000 1\n", "m 7 0.002 1000 1\n"),
    ("decode-speed", "twelve_digit_field", "m 1.23456789012 2 9 1\n", "m 1.2345678901 2 9 1\n"),
    ("decode-speed", "largest_batch", "m 1 1 1 1000000\n", "m 1 1 1 999999\n"),
    ("decode-speed", "rate_near_its_bound", "m 1 1 100000 1000000\n", "m 1 1 99999 1000000\n"),
    ("decode-speed", "fewest_or_most_setups", "m 7 2 1000 1\n", "m 7 2 1000 1\n" * 2),
    ("decode-speed", "fewest_or_most_setups", "m 7 2 1000 1\n" * 10_000, "m 7 2 1000 1\n" * 9_999),
    # specdec: draft: d1 ... dk | target: t1 ... tk+1 per line
    ("specdec", "one_token_draft", "draft: a | target: a b\n", "draft: a b | target: a b c\n"),
    ("specdec", "label_like_token", "draft: draft: | target: x y\n", "draft: a | target: a b\n"),
    ("specdec", "blank_line", _rounds(1) + "\n" + _rounds(1), _rounds(2)),
    ("specdec", "fewest_or_most_rounds", _rounds(1), _rounds(2)),
    ("specdec", "fewest_or_most_rounds", _rounds(10_000), _rounds(9_999)),
    ("specdec", "elsewhere_in_target", "draft: b | target: a b\n", "draft: c | target: a b\n"),
    ("specdec", "later_match", "draft: a x c | target: a b c d\n", "draft: a x | target: a b c\n"),
    ("specdec", "every_draft_token_matched", _rounds(1), "draft: x | target: a b\n"),
    ("specdec", "one_token_round", "draft: x | target: a b\n", "draft: a | target: a b\n"),
    ("specdec", "differs_in_case_only", "draft: A | target: a b\n", "draft: x | target: a b\n"),
    ("specdec", "ratio_tie", _rounds(1) + "draft: x | target: a b\n" * 7, _rounds(1)),
    # ttft: NAME PARAMS BITS TFLOPS GBPS PROMPT OUTPUT per line
    (
        "ttft",
        "blank_line",
        "a 7000 16 1000 4000 10 2\n\nb 7000 16 1000 4000 10 2\n",
        "a 7000 16 1000 4000 10 2\n",
    ),
    (
        "ttft",
        "blank_line",
        "a 7000 16 1000 4000 10 2\n  \nb 7000 16 1000 4000 10 2",
        "a 7000 16 1000 4000 10 2",
    ),
    ("ttft", "int4_weights", "m 7000 4 1000 4000 10 2\n", "m 7000 8 1000 4000 10 2\n"),
    ("ttft", "one_token_prompt", "m 7000 16 1000 4000 1 2\n", "m 7000 16 1000 4000 2 2\n"),
    ("ttft", "several_prompt_tokens", "m 7000 16 1000 4000 2 2\n", "m 7000 16 1000 4000 1 2\n"),
    (
        "ttft",
        "prefill_compute_decode_memory",
        "m 7000 16 1000 4000 250 2\n",
        "m 7000 16 1000 4000 249 2\n",
    ),
    (
        "ttft",
        "prefill_compute_decode_memory",
        "m 7000 16 1000 4000 251 2\n",
        "m 1000 4 1 400 16 10\n",
    ),
    ("ttft", "ridge_tie", "m 7000 16 1000 4000 250 2\n", "m 7000 16 1000 4000 251 2\n"),
    ("ttft", "prefill_memory_bound", "m 7000 16 1000 4000 249 2\n", "m 7000 16 1000 4000 1 2\n"),
    ("ttft", "decode_compute_bound", "m 1000 4 1 400 16 10\n", "m 1000 16 1 400 16 10\n"),
    ("ttft", "several_decode_steps", "m 7000 16 1000 4000 10 3\n", "m 7000 16 1000 4000 10 2\n"),
    ("ttft", "one_output_token", "m 7000 16 1000 4000 10 1\n", "m 7000 16 1000 4000 10 2\n"),
    ("ttft", "rounding_adds_up", "m 8030 16 989 3350 2048 512\n", "m 7000 16 1000 4000 1000 200\n"),
    (
        "ttft",
        "repeated_name",
        "m 7000 16 9 9 1 2\nm 7000 4 9 9 1 2\n",
        "m 7000 16 9 9 1 2\nn 7000 16 9 9 1 2\n",
    ),
    ("ttft", "field_at_a_bound", "m 1000000 16 1000 4000 10 2\n", "m 999999 16 1000 4000 10 2\n"),
    (
        "ttft",
        "field_at_a_bound",
        "m 7000 16 1000 4000 10 1000000\n",
        "m 7000 16 1000 4000 10 999999\n",
    ),
    ("ttft", "total_near_its_bound", "m 1000000 32 1 1 1 25\n", "m 1000000 32 1 1 1 24\n"),
    (
        "ttft",
        "fewest_or_most_setups",
        "m 7000 16 1000 4000 10 2\n",
        "m 7000 16 1000 4000 10 2\n" * 2,
    ),
    ("ttft", "fewest_or_most_setups", "m 7 16 1 4 1 2\n" * 10_000, "m 7 16 1 4 1 2\n" * 9_999),
    # every exercise: the statement allows a last line without a newline (issue 37)
    *[
        (name, "no_final_newline", text, text + "\n")
        for name, text in (
            ("quantize", "0.5 0.25\n2"),
            ("specdec", "draft: a | target: a b"),
            ("decode-speed", "x 7 2 1000 1"),
            ("top-k", "1\nt0 0"),
            ("ttft", "llama-7b 7000 16 1000 4000 100 1"),
            ("kv-pages", "4 5\nADD A 3\nSTEP"),
            ("prefix-cache", "4 4\nADD A 1 2 3 4 5"),
            ("batching", "continuous 10 1 2 2\n1 0 20 3"),
        )
    ],
]


def _validator(reference: Path, exercise: str) -> ModuleType:
    path = reference / exercise / "validate.py"
    found = importlib.util.spec_from_file_location(f"validate_{exercise.replace('-', '_')}", path)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)  # not as __main__: importing it checks nothing
    return module


def _problem(module: ModuleType, exercise: str, text: str) -> str | None:
    data: str | bytes = text.encode() if exercise == "top-k" else text  # top-k's reads bytes
    why: str | None = module.problem(data)
    return why


# the validator's tie check on 200,000 weights takes seconds: such rows run in the slow pass
_BIG = 100_000


@pytest.mark.parametrize(
    ("exercise", "predicate", "holds", "fails"),
    [
        pytest.param(
            *row,
            id=f"{row[0]}-{row[1]}-{n}",
            marks=[pytest.mark.slow] if len(row[2]) + len(row[3]) > _BIG else [],
        )
        for n, row in enumerate(ROWS)
    ],
)
def test_a_predicate_holds_of_one_valid_input_and_not_of_another(
    reference_dir: Path, exercise: str, predicate: str, holds: str, fails: str
) -> None:
    module = _validator(reference_dir, exercise)
    for text in (holds, fails):
        assert _problem(module, exercise, text) is None, text[:80]
    check = getattr(module, predicate)
    assert check(holds) is True
    assert check(fails) is False


def test_every_predicate_a_shipped_spec_names_has_rows(root: Root, reference_dir: Path) -> None:
    """A new clause's predicate comes with its rows here."""
    named = {
        (name, clause.holds)
        for name in exercise_names(root)
        for clause in load_exercise(name, root).clauses
        if clause.holds is not None
    }
    assert named == {(row[0], row[1]) for row in ROWS}
