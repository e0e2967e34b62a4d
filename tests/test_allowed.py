"""What no run may see, as rules: the course's cases, its teacher material, a --cases folder and
this grader's own package (which may carry bundled answers) are left out of what a run may
read, even where they sit inside a folder runs may read (a course installed in site-packages,
a checkout on the interpreter's path)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import COURSE

from grader.judging.runs import Limits
from grader.model.resources import Root, RootKind
from grader.running.plan import hidden_from_runs
from grader.sandbox import Sandbox, allowed

GRADER = Path(allowed.__file__).resolve().parent.parent  # this grader's own package


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    allowed._readable.cache_clear()
    yield
    allowed._readable.cache_clear()


def _inside(path: str, folder: Path) -> bool:
    return path == str(folder) or path.startswith(str(folder) + "/")


def test_the_graders_own_package_is_never_readable(
    monkeypatch: pytest.MonkeyPatch, fresh_cache: None
) -> None:
    """Installed, the package sits in site-packages, which runs read: it must be cut out of
    it, its siblings kept."""
    monkeypatch.setattr(allowed, "python_paths", lambda: [str(GRADER.parent)])
    read, listed = allowed.readable(())
    assert not [p for p in read if _inside(p, GRADER)], read
    assert str(GRADER.parent) in listed  # listable, so that imports of its siblings work
    siblings = [p for p in read if Path(p).parent == GRADER.parent]
    assert siblings, read


@pytest.mark.parametrize("part", ["cases", "reference", "secret", "ci"])
def test_a_course_inside_a_readable_folder_is_cut_out(
    part: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_cache: None
) -> None:
    site = tmp_path / "site-packages"
    course = site / "course"
    shutil.copytree(COURSE, course)
    (site / "numpy").mkdir()
    (course / "elsewhere" / "add" / "secret").mkdir(parents=True)
    (course / "grade.toml").write_text('secret_cases = "elsewhere"\n')
    (tmp_path / "site-packages" / "ci").mkdir()
    from grader.model.resources import find_root

    root = find_root(course, environ={})
    assert root.kind is RootKind.EXPLICIT
    hidden = hidden_from_runs(root, site / "ci")
    where = {
        "cases": course / "cases",
        "reference": course / "reference",
        "secret": course / "elsewhere",
        "ci": site / "ci",
    }[part]
    assert where.resolve() in hidden
    monkeypatch.setattr(allowed, "python_paths", lambda: [str(site)])
    read, _listed = allowed.readable(tuple(str(p) for p in hidden))
    assert not [p for p in read if _inside(p, where.resolve())], read
    assert str((site / "numpy").resolve()) in read


def test_what_no_run_may_see(course: Root, tmp_path: Path) -> None:
    hidden = hidden_from_runs(course, tmp_path)
    assert set(hidden) == {
        (COURSE / "cases").resolve(),
        (COURSE / "reference").resolve(),
        tmp_path.resolve(),
    } | {course.secret_cases}


def test_a_shared_libpythons_library_path_reaches_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_cache: None
) -> None:
    """Issue 26: a Python that needs LD_LIBRARY_PATH (a lab's `module load python`) got
    grader_error on every case, also with --sandbox off: the run's environment dropped it."""
    lib = tmp_path / "lib"
    lib.mkdir()
    environ = {"LD_LIBRARY_PATH": f"{lib}::{tmp_path / 'gone'}", "CI_JOB_TOKEN": "x"}
    env = allowed.child_environment(tmp_path, environ)
    assert env["LD_LIBRARY_PATH"] == environ["LD_LIBRARY_PATH"] and "CI_JOB_TOKEN" not in env
    assert "LD_LIBRARY_PATH" not in allowed.child_environment(tmp_path, {})
    assert allowed.library_path(environ) == (str(lib.resolve()),)
    monkeypatch.setenv("LD_LIBRARY_PATH", str(lib))
    read, _listed = allowed.readable(())
    assert str(lib.resolve()) in read


def test_a_run_sees_and_reads_the_library_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox: Sandbox
) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "libfake.so").write_text("not really")
    lib.chmod(0o755)
    tmp_path.chmod(0o755)
    monkeypatch.setenv("LD_LIBRARY_PATH", str(lib))
    script = tmp_path / "s.py"
    script.write_text(
        "import os\nprint(os.environ['LD_LIBRARY_PATH'])\n"
        "print(open(os.path.join(os.environ['LD_LIBRARY_PATH'], 'libfake.so')).read())\n"
    )
    run = sandbox.run([sys.executable, str(script)], stdin=b"", limits=Limits())
    assert run.exit_code == 0, run.stderr.decode()
    assert run.stdout.decode().split("\n")[:2] == [str(lib), "not really"]


