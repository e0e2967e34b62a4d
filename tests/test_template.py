"""A fork server's namespace template (grader/sandbox/template.py): the runs of one server share
its user, network, IPC and UTS namespaces and the read-only part of its root, made once; each
run has its own PID namespace, mount namespace, work dir and /proc. Each claim that sharing is
safe is held here by two runs in a row on one server: the first tries to leave something
behind, the second finds nothing."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_sandbox_findings import ENVIRONMENTS, _start

from grader.sandbox import Isolation, Layer, Limits, Sandbox, SandboxMode, cgroups
from grader.sandbox.forkserver import ForkServers

TESTS = Path(__file__).parent
TEMPLATE = TESTS.parent / "grader" / "sandbox" / "template.py"

# What a run sees of what it shares with the next one (and of the ones it has of its own)
SEEN = """
import json, os, socket
def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as exc:
        return type(exc).__name__
def ns(name):
    return os.stat(f"/proc/self/ns/{name}").st_ino
seen = {name: ns(name) for name in ("user", "net", "ipc", "uts", "mnt")}
seen["pid"] = os.getpid()
seen.update({path: read(path) for path in (
    "/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem", "/proc/net/unix",
    "/proc/net/tcp", "/proc/net/udp", "/proc/sys/kernel/hostname",
    "/proc/sys/kernel/domainname")})
seen["left"] = [os.path.exists(p) for p in ("/left", "/dev/left", "/tmp/left")]
"""

# What a run tries to leave behind for the next: each attempt's outcome
LEAVE = """
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
tried = {}
def attempt(name, action):
    try:
        result = action()
        tried[name] = f"done: {result}"
    except OSError as exc:
        tried[name] = errno.errorcode.get(exc.errno, str(exc.errno))
def call(result):
    if result == -1:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return result
