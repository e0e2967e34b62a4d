"""grade similar's files and its command: the JSON is the same bytes across processes
(PYTHONHASHSEED) and class locations, hostile names are text in the page, a file that does not
tokenize is reported, an archive is compared with the class only, names can be pseudonyms, and
the gradebook's evidence stands beside the token score."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import read_to_end

from grader.judging.records import CaseFeedback, Diagnosis, Feedback, Verdict
from grader.model.resources import Root
from grader.model.spec import Exercise, load_exercise
from grader.running.batch import discover
from grader.running.gradebook import Entry, Gradebook
from grader.teacher.similarity import NOTICE, SimilarityOptions, similar
from grader.teacher.similarity.json_report import to_json
from grader.teacher.similarity.page import render_page

PROJECT = Path(__file__).resolve().parent.parent
KV = PROJECT / "reference" / "kv-pages"


@pytest.fixture(scope="module")
def kv_pages(root: Root) -> Exercise:
    return load_exercise("kv-pages", root)


def _class(folder: Path, *extra: tuple[str, str]) -> Path:
    """Four honest students, one's copy, and ``extra`` (name, text) files."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted((KV / "accepted").glob("*.py")):
        shutil.copy(path, folder / path.name)
    shutil.copy(KV / "accepted" / "block_objects.py", folder / "copied.py")
    for name, text in extra:
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _grade(*args: str, cwd: Path, seed: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-m", "grader", "similar", *args, "--root", str(PROJECT)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_json_is_the_same_bytes_across_hash_seeds_and_paths(tmp_path: Path) -> None:
    outputs = []
    for where, seed in (("one/deep/place", "1"), ("other", "4242")):
        here = tmp_path / where
        _class(here / "class")
        done = _grade("kv-pages", "class", "--json", "out.json", cwd=here, seed=seed)
        assert done.returncode == 0, done.stderr
        assert "block_objects and copied" in done.stdout
        outputs.append((here / "out.json").read_bytes())
    assert outputs[0] == outputs[1]
    data = json.loads(outputs[0])
    assert data["kind"] == "grade-similarity" and data["schema_version"] == 1
    assert str(tmp_path) not in outputs[0].decode()
    assert data["notice"] == NOTICE


def test_hostile_names_are_text_in_the_page(kv_pages: Exercise, tmp_path: Path) -> None:
    folder = _class(tmp_path / "class")
    student = folder / "<img src=x onerror=alert(1)>\x1b[31m\u202e"
    student.mkdir()
    shutil.copy(KV / "accepted" / "block_objects.py", student / "main.py")
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions())
    page = render_page(report)
    assert "<img" not in page and "\x1b" not in page and "\u202e" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;\\x1b[31m\\u202e" in page
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")
    assert NOTICE in page


def test_a_file_that_does_not_tokenize_is_reported_not_a_crash(
    kv_pages: Exercise, tmp_path: Path
) -> None:
    broken = (KV / "accepted" / "block_objects.py").read_text() + "\nif (x:\n    y = [\n"
    folder = _class(tmp_path / "class", ("broken.py", broken))
    (folder / "binary.py").write_bytes(b"\0\1\2")
    (folder / "link.py").symlink_to(KV / "solution.py")
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions())
    found = {c.name: c for c in report.submissions}
    assert found["broken"].partial is not None and "does not tokenize" in found["broken"].partial
    assert found["broken"].tokens > 500  # scored on what tokenized
    assert found["binary"].problem is not None and "binary" in found["binary"].problem
    assert found["link"].problem is not None and "symbolic link" in found["link"].problem
    assert any({p.a, p.b} == {"block_objects", "broken"} for p in report.pairs)
    assert "compared up to there" in render_page(report)


def test_an_archive_is_compared_with_the_class_only(kv_pages: Exercise, tmp_path: Path) -> None:
    folder = _class(tmp_path / "class")
    os.remove(folder / "copied.py")
    archive = tmp_path / "2024"
    archive.mkdir()
    for name in ("alice.py", "bob.py"):  # the same file twice: never a pair of their own
        shutil.copy(KV / "accepted" / "last_blocks_only.py", archive / name)
    options = SimilarityOptions(archive=(str(archive),))
    report = similar(kv_pages, discover([str(folder)]), options)
    pairs = {(p.a, p.b, p.archived) for p in report.pairs}
    assert pairs == {
        ("last_blocks_only", "2024/alice", True),
        ("last_blocks_only", "2024/bob", True),
    }
    assert report.compared_pairs == 4 * 3 // 2 + 4 * 2


def test_anonymized_names_are_stable_pseudonyms(kv_pages: Exercise, tmp_path: Path) -> None:
    folder = _class(tmp_path / "class")
    options = SimilarityOptions(anonymize=True)
    first = to_json(similar(kv_pages, discover([str(folder)]), options))
    again = to_json(similar(kv_pages, discover([str(folder)]), options))
    assert first == again
    assert "block_objects" not in first and "copied" not in first
    (pair,) = json.loads(first)["pairs"]
    assert pair["a"].startswith("student-") and pair["a"] < pair["b"]


