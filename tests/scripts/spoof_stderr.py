# Tries to retitle the terminal and hide the traceback with escapes written to stderr.
import sys

sys.stderr.write("\x1b]0;pwned\x07\x1b[2J\x1b[H[link=https://example.invalid]click[/link]\n")
sys.exit(1)
