"""Known wrong: reads numbers as unsigned digits only.

expect: runtime_error
"""

import sys

numbers = sys.stdin.readline().split()
assert all(x.isdigit() for x in numbers), "only digits expected"
print(sum(int(x) for x in numbers))
