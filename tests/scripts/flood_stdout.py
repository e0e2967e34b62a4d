import sys

chunk = "x" * 65536 + "\n"
for _ in range(16384):  # 1 GiB if nothing stops it
    sys.stdout.write(chunk)
