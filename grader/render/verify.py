"""``grade verify``'s table: one per exercise, a row per check."""

from __future__ import annotations

from ..verify import Verification


def render_verification(result: Verification) -> str:
    width = max(len(c.name) for c in result.checks)
    lines = [f"{result.exercise}: {'ok' if result.ok else 'FAILED'}"]
    lines += [f"  {c.status.value:<4}  {c.name:<{width}}  {c.detail}" for c in result.checks]
    return "\n".join(lines) + "\n"
