"""Time from "Grade" to the verdict on the practice site, in headless Chromium.

    python benchmarks/site.py [--rounds 3] [--pyodide DIR] [--public]

Builds the site for quantize with every one of its cases (the secret ones added to the page's
case list, as if all were public: the figure is for the whole set; --public: the page as
students have it, public cases only), serves it on 127.0.0.1 with
a Pyodide core (default: the copy tests/test_site.py caches from the npm registry), types the
pure-Python accepted solution into the editor and clicks Grade, ROUNDS times in one page. The
first Grade, clicked as soon as the page has opened, waits for Python to finish loading (the
page starts loading it at once); the others reuse the worker the previous Grade left.
Needs Playwright and Debian's chromium (.ci/run installs both).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from grader.judging.printed import decode  # noqa: E402
from grader.model.cases import own_cases  # noqa: E402
from grader.model.resources import Root, RootKind  # noqa: E402
from grader.model.spec import load_exercise  # noqa: E402
from grader.publish.site import build, read_expected, write_expected  # noqa: E402

CACHE = Path(os.environ.get("GRADE_TEST_CACHE", "~/.cache/grade-tests")).expanduser()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pyodide", type=Path, default=CACHE / "pyodide-0.27.2")
    parser.add_argument("--public", action="store_true", help="the public cases only")
    args = parser.parse_args()
    if not (args.pyodide / "pyodide.js").is_file():
        sys.exit(f"no Pyodide core in {args.pyodide}: run tests/test_site.py -m slow once")
    from playwright.sync_api import sync_playwright

    root = Root(PROJECT, RootKind.CHECKOUT)
    exercise = load_exercise("quantize", root)
    solution = (PROJECT / "reference" / "quantize" / "accepted" / "exact_integers.py").read_text()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shutil.copytree(args.pyodide, folder / "pyodide")
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0),
            functools.partial(_Quiet, directory=str(folder)),
        )
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        build(root, folder / "site", ("quantize",), pyodide_url=url + "pyodide/")
        page_data = folder / "site" / "quantize.json"
        data = json.loads(page_data.read_text())
        shown = {c["name"] for c in data["cases"]}
        expected = read_expected(folder / "site")
        for case in () if args.public else own_cases(exercise):
            if case.name not in shown:
                data["cases"].append(
                    {
                        "name": case.name,
                        "title": case.title,
                        "input": decode(case.input),
                        "hint": case.hint,
                        "sample": False,
                        "mistakes": {},
                    }
                )
                expected["quantize"][case.name] = case.expected  # the judge's only
        page_data.write_text(json.dumps(data))
        write_expected(folder / "site", expected)
        total = len(data["cases"])
        threading.Thread(target=server.serve_forever, daemon=True).start()
        times: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=shutil.which("chromium"), args=["--no-sandbox"]
            )
            page = browser.new_page()
            page.goto(url + "site/quantize.html")
            page.evaluate("(source) => gradeEditor.set(source)", solution)  # the editor
            for _ in range(args.rounds):
                page.evaluate("document.getElementById('summary').textContent = ''")
                start = time.perf_counter()
                page.click("#grade")
                page.wait_for_function(
                    "document.getElementById('summary').textContent.includes('passed')",
                    timeout=300_000,
                )
                times.append(time.perf_counter() - start)
                said = page.inner_text("#summary")
                if f"({total}/{total})" not in said:
                    sys.exit(f"not every case passed: {said}")
            browser.close()
        server.shutdown()
    print(f"quantize, {total} cases, pure-Python accepted solution, headless Chromium:")
    print(f"  first Grade, at once after the page opened: {times[0]:.2f} s")
    if len(times) > 1:
        print(f"  later Grades, median of {len(times) - 1}: {statistics.median(times[1:]):.2f} s")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


if __name__ == "__main__":
    main()
