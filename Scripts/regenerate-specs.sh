#!/usr/bin/env bash
# Rewrites the generated part of Specs/<machine>.md from `fsm show` for every shipped machine,
# keeping the prose above the "<!-- generated -->" marker, and records Specs/<machine>.session.jsonl
# from the machine's demo (`fsm demo <machine> --record`).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product fsm >/dev/null
fsm=.build/debug/fsm
for name in $($fsm list | awk '{print $1}'); do
  file="Specs/$name.md"
  prose=""
  if [ -f "$file" ]; then prose=$(sed '/<!-- generated -->/,$d' "$file"); fi
  [ -n "$prose" ] || prose="# $name"
  {
    printf '%s\n<!-- generated -->\n\n' "$prose"
    $fsm show "$name" --format table
    printf '\n```mermaid\n'
    $fsm show "$name" --format mermaid
    printf '```\n'
  } >"$file.tmp"
  mv "$file.tmp" "$file"
  echo "wrote $file"
done
# A recorded session of every machine with a demo: the demo's run, on its manual clock.
for name in $($fsm demo --help >/dev/null; $fsm list | awk '{print $1}'); do
  log="Specs/$name.session.jsonl"
  rm -f "$log.tmp"
  if $fsm demo "$name" --speed 0 --record "$log.tmp" >/dev/null 2>&1; then
    mv "$log.tmp" "$log"
    echo "wrote $log"
  else
    rm -f "$log.tmp"
  fi
done
