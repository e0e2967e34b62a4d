"""Report renderers: pure functions ``Feedback -> str``, one registry holding every format.

Renderers receive ``Feedback`` (visibility already applied), never a ``Report``. Modules are
imported on first use, so that ``grade --help`` pays for neither rich nor the renderers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..judging.records import Feedback

    Renderer = Callable[[Feedback], str]


@dataclass(frozen=True)
class Format:
    name: str
    module: str  # in this package
    function: str
    help: str
    terminal: bool = False  # styled for a terminal (ANSI colours), not for a file or a log

    def render(self, feedback: Feedback) -> str:
        found: Renderer = getattr(import_module(f".{self.module}", __name__), self.function)
        return found(feedback)


FORMATS: Mapping[str, Format] = MappingProxyType(
    {
        f.name: f
        for f in (
            Format("rich", "text", "render_rich", "the plain report in colour", terminal=True),
            Format("plain", "text", "render_plain", "the human report, no colour"),
            Format("json", "json", "render_json", "one JSON object for scripts and CI"),
            Format("junit", "junit", "render_junit", "JUnit XML for GitLab, Jenkins and others"),
            Format("gradescope", "gradescope", "render_gradescope", "Gradescope's results.json"),
            Format("github", "github", "render_github", "GitHub Actions annotations"),
            Format("html", "html", "render_html", "a self-contained page to open in a browser"),
        )
    }
)


def render(name: str, feedback: Feedback) -> str:
    return FORMATS[name].render(feedback)


def choose(requested: str, *, to_terminal: bool, no_color: bool) -> str:
    """The format to render: ``auto`` is rich on a terminal, else plain. A terminal format goes
    plain into a file or pipe (escape codes there help nobody) and where NO_COLOR is set."""
    if requested == "auto":
        requested = "rich"
    if FORMATS[requested].terminal and not (to_terminal and not no_color):
        return "plain"
    return requested
