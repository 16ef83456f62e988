#!/usr/bin/env bash
# Renders resources/icon.svg (the source, drawn for Tether) to resources/icon.png, 1024×1024 with a
# transparent ground, which electron-builder turns into .icns and .ico. Needs Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
page=$(mktemp --suffix=.html)
trap 'rm -f "$page"' EXIT
printf '<html><body style="margin:0;background:transparent"><img src="file://%s" width="1024" height="1024"></body></html>' "$PWD/resources/icon.svg" >"$page"
"${TETHER_CHROMIUM:-/usr/bin/chromium}" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --default-background-color=00000000 --window-size=1024,1024 --screenshot="$PWD/resources/icon.png" "$page" 2>/dev/null
