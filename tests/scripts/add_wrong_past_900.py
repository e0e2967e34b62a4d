"""Right on every case of the fixture's add; wrong where a number is beyond ±900, which --fuzz
finds and no case has. Its wrong line is hostile (a CI command, a terminal escape): every report
shows it as data."""

import sys

numbers = [int(x) for x in sys.stdin.readline().split()]
if any(abs(n) > 900 for n in numbers):
    print("::error::pwned \x1b[31mred")
else:
    print(sum(numbers))
