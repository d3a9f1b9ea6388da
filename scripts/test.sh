#!/usr/bin/env bash
# `npm test`: build once, then every test: unit and API tests on both engines (vitest), the
# deploy dry run, and the browser tests (Playwright, Chromium). Ends with "N passed, N failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mkdir -p test-results .cache/reports
rm -f .cache/reports/vitest.json .cache/reports/playwright.json .cache/reports/typecheck.json .cache/reports/lint.json
status=0

chromium=$(bash scripts/with-node.sh bash scripts/ensure-chromium.sh) || status=1
export CHROMIUM_PATH="${chromium:-}"

echo "== build"
if ! bash scripts/with-node.sh astro build >test-results/build.log 2>&1; then
  cat test-results/build.log
  echo "build failed"
  status=1
fi

echo "== typecheck (tsc --noEmit; worker code again without DOM or Node types: tsconfig.worker.json)"
if bash scripts/with-node.sh tsc --noEmit && bash scripts/with-node.sh tsc --noEmit -p tsconfig.worker.json; then echo '{"passed":1,"failed":0}' >.cache/reports/typecheck.json
else echo '{"passed":0,"failed":1}' >.cache/reports/typecheck.json; status=1; fi

echo "== lint (biome, biome.json)"
if bash scripts/with-node.sh biome lint .; then echo '{"passed":1,"failed":0}' >.cache/reports/lint.json
else echo '{"passed":0,"failed":1}' >.cache/reports/lint.json; status=1; fi

echo "== vitest (node + workers)"
bash scripts/with-node.sh vitest run --reporter=default --reporter=json --outputFile.json=.cache/reports/vitest.json || status=1

echo "== playwright"
if [ -n "$CHROMIUM_PATH" ]; then
  bash scripts/with-node.sh playwright test || status=1
else
  echo "no Chromium: browser tests cannot run"
  status=1
fi

bash scripts/with-node.sh node scripts/summarize-tests.mjs || status=1
exit $status
