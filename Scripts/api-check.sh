#!/usr/bin/env bash
# Compares the public API of the library products with the release commit CHANGELOG.md names
# (`## 0.1.0 — release commit `<40 hex>``; a commit, since tags may not travel with a clone) and
# fails on any break that the changelog's Unreleased section does not list, in a line
# `- \`API breakage: …\`` as `swift package diagnose-api-breaking-changes` words it.
set -euo pipefail
cd "$(dirname "$0")/.."

release=$(sed -n 's/^## [0-9][0-9.]* .*release commit `\([0-9a-f]\{40\}\)`.*/\1/p' CHANGELOG.md | head -n 1)
if [ -z "$release" ]; then
  echo "error: CHANGELOG.md names no release commit (a heading '## 0.1.0 — release commit \`<40 hex digits>\`')" >&2
  exit 1
fi
if ! git cat-file -e "$release^{commit}" 2>/dev/null; then
  # A shallow clone: fetch the history (or at least that commit) before comparing.
  echo "== fetching release commit $release"
  git fetch --quiet --unshallow 2>/dev/null || git fetch --quiet --depth=1 origin "$release" 2>/dev/null || true
  if ! git cat-file -e "$release^{commit}" 2>/dev/null; then
    echo "error: the release commit $release is not in this clone and could not be fetched" >&2
    exit 1
  fi
fi

# The breaks the Unreleased section announces, one per line, as the tool reports them.
allowlist=$(mktemp)
trap 'rm -f "$allowlist"' EXIT
awk '/^## /{unreleased = ($0 ~ /^## Unreleased/)} unreleased' CHANGELOG.md \
  | sed -n 's/^- `\(API breakage: .*\)`$/\1/p' > "$allowlist"
echo "== API check against $release ($(wc -l < "$allowlist" | tr -d ' ') announced breaks)"

# The tool matches its allowlist against its reports itself, but trims the allowlist's lines and
# not its reports: a report that ends in a space ("... to ") could never be announced. So the
# comparison is made here, on trimmed lines; the tool runs without the allowlist.
run_check() {
  status=0
  swift package diagnose-api-breaking-changes "$release" \
    --products StateMachine StateMachineChecking StateMachineTesting FSMCommand \
    2>&1 | tee .api-check.log | grep -v '^\[[0-9]*/[0-9]*\]' || status=$?
  reported=$(grep -o 'API breakage: .*' .api-check.log | sed 's/[[:space:]]*$//' | sort -u || true)
}
run_check
if [ "$status" -gt 128 ] && [ -z "$reported" ]; then
  # The tool itself died by a signal before reporting anything (SwiftPM 6.3 has crashed in
  # BuildPlan.pkgConfig(for:) now and then, and the same check then passed): once more.
  echo "== the API check tool crashed (exit $status) before reporting; running it once more"
  cp .api-check.log .api-check-crash.log
  run_check
fi
if [ "$status" -ne 0 ] && [ -z "$reported" ]; then
  echo "error: the API check did not run to the end (exit $status): see .api-check.log" >&2
  exit 1
fi

# The tool builds with the package's name, so to it a declaration made `package` is still there:
# a declaration that left the public API that way is found by comparing the release's API (the
# tool's baseline dumps) with the public symbol graphs of the code now.
echo "== declarations the release had public that are not public now"
swift package dump-symbol-graph --minimum-access-level public >/dev/null
triple_dir=$(dirname "$(swift build --show-bin-path)")
graphs_now=$triple_dir/symbolgraph
baseline=$triple_dir/apidiff/$release
if [ ! -d "$graphs_now" ] || [ ! -d "$baseline" ]; then
  echo "error: no symbol graphs ($graphs_now) or no baseline dumps of $release ($baseline) to compare" >&2
  exit 1
fi
products=$(mktemp -d)
trap 'rm -f "$allowlist"; rm -rf "$products"' EXIT
for module in StateMachine StateMachineChecking StateMachineTesting FSMCommand; do
  cp "$graphs_now/$module.symbols.json" "$products"/
  for extension in "$graphs_now/$module@"*.symbols.json; do [ -e "$extension" ] && cp "$extension" "$products"/; done
done
hidden=$(python3 Scripts/api-no-longer-public.py "$baseline" "$products" .api-check.log)
printf '%s\n' "$hidden" | sed '/^$/d' | sed 's/^/  💔 /'
reported=$(printf '%s\n%s\n' "$reported" "$hidden" | sed '/^$/d' | sort -u)
unannounced=$(comm -23 <(printf '%s\n' "$reported" | sed '/^$/d') <(sed 's/[[:space:]]*$//' "$allowlist" | sort -u))
if [ -n "$unannounced" ]; then
  printf '%s\n' "$unannounced" | sed 's/^/  unannounced: /' >&2
  echo "error: the public API broke in a way CHANGELOG.md's Unreleased section does not announce;" >&2
  echo "       list each break there as a line: - \`API breakage: …\` (as reported above), under Breaking" >&2
  exit 1
fi
echo "== every break the API check reports is announced ($(printf '%s\n' "$reported" | sed '/^$/d' | wc -l | tr -d ' '))"
