#!/usr/bin/env bash
# Gradescope's setup.sh: runs once when the autograder image is built.
set -euo pipefail
apt-get update && apt-get install -y python3-pip python3-venv
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install "grade-autograder @ git+https://github.com/YOUR-COURSE/grade.git"
