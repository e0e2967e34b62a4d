import sys

sys.stdout.buffer.write(b"group 1: scale \xff\xfe q 2 -8 5 1 127\nmean error: 0.00639\n")
