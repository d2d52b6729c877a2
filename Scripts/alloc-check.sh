#!/usr/bin/env bash
# Checks that a step allocates nothing: runs the loader and cd-player benchmarks under valgrind
# at two sizes (10x apart) and compares the total number of heap allocations. Equal totals mean
# zero allocations per step; the script prints the difference per event and fails if it is not 0.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
swift build -c release --product fsm >/dev/null
allocs() {
  valgrind --tool=memcheck --leak-check=no .build/release/fsm bench --workload "$1" --scale "$2" --repetitions 1 2>&1 \
    | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
status=0
for workload in loader cd-player; do
  small=$(allocs "$workload" 0.0002)
  large=$(allocs "$workload" 0.002)
  echo "$workload: $small allocations at scale 0.0002, $large at scale 0.002 (10x the events)"
  if [ "$small" != "$large" ]; then
    echo "$workload: steps allocate: $((large - small)) more allocations for 10x the events" >&2
    status=1
  fi
done
exit $status
