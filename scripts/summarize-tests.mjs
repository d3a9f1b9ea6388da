// Sums the JSON reports of every runner into the one closing line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
const missing = [];

if (existsSync('.cache/reports/vitest.json')) {
  const report = JSON.parse(readFileSync('.cache/reports/vitest.json', 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A file that fails to load has no tests to count; count it once so it cannot pass silently.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  );
  failed += brokenFiles.length;
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
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
