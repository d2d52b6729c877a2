#!/usr/bin/env bash
# The README's Swift snippets use the public API only. The tests compile every snippet (see
# ReadmeSnippetTests), but a test target is inside the package and also sees its `package`
# declarations, which a user's code does not. So this compiles the test files that hold the
# snippets once more, in a client package of its own beside the library (as a user's package
# depends on it), and fails when a compile error falls on a line of a README snippet. Errors on
# the tests' own lines (their helpers, and the `package` API the tests may use) are not its
# business.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
client=${README_CLIENT_DIR:-$root/.build-readme-client}
rm -rf "$client/Tests"
mkdir -p "$client/Tests/Snippets"

# The test files that hold README snippets: for each snippet, the first test file holding all
# its lines in order (as ReadmeSnippetTests finds them). The ECMAScript snippets need the
# opt-in trait and JavaScriptCore, which a fresh machine lacks: their files are left out.
python3 - "$root" "$client/Tests/Snippets" <<'EOF'
import glob, os, sys
root, out = sys.argv[1], sys.argv[2]
def code(line):
    i = line.find('//')
    if i >= 0 and line[:i].count('"') % 2 == 0: line = line[:i]
    return line.strip()
snippets, current = [], None
for n, line in enumerate(open(os.path.join(root, 'README.md')).read().split('\n')):
    fence = line.lstrip(' ')
    if current is None and fence.startswith('```swift'): current = []
    elif current is not None and fence.startswith('```'):
        if not (current and '// Package.swift' in current[0]): snippets.append([c for c in map(code, current) if c])
        current = None
    elif current is not None: current.append(line)
files = sorted(glob.glob(os.path.join(root, 'Tests/**/*.swift'), recursive=True))
raw = {f: open(f).read().split('\n') for f in files}
chosen = {}
for lines in snippets:
    for f in files:
        at, i = [], 0
        for number, x in enumerate(raw[f], 1):
            if i < len(lines) and code(x) and code(x) == lines[i]: (i, at) = (i + 1, at + [number])
        if i == len(lines):
            chosen.setdefault(f, set()).update(at)
            break
with open(os.path.join(out, '..', '..', 'snippet-lines.txt'), 'w') as lines_file:
    for f in sorted(chosen):
        if '/ECMAScriptTests/' in f: continue
        os.symlink(f, os.path.join(out, os.path.basename(f)))
        lines_file.write(os.path.basename(f) + ' ' + ' '.join(map(str, sorted(chosen[f]))) + '\n')
        print('snippets in', os.path.relpath(f, root))
EOF

cat > "$client/Package.swift" <<EOF
// swift-tools-version: 6.1
// Written by Scripts/readme-public-api.sh: a user's package, to compile the README's snippets.
import PackageDescription
let package = Package(
  name: "readme-client",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(path: "$root")],
  targets: [
    .testTarget(name: "Snippets", dependencies: [
      .product(name: "StateMachine", package: "$(basename "$root")"),
      .product(name: "StateMachineExamples", package: "$(basename "$root")"),
      .product(name: "StateMachineChecking", package: "$(basename "$root")"),
      .product(name: "StateMachineTesting", package: "$(basename "$root")"),
      .product(name: "FSMCommand", package: "$(basename "$root")"),
    ]),
  ],
  swiftLanguageModes: [.v6]
)
EOF

echo "== compiling the README's snippets as a user's package does"
status=0
(cd "$client" && swift build --build-tests -Xswiftc -continue-building-after-errors >"$client/build.log" 2>&1) || status=$?
if [ "$status" -ne 0 ] && ! grep -q 'error:' "$client/build.log"; then
  tail -n 30 "$client/build.log" >&2
  echo "error: the client package did not build for another reason (exit $status)" >&2
  exit 1
fi

# Every file was compiled (a module whose declarations fail may stop before its files' bodies).
for file in "$client"/Tests/Snippets/*.swift; do
  if ! grep -q "Compiling Snippets.* $(basename "$file")" "$client/build.log"; then
    echo "error: $(basename "$file") was not compiled; see $client/build.log" >&2
    exit 1
  fi
done

# The errors on README snippet lines.
python3 - "$root" "$client" <<'EOF'
import os, re, sys
root, client = sys.argv[1], sys.argv[2]
snippet_lines = {}
for entry in open(os.path.join(client, 'snippet-lines.txt')):
    name, *numbers = entry.split()
    snippet_lines[name] = set(map(int, numbers))
errors = set()
for line in open(os.path.join(client, 'build.log'), errors='replace'):
    m = re.match(r'(\S+/Tests/Snippets/[^:]+):(\d+):\d+: error: (.*)', line)
    if m: errors.add((m.group(1), int(m.group(2)), m.group(3).strip()))
bad = []
for path, n, message in sorted(errors):
    if n in snippet_lines.get(os.path.basename(path), ()):
        bad.append(f"{os.path.basename(path)}:{n}: {message}\n    {open(path).read().split(chr(10))[n - 1].strip()}")
for b in bad: print(b, file=sys.stderr)
if bad:
    print(f"error: {len(bad)} README snippet line(s) do not compile outside the package (they use API that is not public)", file=sys.stderr)
    sys.exit(1)
print(f"== every README snippet line compiles against the public API ({len(errors)} errors elsewhere in the tests' own code)")
EOF
