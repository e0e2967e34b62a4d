"""Accept an input (exit 0) or reject it with the reason on stderr (exit 1)."""

import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"(([a-z]+( [a-z]+)*)?\n)*([a-z]+( [a-z]+)*)?", text) or not text.strip():
    sys.exit("expected lines of lowercase words separated by single spaces, one word at least")
