import sys

sys.stdout.write("z" * (1024 * 1024))  # exactly 1024 KB: at the limit, not over it
