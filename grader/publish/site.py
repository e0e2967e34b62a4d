"""``grade site``: the exercises as a static practice site, graded in the browser by the same
comparator as ``grade`` (Pyodide in a Web Worker; see ``browser.py`` and ``site_assets/``).

Only public cases are written, with their known mistakes' digests; their expected outputs only
into the judge's script (``write_expected``). A checker exercise ships its checker, as the
student package does.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path

from .. import PACKAGE_DIR
from ..files import write_atomically
from ..judging.printed import decode
from ..judging.timing import browser_limit_s
from ..model.cases import own_cases
from ..model.known_mistakes import load as known_mistakes
from ..model.resources import Root
from ..model.spec import exercise_names, load_exercise

PYODIDE_URL = "https://cdn.jsdelivr.net/pyodide/v0.27.2/full/"
_ASSETS = PACKAGE_DIR / "site_assets"
# the browser's judge is the judging package itself, copied whole: it imports nothing else
_JUDGING = PACKAGE_DIR / "judging"


# exercise -> case -> expected output: the judge's alone (see write_expected)
Expected = dict[str, dict[str, str]]
_EXPECTED = "const EXPECTED = "


def write_expected(site: Path, expected: Expected) -> None:
    """The public cases' expected outputs, written into the judge's script (its one line that
    starts with ``const EXPECTED = ``) and into no data file of the site: the student's worker
    can import() a same-origin JSON file, but of a script it can only run it, and the judge's
    first line fails in that worker (no importScripts there once the program may run)."""
    script = site / "judge.js"
    lines = script.read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(_EXPECTED))
    lines[at] = _EXPECTED + json.dumps(expected, sort_keys=True) + ";"
    write_atomically(script, "\n".join(lines))


def read_expected(site: Path) -> Expected:
    """What ``write_expected`` wrote (the tests and the benchmark join it to the cases)."""
    for line in (site / "judge.js").read_text().split("\n"):
        if line.startswith(_EXPECTED):
            found: Expected = json.loads(line.removeprefix(_EXPECTED).removesuffix(";"))
            return found
    return {}


@dataclass(frozen=True)
class Site:
    folder: Path
    exercises: tuple[str, ...]


def _page(title: str, body: str, exercise: str = "") -> str:
    data = f' data-exercise="{html.escape(exercise)}"' if exercise else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="style.css">
</head>
<body{data}>
{body}
</body>
</html>
"""


def build(
    root: Root, out: Path, chosen: tuple[str, ...] = (), *, pyodide_url: str = PYODIDE_URL
) -> Site:
    pyodide_url = pyodide_url if pyodide_url.endswith("/") else pyodide_url + "/"
    names = chosen or exercise_names(root)
    out.mkdir(parents=True, exist_ok=True)
    built, links = [], []
    expected: Expected = {}
    for name in names:
        exercise = load_exercise(name, root)
        cases = [c for c in own_cases(exercise) if not c.secret]  # what ships, and only that
        known = known_mistakes(exercise)
        checker = exercise.compare.checker
        data = {
            "name": name,
            "title": exercise.title,
            "time_s": browser_limit_s(exercise.limits.time_s),
            "output_kb": exercise.limits.output_kb,
            "method": exercise.compare.method,
            "options": dict(exercise.compare.options),
            "checker": None
            if checker is None
            else (root.path / checker).read_text(encoding="utf-8"),
            # what each known mistake is, and per case what it prints: the page names one as
            # grade does, over all its cases (judging/mistakes.py, in the judge's worker)
            "mistakes": dict(known.about),
            "cases": [
                {
                    "name": c.name,
                    "title": c.title,
                    "input": decode(c.input),
                    "hint": c.hint,
                    "sample": c.sample,
                    "printed": dict(known.printed.get(c.name, {})),
                }
                for c in cases
            ],
        }
        expected[name] = {c.name: c.expected for c in cases}
        write_atomically(out / f"{name}.json", json.dumps(data, indent=1) + "\n")
        samples = "".join(
            f"<h3>Sample: {html.escape(c.title)}</h3><pre>{html.escape(decode(c.input))}</pre>"
            f"<p class=note>prints</p><pre>{html.escape(c.expected)}</pre>"
            for c in cases
            if c.sample
        )
        # the statement, and beside it on a wide screen (under it on a narrow one) the work
        body = (
            '<p><a href="index.html">all exercises</a></p><main class="exercise">'
            f'<section class="statement"><h1>{html.escape(exercise.title)}</h1>'
            f"<pre>{html.escape(exercise.statement)}</pre>{samples}</section>"
            '<section class="work"><h2>Your solution</h2>'
            '<textarea id="code" spellcheck="false"></textarea>'
            '<div class="actions"><button id="samples">Run on samples</button>'
            '<button id="grade">Grade</button><span id="python" class="note">loading Python…'
            '</span> <span id="summary"></span></div>'
            '<div id="diagnosis"></div>'
            '<div id="results"></div>'
            f"<p class=note>Runs in this browser (Pyodide), {len(cases)} public cases, "
            f"{browser_limit_s(exercise.limits.time_s):g} s each; memory limits are not enforced "
            "here. "
            "Your code stays in this browser.</p></section></main>"
            '<script src="editor.js"></script><script src="app.js"></script>'
        )
        write_atomically(out / f"{name}.html", _page(exercise.title, body, name))
        links.append(
            f'<li><a href="{html.escape(name)}.html">{html.escape(exercise.title)}</a></li>'
        )
        built.append(name)
    index = "<h1>Practice exercises</h1><ul>" + "".join(links) + "</ul>"
    write_atomically(out / "index.html", _page("Practice exercises", index))
    for script in ("worker.js", "judge.js"):  # the student's worker, and the judge's
        worker = (
            (_ASSETS / script)
            .read_text()
            .replace("PYODIDE_URL + ", json.dumps(pyodide_url) + " + ")
            .replace("indexURL: PYODIDE_URL", f"indexURL: {json.dumps(pyodide_url)}")
        )
        write_atomically(out / script, worker)
    write_expected(out, expected)
    # the code editor is a bundle built from the npm registry (site_assets/build-editor.sh)
    for asset in ("app.js", "style.css", "editor.js", "editor.LICENSE.txt"):
        write_atomically(out / asset, (_ASSETS / asset).read_bytes())
    (out / "py" / "judging").mkdir(parents=True, exist_ok=True)
    files = sorted(p.name for p in _JUDGING.glob("*.py"))
    for name in files:
        write_atomically(out / "py" / "judging" / name, (_JUDGING / name).read_text())
    write_atomically(out / "py" / "files.json", json.dumps(files) + "\n")
    return Site(out.absolute(), tuple(built))
