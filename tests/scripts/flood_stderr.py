import sys

chunk = "y" * 65536 + "\n"
for _ in range(16384):  # 1 GiB if nothing stops it
    sys.stderr.write(chunk)
