"""The sandbox as an ordinary user (a student's laptop) and as root with a per-run uid (CI)."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import SCRIPTS, TESTS

from grader.sandbox.sandbox import others_can_read

ATTACKS = TESTS / "attacks"
PROJECT = TESTS.parent
USER = "grade-test"

# Runs as the ordinary user: builds a strict sandbox (and an off one, as the control), runs the
# attacks and a correct solution, prints what happened as JSON.
WRAPPER = """
import json, sys
from grader.sandbox import Limits, Sandbox, SandboxMode
args = json.loads(sys.argv[1])
strict = Sandbox.create(SandboxMode.STRICT, hide=[args["secret_dir"]])
off = Sandbox.create(SandboxMode.OFF)
out = {"layers": sorted(strict.layers), "missing": sorted(strict.missing)}
for mode, box in (("strict", strict), ("off", off)):
    for name, payload in args["attacks"]:
        r = box.run([sys.executable, name], stdin=json.dumps(payload).encode(), limits=Limits())
        out[mode + ":" + name.rsplit("/", 1)[1]] = r.stdout.decode().splitlines()
r = strict.run([sys.executable, args["solution"]], stdin=args["stdin"].encode(), limits=Limits())
out["solution"] = [r.exit_code, r.stdout.decode(), r.stderr.decode()[-300:]]
print(json.dumps(out))
"""


def _python_for(user_can_read: bool) -> str | None:
    if user_can_read:
        return sys.executable
    # The interpreter running the tests is private (e.g. under /root): use the system's, if it is
    # the same Python version, since the sandbox needs nothing outside the standard library.
    system = shutil.which("python3", path="/usr/bin:/bin")
    if system is None:
        return None
    version = subprocess.run(
        [system, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True
    ).stdout.strip()
    return system if version == str(sys.version_info[:2]) else None


@pytest.fixture(scope="module")
def ordinary_user() -> Iterator[tuple[int, int, str]]:
    if os.geteuid() != 0:
        yield os.getuid(), os.getgid(), sys.executable
        return
    if not others_can_read(str(PROJECT / "grader")):
        pytest.skip(f"{PROJECT} is not readable by other users")
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        if shutil.which("useradd") is None:
            pytest.skip("no useradd to create an ordinary user")
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
            capture_output=True,
        )
        entry = pwd.getpwnam(USER)
    python = _python_for(others_can_read(sys.executable) and others_can_read(sys.prefix))
    if python is None:
        pytest.skip("no Python interpreter that an ordinary user can run")
    yield entry.pw_uid, entry.pw_gid, python


def test_attacks_fail_as_an_ordinary_user(ordinary_user: tuple[int, int, str]) -> None:
    uid, gid, python = ordinary_user
    out = _attack_as(uid, gid, python)
    assert {"namespaces", "mounts", "landlock", "seccomp"} <= set(out["layers"])


def test_root_runs_each_case_under_its_own_uid() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root")
    python = _python_for(False)
    if python is None or not others_can_read(python):
        pytest.skip("no interpreter that other uids can read, so the uid layer cannot apply")
    out = _attack_as(0, 0, python)
    assert "uid" in out["layers"]


def _attack_as(uid: int, gid: int, python: str) -> dict[str, Any]:
    secret_dir = Path(tempfile.mkdtemp(dir="/var/tmp"))
    name = f"zz-grade-attack-{uuid.uuid4().hex}.txt"
    try:
        secret_dir.chmod(0o755)
        secret = secret_dir / "answer.out"
        secret.write_text("the answer")
        secret.chmod(0o644)  # readable by the user: only the sandbox stands in the way
        case = (PROJECT / "cases" / "specdec" / "01-sample-good-draft.in").read_text()
        args = {
            "secret_dir": str(secret_dir),
            "attacks": [
                [str(ATTACKS / "read_secrets.py"), {"files": [str(secret)]}],
                [str(ATTACKS / "stat_hidden.py"), {"files": [str(secret)]}],
                [str(ATTACKS / "processes.py"), None],
                [str(ATTACKS / "write_outside.py"), {"dirs": ["/tmp", "/dev/shm"], "name": name}],
            ],
            "solution": str(SCRIPTS / "specdec_student.py"),
            "stdin": case,
        }
        result = subprocess.run(
            [python, "-c", WRAPPER, json.dumps(args)],
            capture_output=True,
            text=True,
            user=uid,
            group=gid,
            extra_groups=[],
            cwd="/",
            env={"PATH": os.defpath, "PYTHONPATH": str(PROJECT), "HOME": "/"},
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        out: dict[str, Any] = json.loads(result.stdout)
        attacks = ("read_secrets.py", "stat_hidden.py", "processes.py", "write_outside.py")
        for attack in attacks:
            got = [x for x in out[f"strict:{attack}"] if x.startswith("OK")]
            # its parent is its own namespace's init, whose command line is public
            assert [x for x in got if x.split()[1] != "/proc/1/cmdline"] == [], attack
            assert [x for x in out[f"off:{attack}"] if x.startswith("OK")], attack  # the control
        code, stdout, stderr = out["solution"]
        assert code == 0, stderr
        assert stdout.replace("\r\n", "\n").startswith("round 1: +5 tokens: the cat sat on the\n")
        return out
    finally:
        shutil.rmtree(secret_dir)
        for folder in ("/tmp", "/dev/shm"):
            Path(folder, name).unlink(missing_ok=True)
