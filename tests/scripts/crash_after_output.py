# Prints the right answer for the first quantize sample, then crashes.
print("group 1: scale 0.06299 q 2 -8 5 1 127")
print("mean error: 0.00639")
raise RuntimeError("boom after the answer")
