"""grade similar against a student who controls a submission's text and name (a red team's
pass, issue 35): each attack that broke the first version, reproduced here, then holding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.cli import cli
from grader.model.resources import Root
from grader.model.spec import Exercise, load_exercise
from grader.running.batch import discover
from grader.teacher.similarity import SimilarityOptions, SimilarityReport, similar
from grader.teacher.similarity.json_report import to_json
from grader.teacher.similarity.page import render_page

PROJECT = Path(__file__).resolve().parent.parent
KV = PROJECT / "reference" / "kv-pages"
VICTIM = KV / "accepted" / "block_objects.py"


@pytest.fixture(scope="module")
def kv_pages(root: Root) -> Exercise:
    return load_exercise("kv-pages", root)


def _class(folder: Path, **extra: bytes) -> Path:
    """kv-pages' accepted solutions as four students, and ``extra`` files (name: bytes)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted((KV / "accepted").glob("*.py")):
        shutil.copy(path, folder / path.name)
    for name, text in extra.items():
        (folder / name).write_bytes(text)
    return folder


def _score(report: SimilarityReport, a: str, b: str) -> float:
    pairs = {(p.a, p.b): p.score for p in report.pairs}
    return pairs.get((a, b), pairs.get((b, a), 0.0))


@pytest.mark.parametrize("text", [b"", b"# TODO\n", b"\n\n\n"])
def test_a_submission_without_tokens_is_compared_as_empty(
    kv_pages: Exercise, tmp_path: Path, text: bytes
) -> None:
    """An empty or comment-only file crashed the run (min() of no hashes): exit 4."""
    folder = _class(tmp_path / "class", **{"mallory.py": text})
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions())
    mallory = next(c for c in report.submissions if c.name == "mallory")
    assert (mallory.problem, mallory.fingerprints) == (None, 0)
    empty = tmp_path / "starter.py"
    empty.write_bytes(text)
    similar(kv_pages, discover([str(folder)]), SimilarityOptions(starters=(empty,)))


@pytest.mark.parametrize("newline", [b"\r", b"\r\n"])
def test_other_line_ends_do_not_hide_a_copy(
    kv_pages: Exercise, tmp_path: Path, newline: bytes
) -> None:
    """A verbatim copy saved with CR line ends scored 0.09 against its original (tokenize read
    it as one line), and Python runs it the same: it passes every case."""
    copy = VICTIM.read_bytes().replace(b"\n", newline)
    folder = _class(tmp_path / "class", **{"copy.py": copy})
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions())
    assert _score(report, "block_objects", "copy") == 1.0


def test_the_page_counts_lines_as_the_tokenizer_does(kv_pages: Exercise, tmp_path: Path) -> None:
    """Line separators other than \\n (\\x0b, \\u2028) split the page's lines but not the
    tokenizer's: 2,000 of them in a comment put the matched code past what the page shows."""
    hidden = "#" + "\x0b\u2028" * 1000 + "\n" + VICTIM.read_text()
    folder = _class(tmp_path / "class", **{"copy.py": hidden.encode()})
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions())
    assert _score(report, "block_objects", "copy") == 1.0
    lines = dict(report.sources)["copy"]
    assert len(lines) == len(hidden.splitlines(keepends=False)) - 2000  # \n ends a line only
    pair = next(p for p in report.pairs if {p.a, p.b} == {"block_objects", "copy"})
    side = [
        (r.a_first, r.a_last) if pair.a == "copy" else (r.b_first, r.b_last) for r in pair.regions
    ]
    assert min(first for first, _ in side) <= 3  # the copied code from line 2 on, shown
    first_code = VICTIM.read_text().splitlines()[0]
    assert lines[1] == first_code
    assert first_code.replace('"', "&quot;")[:20] in render_page(report)


def test_names_from_an_absolute_glob_stay_apart(kv_pages: Exercise, tmp_path: Path) -> None:
    """An absolute glob named every student by the file name alone: 'pages.py and pages.py'."""
    for path in sorted((KV / "accepted").glob("*.py")):
        (tmp_path / "class" / path.stem).mkdir(parents=True)
        shutil.copy(path, tmp_path / "class" / path.stem / "pages.py")
    shutil.copytree(tmp_path / "class" / "block_objects", tmp_path / "class" / "copy")
    found = discover([str(tmp_path / "class" / "*" / "pages.py")])
    report = similar(kv_pages, found, SimilarityOptions())
    names = [c.name for c in report.submissions]
    assert len(set(names)) == len(names) == 5, names
    assert all(str(tmp_path) not in n for n in names), names
    assert _score(report, "block_objects/pages.py", "copy/pages.py") == 1.0


