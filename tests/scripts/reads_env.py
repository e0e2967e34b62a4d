# Prints the environment variable names it can see (for the clean-environment test).
import os

print(" ".join(sorted(os.environ)))