def test_the_environment_of_a_run_exactly(tmp_path: Path) -> None:
    env = allowed.child_environment(tmp_path, {"HOME": "/root", "CI_JOB_TOKEN": "x"})
    names = "OPENBLAS_NUM_THREADS OMP_NUM_THREADS MKL_NUM_THREADS NUMEXPR_NUM_THREADS"
    threads = dict.fromkeys([*names.split(), "VECLIB_MAXIMUM_THREADS"], "1")
    assert env == {
        "PATH": os.defpath,
        "HOME": str(tmp_path),
        "TMPDIR": str(tmp_path),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONUTF8": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        **threads,
    }


@pytest.mark.parametrize(
    ("folder_mode", "file_mode", "readable"),
    [(0o755, 0o644, True), (0o755, 0o600, False), (0o700, 0o644, False), (0o754, 0o644, False)],
)
def test_what_others_can_read(folder_mode: int, file_mode: int, readable: bool) -> None:
    top = Path(tempfile.mkdtemp(prefix="grade-others-"))  # pytest's own folders are 0700
    folder = top / "f"
    try:
        top.chmod(0o755)
        folder.mkdir()
        (folder / "x").write_text("x")
        (folder / "x").chmod(file_mode)
        folder.chmod(folder_mode)
        assert allowed.others_can_read(str(folder / "x")) is readable
        assert allowed.others_can_read(str(folder)) is (folder_mode & 0o005 == 0o005)
    finally:
        folder.chmod(0o755)
        shutil.rmtree(top)


def test_without_cuts_every_hidden_part_at_any_depth(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for part in ("a/keep", "a/hide", "b/keep", "b/deep/hide", "c"):
        (site / part).mkdir(parents=True)
    listed: list[str] = []
    kept = allowed.without(
        [str(site)], [str(site / "a" / "hide"), str(site / "b" / "deep" / "hide")], listed
    )
    assert sorted(Path(p).relative_to(site).as_posix() for p in kept) == ["a/keep", "b/keep", "c"]
    assert sorted(Path(p).relative_to(site).as_posix() for p in listed) == [".", "a", "b", "b/deep"]
    assert allowed.without([str(site / "c")], [str(site / "a")]) == [str(site / "c")]


@pytest.mark.parametrize(
    ("enabled", "exists", "found"),
    [(True, True, True), (False, True, False), (True, False, False)],
    ids=["a user site", "user sites disabled (-s)", "no such folder"],
)
def test_the_user_site_is_given_only_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, enabled: bool, exists: bool, found: bool
) -> None:
    """A student's pip install --user numpy lives there: a run must see it, and only it."""
    folder = tmp_path / "site-packages"
    if exists:
        folder.mkdir()
    import site

    monkeypatch.setattr(site, "ENABLE_USER_SITE", enabled)
    monkeypatch.setattr(site, "getusersitepackages", lambda: str(folder))
    assert allowed.user_site() == (str(folder) if found else None)


def test_a_run_may_read_the_user_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_cache: None
) -> None:
    folder = tmp_path / "user-site"
    folder.mkdir()
    monkeypatch.setattr(allowed, "user_site", lambda: str(folder))
    read, _listed = allowed.readable(())
    assert str(folder) in read


@pytest.mark.parametrize(
    ("path", "folder", "inside"),
    [
        ("/a/X/b", "/a/X", True),  # a name ending in the letters a strip might take
        ("/a/Xb", "/a/X", False),  # a sibling whose name starts alike
        ("/a/X", "/a/X", True),
    ],
)
def test_inside_is_by_whole_names(path: str, folder: str, inside: bool) -> None:
    assert allowed._inside(path, folder) is inside
