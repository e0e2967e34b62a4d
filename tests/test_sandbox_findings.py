"""Each attack of the sandbox audit (issue 8, findings 1-10), in every environment we support:
as root, as an ordinary user, and where user namespaces are refused (a launcher makes unshare
fail, as Docker's default profile and Ubuntu 24.04's AppArmor rule do). Each attack is also run
with --sandbox off, where it must work: that shows the attack is real.

One subprocess per environment runs every attack (a probe and a sandbox each), as the grader
would there, and reports what each printed.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import COURSE, TESTS

from grader.sandbox.allowed import others_can_read, readable, without
from grader.sandbox.uids import FIRST, UidPool

ATTACKS = TESTS / "attacks"
PROJECT = TESTS.parent
LAUNCHER = TESTS / "launchers" / "no_userns.py"
# Seven environments, each its own grader process: run by .ci/run (python -m pytest -m slow)
pytestmark = pytest.mark.slow

USER = "grade-test"

WRAPPER = """
import json, os, subprocess, sys, tempfile
from grader.sandbox import Limits, Sandbox, SandboxMode
args = json.loads(sys.argv[1])
own = tempfile.mkdtemp()  # the grader's own files, owned by its uid
victim = os.path.join(own, "victim")
with open(victim, "w") as f:
    f.write("x")
os.chmod(victim, 0o755)
sleeper = subprocess.Popen(["sleep", "120"])  # another process of the grader's uid
payloads = {
    "clone_mounts.py": {"file": args["secret"]},
    "read_secrets.py": {"files": [args["secret"]], "grader": os.getpid()},
    "other_processes.py": {"pid": sleeper.pid, "file": victim},
    "metadata.py": {"file": victim},
    "fill_disk.py": {"mb": 10, "files": 600, "shared_mb": 64},
    "deep_tree.py": None,
    "own_arguments.py": None,
    "whoami.py": None,
    "memory_escapes.py": None,
    "many_tasks.py": None,
    "list_usr.py": None,
    "host_settings.py": None,
    "stack_memory.py": None,
}
box = Sandbox.create(SandboxMode(args["mode"]), hide=[args["secret_dir"]])
out = {"layers": sorted(box.layers), "notice": box.notice()}
for mode, sandbox in ((args["mode"], box), ("off", Sandbox.create(SandboxMode.OFF))):
    for name, payload in payloads.items():
        stdin = json.dumps(payload).encode() if payload is not None else b""
        small = name == "fill_disk.py"  # a small work dir: less to write to show its limits
        limits = Limits(time_s=30, disk_mb=8, files=512) if small else Limits(time_s=30,
                                                                            memory_mb=128)
        r = sandbox.run([sys.executable, os.path.join(args["attacks"], name)], stdin=stdin,
                        limits=limits)
        out[mode + ":" + name] = r.stdout.decode().splitlines()
        out[mode + ":" + name + ":exit"] = r.exit_code
    if mode != "off":
        out["victim after the sandbox"] = oct(os.stat(victim).st_mode)
# the submission swapped for a link to the hidden folder after its check (issue 22, finding 3)
swapped = os.path.join(own, "swapped")
os.symlink(args["secret_dir"], swapped)
with open(os.path.join(args["attacks"], "swapped_submission.py"), "rb") as f:
    text = f.read()
for mode, sandbox in ((args["mode"], box), ("off", Sandbox.create(SandboxMode.OFF))):
    r = sandbox.run([sys.executable, swapped], stdin=b"", limits=Limits(), source=text)
    out[mode + ":swapped_submission.py"] = r.stdout.decode().splitlines() or [r.stderr.decode()]
