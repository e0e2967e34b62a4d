# Asks for 4 GB at once: the memory limit must stop it, not the machine's OOM killer.
block = bytearray(4 * 1024**3)
print(len(block))
