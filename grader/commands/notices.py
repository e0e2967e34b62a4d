"""How often a command says what the sandbox lacks here, and in how many words.

A student's own laptop (Ubuntu 24.04, Docker Desktop) gets one short line, at most once a day:
telling a student to lower a kernel security setting for practice is not advice. CI, ``-v``,
``--sandbox off`` and the portable runner (whose one line is the contract) get the whole of it
every time. The day is remembered in the user's cache (``selection.cache_dir``), never fatally.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
from collections.abc import Mapping

from ..files import write_atomically
from ..judging.errors import GraderError
from ..running.selection import cache_dir
from ..sandbox import Sandbox, SandboxMode

# Set by the CI services students and courses use (GitHub, GitLab, Gradescope's autograder runs
# without one: its images are Linux containers with root, which get the whole line anyway)
CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "TF_BUILD")
_SEEN = "notices.json"


def in_ci(environ: Mapping[str, str]) -> bool:
    return any(environ.get(name, "").lower() not in ("", "0", "false") for name in CI_VARIABLES)


def sandbox_line(
    sandbox: Sandbox,
    *,
    verbose: bool,
    environ: Mapping[str, str],
    today: datetime.date | None = None,
) -> str | None:
    """What to say of ``sandbox`` now, if anything."""
    full = sandbox.notice()
    if full is None:
        return None
    if verbose or in_ci(environ) or sandbox.portable or sandbox.mode is SandboxMode.OFF:
        return full
    brief = sandbox.brief()
    if brief is None or not _first_today(brief, environ, today or datetime.date.today()):
        return None
    return brief


def _first_today(line: str, environ: Mapping[str, str], today: datetime.date) -> bool:
    """Whether ``line`` was not said yet today; remembers that it now was."""
    path = cache_dir(environ) / _SEEN
    key = hashlib.sha256(line.encode()).hexdigest()[:16]
    seen: dict[str, str] = {}
    with contextlib.suppress(OSError, ValueError):
        loaded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            seen = {str(k): str(v) for k, v in loaded.items()}
    if seen.get(key) == today.isoformat():
        return False
    seen[key] = today.isoformat()
    with contextlib.suppress(OSError, GraderError):  # a read-only home: say it every time
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(seen), durable=False)
    return True
