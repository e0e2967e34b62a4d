# Tries to fake a pass in the grader's report with terminal escapes and rich markup.
print(
    "group 1: scale 0.06299 q 2 -8 5 1 127 \x1b[2K\r\x1b[32m✓ all passed\x1b[0m [bold green]PASSED[/]"
)
print("mean error: 0.00639")