def test_starter_code_is_no_ones_evidence(kv_pages: Exercise, tmp_path: Path) -> None:
    starter = (KV / "accepted" / "admission_numbers.py").read_text()
    folder = _class(
        tmp_path / "class",
        ("ann.py", starter + "\nprint('ann')\n"),
        ("ben.py", starter + "\nprint('ben', 1)\n"),
    )
    given = tmp_path / "starter.py"
    given.write_text(starter, encoding="utf-8")
    plain = similar(kv_pages, discover([str(folder)]), SimilarityOptions())
    with_starter = similar(kv_pages, discover([str(folder)]), SimilarityOptions(starters=(given,)))
    assert any({p.a, p.b} == {"ann", "ben"} for p in plain.pairs)
    assert not any("ann" in (p.a, p.b) for p in with_starter.pairs)
    assert with_starter.ignored.starter > 0


def _feedback(name: str, output: str, mistake: str | None) -> Feedback:
    failing = CaseFeedback(
        "03-fork",
        "fork",
        Verdict.WRONG_ANSWER,
        "differs",
        0.1,
        0,
        0.0,
        1.0,
        stdout=output,
        diagnosis=None if mistake is None else Diagnosis(mistake, "does it wrong"),
    )
    passing = CaseFeedback("01-add", "add", Verdict.PASSED, "", 0.1, 0, 1.0, 1.0)
    return Feedback("kv-pages", name, (passing, failing))


def test_the_gradebook_gives_a_second_score_beside_the_token_score(
    kv_pages: Exercise, tmp_path: Path
) -> None:
    folder = _class(tmp_path / "class")
    outputs = {
        "admission_numbers": ("same odd output\n", "preempts_oldest"),
        "shared_counts_only": ("same odd output\n", "preempts_oldest"),
        "last_blocks_only": ("another\n", None),
        "block_objects": ("a third\n", None),
        "copied": ("a fourth\n", None),
    }
    book = Gradebook(
        "kv-pages",
        ("01-add", "03-fork"),
        tuple(
            Entry(name, f"{name}.py", _feedback(name, out, mistake))
            for name, (out, mistake) in sorted(outputs.items())
        ),
    )
    path = tmp_path / "book.json"
    path.write_text(book.to_json(), encoding="utf-8")
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions(gradebook=path))
    (top,) = [p for p in report.evidence_pairs if p.evidence is not None and p.evidence.bits > 0]
    assert (top.a, top.b) == ("admission_numbers", "shared_counts_only")
    assert top.evidence is not None and len(top.evidence.shared) == 2
    assert top.score < SimilarityOptions().threshold  # shown beside it, never merged
    assert all(p.evidence is not None for p in report.pairs)


def test_an_output_over_an_input_is_refused(tmp_path: Path) -> None:
    folder = _class(tmp_path / "class")
    done = _grade("kv-pages", "class", "--html", str(folder / "copied.py"), cwd=tmp_path, seed="0")
    assert done.returncode == 2 and "an input of grade similar" in done.stderr


def _on_a_terminal(tmp_path: Path, *, stdout_piped: bool) -> tuple[str, bytes]:
    """``grade similar`` with stderr on a terminal (a pty), and stdout there too or piped:
    what stdout got and what the terminal showed."""
    controller, terminal = pty.openpty()
    grade = [sys.executable, "-m", "grader", "similar", "kv-pages", "class"]
    with subprocess.Popen(
        [*grade, "--root", str(PROJECT)],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if stdout_piped else terminal,
        stderr=terminal,
    ) as proc:
        os.close(terminal)
        try:
            shown = read_to_end(controller)
        finally:
            os.close(controller)
        stdout = proc.stdout.read().decode() if proc.stdout is not None else ""
        assert proc.wait(timeout=60) == 0
    return stdout, shown


def test_a_bar_shows_the_comparing_on_a_terminal_and_nowhere_else(tmp_path: Path) -> None:
    _class(tmp_path / "class")
    _, shown = _on_a_terminal(tmp_path, stdout_piped=False)
    assert b"comparing" in shown and b"5/5" in shown  # the bar, at its end
    assert b"block_objects and copied" in shown
    stdout, shown = _on_a_terminal(tmp_path, stdout_piped=True)  # grade similar ... > file
    assert "block_objects and copied" in stdout and b"comparing" not in shown
    piped = _grade("kv-pages", "class", cwd=tmp_path, seed="0")  # a CI log: the summary only
    assert "block_objects and copied" in piped.stdout and "comparing" not in piped.stderr


@pytest.mark.slow
def test_the_page_shows_matched_lines_side_by_side_in_a_browser(
    kv_pages: Exercise, tmp_path: Path
) -> None:
    pytest.importorskip("playwright", reason="Playwright drives the browser (.ci/run installs it)")
    if shutil.which("chromium") is None:
        pytest.skip("no chromium here (.ci/run installs Debian's)")
    from playwright.sync_api import sync_playwright

    folder = _class(tmp_path / "class")
    marked = folder / "<b class=x>bold"
    marked.mkdir()
    shutil.copy(KV / "accepted" / "block_objects.py", marked / "main.py")
    page_file = tmp_path / "report.html"
    page_file.write_text(
        render_page(similar(kv_pages, discover([str(folder)]), SimilarityOptions())),
        encoding="utf-8",
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(page_file.as_uri())
        assert page.locator("b").count() == 0  # the name is text, not markup
        first = page.locator("details").first
        first.locator("summary").click()
        sides = first.locator(".side")
        assert sides.count() == 2
        assert "<b class=x>bold" in first.locator("summary").inner_text()
        for side in range(2):
            matched = sides.nth(side).locator("[data-matched]")
            assert matched.count() > 50 and matched.first.is_visible()
        browser.close()
