#!/usr/bin/env bash
# Runs the readers' fuzz tests with many more inputs than the suite does (20 000 each):
# mutated spec files and event logs, each rejection a typed error naming its line.
#   Scripts/fuzz.sh            # 100 000 inputs per fuzz test
#   Scripts/fuzz.sh 1000000    # or as many as you like
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-100000}"
FSM_FUZZ_COUNT="$count" swift test -c release --filter 'FuzzTests|LogTests/fuzz'
