# Finding 8: a folder chain too deep for a recursive removal (Python's recursion limit) and for
# any path (1500 x "dd/" is past PATH_MAX), left behind in the work dir; and a folder the run made
# read-only (mkdir takes a mode, though chmod is refused), which a removal must still move.
import os

os.mkdir("locked")
os.mkdir("locked/inner", 0o500)

for _ in range(1500):
    os.mkdir("dd")
    os.chdir("dd")
print("OK deep", flush=True)