r = box.run([sys.executable, args["solution"]], stdin=b"1 2 3\\n", limits=Limits())
out["solution"] = [r.exit_code, r.stdout.decode(), r.stderr.decode()[-300:]]
sleeper.kill()
out["left in TMPDIR"] = [n for n in os.listdir(tempfile.gettempdir()) if n.startswith("grade-")]
print(json.dumps(out))
"""


def _system_python() -> str | None:
    """An interpreter other uids can read, of this Python's version (the sandbox needs only the
    standard library): the one running the tests may be private (pyenv under /root)."""
    for python in (sys.executable, shutil.which("python3", path="/usr/bin:/bin")):
        if python is None or not (others_can_read(python) and others_can_read(sys.prefix)):
            continue
        version = subprocess.run(
            [python, "-c", "import sys; print(sys.version_info[:2])"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        if version == str(sys.version_info[:2]):
            return python
    return None


def _user() -> tuple[int, int] | None:
    if os.geteuid() != 0:
        return os.getuid(), os.getgid()
    if not others_can_read(str(PROJECT / "grader")):
        return None
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        if shutil.which("useradd") is None:
            return None
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
            capture_output=True,
        )
        entry = pwd.getpwnam(USER)
    return entry.pw_uid, entry.pw_gid


ENVIRONMENTS = [
    "root",  # with this Python: private (pyenv under /root), so no per-run uid
    "root, readable Python",  # the system's Python: each run under its own uid
    "root, no user namespaces",
    "user",
    "user, no user namespaces",
    "root, Landlock ABI 5",  # no signal or abstract-socket scoping (ABI 6)
    "root, no Landlock",
]


def _start(
    environment: str, scratch: Path, wrapper: str = WRAPPER, **extra: Any
) -> tuple[subprocess.Popen[str], dict[str, Any]] | str:
    """Start ``wrapper`` (a grader) in ``environment``, with ``extra`` among its arguments; the
    process and its arguments, or why it cannot."""
    as_user = environment.startswith("user")
    no_userns = "no user namespaces" in environment
    landlock = {"root, Landlock ABI 5": "5", "root, no Landlock": "0"}.get(environment, "999")
    if os.geteuid() != 0 and not as_user:
        return "needs root"
    ids = _user() if as_user else (0, 0)
    readable_python = as_user or environment == "root, readable Python"
    python = _system_python() if readable_python else sys.executable
    if ids is None or python is None:
        return "no ordinary user, or no interpreter it can run, on this machine"
    (scratch / "tmp").mkdir()
    os.chown(scratch / "tmp", *ids)
    secret_dir = scratch / "secret"
    secret_dir.mkdir(mode=0o755)
    (secret_dir / "answer.out").write_text("the answer")
    (secret_dir / "answer.out").chmod(0o644)  # readable by the user: only the sandbox stops it
    args = {
        "mode": "auto" if no_userns or landlock == "0" else "strict",
        "secret": str(secret_dir / "answer.out"),
        "secret_dir": str(secret_dir),
        "attacks": str(ATTACKS),
        "solution": str(COURSE / "reference" / "add" / "solution.py"),
        **extra,
    }
    command = [python, "-c", wrapper, json.dumps(args)]
    if no_userns:
        command = [python, str(LAUNCHER), *command]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        user=ids[0],
        group=ids[1],
        extra_groups=[],
        cwd="/",
        env={
            "PATH": os.defpath,
            "PYTHONPATH": str(PROJECT),
            "HOME": "/",
            "TMPDIR": str(scratch / "tmp"),
            "GRADE_LANDLOCK_ABI_MAX": landlock,
        },
    )
    return proc, args


@pytest.fixture(scope="module")
def every_environment() -> Iterator[dict[str, dict[str, Any] | str]]:
    """What every attack printed in each environment; the four run at once (they mostly wait).
    Their folders are made with mkdtemp, not pytest's: an ordinary user must reach them."""
    started: dict[str, tuple[subprocess.Popen[str], dict[str, Any]] | str] = {}
    folders = []
    for environment in ENVIRONMENTS:
        scratch = Path(tempfile.mkdtemp(prefix="grade-attacks-"))
        scratch.chmod(0o755)
        folders.append(scratch)
        started[environment] = _start(environment, scratch)
    try:
        yield _collect(started)
    finally:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)


def _collect(
    started: dict[str, tuple[subprocess.Popen[str], dict[str, Any]] | str],
) -> dict[str, dict[str, Any] | str]:
    seen: dict[str, dict[str, Any] | str] = {}
    for environment, job in started.items():
        if isinstance(job, str):
            seen[environment] = job
            continue
        proc, args = job
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr
        out: dict[str, Any] = json.loads(stdout)
        out["environment"] = environment
        out["sandboxed"] = args["mode"]
        out["secret_dir"] = args["secret_dir"]
        seen[environment] = out
    return seen


@pytest.fixture(params=ENVIRONMENTS)
def seen(request: pytest.FixtureRequest, every_environment: dict[str, Any]) -> dict[str, Any]:
    """What every attack printed, in one environment, under the sandbox and with it off."""
    found = every_environment[request.param]
    if isinstance(found, str):
        pytest.skip(found)
    result: dict[str, Any] = found
    return result


def _ok(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("OK")]


def test_a_correct_solution_still_passes(seen: dict[str, Any]) -> None:
    assert seen["solution"] == [0, "6\n", ""]


