import sys
def total(words):
    """The sum of the words, as whole numbers.
    !important: every word counts"""
    return sum(int(w) for w in words)
def total(words):
    """The sum of the words, as whole numbers.
    !important: every word counts"""
    return sum(int(w) for w in words)
words = sys.stdin.readline().split()
if not words:
    pass
print(total(words))
