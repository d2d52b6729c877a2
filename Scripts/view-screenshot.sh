#!/usr/bin/env bash
# Makes the README's picture of `fsm view`: the shipped phone-login session's page, opened in
# headless Chromium at a step mid-session, saved as Specs/phone-login.session.png.
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "error: headless Chromium is needed (apt-get install chromium)" >&2; exit 1; }
page=$(mktemp -d)/phone-login.html
swift run -q fsm view phone-login Specs/phone-login.session.jsonl -o "$page"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,720 \
  --screenshot="$PWD/Specs/phone-login.session.png" "file://$page#step=8" 2>/dev/null
rm -rf "$(dirname "$page")"
echo "wrote Specs/phone-login.session.png"
