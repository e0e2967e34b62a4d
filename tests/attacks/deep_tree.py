# Finding 8: a folder chain too deep for a recursive removal (Python's recursion limit) and for
# any path (1500 x "dd/" is past PATH_MAX), left behind in the work dir.
import os

for _ in range(1500):
    os.mkdir("dd")
    os.chdir("dd")
print("OK deep", flush=True)
