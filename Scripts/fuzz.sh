#!/usr/bin/env bash
# Runs the fuzz tests with many more inputs than the suite does, in a release build:
# mutated spec files and event logs (each rejection a typed error naming its line), and mutated
# SCXML documents and chart specs (each a typed error, or a chart that checks, runs and exports
# back to itself; no input slower than 5 s; peak memory under 1 GiB); a system's mutated log and
# snapshot, and documents that invoke others, run by `fsm run`.
#   Scripts/fuzz.sh            # 100 000 inputs per fuzz test
#   Scripts/fuzz.sh 1000000    # or as many as you like
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-100000}"
FSM_FUZZ_COUNT="$count" FSM_CHART_FUZZ_COUNT="$count" FSM_SYSTEM_FUZZ_COUNT="$count" FSM_INVOKE_FUZZ_COUNT="$count" swift test -c release --filter 'FuzzTests|LogTests/fuzz'