def test_layers_and_notice(seen: dict[str, Any]) -> None:
    if seen["environment"] == "root, readable Python":
        assert "uid" in seen["layers"]
    if seen["environment"] == "root, no Landlock":
        assert "landlock" not in seen["layers"]
        assert "because landlock: OSError: Landlock is not available" in seen["notice"]
    elif "no user namespaces" in seen["environment"]:
        assert "namespaces" not in seen["layers"] and "mounts" not in seen["layers"]
        assert {"landlock", "seccomp"} <= set(seen["layers"])
        assert seen["notice"].startswith("isolation is reduced on this machine: ")
        assert "because namespaces: PermissionError" in seen["notice"]
        assert "to fix: allow unprivileged user namespaces" in seen["notice"]
    else:
        assert {"namespaces", "mounts", "landlock", "seccomp"} <= set(seen["layers"])


def test_1_no_mount_tree_is_cloned(seen: dict[str, Any]) -> None:
    assert _ok(seen[f"{seen['sandboxed']}:clone_mounts.py"]) == []
    if seen["environment"] == "root":  # only root can clone mounts without the sandbox
        assert _ok(seen["off:clone_mounts.py"])


def test_2_no_other_process_and_no_lease(seen: dict[str, Any]) -> None:
    lines = seen[f"{seen['sandboxed']}:other_processes.py"]
    assert len(lines) == 5 and _ok(lines) == [], lines
    assert len(_ok(seen["off:other_processes.py"])) == 5


def test_3_no_metadata_change(seen: dict[str, Any]) -> None:
    lines = seen[f"{seen['sandboxed']}:metadata.py"]
    assert len(lines) == 4 and _ok(lines) == [], lines
    assert seen["victim after the sandbox"] == "0o100755"  # no setuid bit
    assert "OK chmod setuid" in seen["off:metadata.py"]


def test_7_disk_inodes_and_shared_memory(seen: dict[str, Any]) -> None:
    lines = seen[f"{seen['sandboxed']}:fill_disk.py"]
    assert "BLOCKED shared memory PermissionError" in lines
    if "no user namespaces" in seen["environment"]:
        # without a tmpfs of its own the work dir is the host's: only files over the output
        # limit are refused (RLIMIT_FSIZE); the README says so
        assert "OK inodes 600" in lines
    else:
        assert "BLOCKED disk No space left on device" in lines
        assert "BLOCKED inodes No space left on device" in lines
    assert _ok(seen["off:fill_disk.py"]) == [
        "OK disk 10 MB",
        "OK inodes 600",
        "OK shared memory 64 MB",
    ]


def test_8_a_deep_tree_does_not_break_cleanup(seen: dict[str, Any]) -> None:
    for mode in (seen["sandboxed"], "off"):
        assert seen[f"{mode}:deep_tree.py"] == ["OK deep"]
    assert seen["left in TMPDIR"] == []


def test_9_nothing_names_the_hidden_folders(seen: dict[str, Any]) -> None:
    for mode in (seen["sandboxed"], "off"):
        lines = seen[f"{mode}:own_arguments.py"]
        assert len(lines) == 4
        assert not [line for line in lines if seen["secret_dir"] in line]
        assert "'cfg'" not in lines[3] and "'report'" not in lines[3]  # no grader frame left


def test_10_answers_stay_unreadable(seen: dict[str, Any]) -> None:
    lines = seen[f"{seen['sandboxed']}:read_secrets.py"]
    assert next(line for line in lines if "answer.out" in line).startswith("BLOCKED")
    assert [line for line in _ok(seen["off:read_secrets.py"]) if "answer.out" in line]


def test_memory_outside_rlimit_data_stays_bounded(seen: dict[str, Any]) -> None:
    """Red team: shared /dev/zero, MAP_GROWSDOWN, huge read-only mappings, fallocate."""
    lines = seen[f"{seen['sandboxed']}:memory_escapes.py"]
    assert len(lines) == 4 and _ok(lines) == [], lines
    # the control: all but the huge mapping, which RLIMIT_AS bounds with the sandbox off too
    assert len(_ok(seen["off:memory_escapes.py"])) == 3


def test_tasks_are_bounded(seen: dict[str, Any]) -> None:
    (line,) = seen[f"{seen['sandboxed']}:many_tasks.py"]
    if seen["environment"] == "user, no user namespaces":
        return  # no cgroup and no namespace to count in: the README says so
    assert int(line.split()[1]) < 64


def test_only_the_interpreters_own_folders_are_visible(seen: dict[str, Any]) -> None:
    # where the root is the run's own, /usr/share holds only what was bound into it
    shown = _ok(seen[f"{seen['sandboxed']}:list_usr.py"])
    assert shown in ([], ["OK /usr/share ['zoneinfo']"]), shown
    assert len(_ok(seen["off:list_usr.py"])) >= 2


