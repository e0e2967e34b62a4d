#!/usr/bin/env bash
# Grade a folder of submissions (one sub-folder or one .py file per student) into a gradebook.
set -u
grade batch quantize "${1:-submissions}" --jobs 4 --csv gradebook.csv --json gradebook.json
