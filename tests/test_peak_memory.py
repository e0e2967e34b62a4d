"""Each run's peak memory: where it comes from per runner, that it travels to every report,
and that a solution holding ~200 MiB reports within 20% of that in each environment (as root,
as an ordinary user, on the portable runner: slow)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import COURSE, SCRIPTS, TESTS

from grader.judging.records import CaseFeedback, Feedback, Verdict, Visibility
from grader.render import render
from grader.render.json import feedback_from_dict, to_dict
from grader.render.text import slowest_line
from grader.sandbox import Limits, Sandbox, SandboxMode, cgroups, portable, process, treewatch
from grader.sandbox.allowed import others_can_read
from grader.sandbox.types import Isolation

PROJECT = TESTS.parent
HELD = 200 << 20  # what alloc_200mb.py holds at once
USER = "grade-test"


def test_rusage_counts_kib_on_linux_and_bytes_on_macos() -> None:
    unit = 1 if sys.platform == "darwin" else 1024
    assert process.peak_from_rusage(2048) == 2048 * unit
    assert process.peak_from_rusage(0) is None  # the kernel said nothing


def test_a_cgroups_peak_is_read_where_the_group_keeps_one(tmp_path: Path) -> None:
    assert cgroups.memory_peak(str(tmp_path)) is None  # v1, or no memory controller
    (tmp_path / "memory.peak").write_text("209715200\n")
    assert cgroups.memory_peak(str(tmp_path)) == 209715200


def test_the_tree_watch_keeps_the_most_the_tree_held_at_one_look() -> None:
    looks = iter([[10, 20], [100, 5, 5], [40]])

    def look(_leader: int) -> list[treewatch.Seen]:
        return [treewatch.Seen(i, 0, m) for i, m in enumerate(next(looks))]

    watch = treewatch.TreeWatch(1, memory=1 << 30, processes=64, stop_run=lambda: None, look=look)
    assert watch.peak is None
    for _ in range(3):
        watch.look_once()
    assert watch.peak == 110 and watch.over is None


@pytest.mark.parametrize("isolation", [Isolation.FORK, Isolation.FRESH])
def test_every_run_says_its_peak(sandbox: Sandbox, isolation: Isolation) -> None:
    """Through the fork server's protocol too: it reaps its runs, so only it can tell."""
    box = sandbox if isolation is Isolation.FORK else sandbox.fresh()
    run = box.run([sys.executable, str(SCRIPTS / "reads_env.py")], stdin=b"", limits=Limits())
    assert run.peak_bytes is not None and 1 << 20 < run.peak_bytes < 200 << 20


