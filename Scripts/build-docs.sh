#!/usr/bin/env bash
# Builds the DocC documentation of StateMachine, StateMachineChecking and StateMachineTesting
# to static HTML in .build-docs/site/<Module>, with the toolchain's `docc` (no package plugin).
# Fails on any DocC warning, and on any public symbol declared in Sources/ without a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-docs
graphs=$scratch/symbol-graphs
# A clean build: symbol graphs are written only for modules that compile.
rm -rf "$scratch"
mkdir -p "$graphs" "$scratch/site"
swift build --scratch-path "$scratch" --target StateMachineTesting \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
  -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public >/dev/null

docc=$(command -v docc || xcrun --find docc)
for module in StateMachine StateMachineChecking StateMachineTesting; do
  # Each module's own symbols, and its extensions of the others.
  mkdir -p "$graphs/$module"
  cp "$graphs/$module.symbols.json" "$graphs/$module"/
  for extension in "$graphs/$module@"*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$graphs/$module"/
  done
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "swift-state-machine.$module" \
    --transform-for-static-hosting --hosting-base-path "$module" \
    --warnings-as-errors \
    --output-path "$scratch/site/$module" >/dev/null
  echo "built $scratch/site/$module"
done
command -v python3 >/dev/null || { echo "error: python3 is needed to check the summaries" >&2; exit 1; }
python3 Scripts/check-doc-summaries.py "$graphs"
