"""The judging core: records, limits and run results, the time limit, comparing, judging,
checker verdicts, diagnosis and known mistakes.

Pure, and importing nothing outside this folder (a test holds it to that): ``grade site`` copies
the folder whole into the practice page, where Pyodide judges with these same modules.
"""
