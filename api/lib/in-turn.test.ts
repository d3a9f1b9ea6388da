import { describe, expect, it } from 'vitest';
import { inTurn } from './in-turn';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('inTurn: a few at a time, the rest wait', () => {
  it('runs at most `limit` at once, runs every call, and frees the slot after a failure', async () => {
    const turns = inTurn(2, 1);
    let now = 0;
    let most = 0;
    const calls = Array.from({ length: 12 }, (_, n) =>
      turns.run(async () => {
        now++;
        most = Math.max(most, now);
        await tick(3);
        now--;
        if (n === 0) throw new Error('first fails');
        return n;
      }),
    );
    expect(turns.load).toEqual({ running: 2, waiting: 10 });
    const results = await Promise.allSettled(calls);
    expect(most).toBe(2);
    expect(results[0]).toMatchObject({ status: 'rejected', reason: new Error('first fails') });
    expect(results.slice(1).map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    ]);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a limit below 1', () => {
    expect(() => inTurn(0)).toThrow('at least 1');
  });
});