def test_a_clash_leaves_no_machine_path_in_the_json(kv_pages: Exercise, tmp_path: Path) -> None:
    folder = _class(tmp_path / "class")
    (folder / "block_objects").mkdir()
    shutil.copy(VICTIM, folder / "block_objects" / "main.py")
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions())
    assert str(tmp_path) not in to_json(report)
    assert sum(c.problem is not None for c in report.submissions) == 2


def test_anonymized_reports_keep_nothing_of_the_names(kv_pages: Exercise, tmp_path: Path) -> None:
    """--anonymize kept what came before a '/' of a name, and every problem's text."""
    folder = _class(tmp_path / "class", **{"bad\xff.py": b"\xff\xfe binary"})
    (folder / "alice_smith").mkdir()
    (folder / "alice_smith" / "one.py").write_text("x = 1\n")
    (folder / "alice_smith" / "two.py").write_text("y = 2\n")
    (folder / "bob").mkdir()
    shutil.copy(VICTIM, folder / "bob" / "pages.py")
    found = discover([str(folder / "*")])
    text = to_json(similar(kv_pages, found, SimilarityOptions(anonymize=True)))
    for leak in ("alice", "smith", "bob", "bad", "one.py", "block_objects", str(tmp_path)):
        assert leak not in text, leak


def test_a_glob_of_folders_is_one_submission_each(kv_pages: Exercise, tmp_path: Path) -> None:
    """'class/*' matched a student's folder of 20 folders, each a copy of the victim: 20 fake
    classmates, which made the victim's fragments common and the copy disappear."""
    folder = _class(tmp_path / "class")
    for n in range(20):
        (folder / "mallory" / f"s{n}").mkdir(parents=True)
        shutil.copy(VICTIM, folder / "mallory" / f"s{n}" / "pages.py")
    found = discover([str(folder / "*")])
    assert len(found) == 5
    mallory = next(s for s in found if s.name == "mallory")
    assert mallory.problem is not None and "one .py file" in mallory.problem


def test_the_page_is_bounded_however_large_the_files(kv_pages: Exercise, tmp_path: Path) -> None:
    """One superset of every solution behind 2,000 lines of quotes made a 35 MB page (2.4 MB a
    pair, growing with the pairs listed)."""
    every = "".join(p.read_text() for p in sorted(KV.glob("*/*.py")))
    superset = ('#"""' + '"' * 190 + "\n") * 2000 + every
    folder = _class(tmp_path / "class", **{"mallory.py": superset.encode()})
    page = render_page(similar(kv_pages, discover([str(folder)]), SimilarityOptions()))
    assert len(page.encode()) < 2_000_000, len(page.encode())


def test_a_file_is_compared_on_its_first_tokens_only(kv_pages: Exercise, tmp_path: Path) -> None:
    """A 1 MiB file of '(' took 8 s and 374 MB of one process."""
    folder = _class(tmp_path / "class", **{"bomb.py": b"(" * (1 << 20)})
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions())
    bomb = next(c for c in report.submissions if c.name == "bomb")
    assert bomb.tokens <= 20_000 and bomb.partial is not None


@pytest.mark.parametrize("target", ["archive", "reference", "same"])
def test_no_report_replaces_an_input(tmp_path: Path, target: str) -> None:
    """--json over an archived submission or the course's reference, or --json and --html
    the same file, wrote over it with exit 0."""
    from click.testing import CliRunner

    course = tmp_path / "course"
    for part in ("exercises", "cases", "reference"):
        shutil.copytree(PROJECT / part, course / part)
    _class(tmp_path / "class")
    past = _class(tmp_path / "past")
    out = {
        "archive": past / "block_objects.py",
        "reference": course / "reference" / "kv-pages" / "solution.py",
        "same": tmp_path / "same.out",
    }[target]
    before = out.read_bytes() if out.exists() else None
    args = ["similar", "kv-pages", str(tmp_path / "class"), "--archive", str(past)]
    args += ["--json", str(out), "--root", str(course)]
    if target == "same":
        args += ["--html", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert (out.read_bytes() if out.exists() else None) == before
    json.dumps(result.output)  # one line, no traceback
    assert "Traceback" not in result.output


def test_pair_views_past_the_page_budget_are_left_out() -> None:
    from grader.teacher.similarity.page import _within

    kept = _within(["a" * 40, "b" * 40, "c" * 40], most=100)
    assert kept[:2] == ["a" * 40, "b" * 40] and "size limit" in kept[2] and len(kept) == 3
