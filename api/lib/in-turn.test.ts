import { describe, expect, it } from 'vitest';
import { inTurn } from './in-turn';

describe('inTurn: a few at a time, the rest in arrival order', () => {
  it('runs at most `limit` at once, starts the others in order, and frees the slot after a failure', async () => {
    const turns = inTurn(2);
    const started: number[] = [];
    const release: (() => void)[] = [];
    const calls = [0, 1, 2, 3].map((n) =>
      turns.run(async () => {
        started.push(n);
        await new Promise<void>((resolve) => release.push(resolve));
        if (n === 0) throw new Error('first fails');
        return n;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(turns.load).toEqual({ running: 2, waiting: 2 });
    release[0]();
    await expect(calls[0]).rejects.toThrow('first fails');
    expect(started).toEqual([0, 1, 2]);
    release[1]();
    release[2]();
    expect(await calls[1]).toBe(1);
    expect(await calls[2]).toBe(2);
    expect(started).toEqual([0, 1, 2, 3]);
    release[3]();
    expect(await calls[3]).toBe(3);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a limit below 1', () => {
    expect(() => inTurn(0)).toThrow('at least 1');
  });
});
