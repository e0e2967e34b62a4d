"""How an exercise's YAML is read: libyaml's parser where there is one (it is read before the
fork servers can start), PyYAML's own for a text libyaml refuses, so that a teacher's error says
the same either way."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from grader.judging.errors import ExerciseError
from grader.model import spec

PROJECT = Path(__file__).resolve().parent.parent
needs_libyaml = pytest.mark.skipif(
    not getattr(yaml, "__with_libyaml__", False), reason="PyYAML built without libyaml"
)


def _yaml_files() -> list[Path]:
    found = [*PROJECT.glob("exercises/*.yaml"), *PROJECT.glob("cases/**/*.yaml")]
    found += PROJECT.glob("tests/data/**/*.yaml")
    return sorted(found)


@needs_libyaml
def test_both_parsers_read_every_shipped_and_fixture_yaml_the_same() -> None:
    files = _yaml_files()
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            pure = yaml.load(text, Loader=spec._StrictLoader)
        except yaml.YAMLError:
            continue  # a fixture that is broken on purpose: the table below
        assert yaml.load(text, Loader=spec._FastStrictLoader) == pure, path


@needs_libyaml
def test_a_valid_text_is_read_by_libyaml_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refusing(spec._StrictLoader):
        def get_single_data(self) -> object:
            raise AssertionError("the pure parser read a text libyaml reads")

    monkeypatch.setattr(spec, "_StrictLoader", Refusing)
    assert spec.parse_yaml(Path("x.yaml"), "title: t\ncases: [a, b]\n") == {
        "title": "t",
        "cases": ["a", "b"],
    }


@pytest.mark.parametrize(
    ("text", "problem", "line", "column"),
    [
        ("title: t\ntitle: u\n", "duplicate key 'title'", 2, 1),
        ("a: [1, 2\nb: 3\n", "expected ',' or ']', but got ':'", 2, 2),
        ("a: 'open\n", "found unexpected end of stream", 2, 1),
        ("a:\n\t- 1\n", "found character '\\t' that cannot start any token", 2, 1),
        ("a: 1\n b: 2\n", "mapping values are not allowed here", 2, 3),
        ("a: *nowhere\n", "found undefined alias 'nowhere'", 1, 4),
    ],
)
def test_an_error_is_worded_by_the_pure_parser(
    text: str, problem: str, line: int, column: int
) -> None:
    with pytest.raises(ExerciseError) as raised:
        spec.parse_yaml(Path("ex.yaml"), text)
    said = str(raised.value)
    assert problem in said, said
    assert f"ex.yaml:{line}:{column}" in said, said


def test_duplicate_keys_are_refused_at_any_depth() -> None:
    with pytest.raises(ExerciseError, match="duplicate key 'time_s'"):
        spec.parse_yaml(Path("ex.yaml"), "limits:\n  time_s: 1\n  time_s: 2\n")
