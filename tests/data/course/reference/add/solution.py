"""Reference solution: prints the sum of the numbers on the first line."""

import sys

print(sum(int(x) for x in sys.stdin.readline().split()))
