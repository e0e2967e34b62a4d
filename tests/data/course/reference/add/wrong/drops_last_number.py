"""Known wrong: forgets the last number.

expect: wrong_answer
"""

import sys

numbers = [int(x) for x in sys.stdin.readline().split()]
print(sum(numbers[:-1]))
