"""Reference: the first position of a largest number."""

import sys

numbers = [int(x) for x in sys.stdin.read().split()]
print(numbers.index(max(numbers)) + 1)
