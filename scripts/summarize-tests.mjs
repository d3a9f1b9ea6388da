// Sums the JSON reports of every runner into the one closing line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
const missing = [];

if (existsSync('.cache/reports/vitest.json')) {
  const report = JSON.parse(readFileSync('.cache/reports/vitest.json', 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A file that fails outside its tests (it does not load, or a beforeAll/afterAll hook throws) has
  // no failed test to count; count the file once so it cannot pass silently.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  );
  for (const file of brokenFiles) console.log(`vitest: ${file.name} failed outside its tests`);
  failed += brokenFiles.length;
  // An error vitest caught outside any file (an unhandled rejection) fails the run too.
  if (report.success === false && report.numFailedTests === 0 && brokenFiles.length === 0) {
    console.log('vitest: the run failed outside any test (see its log above)');
    failed += 1;
  }
} else missing.push('vitest');

if (existsSync('.cache/reports/playwright.json')) {
  const { stats, errors = [] } = JSON.parse(readFileSync('.cache/reports/playwright.json', 'utf8'));
  passed += stats.expected;
  failed += stats.unexpected + stats.flaky;
  failed += errors.length && stats.expected + stats.unexpected === 0 ? 1 : 0;
} else missing.push('playwright');

// The type check counts as one check: a type error anywhere fails it.
if (existsSync('.cache/reports/typecheck.json')) {
  const typecheck = JSON.parse(readFileSync('.cache/reports/typecheck.json', 'utf8'));
  passed += typecheck.passed;
  failed += typecheck.failed;
} else missing.push('typecheck');

// Lint (Biome) counts as one check too.
if (existsSync('.cache/reports/lint.json')) {
  const lint = JSON.parse(readFileSync('.cache/reports/lint.json', 'utf8'));
  passed += lint.passed;
  failed += lint.failed;
} else missing.push('lint');

if (missing.length) console.log(`no report from: ${missing.join(', ')}`);
failed += missing.length;
// A step that failed without a failed test to show for it (Chromium missing, the build) still fails
// the line: the line and the exit status never disagree.
if (process.env.RUNNERS_STATUS && process.env.RUNNERS_STATUS !== '0' && failed === 0) {
  console.log('a step before the summary failed (see its log above)');
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
