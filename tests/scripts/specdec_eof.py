# Reads with input() until it fails: every case ends in an EOFError
total = rounds = 0
while True:
    line = input()
    if not line.strip():
        continue
    left, right = line.split("|")
    print(line)
