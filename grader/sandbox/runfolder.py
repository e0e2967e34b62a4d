"""A portable run's folder and environment: its work dir (with a checker's files), the grader's
copy of the script, its stdin and its child's config, written by the grader (no limit of the
run's applies), a clean environment, and the folder's removal afterwards."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ..judging._compat import READ_UNLINKED
from ..judging.errors import InternalError
from ..judging.runs import Limits
from ..judging.timing import cpu_cap_s
from ._protocol import ChildConfig, limit_fields
from .allowed import child_environment, user_site
from .cleanup import remove_tree
from .platforms import PROCESSES

_NOFILE = 256


def lay_out(
    base: Path,
    script: str,
    stdin: bytes,
    files: Mapping[str, bytes],
    text: bytes | None,
    limits: Limits,
    args: Sequence[str],
) -> Path:
    """The run's folder: its work dir (with a checker's files), the grader's copy of the
    script, its stdin and its config. The grader writes them: no limit of the run's applies."""
    work = base / "work"
    work.mkdir()
    if any(os.sep in n or "/" in n or n.startswith(".") for n in files):
        raise InternalError(f"a run's files have plain names only: {sorted(files)}")
    for name, content in files.items():
        (work / name).write_bytes(content)
    source = base / "submission.py"
    source.write_bytes(text if text is not None else _read_unlinked(script))
    (base / "stdin").write_bytes(stdin)
    config = ChildConfig(
        parent=os.getpid(),
        workdir=str(work),
        root="",
        submission=script,
        source=str(source),
        args=tuple(args),
        files={},
        probe=False,
        layers=(),
        uid=None,
        gid=None,
        read=(),
        list=(),
        devices=(),
        **limit_fields(limits, cpu_cap_s(limits.time_s)),
        nofile=_NOFILE,
        nproc=PROCESSES,
        user_site=user_site() or "",
        compiled={},
        landlock_abi_max=0,
    )
    (base / "config").write_bytes(config.to_wire())
    return base / "config"


def _read_unlinked(script: str) -> bytes:
    """The script's bytes, never through a link at its own name (where the OS can tell)."""
    try:
        fd = os.open(script, READ_UNLINKED)
    except OSError as exc:
        why = "is a symbolic link now" if os.path.islink(script) else exc.strerror
        raise InternalError(f"cannot read the submission {script}: {why}") from exc
    with os.fdopen(fd, "rb") as f:
        return f.read()


def environment(work: Path) -> dict[str, str]:
    env = child_environment(work, os.environ)
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONNOUSERSITE"] = "1"
    if sys.platform == "win32":
        # Windows needs SYSTEMROOT to start a process that uses sockets or random numbers
        for name in ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR"):
            if name in os.environ:
                env[name] = os.environ[name]
        env["TEMP"] = env["TMP"] = env["USERPROFILE"] = str(work)
        env["PATH"] = os.path.dirname(sys.executable)
    return env


def remove(base: Path) -> None:
    """Remove the run's folder; Windows refuses to delete a read-only file, so clear the flag.
    Best effort: the result is known by now."""

    def writable(func: Callable[..., object], path: str, _: object) -> None:
        with contextlib.suppress(OSError):
            os.chmod(path, stat.S_IWRITE | stat.S_IREAD | stat.S_IEXEC)
            func(path)

    if os.name == "posix":
        remove_tree(base)
        return
    # every error goes to ``writable``, which lets a file it cannot delete stay: nothing raises
    if sys.version_info >= (3, 12):
        shutil.rmtree(base, onexc=writable)
    else:
        shutil.rmtree(base, onerror=writable)