def test_4_the_run_is_never_root(seen: dict[str, Any]) -> None:
    inside, _mapping = seen[f"{seen['sandboxed']}:whoami.py"]
    if "no user namespaces" in seen["environment"]:
        return  # covered by the uid test below (root) or it is the user's own uid
    assert inside == "inside 1000"


def test_4_a_private_submission_keeps_its_own_uid(tmp_path: Path) -> None:
    """Root with an interpreter others can read: each run gets its own uid, even for a 0600
    script in a 0700 folder (that used to fall back to root)."""
    if os.geteuid() != 0:
        pytest.skip("needs root")
    python = _system_python()
    if python is None:
        pytest.skip("no interpreter other uids can read")
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    script = private / "mine.py"
    shutil.copy(ATTACKS / "whoami.py", script)
    script.chmod(0o600)
    code = (
        "import sys\n"
        "from grader.sandbox import Limits, Sandbox, SandboxMode\n"
        "s = Sandbox.create(SandboxMode.STRICT)\n"
        f"r = s.run([sys.executable, {str(script)!r}], stdin=b'', limits=Limits())\n"
        "print(sorted(s.layers)); print(r.stdout.decode(), r.stderr.decode())\n"
    )
    result = subprocess.run(
        [python, "-c", code],
        capture_output=True,
        text=True,
        env={"PATH": os.defpath, "PYTHONPATH": str(PROJECT)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    layers, inside, mapping = result.stdout.splitlines()[:3]
    assert "uid" in layers and inside.endswith("inside 1000")
    outer = int(mapping.replace("'", "").strip("map []").split(",")[1])
    assert outer >= FIRST


def test_5_two_graders_never_share_a_uid() -> None:
    """Two pools (two graders) starting at the same place still take different uids: each is
    held by a lock, not derived from the pid."""
    if os.geteuid() != 0 and not os.access(tempfile.gettempdir(), os.W_OK):
        pytest.skip("no folder for the locks")
    first, second = UidPool(), UidPool()
    second._next = first._next
    taken = [first.take(), second.take(), first.take(), second.take()]
    assert len(set(taken)) == 4


def test_excluded_folders_leave_an_allow_list(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    for part in ("numpy/core", "grader/_data/cases/x", "rich"):
        (site / part).mkdir(parents=True)
    listed: list[str] = []
    kept = without([str(site)], [str(site / "grader")], listed)
    assert sorted(Path(p).name for p in kept) == ["numpy", "rich"]
    assert listed == [str(site)]  # listable, so that Python can import numpy from it
    deeper = without([str(site)], [str(site / "grader" / "_data")])
    assert str(site / "grader" / "_data") not in deeper and str(site / "numpy") in deeper
    grader_package = str(PROJECT / "grader")
    assert not [
        p for p in readable(())[0] if p == grader_package or p.startswith(grader_package + "/")
    ]


def test_11_a_swapped_submission_reads_nothing_through_its_path(seen: dict[str, Any]) -> None:
    """The Landlock rule for the submission was built from its path, opened following links:
    a student who swapped it for a link to a hidden folder once runs started could read that
    folder, hidden cases included, without user namespaces. The rule is the grader's copy."""
    lines = seen[f"{seen['sandboxed']}:swapped_submission.py"]
    assert len(lines) == 1 and _ok(lines) == [], lines
    assert _ok(seen["off:swapped_submission.py"])  # the attack is real


def test_host_kernel_settings_stay_unwritable(seen: dict[str, Any]) -> None:
    """Red team: as root without a uid of its own and without Landlock, the run's uid maps to
    root, and /proc/sys of its own /proc was writable: it could change the host's sysctls."""
    lines = seen[f"{seen['sandboxed']}:host_settings.py"]
    assert len(lines) == 3 and _ok(lines) == [], lines
    if seen["environment"] == "root":  # the control: root without the sandbox may
        assert len(_ok(seen["off:host_settings.py"])) == 3


def test_the_stack_counts_against_the_memory_limit(seen: dict[str, Any]) -> None:
    """Red team: the stack's hard limit was unlimited, and RLIMIT_DATA does not count it: deep
    C recursion held 2.4 GB under a 512 MB limit. Now at most the memory limit (128 MB here),
    with the sandbox off too (limits always apply)."""
    for mode in (seen["sandboxed"], "off"):
        lines = seen[f"{mode}:stack_memory.py"]
        assert lines[-1].startswith("stack ") and int(lines[-1].split()[1]) <= 128, lines
