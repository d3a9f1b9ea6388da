import { afterEach, beforeEach } from 'vitest';

/**
 * Fails a test that logs console.error without saying it expects to: an error log in
 * a passing test is a bug nobody looked at. A test that expects one replaces console.error for the
 * duration, e.g. `vi.spyOn(console, 'error').mockImplementation(() => {})`, and asserts on the calls;
 * those calls never reach this guard.
 */
const original = console.error;
let unexpected: string[] = [];

beforeEach(() => {
  unexpected = [];
  console.error = (...args: unknown[]) => {
    // The per-request access line (api/middlewares/logger.ts) is logged at error level for 5xx
    // answers; the error behind it, if any, is logged on its own line and still caught here.
    if (typeof args[0] === 'string' && args[0].startsWith('{"level":"error","msg":"request"')) return original(...args);
    unexpected.push(
      args
        .map((a) => (a instanceof Error ? a.message : String(a)))
        .join(' ')
        .slice(0, 300),
    );
    original(...args);
  };
});

afterEach(() => {
  console.error = original;
  if (unexpected.length) {
    throw new Error(
      `Unexpected console.error (${unexpected.length}): ${unexpected.join(' | ')}. Spy on console.error in the test if it is expected.`,
    );
  }
});
