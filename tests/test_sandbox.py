"""Real attacks (tests/attacks/) through the real sandbox: each must fail, with a sensible verdict.

Where it is safe, the same attack also runs with ``--sandbox off`` and must succeed there: that
proves the attack is real and that it is the sandbox, not a typo in the attack, that stops it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ONE_QUANTIZE_CASE, SCRIPTS, TESTS

from grader.judging.errors import InternalError
from grader.judging.records import Verdict
from grader.model.resources import Root
from grader.model.spec import Exercise
from grader.running.grading import grade
from grader.running.plan import Plan, hidden_from_runs, prepare
from grader.sandbox import Layer, Limits, Sandbox, SandboxMode, SandboxUnavailable, cgroups
from grader.sandbox.allowed import others_can_read

ATTACKS = TESTS / "attacks"
PROJECT = TESTS.parent


@pytest.fixture(scope="module")
def strict(root: Root) -> Sandbox:
    try:
        return Sandbox.create(SandboxMode.STRICT, hide=hidden_from_runs(root))
    except SandboxUnavailable as exc:
        pytest.skip(str(exc))


def sample_plan(quantize: Exercise, sandbox: Sandbox) -> Plan:
    return prepare(quantize, cases_dir=ONE_QUANTIZE_CASE, sandbox=sandbox)


@pytest.fixture(scope="module")
def off() -> Sandbox:
    return Sandbox.create(SandboxMode.OFF)


def attack(sandbox: Sandbox, name: str | Path, payload: object = None) -> list[str]:
    stdin = json.dumps(payload).encode() if payload is not None else b""
    result = sandbox.run([sys.executable, str(ATTACKS / name)], stdin=stdin, limits=Limits())
    return result.stdout.decode().splitlines()


def succeeded(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("OK")]


def leaked(lines: list[str]) -> list[str]:
    """What read_secrets.py got that it must not: in its own PID namespace its parent is its own
    init (pid 1), whose command line is public and names only the interpreter and _child.py."""
    return [line for line in succeeded(lines) if line.split()[1] != "/proc/1/cmdline"]


def secret_files(root: Root) -> list[str]:
    return [
        str(root.cases / "quantize" / "secret" / "10-large.out"),
        str(root.material / "quantize" / "solution.py"),
    ]


def test_strict_applies_every_layer_but_uid_where_python_is_private(strict: Sandbox) -> None:
    assert strict.layers >= {Layer.NAMESPACES, Layer.MOUNTS, Layer.LANDLOCK, Layer.SECCOMP}
    assert set(strict.missing) <= {Layer.UID}


def test_cannot_read_answers_or_other_processes(
    strict: Sandbox, off: Sandbox, root: Root, reference_dir: Path
) -> None:
    payload = {"files": secret_files(root), "grader": os.getpid()}
    lines = attack(strict, "read_secrets.py", payload)
    assert len(lines) == 10 and leaked(lines) == []
    assert len(succeeded(attack(off, "read_secrets.py", payload))) >= 3  # the answers, /proc


def test_cannot_even_stat_hidden_answers(
    strict: Sandbox, off: Sandbox, root: Root, reference_dir: Path
) -> None:
    payload = {"files": secret_files(root)}
    assert succeeded(attack(strict, "stat_hidden.py", payload)) == []
    assert len(succeeded(attack(off, "stat_hidden.py", payload))) == 4


def test_hidden_cases_folder_is_hidden_too(
    tmp_path: Path, quantize: Exercise, sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The library's own plan hides a --cases folder, given relative or absolute, from stat()."""
    hidden = tmp_path / "hidden-cases"
    hidden.mkdir()
    shutil.copy(ONE_QUANTIZE_CASE / "01-sample-outlier.in", hidden / "a.in")
    (hidden / "a.out").write_text("secret")
    monkeypatch.chdir(tmp_path)
    plan = prepare(quantize, cases_dir=Path("hidden-cases"), sandbox=sandbox)
    assert plan.sandbox is not None
    payload = {"files": [str(hidden / "a.out")]}
    assert succeeded(attack(plan.sandbox, "stat_hidden.py", payload)) == []
    assert leaked(attack(plan.sandbox, "read_secrets.py", payload)) == []
    assert len(succeeded(attack(Sandbox.create(SandboxMode.OFF), "stat_hidden.py", payload))) == 2


