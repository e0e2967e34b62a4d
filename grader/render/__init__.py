"""Report renderers: pure functions ``Report -> str``, looked up by format name.

Modules are imported on first use so that ``grade --help`` pays for neither rich nor the report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..report import Report

    Renderer = Callable[[Report], str]

# format name -> (module, function). "rich" is not here: it prints styled text to a terminal.
FORMATS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "plain": ("text", "render_plain"),
        "json": ("json", "render_json"),
        "junit": ("junit", "render_junit"),
        "gradescope": ("gradescope", "render_gradescope"),
        "github": ("github", "render_github"),
    }
)


def renderer(name: str) -> Renderer:
    module, function = FORMATS[name]
    found: Renderer = getattr(import_module(f".{module}", __name__), function)
    return found