IPC_CREAT, IPC_PRIVATE = 0o1000, 0
attempt("tcp listen", lambda: socket.socket().bind(("127.0.0.1", 4242)))
attempt("udp", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
attempt("abstract unix", lambda: socket.socket(socket.AF_UNIX).bind(b"\\0grade-left"))
attempt("unix socketpair", lambda: socket.socketpair())
attempt("shmget", lambda: call(libc.shmget(0x4242, 4096, IPC_CREAT | 0o666)))
attempt("msgget", lambda: call(libc.msgget(0x4242, IPC_CREAT | 0o666)))
attempt("semget", lambda: call(libc.semget(0x4242, 1, IPC_CREAT | 0o666)))
attempt("mq_open", lambda: call(libc.mq_open(b"/grade-left", 0o100 | 2, 0o600, None)))
attempt("sethostname", lambda: socket.sethostname("left-by-a-run"))
attempt("setdomainname", lambda: call(libc.setdomainname(b"left", 4)))
attempt("file in the root", lambda: open("/left", "x"))
attempt("file in /dev", lambda: open("/dev/left", "x"))
attempt("file in /tmp", lambda: open("/tmp/left", "x"))
"""


@pytest.fixture
def box() -> Iterator[Sandbox]:
    """A sandbox with one server of its own: every run goes through the same server."""
    made = Sandbox.create(SandboxMode.AUTO).preloading(["numpy"])
    if made.isolation is not Isolation.FORK:
        pytest.skip(f"runs are not forked here: {made.fresh_because}")
    if not {Layer.NAMESPACES, Layer.MOUNTS} <= made.layers or Layer.UID in made.layers:
        pytest.skip("the template is for runs in namespaces without a uid of their own")
    made = replace(made, _servers=ForkServers())
    made.warm(1)
    yield made
    made.close()


def _shared(seen: dict[str, Any]) -> dict[str, Any]:
    """What a run saw of what it may share with the next (its mount namespace is its own)."""
    return {name: value for name, value in seen.items() if name != "mnt"}


def _holders(box: Sandbox) -> list[int]:
    """The server's children that are not runs: its template's holder."""
    (server,) = box._servers._all
    return _children_of(server.pid)


def _children_of(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(child) for child in f.read().split()]
    return found


def _run(box: Sandbox, path: Path, text: str) -> dict[str, object]:
    path.write_text(text)
    done = box.run([sys.executable, str(path)], stdin=b"", limits=Limits())
    assert done.exit_code == 0, done.stderr.decode()
    facts: dict[str, object] = json.loads(done.stdout)
    return facts


def test_a_run_leaves_nothing_in_what_it_shares_with_the_next(box: Sandbox, tmp_path: Path) -> None:
    before = _run(box, tmp_path / "before.py", SEEN + "print(json.dumps(seen))")
    tried = _run(box, tmp_path / "leave.py", SEEN + LEAVE + "print(json.dumps(tried))")
    after = _run(box, tmp_path / "after.py", SEEN + "print(json.dumps(seen))")
    # one template: the holder's user, network, IPC and UTS namespaces (alive all along, so
    # no namespace number was reused); a PID namespace of each run's own
    (holder,) = _holders(box)
    for name in ("user", "net", "ipc", "uts"):
        assert before[name] == after[name] == os.stat(f"/proc/{holder}/ns/{name}").st_ino, name
    assert before["mnt"] != os.stat(f"/proc/{holder}/ns/mnt").st_ino
    assert before["pid"] == after["pid"] == 2
    # every way to leave something there is refused (seccomp: EPERM by name, ENOSYS unlisted;
    # a read-only root; no /tmp at all)
    assert tried == {
        "tcp listen": "EPERM",
        "udp": "EPERM",
        "abstract unix": "EPERM",
        "unix socketpair": "EPERM",
        "shmget": "ENOSYS",
        "msgget": "ENOSYS",
        "semget": "ENOSYS",
        "mq_open": "ENOSYS",
        "sethostname": "ENOSYS",
        "setdomainname": "ENOSYS",
        "file in the root": "EROFS",
        "file in /dev": "EROFS",
        "file in /tmp": "EROFS",
    }
    assert _shared(before) == _shared(after)  # and the next run finds nothing of it
    assert after["left"] == [False, False, False]


def test_as_root_the_servers_child_is_the_runs_init(
    box: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Born in its namespaces: the server forks pid 1 of the run's PID namespace itself (no P
    between them), and its end still reads as the submission's (a signal it sent itself)."""
    if os.geteuid() != 0:
        pytest.skip("an ordinary user's server cannot make a PID namespace: P makes it")
    from grader.sandbox import process

    levels: list[list[str]] = []
    real = process._wait_for_run

    def noting(pid: int, start: float, timeout_s: float, pidfd: int | None) -> bool:
        with open(f"/proc/{pid}/status") as f:
            levels.append(next(line for line in f if line.startswith("NSpid:")).split()[1:])
        return real(pid, start, timeout_s, pidfd)

    monkeypatch.setattr(process, "_wait_for_run", noting)
    script = tmp_path / "abort.py"
    script.write_text("import os\nprint('before', flush=True)\nos.abort()\n")
    done = box.run([sys.executable, str(script)], stdin=b"", limits=Limits())
    assert levels == [[levels[0][0], "1"]]  # its pid here, and 1 in its own namespace
    assert (done.signal, done.stdout) == (6, b"before\n")


def test_a_run_finds_nothing_of_the_last_ones_folders(box: Sandbox, tmp_path: Path) -> None:
    """Each run's work dir and submission are mounted on points made in the shared skeleton;
    the next run's set-up removes them first, so it cannot see the last one's names."""
    first = tmp_path / "alice" / "secret-name.py"
    first.parent.mkdir()
    was = _run(box, first, "import json, os; print(json.dumps({'work': os.getcwd()}))")
    look = f"""
import json, os
print(json.dumps({{path: os.path.exists(path) for path in {[str(first), was["work"]]!r}}}))
"""
    seen = _run(box, tmp_path / "look.py", look)
    assert seen == {str(first): False, was["work"]: False}


def test_a_run_without_the_layers_never_joins_a_template(box: Sandbox, tmp_path: Path) -> None:
    """A server keeps its own namespaces: a run of --sandbox off through a server that made
    a template is in the grader's namespaces, as without one."""
    script = tmp_path / "seen.py"
    confined = _run(box, script, SEEN + "print(json.dumps(seen))")
    off = replace(box, mode=SandboxMode.OFF, layers=frozenset())
    free = _run(off, script, SEEN + "print(json.dumps(seen))")
    for name in ("user", "net", "ipc", "uts", "mnt"):  # the grader's, alive all along
        assert free[name] == os.stat(f"/proc/self/ns/{name}").st_ino, name
        assert confined[name] != free[name], name


def test_the_template_folder_goes_with_its_server(box: Sandbox, tmp_path: Path) -> None:
    (server,) = box._servers._all
    _run(box, tmp_path / "one.py", "print('{}')")
    made = [p for p in Path("/tmp").glob(f"grade-template-{server.pid}-*")]
    assert len(made) == 1 and not any(made[0].iterdir())  # empty outside its namespace
    (holder,) = _holders(box)
    if server.group is not None:  # out of the server's group, whose sweep would kill it
        assert cgroups.members(server.group + "-template") == [holder]
    box.close()
    assert not made[0].exists()
    assert server.group is None or not os.path.exists(server.group + "-template")


KILLED = """
import glob, json, sys, tempfile
from pathlib import Path
from grader.sandbox import Limits, Sandbox, SandboxMode
box = Sandbox.create(SandboxMode.AUTO)
script = Path(tempfile.mkdtemp()) / "one.py"
script.write_text("print(1)")
box.run([sys.executable, str(script)], stdin=b"", limits=Limits())
(server,) = box._servers._all
print(json.dumps([server.pid, glob.glob(f"/tmp/grade-template-{server.pid}-*")]), flush=True)
sys.stdin.read()
"""


def test_the_template_goes_when_the_grader_is_killed(box: Sandbox) -> None:
    """SIGKILL of the grader: its server sees its control socket close and ends, with its
    holder (parent-death signal) and the folder."""
    with subprocess.Popen(
        [sys.executable, "-c", KILLED], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as grader:
        assert grader.stdout is not None
        server, folders = json.loads(grader.stdout.readline())
        assert len(folders) == 1 and os.path.isdir(folders[0])
        pidfds = [os.pidfd_open(pid) for pid in [server, *_children_of(server)]]
        try:
            grader.kill()
            grader.wait()
            for fd in pidfds:  # each readable once its process has exited
                assert select.select([fd], [], [], 30)[0], "still alive"
        finally:
            for fd in pidfds:
                os.close(fd)
    assert not os.path.exists(folders[0])


def test_a_killed_servers_template_folder_is_removed_by_the_next(
    box: Sandbox, tmp_path: Path
) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = Path(f"/tmp/grade-template-{dead.pid}-feedface")
    stale.mkdir()
    an_hour_ago = time.time() - 3600  # nothing changed in it since its server was killed
    os.utime(stale, (an_hour_ago, an_hour_ago))
    _run(box, tmp_path / "one.py", "print('{}')")  # this server makes its template
    assert not stale.exists()


EMPTY = "import json\nprint(json.dumps({}))\n"


def _folder(box: Sandbox) -> Path:
    (server,) = box._servers._all
    (folder,) = Path("/tmp").glob(f"grade-template-{server.pid}-*")
    return folder


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="a PID namespace: root"
)
def test_a_grader_in_another_pid_namespace_leaves_a_live_template_alone(
    box: Sandbox, tmp_path: Path
) -> None:
    """A grader whose /proc shows another PID namespace (a container sharing /tmp, a test's
    launcher) finds no process of a live server's pid there: the folder's staleness must not
    be read from /proc, or it is removed under the server and each of its runs fails."""
    assert _run(box, tmp_path / "first.py", EMPTY) == {}
    folder = _folder(box)
    (tmp_path / "other.py").write_text(EMPTY)
    other = f"""
import sys
from dataclasses import replace
from grader.sandbox import Limits, Sandbox, SandboxMode
from grader.sandbox.forkserver import ForkServers
box = replace(Sandbox.create(SandboxMode.AUTO), _servers=ForkServers())
done = box.run([sys.executable, {str(tmp_path / "other.py")!r}], stdin=b"", limits=Limits())
assert done.exit_code == 0, done
box.close()
"""  # its server makes a template of its own, and removes the stale ones first
    elsewhere = ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c", other]
    subprocess.run(elsewhere, check=True, timeout=60)
    assert folder.is_dir()
    assert _run(box, tmp_path / "next.py", EMPTY) == {}


def test_a_server_whose_template_folder_went_makes_it_again(box: Sandbox, tmp_path: Path) -> None:
    """Removed anyway (a /tmp cleaner, an older grader): the mounts at it are gone in every
    namespace, the holder's too; the server's next run makes a new template, not an error."""
    assert _run(box, tmp_path / "first.py", EMPTY) == {}
    (holder,) = _holders(box)
    _folder(box).rmdir()
    assert _run(box, tmp_path / "next.py", EMPTY) == {}
    assert _folder(box).is_dir()
    assert _holders(box) != [holder]


def test_forked_runs_start_with_the_servers_objects_frozen(box: Sandbox, tmp_path: Path) -> None:
    seen = _run(
        box, tmp_path / "gc.py", "import gc, json; print(json.dumps(gc.get_freeze_count()))"
    )
    assert isinstance(seen, int) and seen > 10_000


def test_where_no_template_can_be_made_runs_take_the_old_path(tmp_path: Path) -> None:
    """Where user namespaces are refused (the launcher's seccomp filter), making a template
    fails once, is not tried again for the same allow-list, and no run is given one."""
    code = f"""
import os, sys, types
sys.path.insert(0, {str(TESTS.parent)!r})
from grader.sandbox import _child
from grader.sandbox._protocol import ChildConfig
module = types.ModuleType("_grade_template")
exec(compile(open({str(TEMPLATE)!r}).read(), {str(TEMPLATE)!r}, "exec"), module.__dict__)
templates = module.Templates(_child, "")
fields = dict.fromkeys(ChildConfig.__slots__, ())
fields.update(probe=False, uid=None, layers=("mounts", "namespaces", "seccomp"), read=("/usr",),
              devices=("/dev/null",))
path = {str(tmp_path / "config")!r}
with open(path, "wb") as f:
    f.write(ChildConfig(**fields).to_wire())
fd = os.open(path, os.O_RDONLY)
print(templates.for_run(fd), templates.for_run(fd), len(templates._failed))
"""
    launcher = TESTS / "launchers" / "no_userns.py"
    done = subprocess.run(
        [sys.executable, str(launcher), sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.split() == ["None", "None", "1"], done.stderr


# Two runs in a row on one sandbox's server, in an environment of test_sandbox_findings
TWO_RUNS = f"""
import json, sys, tempfile
from pathlib import Path
from grader.sandbox import Limits, Sandbox, SandboxMode
args = json.loads(sys.argv[1])
box = Sandbox.create(SandboxMode(args["mode"]))
folder = Path(tempfile.mkdtemp())
def run(name, text):
    (folder / name).write_text(text)
    done = box.run([sys.executable, str(folder / name)], stdin=b"", limits=Limits())
    assert done.exit_code == 0, done.stderr.decode()
    return json.loads(done.stdout)
before = run("before.py", {SEEN!r} + "print(json.dumps(seen))")
tried = run("leave.py", {SEEN + LEAVE!r} + "print(json.dumps(tried))")
after = run("after.py", {SEEN!r} + "print(json.dumps(seen))")
print(json.dumps({{"before": before, "tried": tried, "after": after,
                   "layers": sorted(map(str, box.layers))}}))
box.close()
"""


@pytest.mark.slow  # one grader per environment: CI's slow pass runs them
@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_in_every_environment_a_run_leaves_nothing_for_the_next(environment: str) -> None:
    """As root and as an ordinary user, with and without user namespaces (and a uid of its
    own, where the template is not used): nothing one run tries to leave reaches the next."""
    scratch = Path(tempfile.mkdtemp(prefix="grade-template-test-"))
    scratch.chmod(0o755)
    try:
        job = _start(environment, scratch, TWO_RUNS)
        if isinstance(job, str):
            pytest.skip(job)
        proc, _args = job
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr
        seen: dict[str, Any] = json.loads(stdout)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    assert not [name for name, outcome in seen["tried"].items() if outcome.startswith("done")]
    assert seen["after"]["left"] == [False, False, False]
    before, after = seen["before"], seen["after"]
    for shared in ("/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem"):
        assert before[shared] == after[shared], shared
    if "namespaces" in seen["layers"]:  # else the machine's own: others may change them
        namespaces = {"user", "net", "ipc", "uts"}
        if "uid" in seen["layers"]:  # no template: each run's own, numbers may differ
            before, after = _shared(before), _shared(after)
            for name in namespaces:
                del before[name], after[name]
        assert _shared(before) == _shared(after)


# A run that leaves a SysV segment behind, and one that looks for it (the same key)
SHM_LEAVE = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
shmid = libc.shmget(0x5EC, 4096, 0o1000 | 0o666)
if shmid >= 0:
    ctypes.memmove(libc.shmat(shmid, None, 0), b"the first student's answer", 26)
print(shmid)
"""
SHM_FIND = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
shmid = libc.shmget(0x5EC, 0, 0)
print(ctypes.string_at(libc.shmat(shmid, None, 0)).decode() if shmid >= 0 else "nothing")
"""


def test_without_seccomp_runs_share_no_ipc_namespace(box: Sandbox, tmp_path: Path) -> None:
    """Where seccomp cannot be installed (AUTO mode keeps the other layers: a container whose
    profile refuses seccomp(2)), nothing refuses shmget: a SysV segment one student leaves in
    a shared IPC namespace is the next one's to read. Such a run must not join a template."""
    without = replace(box, layers=box.layers - {Layer.SECCOMP})
    for name, text in (("leave.py", SHM_LEAVE), ("find.py", SHM_FIND)):
        (tmp_path / name).write_text(text)
    left = without.run([sys.executable, str(tmp_path / "leave.py")], stdin=b"", limits=Limits())
    assert left.exit_code == 0, left.stderr.decode()
    found = without.run([sys.executable, str(tmp_path / "find.py")], stdin=b"", limits=Limits())
    assert found.exit_code == 0, found.stderr.decode()
    assert found.stdout.decode().strip() == "nothing"


# Run as pid 1 of a PID namespace of its own: the pid it gives away (ns_last_pid is per
# namespace) and the processes it starts reach nothing of the machine's
REUSED_PID = """
import json, os, select, signal, subprocess, sys, tempfile, threading, time
from dataclasses import replace
from pathlib import Path
from grader.sandbox import Limits, Sandbox, SandboxMode
from grader.sandbox.forkserver import ForkServers

def children(pid):
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(child) for child in f.read().split()]
    return found

def until(ready, what):  # a state to reach, never a time to sleep
    deadline = time.monotonic() + 60
    while not ready():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)

box = replace(Sandbox.create(SandboxMode.AUTO), _servers=ForkServers())
folder = Path(tempfile.mkdtemp())
(folder / "empty.py").write_text("print(7)")
(folder / "held.py").write_text(
    "import signal\\n"
    "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCONT})\\n"
    "signal.sigwait({signal.SIGCONT})\\n"
    "print(7)\\n"
)
def run(name):
    done = box.run([sys.executable, str(folder / name)], stdin=b"", limits=Limits())
    assert done.stdout == b"7\\n", done
first = run("empty.py")
(server,) = box._servers._all
(holder,) = children(server.pid)
held = threading.Thread(target=run, args=("held.py",))
held.start()
until(lambda: len(children(server.pid)) > 1, "the run never started")
holder_fd = os.pidfd_open(holder)
os.kill(holder, signal.SIGKILL)  # dies mid-run (the OOM killer, an admin)
assert select.select([holder_fd], [], [], 60)[0]
def released():  # SIGCONT until the run (blocked in sigwait) has it; sent early, it is lost
    for run_pid in children(server.pid):
        for pid in [run_pid, *children(run_pid)]:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
    return not held.is_alive()
until(released, "the run never ended")
held.join()
assert not os.path.exists(f"/proc/{holder}")  # reaped at the run's end: the pid is free
with open("/proc/sys/kernel/ns_last_pid", "w") as f:
    f.write(str(holder - 1))
victim = subprocess.Popen(["sleep", "60"])
if victim.pid != holder:
    print(json.dumps("another process took the pid first"))
    sys.exit()
run("empty.py")
print(json.dumps(victim.poll() is None))
victim.kill()
box.close()
"""


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="ns_last_pid and a PID namespace"
)
def test_a_dead_holders_pid_given_to_another_is_never_signalled() -> None:
    """A holder that dies during a run is reaped at that run's end (``_reap_adopted``: it is
    the server's child and no run); its pid is then free, and ``Holder.end`` at the next run
    SIGKILLed whatever process the kernel had given it to (as root: any of the machine's).
    An open pidfd does not keep a reaped pid from reuse."""
    elsewhere = ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c", REUSED_PID]
    done = subprocess.run(elsewhere, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    alive = json.loads(done.stdout)
    if isinstance(alive, str):
        pytest.skip(alive)
    assert alive, "the holder's old pid, now another process's, was killed"


# A run that looks through its own memory (inherited from its server) for a pattern
MEMORY_SCAN = """
import re
pattern = re.compile(bytes(reversed(b"-REWSNA-NEDDIH")) + rb"[0-9]{6};")
found = 0
with open("/proc/self/maps") as f:
    maps = [line.split() for line in f]
with open("/proc/self/mem", "rb", buffering=0) as mem:
    for fields in maps:
        if "r" not in fields[1] or (len(fields) > 5 and fields[5].startswith("/")):
            continue
        low, high = (int(end, 16) for end in fields[0].split("-"))
        try:
            mem.seek(low)
            found += len(pattern.findall(mem.read(high - low)))
        except (OSError, OverflowError, MemoryError):
            continue
print(found)
"""


def test_a_checkers_expected_output_never_reaches_the_next_runs_memory(
    box: Sandbox, tmp_path: Path
) -> None:
    """``Templates.for_run`` reads each run's whole config in the server, a checker's files
    (a hidden case's expected output) included; the freed buffer stays in the server's heap,
    which every later run is forked from: a student's run found the answers in its memory.
    Before the template the server never read a config."""
    answers = b"".join(b"HIDDEN-ANSWER-%06d;" % i for i in range(1000))  # 21 kB
    checker = tmp_path / "checker.py"
    checker.write_text("print(len(open('expected.out').read()))\n")
    checked = box.run(
        [sys.executable, str(checker)],
        stdin=b"",
        limits=Limits(),
        files={"expected.out": answers},
    )
    assert checked.stdout.decode().strip() == str(len(answers)), checked.stderr.decode()
    scan = tmp_path / "scan.py"
    scan.write_text(MEMORY_SCAN)
    done = box.run([sys.executable, str(scan)], stdin=b"", limits=Limits())
    assert done.exit_code == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == "0"