def _writable_targets() -> list[str]:
    import sysconfig

    return ["/tmp", "/dev/shm", sysconfig.get_paths()["purelib"], str(ATTACKS)]


def test_cannot_write_outside_the_work_dir(strict: Sandbox) -> None:
    name = f"zz-grade-attack-{uuid.uuid4().hex}.pth"
    lines = attack(strict, "write_outside.py", {"dirs": _writable_targets(), "name": name})
    assert succeeded(lines) == []
    assert "WORKDIR writable" in lines
    for folder in _writable_targets():
        assert not os.path.exists(os.path.join(folder, name))


def test_control_writes_land_without_the_sandbox(off: Sandbox) -> None:
    name = f"zz-grade-attack-{uuid.uuid4().hex}.txt"  # not .pth: it must not run anywhere
    targets = [t for t in _writable_targets() if os.access(t, os.W_OK)]
    try:
        lines = attack(off, "write_outside.py", {"dirs": targets, "name": name})
        assert len(succeeded(lines)) == len(targets)
    finally:
        for folder in targets:
            Path(folder, name).unlink(missing_ok=True)


@pytest.fixture
def listeners() -> Iterator[dict[str, object]]:
    """A TCP, a UDP, an abstract and a path unix socket, listening, where the sandbox could see."""
    token = uuid.uuid4().hex
    folder = Path(tempfile.mkdtemp(dir="/var/tmp" if os.path.isdir("/var/tmp") else None))
    tcp = socket.create_server(("127.0.0.1", 0))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0grade-test-" + token)
    abstract.listen()
    path = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path.bind(str(folder / "sock"))
    path.listen()
    os.chmod(folder, 0o755)
    os.chmod(folder / "sock", 0o777)
    sockets = [tcp, udp, abstract, path]
    for s in sockets:
        s.setblocking(False)
    try:
        yield {
            "payload": {
                "tcp": tcp.getsockname()[1],
                "udp": udp.getsockname()[1],
                "abstract": "grade-test-" + token,
                "path": str(folder / "sock"),
            },
            "sockets": sockets,
        }
    finally:
        for s in sockets:
            s.close()
        shutil.rmtree(folder)


def _received(sockets: list[socket.socket]) -> int:
    count = 0
    for s in sockets:
        try:
            if s.type == socket.SOCK_DGRAM:
                s.recv(16)
            else:
                s.accept()[0].close()
            count += 1
        except BlockingIOError:
            pass
    return count


def test_no_network_of_any_kind(strict: Sandbox, off: Sandbox, listeners: dict[str, Any]) -> None:
    lines = attack(strict, "network.py", listeners["payload"])
    assert len(lines) == 4 and succeeded(lines) == []
    assert _received(listeners["sockets"]) == 0
    control = attack(off, "network.py", listeners["payload"])
    assert len(succeeded(control)) == 4
    assert _received(listeners["sockets"]) == 4


def test_no_new_processes(strict: Sandbox, off: Sandbox) -> None:
    lines = attack(strict, "processes.py")
    assert len(lines) == 8 and succeeded(lines) == []
    assert len(succeeded(attack(off, "processes.py"))) == 7  # all but the exec that ends it


def test_a_run_cannot_leave_its_control_group(strict: Sandbox, off: Sandbox) -> None:
    lines = attack(strict, "leave_cgroup.py")
    assert succeeded(lines) == [] and len(lines) == 4, lines
    assert int(lines[-1].split()[1]) < 64  # and its threads stay capped
    if os.geteuid() == 0:  # the control: a process of root's, unsandboxed, moves where it likes
        assert succeeded(attack(off, "leave_cgroup.py")), "the attack is no attack"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie waiting for its reaper is gone too
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_double_forked_daemon_does_not_outlive_the_case(strict: Sandbox) -> None:
    assert attack(strict, "daemon.py") == ["BLOCKED PermissionError"]
    # run by hand, with no grader to sweep after it, the daemon escapes (it keeps the pipe
    # open: read its line, not to the end)
    with subprocess.Popen(
        [sys.executable, str(ATTACKS / "daemon.py")], stdout=subprocess.PIPE, text=True
    ) as by_hand:
        assert by_hand.stdout is not None
        control = by_hand.stdout.readline().strip()
        by_hand.wait(timeout=60)
    pid = int(control.split()[-1])
    try:
        assert control.startswith("OK forked") and _alive(pid)
    finally:
        os.kill(pid, 9)


