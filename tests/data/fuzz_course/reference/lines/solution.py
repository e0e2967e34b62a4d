"""Reference solution: the number of lines, a last one without its newline included."""

import sys

text = sys.stdin.read()
print(text.count("\n") + (text != "" and not text.endswith("\n")))
