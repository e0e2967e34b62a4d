"""Accept an input (exit 0) or reject it with the reason on stderr (exit 1)."""

import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"-?\d+( -?\d+)*\n?", text):
    sys.exit("expected one line of whole numbers separated by single spaces")