@pytest.mark.skipif(
    cgroups.parent() is None, reason="a cgroup per run needs root and the pids controller"
)
@pytest.mark.parametrize("isolation", ["fork", "fresh"])
def test_a_daemon_dies_with_its_case_where_no_pid_namespace_ends_it(isolation: str) -> None:
    # Root where user namespaces are refused (Docker's seccomp profile), this Python private
    # (no uid of its own per run) and no syscall filter (an architecture without a table; the
    # filter refuses setsid): only the run's control group knows the daemon.
    code = (
        "import dataclasses, os, sys\n"
        "from grader.sandbox import Isolation, Layer, Limits, Sandbox, SandboxMode\n"
        f"s = Sandbox.create(SandboxMode.AUTO, isolation=Isolation({isolation!r}))\n"
        "assert 'namespaces' not in s.layers and 'uid' not in s.layers, s.layers\n"
        "s = dataclasses.replace(s, layers=s.layers - {Layer.SECCOMP})\n"
        f"r = s.run([sys.executable, {str(ATTACKS / 'daemon.py')!r}], stdin=b'',"
        " limits=Limits())\n"
        "pid = int(r.stdout.split()[-1])\n"
        "with open(f'/proc/{pid}/stat') as f:\n"
        "    state = f.read().rsplit(')', 1)[1].split()[0]\n"
        "print(pid, state)\n"
    )
    launcher = TESTS / "launchers" / "no_userns.py"
    private = sys.executable if not others_can_read(sys.executable) else None
    if private is None:
        pytest.skip("this Python is readable by others: runs get a uid of their own")
    result = subprocess.run(
        [sys.executable, str(launcher), sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=60,
    )
    assert result.returncode in (0, 1), result.stderr
    if result.returncode == 1 and "No such file or directory: '/proc/" in result.stderr:
        return  # gone and reaped already
    pid, state = result.stdout.split()
    try:
        assert state == "Z", f"the daemon {pid} outlived its case"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), 9)


