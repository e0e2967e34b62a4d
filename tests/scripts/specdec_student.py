# A correct student solution, CRLF-tolerant and written without the reference's loop.
import itertools
import sys

passes = []
for raw in sys.stdin:
    if raw.strip():
        draft_part, target_part = raw.split("|")
        draft = draft_part.split()[1:]
        target = target_part.split()[1:]
        same = sum(1 for _ in itertools.takewhile(lambda p: p[0] == p[1], zip(draft, target)))
        passes.append(draft[:same] + [target[same]])
for r, toks in enumerate(passes, 1):
    print("round %d: +%d tokens: %s" % (r, len(toks), " ".join(toks)), end="\r\n")
total = sum(map(len, passes))
print(f"{total} tokens in {len(passes)} target passes ({total / len(passes):.2f} per pass)   ")
print()
