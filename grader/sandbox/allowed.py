"""What a run is given: its environment, and the paths it may read (an allow-list built from the
interpreter's own folders and a few system ones, less what is hidden)."""

from __future__ import annotations

import functools
import os
import site
import stat
import sysconfig
from collections.abc import Iterable, Mapping
from pathlib import Path

# numpy and friends start one thread per core and ~40 MB each; one is plenty for exercises.
_THREAD_VARS = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
# What a run may read besides the interpreter: shared libraries, their cache, time zones, the CPU
# topology (OpenBLAS sizes its buffers from it). Nothing else of the machine exists in its root.
_SYSTEM_READ = (
    "/usr/lib",
    "/usr/lib64",
    "/lib",
    "/lib64",
    "/usr/local/lib",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/usr/share/zoneinfo",
    "/sys/devices/system/cpu",
)


def child_environment(workdir: Path, parent: Mapping[str, str]) -> dict[str, str]:
    """An allow-list: nothing of the grader's environment (CI tokens!) reaches the submission."""
    env = {
        "PATH": os.defpath,  # the grader's own PATH names its installation
        "HOME": str(workdir),
        "TMPDIR": str(workdir),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONUTF8": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        # ignored by the interpreter (-I), kept for what a run inspects: string hashes still
        # change per fresh run (docs/choices.md), so an exercise must not depend on set order
        "PYTHONHASHSEED": "0",
    }
    env.update(dict.fromkeys(_THREAD_VARS, "1"))
    # A Python built with a shared libpython (a lab's `module load python`) finds it only
    # through this: without it every run failed to start, also with --sandbox off. Its folders
    # are readable by runs (library_path), less what is hidden, like the interpreter's own.
    if parent.get("LD_LIBRARY_PATH"):
        env["LD_LIBRARY_PATH"] = parent["LD_LIBRARY_PATH"]
    return env


def library_path(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The folders of the grader's LD_LIBRARY_PATH that exist: what the run's interpreter may
    need to load."""
    found = (os.path.realpath(p) for p in environ.get("LD_LIBRARY_PATH", "").split(":") if p)
    return tuple(p for p in found if os.path.isdir(p))


def user_site() -> str | None:
    """The grader's user site-packages (``pip install --user``), which the child's ``-I`` and its
    HOME inside the work dir would otherwise hide: a student's numpy may live there."""
    path = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return path if path and os.path.isdir(path) else None


def python_paths() -> list[str]:
    """The running interpreter's standard library and site-packages: what a submission may
    read of it (not the whole prefix: a system Python's prefix is /usr)."""
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    paths = {*(sysconfig.get_paths()[n] for n in names), *site.getsitepackages()}
    return sorted(os.path.realpath(p) for p in paths if os.path.isdir(p))


def others_can_read(path: str) -> bool:
    """Whether a uid with no special rights can reach and read ``path``."""
    real = Path(os.path.realpath(path))
    if any(not os.stat(p).st_mode & stat.S_IXOTH for p in real.parents):
        return False
    mode = real.stat().st_mode
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & need == need


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def without(
    paths: Iterable[str], excluded: Iterable[str], expanded: list[str] | None = None
) -> list[str]:
    """``paths`` less everything under ``excluded``: a folder holding an excluded path is
    replaced by its other entries (recursively), so that what remains is an allow-list. The
    folders so replaced are added to ``expanded``: a run must still list them (Python's import
    system lists a folder before it imports from it), though not read what they hold."""
    out = sorted({os.path.realpath(e) for e in excluded})
    kept: list[str] = []
    for path in paths:
        inner = [e for e in out if _inside(e, path)]
        if not inner:
            kept.append(path)
        elif path not in inner and os.path.isdir(path):
            if expanded is not None:
                expanded.append(path)
            entries = sorted(os.path.join(path, name) for name in os.listdir(path))
            kept += without(entries, inner, expanded)
    return kept


def readable(hidden: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What every run may read (the interpreter and its packages, system libraries, less the
    ``hidden`` folders and this grader's own package, which may carry bundled answers), and the
    folders it may only list (those that held what was left out)."""
    return _readable(hidden, user_site(), library_path(os.environ))


@functools.lru_cache(maxsize=16)
def _readable(
    hidden: tuple[str, ...], extra_site: str | None, libraries: tuple[str, ...] = ()
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    allowed = [*python_paths(), *([extra_site] if extra_site else []), *libraries, *_SYSTEM_READ]
    grader_package = str(Path(__file__).resolve().parent.parent)
    listed: list[str] = []
    kept = without(allowed, [*hidden, grader_package], listed)
    return tuple(kept), tuple(dict.fromkeys(listed))