@pytest.mark.slow
@pytest.mark.parametrize("isolation", ["fork", "fresh"])
def test_a_timed_out_run_leaves_no_zombie_where_pid_1_never_reaps(isolation: str) -> None:
    # The grader as PID 1 of a container (`docker run img grade batch ...`) reaps nobody: a
    # run's init orphaned by a kill would stay a zombie, counted by its group's task limit,
    # until correct submissions failed to start.
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs unshare(1) as root to be PID 1 of a new namespace")
    code = (
        "import os, sys\n"
        "from grader.sandbox import Isolation, Limits, Sandbox\n"
        f"s = Sandbox.create(isolation=Isolation({isolation!r}))\n"
        "if 'namespaces' not in s.layers: print('skip'); sys.exit()\n"
        "for _ in range(3):\n"
        f"    r = s.run([sys.executable, {str(SCRIPTS / 'cpu_loop.py')!r}], stdin=b'',"
        " limits=Limits(time_s=0.3))\n"
        "    assert r.limit_hit is not None, r\n"
        "zombies = []\n"
        "for pid in filter(str.isdigit, os.listdir('/proc')):\n"
        "    with open(f'/proc/{pid}/stat') as f:\n"
        "        if f.read().rsplit(')', 1)[1].split()[0] == 'Z': zombies.append(pid)\n"
        "print(len(zombies))\n"
    )
    done = subprocess.run(
        ["unshare", "--fork", "--pid", "--mount-proc", sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    if done.stdout.strip() == "skip":
        pytest.skip("no user namespaces here: no init of the run's own")
    assert done.stdout.strip() == "0", "zombies left: " + done.stdout


def test_groups_a_killed_grader_left_are_removed_and_no_other() -> None:
    where = cgroups.parent()
    if where is None:
        pytest.skip("no control groups here (root and the pids controller)")
    name = f"grade-test-{uuid.uuid4().hex[:8]}"
    stale, young, busy = (os.path.join(where, f"{name}-{kind}") for kind in ("a", "b", "c"))
    for folder in (stale, young, busy):
        os.mkdir(folder)
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        with open(os.path.join(busy, "cgroup.procs"), "w") as f:
            f.write(str(sleeper.pid))
        for folder in (stale, busy):
            os.utime(folder, (0, 0))  # made long ago
        cgroups.remove_stale(where)
        assert not os.path.exists(stale)
        assert os.path.isdir(young)  # a run's group is empty only for its first milliseconds
        assert os.path.isdir(busy)  # a group in use is never removed
    finally:
        sleeper.kill()
        sleeper.wait()
        for folder in (stale, young, busy):
            with contextlib.suppress(OSError):
                os.rmdir(folder)


def test_killing_or_tracing_the_grader_fails(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from grader.sandbox import Limits, Sandbox, SandboxMode\n"
        "s = Sandbox.create(SandboxMode.AUTO)\n"
        f"r = s.run([sys.executable, {str(ATTACKS / 'kill_parent.py')!r}], stdin=b'',"
        " limits=Limits())\n"
        "sys.stdout.write(r.stdout.decode())\n"
        "print('GRADER ALIVE')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, timeout=60
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "GRADER ALIVE"
    # the attack ran to its end: one line per attempt, every one blocked
    assert [line.split()[:2] for line in lines[:-1]] == [["BLOCKED", "ptrace"]] + [
        ["BLOCKED", "kill"]
    ] * 2 + [["BLOCKED", "killpg"]]


def test_grader_memory_stays_bounded_under_a_gigabyte_flood() -> None:
    code = (
        "import resource, sys\n"
        "from grader.sandbox import LimitHit, Limits, Sandbox, SandboxMode\n"
        "s = Sandbox.create(SandboxMode.AUTO)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        f"for name in ('flood_stdout.py', 'flood_stderr.py'):\n"
        f"    r = s.run([sys.executable, {str(SCRIPTS)!r} + '/' + name], stdin=b'',"
        " limits=Limits(time_s=60))\n"
        "    assert r.limit_hit is LimitHit.OUTPUT, r.limit_hit\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) < 32 * 1024  # KB: the 1 GB went nowhere near the grader's memory


@pytest.mark.parametrize(  # every case, the maximum size's included, in the slow pass
    "every", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["public", "every"]
)
def test_correct_numpy_solution_passes_every_case_under_strict(
    quantize: Exercise, strict: Sandbox, every: bool
) -> None:
    plan = prepare(quantize, sandbox=strict)
    if not every:
        plan = dataclasses.replace(plan, cases=tuple(c for c in plan.cases if not c.secret))
    report = grade(plan, SCRIPTS / "quantize_student.py")
    assert [c.message for c in report.outcomes if not c.passed] == []


def test_tracebacks_show_only_the_submission(quantize: Exercise, strict: Sandbox) -> None:
    report = grade(sample_plan(quantize, strict), SCRIPTS / "crash_after_output.py")
    stderr = report.outcomes[0].stderr
    assert report.outcomes[0].verdict is Verdict.RUNTIME_ERROR
    assert stderr.startswith("Traceback (most recent call last):\n  File ")
    assert "crash_after_output.py" in stderr and "runpy" not in stderr and "_child" not in stderr


def test_syntax_error_reads_like_python(
    quantize: Exercise, strict: Sandbox, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("print('hi'\n")
    report = grade(sample_plan(quantize, strict), broken)
    assert report.outcomes[0].verdict is Verdict.RUNTIME_ERROR
    assert report.outcomes[0].message == "does not compile: line 1: '(' was never closed"
    # what Python itself prints, caret included; no case ran
    assert report.compile_error.endswith(
        "    print('hi'\n         ^\nSyntaxError: '(' was never closed\n"
    )
    assert report.outcomes[0].time_s == 0.0


def test_off_mode_warns_loudly() -> None:
    notice = Sandbox.create(SandboxMode.OFF).notice()
    assert notice is not None and "trusted code" in notice


def test_a_sandbox_that_cannot_start_is_a_grader_error(quantize: Exercise) -> None:
    # Mounts without their own mount namespace are refused (they would cover the host's /tmp).
    broken = Sandbox(SandboxMode.AUTO, frozenset({Layer.MOUNTS}), {})
    report = grade(sample_plan(quantize, broken), SCRIPTS / "quantize_student.py")
    assert report.outcomes[0].verdict is Verdict.GRADER_ERROR
    assert "mounts need the namespaces layer" in report.outcomes[0].message
    assert report.exit_code == 4


def test_strict_refuses_a_machine_missing_a_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("grader.sandbox.sandbox._PROBED", {})  # no earlier probe
    monkeypatch.setattr(
        Sandbox,
        "_probe",
        lambda self: {
            "namespaces": "ok",
            "mounts": "ok",
            "landlock": "OSError: no Landlock",
            "seccomp": "ok",
        },
    )
    with pytest.raises(SandboxUnavailable, match="lacks landlock: OSError: no Landlock"):
        Sandbox.create(SandboxMode.STRICT)
    auto = Sandbox.create(SandboxMode.AUTO)
    assert Layer.LANDLOCK not in auto.layers
    assert (auto.notice() or "") == (
        "isolation is reduced on this machine: runs may read and write what the grader's user "
        "may, because landlock: OSError: no Landlock; to fix: a Linux kernel of 5.13 or later "
        "with Landlock enabled (lsm=...,landlock)"
    )


def test_other_systems_degrade_to_limits_without_probing(
    monkeypatch: pytest.MonkeyPatch, quantize: Exercise
) -> None:
    """Elsewhere than Linux, runs go through the portable runner (tests/test_portable.py):
    no probe of Linux-only layers, one line saying what holds, strict refused."""
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr("grader.sandbox.treewatch.default_look", lambda: None)  # no psutil
    monkeypatch.setattr("grader.sandbox.sandbox._PROBED", {})  # no earlier probe
    monkeypatch.setattr(Sandbox, "_probe", lambda self: pytest.fail("probed on darwin"))
    auto = Sandbox.create(SandboxMode.AUTO)
    assert auto.portable and not auto.layers
    assert (auto.notice() or "").startswith("on macOS, runs are limited in time and output")
    with pytest.raises(SandboxUnavailable, match="on macOS runs cannot be isolated"):
        Sandbox.create(SandboxMode.STRICT)
    report = grade(sample_plan(quantize, auto), SCRIPTS / "quantize_student.py")
    assert report.passed == report.total == 1


def test_packages_in_the_user_site_stay_importable(
    strict: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pip install --user puts a student's numpy there; the child runs with -I and its own HOME
    user_site = tmp_path / "user-site"
    user_site.mkdir()
    (user_site / "grade_user_module.py").write_text("ANSWER = 42\n")
    import site

    monkeypatch.setattr(site, "ENABLE_USER_SITE", True)
    monkeypatch.setattr(site, "getusersitepackages", lambda: str(user_site))
    script = tmp_path / "uses_it.py"
    script.write_text("import grade_user_module\nprint(grade_user_module.ANSWER)\n")
    result = strict.run([sys.executable, str(script)], stdin=b"", limits=Limits())
    assert result.stdout == b"42\n", result.stderr


def test_inherited_descriptors_never_reach_a_run(strict: Sandbox, tmp_path: Path) -> None:
    """Red team: a descriptor the grader inherited (a CI runner's open file) was passed on."""
    secret = tmp_path / "answer.out"
    secret.write_text("the answer")
    fd = os.open(secret, os.O_RDONLY)
    os.set_inheritable(fd, True)
    try:
        bare = subprocess.run(  # the control: an ordinary child gets it
            [sys.executable, str(ATTACKS / "inherited_fds.py")],
            capture_output=True,
            text=True,
            close_fds=False,
        ).stdout
        assert f"OK fd {fd} b'the answer'" in bare
        assert attack(strict, "inherited_fds.py") == ["done"]
    finally:
        os.close(fd)


def test_the_runs_own_init_cannot_be_taken_over(strict: Sandbox) -> None:
    lines = attack(strict, "own_init.py")
    assert len(lines) == 5 and succeeded(lines) == [], lines


def test_a_script_swapped_for_a_link_is_not_followed(strict: Sandbox, tmp_path: Path) -> None:
    """Red team, round 2: a batch checks a submission once, when it lists the class; a student
    with a process on the grading machine then swapped the file for a link to a root-only one,
    which each run's copy followed (graded as theirs)."""
    private = tmp_path / "private.py"
    private.write_text("print('not yours')\n")
    private.chmod(0o600)
    link = tmp_path / "quantize.py"
    link.symlink_to(private)
    with pytest.raises(InternalError, match="symbolic link"):
        strict.run([sys.executable, str(link)], stdin=b"", limits=Limits())


def test_a_runs_files_are_its_own_and_the_graders(tmp_path: Path) -> None:
    """Red team: each run's folder is reachable by anyone (0711) and its name shows in /tmp;
    its stdin (a hidden case's input) and the submission's copy were 0644: another user of
    the machine read them while runs were going."""
    from grader.sandbox.sandbox import _lay_out

    base = tmp_path / "run"
    base.mkdir()
    source = _lay_out(base, "/nowhere/s.py", b"10 20 30\n", {}, None, b"print(1)\n")
    assert (base / "stdin").stat().st_mode & 0o777 == 0o600
    assert source.stat().st_mode & 0o777 == 0o400
    if os.geteuid() == 0:  # the run's own uid reads its copy, nobody else
        other = tmp_path / "other"
        other.mkdir()
        copy = _lay_out(other, "/nowhere/s.py", b"", {}, 65000, b"print(1)\n")
        assert (copy.stat().st_uid, copy.stat().st_mode & 0o777) == (65000, 0o400)


def test_a_run_started_as_ctrl_c_cancels_is_ended_at_once() -> None:
    """Ctrl-C between a run's check for it and its child's start: the child, killed as soon as
    it is known, has not called setsid() yet and leads no process group. Its group alone was
    killed, which missed it: the run went on to its time limit, and Ctrl-C waited for it."""
    from grader.sandbox.process import Running

    running = Running()
    running.cancel()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # our group
    try:
        running.add(child.pid)
        assert child.wait(timeout=10) == -9  # SIGKILL
    finally:
        child.kill()
        child.wait()


def test_ctrl_c_after_a_run_is_reaped_kills_nothing_of_its_pid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reaped run's pid is free for the system to give to any process; Ctrl-C landing between
    the reap and the run's removal from Running killed that pid (and its group): another
    program of the user's, or, with two suites side by side, the other suite's test worker."""
    from grader.sandbox import process

    running = process.Running()
    reaped: list[int] = []
    killed: list[tuple[str, int]] = []
    real_wait4 = os.wait4

    def wait4_then_ctrl_c(pid: int, options: int) -> tuple[int, int, Any]:
        done = real_wait4(pid, options)
        reaped.append(pid)
        running.cancel()  # the user's Ctrl-C, at the worst moment
        return done

    def kill(pid: int, sig: int) -> None:
        if reaped:
            killed.append(("kill", pid))

    def killpg(pgid: int, sig: int) -> None:
        if reaped:
            killed.append(("killpg", pgid))

    for name, body in ("stdin", b""), ("config", b"{}"):
        (tmp_path / name).write_bytes(body)
    monkeypatch.setattr(os, "wait4", wait4_then_ctrl_c)  # the module the grader calls
    monkeypatch.setattr(os, "kill", kill)
    monkeypatch.setattr(os, "killpg", killpg)
    process.spawn_and_wait(
        [sys.executable, "-c", "pass"],
        env={},
        stdin=tmp_path / "stdin",
        stdout=tmp_path / "out",
        stderr=tmp_path / "err",
        config=tmp_path / "config",
        timeout_s=10,
        running=running,
    )
    assert reaped and killed == []
