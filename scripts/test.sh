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

# Build and the two typechecks are independent and single-threaded for the most part: run side by
# side, they take as long as the longest (about 16 s on 2 cores instead of 31 s).
echo "== build, and typecheck (tsc --noEmit; worker code again without DOM or Node types: tsconfig.worker.json)"
# tsc reads Astro's generated types (.astro/), which a fresh clone does not have yet.
bash scripts/with-node.sh astro sync >test-results/sync.log 2>&1 || cat test-results/sync.log
bash scripts/with-node.sh astro build >test-results/build.log 2>&1 &
build_pid=$!
bash scripts/with-node.sh tsc --noEmit >test-results/tsc.log 2>&1 &
tsc_pid=$!
bash scripts/with-node.sh tsc --noEmit -p tsconfig.worker.json >test-results/tsc-worker.log 2>&1 &
tsc_worker_pid=$!
typecheck_ok=1
wait $tsc_pid || typecheck_ok=0
wait $tsc_worker_pid || typecheck_ok=0
cat test-results/tsc.log test-results/tsc-worker.log
if [ $typecheck_ok = 1 ]; then echo '{"passed":1,"failed":0}' >.cache/reports/typecheck.json
else echo '{"passed":0,"failed":1}' >.cache/reports/typecheck.json; status=1; fi
if ! wait $build_pid; then
  cat test-results/build.log
  echo "build failed"
  status=1
fi

echo "== lint and format check (biome check, biome.json)"
if bash scripts/with-node.sh biome check .; then echo '{"passed":1,"failed":0}' >.cache/reports/lint.json
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

RUNNERS_STATUS=$status bash scripts/with-node.sh node scripts/summarize-tests.mjs || status=1
exit $status
