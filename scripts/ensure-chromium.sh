#!/usr/bin/env bash
# Makes sure a Chromium exists for the browser tests: Playwright's own when it can be downloaded,
# else Debian's `chromium` (installed with apt-get when missing and we are root). Prints its path.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

playwright_path() {
  node -e "try{const p=require('playwright-core').chromium.executablePath();if(require('fs').existsSync(p)){console.log(p);process.exit(0)}}catch{}process.exit(1)" 2>/dev/null
}

if p=$(playwright_path); then echo "$p"; exit 0; fi
if [ -x /usr/bin/chromium ]; then echo /usr/bin/chromium; exit 0; fi

echo "[chromium] trying Playwright's download" >&2
if timeout 120 npx --no-install playwright install chromium >&2 2>&1 && p=$(playwright_path); then echo "$p"; exit 0; fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "[chromium] installing Debian's chromium with apt-get" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >&2 || true
fi
if [ -x /usr/bin/chromium ]; then echo /usr/bin/chromium; exit 0; fi
echo "[chromium] no Chromium available: install Debian's 'chromium' package or run 'npx playwright install chromium'" >&2
exit 1
