"""grade site: the static practice site. Built without secrets; and, where Chromium, Playwright
and a Pyodide core are at hand (.ci/run fetches them from the registries), graded in a real
headless browser the way grade grades."""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from grader.cli import cli
from grader.resources import Root
from grader.spec import load_exercise

PYODIDE_VERSION = "0.27.2"
CACHE = Path(os.environ.get("GRADE_TEST_CACHE", "~/.cache/grade-tests")).expanduser()


def test_the_site_holds_public_cases_only(root: Root, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["site", str(tmp_path / "site"), "--root", str(root.path)])
    assert result.exit_code == 0, result.output
    assert "top-k left out: judged by a checker" in result.stderr
    site = tmp_path / "site"
    text = "".join(p.read_text() for p in site.rglob("*") if p.is_file())
    exercise = load_exercise("quantize", root)
    for secret in exercise.secret_cases.glob("*.out"):
        assert secret.read_text().strip() not in text, secret
    data = json.loads((site / "quantize.json").read_text())
    assert {c["name"] for c in data["cases"]} == {
        p.stem for p in exercise.public_cases.glob("*.in")
    }
    assert (site / "py" / "grader" / "compare.py").read_text() == (
        Path(__file__).resolve().parent.parent / "grader" / "compare.py"
    ).read_text()  # the grader's own comparison, not a copy in JavaScript


def _pyodide() -> Path:
    """The Pyodide core from the npm registry, unpacked once into the test cache."""
    folder = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if (folder / "pyodide.js").is_file():
        return folder
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("no npm here to fetch the pyodide core (.ci/run has one)")
    CACHE.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(CACHE)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    tarball = CACHE / f"pyodide-{PYODIDE_VERSION}.tgz"
    if done.returncode != 0 or not tarball.is_file():
        pytest.skip(f"the npm registry did not give pyodide: {done.stderr[-200:]}")
    with tarfile.open(tarball) as archive:
        archive.extractall(CACHE / "unpacked", filter="data")
    (CACHE / "unpacked" / "package").rename(folder)
    return folder


@pytest.fixture(scope="module")
def served(root: Root, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("playwright", reason="Playwright drives the browser (.ci/run installs it)")
    if shutil.which("chromium") is None:
        pytest.skip("no chromium here (.ci/run installs Debian's)")
    pyodide = _pyodide()
    folder = tmp_path_factory.mktemp("served")
    shutil.copytree(pyodide, folder / "pyodide")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    args = [
        "site",
        str(folder / "site"),
        "quantize",
        "--root",
        str(root.path),
        "--pyodide-url",
        url + "pyodide/",
    ]
    assert CliRunner().invoke(cli, args).exit_code == 0
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield url + "site/"
    server.shutdown()
    server.server_close()


def _grade_in_browser(url: str, source: str, shots: Path, name: str, button: str = "#grade") -> str:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page()
        page.on("console", lambda m: None)
        page.goto(url + "quantize.html")
        page.fill("#code", source)
        page.click(button)
        page.wait_for_function(
            "document.getElementById('summary').textContent.includes('passed')"
            " || document.getElementById('summary').textContent.includes('load')"
            " && !document.getElementById('summary').textContent.includes('loading')",
            timeout=180_000,
        )
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        text = page.inner_text("body")
        browser.close()
    return text


@pytest.mark.slow
def test_the_browser_grades_as_grade_does(served: str, root: Root, tmp_path: Path) -> None:
    right = (root.material / "quantize" / "accepted" / "exact_integers.py").read_text()
    text = _grade_in_browser(served, right, tmp_path, "right")
    assert "all public cases passed" in text, text[-2000:]
    wrong_file = root.material / "quantize" / "wrong" / "truncation.py"
    text = _grade_in_browser(served, wrong_file.read_text(), tmp_path, "wrong")
    report = subprocess.run(
        [
            sys.executable,
            "-m",
            "grader",
            "quantize",
            str(wrong_file),
            "--format",
            "json",
            "--root",
            str(root.path),
            "-k",
            "sample",
            "-k",
            "ties",
            "-k",
            "zero",
        ],
        capture_output=True,
        text=True,
    )
    first = next(c for c in json.loads(report.stdout)["cases"] if c["status"] != "passed")
    assert first["message"] in text  # the same first-mismatch message as grade's


@pytest.mark.slow
def test_an_endless_loop_times_out_and_the_page_still_grades(
    served: str, root: Root, tmp_path: Path
) -> None:
    text = _grade_in_browser(served, "while True:\n    pass\n", tmp_path, "loop", "#samples")
    assert text.count("timeout") == 2, text[-1500:]  # both samples, each at its limit
    assert "no answer within 5 s; stopped" in text