# each waits out its time limit: the fork server with the sandbox by default, the rest slow
@pytest.mark.parametrize(
    ("mode", "isolation"),
    [
        (SandboxMode.AUTO, Isolation.FORK),
        pytest.param(SandboxMode.OFF, Isolation.FORK, marks=pytest.mark.slow),
        pytest.param(SandboxMode.AUTO, Isolation.FRESH, marks=pytest.mark.slow),
        pytest.param(SandboxMode.OFF, Isolation.FRESH, marks=pytest.mark.slow),
    ],
)
def test_a_run_killed_at_its_time_limit_still_says_its_peak(
    mode: SandboxMode, isolation: Isolation
) -> None:
    """With namespaces the submission is the child of the run's init: killing the init first
    let the dying namespace reap the submission unaccounted (its init ignores SIGCHLD by
    then), and the run reported the relay's 17 MB instead of its 210. In a grader of its own:
    a fresh run's figure is at least its grader's largest resident set (docs/sandbox.md), and
    a test worker that grew past 240 MB made it read so."""
    script = SCRIPTS / "alloc_200mb_then_wait.py"
    done = subprocess.run(
        [sys.executable, "-c", KILLED_AT_LIMIT, mode.value, isolation.value, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=PROJECT,
    )
    assert done.returncode == 0, done.stderr
    stdout, limit_hit, peak = json.loads(done.stdout)
    assert stdout == "held\n" and limit_hit is not None, done.stdout
    assert peak is not None
    assert 0.8 * HELD <= peak <= 1.2 * HELD, peak / (1 << 20)


KILLED_AT_LIMIT = """
import json, sys
from grader.sandbox import Limits, Sandbox, SandboxMode
from grader.sandbox.types import Isolation
box = Sandbox.create(SandboxMode(sys.argv[1]), isolation=Isolation(sys.argv[2]))
run = box.run([sys.executable, sys.argv[3]], stdin=b"", limits=Limits(time_s=0.6))
print(json.dumps([run.stdout.decode(), run.limit_hit, run.peak_bytes]))
box.close()
"""


# --- ~200 MiB, in every report, in each environment (slow) ---


def _figures(report: dict[str, object]) -> dict[str, float]:
    """The first case's peak memory in MB as each report shows it."""
    feedback = feedback_from_dict(report)
    case = feedback.cases[0]
    assert case.verdict is Verdict.PASSED, case.message
    shown = {"json": float(report["cases"][0]["peak_memory_mb"])}  # type: ignore[index]
    junit = ET.fromstring(render("junit", feedback))
    prop = junit.find(f"properties/property[@name='peak_memory {case.name}']")
    assert prop is not None
    shown["junit"] = _mb(prop.get("value", ""))
    html = render("html", feedback)
    shown["html"] = _mb(re.findall(r'class="memory"[^>]*>([^<]*)<', html)[0])
    plain = render("plain", feedback)
    shown["text"] = _mb(re.findall(r"slowest: .*peak memory (.*)", plain)[0])
    share = report["cases"][0]["memory_share"]  # type: ignore[index]
    assert share == pytest.approx(shown["json"] / 512, abs=0.01)
    return shown


def _mb(text: str) -> float:
    found = re.match(r"([\d.]+) MB \((\d+)% of 512 MB\)", text)
    assert found, text
    assert int(found.group(2)) == pytest.approx(float(found.group(1)) / 512 * 100, abs=1)
    return float(found.group(1))


def _within(shown: dict[str, float]) -> None:
    mb = HELD / (1 << 20)
    for where, figure in shown.items():
        assert 0.8 * mb <= figure <= 1.2 * mb, (where, figure)


def _check(
    python: str, script: Path, env: dict[str, str], *extra: str, user: int | None = None
) -> dict[str, float]:
    command = [python, "-m", "grader", "check", "add", str(script), "-k", "01-sample"]
    result = subprocess.run(
        [*command, "--format", "json", *extra],
        capture_output=True,
        text=True,
        env={"PATH": os.defpath, "GRADE_ROOT": str(COURSE), **env},
        cwd="/",
        user=user,
        group=None if user is None else _ids()[1],
        extra_groups=None if user is None else [],
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return _figures(json.loads(result.stdout))


@pytest.mark.slow
@pytest.mark.parametrize("isolation", ["fork", "fresh"])
def test_200_mb_as_root_or_this_user(isolation: str) -> None:
    env = {"PYTHONPATH": str(PROJECT), "TMPDIR": tempfile.gettempdir()}
    shown = _check(sys.executable, SCRIPTS / "alloc_200mb.py", env, "--isolation", isolation)
    _within(shown)


@pytest.mark.slow
@pytest.mark.parametrize("script", ["alloc_200mb.py", "alloc_200mb_in_child.py"])
def test_200_mb_on_the_portable_runner(script: str) -> None:
    """The child's 200 MiB too: the first process's rusage counts what it waited for."""
    env = {"PYTHONPATH": str(PROJECT), portable.PORTABLE_ENV: "1"}
    _within(_check(sys.executable, SCRIPTS / script, env))


def _ids() -> tuple[int, int]:
    import pwd

    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
            capture_output=True,
        )
        entry = pwd.getpwnam(USER)
    return entry.pw_uid, entry.pw_gid


@pytest.fixture
def user_folder() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="grade-peak-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
def test_200_mb_as_an_ordinary_user(user_folder: Path) -> None:
    """The grader as an ordinary user (no uid layer, no cgroup): what wait4 says, through the
    run's init (its PID namespace) and the fork server."""
    if os.geteuid() != 0:
        pytest.skip("this user is the ordinary one: test_200_mb_as_root_or_this_user ran")
    python = shutil.which("python3", path="/usr/bin:/bin")
    site = sysconfig.get_paths()["purelib"]  # this venv's click, rich, yaml
    if python is None or shutil.which("useradd") is None:
        pytest.skip("no system python3 or useradd here")
    same = subprocess.run(
        [python, "-c", "import sys; print(sys.version_info[:2])"], text=True, capture_output=True
    ).stdout.strip() == str(sys.version_info[:2])
    if not (same and others_can_read(python) and others_can_read(site)):
        pytest.skip("no interpreter of this version that an ordinary user can run")
    script = user_folder / "alloc_200mb.py"
    shutil.copy(SCRIPTS / "alloc_200mb.py", script)
    script.chmod(0o644)
    (user_folder / "tmp").mkdir()
    os.chown(user_folder / "tmp", *_ids())
    env = {
        "PYTHONPATH": f"{PROJECT}:{site}",
        "HOME": "/",
        "TMPDIR": str(user_folder / "tmp"),
    }
    for isolation in ("fork", "fresh"):
        _within(_check(python, script, env, "--isolation", isolation, user=_ids()[0]))


def _case(name: str, time_s: float, mb: float | None, shown: bool = True) -> CaseFeedback:
    return CaseFeedback(
        name=name,
        title=name,
        verdict=Verdict.PASSED,
        message="",
        time_s=time_s if shown else 0.0,
        exit_code=0,
        points=1.0,
        max_points=1.0,
        visibility=Visibility.VISIBLE if shown else Visibility.HIDDEN,
        peak_bytes=None if mb is None or not shown else int(mb * (1 << 20)),
        memory_mb=512,
    )


@pytest.mark.parametrize(
    ("cases", "line"),
    [
        ([], ""),
        ([_case("a", 0.1, None)], ""),  # nothing measured: no line
        (
            [_case("a", 0.1, 10), _case("b", 0.3, 256)],
            "slowest: b 0.30 s, peak memory 256 MB (50% of 512 MB)\n",
        ),
        (
            [_case("a", 0.1, 300), _case("b", 0.3, 256)],
            "slowest: b 0.30 s, peak memory 256 MB (50% of 512 MB); "
            "most memory: a 300 MB (59% of 512 MB)\n",
        ),
        (
            [_case("a", 0.1, 210), _case("b", 0.3, 209)],
            "slowest: b 0.30 s, peak memory 209 MB (41% of 512 MB)\n",
        ),
        # a hidden case shows neither time nor memory: never the slowest, nor the most
        (
            [_case("h", 9.0, 500, shown=False), _case("b", 0.3, 20)],
            "slowest: b 0.30 s, peak memory 20 MB (4% of 512 MB)\n",
        ),
    ],
)
def test_the_slowest_case_line(cases: list[CaseFeedback], line: str) -> None:
    assert slowest_line(tuple(cases)) == line


@pytest.mark.parametrize("memory_mb", [64, 512, 1000])
def test_a_gradebook_reads_back_the_memory_it_wrote(memory_mb: int) -> None:
    """The JSON keeps a peak to a tenth of a MB; a share computed from the exact bytes read
    back from that tenth otherwise (0.021 written, 0.02 read): the typed round trip of a
    batch's gradebook differed in 1 of ~3 runs (CI dry run of 2f5d25e and later)."""
    # every tenth of a MB and between, to 48 MB: the share written from the exact bytes differs
    # from the one read back at 65 of these peaks for 512 MB and 1000 MB, 510 for 64 MB
    for peak in range(1 << 20, 48 << 20, 37_117):
        case = replace(_case("a", 0.1, 0), peak_bytes=peak, memory_mb=memory_mb)
        written = to_dict(Feedback("add", "a.py", (case,), started_at="2026-12-07T00:00:00"))
        again = feedback_from_dict(json.loads(json.dumps(written))).cases[0]
        assert (again.peak_mb, again.memory_share) == (case.peak_mb, case.memory_share), peak
