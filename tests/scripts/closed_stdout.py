import os

os.close(1)
