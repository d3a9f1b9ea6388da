import { describe, expect, it, vi } from 'vitest';

describe('the console.error guard (tests/setup/console-guard.ts)', () => {
  it('lets a test that expects an error log replace console.error and assert on it', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    console.error('expected failure');
    expect(log).toHaveBeenCalledWith('expected failure');
    log.mockRestore();
  });

  it('has wrapped console.error so an unexpected call would fail the test', () => {
    // The guard installs its own function before each test; the original is not a wrapper of ours.
    expect(console.error.toString()).toContain('unexpected.push');
  });
});
