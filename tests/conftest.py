"""Shared fixtures: the fixture course, the checkout's exercises, scripts, and golden files.

Behaviour tests use the fixture course under ``tests/data/course`` (exercise ``add``), which no
teacher edits; only the tests of the shipped exercises themselves load ``exercises/``.
Regenerate golden files after an intended format change with: pytest --update-golden
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import select
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import _bytecode  # before the grader's modules: where their bytecode goes
import pytest

from grader.judging.compare import Comparator, build
from grader.model.resources import Root, RootKind, checkout_root
from grader.model.spec import Exercise, load_exercise
from grader.running.plan import Plan, prepare
from grader.sandbox import Sandbox, SandboxMode

TESTS = Path(__file__).resolve().parent
SCRIPTS = TESTS / "scripts"
GOLDEN = TESTS / "golden"
DATA = TESTS / "data"
COURSE = DATA / "course"
ONE_QUANTIZE_CASE = DATA / "one_quantize_case"
MUTMUT_SITE = TESTS / "mutmut_site"
# tests/windows/ runs on a Windows CPython against the installed wheel (.ci/windows)
collect_ignore = [] if sys.platform == "win32" else ["windows"]


def pytest_configure(config: pytest.Config) -> None:
    # A shell starts a background job with SIGINT ignored (and a child inherits that): tests
    # that interrupt the grader would then pass or fail by how the suite was started.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The suite's own cache folder (--lf's last failures), for it and every grade it starts:
    the user's ~/.cache/grade is theirs, and grew by every temporary path a run graded."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
        yield


@pytest.fixture(scope="session", autouse=True)
def _mutants_in_subprocesses(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Under mutmut (which sets MUTANT_UNDER_TEST), every Python the suite starts imports the
    grader the suite imports, mutmut's mutated copy: a ``python -m grader`` imported none (or an
    installed one), so what only a real process holds (main, the crash file and exit 4, the
    signals, the streams' encodings) let every mutant survive. .ci/mutation runs it."""
    if "MUTANT_UNDER_TEST" not in os.environ:
        yield
        return
    import grader

    mutated = Path(grader.__file__).resolve().parent.parent
    paths = [str(mutated), str(MUTMUT_SITE), os.environ.get("PYTHONPATH", "")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
        patch.setenv("GRADE_MUTMUT_HITS", str(tmp_path_factory.mktemp("mutmut") / "hits"))
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """The functions the test's subprocesses reached (tests/mutmut_site), handed to mutmut's
    stats before it files the test's own: mutmut then runs this test for their mutants."""
    hits = os.environ.get("GRADE_MUTMUT_HITS")
    if hits is None or not os.path.exists(hits):
        return
    with open(hits, encoding="utf-8") as reached:
        names = set(reached.read().split())
    os.remove(hits)
    importlib.import_module("mutmut.state").state()._stats.update(names)


def pytest_sessionfinish(session: pytest.Session) -> None:
    # the bytecode of modules the suite imported from temporary folders (a copied course's
    # validate.py) would pile up run after run; the controller, once its workers are done
    # (only in the suite's own folder: a prefix the user set is theirs)
    if _bytecode.OWN is not None and not hasattr(session.config, "workerinput"):
        shutil.rmtree(_bytecode.OWN + tempfile.gettempdir(), ignore_errors=True)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files")


@pytest.fixture(scope="session")
def root() -> Root:
    found = checkout_root()
    if found is None:
        pytest.skip("needs the project checkout (exercises/, cases/)")
    return Root(found, RootKind.CHECKOUT)


@pytest.fixture(scope="session")
def quantize(root: Root) -> Exercise:
    return load_exercise("quantize", root)


@pytest.fixture(scope="session")
def specdec(root: Root) -> Exercise:
    return load_exercise("specdec", root)


@pytest.fixture(scope="session")
def course() -> Root:
    """The fixture course: exercise ``add`` (4 cases, one hidden worth 2 points)."""
    return Root(COURSE, RootKind.EXPLICIT)


@pytest.fixture(scope="session")
def add(course: Root) -> Exercise:
    return load_exercise("add", course)


@pytest.fixture(scope="session")
def sandbox() -> Sandbox:
    """One probed sandbox for the session; each plan makes it hide its own root's answers."""
    return Sandbox.create(SandboxMode.AUTO)


PlanFactory = Callable[..., Plan]


@pytest.fixture
def plan_of(sandbox: Sandbox) -> PlanFactory:
    """``plan_of(exercise, cases_dir=..., **fields)``: a plan on the session's sandbox, with any
    of its fields replaced (``cases``, ``limits``, ``runner``, ``jobs``, ``python``)."""

    def make(exercise: Exercise, *, cases_dir: Path | None = None, **fields: Any) -> Plan:
        plan = prepare(exercise, cases_dir=cases_dir, sandbox=sandbox)
        if "time_s" in fields:
            fields["limits"] = dataclasses.replace(plan.limits, time_s=fields.pop("time_s"))
        return dataclasses.replace(plan, **fields)

    return make


@pytest.fixture
def reference_dir(root: Root) -> Path:
    if not root.material.is_dir():
        pytest.skip("reference/ is absent (an sdist): teacher material is not shipped")
    return root.material


def copy_root(source: Root, target: Path) -> Root:
    for name in ("exercises", "cases", "reference"):
        if (source.path / name).is_dir():
            shutil.copytree(source.path / name, target / name)
    return Root(target, RootKind.EXPLICIT)


@pytest.fixture
def root_copy(root: Root, tmp_path: Path) -> Root:
    """A writable copy of the shipped exercises, cases and references, to break on purpose."""
    return copy_root(root, tmp_path / "root")


@pytest.fixture
def course_copy(course: Root, tmp_path: Path) -> Root:
    """A writable copy of the fixture course, to break on purpose."""
    return copy_root(course, tmp_path / "course")


Golden = Callable[[str, str], None]


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    update = request.config.getoption("--update-golden")

    def check(name: str, actual: str) -> None:
        path = GOLDEN / name
        if update:
            path.write_text(actual, encoding="utf-8")
        assert path.is_file(), f"missing golden file {path}; run pytest --update-golden"
        assert actual == path.read_text(encoding="utf-8")

    return check


def script(name: str) -> Path:
    return SCRIPTS / name


def read_until(fd: int, marker: bytes, seen: bytearray) -> None:
    """Read ``fd`` (a pipe or a pty) into ``seen`` until ``marker`` shows up: waiting on the
    output itself, never on time (the 60 s bound is for a marker that never comes)."""
    while marker not in seen:
        ready, _, _ = select.select([fd], [], [], 60)
        if not ready:
            raise AssertionError(f"no {marker!r} within 60 s; got {bytes(seen)!r}")
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # a pty whose child ended
            chunk = b""
        if not chunk:
            raise AssertionError(f"ended without {marker!r}: {bytes(seen)!r}")
        seen += chunk


def read_to_end(fd: int) -> bytes:
    """Read ``fd`` (a pipe or a pty) until every writer has closed it (a pty says EIO then);
    the 60 s bound per read is for a writer that never ends, not a sync."""
    chunks = []
    while select.select([fd], [], [], 60)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def comparing(method: str, options: Mapping[str, Any] | None = None) -> Comparator:
    """The comparator a spec's ``compare:`` builds for every case (not a checker's: that one is
    bound to each case by the grading)."""
    built = build(method, options or {})
    assert built.comparator is not None, f"{method} compares per case"
    return built.comparator
