"""Remake terminal-report.png, the picture of a report in README.md: `grade quantize my.py` for a
script that rounds halves up (the known-wrong reference/quantize/wrong/round_half_up.py), as a
terminal 120 columns wide shows it, exported by rich as SVG and photographed by headless Chromium
(Debian's chromium package).

    python docs/images/terminal_report.py
"""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
from pathlib import Path

from rich.console import Console
from rich.text import Text

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent.parent
PICTURE = HERE / "terminal-report.png"
COLUMNS = 120


def on_a_terminal(folder: Path) -> str:
    """What grade prints on a pseudo-terminal, escape codes included."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "GRADE_ROOT")}
    env["TERM"] = "xterm-256color"
    argv = [sys.executable, "-m", "grader", "quantize", "my.py", "--root", str(PROJECT)]
    with subprocess.Popen(
        argv, cwd=folder, stdin=follower, stdout=follower, stderr=follower, env=env
    ):
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: grade has ended and closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
    os.close(leader)
    return b"".join(chunks).decode()


def final_screen(raw: str) -> str:
    """The lines as they stay on the screen: the status line ("running: 3/11 cases done") is
    written after a carriage return and erased by the next line."""
    lines = []
    for line in raw.replace("\r\n", "\n").split("\n"):
        lines.append(line.rstrip("\r").rsplit("\r", 1)[-1].replace("\x1b[K", ""))
    return "\n".join(lines).rstrip("\n")


def main() -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("terminal_report.py: needs chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        wrong = PROJECT / "reference" / "quantize" / "wrong" / "round_half_up.py"
        shutil.copy(wrong, folder / "my.py")
        screen = final_screen(on_a_terminal(folder))
        console = Console(
            record=True, width=COLUMNS, file=io.StringIO(), force_terminal=True,
            color_system="truecolor",
        )  # fmt: skip
        console.print(Text.from_ansi(screen), soft_wrap=True)
        svg = console.export_svg(title="grade quantize my.py")
        found = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
        assert found is not None, "rich's SVG has no viewBox"
        width, height = (int(float(n)) + 1 for n in found.groups())
        (folder / "report.svg").write_text(svg, encoding="utf-8")
        subprocess.run(
            [
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                f"--window-size={width},{height}", f"--screenshot={PICTURE}",
                (folder / "report.svg").as_uri(),
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
    print(PICTURE)


if __name__ == "__main__":
    main()
