#!/usr/bin/env bash
# How large each library's public API is for its size: public declarations per 100 lines of
# its sources, counted two ways.
#   symbols: the public symbols of its symbol graph (what DocC documents and a user's code can
#            name), leaving out names that start with `_` (not API, README "Stability") and the
#            members the compiler synthesizes;
#   lines:   the source lines that declare something `public` or `open` (imports aside), the
#            way a grep counts them, `_`-names included.
# The library modules are the products' (not the examples, which are the example machines'
# own API, nor the `fsm` tool's targets). Prints a table; never fails on a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=$(dirname "$(swift build --show-bin-path)")/symbolgraph
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# (It fails on the test modules when the tests are not built; the libraries' graphs are what counts.)
rm -rf "$graphs"
swift package dump-symbol-graph --minimum-access-level public >"$log" 2>&1 || true
for module in StateMachine StateMachineChecking StateMachineTesting FSMCommand StateMachineECMAScript; do
  if [ ! -f "$graphs/$module.symbols.json" ]; then
    tail -n 20 "$log" >&2
    echo "error: no symbol graph for $module" >&2
    exit 1
  fi
done
python3 - "$graphs" <<'EOF'
import glob, json, os, re, sys
graphs = sys.argv[1]
declaration = re.compile(r'^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:public|open)\s')
imports = re.compile(r'^\s*(?:@_exported\s+)?public\s+import\s')
modules = ['StateMachine', 'StateMachineChecking', 'StateMachineTesting', 'FSMCommand', 'StateMachineECMAScript']
total = [0, 0, 0]
print(f"{'module':24} {'lines':>7} {'symbols':>8} {'/100':>6} {'decl lines':>11} {'/100':>6}")
for module in modules:
    symbols = set()
    for path in glob.glob(f'{graphs}/{module}.symbols.json') + glob.glob(f'{graphs}/{module}@*.symbols.json'):
        for s in json.load(open(path))['symbols']:
            if s['accessLevel'] not in ('public', 'open'): continue
            if any(p.startswith('_') for p in s['pathComponents']) or '::SYNTHESIZED::' in s['identifier']['precise']: continue
            symbols.add(s['identifier']['precise'])
    lines = declared = 0
    for path in glob.glob(f'Sources/{module}/**/*.swift', recursive=True):
        for line in open(path):
            lines += 1
            if declaration.match(line) and not imports.match(line): declared += 1
    total = [total[0] + lines, total[1] + len(symbols), total[2] + declared]
    print(f"{module:24} {lines:7} {len(symbols):8} {100 * len(symbols) / lines:6.2f} {declared:11} {100 * declared / lines:6.2f}")
lines, symbols, declared = total
print(f"{'all of them':24} {lines:7} {symbols:8} {100 * symbols / lines:6.2f} {declared:11} {100 * declared / lines:6.2f}")
EOF
